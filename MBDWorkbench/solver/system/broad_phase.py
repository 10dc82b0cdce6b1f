"""The broad phase's arrays (numerics/broad_phase.py) of a System's contact elements: a proxy per
sphere (a sphere shape, or a mesh's bounding sphere against a sphere), read from the packed
elements, and the pairs of proxies with their element ranges."""

from __future__ import annotations

import numpy as np

from ..numerics.contact_forces import BOUND, MESH_MESH, SPHERE_SPHERE
from ..numerics.forces import CONTACT

MIN_PAIRS = 16  # pairs of spheres below which every pair is evaluated (the broad phase's fixed cost)
INFLATION = 1e-9  # relative growth of a proxy's radius (plus 1e-12 m): round-off never skips a touching pair

FIELDS = "bp_start bp_body bp_centre bp_radius bp_key bp_first bp_end bp_always bp_world bp_order bp_live bp_mark"


def _pair_ranges(contact_pair: np.ndarray, first: int) -> tuple[np.ndarray, np.ndarray]:
    """[first, end) absolute element ranges of each pair that has elements, in element order."""
    pair = np.asarray(contact_pair, dtype=np.int64).reshape(-1)
    change = np.ones(len(pair), dtype=bool)
    np.not_equal(pair[1:], pair[:-1], out=change[1:])
    starts = np.flatnonzero(change)
    return first + starts, first + np.append(starts[1:], len(pair))


def _sphere_sides(arrays: dict, k0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(whether each pair whose first element is k0 has two spheres (a mesh's bounding sphere
    against a sphere included), the proxies (2 per pair: side i, side j) as rows (body, centre,
    radius))."""
    flag, par, vecs = arrays["force_flag"][k0], arrays["force_par"][k0], arrays["force_vecs"][k0]
    kind = np.where(flag == BOUND, par[:, 1], flag).astype(np.int64) if len(k0) else flag
    mesh = (flag == BOUND) & (kind == MESH_MESH) & (par[:, 6] > 0.0)  # a mesh-mesh pair's first BOUND: its spheres
    sides = np.empty((len(k0), 2, 5))
    sides[:, 0, 0], sides[:, 0, 1:4], sides[:, 0, 4] = arrays["force_bi"][k0], vecs[:, 0], par[:, 6]
    sides[:, 1, 0], sides[:, 1, 1:4], sides[:, 1, 4] = arrays["force_bj"][k0], vecs[:, 1], par[:, 7]
    return (kind == SPHERE_SPHERE) | mesh, sides.reshape(-1, 5)


def _first_seen(rows: np.ndarray) -> tuple[np.ndarray, int]:
    """(the index of each row's distinct value, numbered in the order of first appearance; the count).
    The rows are sorted by a hash of their bits (one integer sort), then checked equal to the first
    of their hash (rows.view: exact bits, as a dict of tuples would compare them, -0.0 apart)."""
    if not len(rows):
        return np.zeros(0, dtype=np.int64), 0
    rows = np.ascontiguousarray(rows) + 0.0  # (-0.0 + 0.0 = 0.0: the tuples' equality)
    bits = rows.view(np.uint64)
    mix = np.zeros(len(rows), dtype=np.uint64)
    for c in range(bits.shape[1]):
        mix = (mix ^ bits[:, c]) * np.uint64(0x100000001B3)  # FNV-style, wrapping
    _, first, inverse = np.unique(mix, return_index=True, return_inverse=True)
    if not np.array_equal(bits[first[inverse]], bits):  # a hash shared by different rows
        _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inverse.reshape(-1)], len(first)


def broad_phase_arrays(arrays: dict, contact_pair) -> dict:
    """The bp_* arrays of Static from the force arrays (System._force_arrays) and the pair of each
    contact element; empty (every pair evaluated) below MIN_PAIRS pairs of spheres. A proxy per
    distinct (body, centre, radius); a pair of two proxies is keyed, unless both are one sphere or
    an earlier pair had the same two (then evaluated always, as a pair without spheres)."""
    k0, k1 = _pair_ranges(contact_pair, int(arrays["force_start"][CONTACT]))
    if len(k0) < MIN_PAIRS:  # fewer pairs than MIN_PAIRS: fewer keyed ones too
        return _empty(arrays["force_start"])
    spheres, sides = _sphere_sides(arrays, k0)
    proxy, n = _first_seen(sides[np.repeat(spheres, 2)])
    u, v = np.minimum(proxy[0::2], proxy[1::2]), np.maximum(proxy[0::2], proxy[1::2])
    key = u * n + v
    first = np.zeros(len(key), dtype=bool)
    distinct = u != v
    first[np.flatnonzero(distinct)[np.unique(key[distinct], return_index=True)[1]]] = True
    keyed = np.zeros(len(k0), dtype=bool)
    keyed[np.flatnonzero(spheres)[first]] = True
    if keyed.sum() < MIN_PAIRS:
        return _empty(arrays["force_start"])
    order = np.argsort(key[first], kind="stable")
    centres = np.empty((n, 5))
    centres[proxy] = sides[np.repeat(spheres, 2)]
    return dict(
        bp_start=np.array(arrays["force_start"][: CONTACT + 1], dtype=np.int64),
        bp_body=centres[:, 0].astype(np.int64),
        bp_centre=centres[:, 1:4].copy(),
        bp_radius=centres[:, 4] * (1.0 + INFLATION) + 1e-12,
        bp_key=key[first][order],
        bp_first=k0[keyed][order],
        bp_end=k1[keyed][order],
        bp_always=np.column_stack([k0[~keyed], k1[~keyed]]).astype(np.int64).reshape(-1, 2),
        bp_world=np.zeros((n, 3)),
        bp_order=np.append(np.arange(n), 0).astype(np.int64),
        bp_live=np.zeros(int(keyed.sum()) + 1, dtype=np.int64),
        bp_mark=np.zeros(int(keyed.sum()), dtype=np.int64),
    )


def _empty(force_start: np.ndarray) -> dict:
    """No broad phase: every contact pair is evaluated (bp_key empty)."""
    ints, floats = np.zeros(0, dtype=np.int64), np.zeros(0)
    return dict(
        bp_start=np.array(force_start[: CONTACT + 1], dtype=np.int64),
        bp_body=ints,
        bp_centre=np.zeros((0, 3)),
        bp_radius=floats,
        bp_key=ints.copy(),
        bp_first=ints.copy(),
        bp_end=ints.copy(),
        bp_always=np.zeros((0, 2), dtype=np.int64),
        bp_world=np.zeros((0, 3)),
        bp_order=np.zeros(1, dtype=np.int64),
        bp_live=np.zeros(1, dtype=np.int64),
        bp_mark=ints.copy(),
    )
