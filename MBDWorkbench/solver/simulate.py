"""Run a dynamic simulation: assemble, integrate to each output time, sample results.

A failed or cancelled run keeps (and writes, if ``out_dir`` is given) every sample
computed so far, then raises SimulationError / Cancelled carrying the results.

The stepper (``integrators.make_stepper``) only integrates; this loop records every
sample, with the stepper's own multipliers when it has them (index-3 integrators), and
copies the stepper's warnings into ``Results.warnings``.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable

import numpy as np

from . import kernels
from .assembly import assemble_initial_state
from .errors import Cancelled, SimulationError
from .integrators import make_stepper
from .integrators.projection import project_after_output
from .model import Model, validate_run, validate_settings
from .results import Results
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
    (t_end, step, output_step, integrator, rtol, atol, baumgarte_alpha, ...).
    ``progress(t, t_end)`` is called at every output time; ``cancel()`` returning True
    stops the run. Returns Results."""
    model = with_settings(model, overrides)
    validate_run(model)  # size estimate against solver/limits.py, profiles at the output times
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
    times = np.linspace(t0, settings.t_end, n_out + 1)[1:]
    t = t0
    try:
        for t_next in times:
            if cancel is not None and cancel():
                raise Cancelled(f"cancelled at t = {t:.6g} s", time=t)
            t_reached, status = stepper.advance(t, Y, t_next, acc)
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
        res.status = "completed"
    except SimulationError as e:
        res.status = "cancelled" if isinstance(e, Cancelled) else "failed"
        res.message = str(e)
        e.results = res
        _finish(res, stepper, start, out_dir)
        raise
    _finish(res, stepper, start, out_dir)
    return res


def _finish(res, stepper, start, out_dir):
    res.steps = stepper.steps
    res.warnings = list(stepper.warnings)
    res.wall_time = time.perf_counter() - start
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
