"""Run a dynamic simulation: assemble, integrate to each output time, sample results.

A failed or cancelled run keeps (and writes, if ``out_dir`` is given) every sample
computed so far, then raises SimulationError / Cancelled carrying the results. The results
folder is checked before solving and written while the run goes (results_files.ResultsWriter,
docs/results-format.md "Writing results").

The stepper (``integrators.make_stepper``) only integrates; this loop records every
sample, with the stepper's own multipliers when it has them (index-3 integrators), and
copies the stepper's warnings into ``Results.warnings``.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Iterator

import numpy as np

from . import kernels
from .assembly import assemble_initial_state
from .errors import Cancelled, SimulationError
from .integrators import make_stepper
from .integrators.projection import project_after_output
from .model import Model, validate_settings
from .results import Results
from .results_files import ResultsWriter
from .system import System

CANCEL_CHECK_S = 0.25  # wall time [s] between two checks of cancel() within a long output interval


def with_settings(model: Model, overrides: dict) -> Model:
    """A shallow copy of ``model`` whose settings have the non-None ``overrides`` applied
    and validated (TypeError for an unknown setting name)."""
    settings = copy.copy(model.settings)
    for key, value in overrides.items():
        if value is not None:
            if not hasattr(settings, key):
                raise TypeError(f"unknown setting '{key}'")
            setattr(settings, key, value)
    validate_settings(settings)
    model = copy.copy(model)
    model.settings = settings
    return model


def simulate(
    model: Model,
    progress: Callable[[float, float], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    out_dir: str | None = None,
    overwrite: bool = False,
    writer: ResultsWriter | None = None,
    **overrides,
) -> Results:
    """Simulate ``model`` (a Model). Keyword overrides replace model.settings fields
    (t_end, step, output_step, integrator, rtol, atol, baumgarte_alpha, ...).
    ``progress(t, t_end)`` is called at every output time; ``cancel()`` returning True
    stops the run (checked about every CANCEL_CHECK_S of wall time). ``out_dir``: the
    results folder, checked before solving, then locked and written while the run goes; a
    non-empty one is refused unless ``overwrite`` (then replaced as a whole at the end);
    or ``writer``, a ResultsWriter the caller opened (committed here once the run has
    started; the caller aborts it if this raises before). Returns Results."""
    model = with_settings(model, overrides)
    if writer is None and out_dir is not None:
        ResultsWriter(out_dir, overwrite).abort()  # refused here, before solving, if it may not be written
    settings = model.settings
    system = System(model)
    res = Results(system, settings)
    t0 = 0.0
    Y = system.Y0.copy()
    if settings.assemble:
        Y, res.assembly = assemble_initial_state(system, Y, t0)
    start = time.perf_counter()
    stepper = make_stepper(system, settings, t0, Y)
    acc = np.zeros(6)
    res.record(t0, Y, acc, lam=stepper.multipliers(t0, Y))
    n_out = max(1, int(round(settings.t_end / settings.output_step)))
    res.reserve(n_out + 1)
    if writer is None and out_dir is not None:
        writer = ResultsWriter(out_dir, overwrite)
    times = np.linspace(t0, settings.t_end, n_out + 1)[1:]
    t = t0
    pace = _Pace(settings.step)
    try:
        _write(writer, res)
        for t_next in times:
            for t_sub in pace.split(t, t_next):
                if cancel is not None and cancel():
                    raise Cancelled(f"cancelled at t = {t:.6g} s", time=t)
                t_reached, status = stepper.advance(pace.at, Y, t_sub, acc)
                if status != kernels.OK:
                    _fail(system, res, t_reached, Y, status)
            t = t_next
            stepper = project_after_output(system, settings, stepper, t, Y)
            res.record(t, Y, acc, lam=stepper.multipliers(t, Y))
            bad = _check_sample(system, res)
            if bad:
                _fail(system, res, t, Y, kernels.NOT_FINITE, bad)
            _write(writer, res)
            if progress is not None:
                progress(t, settings.t_end)
        res.status = "completed"
    except SimulationError as e:
        res.status = "cancelled" if isinstance(e, Cancelled) else "failed"
        res.message = str(e)
        e.results = res
        _finish(res, stepper, start, writer)
        raise
    except BaseException as e:  # Ctrl-C in Python, or an internal error: keep the samples so far
        res.status = "cancelled" if isinstance(e, KeyboardInterrupt) else "failed"
        res.message = f"stopped at t = {t:.6g} s: {type(e).__name__}: {e}".rstrip(": ")
        _finish(res, stepper, start, writer)
        raise
    _finish(res, stepper, start, writer)
    return res


def _write(writer: ResultsWriter | None, res: Results) -> None:
    if writer is not None:
        writer.append(res)


class _Pace:
    """Splits an output interval into sub-intervals of whole numbers of the base step ``h`` [s],
    few enough steps each that one ``advance`` lasts about CANCEL_CHECK_S of wall time, so
    cancel() is honoured within a second even inside compiled step loops. Intervals that are
    short enough are not split (the run is then exactly the unsplit one); the steppers take the
    same steps either way, as their steps divide the interval evenly."""

    def __init__(self, h: float) -> None:
        self.h = h
        self.max_steps = 1000  # until timed
        self.at = 0.0  # start of the current sub-interval [s]
        self.calls = 0

    def split(self, t: float, t_next: float) -> Iterator[float]:
        """Ends of the sub-intervals of [t, t_next]; ``at`` holds the start of each."""
        n = max(1, math.ceil((t_next - t) / self.h - 1e-9))
        done = 0
        while done < n:
            k = min(n - done, self.max_steps)
            self.at = t if done == 0 else t + (t_next - t) * done / n
            started = time.perf_counter()
            yield t_next if done + k == n else t + (t_next - t) * (done + k) / n
            elapsed = time.perf_counter() - started
            self.calls += 1
            timed = self.calls > 1  # the first call compiles and warms up
            if timed and (elapsed > CANCEL_CHECK_S or k == self.max_steps):
                self.max_steps = max(1, min(100_000, int(k * CANCEL_CHECK_S / max(elapsed, 1e-9))))
            done += k


def _finish(res, stepper, start, writer):
    res.steps = stepper.steps
    res.warnings = list(stepper.warnings)
    res.wall_time = time.perf_counter() - start
    if writer is not None:
        writer.commit(res)  # after the status is final: summary.json is written here


def _check_sample(system, res):
    """A reason to stop if the last sample is not finite or the joints have blown apart."""
    row = res._rows[-1]
    if not np.all(np.isfinite(row["Y"])) or not np.all(np.isfinite(row["lam"])):
        return "the state or the reactions became NaN/infinite"
    if system.m and np.max(np.abs(row["phi"])) > 1e3:
        return "the constraint violation exceeded 1000 (blow-up)"
    return ""


def _fail(system, res, t, Y, status, reason=""):
    if not reason:
        reason = (
            "the constraint Schur complement became singular (try a Tikhonov eps > 0)"
            if status == kernels.SINGULAR
            else "the state became NaN/infinite (blow-up; try a smaller step)"
        )
    phi = res._rows[-1]["phi"] if len(res) else np.zeros(system.m)
    try:
        phi_now = system.constraint_jacobian(t, Y)[0]
        if np.all(np.isfinite(phi_now)):
            phi = phi_now
    except Exception:
        pass
    worst = system.worst_joints(np.nan_to_num(phi, nan=np.inf))
    names = ", ".join(f"'{n}' ({v:.3g})" for n, v in worst) or "none"
    raise SimulationError(
        f"simulation stopped at t = {t:.6g} s: {reason}; worst joints: {names}", time=t, worst_joints=worst
    )
