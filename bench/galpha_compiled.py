"""Fixed-step generalized-alpha before and after the compiled step loop (issue 14).

Cases: the chain of bench/solver_speed.py (N = 2, 10, 50, 100, 200, 1000 links) and the
slider-crank example, h = 1e-3 s, ``GAlphaStepper(adaptive=False)``, 10 outputs per run (the
index-3 output work: rank check, multipliers). "before" is the Python step loop of the base
commit (``git archive`` of ``--base``, default the merge base with main), "after" this tree's
compiled loop; each case runs before and after in fresh subprocesses, interleaved, best of
``--repeats`` after a warm-up (the steppers' start, a dense SVD of Phi_q that takes minutes at N = 1000, is not
timed). Also: ours ``rk4`` (no output) in the same run, so that the
Exudyn GA figures of bench/results/exudyn_compare.md (measured with rk4 on a quiet machine) can
be compared with this run's load; the max constraint violation |Phi| over the outputs; and the cold
compile time of a first galpha solve with an empty Numba cache (NUMBA_CACHE_DIR a fresh folder).

Run: /usr/bin/python3 bench/galpha_compiled.py [--sizes 2 10 50 100 200 1000] [--no-cold | --cold-only]
Writes bench/results/galpha_compiled.{md,json}. Not part of the test suite.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
H = 1e-3
# Exudyn 1.13.6 GA and our rk4 (no output), steps/s, from bench/results/exudyn_compare.md (2026-11-30)
EXUDYN_GA = {"chain N=2": 1000 / 0.0190, "chain N=10": 1000 / 0.1159, "chain N=50": 1000 / 0.5169}
EXUDYN_GA.update({"chain N=200": 1000 / 1.9615, "slider-crank": 2000 / 0.0767})
RK4_THEN = {"chain N=2": 1000 / 0.0144, "chain N=10": 1000 / 0.0462, "chain N=50": 1000 / 0.2022}
RK4_THEN.update({"chain N=200": 1000 / 0.8026, "slider-crank": 2000 / 0.0407})


# ----------------------------------------------------------------------------- worker (subprocess)
def case_model(case):
    from bench.solver_speed import chain
    from MBDWorkbench.solver import load

    if case == "slider-crank":
        return load(os.path.join(ROOT, "examples", "slider_crank.json"))
    return chain(int(case.split("=")[1]))


def started_stepper(case, make):
    """(stepper, Y) of ``make(system, settings, Y)`` on the case, h = H, from the assembled state."""
    from MBDWorkbench.solver.system.assembly import assemble_initial_state
    from MBDWorkbench.solver.system.system import System

    model = case_model(case)
    model.settings.step = H
    system = System(model)
    Y, _ = assemble_initial_state(system, system.Y0.copy())
    return make(system, model.settings, Y), Y


def timed_outputs(stepper, Y, t_end):
    """(steps/s, max |Phi| over the 10 outputs) of an index-3 stepper from 0 to t_end; the
    violation checks are not timed."""
    import numpy as np

    start = time.perf_counter()
    acc, t, phis = np.zeros(6), 0.0, []
    for k in range(1, 11):
        t, _ = stepper.advance(t, Y, t_end * k / 10, acc)
        wall = time.perf_counter() - start
        phis.append(np.abs(stepper._evaluate(t, Y)["phi"]).max(initial=0.0))
        start = time.perf_counter() - wall
    wall = time.perf_counter() - start
    return stepper.steps / wall, max(phis)


def rk4_steps_per_s(case, t_end, repeats):
    """Best steps/s of our rk4 on the case (h = H, one output)."""
    from MBDWorkbench.solver import simulate

    model = case_model(case)
    simulate(model, integrator="rk4", t_end=0.01, step=H)
    best = min(
        simulate(model, integrator="rk4", t_end=t_end, step=H, output_step=t_end).wall_time for _ in range(repeats)
    )
    return round(t_end / H) / best


def run_galpha(case, t_end):
    """(steps/s, max |Phi| over the 10 outputs, steps, factorisations) of fixed-step galpha; the
    stepper's start (rank analysis: a dense SVD of Phi_q) and the violation checks are not timed."""
    from MBDWorkbench.solver.integrators.galpha import GAlphaStepper

    stepper, Y = started_stepper(
        case, lambda system, settings, Y: GAlphaStepper(system, settings, 0.0, Y, adaptive=False)
    )
    steps_per_s, max_phi = timed_outputs(stepper, Y, t_end)
    return steps_per_s, max_phi, stepper.steps, stepper.factorizations


