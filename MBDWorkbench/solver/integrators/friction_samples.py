"""Many output samples per compiled call of the fixed-step schemes on joint friction (issue 33 item 7).

:func:`friction_samples` integrates from one output time to the next as the slow path does on a
model with joint friction and no rigid stop or contact point: solver/events.py's StopMonitor
advances each interval in chunks of MAX_CHUNK_STEPS base steps at most (the stepper stops itself
at a friction event: integrators/friction.py), each chunk one call of :func:`.friction_steps`
with its event check, and then checks the contacts' event functions (solver/friction_events.py)
for a sign change since the chunk's start. The same chunks, steps and checks are taken here, on
the compiled event functions (:func:`.friction_solve.event_values`, the arithmetic of
FrictionEvents.values for one-channel contacts), and the state and work integrals at each output
time copied into a row of the output. An interval in which an event function changes sign, or in
which the compiled solve fails or leaves the Gram matrix to the reference (ILL_CONDITIONED), is
undone (its start restored) and left to the slow path, which locates the event or fails the
same way; so are an interval of more than ``max_steps`` steps (simulate._Pace would split it),
the steps over ``budget`` and an interval whose start sample is bad (sample_run's sample check)."""

from __future__ import annotations

import numpy as np

from ..kernels import OK
from ..numerics.friction_solve import SOLVED, evaluate, event_values
from ..numerics.jit import njit
from .friction_kernel import steps_from
from .sample_run import DONE, EVENT_NEAR, MAX_CHUNK_STEPS, crossed, equal_steps_compiled, reason_to_end


@njit(cache=True)
def _events(ev, F, state):
    """(whether the friction solve whose :func:`.evaluate` return is ``ev``, its evaluation in
    F.work, is SOLVED and gives every event function without the Python check, the contacts' event
    functions there)."""
    modes, senses, refs, has_ref = state[:4]
    if ev[0] != SOLVED:
        return False, np.zeros(0)
    K = F.work
    g, unset = event_values(F, modes, senses, refs, has_ref, K.e, K.rate_g, K.normal)
    return not unset, g


@njit(cache=True)
def _interval(ev, t, t_next, h, method, Y, S, W, F, state, acc, g0):
    """The output interval [t, t_next] [s] in the monitor's chunks (StopMonitor.advance and _chunk
    with friction alone) from ``ev``, the friction solve at (t, Y) (:func:`.evaluate`'s return, its
    evaluation in F.work and W; the slow path solves it again, to the same bits); g0: the event
    functions at its start, updated chunk by chunk. Returns (the steps taken, the solve at the
    end, likewise), the steps -1 where an event function changed sign, a solve failed or a step
    did not stay finite (Y, acc and g0 then partly advanced: the caller restores them)."""
    eps = 1e-12 * max(1.0, abs(t_next))
    steps = 0
    while t < t_next - eps:
        t1 = min(t + MAX_CHUNK_STEPS * h, t_next)
        t1 = t_next if t_next - t1 < 0.5 * h else t1
        n, hh = equal_steps_compiled(t1 - t, h)
        status, _, done, _, ev = steps_from(ev, t, t1, n, hh, method, Y, S, W, F, state, acc, True)
        if status != OK or done < n:
            return -1, ev
        ok, g = _events(ev, F, state)
        if not ok or crossed(g0, g):
            return -1, ev
        g0[:] = g
        t, steps = t1, steps + n
    return steps, ev


@njit(cache=True)
def friction_samples(
    method: int, t: float, Y: np.ndarray, times: np.ndarray, h: float, max_steps: int, budget: int, S, W, F,
    state, acc: np.ndarray, out_Y: np.ndarray, out_acc: np.ndarray, out_memory: np.ndarray, info: np.ndarray,
) -> int:  # fmt: skip
    """Integrate Y (in place, from t [s]) to the output times ``times`` [s] in turn with
    friction_steps' ``method``, base step h [s], the friction arrays F and the modes' ``state``
    (JointFriction.kernel_state); row k of out_Y and out_acc gets the state and the work integrals
    at times[k], out_memory[k] the force elements' memory (S.force_vecs[:, 3:5]). Returns the rows
    done; ``info``: [why the segment ended (sample_run's DONE, EVENT_NEAR, BUDGET, BAD_SAMPLE,
    LONG), steps taken, OK, 0] (sample_run.run_samples' layout)."""
    info[2], info[3] = OK, 0
    ev = evaluate(t, Y, S, W, F, state)
    ok, g0 = _events(ev, F, state)
    rows, steps, why = 0, 0, DONE if ok else EVENT_NEAR
    Y0, acc0, g_start = np.empty_like(Y), np.empty_like(acc), np.empty_like(g0)
    memory0 = S.force_vecs[:, 3:5, :].copy()
    while ok and rows < times.shape[0]:
        t_next = times[rows]
        n = equal_steps_compiled(t_next - t, h)[0]
        why = reason_to_end(rows, steps, n, max_steps, budget, t, Y, S, W)
        if why != DONE:
            break
        Y0[:], acc0[:], g_start[:], memory0[:] = Y, acc, g0, S.force_vecs[:, 3:5, :]
        done, end = _interval(ev, t, t_next, h, method, Y, S, W, F, state, acc, g0)
        if done < 0:
            Y[:], acc[:], g0[:], S.force_vecs[:, 3:5, :] = Y0, acc0, g_start, memory0
            why = EVENT_NEAR
            break
        out_Y[rows], out_acc[rows], out_memory[rows] = Y, acc, S.force_vecs[:, 3:5, :]
        rows, steps, t, ev = rows + 1, steps + done, t_next, end
    info[0], info[1] = why, steps
    return rows
