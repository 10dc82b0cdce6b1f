"""Many output samples per compiled call of rk4_tree (issue 33 item 7): :func:`run_tree_samples`
is :func:`.sample_run.run_samples` with :func:`.tree_kernel.run_tree` for the interval (the same
guard, chunks, undo and sample rows: sample_run's helpers), the tree's own joint coordinates and rates
undone with the body state when an event function changed sign in the interval. The drive
offsets do not change within a segment (only a restart sets them)."""

from __future__ import annotations

import numpy as np

from .. import kernels
from ..numerics.jit import njit
from ..numerics.loop_copies import copy_into
from .sample_run import DONE, FAILED, chunked, closed, equal_steps_compiled, next_chunk, opened, started
from .tree_kernel import run_tree


@njit(cache=True, inline="always")
def _interval(t, t_next, h, q, qd, T, TW, Y, S, W, acc, k4, stops, contacts, saved, watch):
    """run_tree from t to t_next [s] in the monitor's chunks (sample_run.next_chunk); returns (why,
    steps taken, status, steps of the failed chunk) (sample_run.chunked)."""
    t_c, taken, changes = t, 0, W.ctl[kernels.CTL_CHANGES]
    while True:
        t1, n, hh = next_chunk(t_c, t_next, h, stops, contacts, watch)
        done, status = run_tree(t_c, q, qd, hh, n, T, TW, S, acc, Y)
        taken += done
        why = chunked(status, t_c == t and t1 == t_next, t1 == t_next, changes, Y, acc, S, W, k4, stops,
                      contacts, saved, watch)  # fmt: skip
        if why != DONE or t1 == t_next:
            return why, taken, status, done
        t_c = t1


@njit(cache=True, refcounts=False)  # its inlined helpers take S, W and the guards' tuples: no reference counts
def run_tree_samples(
    t: float, q: np.ndarray, qd: np.ndarray, T, TW, Y: np.ndarray, times: np.ndarray, h: float, max_steps: int,
    budget: int, S, W, acc: np.ndarray, stops, contacts, saved, saved_q: np.ndarray, k4: np.ndarray, out_Y: np.ndarray,
    out_acc: np.ndarray, out_memory: np.ndarray, info: np.ndarray,
) -> int:  # fmt: skip
    """Integrate the tree's joint coordinates q [rad or m] and rates qd (in place, from t [s]) to
    the output times ``times`` [s] in turn with base step h [s] (run_tree, which writes the body
    state Y at each interval's end); the outputs, ``info``, ``stops``, ``contacts`` and ``saved`` as
    :func:`.sample_run.run_samples`'s; ``saved_q`` (2, nb): q and qd to undo an interval with; ``k4``:
    an empty (0, 1) array (run_fixed's scratch in run_samples: none here). Returns the rows done."""
    watch = started(stops, contacts, Y, S, info)
    steps, rows, why = 0, 0, DONE
    while rows < times.shape[0]:
        t_next = times[rows]
        why = opened(rows, steps, equal_steps_compiled(t_next - t, h)[0], max_steps, budget, t, Y, acc, S, W, k4,
                     contacts, saved)  # fmt: skip
        if why != DONE:
            break
        copy_into(saved_q[0], q)
        copy_into(saved_q[1], qd)
        why, taken, status, done = _interval(t, t_next, h, q, qd, T, TW, Y, S, W, acc, k4, stops, contacts, saved,
                                             watch)  # fmt: skip
        if why == FAILED:
            info[2], info[3] = status, done
            steps += done
            break
        if why == DONE:
            why = closed(rows, Y, acc, S, W, k4, stops, contacts, saved, watch, out_Y, out_acc, out_memory)
        if why != DONE:
            copy_into(q, saved_q[0])
            copy_into(qd, saved_q[1])
            break
        rows, steps, t = rows + 1, steps + taken, t_next
    info[0], info[1] = why, steps
    return rows
