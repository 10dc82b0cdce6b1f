"""The joint coordinates of an open tree read from the bodies' state, compiled: what rk4_tree
(:mod:`.tree`) does at each start and restart (every event of the stop monitor: each trial of
its search and the restart after it), :func:`.tree.joint_state`'s arithmetic per body without
NumPy's per-call costs on 3-vectors."""

from __future__ import annotations

import numpy as np

from ..kernels import update_rotations_arrays
from ..numerics.jit import njit
from .tree_kernel import PRISMATIC, REVOLUTE


@njit(cache=True, inline="always")
def _turn(A, b, u, out) -> None:
    """out = A[b] u (A[b] = identity for b < 0)."""
    for i in range(3):
        out[i] = A[b, i, 0] * u[0] + A[b, i, 1] * u[1] + A[b, i, 2] * u[2] if b >= 0 else u[i]


@njit(cache=True, inline="always")
def _cross_dot(z, a, c) -> float:
    """z . (a x c)."""
    return z[0] * (a[1] * c[2] - a[2] * c[1]) + z[1] * (a[2] * c[0] - a[0] * c[2]) + z[2] * (a[0] * c[1] - a[1] * c[0])


@njit(cache=True)
def joint_state_into(Y, parent, kind, Fp, op, GT, oc, A, q, qd) -> None:
    """q [rad or m] and qd of every joint from the body state Y (as :func:`.tree.joint_state`:
    the angle of the relative rotation about the joint axis z, the displacement along it and their
    rates); A (nb, 3, 3): scratch for the bodies' rotations."""
    nb = parent.shape[0]
    update_rotations_arrays(nb, Y, A)
    x, xp, w, wp, v, vp = np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3)
    z, col, tmp = np.empty(3), np.empty(3), np.empty(3)
    for b in range(nb):
        p = parent[b]
        x[:], v[:] = Y[7 * b : 7 * b + 3], Y[7 * nb + 6 * b : 7 * nb + 6 * b + 3]
        _turn(A, b, Y[7 * nb + 6 * b + 3 : 7 * nb + 6 * b + 6], w)
        xp[:], vp[:], wp[:] = 0.0, 0.0, 0.0
        if p >= 0:
            xp[:], vp[:] = Y[7 * p : 7 * p + 3], Y[7 * nb + 6 * p : 7 * nb + 6 * p + 3]
            _turn(A, p, Y[7 * nb + 6 * p + 3 : 7 * nb + 6 * p + 6], wp)
        _turn(A, p, Fp[b, :, 2], z)  # the joint axis (global)
        q[b], qd[b] = 0.0, 0.0
        if kind[b] == REVOLUTE:
            cos, sin = 0.0, 0.0  # M = B' A G: M[0, 0], M[1, 0] with B = Ap Fp, G = GT'
            _turn(A, b, GT[b, 0], col)  # A G's first column
            _turn(A, p, Fp[b, :, 0], tmp)
            cos = tmp[0] * col[0] + tmp[1] * col[1] + tmp[2] * col[2]
            _turn(A, p, Fp[b, :, 1], tmp)
            sin = tmp[0] * col[0] + tmp[1] * col[1] + tmp[2] * col[2]
            q[b] = np.arctan2(sin, cos)
            qd[b] = z[0] * (w[0] - wp[0]) + z[1] * (w[1] - wp[1]) + z[2] * (w[2] - wp[2])
        elif kind[b] == PRISMATIC:
            _turn(A, b, oc[b], col)  # the arm
            _turn(A, p, op[b], tmp)
            s, r = 0.0, 0.0
            for i in range(3):
                s += z[i] * (x[i] + col[i] - xp[i] - tmp[i])
                r += z[i] * (v[i] - vp[i])
                tmp[i] = x[i] + col[i] - xp[i]  # Pc - xp
            q[b], qd[b] = s, r + _cross_dot(z, w, col) - _cross_dot(z, wp, tmp)
