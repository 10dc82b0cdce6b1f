"""Cold start of a first solve (issues 12 and 14): the slider-crank from the command line with an
empty Numba cache.

For each integrator (rk4, galpha) a fresh subprocess runs, with XDG_CACHE_HOME pointing at an
empty temporary folder (and NUMBA_CACHE_DIR unset), the equivalent of

    /usr/bin/python3 -m MBDWorkbench simulate examples/slider_crank.json --integrator rk4 \
        --t-end 2 --step 1e-3 --out <tmp>

(``MBDWorkbench.cli.main`` called in the child with those arguments). Recorded: the wall time
of the whole subprocess (what a user waits for), of importing the CLI, and of the solve; and,
from Numba's event API (``numba.core.event``, kind ``numba:compile``, only fired on a cache
miss), every dispatcher compiled with its signature and its compile time, inclusive (the
callees compiled on the way included) and exclusive (its own). With ``--warm`` a second run
on the cache the first one filled is timed too. The machine load (``uptime``) is recorded
before and after: the machine is shared, and compile times scale with it.

Each run is made in two modes (``--modes``): ``interpret``, the command line's default since the
interpreted start (solver/numerics/cold_start.py: the kernels run as Python while a background process
compiles them; its remaining time after the run is recorded too), and ``compile``
(MBD_COLD_START=compile: Numba compiles in the process before the solve, as before).

Run: /usr/bin/python3 bench/cold_start.py [--integrators rk4 galpha] [--modes interpret compile] [--warm]
    [--label after] [--tree DIR]
(``--tree``: measure another source tree, e.g. ``git archive <commit> | tar -x -C DIR`` for "before";
the child runs with that tree on PYTHONPATH and as its working directory.)
Writes bench/results/cold_start.json (runs keyed by label, so a "before" run is kept) and
bench/results/cold_start.md. Not part of the test suite. Never run two at once (2 cores).
"""

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
ARGS = ["simulate", "examples/slider_crank.json", "--t-end", "2", "--step", "1e-3"]


# ----------------------------------------------------------------------------- child (subprocess)
class CompileRecorder:
    """Listener of ``numba:compile`` events: inclusive and exclusive seconds per compilation."""

    def __init__(self):
        self.stack, self.records, self.llvm_t0, self.llvm_depth = [], [], 0.0, 0

    def on_start(self, event):
        self.stack.append([time.perf_counter(), 0.0, 0.0])

    def on_end(self, event):
        t0, children, llvm = self.stack.pop()
        total = time.perf_counter() - t0
        if self.stack:
            self.stack[-1][1] += total
        disp = event.data["dispatcher"]
        name = f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"
        args = ", ".join(str(a) for a in event.data["args"])
        own = total - children
        self.records.append({"name": name, "args": args, "inclusive_s": total, "exclusive_s": own, "llvm_s": llvm})

    def on_llvm_start(self, event):
        self.llvm_depth += 1
        if self.llvm_depth == 1:
            self.llvm_t0 = time.perf_counter()

    def on_llvm_end(self, event):
        """Time in LLVM (optimisation, code generation), charged to the innermost compilation."""
        self.llvm_depth -= 1
        if self.llvm_depth == 0 and self.stack:
            self.stack[-1][2] += time.perf_counter() - self.llvm_t0


def child(integrator: str, out: str) -> None:
    """Time the import and the solve in this (fresh) process; print one JSON line."""
    t0 = time.perf_counter()
    import numba.core.event as ev

    t_numba = time.perf_counter() - t0
    recorder = CompileRecorder()
    for kind, start, end in [
        ("numba:compile", recorder.on_start, recorder.on_end),
        ("numba:llvm_lock", recorder.on_llvm_start, recorder.on_llvm_end),
    ]:
        ev.register(kind, type("L", (ev.Listener,), {"on_start": start, "on_end": end})())
    from MBDWorkbench import cli

    t_import = time.perf_counter() - t0
    t1 = time.perf_counter()
    rc = cli.main(ARGS + ["--integrator", integrator, "--out", out])
    t_solve = time.perf_counter() - t1
    print(
        "COLD_START_JSON "
        + json.dumps(
            {
                "rc": rc,
                "numba_import_s": t_numba,
                "import_s": t_import,
                "solve_s": t_solve,
                "compiles": recorder.records,
            }
        )
    )


