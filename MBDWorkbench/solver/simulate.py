"""Run a dynamic simulation: assemble, check, integrate to each output time, sample results.

Before the first step the assembled state passes :func:`.quality.start_of_run`: an over-driven
model is refused (OverdrivenError, a ModelError) unless ``settings.allow_overdriven``. After
the run, also after a failure or a cancel, :func:`.quality.gate` adds its warnings to the
stepper's and the status is one of ``status.STATUSES``: ``completed`` only without any warning.

A failed or cancelled run keeps (and writes, if ``out_dir`` is given) every sample
computed so far, then raises SimulationError / Cancelled carrying the results
(KeyboardInterrupt during the run becomes Cancelled). The results folder is checked before
solving and written while the run goes (results_files.ResultsWriter, docs/results-format.md
"Writing results").

The stepper (``integrators.make_stepper``) only integrates; this loop records every
sample, with the stepper's own multipliers when it has them (index-3 integrators).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator

import numpy as np

from . import accuracy, events, kernels, quality
from .errors import AssemblyError, Cancelled, ModelError, SimulationError
from .friction_sample_path import sample_path_for
from .integrators import METHODS, make_stepper
from .integrators.projection import project_after_output, singular_stop
from .integrators.sample_run import BLOW_UP_VIOLATION
from .model import limits
from .model.schema import Model
from .model.validate import validate_run, with_settings
from .numerics import cold_start
from .results.files import ResultsWriter
from .results.results import Results
from .results.sample_kernels import first_bad_sample
from .results.status import CANCELLED, COMPLETED, FAILED, final_status
from .system.assembly import assemble_initial_state
from .system.system import System
from .tolerant import locked_by_tolerance, tolerant_start

BAD_SAMPLE_REASONS = (  # of results.sample_kernels.first_bad_sample's reasons 0, 1 and 2
    "",
    "the state or the reactions became NaN/infinite",
    "the constraint violation exceeded 1000 (blow-up)",
)
CANCEL_CHECK_S = 0.25  # wall time [s] between two checks of cancel() within a long output interval


def simulate(
    model: Model,
    progress: Callable[[float, float], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    out_dir: str | None = None,
    overwrite: bool = False,
    writer: ResultsWriter | None = None,
    interpret_while_compiling: bool = False,
    **overrides,
) -> Results:
    """Simulate ``model`` (a Model). Keyword overrides replace model.settings fields
    (t_end, step, output_step, integrator, rtol, atol, baumgarte_alpha, violation_tol,
    allow_overdriven, ...). ``progress(t, t_end)`` is called at every output time;
    ``cancel()`` returning True stops the run (checked about every CANCEL_CHECK_S of wall
    time). ``out_dir``: the results folder, checked before solving, then locked and written
    while the run goes; a non-empty one is refused unless ``overwrite`` (then replaced as a
    whole at the end); or ``writer``, a ResultsWriter the caller opened (committed here once
    the run has started; the caller aborts it if this raises before).
    ``interpret_while_compiling``: on a cold Numba cache, run the kernels interpreted while a
    background process compiles them (:mod:`.cold_start`; the command line and the GUI do).
    Returns Results (``status`` completed or completed_with_warnings, ``warnings`` a list of RunWarning)."""
    model = with_settings(model, overrides)
    validate_run(model)  # size estimate against solver/model/limits.py, profiles at the output times
    if writer is None and out_dir is not None:
        ResultsWriter(out_dir, overwrite).abort()  # refused here, before solving, if it may not be written
    stepper_class = METHODS[model.settings.integrator]
    with cold_start.interpreted_until_compiled(model, stepper_class, interpret_while_compiling) as cold:
        companion = _companion(model, stepper_class, cold)
        try:
            return _run(model, progress, cancel, out_dir, overwrite, writer, companion)
        finally:
            if companion is not None:
                companion.stop()


def _companion(model, stepper_class, cold: bool) -> accuracy.Companion | None:
    """The companion run of the accuracy estimate (None when switched off): started now in a
    process on a second CPU with a warm cache, else run in this process after the run
    (:class:`.accuracy.Companion`)."""
    if not accuracy.enabled(model.settings):
        return None
    kernel = getattr(stepper_class, "entry_kernel", None) or kernels.derivatives
    warm = not cold and cold_start.is_cached(kernel)
    return accuracy.Companion(model, in_process=not warm or accuracy.cpus() < 2, solve=_solve_companion)


def _solve_companion(model, overrides: dict) -> Results:
    """A companion run of the estimate (in a forked child: :class:`.accuracy.Forked`)."""
    return simulate(model, accuracy=False, **overrides)


def _run(model, progress, cancel, out_dir, overwrite, writer, companion=None) -> Results:
    """:func:`simulate` after its checks."""
    settings = model.settings
    system = System(model)
    t0 = 0.0
    index = METHODS[settings.integrator].index
    quality.check_profiles_at(model, t0, index)
    Y, moves, tolerant = system.Y0.copy(), None, []
    if settings.assemble:
        system, Y, moves, tolerant = _assembled(system, Y, t0, settings)
    res = Results(system, settings)
    if moves is not None:
        res.assembly = moves
    start = quality.start_of_run(system, Y, t0, settings)
    start.warnings[:0] = tolerant
    clock = time.perf_counter()
    stepper, t, t_next = None, t0, t0
    times = _output_times(settings, t0)
    res.reserve(len(times) + 1)
    if writer is None and out_dir is not None:
        writer = ResultsWriter(out_dir, overwrite)
    pace = _Pace(settings.step)
    budget = limits.step_budget(settings.t_end, settings.step) if settings.check_limits else None
    try:
        stepper = make_stepper(system, settings, t0, Y)
        stops = res.stops = events.monitor(system, settings)  # rigid stops' events, None without
        acc = np.zeros(6)
        res.record(t0, Y, acc, lam=_multipliers(stops, stepper, t0, Y))
        _write(writer, res)
        if stops is not None:
            stops.start(Y)
        fast, i = sample_path_for(system, settings, CANCEL_CHECK_S), 0
        while i < len(times):
            t_next = times[i]
            if fast.eligible(stepper, stops, t):
                done = _fast_samples(
                    fast, system, res, stepper, stops, t, Y, times[i:], acc, pace.max_steps, (progress, cancel, writer)
                )
                if done:
                    i, t = i + done, float(times[i + done - 1])
                    _check_budget(stepper, budget, t, settings)
                    _write(writer, res)
                    continue
            for t_sub in pace.split(t, t_next):
                if cancel is not None and cancel():
                    raise Cancelled(f"cancelled at t = {t:.6g} s", time=t)
                if stops is None:
                    t_reached, status = _advance(model, stepper, pace.at, Y, t_sub, acc, index)
                else:
                    step = lambda st, a, y, b, w: _advance(model, st, a, y, b, w, index)  # noqa: E731
                    stepper, t_reached, status = stops.advance(stepper, pace.at, Y, t_sub, acc, step)
                if status != kernels.OK:
                    _fail(system, res, t_reached, Y, status, getattr(stepper, "failure", ""))
                _check_budget(stepper, budget, t_reached, settings)
            t, i = t_next, i + 1
            stepper = project_after_output(system if stops is None else stops.active, settings, stepper, t, Y)
            held = None if stops is None else stops.derivative(t, Y)  # a held stop's lock rows act
            res.record(t, stepper.published_state(t, Y), acc, lam=_multipliers(stops, stepper, t, Y), Ydot=held)
            bad = _check_sample(system, res)
            if bad:
                _fail(system, res, t, Y, kernels.NOT_FINITE, bad)
            _write(writer, res)
            if progress is not None:
                progress(t, settings.t_end)
    except KeyboardInterrupt:
        error = Cancelled(f"interrupted (Ctrl-C) at t = {t:.6g} s", time=t)
        _stopped(res, error, stepper, start, clock, writer)
        raise error from None
    except SimulationError as e:
        error = e if isinstance(e, Cancelled) else _explained(model, e, t, t_next, index)
        error = _blown_up(system, res, error, Y, start.length_scale, settings.step)
        _stopped(res, error, stepper, start, clock, writer)
        if error is e:
            raise
        raise error from e
    except Exception as e:  # an internal error: keep the samples so far
        if isinstance(e, ModelError) or not len(res):  # refused before the first sample: nothing to keep
            if writer is not None:
                writer.abort()
            raise
        res.message = f"stopped at t = {t:.6g} s: {type(e).__name__}: {e}".rstrip(": ")
        _finish(res, FAILED, stepper, start, clock, writer)
        raise
    _finish(res, COMPLETED, stepper, start, clock, writer, (companion, cancel))
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


def _fast_samples(fast, system, res, stepper, stops, t, Y, times, acc, pace_steps: int, calls) -> int:
    """The fast path (:mod:`.sample_path`) from t [s] through as many of ``times`` as it may: its
    samples recorded at once and checked (a bad one, or a failed step, stops the run as on the slow
    path); ``calls`` = (progress, cancel, writer): cancel asked before each sample as on the slow
    path (the samples before the first True kept, then Cancelled), the writer called once after the
    samples, then progress at each one's time (one that raises leaves them all recorded). Returns
    how many."""
    progress, cancel, writer = calls
    done, rows_Y, rows_acc, memory, status, t_reached = fast.advance(stepper, stops, t, Y, times, acc, pace_steps)
    kept = done
    if cancel is not None:
        kept = next((k for k in range(done) if cancel()), done)
    if kept:
        _record_many(res, times[:kept], rows_Y[:kept], rows_acc[:kept], memory[:kept])
        k, bad = _check_samples(system, res, kept)
        if bad:
            _fail(system, res, float(times[k]), Y, kernels.NOT_FINITE, bad)
    _write(writer, res)
    for k in range(kept if progress is not None else 0):
        progress(float(times[k]), res.settings.t_end)
    if kept < done:
        t_kept = float(times[kept - 1]) if kept else t
        raise Cancelled(f"cancelled at t = {t_kept:.6g} s", time=t_kept)
    if status == kernels.SINGULAR:
        raise singular_stop(stepper.system, t_reached, Y, "the kept constraint equations became dependent")
    if status != kernels.OK:
        _fail(system, res, t_reached, Y, status, getattr(stepper, "failure", ""))
    return done


def _record_many(res, t: np.ndarray, Y: np.ndarray, acc: np.ndarray, memory: np.ndarray) -> None:
    """Record the rows (t [s], Y, acc) of the fast path (Results.record_many), each with the force
    elements' memory of its time (S.force_vecs[:, 3:5]: contact impact speeds and peaks, unwrapped
    angles; the evaluation reads and sets it), the memory the run has reached restored after."""
    res.record_many(t, Y, acc, memory if memory.shape[1] else None)


def _multipliers(stops, stepper, t: float, Y: np.ndarray):
    """The multipliers to record at output time t [s]: the stepper's, or the rigid stops' monitor's."""
    return stepper.multipliers(t, Y) if stops is None else stops.multipliers(stepper, t, Y)