def worker(case, t_end, repeats, what):
    if what == "rk4":
        return {"steps_per_s": rk4_steps_per_s(case, t_end, repeats)}
    run_galpha("chain N=2", 0.02)  # warm-up (loads the compiled kernels)
    runs = [run_galpha(case, t_end) for _ in range(repeats if "1000" not in case else 1)]
    best = max(runs)
    return {"steps_per_s": best[0], "max_phi": best[1], "steps": best[2], "factorizations": best[3]}


def cold_worker(compiled):
    """Wall time of import + first fixed-step galpha solve of the slider-crank (0.05 s)."""
    start = time.perf_counter()
    import numpy as np

    from MBDWorkbench.solver.integrators.galpha import GAlphaStepper
    from MBDWorkbench.solver.system.assembly import assemble_initial_state
    from MBDWorkbench.solver.system.system import System

    model = case_model("slider-crank")
    system = System(model)
    Y, _ = assemble_initial_state(system, system.Y0.copy())
    # (compiled: the loop of this tree; the Python step loop of the tree before issue 14 takes no argument)
    GAlphaStepper(system, model.settings, 0.0, Y, adaptive=False).advance(0.0, Y, 0.05, np.zeros(6))
    return {"seconds": time.perf_counter() - start}


# ----------------------------------------------------------------------------- driver
def spawn(src, args, env=None):
    """Run this script as a worker with ``src`` first on sys.path; returns its JSON."""
    here = os.path.abspath(__file__)
    code = (
        f"import sys, json; sys.path.insert(0, {src!r}); sys.path.insert(1, {ROOT!r}); "
        f"sys.argv = ['x'] + {args!r}; import runpy; runpy.run_path({here!r}, run_name='__worker__')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=src)
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def base_tree(base):
    """The solver package of commit ``base`` extracted into a temporary folder."""
    folder = tempfile.mkdtemp(prefix="galpha-base-")
    archive = subprocess.run(["git", "-C", ROOT, "archive", base, "MBDWorkbench", "bench"], capture_output=True)
    subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
    return folder


def t_end_for(case):
    """Simulated time [s]: 1 s (0.2 s for 1000 links), the same before and after."""
    return 0.2 if case == "chain N=1000" else 1.0


def measure(cases, base, repeats):
    rows = {}
    for case in cases:
        row = {}
        for label, src in (("before", base), ("after", ROOT), ("rk4", ROOT)):
            what = "rk4" if label == "rk4" else "galpha"
            t_end = t_end_for(case)
            row[label] = spawn(src, ["--case", case, "--t-end", str(t_end), "--repeats", str(repeats), "--what", what])
            print(case, label, row[label], flush=True)
        rows[case] = row
    return rows


def cold(base):
    out = {}
    for label, src, compiled in (("before", base, None), ("after", ROOT, True)):
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            out[label] = spawn(src, ["--cold", "1" if compiled else "0"], env)["seconds"]
            print("cold", label, out[label], flush=True)
    return out


def exudyn_cells(case: str, steps_per_s: float, rk4: dict | None) -> str:
    """The table cells "Exudyn GA [steps/s] | ours / Exudyn | our rk4 now / then | " of ``case``
    against the stored quiet-machine run (EXUDYN_GA, RK4_THEN; "-" where it has no such case or
    this run measured no rk4)."""
    exu = EXUDYN_GA.get(case)
    cells = f"{exu:.0f} | {steps_per_s / exu:.2f} | " if exu else "- | - | "
    if case in RK4_THEN and rk4 is not None:
        return cells + f"{rk4['steps_per_s'] / RK4_THEN[case]:.2f} | "
    return cells + "- | "


def write(rows, cold_times, load0, load1, base):
    lines = [
        "# Fixed-step generalized-alpha: Python step loop (before) vs compiled loop (after)",
        "",
        f"{time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, {os.cpu_count()} CPUs shared with other "
        f"engineers: load average {load0:.2f} at start, {load1:.2f} at end. Before: base commit {base}; after: "
        "this tree. h = 1e-3 s, `GAlphaStepper(adaptive=False)`, 10 outputs per run, best of 3 (N = 1000: one "
        "run; the start of a stepper not timed) after a warm-up, 1 s simulated (N = 1000: 0.2 s), "
        "each in a fresh process, before/after interleaved per case. Exudyn GA: bench/results/exudyn_compare.md "
        "(quiet machine, 2026-11-30, not rerun: no Exudyn venv here); 'our rk4 now / then' compares our rk4 "
        "(no output) in this run with the same column of that file: below 1 this run was slowed by the load.",
        "",
        "| case | before [steps/s] | after [steps/s] | after / before | Exudyn GA [steps/s] | after / Exudyn | "
        "our rk4 now / then | max abs(Phi) after [m] | max abs(Phi) before [m] | factorisations / steps (after) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for case, r in rows.items():
        b, a = r["before"], r["after"]
        lines.append(
            f"| {case} | {b['steps_per_s']:.0f} | {a['steps_per_s']:.0f} | {a['steps_per_s'] / b['steps_per_s']:.1f} | "
            + exudyn_cells(case, a["steps_per_s"], r.get("rk4"))
            + f"{a['max_phi']:.1e} | {b['max_phi']:.1e} | {a['factorizations']} / {a['steps']} |"
        )
    if "chain N=100" in rows and "chain N=1000" in rows:
        ratio = rows["chain N=100"]["after"]["steps_per_s"] / rows["chain N=1000"]["after"]["steps_per_s"]
        lines += ["", f"Per-step cost, chain N = 1000 / N = 100 (after): {ratio:.1f} (target: within 12)."]
    if cold_times:
        lines += [
            "",
            "Cold start (empty Numba cache; import + first 0.05 s fixed-step galpha solve of the slider-crank): "
            f"before {cold_times['before']:.0f} s, after {cold_times['after']:.0f} s (same load as above).",
        ]
    with open(os.path.join(ROOT, "bench", "results", "galpha_compiled.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(ROOT, "bench", "results", "galpha_compiled.json"), "w") as f:
        json.dump({"rows": rows, "cold": cold_times, "load": [load0, load1], "base": base}, f, indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="*", default=[2, 10, 50, 100, 200, 1000])
    ap.add_argument("--base", default=None)
    ap.add_argument("--base-tree", default=None, help="an already exported base tree (its Numba cache is kept)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-cold", action="store_true")
    ap.add_argument("--cold-only", action="store_true", help="add the cold start to the existing results")
    args = ap.parse_args()
    base = (
        args.base
        or subprocess.run(
            ["git", "-C", ROOT, "merge-base", "HEAD", "main"], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    src = args.base_tree or base_tree(base)
    if args.cold_only:
        with open(os.path.join(ROOT, "bench", "results", "galpha_compiled.json")) as f:
            old = json.load(f)
        write(old["rows"], cold(src), *old["load"], old["base"])
        return
    load0 = os.getloadavg()[0]
    rows = measure([f"chain N={n}" for n in args.sizes] + ["slider-crank"], src, args.repeats)
    cold_times = None if args.no_cold else cold(src)
    write(rows, cold_times, load0, os.getloadavg()[0], base[:10])


def worker_main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case")
    ap.add_argument("--t-end", type=float)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--what", default="galpha")
    ap.add_argument("--cold", default=None)
    args = ap.parse_args()
    if args.cold is not None:
        print(json.dumps(cold_worker(None if args.cold == "0" else True)))
    else:
        print(json.dumps(worker(args.case, args.t_end, args.repeats, args.what)))


if __name__ == "__main__":
    main()
elif __name__ == "__worker__":
    worker_main()
