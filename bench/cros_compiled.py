"""Fixed-step CROS: the Python step (SciPy's complex sparse LU) vs the compiled step loop (issue 14).

Cases: the chain of bench/solver_speed.py (N = 2, 10, 50, 200 links) and the slider-crank example,
h = 1e-3 s, 1 s simulated, 10 outputs per run (the index-3 output work: rank check, multipliers),
``CROSStepper(compiled=False)`` ("python", gone since issue 30: its columns show "-" in a new run) and
``CROSStepper()`` ("compiled"), each in a fresh
process, best of ``--repeats`` after a warm-up (the stepper's start is not timed); the Python step at
N >= 50 one run. Also in the same run: compiled fixed-step galpha and our rk4 (no output), so that the
Exudyn GA figures of bench/results/exudyn_compare.md (quiet machine) can be set against this run's
load; the max constraint violation abs(Phi) over the outputs; and the cold compile time of a first cros
solve with an empty Numba cache (NUMBA_CACHE_DIR a fresh folder).

Run: /usr/bin/python3 bench/cros_compiled.py [--sizes 2 10 50 200] [--repeats 3] [--no-cold]
Writes bench/results/cros_compiled.{md,json}. Not part of the test suite.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.abspath(__file__)).rsplit(os.sep, 1)[0]
sys.path.insert(0, ROOT)
from bench.galpha_compiled import (  # noqa: E402
    case_model,
    exudyn_cells,
    rk4_steps_per_s,
    started_stepper,
    timed_outputs,
)

H = 1e-3
T_END = 1.0


def run_index3(case, what, t_end):
    """(steps/s, max abs(Phi) over the 10 outputs, steps) of fixed-step cros (compiled or Python) or
    compiled galpha; the stepper's start and the violation checks are not timed."""
    from MBDWorkbench.solver.integrators.cros import CROSStepper
    from MBDWorkbench.solver.integrators.galpha import GAlphaStepper

    def make(system, settings, Y):
        if what == "galpha":
            return GAlphaStepper(system, settings, 0.0, Y, adaptive=False)
        if what == "python":
            raise SystemExit(
                "the Python CROS step is gone since issue 30 (one step: the kernel); see the last run's file"
            )
        return CROSStepper(system, settings, 0.0, Y)

    stepper, Y = started_stepper(case, make)
    return (*timed_outputs(stepper, Y, t_end), stepper.steps)


def worker(case, t_end, repeats, what):
    if what == "rk4":
        return {"steps_per_s": rk4_steps_per_s(case, t_end, repeats)}
    run_index3("chain N=2", what, 0.02)  # warm-up (loads the compiled kernels)
    best = max(run_index3(case, what, t_end) for _ in range(repeats))
    return {"steps_per_s": best[0], "max_phi": best[1], "steps": best[2]}


def cold_worker():
    """Wall time of import + first cros solve of the slider-crank (0.05 s), compiled loop."""
    start = time.perf_counter()
    import numpy as np

    from MBDWorkbench.solver.integrators.cros import CROSStepper
    from MBDWorkbench.solver.system.assembly import assemble_initial_state
    from MBDWorkbench.solver.system.system import System

    model = case_model("slider-crank")
    system = System(model)
    Y, _ = assemble_initial_state(system, system.Y0.copy())
    CROSStepper(system, model.settings, 0.0, Y).advance(0.0, Y, 0.05, np.zeros(6))
    return {"seconds": time.perf_counter() - start}


# ----------------------------------------------------------------------------- driver
def spawn(args, env=None):
    """Run this script as a worker; returns its JSON."""
    out = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--worker", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(cases, repeats):
    rows = {}
    for case in cases:
        row = {}
        for what in ("compiled", "galpha", "rk4"):  # ('python': the Python step, gone since issue 30)
            row[what] = spawn(["--case", case, "--t-end", str(T_END), "--repeats", str(repeats), "--what", what])
            print(case, what, row[what], flush=True)
        rows[case] = row
    return rows


def cold():
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
        seconds = spawn(["--cold"], dict(os.environ, NUMBA_CACHE_DIR=cache))["seconds"]
    print("cold", seconds, flush=True)
    return seconds


def write(rows, cold_s, load0, load1):
    lines = [
        "# Fixed-step CROS: Python step vs compiled step loop",
        "",
        f"{time.strftime('%Y-%m-%d %H:%M')} UTC, Python {platform.python_version()}, {os.cpu_count()} CPUs shared "
        f"with other engineers: load average {load0:.2f} at start, {load1:.2f} at end. h = 1e-3 s, 1 s simulated, "
        "10 outputs per run, best of 3 (Python step at N >= 50: one run; the stepper's start not timed) after a "
        "warm-up, each in a fresh process. 'python': `CROSStepper(compiled=False)` (the step before this change: "
        "SciPy's complex sparse LU); 'compiled': `CROSStepper()`; 'galpha': compiled fixed-step generalized-alpha "
        "in the same run. Exudyn GA: bench/results/exudyn_compare.md (quiet machine, 2026-11-30, not rerun); "
        "'our rk4 now / then' compares our rk4 (no output) in this run with the same column of that file: below 1 "
        "this run was slowed by the load.",
        "",
        "| case | python [steps/s] | compiled [steps/s] | compiled / python | galpha [steps/s] | Exudyn GA [steps/s] "
        "| compiled / Exudyn GA | our rk4 now / then | max abs(Phi) compiled [m] | max abs(Phi) python [m] |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for case, r in rows.items():
        c = r["compiled"]
        lines.append(
            f"| {case} | - | {c['steps_per_s']:.0f} | - | {r['galpha']['steps_per_s']:.0f} | "
            + exudyn_cells(case, c["steps_per_s"], r.get("rk4"))
            + f"{c['max_phi']:.1e} | - |"
        )
    if cold_s is not None:
        lines += [
            "",
            f"Cold start (empty Numba cache; import + first 0.05 s cros solve of the slider-crank, compiled loop): "
            f"{cold_s:.0f} s (same load as above).",
        ]
    with open(os.path.join(ROOT, "bench", "results", "cros_compiled.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(ROOT, "bench", "results", "cros_compiled.json"), "w") as f:
        json.dump({"rows": rows, "cold_s": cold_s, "load": [load0, load1]}, f, indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="*", default=[2, 10, 50, 200])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-cold", action="store_true")
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--case")
    ap.add_argument("--t-end", type=float)
    ap.add_argument("--what", default="compiled")
    ap.add_argument("--cold", action="store_true")
    args = ap.parse_args()
    if args.worker:
        out = cold_worker() if args.cold else worker(args.case, args.t_end, args.repeats, args.what)
        print(json.dumps(out))
        return
    load0 = os.getloadavg()[0]
    rows = measure([f"chain N={n}" for n in args.sizes] + ["slider-crank"], args.repeats)
    cold_s = None if args.no_cold else cold()
    write(rows, cold_s, load0, os.getloadavg()[0])


if __name__ == "__main__":
    main()
