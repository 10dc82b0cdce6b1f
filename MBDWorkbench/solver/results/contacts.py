"""The contact pairs' forces at an output sample (contacts.csv, docs/results-format.md): per pair,
the force on body_a (global) [N], its normal and tangential parts [N], the penetration [m], the
contact point [m] and the slip speed [m/s], summed or taken over the pair's contact points; and
the peak normal force [N] since the previous sample (each point's largest evaluated during the
steps, summed: exact for one point, an upper bound for several), so that an impact shorter than
the output step still shows its peak.
"""

from __future__ import annotations

import numpy as np

from ..kernels import fast_call
from ..model.contacts import ordered
from ..numerics.contact_forces import BOUND, contact_geometry, contact_loads, patch_scale
from ..numerics.forces import CONTACT
from ..numerics.jit import njit
from ..numerics.joints import body_side
from ..numerics.vec3 import Vec3, dot

# columns per pair: (quantity, unit)
CONTACT_COLUMNS = (
    ("Fx", "N"),
    ("Fy", "N"),
    ("Fz", "N"),
    ("normal_force", "N"),
    ("tangential_force", "N"),
    ("penetration", "m"),
    ("px", "m"),
    ("py", "m"),
    ("pz", "m"),
    ("slip_speed", "m/s"),
    ("peak_normal_force", "N"),
)


def contact_headers(pair: str) -> list[str]:
    """Headers of a pair's columns in contacts.csv, e.g. ``floor.normal_force [N]``."""
    return [f"{pair}.{q} [{unit}]" for q, unit in CONTACT_COLUMNS]


def contact_sample(system, Y: np.ndarray, layout: tuple | None = None) -> np.ndarray:
    """(pairs, 11) values of CONTACT_COLUMNS at the state Y, whose rotation matrices are in
    system.work.A (system.evaluate(t, Y) just ran), in one compiled call (:func:`contact_rows`).
    A disabled pair: zeros. Reads and restarts the peaks the kernel keeps (numerics.contact_forces).
    ``layout``: :func:`contact_layout` of the system (made here without)."""
    pair_of, sign = contact_layout(system) if layout is None else layout
    out = np.zeros((len(sign), len(CONTACT_COLUMNS)))
    if len(pair_of):
        S = system.static
        Y = np.ascontiguousarray(Y, dtype=float)
        first = int(S.force_start[CONTACT])
        args = (Y, S.nb, system.work.A, S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_flag, first)
        fast_call(contact_rows, *args, pair_of, sign, out)
    return out


def evaluated_peaks(system) -> np.ndarray:
    """The largest normal force [N] of each contact element evaluated since the last sample, as the
    kernel keeps it (numerics.contact_forces): a view, which an integrator restores after
    evaluations that are no state of the solution (rejected steps, Newton iterates, Jacobians)."""
    S = system.static
    return S.force_vecs[S.force_start[CONTACT] : S.force_start[CONTACT + 1], 3, 2]


def contact_layout(system) -> tuple[np.ndarray, np.ndarray]:
    """(the pair index of each contact element, the sign of each pair's force: +1 where its body_a
    is side i of its elements, else -1)."""
    pairs = getattr(system.model, "contacts", [])
    pair_of = np.array(getattr(system, "contact_pair", []), dtype=np.int64)
    sign = np.array([1.0 if ordered(c)[0] == c.body_a else -1.0 for c in pairs], dtype=float)
    return pair_of, sign