# ----------------------------------------------------------------------------- parent
def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def run_once(integrator: str, cache_home: str, tree: str, mode: str) -> dict:
    """One subprocess on ``cache_home`` solving with the source tree ``tree``; its wall time and
    the child's JSON. ``mode``: MBD_COLD_START (interpret: the command line's interpreted start,
    solver/numerics/cold_start.py; compile: Numba compiles in the process, as before)."""
    env = dict(os.environ, XDG_CACHE_HOME=cache_home, MBD_COLD_START=mode)
    env.pop("NUMBA_CACHE_DIR", None)
    env["PYTHONPATH"] = tree
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    out = tempfile.mkdtemp(prefix="cold-out-")
    shutil.rmtree(out)
    cmd = [sys.executable, os.path.abspath(__file__), "--child", integrator, "--out", out]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    shutil.rmtree(out, ignore_errors=True)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("COLD_START_JSON ")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"child failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
    data = json.loads(lines[-1][len("COLD_START_JSON ") :])
    data["wall_s"] = wall
    return data


def wait_for_background_compiles() -> float:
    """Wait until no background compile (solver/fill_cache.py) runs; seconds waited."""
    start = time.perf_counter()
    while subprocess.run(["pgrep", "-f", "MBDWorkbench.solver.fill_cache"], capture_output=True).returncode == 0:
        time.sleep(0.5)
    return time.perf_counter() - start


def measure(integrator: str, warm: bool, tree: str, mode: str) -> dict:
    cache_home = tempfile.mkdtemp(prefix="cold-cache-")
    try:
        wait_for_background_compiles()
        row = {"integrator": integrator, "mode": mode, "uptime_before": uptime()}
        row["cold"] = run_once(integrator, cache_home, tree, mode)
        row["background_compile_after_run_s"] = wait_for_background_compiles()
        if warm:
            row["warm"] = run_once(integrator, cache_home, tree, mode)
        row["uptime_after"] = uptime()
        return row
    finally:
        shutil.rmtree(cache_home, ignore_errors=True)


def compile_table(compiles: list, top: int = 25) -> list:
    """Markdown rows of the ``top`` compilations by exclusive time."""
    rows = sorted(compiles, key=lambda c: -c["exclusive_s"])[:top]
    lines = ["| dispatcher | signature | own [s] | of which LLVM [s] | incl. callees [s] |", "|---|---|---:|---:|---:|"]
    for c in rows:
        sig = c["args"] if len(c["args"]) < 90 else c["args"][:87] + "..."
        times = f"{c['exclusive_s']:.2f} | {c['llvm_s']:.2f} | {c['inclusive_s']:.2f}"
        lines.append(f"| `{c['name']}` | `{sig}` | {times} |")
    return lines


def summary_lines(label: str, run: dict) -> list:
    lines = [f"### {label} ({run['date']}, commit {run['commit']})", ""]
    lines += ["| integrator | mode | subprocess wall [s] | import [s] | first solve [s] | compilations in it | "]
    lines[-1] += "compile time (sum of own) [s] | background compile still running after it [s] | "
    lines[-1] += "warm run wall [s] | uptime before / after |"
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in run["rows"]:
        c = row["cold"]
        own = sum(x["exclusive_s"] for x in c["compiles"])
        warm = f"{row['warm']['wall_s']:.2f}" if "warm" in row else "-"
        load = f"{_load(row['uptime_before'])} / {_load(row['uptime_after'])}"
        background = row.get("background_compile_after_run_s")
        background = f"{background:.1f}" if background is not None else "-"
        lines.append(
            f"| {row['integrator']} | {row.get('mode', 'compile')} | **{c['wall_s']:.1f}** | {c['import_s']:.2f} | "
            f"{c['solve_s']:.1f} | {len(c['compiles'])} | {own:.1f} | {background} | {warm} | {load} |"
        )
    lines.append("")
    for row in run["rows"]:
        if not row["cold"]["compiles"]:
            continue
        lines += [f"Largest compilations, {row['integrator']} ({label}):", ""]
        lines += compile_table(row["cold"]["compiles"]) + [""]
    return lines


