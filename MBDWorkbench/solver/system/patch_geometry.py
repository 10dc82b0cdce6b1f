"""The geometry of a stiction patch whose normal turns with its shapes (docs/contact.md, "True
stiction"): a single contact point of two spheres or of a sphere and a cylinder's side, read by
system/contact_friction.py. Its channels are the slip velocity at the contact point x along two
tangents t1 = unit(h x n), t2 = n x t1 of the current normal n, h a direction fixed in a body
(the cylinder's axis, in the cylinder's body; for two spheres the global axis, or if both move the
axis of side j's frame, farthest from the initial normal: the frame is defined while n stays off h,
a SimulationError naming the pair when n comes within ALIGNED of it).

The rows: rate_c = t . v_rel(x), v_rel(x) = v_i + w_i x (x - c_i) - v_j - w_j x (x - c_j), on the
bodies' [v global, w body-frame]; gamma_c = -d(rate_c)/dt at zero acceleration,
-(t' . v_rel + t . (w_i x (x' - v_i) - w_j x (x' - v_j))), with x' and n' (hence t') the exact rates
of the point and the normal as the shapes move (numerics/contact_patch.point_motion): a ball rolling
on a ball or a pin keeps its slip at zero.
"""

from __future__ import annotations

import numpy as np

from ..errors import SimulationError
from ..numerics.contact_forces import POINT_CYLINDER, POINT_SIDE, SPHERE_SPHERE
from ..numerics.contact_patch import point_motion

MOVING_KINDS = (SPHERE_SPHERE, POINT_CYLINDER, POINT_SIDE)  # single-point pairs whose normal turns
ALIGNED = 1e-3  # |h x n| below this: the tangents are not defined (n within 0.06 deg of h)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def helper_axis(system, k: int) -> tuple[int, np.ndarray]:
    """(the body, -1 the ground, and the direction h in its frame) of contact element k's
    tangents (module docstring)."""
    S = system.static
    bi, bj = int(S.force_bi[k]), int(S.force_bj[k])
    if int(S.force_flag[k]) in (POINT_CYLINDER, POINT_SIDE):
        return bj, _unit(np.array(S.force_vecs[k, 2], float))
    motion = np.zeros((4, 3))
    point_motion(system.Y0, system.nb, system.A0, S.force_bi, S.force_bj, S.force_vecs, S.force_par,
                 S.force_flag, k, motion)  # fmt: skip
    b = bi if bi < 0 else bj  # the ground if it is a side: a rolling ball's frame would turn h
    n_local = system.A0[b].T @ motion[1] if b >= 0 else motion[1]
    return b, np.eye(3)[int(np.argmin(np.abs(n_local)))]


def _velocity(Y: np.ndarray, A: np.ndarray, nb: int, b: int, x: np.ndarray) -> tuple:
    """(x - centre [m], centre velocity [m/s], global angular velocity [rad/s]) of body b (ground: zeros)."""
    if b < 0:
        return x.copy(), np.zeros(3), np.zeros(3)
    o = 7 * nb + 6 * b
    return x - Y[7 * b : 7 * b + 3], Y[o : o + 3].copy(), A[b] @ Y[o + 3 : o + 6]


def moving_rows(system, patch, Y, A, G, gam, rate) -> tuple[np.ndarray, np.ndarray]:
    """Fill the rows of single-point patch ``patch`` (its channels' G, gamma, rate) at state Y;
    returns (its contact point x [m], its frame (3, 3): rows t1, t2, n, global)."""
    S, nb = system.static, system.nb
    k = int(patch.elements[0])
    motion = np.zeros((4, 3))
    point_motion(Y, nb, A, S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_flag, k, motion)
    x, n, x_rate, n_rate = motion
    bi, bj = patch.bi, patch.bj
    hb, h = patch.helper
    h = A[hb] @ h if hb >= 0 else h
    (ri, vi, wi), (rj, vj, wj) = _velocity(Y, A, nb, bi, x), _velocity(Y, A, nb, bj, x)
    h_rate = np.cross(_velocity(Y, A, nb, hb, x)[2], h)
    c, c_rate = np.cross(h, n), np.cross(h_rate, n) + np.cross(h, n_rate)
    if np.linalg.norm(c) < ALIGNED:
        raise SimulationError(
            f"contact '{patch.name}': its normal has turned onto the axis its stiction tangents are taken "
            "from (a ball rolled about 55 deg or more round the other): use friction_law 'regularised'"
        )
    t1 = c / np.linalg.norm(c)
    t1_rate = (c_rate - t1 * (t1 @ c_rate)) / np.linalg.norm(c)
    t2, t2_rate = np.cross(n, t1), np.cross(n_rate, t1) + np.cross(n, t1_rate)
    v_rel = vi + np.cross(wi, ri) - vj - np.cross(wj, rj)
    turn = np.cross(wi, x_rate - vi) - np.cross(wj, x_rate - vj)
    for channel, t, t_rate in zip(patch.channels[:2], (t1, t2), (t1_rate, t2_rate)):
        rate[channel] = t @ v_rel
        gam[channel] = -(t_rate @ v_rel + t @ turn)
        for b, r, sign in ((bi, ri, 1.0), (bj, rj, -1.0)):
            if b >= 0:
                G[channel, 6 * b : 6 * b + 3] += sign * t
                G[channel, 6 * b + 3 : 6 * b + 6] += sign * (A[b].T @ np.cross(r, t))
    return x, np.array([t1, t2, n])
