"""The gaps of the rigid stops (solver/events.py): every stop side's gap and its rate in one
compiled call, evaluating only the stopped joints' coordinate rows (not the whole system).

A stop side k is the coordinate row (kind[k], bodies bi[k] and bj[k], local vectors vecs[k]) of
its joint with the limit limit[k] and sign[k] (+1 for a minimum, -1 for a maximum):
gap = sign (q - limit) [rad or m], positive while the stop is open, and its rate
sign dq/dt [rad/s or m/s]."""

from __future__ import annotations

import numpy as np

from .jit import njit
from .joints import eval_row
from .quaternion import quat_to_matrix


@njit(cache=True)
def stop_gaps(
    kind: np.ndarray,
    bi: np.ndarray,
    bj: np.ndarray,
    vecs: np.ndarray,
    sign: np.ndarray,
    limit: np.ndarray,
    Y: np.ndarray,
    nb: int,
    A: np.ndarray,
    jac: np.ndarray,
    gaps: np.ndarray,
    rates: np.ndarray,
) -> None:
    """Fill gaps[k] [rad or m] and rates[k] [rad/s or m/s] of every stop side k at the state Y
    (nb moving bodies); A (nb, 3, 3) and jac (k, 2, 6) are scratch."""
    for k in range(kind.shape[0]):
        for b in (bi[k], bj[k]):
            if b >= 0:
                quat_to_matrix(Y[7 * b + 3 : 7 * b + 7], A[b])
        q, _, rate = eval_row(k, kind[k], bi[k], bj[k], vecs, Y, nb, A, jac)
        gaps[k] = sign[k] * (q - limit[k])
        rates[k] = sign[k] * rate