def _check_budget(stepper, budget: int | None, t: float, settings) -> None:
    """Stop a run whose integrator has taken more than ``budget`` steps (limits.step_budget: an
    adaptive integrator that keeps shrinking its step would otherwise run for ever); checked
    after every sub-interval, so within about CANCEL_CHECK_S of wall time per base step."""
    if budget is not None and stepper.steps > budget:
        raise SimulationError(
            f"simulation stopped at t = {t:.6g} s: the integrator took {stepper.steps} steps (on average "
            f"{t / stepper.steps:.3g} s for a step of {settings.step:g} s), beyond its step budget of {budget} "
            f"({limits.STEP_BUDGET_FACTOR} x t_end / step, docs/model-format.md, Limits): a stiff, singular or "
            f"discontinuous model? Try another integrator or looser rtol/atol (--no-limits lifts the budget)",
            time=t,
        )


def _output_times(settings, t0: float) -> np.ndarray:
    n_out = max(1, int(round(settings.t_end / settings.output_step)))
    return np.linspace(t0, settings.t_end, n_out + 1)[1:]


def _assembled(system: System, Y: np.ndarray, t0: float, settings) -> tuple[System, np.ndarray, list, list]:
    """(system, initial state assembled at t0 [s], body moves, warnings). A model whose CAD leaves
    redundant joint equations open (it does not assemble, or only locked or over-driven) runs
    without them (:func:`.tolerant.tolerant_start`: the reduced system and its 'cad_tolerance'
    warning). An over-driven model that does not assemble otherwise (conflicting driver values) is
    reported as over-driven rather than as an assembly failure."""
    strict_error = None
    try:
        Y1, moves = assemble_initial_state(system, Y, t0)
        if not locked_by_tolerance(system, Y, Y1, t0):
            return system, Y1, moves, []
    except AssemblyError as e:
        strict_error = e
    try:
        reduced, Y1t, moves_t, warning = tolerant_start(system, Y, t0)
        return reduced, Y1t, moves_t, [warning]
    except AssemblyError as e:
        if strict_error is None:  # the strict start stands (start_of_run refuses it if over-driven)
            return system, Y1, moves, []
        rank = quality.constraint_rank(system, Y, t0)
        if rank.over_driving and not settings.allow_overdriven:
            raise quality.overdriven_error(system, rank, t0) from strict_error
        if e.worst:  # the independent equations do not close: this error names the joints
            raise
        raise strict_error from None


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


