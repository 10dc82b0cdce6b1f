"""Many output samples per compiled call of the fixed-step explicit integrators (issue 33 item 7).

:func:`run_samples` integrates from one output time to the next as :class:`.explicit.FixedStepStepper`
does (the equal steps of each interval, :func:`.explicit.run_fixed`) and copies the state and the
work integrals at each output time into a row of its output, until it meets an interval that the
event machinery of solver/events.py (StopMonitor) could act in. It then leaves that interval
undone (the state of its start restored) and returns: the caller does it on the slow path.

The guard is the monitor's own rule, on the same compiled gap functions: within an interval the
steps go in the monitor's chunks (half the time the nearest free stop or contact point takes to
close at its current rate, MAX_CHUNK_STEPS at most: :func:`chunk_end`), the event values looked at
after each (a free stop's gap, numerics.stop_gaps; a contact point's onset gap, numerics.onset_gaps
with its broad phase; a touching point opening is the same bookkeeping as
ContactGaps.closing_time). An interval in which one changed sign is undone and left to the slow
path, which locates the event; so is one in which the rank state changed or a step failed before
its last chunk (the slow path reads those between chunks). The steps and the checks are thus those
the slow path takes, bit for bit. Also ended: after a rank change or a near-singular passage (the
stepper's RankEvents reads them), after ``max_steps`` steps (so cancel() and progress are seen), at
a failed step, and before an interval whose start sample is not finite or whose constraint
violation is over 1000 (the run's sample check: that sample is the last row).
"""

from __future__ import annotations

import numpy as np

from .. import kernels
from ..numerics.constraints import constraints
from ..numerics.contact_forces import BOUND
from ..numerics.forces import CONTACT
from ..numerics.jit import njit
from ..numerics.loop_copies import copy_into, memory_into, put_memory
from ..numerics.onset_gaps import closing_time, event_values, onset_gaps
from ..numerics.stop_gaps import stop_gaps
from .explicit import run_fixed

MAX_CHUNK_STEPS = 64  # the longest chunk [base steps] of solver/events.py's monitor and of this fast path
BLOW_UP_VIOLATION = 1e3  # simulate._check_sample's: a larger constraint violation is a blow-up
DONE, EVENT_NEAR, RANK, BUDGET, BAD_SAMPLE, FAILED, LONG = 0, 1, 2, 3, 4, 5, 6  # why a segment ended


@njit(cache=True)
def _equal_steps(span: float, h_max: float) -> tuple[int, float]:
    """integrators.base.equal_steps, the same arithmetic."""
    n = max(1, int(np.ceil(span / h_max - 1e-9)))
    return n, span / n


@njit(cache=True, refcounts=False)  # per output interval and chunk: no reference counts (jit.py)
def _stop_values(stops, Y, nb, gaps, rates) -> None:
    """Every stop side's gap [rad or m] and rate at Y (numerics.stop_gaps)."""
    kind, bi, bj, vecs, sign, limit, A, jac = stops[:8]
    stop_gaps(kind, bi, bj, vecs, sign, limit, Y, nb, A, jac, gaps, rates)


@njit(cache=True, refcounts=False)  # per output interval and chunk: no reference counts (jit.py)
def _contact_values(contacts, Y, nb, S, values) -> tuple[int, float]:
    """The onset gaps of the watched contact points at Y (ContactGaps._compute) and their event
    values (ContactGaps.values) in ``values`` by element (1: not watched); returns (watched count,
    far time [s]). Scratch: contacts[12] (a value per element)."""
    first, world, order, margin, pinned, gaps, rates, watched, touching, A = contacts[:10]
    out = contacts[12]
    for e in range(gaps.shape[0]):
        gaps[e], rates[e], values[e] = np.inf, 0.0, 1.0
    count, far = onset_gaps(
        Y, nb, A, S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_flag, first, S.bp_body, S.bp_centre,
        S.bp_radius, S.bp_key, S.bp_first, S.bp_end, S.bp_always, world, order, margin, pinned, gaps, rates, watched,
    )  # fmt: skip
    event_values(gaps, watched[:count], touching, out[:count])
    for i in range(count):
        values[watched[i]] = out[i]
    return count, far


@njit(cache=True)
def _crossed(before: np.ndarray, after: np.ndarray) -> bool:
    """StopMonitor.advance's test: an event value below 0 that was not (NaN: no crossing)."""
    for i in range(after.shape[0]):
        if after[i] < 0.0 <= before[i]:
            return True
    return False