@njit(cache=True)
def contact_rows(
    Y: np.ndarray,
    nb: int,
    A: np.ndarray,
    bi: np.ndarray,
    bj: np.ndarray,
    vecs: np.ndarray,
    par: np.ndarray,
    flag: np.ndarray,
    first: int,
    pair_of: np.ndarray,
    sign: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill out[pair] (zeros on entry) with CONTACT_COLUMNS from the contact elements first ..
    first + len(pair_of) - 1 at state Y: per pair, its points' forces summed, the deepest
    penetration, the force-weighted contact point (the deepest point's without force), the
    largest slip speed of the points in contact, and the peaks since the last sample (restarted).
    A mesh pair's BOUND element apart stands for its points (its gap and witness point, no force);
    touching, its points' K is scaled by :func:`patch_scale`."""
    npairs = out.shape[0]
    Fn_x = np.zeros((npairs, 3))  # sum of Fn x per pair
    Ft_sum = np.zeros((npairs, 3))
    deepest = np.full(npairs, -np.inf)  # [m] the largest penetration (the first point with it)
    slip_max = np.zeros(npairs)
    scale_k, scaled = 1.0, 0
    e = 0
    while e < pair_of.shape[0]:
        ck, k = pair_of[e], first + e
        side_i, side_j = body_side(Y, nb, bi[k]), body_side(Y, nb, bj[k])
        p = (par[k, 0], par[k, 1], par[k, 2], par[k, 3], par[k, 4], par[k, 5], par[k, 6], par[k, 7])
        if flag[k] == BOUND:
            d, nrm, x = contact_geometry(A, side_i, side_j, vecs, k, int(p[1]), p)
            if d > 0.0:  # touching: its points share the pair's law (numerics.contact_forces)
                scale_k, scaled = patch_scale(A, side_i, side_j, vecs, par, k), int(p[0])
            else:  # apart: one row for its points, the bounding sphere's gap and witness point
                count, peaks = int(p[0]), 0.0
                for s in range(k + 1, k + 1 + count):
                    peaks += vecs[s, 3, 2]
                    vecs[s, 3, 2] = 0.0
                out[ck, 10] += peaks
                _add_point(out, Fn_x, Ft_sum, deepest, slip_max, ck, d, nrm, x, 0.0, (0.0, 0.0, 0.0), 0.0)
                e += count
            e += 1
            continue
        if scaled > 0:
            p, scaled = (p[0] * scale_k, p[1], p[2], p[3], p[4], p[5], p[6], p[7]), scaled - 1
        d, nrm, x, Fn, Ft, slip, _, _ = contact_loads(A, side_i, side_j, vecs, k, flag[k], p)
        _add_point(out, Fn_x, Ft_sum, deepest, slip_max, ck, d, nrm, x, Fn, Ft, np.sqrt(dot(slip, slip)))
        out[ck, 10] += max(vecs[k, 3, 2], Fn)
        vecs[k, 3, 2] = Fn
        e += 1
    for ck in range(npairs):
        if deepest[ck] == -np.inf:
            continue  # no points (a disabled pair)
        for c in range(3):
            out[ck, c] *= sign[ck]
            if out[ck, 3] > 0.0:
                out[ck, 6 + c] = Fn_x[ck, c] / out[ck, 3]
        out[ck, 4] = np.sqrt(dot(_row(Ft_sum, ck), _row(Ft_sum, ck)))
        out[ck, 5] = max(deepest[ck], 0.0)
        out[ck, 9] = slip_max[ck]


@njit(cache=True)
def _row(a: np.ndarray, i: int) -> Vec3:
    return (a[i, 0], a[i, 1], a[i, 2])


@njit(cache=True)
def _add_point(out, Fn_x, Ft_sum, deepest, slip_max, ck, d, nrm, x, Fn, Ft, slip_speed) -> None:
    """Add one point's (penetration d [m], normal, point [m], Fn [N], Ft [N], slip speed [m/s]) to
    its pair's sums; the pair's contact point is the deepest point's (out[ck, 6:9]) until the pair
    has a normal force (then the force-weighted mean, made at the end)."""
    for c in range(3):
        out[ck, c] += Fn * nrm[c] + Ft[c]
        Fn_x[ck, c] += Fn * x[c]
        Ft_sum[ck, c] += Ft[c]
    out[ck, 3] += Fn
    if d > deepest[ck]:
        deepest[ck] = d
        for c in range(3):
            out[ck, 6 + c] = x[c]
    if d > 0.0 and slip_speed > slip_max[ck]:
        slip_max[ck] = slip_speed
