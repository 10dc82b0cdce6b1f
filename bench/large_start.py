"""Start-up and per-step cost of long chains (issue 14: "Chain N = 1000: per-step cost within
12x of N = 100 (linear)"), for this tree and an older one (``--before DIR``: a source tree, e.g.
``git archive <commit> | tar -x -C DIR``), each in a fresh process with a warm Numba cache.

Chain of N revolute links (bench/solver_speed.py), h = 1e-3 s, rk4 (and ``--integrators``: galpha,
cros). Start-up = what ``simulate`` spends before its clock starts (assembly, velocity projection,
start-of-run rank check; its total wall minus ``Results.wall_time``); 2 steps = ``wall_time`` of a
2-step run (the integrator's own start, e.g. the index-3 rank set-up, plus two steps); per step =
(``wall_time`` of a run of 2 + S steps of h - that of a 2-step run) / (the steps the two runs took: S for
the fixed-step integrators; galpha with step-size control takes its own), each run the best of ``--repeats``.
Writes bench/results/large_start.{md,json}.

Run: /usr/bin/python3 bench/large_start.py [--before DIR] [--sizes 100 1000] [--steps 200]
     [--integrators rk4 galpha cros] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "results")

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import MBDWorkbench.solver  # from the tree measured, before solver_speed puts this tree on the path
from MBDWorkbench.solver import simulate
sys.path.append(sys.argv[2])
from solver_speed import chain
n, steps, integrator, repeats = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
warm = chain(2); warm.settings.t_end = 0.002; simulate(warm, integrator=integrator)  # load the compiled kernels first
def run(k):
    m = chain(n); m.settings.t_end = k * 1e-3; m.settings.output_step = k * 1e-3
    t0 = time.perf_counter(); res = simulate(m, integrator=integrator, step=1e-3); total = time.perf_counter() - t0
    return total - res.wall_time, res.wall_time, res.status, res.steps
def best(k):
    return min((run(k) for _ in range(repeats)), key=lambda r: r[1])
start, short, s1, k1 = best(2)
_, long, s2, k2 = best(2 + steps)
out = dict(start_s=start, two_steps_s=short, per_step_s=(long - short) / (k2 - k1), steps_taken=k2 - k1)
out["status"] = [s1, s2]
print(json.dumps(dict(out, source=MBDWorkbench.__file__)))
"""


def measure(tree: str, n: int, steps: int, integrator: str, repeats: int) -> dict:
    """One fresh process on ``tree``: start-up [s], 2-step run [s] and per-step cost [s] of the N-chain."""
    bench_dir = os.path.join(ROOT, "bench")  # the chain builder of this tree for both
    out = subprocess.run(
        [sys.executable, "-c", CHILD, tree, bench_dir, str(n), str(steps), integrator, str(repeats)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="an older source tree to compare with")
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1000])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--integrators", nargs="+", default=["rk4"], choices=["rk4", "galpha", "cros"])
    ap.add_argument("--repeats", type=int, default=3, help="best of this many runs of each length")
    a = ap.parse_args()
    trees = ([("before", a.before)] if a.before else []) + [("after", ROOT)]
    load0 = os.getloadavg()
    rows = {
        f"{label} {integ}": {n: measure(tree, n, a.steps, integ, a.repeats) for n in a.sizes}
        for integ in a.integrators
        for label, tree in trees
    }
    data = dict(
        date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        python=platform.python_version(),
        cpus=os.cpu_count(),
        load_start=load0,
        load_end=os.getloadavg(),
        steps=a.steps,
        repeats=a.repeats,
        rows=rows,
    )
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "large_start.json"), "w") as f:
        json.dump(data, f, indent=1)
    lines = [
        "# Long chains: start-up and per-step cost (bench/large_start.py)",
        "",
        f"{data['date']}, Python {data['python']}, {data['cpus']} CPUs, load average "
        f"{load0[0]:.2f} at start, {data['load_end'][0]:.2f} at end; h = 1e-3 s, per step from runs of "
        f"2 + {a.steps} and 2 steps of h (divided by the steps taken), best of {a.repeats}; warm Numba cache.",
        "",
        "| tree, integrator | N | start-up [s] | 2 steps [s] | steps taken | per step [ms] | status |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, by_n in rows.items():
        for n, r in by_n.items():
            two = f"{r['two_steps_s']:.3f}" if "two_steps_s" in r else "-"
            taken = r.get("steps_taken", a.steps)
            lines.append(
                f"| {label} | {n} | {r['start_s']:.2f} | {two} | {taken} | {1e3 * r['per_step_s']:.3f} | "
                f"{r['status'][1]} |"
            )
    for label, by_n in rows.items():
        if 100 in by_n and 1000 in by_n:
            ratio = by_n[1000]["per_step_s"] / by_n[100]["per_step_s"]
            lines.append("")
            lines.append(f"Per-step cost N = 1000 / N = 100 ({label}): {ratio:.1f} (target: within 12).")
    with open(os.path.join(OUT, "large_start.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
