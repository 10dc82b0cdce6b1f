# GUI macro for tests/gui/test_solve_gaps_gui.py and bench/gui_gaps.py: the largest event-loop gap
# (not a percentile) over a whole Solve (MBD_Solve from the click to its summary box: the model built
# from the document, the run in its worker thread, the results stored and plotted) must stay under
# 100 ms. A 10 ms QTimer ticks in the GUI thread; a watchdog thread samples the GUI thread's Python
# stack whenever it has not ticked for 40 ms, so a gap names what blocked it.
# Environment: MBD_GAP_COLD=1 (Solve at once, without waiting for the background compile),
# MBD_GAP_CASES (comma-separated "example:end_time", default the slider-crank and the four-bar to 20 s),
# MBD_GAP_RUNS (Solves per case, default 2).
# Names App, Gui, QtCore, OUT_DIR, result, check, wait, close_message_boxes come from the runner.
import os
import shutil
import sys
import threading
import time
import traceback

import MBDWorkbench

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
from MBDWorkbench.cad.objects import find_simulation  # noqa: E402
from MBDWorkbench.commands import solve_commands  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples")
CASES = os.environ.get("MBD_GAP_CASES", "slider_crank.FCStd:20,four_bar.FCStd:20").split(",")
RUNS = int(os.environ.get("MBD_GAP_RUNS", "2"))
TICK_MS, STALL_S = 10, 0.04
GUI_THREAD = threading.get_ident()

COLD = os.environ.get("MBD_GAP_COLD") == "1"  # an empty cache: Solve while the kernels compile in the background
deadline = time.time() + 600
while not COLD and not solve_commands.warm_up_state().get("done") and time.time() < deadline:
    wait(200)
result["warm_up"] = solve_commands.warm_up_state()


class Watch:
    """The GUI thread's ticks and, while it stalls, samples of its (and the worker's) stack."""

    def __init__(self):
        self.ticks, self.samples, self.running = [], [], False

    def tick(self):
        self.ticks.append(time.perf_counter())

    def stack(self, ident):
        frame = sys._current_frames().get(ident)
        if frame is None:
            return []
        return ["%s:%d %s" % (os.path.basename(f.filename), f.lineno, f.name) for f in traceback.extract_stack(frame)][
            -14:
        ]

    def sample(self):
        while self.running:
            time.sleep(0.005)
            last = self.ticks[-1] if self.ticks else None
            now = time.perf_counter()
            if last is not None and now - last > STALL_S:
                worker = next((t.ident for t in threading.enumerate() if t.name == "MBD solve"), None)
                self.samples.append(
                    dict(at=now, since_tick=now - last, gui=self.stack(GUI_THREAD), worker=self.stack(worker))
                )

    def gaps(self):
        return [(b - a, a, b) for a, b in zip(self.ticks, self.ticks[1:])]


def solve_once(doc):
    watch = Watch()
    timer = QtCore.QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(watch.tick)
    seen = []
    close_message_boxes(seen, 600000)
    watch.running = True
    sampler = threading.Thread(target=watch.sample, daemon=True)
    sampler.start()
    timer.start()
    watch.tick()
    started, cpu = time.perf_counter(), time.process_time()
    Gui.runCommand("MBD_Solve")  # returns when the summary box is open (closed by close_message_boxes)
    solve_wall, solve_cpu = time.perf_counter() - started, time.process_time() - cpu
    watch.tick()
    wait(50)
    timer.stop()
    watch.running = False
    sampler.join()
    gaps = watch.gaps()
    worst = max(gaps) if gaps else (None, None, None)
    blocked = [s for s in watch.samples if worst[1] is not None and worst[1] <= s["at"] - s["since_tick"] + 1e-3]
    return dict(
        status_ok=bool(seen and "status: completed" in seen[0][2]),
        solve_wall_s=solve_wall,
        freecad_cpu_s=solve_cpu,  # CPU time of FreeCAD's whole process (all its threads) over the Solve
        ticks=len(watch.ticks),
        max_gap_s=worst[0],
        max_gap_at_s=None if worst[1] is None else worst[1] - started,
        gaps_over_50ms=sorted(round(g[0], 4) for g in gaps if g[0] > 0.05),
        stall_samples=[dict(s, at=s["at"] - started) for s in watch.samples][:60],
        worst_gap_samples=[dict(s, at=s["at"] - started) for s in blocked if s["at"] <= worst[2]][:20],
    )


runs = []
for case in CASES:
    example, end = case.split(":")
    path = os.path.join(OUT_DIR, "gaps_" + example)
    shutil.copy(os.path.join(EXAMPLES, example), path)
    doc = App.openDocument(path)
    sim = find_simulation(doc)
    sim.EndTimeMilliseconds = round(float(end) * 1000)
    doc.recompute()
    App.setActiveDocument(doc.Name)
    wait(300)
    for k in range(RUNS):
        run = solve_once(doc)
        run.update(case=case, run=k + 1, load_average=os.getloadavg())
        runs.append(run)
        check("%s run %d completed" % (case, k + 1), run["status_ok"], run["solve_wall_s"])
    App.closeDocument(doc.Name)
    wait(200)
result["runs"] = runs
result["max_gap_s"] = max(r["max_gap_s"] for r in runs)
result["load_average"] = os.getloadavg()
