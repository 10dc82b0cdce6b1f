"""Many output samples per compiled call of rk4_tree (issue 33 item 7): :func:`run_tree_samples`
is :func:`.sample_run.run_samples` with :func:`.tree_kernel.run_tree` for the interval (the same
guard, undo and sample rows: sample_run's helpers), the tree's own joint coordinates and rates
undone with the body state when an event function changed sign in the interval. The drive
offsets do not change within a segment (only a restart sets them)."""

from __future__ import annotations

import numpy as np

from .. import kernels
from ..numerics.jit import njit
from .sample_run import DONE, FAILED, closed, equal_steps_compiled, opened, started
from .tree_kernel import run_tree


@njit(cache=True)
def run_tree_samples(
    t: float, q: np.ndarray, qd: np.ndarray, T, TW, Y: np.ndarray, times: np.ndarray, h: float, max_steps: int,
    budget: int, S, W, acc: np.ndarray, stops, contacts, saved, saved_q: np.ndarray, out_Y: np.ndarray,
    out_acc: np.ndarray, out_memory: np.ndarray, info: np.ndarray,
) -> int:  # fmt: skip
    """Integrate the tree's joint coordinates q [rad or m] and rates qd (in place, from t [s]) to
    the output times ``times`` [s] in turn with base step h [s] (run_tree, which writes the body
    state Y at each interval's end); the outputs, ``info``, ``stops``, ``contacts`` and ``saved`` as
    :func:`.sample_run.run_samples`'s; ``saved_q`` (2, nb): q and qd to undo an interval with.
    Returns the rows done."""
    k4 = np.zeros((0, 1))  # run_fixed's scratch: none here
    watch = started(stops, contacts, Y, S, info)
    steps, rows, why = 0, 0, DONE
    while rows < times.shape[0]:
        t_next = times[rows]
        n, hh = equal_steps_compiled(t_next - t, h)
        why = opened(rows, steps, n, max_steps, budget, t, t_next, h, Y, acc, S, W, k4, stops, contacts, saved, watch)
        if why != DONE:
            break
        saved_q[0], saved_q[1] = q, qd
        done, status = run_tree(t, q, qd, hh, n, T, TW, S, acc, Y)
        if status != kernels.OK:
            info[2], info[3], why = status, done, FAILED
            steps += done
            break
        why = closed(rows, Y, acc, S, W, k4, stops, contacts, saved, watch, out_Y, out_acc, out_memory)
        if why != DONE:
            q[:], qd[:] = saved_q[0], saved_q[1]
            break
        rows, steps, t = rows + 1, steps + n, t_next
    info[0], info[1] = why, steps
    return rows
