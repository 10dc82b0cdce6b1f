"""Helpers shared by the command-line subcommands (:mod:`.cli`, :mod:`.analysis_cli`):
loading a model, the progress line, the output folder, the run status and its warnings,
reporting a stopped run, the exit codes (``status.EXIT_CODES``: 0 completed, 2 bad input,
3 completed with warnings, 4 failed, 5 cancelled, 70 internal error)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

from .solver.errors import Cancelled, ModelError, SimulationError
from .solver.model import Model, load
from .solver.results.files import ResultsWriteError
from .solver.results.status import (
    CANCELLED,
    COMPLETED,
    COMPLETED_WITH_WARNINGS,
    EXIT_BAD_INPUT,
    EXIT_CODES,
    EXIT_INTERNAL,
    FAILED,
    describe,
)

NO_LIMITS_HELP = (
    "run even when the estimated steps, samples or result memory exceed the limits of solver/model/limits.py "
    "(docs/model-format.md, Limits)"
)


def load_model(path: str) -> Model:
    """Load a JSON model or a FreeCAD document (.FCStd) into a Model; ModelError naming the
    file when it is missing, a directory, unreadable or not a model."""
    if not os.path.exists(path):
        raise ModelError(path, "file not found")
    if os.path.isdir(path):
        raise ModelError(path, "is a directory, not a model file")
    if path.lower().endswith(".fcstd"):
        from .cad.document_model import model_from_document_file

        return model_from_document_file(path)
    return load(path)


def out_dir(out: str | None, model_path: str, suffix: str) -> str:
    """``out``, or ``<model file name without extension><suffix>`` in the working directory."""
    return out or os.path.splitext(os.path.basename(model_path))[0] + suffix


class Progress:
    """A one-line progress indicator on stderr: ``progress(t, t_end)`` with times in s."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream = stream
        self.start = time.perf_counter()
        self.last = -1.0

    def __call__(self, t: float, t_end: float) -> None:
        now = time.perf_counter()
        if now - self.last < 0.2 and t < t_end:
            return
        self.last = now
        frac = min(1.0, t / t_end)
        bar = "#" * int(30 * frac)
        self.stream.write(f"\r[{bar:<30}] {100 * frac:5.1f}%  t = {t:.4g} s  ({now - self.start:.1f} s)")
        if t >= t_end:
            self.stream.write("\n")
        self.stream.flush()


def status_lines(status: str, warnings: list) -> list[str]:
    """'status: ...' and one line per run warning (status.RunWarning)."""
    lines = [
        f"status: {status}" + (f" ({len(warnings)} warning{'s' if len(warnings) != 1 else ''})" if warnings else "")
    ]
    return lines + [f"warning {describe(w)}" for w in warnings]


_EXIT_MEANINGS = {
    COMPLETED: "the run reached its end and the quality gate found nothing",
    COMPLETED_WITH_WARNINGS: "the run reached its end with warnings (listed in summary.json and printed)",
    FAILED: "the run stopped early; samples so far kept (also: results that could not be written, e.g. disk "
    "full, when the old folder is kept as it was)",
    CANCELLED: "SIGINT (Ctrl-C), SIGTERM or cancel(): the run stopped; samples so far kept",
}


def exit_code_table() -> str:
    """The exit codes of every subcommand as a Markdown table (docs/results-format.md), from
    status.EXIT_CODES, EXIT_BAD_INPUT and EXIT_INTERNAL."""
    rows = [f"| {EXIT_CODES[s]} | `{s}` | {_EXIT_MEANINGS[s]} |" for s in sorted(EXIT_CODES, key=EXIT_CODES.get)]
    rows.insert(
        1,
        f"| {EXIT_BAD_INPUT} | - | bad input, nothing run and no folder written: an invalid model, setting or "
        "option, a run beyond the limits, no assembly, an over-driven model refused, an --out or --report "
        "folder that may not be written |",
    )
    rows.append(
        f"| {EXIT_INTERNAL} | `failed` if a run had started | an internal error (a bug): one line names the "
        "exception and the log file holding its traceback (mbd_COMMAND_error_*.log in the temporary folder) |"
    )
    return "\n".join(["| exit code | status | when |", "|---|---|---|", *rows])


def exit_code(status: str) -> int:
    """The process exit code of a run that ended with ``status`` (status.EXIT_CODES)."""
    return EXIT_CODES.get(status, EXIT_CODES[FAILED])


def report_stopped_run(error: SimulationError, out: str) -> int:
    """Print why a run stopped, its status and warnings and where its partial results are;
    returns the exit code (4 failed, 5 cancelled)."""
    sys.stderr.write("\n")
    print(f"error: {error}", file=sys.stderr)
    res = error.results
    status = (
        getattr(res, "status", FAILED) if res is not None else (CANCELLED if isinstance(error, Cancelled) else FAILED)
    )
    if isinstance(error, ResultsWriteError):  # the run may have completed, but its results are lost
        status = FAILED
    for line in status_lines(status, getattr(res, "warnings", []) if res is not None else []):
        print(line, file=sys.stderr)
    if res is not None and len(res) and not isinstance(error, ResultsWriteError):
        print(f"results up to t = {res.t[-1]:.6g} s written to {out}", file=sys.stderr)
    return exit_code(FAILED if isinstance(error, ResultsWriteError) else status)


@contextlib.contextmanager
def cancel_on_signals() -> Iterator[Callable[[], bool]]:
    """A cancel() for simulate that turns True at the first SIGINT (Ctrl-C) or SIGTERM: the run
    stops at its next check (within a second) and writes its samples so far; a second signal
    interrupts at once (KeyboardInterrupt). Signal handlers can only be set in the main thread."""
    caught = []

    def handler(signum, frame):
        if caught:
            raise KeyboardInterrupt
        caught.append(signum)
        # os.write, not print: the handler may run while the main thread is inside a write to sys.stderr (progress
        # line), and a buffered write re-entered from a handler raises RuntimeError ("reentrant call")
        os.write(2, f"\n{signal.Signals(signum).name}: cancelling the run (again to interrupt at once)\n".encode())

    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield lambda: bool(caught)
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