@njit(cache=True)
def chunk_end(t: float, t_next: float, h: float, closing: float) -> float:
    """StopMonitor.advance's next check time [s] from t (its _chunk rule, the same arithmetic): whole
    base steps h [s] up to half the ``closing`` time [s], MAX_CHUNK_STEPS at most; t_next if that
    leaves less than half a step."""
    steps = int(min(0.5 * closing / h, MAX_CHUNK_STEPS))
    t1 = min(t + max(1, steps) * h, t_next)
    return t_next if t_next - t1 < 0.5 * h else t1


@njit(cache=True, refcounts=False)  # per chunk: no reference counts (jit.py)
def _closing(t, h, stops, contacts, watch) -> float:
    """StopMonitor._chunk's closing time [s] at the current state (touching points that opened
    are no longer touching: ContactGaps.closing_time)."""
    out, count, far = np.inf, int(watch[0]), watch[1]
    gaps, rates, watched, touching, touched_at = contacts[5], contacts[6], contacts[7], contacts[8], contacts[10]
    if touching.shape[0]:
        out = min(2.0 * far, closing_time(gaps, rates, watched[:count], touching, touched_at, t, 0.5 * h))
    stop_gap, stop_rate = stops[8], stops[9]
    for k in range(stop_gap.shape[0]):
        if stop_rate[k] < 0.0:
            out = min(out, stop_gap[k] / -stop_rate[k])
    return out


@njit(cache=True, refcounts=False)  # per output interval and chunk: no reference counts (jit.py)
def _look(stops, contacts, Y, S, watch) -> bool:
    """The event values at Y (stop gaps, contact onset values; watch: [watched points, far time [s]]);
    whether one changed sign since the last look (they become the last). Scratch: contacts[13] (a
    value per element)."""
    _stop_values(stops, Y, S.nb, stops[8], stops[9])
    crossed = _crossed(stops[10], stops[8])
    copy_into(stops[10], stops[8])
    if contacts[8].shape[0]:
        values = contacts[13]
        watch[0], watch[1] = _contact_values(contacts, Y, S.nb, S, values)
        crossed = _crossed(contacts[11], values) or crossed
        copy_into(contacts[11], values)
    return crossed


@njit(cache=True, refcounts=False)  # per output interval with S or W: no reference counts (jit.py)
def _reason_to_end(rows: int, steps: int, n: int, max_steps: int, budget: int, t: float, Y, S, W) -> int:
    """Why the segment ends before an interval of n steps from (t [s], Y) (DONE: it does not)."""
    if n > max_steps:
        return LONG
    if rows and steps + n > budget:
        return BUDGET
    if rows and _sample_bad(t, Y, S, W):
        return BAD_SAMPLE
    return DONE


@njit(cache=True, refcounts=False)  # per output interval with S or W: no reference counts (jit.py)
def _sample_bad(t: float, Y: np.ndarray, S, W) -> bool:
    """simulate._check_sample's test on the state alone: not finite, or a constraint violation over 1000."""
    for i in range(Y.shape[0]):
        if not np.isfinite(Y[i]):
            return True
    if S.row_kind.shape[0] == 0:
        return False
    kernels.update_rotations_arrays(S.nb, Y, W.A)
    constraints(t, Y, S, W)
    for i in range(W.phi.shape[0]):
        if not abs(W.phi[i]) <= BLOW_UP_VIOLATION:
            return True
    return False


@njit(cache=True, refcounts=False)  # per output interval: no reference counts (jit.py)
def _save(W, Y, acc, contacts, saved, vecs, k4) -> None:
    """Copy what an interval changes (state, work integrals, rank state, broad phase, touching, the
    force elements' memory vecs[:, 3:5]: contact impact speeds and peaks, unwrapped angles, mesh hints;
    run_fixed's memory of the steps' contact forces, its scratch's fifth row)."""
    copy_into(saved[0], W.keep)
    copy_into(saved[1], W.keep_prev)
    copy_into(saved[2], W.ref)
    copy_into(saved[3], W.ctl)
    copy_into(saved[4], W.y_near)
    copy_into(saved[5], W.ratio)
    copy_into(saved[6], Y)
    copy_into(saved[7], acc)
    _copy_rows(saved[8], contacts[1])
    copy_into(saved[9], contacts[2])
    copy_into(saved[10], contacts[8])
    memory_into(saved[11], vecs)
    if k4.shape[0] > 4:
        copy_into(saved[12], k4[4])


