"""Do two source trees give the same samples? Runs every ``examples/*.json`` with every integrator through
the command line of a tree, keeps the result CSVs, and compares them with another tree's.

    /usr/bin/python3 tools/same_samples.py record --tree OLD --out REF [--t-end 1]
    /usr/bin/python3 tools/same_samples.py compare --tree NEW --ref REF [--rtol 1e-12]

``record`` writes REF/<example>/<integrator>/ (the run's CSVs and summary.json) and REF/runs.json (exit codes).
Every run uses the compiled kernels (MBD_COLD_START=compile): on a cold cache the command line would otherwise run
the first cases interpreted, whose rounding differs from the compiled code's (up to ~1e-11 in the CSVs).
``compare`` runs the same cases with NEW into a temporary folder and prints, per case, the exit codes and the largest
difference over every numeric CSV column, relative to that column's largest magnitude (an absolute floor of 1e-300
for all-zero columns); it exits 1 when a case changed exit code, sample count, columns, or differs by more than
``--rtol``. A refactoring that keeps every operation gives 0; one that changes a summation order gives ~1e-15.
"""

from __future__ import annotations

import argparse
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile

INTEGRATORS = ["euler", "symplectic_euler", "rk4", "rk4_tree", "bdf", "radau", "lsoda", "galpha", "cros"]


def _cases(tree: str) -> list[tuple[str, str]]:
    examples = sorted(glob.glob(os.path.join(tree, "examples", "*.json")))
    return [(os.path.basename(e)[:-5], i) for e in examples for i in INTEGRATORS]


def _run(tree: str, example: str, integrator: str, out: str, t_end: float) -> int:
    """Simulate one case with ``tree``'s code; the exit code."""
    model = os.path.join(tree, "examples", example + ".json")
    cmd = [sys.executable, "-m", "MBDWorkbench", "simulate", model, "--integrator", integrator]
    cmd += ["--t-end", str(t_end), "--out", out, "--overwrite", "--quiet"]
    env = dict(os.environ, PYTHONPATH=tree, MBD_COLD_START="compile")  # the interpreted start rounds differently
    proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=900)
    return proc.returncode


def _run_all(tree: str, root: str, t_end: float) -> dict:
    codes = {}
    for example, integrator in _cases(tree):
        out = os.path.join(root, example, integrator)
        codes[f"{example}/{integrator}"] = _run(tree, example, integrator, out, t_end)
        print(f"{example:18s} {integrator:17s} exit {codes[f'{example}/{integrator}']}", flush=True)
    return codes


def _read_csv(path: str) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    return rows[0], rows[1:]


def _column_difference(a: list[str], b: list[str]) -> float:
    """Largest |a - b| over the column relative to the column's largest magnitude (inf if non-numeric values differ)."""
    try:
        x = [float(v) for v in a]
        y = [float(v) for v in b]
    except ValueError:
        return 0.0 if a == b else float("inf")
    scale = max([abs(v) for v in x + y if v == v] + [1e-300])
    worst = 0.0
    for u, v in zip(x, y):
        if u != u and v != v:
            continue
        worst = max(worst, abs(u - v) / scale)
    return worst


def compare_folders(ref: str, new: str) -> tuple[float, str]:
    """Largest relative column difference over the CSVs of two results folders, and what it was."""
    worst, where = 0.0, ""
    for path in sorted(glob.glob(os.path.join(ref, "*.csv"))):
        other = os.path.join(new, os.path.basename(path))
        if not os.path.exists(other):
            return float("inf"), f"{os.path.basename(path)} missing"
        (ha, ra), (hb, rb) = _read_csv(path), _read_csv(other)
        if ha != hb or len(ra) != len(rb):
            return float("inf"), f"{os.path.basename(path)}: columns or sample count differ"
        for k, name in enumerate(ha):
            d = _column_difference([r[k] for r in ra], [r[k] for r in rb])
            if d > worst:
                worst, where = d, f"{os.path.basename(path)}:{name}"
    return worst, where


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=["record", "compare"])
    ap.add_argument("--tree", required=True, help="source tree whose code runs")
    ap.add_argument("--out", help="record: reference folder")
    ap.add_argument("--ref", help="compare: reference folder")
    ap.add_argument("--t-end", type=float, default=1.0, help="end time of every case [s]")
    ap.add_argument("--rtol", type=float, default=1e-12)
    args = ap.parse_args()
    tree = os.path.abspath(args.tree)
    if args.action == "record":
        codes = _run_all(tree, args.out, args.t_end)
        with open(os.path.join(args.out, "runs.json"), "w") as f:
            json.dump({"t_end": args.t_end, "codes": codes}, f, indent=1)
        return 0
    with open(os.path.join(args.ref, "runs.json")) as f:
        recorded = json.load(f)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        codes = _run_all(tree, tmp, recorded["t_end"])
        for case, code in codes.items():
            old = recorded["codes"].get(case)
            if old != code:
                print(f"CHANGED {case}: exit {old} -> {code}")
                bad += 1
                continue
            if code not in (0, 3):
                continue
            d, where = compare_folders(os.path.join(args.ref, case), os.path.join(tmp, case))
            flag = "DIFFERS" if d > args.rtol else "same"
            print(f"{flag:8s} {case:36s} {d:.3g} {where}")
            bad += d > args.rtol
    print(f"{len(codes) - bad} same, {bad} changed (rtol {args.rtol:g})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