def _blown_up(system, res, error: SimulationError, Y: np.ndarray, L: float, step: float) -> SimulationError:
    """``error``, or the blow-up it is (:func:`quality.blow_up`, with the time and a hint) when the
    state has blown up: an explicit step beyond a stiff mode's stability limit also makes the
    constraint solve fail, which is then no singular position."""
    if isinstance(error, (Cancelled, quality.ProfileError)) or not len(res):
        return error
    reason = quality.blow_up(system, res.Y[0], Y, L, step)
    if not reason:
        return error
    t = error.time if error.time is not None else float(res.t[-1])
    worst = ", ".join(f"'{n}'" + (f" ({v:.3g})" if v else "") for n, v in error.worst_joints)
    reason += f"; worst joints: {worst}" if worst else ""
    blown = SimulationError(f"simulation stopped at t = {t:.6g} s: {reason}", time=t, worst_joints=error.worst_joints)
    blown.blow_up = True
    return blown


def _stopped(res, error: SimulationError, stepper, start, clock, writer) -> None:
    """Record a failed or cancelled run (partial results kept, gate run on them). After a
    blow-up the rank findings of the blown-up samples (near-singular, rank change) are left out:
    they describe the blow-up, not the mechanism."""
    res.message = str(error)
    error.results = res
    dropped = ("near_singular", "rank_change") if getattr(error, "blow_up", False) else ()
    _finish(res, CANCELLED if isinstance(error, Cancelled) else FAILED, stepper, start, clock, writer, dropped=dropped)


