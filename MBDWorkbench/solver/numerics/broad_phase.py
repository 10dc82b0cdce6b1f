"""Broad phase of the contact pairs (docs/contact.md, "Cost"): which pairs' contact elements the
force pass evaluates, so that a pile of N bodies costs about N pairs, not N (N - 1) / 2.

Each shape of a pair that has a bounding sphere (a sphere, a mesh) is a *proxy*: a sphere fixed on
its body (local centre [m], radius [m], slightly inflated so that round-off never skips a pair
that touches). A pair of two proxies is a *candidate* while their spheres overlap; the others
are truly apart (each contact element of such a pair lies within the two spheres), and their
elements are skipped. Pairs with a shape without bounding sphere (a plane, a cylinder, whose
side is taken as unbounded against a sphere) are evaluated always.

The candidates are found by sort and sweep along the axis of the proxies' largest spread: their
order along it is kept between evaluations (an insertion sort, about linear while the bodies
move little between evaluations) and each proxy is tested against those whose interval on that
axis starts within its own. Refreshed at every evaluation: a pair that comes into contact within
one step, however fast, is a candidate at the first evaluation where its spheres overlap.

Arrays (packed by system/broad_phase.py into System.static): ``body`` (proxies: moving body
index, -1 the ground), ``centre`` (local centre [m]), ``radius`` [m]; pairs of proxies sorted by
``key`` = u * proxies + v (u < v), their contact elements ``first`` .. ``end`` - 1 (absolute
force-element indices); ``always`` (ranges [first, end) of the elements evaluated always);
state: ``world`` (centres [m]), ``order`` (the proxies' order along the sweep axis, then the
axis), ``live`` (live[0] the count, then the pairs that were candidates at the last force pass)
and ``mark`` (scratch, zeros).
"""

import numpy as np

from .contact_forces import BOUND
from .jit import njit
from .vec3 import add, body_mv


@njit(cache=True)
def proxy_centres(nb: int, Y: np.ndarray, A: np.ndarray, body: np.ndarray, centre: np.ndarray, world: np.ndarray):
    """world[p]: the global centre [m] of each proxy at state Y (rotations A)."""
    for p in range(body.shape[0]):
        b = body[p]
        local = (centre[p, 0], centre[p, 1], centre[p, 2])
        r = (0.0, 0.0, 0.0) if b < 0 else (Y[7 * b], Y[7 * b + 1], Y[7 * b + 2])
        x = add(r, body_mv(A, b, local))
        world[p, 0], world[p, 1], world[p, 2] = x[0], x[1], x[2]


@njit(cache=True)
def _sweep_axis(world: np.ndarray, axis: int) -> int:
    """The axis (0, 1, 2) along which the proxies' centres spread most; the current ``axis`` unless
    another spreads 1.5 times more (a switch costs a full sort)."""
    spread = np.empty(3)
    for c in range(3):
        spread[c] = world[:, c].max() - world[:, c].min()
    best = np.argmax(spread)
    return best if spread[best] > 1.5 * spread[axis] else axis


@njit(cache=True)
def _sort_order(order: np.ndarray, world: np.ndarray, radius: np.ndarray, grow: float, axis: int) -> None:
    """Insertion sort of ``order`` by the proxies' lower bounds (radii times ``grow``) along
    ``axis`` (near linear when the order changed little since the last call)."""
    for i in range(1, order.shape[0]):
        p = order[i]
        low = world[p, axis] - grow * radius[p]
        j = i - 1
        while j >= 0 and world[order[j], axis] - grow * radius[order[j]] > low:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = p


@njit(cache=True)
def _pair_index(key: np.ndarray, u: int, v: int, count: int) -> int:
    """The index of the pair of proxies (u, v) in the sorted ``key``, -1 if there is none."""
    target = min(u, v) * count + max(u, v)
    i = np.searchsorted(key, target)
    return i if i < key.shape[0] and key[i] == target else -1


@njit(cache=True)
def candidate_pairs(world: np.ndarray, radius: np.ndarray, order: np.ndarray, key: np.ndarray, margin: float):
    """The indices (unsorted) of the pairs whose proxies' spheres, each grown by ``margin`` times its
    radius, overlap: sort and sweep along the axis of largest spread."""
    n = radius.shape[0]
    found = np.empty(max(16, 4 * n), dtype=np.int64)
    count = 0
    if n < 2:
        return found[:0]
    axis = _sweep_axis(world, order[n])
    order[n] = axis
    grow = 1.0 + margin
    _sort_order(order[:n], world, radius, grow, axis)
    for a in range(n):
        u = order[a]
        reach = world[u, axis] + grow * radius[u]
        for b in range(a + 1, n):
            v = order[b]
            if world[v, axis] - grow * radius[v] > reach:
                break
            dx, dy, dz = world[u, 0] - world[v, 0], world[u, 1] - world[v, 1], world[u, 2] - world[v, 2]
            limit = grow * (radius[u] + radius[v])
            if dx * dx + dy * dy + dz * dz > limit * limit:
                continue
            pair = _pair_index(key, u, v, n)
            if pair < 0:
                continue
            if count == found.shape[0]:
                found = np.concatenate((found, np.empty(found.shape[0], dtype=np.int64)))
            found[count] = pair
            count += 1
    return found[:count]


@njit(cache=True)
def element_ranges(pairs: np.ndarray, first: np.ndarray, end: np.ndarray, always: np.ndarray) -> np.ndarray:
    """(ranges, 2): the element ranges [first, end) of the ``pairs`` and the ``always`` ranges,
    in ascending order (the order of the elements in the force pass)."""
    out = np.empty((pairs.shape[0] + always.shape[0], 2), dtype=np.int64)
    for i in range(always.shape[0]):
        out[i, 0], out[i, 1] = always[i, 0], always[i, 1]
    for i in range(pairs.shape[0]):
        out[always.shape[0] + i, 0], out[always.shape[0] + i, 1] = first[pairs[i]], end[pairs[i]]
    return out[np.argsort(out[:, 0])]


@njit(cache=True)
def retire(pairs: np.ndarray, first: np.ndarray, end: np.ndarray, live: np.ndarray, mark: np.ndarray,
           vecs: np.ndarray, flag: np.ndarray) -> None:  # fmt: skip
    """Make ``pairs`` the live ones; the pairs live before and not now are apart: their elements'
    impact speeds v- are reset, as their evaluation apart would have (numerics.contact_forces)."""
    for i in range(pairs.shape[0]):
        mark[pairs[i]] = 1
    for i in range(1, live[0] + 1):
        p = live[i]
        if mark[p] == 0:
            for e in range(first[p], end[p]):
                vecs[e, 3, 0] = 0.0 if flag[e] == BOUND else np.nan
    for i in range(pairs.shape[0]):
        mark[pairs[i]] = 0
        live[i + 1] = pairs[i]
    live[0] = pairs.shape[0]
