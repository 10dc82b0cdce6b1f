# GUI macro for tests/gui/test_cold_start_gui.py: a first Solve on an EMPTY solver cache (the test
# points XDG_CACHE_HOME at an empty folder and sets MBD_COLD_START=interpret). The Solve runs in the
# solver process (solver/solve_process.py) with the kernels interpreted while its background process
# compiles them (solver/numerics/cold_start.py): nothing compiles or solves in FreeCAD's process, the
# event loop keeps ticking, and after the background compile a second Solve (compiled kernels, loaded
# from the cache) gives the same samples.
# Names App, Gui, QtCore, OUT_DIR, result, check, wait, close_message_boxes come from the runner.
import os
import shutil
import time

from numba.core import event

import MBDWorkbench

compiles = []


class CompileCounter(event.Listener):
    def on_start(self, ev):
        compiles.append(ev.data["dispatcher"].py_func.__name__)

    def on_end(self, ev):
        pass


event.register("numba:compile", CompileCounter())
Gui.activateWorkbench("MultibodyDynamicsWorkbench")
from MBDWorkbench.cad.objects import find_simulation  # noqa: E402
from MBDWorkbench.cad.results_store import load_results  # noqa: E402
from MBDWorkbench.commands import solve_commands  # noqa: E402
from MBDWorkbench.solver.integrators import METHODS  # noqa: E402
from MBDWorkbench.solver.numerics import cold_start, jit  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples")
path = os.path.join(OUT_DIR, "slider_crank.FCStd")
shutil.copy(os.path.join(EXAMPLES, "slider_crank.FCStd"), path)
doc = App.openDocument(path)
sim = find_simulation(doc)
sim.EndTimeMilliseconds = 500
doc.recompute()
wait(100)
warm = solve_commands.warm_up_state()
check("warm-up compiling in the background", warm.get("done") is False, warm)


def solve_and_time():
    ticks = []
    timer = QtCore.QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    seen = []
    close_message_boxes(seen, 600000)
    timer.start()
    Gui.runCommand("MBD_Solve")
    wait(100)
    timer.stop()
    gaps = sorted(b - a for a, b in zip(ticks, ticks[1:]))
    return seen, gaps


seen, gaps = solve_and_time()
first = load_results(sim)
result["first_solve"] = dict(compiles=list(compiles), ticks=len(gaps) + 1)
result["first_solve"]["p90_gap_s"] = gaps[int(0.9 * (len(gaps) - 1))] if gaps else None
check("first Solve completed", seen and "status: completed" in seen[0][2], seen)
check("no kernel ran in FreeCAD's process", jit.stop_reason() is None, jit.stop_reason())
check("nothing compiled in FreeCAD's process", not compiles, compiles)
check("the background compile still runs after it", not solve_commands.warm_up_state().get("done"))
check("the event loop kept ticking", len(gaps) >= 20 and gaps[int(0.9 * (len(gaps) - 1))] < 0.1, gaps[-5:])

deadline = time.time() + 600
while not solve_commands.warm_up_state().get("done") and time.time() < deadline:
    wait(250)
state = solve_commands.warm_up_state()
result["warm_up"] = state
check("background compile finished without error", state.get("done") and "error" not in state, state)
check("the kernels are in the cache", cold_start.is_cached(METHODS["rk4"].entry_kernel))
seen, gaps = solve_and_time()
second = load_results(sim)
check("second Solve completed", seen and "status: completed" in seen[0][2], seen)
check("second Solve: compiled kernels loaded from the cache, none compiled", not compiles, compiles)
shape_ok = first.t.shape == second.t.shape and len(first.t) > 10
diffs = {}
for body in second.body_names:
    a, b = first.position(body), second.position(body)
    diffs[body] = float(abs(a - b).max())
result["position_differences_m"] = diffs
check("same samples interpreted and compiled", shape_ok and max(diffs.values()) < 1e-9, diffs)