def _finish(res, status, stepper, start, clock, writer, estimate=(None, None), dropped=()):
    """Close a run: steps, wall time, warnings (the accuracy estimate's of a completed run with
    ``estimate`` = (its Companion, cancel); the gate's kinds in ``dropped`` left out), the final
    status, summary.json."""
    res.steps = stepper.steps if stepper is not None else 0
    res.wall_time = time.perf_counter() - clock
    warnings, behind = ([], None) if stepper is None else (list(stepper.warnings), stepper.integrated)
    if behind is not None and behind.worst:
        res.integrated_violation = behind.largest()
    found = quality.gate(res, start, warnings, behind)
    res.warnings = list(res.model.warnings) + [w for w in found if w.kind not in dropped]  # the model's first
    companion, cancel = estimate
    if companion is not None:

        def run_here(overrides: dict) -> Results:
            return simulate(res.model, cancel=cancel, accuracy=False, **overrides)

        res.warnings += accuracy.estimate(res, companion, start.length_scale, run_here, cancel)
    res.status = final_status(status, res.warnings)
    if writer is not None:
        writer.commit(res)  # after the status is final: summary.json is written here


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


def _check_sample(system, res):
    """A reason to stop if the last sample is not finite or the joints have blown apart."""
    return _check_samples(system, res, 1)[1]


def _check_samples(system, res, count: int) -> tuple[int, str]:
    """(index among the last ``count`` samples, reason to stop) of the first one that is not finite or
    whose joints have blown apart (a constraint violation over BLOW_UP_VIOLATION); (-1, "") if none."""
    store = res._rows
    Y, lam, phi = (store.column(key)[-count:] for key in ("Y", "lam", "phi"))
    k, reason = first_bad_sample(Y, lam, phi, BLOW_UP_VIOLATION)
    return int(k), BAD_SAMPLE_REASONS[reason]


def _fail(system, res, t, Y, status, reason=""):
    if not reason:
        reason = (
            "the kept constraint equations became dependent (a singular position the solve cannot pass)"
            if status == kernels.SINGULAR
            else "the state became NaN/infinite (blow-up; try a smaller step)"
        )
    phi = res._rows[-1]["phi"] if len(res) else np.zeros(system.m)
    try:
        phi_now = system.constraint_residual(t, Y)
        if np.all(np.isfinite(phi_now)):
            phi = phi_now
    except Exception:
        pass
    worst = system.worst_joints(np.nan_to_num(phi, nan=np.inf))
    names = ", ".join(f"'{n}' ({v:.3g})" for n, v in worst) or "none"
    raise SimulationError(
        f"simulation stopped at t = {t:.6g} s: {reason}; worst joints: {names}", time=t, worst_joints=worst
    )
