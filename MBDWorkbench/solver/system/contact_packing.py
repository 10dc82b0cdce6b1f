"""The CONTACT force elements of a System (numerics/contact_forces.py): one per contact point of
each enabled pair, in the order of the pairs; the sphere-sphere pairs (a group of balls: N (N - 1) / 2
of them, model/sphere_pairs.py) packed as arrays with NumPy, the others point by point."""

from __future__ import annotations

import numpy as np

from ..model.contacts import contact_law, contact_points, is_line
from ..model.shape_points import BOUND, SPHERE_SPHERE, VECTORS, bounding_sphere, element_vectors
from ..model.sphere_pairs import SpherePairs, pair_laws, sphere_pairs, world_centres

PAR = 8  # numbers of an element (System's ForceElement.PAR)


def contact_elements(system) -> tuple[dict, np.ndarray, list]:
    """(the elements' arrays bi, bj (E,), vecs (E, VECTORS, 3), par (E, PAR), flag (E,), in the order
    of the pairs; ``contact_pair`` (E,): the pair index of each element; the law of each pair)."""
    contacts = getattr(system.model, "contacts", [])
    system.contact_points = {}  # the points of each pair not sphere-sphere (model.contacts.contact_points)
    sp = sphere_pairs(contacts)
    laws = [None] * len(contacts)
    spheres = _sphere_block(system, contacts, sp, laws) if len(sp.index) else None
    points = _point_block(system, contacts, set(sp.index.tolist()), laws)
    if spheres is None:  # no sphere-sphere pair: the points' block alone
        return points, points.pop("pair"), laws
    first, second = spheres.pop("pair"), points.pop("pair")  # each ascending, no pair in both
    at = (  # where each block's elements go, in pair order
        np.arange(len(first)) + np.searchsorted(second, first),
        np.arange(len(second)) + np.searchsorted(first, second),
    )
    arrays = {}
    for key, x in spheres.items():
        arrays[key] = np.empty((len(first) + len(second), *x.shape[1:]), dtype=x.dtype)
        arrays[key][at[0]], arrays[key][at[1]] = x, points[key]
    pair = np.empty(len(first) + len(second), dtype=np.int64)
    pair[at[0]], pair[at[1]] = first, second
    return arrays, pair, laws


def _sphere_block(system, contacts: list, sp: SpherePairs, laws: list) -> dict:
    """The SPHERE_SPHERE elements of the pairs ``sp``, one each (model.contacts' sphere-sphere
    contact point: the centres, side a first), their laws stored in ``laws``."""
    distinct, which = pair_laws(contacts, sp)
    for k, w in zip(sp.index.tolist(), which.tolist()):
        laws[k] = distinct[w]
    n = len(sp.index)
    fields = ("stiffness", "exponent", "chi", "mu_s", "mu_k", "slip_speed", "min_impact_speed")
    law = np.array([[getattr(x, key) for key in fields] for x in distinct]).reshape(-1, 7)[which]
    kinetic = np.array([contacts[k].friction_law != "stiction" for k in sp.index.tolist()], dtype=float)
    xa, xb = world_centres(system.model, sp)
    vecs = np.zeros((n, VECTORS, 3))
    index = np.array([system.body_index(name) for name in sp.names], dtype=np.int64)
    vecs[:, 0], vecs[:, 1] = _local_points(system, index[sp.a], xa), _local_points(system, index[sp.b], xb)
    vecs[:, 3, 0], vecs[:, 3, 1] = np.nan, law[:, 6]  # v- of the current impact (NaN: apart)
    par = np.column_stack([law[:, :3], law[:, 3:5] * kinetic[:, None], law[:, 5], sp.radius_a, sp.radius_b])
    return dict(
        bi=index[sp.a],
        bj=index[sp.b],
        vecs=vecs,
        par=par.reshape(n, PAR),
        flag=np.full(n, SPHERE_SPHERE, dtype=np.int64),
        pair=sp.index,
    )


def _local_points(system, k: np.ndarray, x: np.ndarray) -> np.ndarray:
    """System.to_local_point of each global point x[p] on moving body k[p] (-1: fixed): the
    kernel coordinates."""
    moving = k >= 0
    out = x.copy()
    km = k[moving]
    out[moving] = np.matmul(system.A0[km].transpose(0, 2, 1), (x[moving] - system.r0[km])[:, :, None])[:, :, 0]
    out[moving & np.append(system.point_mass, False)[k]] = 0.0  # (k = -1 reads the appended False)
    return out


def _point_block(system, contacts: list, skipped: set, laws: list) -> dict:
    """The elements of the pairs not in ``skipped``, contact point by contact point (a pair's
    shared points behind their bounding sphere), their laws stored in ``laws``."""
    rows = []
    for ck, c in enumerate(contacts):
        if ck in skipped:
            continue
        law = laws[ck] = contact_law(c, f"contacts[{ck}]")
        points = system.contact_points[ck] = contact_points(system.model, c) if c.enabled else []
        share = 1.0 / len(points) if is_line(c) else 1.0  # a line's stiffness, shared by its slices
        kinetic = 0.0 if c.friction_law == "stiction" else 1.0  # 0: stiction, system/contact_friction.py
        for point in [bounding_sphere(points), *points] if len(points) > 1 and points[0].shared else points:
            vecs, radius_j = element_vectors(
                point,
                lambda x, b=point.body_i: system.to_local_point(b, x),
                lambda x, b=point.body_j: system.to_local_point(b, x),
                lambda v, b=point.body_i: system.to_local_vector(b, v),
                lambda v, b=point.body_j: system.to_local_vector(b, v),
            )
            vecs[3] = np.nan, law.min_impact_speed, 0.0  # v- of the current impact (NaN: apart)
            par = np.array([law.stiffness * share, law.exponent, law.chi, law.mu_s * kinetic, law.mu_k * kinetic,
                            law.slip_speed, point.radius_i, radius_j])  # fmt: skip
            if point.kind == BOUND:  # numerics.contact_forces: the count and kind of the points
                vecs[3], par[:2] = 0.0, (point.count or len(points), point.bounds)
            bi, bj = system.body_index(point.body_i), system.body_index(point.body_j)
            rows.append((bi, bj, vecs, par, point.kind, ck))
    bi, bj, vecs, par, flag, pair = zip(*rows) if rows else ((),) * 6
    return dict(
        bi=np.array(bi, dtype=np.int64),
        bj=np.array(bj, dtype=np.int64),
        vecs=np.array(vecs, dtype=float).reshape(-1, VECTORS, 3),
        par=np.array(par, dtype=float).reshape(-1, PAR),
        flag=np.array(flag, dtype=np.int64),
        pair=np.array(pair, dtype=np.int64),
    )
