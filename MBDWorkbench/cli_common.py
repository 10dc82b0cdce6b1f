"""Helpers shared by the command-line subcommands (:mod:`.cli`, :mod:`.analysis_cli`):
loading a model, the progress line, the output folder, the run status and its warnings,
reporting a stopped run, the exit codes (``status.EXIT_CODES``: 0 completed, 2 bad input,
3 completed with warnings, 4 failed, 5 cancelled, 70 internal error)."""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

from .solver.errors import Cancelled, ModelError, SimulationError
from .solver.model import Model, Settings
from .solver.model.catalog import INTEGRATORS, JOINTS, default_step
from .solver.model.limits import RANGES
from .solver.model.parse import from_dict, parse_json, read_model_text
from .solver.model.validate import estimate_size, refuse_run_size
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


def load_model(
    path: str,
    analysis: str | None = None,
    overrides: dict | None = None,
    precheck: Callable[[object], None] | None = None,
) -> Model:
    """Load a JSON model or a FreeCAD document (.FCStd) into a Model; ModelError naming the
    file when it is missing, a directory, unreadable or not a model. With ``analysis``
    (simulate, kinematics, statics) a JSON model whose run is beyond the limits is refused
    from its parsed JSON (:func:`refuse_oversized`), before the model is built and validated.
    ``precheck(data)`` (raising ModelError) sees the parsed JSON before the model is built (a
    document's model as a dict, after)."""
    if not os.path.exists(path):
        raise ModelError(path, "file not found")
    if os.path.isdir(path):
        raise ModelError(path, "is a directory, not a model file")
    if path.lower().endswith(".fcstd"):
        from .cad.document_model import model_from_document_file

        model = model_from_document_file(path)
        if precheck is not None:
            precheck(model.to_dict())
        return model
    data = parse_json(read_model_text(path), str(path))
    if analysis is not None:
        refuse_oversized(data, analysis, overrides or {})
    if precheck is not None:
        precheck(data)
    return from_dict(data)


RELAX_HELP = (
    "make the model statically determinate first: apply the joint relaxations the mobility analysis proposes "
    "(e.g. revolute -> cylindrical), listed in the output and summary.json, so that every reaction is unique"
)


def relaxed(model: Model, relax: bool) -> Model:
    """``model``, or with ``relax`` its statically determinate copy (analyses.mobility.relax),
    each relaxation printed ("relaxed joint 'X': revolute -> cylindrical")."""
    if not relax:
        return model
    from .solver.analyses.mobility import relax as relax_model

    model, steps = relax_model(model)
    for line in getattr(model, "relaxations", []):  # none when nothing was relaxed
        print("relaxed " + line)
    if not steps:
        print("--relax: no redundant joint equation, the model is unchanged")
    return model


def refuse_oversized(data: object, analysis: str, overrides: dict) -> None:
    """ModelError with the size estimate (validate.refuse_run_size) when the run of the JSON
    model ``data`` (settings ``overrides`` applied: t_end, step, output_step [s], check_limits)
    exceeds the limits; counted from the parsed JSON, bodies marked grounded left out, so the
    estimate never exceeds the built model's. Anything malformed is left to the validation."""
    if not isinstance(data, dict) or not isinstance(data.get("settings", {}), dict):
        return
    raw, defaults = {**data.get("settings", {}), **{k: v for k, v in overrides.items() if v is not None}}, Settings()
    values = {k: raw.get(k, getattr(defaults, k)) for k in ("t_end", "step", "output_step", "check_limits")}
    integrator = raw.get("integrator", defaults.integrator)
    if (
        values["step"] is None
        and _a_time(values["t_end"])
        and isinstance(integrator, str)
        and integrator in INTEGRATORS
    ):
        values["step"] = default_step(integrator, float(values["t_end"]))  # the integrator's own (Settings.resolved)
    if values["check_limits"] is False or not all(_a_time(values[k]) for k in ("t_end", "step", "output_step")):
        return
    bodies, joints, drivers = (data.get(k, []) for k in ("bodies", "joints", "drivers"))
    if not all(isinstance(x, list) for x in (bodies, joints, drivers)):
        return
    moving = sum(1 for b in bodies if isinstance(b, dict) and not b.get("grounded"))
    kinds = [j.get("type") for j in joints if isinstance(j, dict)]
    rows = sum(JOINTS[k].equations for k in kinds if isinstance(k, str) and k in JOINTS) + len(drivers)
    s = Settings(t_end=float(values["t_end"]), step=float(values["step"]), output_step=float(values["output_step"]))
    refuse_run_size(estimate_size(analysis, s, moving, rows, len(joints), len(drivers)), analysis, s)


def _a_time(value: object) -> bool:
    """A number within RANGES['time'] (anything else is for the validation to name)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and RANGES["time"].contains(value)


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


class _SignalState:
    """SIGINT/SIGTERM during one command: ``caught`` signals so far, ``listening`` while a run
    polls cancel(), ``stopping`` once the run has taken the cancel (or was interrupted)."""

    def __init__(self) -> None:
        self.caught, self.listening, self.stopping, self.installed = 0, False, False, False


_signals = _SignalState()


def _on_signal(signum, frame):
    """The first signal during a run asks it to stop at its next check of cancel(); a signal
    outside a run, or a second one before the run took the first, interrupts at once
    (KeyboardInterrupt: the run writes its samples so far, exit 5); once the run is stopping,
    further signals are only acknowledged, so they cannot cut the writing of its samples."""
    name = signal.Signals(signum).name
    # os.write, not print: the handler may run while the main thread is inside a write to sys.stderr (progress
    # line), and a buffered write re-entered from a handler raises RuntimeError ("reentrant call")
    if _signals.stopping:
        os.write(2, f"\n{name}: already stopping, writing the samples so far\n".encode())
        return
    _signals.caught += 1
    if _signals.listening and _signals.caught == 1:
        os.write(2, f"\n{name}: cancelling the run (again to interrupt at once)\n".encode())
        return
    _signals.stopping = True
    raise KeyboardInterrupt


@contextlib.contextmanager
def signals_handled() -> Iterator[None]:
    """SIGINT and SIGTERM handled by :func:`_on_signal` over a whole command (cli.main): a
    signal never ends the process by itself, so every cancel exits 5. Main thread only."""
    if threading.current_thread() is not threading.main_thread() or _signals.installed:
        yield
        return
    _signals.__init__()
    previous = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    _signals.installed = True
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
        _signals.installed = False


@contextlib.contextmanager
def cancel_on_signals() -> Iterator[Callable[[], bool]]:
    """A cancel() for simulate and the analyses that turns True at the first SIGINT (Ctrl-C) or
    SIGTERM: the run stops at its next check (every CANCEL_CHECK_S, a quarter second) and
    writes its samples so far; a second signal before that interrupts at once, any later one
    is only acknowledged (:func:`_on_signal`). Signal handlers can only be set in the main thread."""

    def cancel() -> bool:
        if _signals.caught:
            _signals.stopping = True
        return bool(_signals.caught)

    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    with signals_handled():
        _signals.listening = True
        try:
            yield cancel
        finally:
            _signals.listening = False


def exit_at_once(code: int) -> None:
    """End the process with ``code`` now: atexit handlers run and the streams are flushed, but
    the interpreter's teardown (about a second freeing the Numba, LLVM and SciPy modules) is
    skipped, so a cancelled run ends within a second of its signal (``python -m``)."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)
