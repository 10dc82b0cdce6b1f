"""The event loop during Solve in the real FreeCAD GUI (issue 36): the largest gap (not a
percentile) between two ticks of a 10 ms QTimer over the whole of MBD_Solve, with a filled kernel
cache (the slider-crank and the four-bar to 20 s, two Solves each) and with an empty one (the
slider-crank to 1 s, Solved at once while the background process compiles the kernels), and the
CPU time FreeCAD's own process used over each Solve (the solver runs in a process of its own). Runs
tests/gui/macros/macro_solve_gaps.py under Xvfb (which samples the GUI thread's stack during any
stall over 40 ms, so each gap names what blocked it).

Run: /usr/bin/python3 bench/gui_gaps.py [--label NAME] [--cases warm cold]
Writes bench/results/gui_gaps.json (runs keyed by label) and bench/results/gui_gaps.md. Not part of
the test suite (tests/gui/test_solve_gaps_gui.py asserts the target). The machine is shared: the
load average is recorded with every Solve.
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "gui"))
from run_gui_macro import make_user_home, run_gui_macro  # noqa: E402

MACRO = ROOT / "tests" / "gui" / "macros" / "macro_solve_gaps.py"
RESULTS = ROOT / "bench" / "results"
COLD_ENV = {
    "MBD_COLD_START": "interpret",
    "MBD_GAP_COLD": "1",
    "MBD_GAP_CASES": "slider_crank.FCStd:1",
    "MBD_GAP_RUNS": "1",
}


def measure(cache: str) -> dict:
    """The macro's result for one cache state ("warm": the user's cache, "cold": an empty one)."""
    tmp = Path(tempfile.mkdtemp(prefix="mbd-gaps-"))
    env = {}
    if cache == "cold":
        (tmp / "empty_cache").mkdir()
        env = dict(COLD_ENV, XDG_CACHE_HOME=str(tmp / "empty_cache"))
    home = make_user_home(tmp / "home", install=True)
    run = run_gui_macro(MACRO, tmp / "out", user_home=home, timeout=900, extra_env=env)
    if not run.ok:
        raise SystemExit(run.describe())
    return run.result


def where(run: dict) -> str:
    """What the GUI thread (or, when it waited in the event loop, the worker) ran during the largest gap."""
    samples = run["worst_gap_samples"]
    if not samples:
        return "-"
    s = samples[len(samples) // 2]
    gui = [f for f in s["gui"] if "macro_solve_gaps" not in f and "gui_runner" not in f]
    text = " > ".join(gui[-2:])
    if s["worker"] and gui and gui[-1].startswith("solve_commands.py") and " run" in gui[-1]:
        text += " (worker: %s)" % " > ".join(s["worker"][-2:])
    return text.replace("|", "/")


def cpu(run: dict) -> str:
    """FreeCAD's process CPU time over the Solve (all its threads; '-' in runs before it was recorded)."""
    return "-" if run.get("freecad_cpu_s") is None else "%.2f" % run["freecad_cpu_s"]


def table(label: str, results: dict) -> list[str]:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    lines = [
        f"### {label} ({datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC, commit {commit.strip()})",
        "",
        "| cache | case | Solve | Solve wall [s] | FreeCAD CPU [s] | ticks | largest gap [s] | at [s] | gaps > 50 ms "
        "| load (1 min) | during the largest gap |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for cache, result in results.items():
        for r in result["runs"]:
            lines.append(
                f"| {cache} | {r['case']} | {r['run']} | {r['solve_wall_s']:.2f} | {cpu(r)} | {r['ticks']} "
                f"| **{r['max_gap_s']:.3f}** | {r['max_gap_at_s']:.2f} | {len(r['gaps_over_50ms'])} "
                f"| {r['load_average'][0]:.1f} | {where(r)} |"
            )
    return lines + [""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", default="run")
    parser.add_argument("--cases", nargs="+", default=["warm", "cold"], choices=["warm", "cold"])
    args = parser.parse_args()
    results = {cache: measure(cache) for cache in args.cases}
    path = RESULTS / "gui_gaps.json"
    stored = json.loads(path.read_text()) if path.exists() else {}
    stored[args.label] = {c: dict(r, runs=[dict(x, stall_samples=None) for x in r["runs"]]) for c, r in results.items()}
    path.write_text(json.dumps(stored, indent=1))
    md = RESULTS / "gui_gaps.md"
    head = (
        md.read_text()
        if md.exists()
        else "# Event-loop gaps during Solve (issue 36)\n\nWritten by `bench/gui_gaps.py`.\n\n"
    )
    md.write_text(head + "\n".join(table(args.label, results)) + "\n")
    print("\n".join(table(args.label, results)))


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
