"""The normal loads of a contact pair's points, read by the true stiction of contact friction
(system/contact_friction.py, docs/contact.md "Friction"): the same law as the force element
(:func:`.contact_forces.contact_loads`; a mesh's points scaled by :func:`.contact_forces.patch_scale`
as the force loop does), so the friction's load is the normal force applied; and the motion of a
single contact point and its normal (:func:`point_motion`), for the pairs whose normal turns with
their shapes (two spheres, a sphere and a cylinder)."""

import numpy as np

from .contact_forces import BOUND, contact_geometry, contact_loads, patch_scale
from .jit import njit
from .joints import body_side

STEP = 1e-30  # the complex step of point_motion (exact first derivatives, no cancellation)


@njit(cache=True)
def point_loads(
    Y: np.ndarray,
    nb: int,
    A: np.ndarray,
    bi: np.ndarray,
    bj: np.ndarray,
    vecs: np.ndarray,
    par: np.ndarray,
    flag: np.ndarray,
    elements: np.ndarray,
    depth: np.ndarray,
    points: np.ndarray,
    normal_force: np.ndarray,
) -> None:
    """Fill, for each contact element of ``elements`` at state Y (A: its bodies' rotation
    matrices), its penetration depth [m], contact point (global, (n, 3)) [m] and normal force
    Fn [N] (0 while apart). A BOUND element (a mesh pair's bounding sphere) gets no force and
    depth -inf; its points' stiffness is scaled by the pair's patch_scale while it touches."""
    scale = 1.0
    for m in range(elements.shape[0]):
        k = elements[m]
        p = (par[k, 0], par[k, 1], par[k, 2], par[k, 3], par[k, 4], par[k, 5], par[k, 6], par[k, 7])
        side_i, side_j = body_side(Y, nb, bi[k]), body_side(Y, nb, bj[k])
        if flag[k] == BOUND:
            d, _, x = contact_geometry(A, side_i, side_j, vecs, k, int(p[1]), p)
            scale = patch_scale(A, side_i, side_j, vecs, par, k) if d > 0.0 else 1.0
            depth[m], normal_force[m] = -np.inf, 0.0
            points[m, 0], points[m, 1], points[m, 2] = x[0], x[1], x[2]
            continue
        p = (p[0] * scale, p[1], p[2], p[3], p[4], p[5], p[6], p[7])
        d, _, x, Fn, _, _, _, _ = contact_loads(A, side_i, side_j, vecs, k, flag[k], p)
        depth[m] = d
        points[m, 0], points[m, 1], points[m, 2] = x[0], x[1], x[2]
        normal_force[m] = Fn


@njit(cache=True)
def _moving_side(Y: np.ndarray, nb: int, A: np.ndarray, Ac: np.ndarray, b: int, h: float) -> tuple:
    """Body b's side with its position stepped by i h v and Ac[b] = A[b] (I + i h [w]x) (w in
    the body frame): the pose a complex step h along the motion."""
    if b < 0:
        zero = (0.0j, 0.0j, 0.0j)
        return b, zero, zero, zero
    o = 7 * nb + 6 * b
    v, w = Y[o : o + 3], Y[o + 3 : o + 6]
    for r in range(3):
        a = A[b, r]
        Ac[b, r, 0] = a[0] + 1j * h * (a[1] * w[2] - a[2] * w[1])
        Ac[b, r, 1] = a[1] + 1j * h * (a[2] * w[0] - a[0] * w[2])
        Ac[b, r, 2] = a[2] + 1j * h * (a[0] * w[1] - a[1] * w[0])
    r = (Y[7 * b] + 1j * h * v[0], Y[7 * b + 1] + 1j * h * v[1], Y[7 * b + 2] + 1j * h * v[2])
    zero = (0.0j, 0.0j, 0.0j)
    return b, r, zero, zero


@njit(cache=True)
def point_motion(
    Y: np.ndarray, nb: int, A: np.ndarray, bi: np.ndarray, bj: np.ndarray, vecs: np.ndarray, par: np.ndarray,
    flag: np.ndarray, k: int, out: np.ndarray,
) -> float:  # fmt: skip
    """Contact element k at state Y: out[0] its contact point x [m], out[1] its unit normal n
    (global, from side j to side i), out[2] and out[3] their rates [m/s, 1/s] as the bodies move at
    Y's velocities (a complex step of contact_geometry); returns its penetration d [m]."""
    Ac = A.astype(np.complex128)
    side_i = _moving_side(Y, nb, A, Ac, bi[k], STEP)
    side_j = _moving_side(Y, nb, A, Ac, bj[k], STEP)
    p = (par[k, 0], par[k, 1], par[k, 2], par[k, 3], par[k, 4], par[k, 5], par[k, 6], par[k, 7])
    d, nrm, x = contact_geometry(Ac, side_i, side_j, vecs, k, flag[k], p)
    for c in range(3):
        out[0, c], out[1, c] = x[c].real, nrm[c].real
        out[2, c], out[3, c] = x[c].imag / STEP, nrm[c].imag / STEP
    return d.real
