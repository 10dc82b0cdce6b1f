"""Cost of the index-3 rank monitor (issue 10): wall time of galpha and cros (default settings)
on chains without redundancy (bench/solver_speed.py, N = 2, 10, 50; 1 s), the slider-crank
example (1 s), the redundant four-bar of the index-3 study (1 s), Bricard's linkage (A04) and
the A02 parallelogram four-bars (N = 2) over 1.5 s (before issue 10 galpha stopped at 1.80 s on
A02). One run of this script measures one source tree; run it on the trees to compare,
interleaved, then write the table:

  /usr/bin/python3 bench/index3_redundancy.py --root <tree> --json <file>   (repeat, alternating)
  /usr/bin/python3 bench/index3_redundancy.py --table before.json after.json > bench/results/index3_redundancy.md

Timings depend on machine load: each JSON keeps the best wall time of its repeats, and a file
given again is merged (best of all runs).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cases(root: str) -> list:
    """(name, model, t_end [s]) of the benchmark, built with the code of the tree ``root``."""
    from oracles import n_four_bar

    from bench.solver_speed import chain
    from bench.study.index3_models import four_bar
    from MBDWorkbench.solver import from_dict, load

    out = [(f"chain N={n}", chain(n), 1.0) for n in (2, 10, 50)]
    out.append(("slider-crank", load(os.path.join(root, "examples", "slider_crank.json")), 1.0))
    out.append(("four-bar, 4 revolutes", four_bar(speed=2.0), 1.0))
    out.append(("Bricard (A04)", load(os.path.join(root, "examples", "bricard.json")), 1.5))
    out.append(("A02, N = 2", from_dict(n_four_bar.model_dict(2)), 1.5))
    return out


def measure(root: str, repeats: int) -> dict:
    """{case/integrator: dict(wall_s, steps, status)} with the best wall time of ``repeats`` runs."""
    sys.path[:0] = [root, os.path.join(root, "tests")]
    from MBDWorkbench.solver import SimulationError, simulate

    rows = {}
    for name, model, t_end in cases(root):
        for integrator in ("galpha", "cros"):
            simulate(model, integrator=integrator, t_end=0.01)  # compile / warm up
            best = None
            for _ in range(repeats):
                try:
                    res = simulate(model, integrator=integrator, t_end=t_end)
                except SimulationError as e:
                    res = e.results
                if best is None or res.wall_time < best.wall_time:
                    best = res
            rows[f"{name} / {integrator}"] = dict(
                wall_s=best.wall_time, steps=best.steps, status=best.status, t=float(best.t[-1])
            )
            print(f"{name:24s} {integrator:7s} {best.wall_time:8.3f} s  {best.steps:6d} steps  {best.status}")
    return rows


def merge(path: str, rows: dict) -> None:
    """Write ``rows`` to the JSON ``path``, keeping for each case the best wall time so far."""
    old = json.load(open(path)) if os.path.exists(path) else {}
    for key, row in rows.items():
        if key not in old or row["wall_s"] < old[key]["wall_s"]:
            old[key] = row
    with open(path, "w") as f:
        json.dump(old, f, indent=2)


def table(before: dict, after: dict) -> str:
    """Markdown table: wall time and steps before / after and their ratio."""
    out = [
        "| case / integrator | before [s] | after [s] | ratio | steps before | steps after | before | after |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key, a in after.items():
        b = before.get(key)
        if b is None:
            continue
        ended = [f"{r['status']}" + (f" at {r['t']:.2f} s" if r["status"] == "failed" else "") for r in (b, a)]
        out.append(
            f"| {key} | {b['wall_s']:.3f} | {a['wall_s']:.3f} | {a['wall_s'] / b['wall_s']:.2f} | "
            f"{b['steps']} | {a['steps']} | {ended[0]} | {ended[1]} |"
        )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=ROOT, help="source tree to measure")
    ap.add_argument("--json", help="merge the best wall times into this file")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--table", nargs=2, metavar=("BEFORE", "AFTER"), help="print the comparison table")
    args = ap.parse_args()
    if args.table:
        print(table(*(json.load(open(p)) for p in args.table)))
        return
    rows = measure(os.path.abspath(args.root), args.repeats)
    if args.json:
        merge(args.json, rows)


if __name__ == "__main__":
    main()