@njit(cache=True, refcounts=False)  # per undone interval: no reference counts (jit.py)
def _restore(W, Y, acc, contacts, saved, vecs, k4) -> None:
    """Undo an interval (:func:`_save`)."""
    copy_into(W.keep, saved[0])
    copy_into(W.keep_prev, saved[1])
    copy_into(W.ref, saved[2])
    copy_into(W.ctl, saved[3])
    copy_into(W.y_near, saved[4])
    copy_into(W.ratio, saved[5])
    copy_into(Y, saved[6])
    copy_into(acc, saved[7])
    _copy_rows(contacts[1], saved[8])
    copy_into(contacts[2], saved[9])
    copy_into(contacts[8], saved[10])
    put_memory(vecs, saved[11])
    if k4.shape[0] > 4:
        copy_into(k4[4], saved[12])


@njit(cache=True, inline="always")
def _copy_rows(to: np.ndarray, source: np.ndarray) -> None:
    """to[:] = source for 2-D arrays of one shape, in loops."""
    for i in range(to.shape[0]):
        for j in range(to.shape[1]):
            to[i, j] = source[i, j]


@njit(cache=True)
def _sampled(vecs, flag, lo: int, hi: int, memory: np.ndarray) -> None:
    """At an output time: the force elements' memory kept for the sample's record (``memory``), then
    the contact points' peak forces restarted (results.contacts.contact_rows restarts them at the
    sample's force, which the next step's first evaluation, at the sample, gives again)."""
    memory[:] = vecs[:, 3:5, :]
    for k in range(lo, hi):
        if flag[k] != BOUND:
            vecs[k, 3, 2] = 0.0


@njit(cache=True, inline="always")
def started(stops, contacts, Y, S, info) -> np.ndarray:
    """At a segment's start: the event values at Y looked at (:func:`_look`), info's status reset;
    returns ``watch`` (contacts[14]: [watched contact points, far time [s]])."""
    watch = contacts[14]
    watch[0], watch[1] = 0.0, np.inf
    if stops[0].shape[0] > 0 or contacts[8].shape[0] > 0:
        _look(stops, contacts, Y, S, watch)
    info[2], info[3] = kernels.OK, 0
    return watch


@njit(cache=True, inline="always")
def opened(rows, steps, n, max_steps, budget, t, Y, acc, S, W, k4, contacts, saved) -> int:
    """Before an interval of n steps from (t [s], Y): why the segment ends instead
    (:func:`_reason_to_end`), or DONE with what the interval changes saved (:func:`_save`) to undo it with."""
    why = _reason_to_end(rows, steps, n, max_steps, budget, t, Y, S, W)
    if why == DONE:
        _save(W, Y, acc, contacts, saved, S.force_vecs, k4)
    return why


@njit(cache=True, inline="always")
def next_chunk(t, t_next, h, stops, contacts, watch) -> tuple[float, int, float]:
    """The chunk from t to the next check (:func:`chunk_end`; t_next with nothing monitored): (its end
    [s], its equal steps and their length [s], integrators.base.equal_steps)."""
    t1 = t_next
    if stops[0].shape[0] > 0 or contacts[8].shape[0] > 0:
        t1 = chunk_end(t, t_next, h, _closing(t, h, stops, contacts, watch))
    n, hh = _equal_steps(t1 - t, h)
    return t1, n, hh


@njit(cache=True, inline="always")
def chunked(status, whole, last, changes, Y, acc, S, W, k4, stops, contacts, saved, watch) -> int:
    """After a chunk of an interval: FAILED if a step failed in the interval's only chunk (``whole``);
    EVENT_NEAR with the interval undone (:func:`_restore`) if a step failed in a chunk of several, or
    if a chunk before the ``last`` changed the rank state (``changes``: W's rank change count at the
    segment's start) or an event value's sign (the slow path reads both between its chunks); else DONE."""
    if status != kernels.OK:
        if whole:
            return FAILED
    elif last:
        return DONE
    elif W.ctl[kernels.CTL_CHANGES] == changes and W.ctl[kernels.CTL_NEAR_T] < 0.0:
        if not _look(stops, contacts, Y, S, watch):
            return DONE
    _restore(W, Y, acc, contacts, saved, S.force_vecs, k4)
    return EVENT_NEAR


