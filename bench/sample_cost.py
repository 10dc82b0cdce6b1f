"""The CPU cost per output sample of ours on the scenes of bench/peers_events.py, split by where
it goes (issue 33 item 7): each listed function's CPU time (time.process_time, accumulated around
its calls) per output sample, and the run's total (best of REPEATS runs); *fast path*: the compiled
calls that integrate many output intervals at once (solver/sample_path.py), their event checks
included; *record_many*: the fast path's rows recorded; *System()*: the run's model build, once a
run (a fixed cost, here spread over the samples). Runs in .venv-bench like peers_events.py (its
models); prints a markdown table (bench/results/sample_cost.md).

    .venv-bench/bin/python bench/sample_cost.py
"""

from __future__ import annotations

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench import peers_events as scenes  # noqa: E402
from MBDWorkbench.solver import from_dict, simulate  # noqa: E402
from MBDWorkbench.solver.events import StopMonitor  # noqa: E402
from MBDWorkbench.solver.results import results  # noqa: E402
from MBDWorkbench.solver.sample_path import SamplePath  # noqa: E402
from MBDWorkbench.solver.system.system import System  # noqa: E402

simulate_module = sys.modules["MBDWorkbench.solver.simulate"]
SPENT: dict[str, float] = {}
REPEATS = 3  # the run of the least CPU time is shown
PARTS = [  # (label, owner, attribute): what is timed
    ("record", results.Results, "record"),
    ("evaluate", System, "evaluate"),
    ("contacts.csv", results, "contact_sample"),
    ("event checks", StopMonitor, "advance"),
    ("integration", simulate_module, "_advance"),
    ("fast path", SamplePath, "advance"),
    ("sample check", simulate_module, "_check_samples"),
    ("record_many", results.Results, "record_many"),
    ("System()", simulate_module, "System"),
]


def timed(label: str, f):
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return f(*args, **kwargs)
        finally:
            SPENT[label] = SPENT.get(label, 0.0) + time.process_time() - start

    return wrapper


def captured(build) -> tuple[dict, dict]:
    """(model, overrides) that one of peers_events' ours_* functions would simulate."""
    seen = {}

    def grab(model, **overrides):
        seen.update(model=model, overrides=overrides)
        raise StopIteration

    scenes.run_ours, keep = grab, scenes.run_ours
    try:
        build()
    except StopIteration:
        pass
    finally:
        scenes.run_ours = keep
    return seen["model"], seen["overrides"]


SCENES = {
    "stop, rigid": lambda: scenes.ours_stop("rigid", 1e-4, 1.5),
    "stop, compliant": lambda: scenes.ours_stop("compliant", 1e-4, 1.5),
    "stop, rigid, rk4_tree": lambda: scenes.ours_stop("rigid", 1e-4, 1.5, "rk4_tree"),
    "stop, compliant, rk4_tree": lambda: scenes.ours_stop("compliant", 1e-4, 1.5, "rk4_tree"),
    "ball": lambda: scenes.ours_ball(0.9, 1e-5),
    "hertz": lambda: scenes.ours_hertz(5e-7),
    "block": lambda: scenes.ours_block(1e-4, 0.6),
    "friction": lambda: scenes.ours_friction(1e-3, 3.0),
}


def main() -> None:
    for label, owner, name in PARTS:
        setattr(owner, name, timed(label, getattr(owner, name)))
    print(f"load average (1 min) {os.getloadavg()[0]:.1f}; CPU us per output sample (evaluate: also the event checks')")
    print("| scene | samples | total | " + " | ".join(p[0] for p in PARTS) + " |")
    print("|---" * (len(PARTS) + 3) + "|")
    for scene, build in SCENES.items():
        model, overrides = captured(build)
        built = from_dict(model)
        simulate(built, **overrides)  # warm
        runs = []
        for _ in range(REPEATS):
            SPENT.clear()
            start = time.process_time()
            res = simulate(built, **overrides)
            runs.append((time.process_time() - start, dict(SPENT)))
        (total, spent), n = min(runs, key=lambda r: r[0]), len(res.t)
        cells = " | ".join(f"{spent.get(p[0], 0.0) / n * 1e6:.1f}" for p in PARTS)
        print(f"| {scene} | {n} | {total / n * 1e6:.1f} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
