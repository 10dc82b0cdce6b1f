"""The normal loads of a contact pair's points, read by the true stiction of contact friction
(system/contact_friction.py, docs/contact.md "Friction"): the same law as the force element
(:func:`.contact_forces.contact_loads`), so the friction's load is the normal force applied."""

import numpy as np

from .contact_forces import contact_loads
from .jit import njit
from .joints import body_side


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
    Fn [N] (0 while apart)."""
    for m in range(elements.shape[0]):
        k = elements[m]
        p = (par[k, 0], par[k, 1], par[k, 2], par[k, 3], par[k, 4], par[k, 5], par[k, 6], par[k, 7])
        side_i, side_j = body_side(Y, nb, bi[k]), body_side(Y, nb, bj[k])
        d, _, x, Fn, _, _, _, _ = contact_loads(A, side_i, side_j, vecs, k, flag[k], p)
        depth[m] = d
        points[m, 0], points[m, 1], points[m, 2] = x[0], x[1], x[2]
        normal_force[m] = Fn
