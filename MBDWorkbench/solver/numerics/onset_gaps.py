"""The contact onset events' gaps at one state (solver/contact_events.py), in one compiled call.

The gaps [m] and rates [m/s] of the contact elements the broad phase finds near (numerics.broad_phase:
the pairs of proxies whose spheres, each grown by ``margin`` times its radius, overlap; the pairs
without proxies always), plus ``pinned`` ranges; the other elements get gap +inf, rate 0. A pair of
proxies left out is apart by more than margin (r_u + r_v) >= 2 margin r_min, and that distance
shrinks at most at twice the largest speed of a proxy's centre v_max: none of those pairs can
touch within margin r_min / v_max [s] (the *far time* returned), so an onset seen by the
watched elements at the checks is never missed.
"""

import numpy as np

from .broad_phase import candidate_pairs, element_ranges, proxy_centres
from .contact_forces import BOUND, gap_and_rate
from .jit import njit
from .joints import body_side
from .quaternion import rows_to_matrices


@njit(cache=True)
def _evaluate(Y, nb, A, bi, bj, vecs, par, flag, first, lo, hi, gaps, rates, watched, count):
    """Gaps and rates of the elements lo .. hi - 1 not yet evaluated (a BOUND element apart gives
    its own to its points, as numerics.contact_forces.contact_gaps); the event elements (not BOUND)
    appended to ``watched`` (relative indices) from ``count``; returns the new count."""
    k = lo
    while k < hi:
        e = k - first
        if gaps[e] != np.inf:
            k += 1
            continue
        p = (par[k, 0], par[k, 1], par[k, 2], par[k, 3], par[k, 4], par[k, 5], par[k, 6], par[k, 7])
        gaps[e], rates[e] = gap_and_rate(A, body_side(Y, nb, bi[k]), body_side(Y, nb, bj[k]), vecs, k, flag[k], p)
        if flag[k] == BOUND and gaps[e] >= 0.0:
            for s in range(e + 1, e + 1 + int(p[0])):
                gaps[s], rates[s] = gaps[e], rates[e]
                watched[count] = s
                count += 1
            k += int(p[0])
        elif flag[k] != BOUND:
            watched[count] = e
            count += 1
        k += 1
    return count


@njit(cache=True)
def _far_time(nb: int, Y: np.ndarray, body: np.ndarray, centre: np.ndarray, radius: np.ndarray, margin: float):
    """margin r_min / v_max [s] (module docstring): v_max bounds the speed of every proxy's centre by
    |v| + |w| |c| of its body (inf: none moves)."""
    v_max, r_min = 0.0, np.inf
    for p in range(body.shape[0]):
        r_min = min(r_min, radius[p])
        b = body[p]
        if b < 0:
            continue
        o = 7 * nb + 6 * b
        v = np.sqrt(Y[o] ** 2 + Y[o + 1] ** 2 + Y[o + 2] ** 2)
        w = np.sqrt(Y[o + 3] ** 2 + Y[o + 4] ** 2 + Y[o + 5] ** 2)
        v_max = max(v_max, v + w * np.sqrt(centre[p, 0] ** 2 + centre[p, 1] ** 2 + centre[p, 2] ** 2))
    return margin * r_min / v_max if v_max > 0.0 else np.inf


@njit(cache=True)
def onset_gaps(Y, nb, A, bi, bj, vecs, par, flag, first, bp_body, bp_centre, bp_radius, bp_key, bp_first, bp_end,
               bp_always, world, order, margin, pinned, gaps, rates, watched):  # fmt: skip
    """Fill gaps [m] and rates [m/s] (+inf and 0 on entry) of the watched contact elements first ..
    first + len(gaps) - 1 at state Y (rotations written to A) and their relative indices in
    ``watched``; returns (their count, the far time [s]). Without proxies (bp_key empty) every
    element is watched (far time inf). ``world``, ``order``: the broad phase's state, the caller's own."""
    if nb:
        rows_to_matrices(Y[: 7 * nb].reshape(nb, 7)[:, 3:], A)
    count, far = 0, np.inf
    if bp_key.shape[0] == 0:
        count = _evaluate(Y, nb, A, bi, bj, vecs, par, flag, first, first, first + gaps.shape[0], gaps, rates,
                          watched, count)  # fmt: skip
    else:
        proxy_centres(nb, Y, A, bp_body, bp_centre, world)
        ranges = element_ranges(candidate_pairs(world, bp_radius, order, bp_key, margin), bp_first, bp_end, bp_always)
        for r in range(ranges.shape[0]):
            count = _evaluate(Y, nb, A, bi, bj, vecs, par, flag, first, ranges[r, 0], ranges[r, 1], gaps, rates,
                              watched, count)  # fmt: skip
        far = _far_time(nb, Y, bp_body, bp_centre, bp_radius, margin)
    for r in range(pinned.shape[0]):
        count = _evaluate(Y, nb, A, bi, bj, vecs, par, flag, first, pinned[r, 0], pinned[r, 1], gaps, rates,
                          watched, count)  # fmt: skip
    return count, far


@njit(cache=True)
def closing_time(gaps, rates, watched, touching, touched_at, t: float, half_step: float) -> float:
    """The time [s] until the nearest watched point touches or, touching, opens at its current rate
    (inf: none); a touching point whose gap has opened, past half a step after its onset
    (touched_at [s]), is no longer touching (``touching`` updated in place)."""
    for e in range(touching.shape[0]):
        if touching[e] and gaps[e] > 0.0 and t >= touched_at[e] + half_step:
            touching[e] = False
    out = np.inf
    for i in range(watched.shape[0]):
        e = watched[i]
        if rates[e] * gaps[e] < 0.0:  # closing or opening
            out = min(out, gaps[e] / -rates[e])
    return out


@njit(cache=True)
def event_values(gaps, watched, touching, out) -> None:
    """out[i]: the event function of watched point i, its gap [m] while apart, 1 while touching."""
    for i in range(watched.shape[0]):
        e = watched[i]
        out[i] = 1.0 if touching[e] else gaps[e]
