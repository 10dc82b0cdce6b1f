# GUI macro for bench/results/gui_cold_start.md (not a test): wall time of the first Solve of the
# slider-crank example (examples/slider_crank.FCStd) in a fresh FreeCAD session. Run it with an
# empty solver cache (XDG_CACHE_HOME=<empty folder>, see MBDWorkbench/solver/_cache.py):
#   MBD_COLD_MODE=after_warmup  activate the workbench, wait for the background kernel warm-up,
#                               then Solve (the user opens a document and sets it up meanwhile);
#   MBD_COLD_MODE=now           Solve right after activating (the warm-up is still compiling);
#   MBD_NO_WARMUP=1             no warm-up: the first Solve compiles (the behaviour before).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, close_message_boxes are
# provided by the runner.
import os
import shutil
import time

import MBDWorkbench

mode = os.environ.get("MBD_COLD_MODE", "now")
result["mode"] = mode
result["warm_up_disabled"] = bool(os.environ.get("MBD_NO_WARMUP"))
result["cache_home"] = os.environ.get("XDG_CACHE_HOME")
started = time.perf_counter()
Gui.activateWorkbench("MultibodyDynamicsWorkbench")
from MBDWorkbench.commands import solve_commands  # noqa: E402

ticks = []
timer = QtCore.QTimer()
timer.setInterval(20)
timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
timer.start()
if mode == "after_warmup":
    while not solve_commands.warm_up_state().get("done") and time.perf_counter() - started < 900:
        wait(100)
    result["warm_up"] = solve_commands.warm_up_state()
    result["warm_up_wall_s"] = time.perf_counter() - started
path = os.path.join(OUT_DIR, "slider_crank.FCStd")
examples = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples")
shutil.copy(os.path.join(examples, "slider_crank.FCStd"), path)
doc = App.openDocument(path)
wait(100)
seen = []
close_message_boxes(seen, 900000)
solve_started = time.perf_counter()
Gui.runCommand("MBD_Solve")
solve_s = time.perf_counter() - solve_started
wait(100)
timer.stop()
during = [t for t in ticks if solve_started <= t]
gaps = [b - a for a, b in zip(during, during[1:])]
result["first_solve_wall_s"] = solve_s
result["activation_to_results_s"] = time.perf_counter() - started
result["max_event_loop_gap_during_solve_s"] = max(gaps) if gaps else None
check("solved", seen and "status: completed" in seen[0][2], seen)
