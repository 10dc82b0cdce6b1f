"""Cost and effect of the ODE-form constraint solve: this tree against an older source tree.

Runs the cases of ``bench/solver_speed.py`` (rk4, h = 1e-3 s, 1 s: spatial pendulum chains of
N = 2, 10, 50, 200 links, the slider-crank example) plus redundant models (the spatial four-bar
example, IFToMM A02 with N = 2 and N = 10 windows) in both trees, interleaved, each repeat in a
fresh process per tree, and keeps the best steps/s of each. Then IFToMM A02 (N = 2, rk4,
h = 1e-3 s, 10 s) in both trees: how far each gets and the largest B0 error against the exact
one-DoF reduction (tests/oracles/n_four_bar.py). Writes bench/results/unbiased_kkt.{md,json}.

Run: /usr/bin/python3 bench/kkt_compare.py --old DIR [--mid DIR2] [--repeats 5]
where DIR holds the older code, e.g. ``git archive 368eee7 | tar -x -C DIR`` (DIR2: a second
older tree, e.g. main before a change; ratios are given against both).
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
SPEED_CASES = ["chain N=2", "chain N=10", "chain N=50", "chain N=200", "slider-crank"]
REDUNDANT_CASES = ["four-bar spatial", "A02 N=2", "A02 N=10"]


def _models(tree: str) -> dict:
    """The benchmark models, built with the code of ``tree`` (already first on sys.path)."""
    from bench.solver_speed import chain
    from MBDWorkbench.solver import from_dict, load
    from tests.oracles.n_four_bar import model_dict

    models = {f"chain N={n}": chain(n) for n in (2, 10, 50, 200)}
    models["slider-crank"] = load(os.path.join(tree, "examples", "slider_crank.json"))
    models["four-bar spatial"] = load(os.path.join(tree, "examples", "four_bar_spatial.json"))
    for n in (2, 10):
        models[f"A02 N={n}"] = from_dict(model_dict(n))
    return models


def worker(tree: str) -> None:
    """Print {case: steps/s} (best of 3, after a warm-up) and the A02 accuracy run as JSON."""
    sys.path[:0] = [tree, os.path.join(tree, "tests")]
    import numpy as np

    from bench.solver_speed import measure
    from MBDWorkbench.solver import simulate
    from MBDWorkbench.solver.errors import SimulationError
    from tests.oracles.n_four_bar import b0_position

    models = _models(tree)
    speed = {}
    for name in SPEED_CASES + REDUNDANT_CASES:
        res = measure(models[name], "rk4")
        speed[name] = res.steps / res.wall_time
    try:
        res = simulate(models["A02 N=2"], t_end=10.0, step=1e-3, output_step=0.01, integrator="rk4")
    except SimulationError as e:
        res = e.results
    err = np.abs(res.point("crank0", [0.5, 0, 0])[:, :2] - b0_position(res.t)).max(axis=1)
    a02 = dict(status=res.status, t_reached=float(res.t[-1]), max_b0_error_m=float(np.nanmax(err)))
    print(json.dumps(dict(speed=speed, a02=a02)))


def run(tree: str) -> dict:
    out = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--worker", tree], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", help="source tree of the code to compare with (required)")
    ap.add_argument("--old-label", default="before")
    ap.add_argument("--mid", help="optional second older tree (e.g. main before a change), measured interleaved too")
    ap.add_argument("--mid-label", default="main")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return
    if not args.old:
        ap.error("--old is required")
    trees = [("before", os.path.abspath(args.old))]
    if args.mid:
        trees.append(("mid", os.path.abspath(args.mid)))
    trees.append(("after", ROOT))
    best = {label: {} for label, _ in trees}
    a02 = {}
    for k in range(args.repeats):
        for label, tree in trees:
            r = run(tree)
            for name, v in r["speed"].items():
                best[label][name] = max(best[label].get(name, 0.0), v)
            a02[label] = r["a02"]
            print(f"repeat {k + 1} {label}: " + ", ".join(f"{n} {v:.0f}" for n, v in r["speed"].items()), flush=True)
    meta = dict(
        old=args.old_label,
        mid=args.mid_label if args.mid else None,
        repeats=args.repeats,
        python=platform.python_version(),
        cpus=os.cpu_count(),
        date=time.strftime("%Y-%m-%d"),
    )
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "unbiased_kkt.json"), "w") as f:
        json.dump(dict(meta=meta, steps_per_s=best, a02=a02), f, indent=2)
    labels = {"before": args.old_label, "mid": args.mid_label, "after": "after"}
    heads = [labels[label] for label, _ in trees]
    ratio_of = [label for label, _ in trees if label != "after"]
    head = (
        "| case | "
        + " | ".join(f"{h} [steps/s]" for h in heads)
        + " | "
        + " | ".join(f"{labels[r]} / after" for r in ratio_of)
        + " |\n"
    )
    head += "|---" * (1 + len(heads) + len(ratio_of)) + "|\n"
    rows = [
        f"| {name} | "
        + " | ".join(f"{best[label][name]:.0f}" for label, _ in trees)
        + " | "
        + " | ".join(f"{best[r][name] / best['after'][name]:.3f}" for r in ratio_of)
        + " |"
        for name in SPEED_CASES + REDUNDANT_CASES
    ]
    a02_rows = [
        f"| {labels[label]} | {a02[label]['status']} | {a02[label]['t_reached']:.3f} | "
        f"{a02[label]['max_b0_error_m']:.2e} |"
        for label, _ in trees
    ]
    with open(os.path.join(args.out, "unbiased_kkt_table.md"), "w") as f:
        f.write(f"{meta}\n\n" + head)
        f.write("\n".join(rows) + "\n\nA02 N=2, rk4, h = 1e-3 s, 10 s:\n\n")
        f.write(
            "| code | status | t reached [s] | max B0 error [m] |\n|---|---|---|---|\n" + "\n".join(a02_rows) + "\n"
        )


if __name__ == "__main__":
    main()
