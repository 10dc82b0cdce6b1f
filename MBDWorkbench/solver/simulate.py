"""Run a dynamic simulation: assemble, check, integrate to each output time, sample results.

Before the first step the assembled state passes :func:`.quality.start_of_run`: an over-driven
model is refused (OverdrivenError, a ModelError) unless ``settings.allow_overdriven``. After
the run, also after a failure or a cancel, :func:`.quality.gate` adds its warnings to the
stepper's and the status is one of ``status.STATUSES``: ``completed`` only without any warning.

A failed or cancelled run keeps (and writes, if ``out_dir`` is given) every sample
computed so far, then raises SimulationError / Cancelled carrying the results
(KeyboardInterrupt during the run becomes Cancelled).

The stepper (``integrators.make_stepper``) only integrates; this loop records every
sample, with the stepper's own multipliers when it has them (index-3 integrators).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable

import numpy as np

from . import kernels, quality
from .assembly import assemble_initial_state
from .errors import AssemblyError, Cancelled, SimulationError
from .integrators import METHODS, make_stepper
from .integrators.projection import project_after_output
from .model import Model, validate_run, validate_settings
from .results import Results
from .status import CANCELLED, COMPLETED, FAILED, final_status
from .system import System


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
    **overrides,
) -> Results:
    """Simulate ``model`` (a Model). Keyword overrides replace model.settings fields
    (t_end, step, output_step, integrator, rtol, atol, baumgarte_alpha, violation_tol,
    allow_overdriven, ...). ``progress(t, t_end)`` is called at every output time;
    ``cancel()`` returning True stops the run. Returns Results (``status`` completed or
    completed_with_warnings, ``warnings`` a list of RunWarning)."""
    model = with_settings(model, overrides)
    validate_run(model)  # size estimate against solver/limits.py, profiles at the output times
    settings = model.settings
    system = System(model)
    res = Results(system, settings)
    t0 = 0.0
    index = METHODS[settings.integrator].index
    quality.check_profiles_at(model, t0, index)
    Y = system.Y0.copy()
    if settings.assemble:
        Y, res.assembly = _assembled(system, Y, t0, settings)
    start = quality.start_of_run(system, Y, t0, settings)
    clock = time.perf_counter()
    stepper, t, t_next = None, t0, t0
    try:
        stepper = make_stepper(system, settings, t0, Y)
        acc = np.zeros(6)
        res.record(t0, Y, acc, lam=stepper.multipliers(t0, Y))
        for t_next in _output_times(settings, t0):
            if cancel is not None and cancel():
                raise Cancelled(f"cancelled at t = {t:.6g} s", time=t)
            t_reached, status = _advance(model, stepper, t, Y, t_next, acc, index)
            if status != kernels.OK:
                _fail(system, res, t_reached, Y, status)
            t = t_next
            stepper = project_after_output(system, settings, stepper, t, Y)
            res.record(t, Y, acc, lam=stepper.multipliers(t, Y))
            bad = _check_sample(system, res)
            if bad:
                _fail(system, res, t, Y, kernels.NOT_FINITE, bad)
            if progress is not None:
                progress(t, settings.t_end)
    except KeyboardInterrupt:
        error = Cancelled(f"interrupted (Ctrl-C) at t = {t:.6g} s", time=t)
        _stopped(res, error, stepper, start, clock, out_dir)
        raise error from None
    except SimulationError as e:
        error = e if isinstance(e, Cancelled) else _explained(model, e, t, t_next, index)
        _stopped(res, error, stepper, start, clock, out_dir)
        if error is e:
            raise
        raise error from e
    _finish(res, COMPLETED, stepper, start, clock, out_dir)
    return res


def _advance(model, stepper, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray, index: int):
    """stepper.advance; an exception of the integrator's numerics (e.g. SciPy's LU refusing
    NaN) caused by a driver or load profile that is not finite in [t, t_next] becomes the
    failure naming that profile; any other exception is re-raised as it is."""
    try:
        return stepper.advance(t, Y, t_next, acc)
    except (ArithmeticError, ValueError, np.linalg.LinAlgError) as e:
        cause = _nonfinite_cause(model, t, t_next, index)
        if cause is None:
            raise
        raise cause from e


def _nonfinite_cause(model, t: float, t_next: float, index: int) -> quality.ProfileError | None:
    """The profile error if a profile is not finite between the last output time t and one
    step [s] beyond t_next (steppers evaluate up to a step past the output time)."""
    step = model.settings.step
    return quality.explain_nonfinite(model, t, max(t_next, t) + step, step, index)


def _output_times(settings, t0: float) -> np.ndarray:
    n_out = max(1, int(round(settings.t_end / settings.output_step)))
    return np.linspace(t0, settings.t_end, n_out + 1)[1:]


def _assembled(system: System, Y: np.ndarray, t0: float, settings) -> tuple[np.ndarray, list]:
    """Initial state assembled at t0 [s]; an over-driven model that does not assemble
    (conflicting driver values) is reported as over-driven rather than as an assembly failure."""
    try:
        return assemble_initial_state(system, Y, t0)
    except AssemblyError as e:
        rank = quality.constraint_rank(system, Y, t0)
        if rank.over_driving and not settings.allow_overdriven:
            raise quality.overdriven_error(system, rank, t0) from e
        raise


def _explained(model, error: SimulationError, t: float, t_next: float, index: int) -> SimulationError:
    """``error``, or the failure naming the driver/load profile that is not finite in
    [t, t_next] [s] when that is the cause (with the same results and time)."""
    if isinstance(error, quality.ProfileError):
        return error
    cause = _nonfinite_cause(model, t, t_next, index)
    if cause is None:
        return error
    cause.worst_joints = error.worst_joints
    return cause


def _stopped(res, error: SimulationError, stepper, start, clock, out_dir) -> None:
    """Record a failed or cancelled run (partial results kept, gate run on them)."""
    res.message = str(error)
    error.results = res
    _finish(res, CANCELLED if isinstance(error, Cancelled) else FAILED, stepper, start, clock, out_dir)


def _finish(res, status, stepper, start, clock, out_dir):
    res.steps = stepper.steps if stepper is not None else 0
    res.wall_time = time.perf_counter() - clock
    res.warnings = quality.gate(res, start, list(stepper.warnings) if stepper is not None else [])
    res.status = final_status(status, res.warnings)
    if out_dir is not None and len(res):
        res.write(out_dir)


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