def _load(text: str) -> str:
    return text.split("load average:")[-1].strip() if "load average:" in text else text


def write(results: dict) -> None:
    with open(os.path.join(RESULTS, "cold_start.json"), "w") as f:
        json.dump(results, f, indent=1)
    md = os.path.join(RESULTS, "cold_start.md")
    notes = ""
    if os.path.exists(md):  # the hand-written findings below NOTES_MARKER are kept
        text = open(md).read()
        notes = text[text.index(NOTES_MARKER) :] if NOTES_MARKER in text else ""
    lines = ["# Cold start of a first solve (issues 12 and 14)", "", HEADER, ""]
    for label, run in results.items():
        lines += summary_lines(label, run)
    with open(md, "w") as f:
        f.write("\n".join(lines).rstrip() + "\n" + ("\n" + notes if notes else ""))


NOTES_MARKER = "<!-- hand-written findings: kept when the script rewrites this file -->"
HEADER = """Written by `bench/cold_start.py` (see its docstring): the slider-crank example from the command
line, `simulate examples/slider_crank.json --integrator <i> --t-end 2 --step 1e-3 --out <tmp>`, in a
fresh `/usr/bin/python3` subprocess with `XDG_CACHE_HOME` an empty folder (so the Numba cache,
`$XDG_CACHE_HOME/mbdworkbench/numba-<hash>`, is empty). "subprocess wall" is what a user waits for
(interpreter start, imports, compilation, solve, results written). Targets (issue 14): under 10 s
with rk4, under 15 s with galpha. "own" is a dispatcher's compile time without the callees it
compiled on the way; the load average (1, 5, 15 min) is that of the shared 2-core machine."""


def commit(tree: str) -> str:
    """The tree's commit (with +dirty for uncommitted changes under MBDWorkbench/), or '?' outside git."""
    if not os.path.isdir(os.path.join(tree, ".git")) and not os.path.isfile(os.path.join(tree, ".git")):
        return "?"
    try:
        git = ["git", "-C", tree]
        out = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        dirty = subprocess.run(git + ["status", "--porcelain", "MBDWorkbench"], capture_output=True, text=True)
        return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--integrators", nargs="+", default=["rk4", "galpha"])
    parser.add_argument("--warm", action="store_true", help="also time a second run on the filled cache")
    parser.add_argument("--label", default="after", help="key of this run in cold_start.json")
    parser.add_argument("--tree", default=ROOT, help="source tree to measure (default this one), e.g. a git archive")
    parser.add_argument(
        "--modes", nargs="+", default=["interpret", "compile"], choices=["interpret", "compile"],
        help="MBD_COLD_START of the runs: interpret (the command line's default) and/or compile (as before)",
    )  # fmt: skip
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    a = parser.parse_args()
    if a.child:
        child(a.child, a.out)  # MBDWorkbench from PYTHONPATH (the measured tree)
        return
    path = os.path.join(RESULTS, "cold_start.json")
    results = json.load(open(path)) if os.path.exists(path) else {}
    tree = os.path.abspath(a.tree)
    run = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit(tree), "tree": tree}
    run.update({"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"})
    run["rows"] = []
    for mode in a.modes:
        for integrator in a.integrators:
            row = measure(integrator, a.warm, tree, mode)
            c = row["cold"]
            print(
                f"{integrator} ({mode}): wall {c['wall_s']:.1f} s, solve {c['solve_s']:.1f} s, "
                f"{len(c['compiles'])} compiles"
            )
            run["rows"].append(row)
    measured = {(m, i) for m in a.modes for i in a.integrators}
    kept = [
        r
        for r in results.get(a.label, {}).get("rows", [])
        if (r.get("mode", "compile"), r["integrator"]) not in measured
    ]
    run["rows"] = kept + run["rows"]  # rows of other integrators under this label are kept (interleaved runs)
    results[a.label] = run
    write(results)


if __name__ == "__main__":
    main()
