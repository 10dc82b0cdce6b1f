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


def _pair_ranges(contact_pair: list, first: int) -> list[tuple[int, int]]:
    """[first, end) absolute element ranges of each pair that has elements, in element order."""
    ranges, e = [], 0
    while e < len(contact_pair):
        end = e
        while end < len(contact_pair) and contact_pair[end] == contact_pair[e]:
            end += 1
        ranges.append((first + e, first + end))
        e = end
    return ranges


def _spheres(arrays: dict, k: int) -> tuple | None:
    """((body, centre, radius) of side i, of side j) of a pair whose first element is k, if both
    sides are spheres (a mesh's bounding sphere against a sphere included), else None."""
    flag, par, vecs = arrays["force_flag"][k], arrays["force_par"][k], arrays["force_vecs"][k]
    kind = int(par[1]) if flag == BOUND else flag
    if kind != SPHERE_SPHERE and not (flag == BOUND and kind == MESH_MESH and par[6] > 0.0):
        return None  # (a mesh-mesh pair's first BOUND: the meshes' bounding spheres)
    bi, bj = int(arrays["force_bi"][k]), int(arrays["force_bj"][k])
    return (bi, tuple(vecs[0]), float(par[6])), (bj, tuple(vecs[1]), float(par[7]))


def broad_phase_arrays(arrays: dict, contact_pair: list) -> dict:
    """The bp_* arrays of Static from the force arrays (System._force_arrays) and the pair of each
    contact element; empty (every pair evaluated) below MIN_PAIRS pairs of spheres."""
    first = int(arrays["force_start"][CONTACT])
    proxies: dict[tuple, int] = {}
    keyed, seen, always = [], set(), []
    for k0, k1 in _pair_ranges(contact_pair, first):
        spheres = _spheres(arrays, k0)
        if spheres is None:
            always.append((k0, k1))
            continue
        u, v = sorted(proxies.setdefault(s, len(proxies)) for s in spheres)
        if u == v or (u, v) in seen:  # the same sphere twice, or a second pair of two spheres
            always.append((k0, k1))
            continue
        seen.add((u, v))
        keyed.append((u, v, k0, k1))
    if len(keyed) < MIN_PAIRS:
        return _empty(arrays["force_start"])
    n = len(proxies)
    rows = sorted((u * n + v, k0, k1) for u, v, k0, k1 in keyed)
    bodies = sorted(proxies, key=proxies.get)
    return dict(
        bp_start=np.array(arrays["force_start"][: CONTACT + 1], dtype=np.int64),
        bp_body=np.array([b for b, _, _ in bodies], dtype=np.int64),
        bp_centre=np.array([c for _, c, _ in bodies], dtype=float).reshape(-1, 3),
        bp_radius=np.array([r * (1.0 + INFLATION) + 1e-12 for _, _, r in bodies], dtype=float),
        bp_key=np.array([r[0] for r in rows], dtype=np.int64),
        bp_first=np.array([r[1] for r in rows], dtype=np.int64),
        bp_end=np.array([r[2] for r in rows], dtype=np.int64),
        bp_always=np.array(always, dtype=np.int64).reshape(-1, 2),
        bp_world=np.zeros((n, 3)),
        bp_order=np.append(np.arange(n), 0).astype(np.int64),
        bp_live=np.zeros(len(rows) + 1, dtype=np.int64),
        bp_mark=np.zeros(len(rows), dtype=np.int64),
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
