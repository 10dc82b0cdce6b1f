"""The ``study`` subcommand: ``python3 -m MBDWorkbench study STUDY.json --out DIR``
(docs/studies.md). Exit codes (solver.results.status): 0 every variant completed, 3 some variants
completed with warnings or failed, 4 every variant failed, 5 cancelled (Ctrl-C: the finished
rows are written), 2 a bad study file or output folder, or no scheduler answering at
``--scheduler`` within ``--scheduler-timeout``."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from typing import TextIO

from ..solver.results.output_folder import OutputFolder
from ..solver.results.status import CANCELLED, COMPLETED, COMPLETED_WITH_WARNINGS, EXIT_BAD_INPUT, EXIT_CODES, FAILED

STUDY_FILES = {"study.csv", "study.json", "plots", "variants", "report.html"}


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``study`` subcommand to an argparse subparsers object."""
    p = sub.add_parser("study", help="parameter sweep, design of experiments or Monte Carlo study (on Dask)")
    p.add_argument("study", help="study file (.json, docs/studies.md)")
    p.add_argument("--out", help="study folder (default: <study>_study)")
    p.add_argument("--workers", type=_count, help="worker processes of the local Dask cluster (default: CPUs)")
    p.add_argument("--scheduler", help="address of an existing Dask scheduler, e.g. tcp://127.0.0.1:8786")
    p.add_argument(
        "--scheduler-timeout",
        type=_seconds,
        default=30.0,
        metavar="S",
        help="seconds to wait for the --scheduler to answer (default 30; then exit 2)",
    )
    p.add_argument("--serial", action="store_true", help="run the variants one by one in this process (no Dask)")
    p.add_argument("--save-variants", action="store_true", help="also write each variant's results to variants/NNNN")
    p.add_argument("--no-plots", action="store_true", help="no plots (study.csv and report.html only)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing study folder as a whole")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=cmd_study)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.1 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"must lie in [0.1, 3600] s, got {text}")
    return value


def _inform(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def cmd_study(args: argparse.Namespace) -> int:
    """Check the study file, run its variants, write study.csv and the plots into ``--out``."""
    from .engine import run_study
    from .spec import load_study

    if args.serial and (args.scheduler or args.workers):
        print("error: --serial runs in this process: no --workers or --scheduler", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.scheduler and args.workers:
        print(
            "error: --workers sizes the local cluster; an existing cluster (--scheduler) has its own", file=sys.stderr
        )
        return EXIT_BAD_INPUT
    study = load_study(args.study)
    out = args.out or os.path.splitext(os.path.basename(args.study))[0] + "_study"
    folder = open_folder(out, args.overwrite)
    try:
        save = os.path.join(folder.temp, "variants") if (args.save_variants or study.save_variants) else None
        if save:
            os.makedirs(save)
        run = run_study(
            study,
            workers=args.workers,
            scheduler=args.scheduler,
            serial=args.serial,
            progress=None if args.quiet else StudyProgress(),
            save_dir=save,
            scheduler_timeout=args.scheduler_timeout,
            inform=_inform,
        )
        shutil.copyfile(args.study, os.path.join(folder.temp, "study.json"))
        written = fill_folder(run, folder.temp, plots=not args.no_plots)
        folder.commit()
    finally:
        folder.abort()
    _print_summary(run, out, written)
    return study_exit_code(run)


def open_folder(out: str, overwrite: bool) -> OutputFolder:
    """The study folder, checked and locked before anything runs (OutputTargetError if it may not be written)."""
    return OutputFolder(out, overwrite, STUDY_FILES, "study")


def fill_folder(run, folder: str, plots: bool = True) -> list[str]:
    """Write study.csv, the plots (unless ``plots`` is False) and report.html into ``folder``;
    returns the names of the plot files."""
    from .table import STUDY_CSV, write_csv

    write_csv(run, os.path.join(folder, STUDY_CSV))
    written = _plots(run, os.path.join(folder, "plots")) if plots else []
    _report(run, folder, written)
    return written


def _plots(run, folder: str) -> list[str]:
    from .plots import write_plots

    try:
        return [os.path.basename(p) for p in write_plots(run, folder)]
    except Exception as e:  # noqa: BLE001 - the table is the result; a plot failure is reported only
        print(f"warning: plots not written: {type(e).__name__}: {e}", file=sys.stderr)
        return []


def _report(run, folder: str, plots: list[str]) -> None:
    from .report import REPORT_HTML, write_report

    try:
        write_report(run, os.path.join(folder, REPORT_HTML), [os.path.join(folder, "plots", p) for p in plots])
    except Exception as e:  # noqa: BLE001 - the table is the result; a report failure is reported only
        print(f"warning: report not written: {type(e).__name__}: {e}", file=sys.stderr)


def study_exit_code(run) -> int:
    """5 cancelled, 0 all variants completed, 4 all failed, else 3 (warnings or some failed)."""
    statuses = {r.status for r in run.rows}
    if run.cancelled:
        return EXIT_CODES[CANCELLED]
    if statuses == {COMPLETED}:
        return EXIT_CODES[COMPLETED]
    if statuses == {FAILED}:
        return EXIT_CODES[FAILED]
    return EXIT_CODES[COMPLETED_WITH_WARNINGS]


def _print_summary(run, out: str, plots: list[str]) -> None:
    counts = {s: sum(r.status == s for r in run.rows) for s in (COMPLETED, COMPLETED_WITH_WARNINGS, FAILED, CANCELLED)}
    text = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    print(f"study '{run.study.name}': {len(run.rows)} variants ({text}) on {run.engine} ({run.workers} workers)")
    print(f"wall time {run.elapsed:.2f} s (variants {run.variants_elapsed:.2f} s)")
    for r in run.rows:
        if r.status == FAILED:
            print(f"variant {r.index}: {r.message}", file=sys.stderr)
    if run.cancelled:
        print(f"\nstudy cancelled: {counts[CANCELLED]} variants not run, the finished rows are kept", file=sys.stderr)
    print(f"study written to {out}" + (f" (plots: {', '.join(plots)})" if plots else ""))


class StudyProgress:
    """One progress line on stderr: variants done/total, failed, elapsed time and ETA [s]."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream = stream

    def __call__(self, done: int, total: int, failed: int, elapsed: float) -> None:
        eta = elapsed / done * (total - done) if done else float("nan")
        failed_text = f", {failed} failed" if failed else ""
        self.stream.write(f"\rstudy: {done}/{total} variants{failed_text}, {elapsed:.1f} s, ETA {eta:.0f} s ")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()