@njit(cache=True, inline="always")
def closed(rows, Y, acc, S, W, k4, stops, contacts, saved, watch, out_Y, out_acc, out_memory) -> int:
    """After an interval integrated: EVENT_NEAR with the interval undone (:func:`_restore`) if an
    event function changed sign, else DONE with its sample in row ``rows`` of the outputs."""
    monitored = stops[0].shape[0] > 0 or contacts[8].shape[0] > 0
    if monitored and _look(stops, contacts, Y, S, watch):
        _restore(W, Y, acc, contacts, saved, S.force_vecs, k4)
        return EVENT_NEAR
    copy_into(out_Y[rows], Y)
    copy_into(out_acc[rows], acc)
    _sampled(S.force_vecs, S.force_flag, S.force_start[CONTACT], S.force_start[CONTACT + 1], out_memory[rows])
    return DONE


@njit(cache=True, inline="always")
def _interval(method, t, t_next, h, Y, acc, S, W, scratch, stops, contacts, saved, watch, changes):
    """Integrate Y from t to t_next [s] in the monitor's chunks (:func:`next_chunk`, run_fixed);
    returns (why, steps taken, status, steps of the failed chunk) (:func:`chunked`)."""
    k4, tmp, q, w = scratch
    t_c, taken = t, 0
    while True:
        t1, n, hh = next_chunk(t_c, t_next, h, stops, contacts, watch)
        done, status = run_fixed(method, t_c, Y, hh, n, S, W, acc, k4, tmp, q, w)
        taken += done
        why = chunked(status, t_c == t and t1 == t_next, t1 == t_next, changes, Y, acc, S, W, k4, stops,
                      contacts, saved, watch)  # fmt: skip
        if why != DONE or t1 == t_next:
            return why, taken, status, done
        t_c = t1


@njit(cache=True, refcounts=False)  # its inlined helpers take S, W and the guards' tuples: no reference counts
def run_samples(
    method: int, t: float, Y: np.ndarray, times: np.ndarray, h: float, max_steps: int, budget: int, S, W,
    acc: np.ndarray, scratch, stops, contacts, saved, out_Y: np.ndarray, out_acc: np.ndarray, out_memory: np.ndarray,
    info: np.ndarray,
) -> int:  # fmt: skip
    """Integrate Y (in place, from t [s]) to the output times ``times`` [s] in turn with run_fixed's
    ``method`` and base step h [s]; row k of out_Y and out_acc gets the state and the work integrals
    at times[k], out_memory[k] the force elements' memory (S.force_vecs[:, 3:5]) then, for its record.
    Returns the rows done. An interval of more than ``max_steps`` steps is left to the slow path
    (simulate._Pace would split it); a call takes about ``budget`` steps at most. ``info``: [why the
    segment ended (DONE ...), steps taken, status, steps of a failed interval]. ``stops``: the stop
    sides (events._packed's arrays, then their gaps, rates and last event values); ``contacts``:
    (first element, broad-phase world and order, margin, pinned, gaps, rates, watched, touching,
    rotations, touched_at, the last event values by element, two scratch arrays of that length,
    ``watch``; empty without contact points);
    ``saved``: arrays of the same shapes to undo an interval with."""
    k4 = scratch[0]
    changes = W.ctl[kernels.CTL_CHANGES]
    watch = started(stops, contacts, Y, S, info)
    steps, rows, why = 0, 0, DONE
    while rows < times.shape[0]:
        t_next = times[rows]
        why = opened(rows, steps, _equal_steps(t_next - t, h)[0], max_steps, budget, t, Y, acc, S, W, k4, contacts,
                     saved)  # fmt: skip
        if why != DONE:
            break
        why, taken, status, done = _interval(method, t, t_next, h, Y, acc, S, W, scratch, stops, contacts, saved,
                                             watch, changes)  # fmt: skip
        if why == FAILED:
            info[2], info[3] = status, done
            steps += done
            break
        if why == DONE:
            why = closed(rows, Y, acc, S, W, k4, stops, contacts, saved, watch, out_Y, out_acc, out_memory)
        if why != DONE:
            break
        rows, steps, t = rows + 1, steps + taken, t_next
        if W.ctl[kernels.CTL_CHANGES] != changes or W.ctl[kernels.CTL_NEAR_T] >= 0.0:
            why = RANK
            break
    info[0], info[1] = why, steps
    return rows


# the guards integrators/friction_samples.py shares (public names; the private ones stay for this module)
equal_steps_compiled, crossed, reason_to_end = _equal_steps, _crossed, _reason_to_end
