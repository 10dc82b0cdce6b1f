"""Peak memory and time of a run and of writing its results folder, before and after the
streamed, bounded-memory writer (issue 11): the 500-body chain of bench/solver_speed.py at 101
and 1,001 samples, and examples/pendulum.json with 1,000,001 samples (output every 4 us).

Each case runs in a child process for each version of the code: the one of this checkout
("after") and a ref exported with ``git archive`` ("before", default ``main``). The child warms
up (Numba compilation) first, then for each phase resets the process's peak resident memory
(Linux: ``/proc/self/clear_refs``) and reads it afterwards (``VmHWM``):

- run: ``simulate(model)``, the samples kept in memory;
- write: ``Results.write(folder)`` of those samples;
- streamed (after only): ``simulate(model, out_dir=folder)``, the folder written while it runs.

A child whose resident memory passes ``--limit-gb`` is stopped (reported as "> limit").
Writes bench/results/results_memory.{md,json}.

Run: /usr/bin/python3 bench/results_memory.py [--before-ref main] [--cases chain101 chain1001 pendulum1e6]
The 1e6-sample pendulum takes a few minutes per version.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CASES = {
    "chain101": dict(label="500-body chain, 101 samples", bodies=500, t_end=1.0, output_step=0.01),
    "chain1001": dict(label="500-body chain, 1,001 samples", bodies=500, t_end=1.0, output_step=0.001),
    "pendulum1e6": dict(label="pendulum, 1,000,001 samples", bodies=0, t_end=4.0, output_step=4e-6),
}


# ----------------------------------------------------------------------------- child
def resident_mb(field: str) -> float:
    """VmRSS (now) or VmHWM (peak since the last reset) of this process [MB]."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def reset_peak() -> None:
    """Start a new peak of resident memory (Linux >= 4.0)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def measure(fn):
    """(result, wall time [s], resident memory before [MB], peak during [MB])."""
    before = resident_mb("VmRSS")
    reset_peak()
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start, before, resident_mb("VmHWM")


def child(case: str, code: str, folder: str) -> None:
    """Measure one case with the solver found in ``code``; prints a JSON line per phase."""
    sys.path.insert(0, code)
    from MBDWorkbench.solver import load, simulate

    sys.path.append(ROOT)
    from bench.solver_speed import chain  # the chain model, built with the solver imported above

    spec = CASES[case]
    model = chain(spec["bodies"]) if spec["bodies"] else load(os.path.join(ROOT, "examples", "pendulum.json"))
    simulate(model, t_end=0.02)  # compile and warm up
    settings = dict(t_end=spec["t_end"], output_step=spec["output_step"])

    def report(phase, wall, base, peak, **more):
        print(json.dumps(dict(phase=phase, wall_s=wall, base_mb=base, peak_mb=peak, **more)), flush=True)

    res, *numbers = measure(lambda: simulate(model, **settings))
    report("run", *numbers, samples=len(res))
    _, *numbers = measure(lambda: res.write(os.path.join(folder, "written")))
    report("write", *numbers)
    del res, _
    if "overwrite" in inspect.signature(simulate).parameters:  # the streamed writer exists
        res, *numbers = measure(lambda: simulate(model, out_dir=os.path.join(folder, "streamed"), **settings))
        report("streamed", *numbers, samples=len(res))


# ----------------------------------------------------------------------------- parent
def run_child(case: str, code: str, limit_gb: float) -> dict:
    """{phase: numbers} of one case in a child process; a phase whose resident memory passes
    ``limit_gb`` is stopped and reported as {"stopped": "> limit"}."""
    folder = tempfile.mkdtemp(prefix="results_memory_")
    cmd = [sys.executable, os.path.abspath(__file__), "--child", case, "--code", code, "--folder", folder]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    stopped = None
    try:
        while proc.poll() is None:
            if _rss_gb(proc.pid) > limit_gb:
                proc.kill()
                stopped = f"> {limit_gb:g} GB"
            time.sleep(0.2)
        reader.join()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    phases = {r.pop("phase"): r for r in map(json.loads, lines)}
    if stopped or proc.returncode:
        phases[next((p for p in ("run", "write", "streamed") if p not in phases), "end")] = dict(
            stopped=stopped or f"exit code {proc.returncode}"
        )
    return phases


def _rss_gb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0**2
    except OSError:
        pass
    return 0.0


def export_ref(ref: str) -> str:
    """The tree of git ``ref`` in a temporary folder named by its commit (kept, so Numba's
    cache of that code is reused by the next run)."""
    sha = subprocess.run(["git", "-C", ROOT, "rev-parse", ref], check=True, capture_output=True, text=True).stdout
    folder = os.path.join(tempfile.gettempdir(), f"results_memory_{sha.strip()[:12]}")
    if not os.path.isdir(folder):
        os.makedirs(folder + ".partial", exist_ok=True)
        archive = subprocess.run(["git", "-C", ROOT, "archive", ref], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", folder + ".partial"], input=archive, check=True)
        os.rename(folder + ".partial", folder)
    return folder


def cell(rows: dict, phase: str, key: str) -> str:
    """A table cell: wall time [s], or peak resident memory [MB] with its rise over the phase's start."""
    r = rows.get(phase)
    if r is None:
        return "-"
    if "stopped" in r:
        return f"stopped ({r['stopped']})" if key == "peak_mb" else "-"
    if key == "wall_s":
        return f"{r['wall_s']:.1f}"
    return f"{r['peak_mb']:.0f} (+{r['peak_mb'] - r['base_mb']:.0f})"


def table(results: dict, ref: str) -> str:
    phases = ("run", "write", "streamed")
    lines = [
        "| case | code | run [s] | run: peak RSS [MB] | write [s] | write: peak RSS [MB] "
        "| streamed run [s] | streamed run: peak RSS [MB] |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for case, by_code in results.items():
        for code, rows in by_code.items():
            label = f"before ({ref})" if code == "before" else "after"
            cells = " | ".join(cell(rows, phase, key) for phase in phases for key in ("wall_s", "peak_mb"))
            lines.append(f"| {CASES[case]['label']} | {label} | {cells} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before-ref", default="main", help="git ref of the code before (exported with git archive)")
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    ap.add_argument("--limit-gb", type=float, default=6.0, help="stop a child whose resident memory passes this")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--code", help=argparse.SUPPRESS)
    ap.add_argument("--folder", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.code, args.folder)
        return
    before = export_ref(args.before_ref)
    results = {}
    for case in args.cases:
        results[case] = {}
        for code, path in (("before", before), ("after", ROOT)):
            results[case][code] = run_child(case, path, args.limit_gb)
            print(case, code, json.dumps(results[case][code]), flush=True)
    meta = dict(
        before_ref=args.before_ref,
        python=platform.python_version(),
        machine=platform.machine(),
        cpus=os.cpu_count(),
        date=time.strftime("%Y-%m-%d"),
        limit_gb=args.limit_gb,
    )
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results_memory.json"), "w") as f:
        json.dump(dict(meta=meta, results=results), f, indent=2)
    with open(os.path.join(args.out, "results_memory.md"), "w") as f:
        f.write("# Results: peak memory and write time (bench/results_memory.py)\n\n")
        f.write(
            f"{meta}\n\nPeak RSS: the process's peak resident memory during the phase, and in brackets its rise over "
            "the resident memory at the phase's start (Numba compiled before). run: `simulate(model)`; write: "
            "`Results.write(folder)` of its samples; streamed run: `simulate(model, out_dir=folder)`, which writes "
            "the folder while it runs.\n\n"
        )
        f.write(table(results, args.before_ref) + "\n")


if __name__ == "__main__":
    main()
