"""The sphere-sphere pairs of a model's contacts as arrays (a contact group of N balls has
N (N - 1) / 2 of them: docs/contact.md, "Cost"). Gathered once from ``model.contacts`` (one
attribute read per pair, the shapes of a group shared: model/contact_groups.py), their initial
depths, checks and law constants are computed with NumPy instead of pair by pair; the pairs that
fail a check, or whose law is met for the first time, go through the per-pair checks of
:mod:`.contacts`, which give the same errors as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from ..numerics import quaternion
from .contact_groups import LAW_FIELDS
from .contacts import contact_law

DEPTH_MARGIN = 1e-9  # [m] initial depths this near a pair's penetration_tol are checked pair by pair
_law_fields = attrgetter(*LAW_FIELDS)


@dataclass
class SpherePairs:
    """The enabled sphere-sphere pairs of a model: ``index`` (P,) into model.contacts, ``names``
    (the bodies they name, each once), ``a``, ``b`` (P,) their bodies as indices into ``names``,
    ``centre_a``, ``centre_b`` (P, 3) [m] in their bodies' frames, ``radius_a``, ``radius_b`` (P,)
    [m], ``tol`` (P,) the penetration_tol [m]."""

    index: np.ndarray
    names: list
    a: np.ndarray
    b: np.ndarray
    centre_a: np.ndarray
    centre_b: np.ndarray
    radius_a: np.ndarray
    radius_b: np.ndarray
    tol: np.ndarray


def sphere_pairs(contacts: list) -> SpherePairs:
    """The enabled sphere-sphere pairs of ``contacts`` (model.contacts)."""
    picked = [
        (k, c.body_a, c.body_b, c.shape_a, c.shape_b, c.penetration_tol)
        for k, c in enumerate(contacts)
        if c.shape_a.type == "sphere" and c.shape_b.type == "sphere" and c.enabled is True
    ]
    index, body_a, body_b, shape_a, shape_b, tol = zip(*picked) if picked else ((),) * 6
    slot: dict[str, int] = {}
    a, b = ([slot.setdefault(name, len(slot)) for name in names] for names in (body_a, body_b))
    centre_a, radius_a = _sphere_arrays(shape_a)
    centre_b, radius_b = _sphere_arrays(shape_b)
    return SpherePairs(
        np.array(index, dtype=np.int64), list(slot), np.array(a, dtype=np.int64), np.array(b, dtype=np.int64),
        centre_a, centre_b, radius_a, radius_b, np.array(tol, dtype=float),
    )  # fmt: skip


def _sphere_arrays(shapes: tuple) -> tuple[np.ndarray, np.ndarray]:
    """(centres (P, 3), radii (P,)) of sphere shapes, each distinct Shape object read once."""
    slot: dict[int, int] = {}
    which = np.array([slot.setdefault(id(s), len(slot)) for s in shapes], dtype=np.int64)
    distinct = {k: s for s, k in zip(shapes, which.tolist())}
    centre = np.array([distinct[k].center for k in range(len(slot))], dtype=float).reshape(-1, 3)
    radius = np.array([distinct[k].radius for k in range(len(slot))], dtype=float)
    return centre[which], radius[which]


def body_poses(model, names: list) -> tuple[np.ndarray, np.ndarray]:
    """(positions (n, 3) [m], rotations (n, 3, 3)) of the bodies ``names`` at the initial
    configuration; the ground and unknown names: the global frame."""
    r, A = np.zeros((len(names), 3)), np.tile(np.eye(3), (len(names), 1, 1))
    known = {b.name for b in model.bodies}
    for k, name in enumerate(names):
        if name != "ground" and name in known:
            body = model.body(name)
            r[k], A[k] = np.asarray(body.position, float), quaternion.matrix(np.asarray(body.orientation, float))
    return r, A


def world_centres(model, sp: SpherePairs) -> tuple[np.ndarray, np.ndarray]:
    """The spheres' global centres [m] (P, 3) of side a and side b at the initial configuration."""
    r, A = body_poses(model, sp.names)
    sides = ((sp.a, sp.centre_a), (sp.b, sp.centre_b))
    return tuple(r[k] + np.matmul(A[k], centre[:, :, None])[:, :, 0] for k, centre in sides)


def initial_depths(model, sp: SpherePairs) -> np.ndarray:
    """The pairs' initial penetrations [m] (negative: the gap), ra + rb - |xa - xb|."""
    xa, xb = world_centres(model, sp)
    return sp.radius_a + sp.radius_b - np.linalg.norm(xa - xb, axis=1)


def checked_pairs(model, bodies: dict) -> list[bool]:
    """Per pair of model.contacts, whether its checks (contacts.check_contact) pass without
    running them: a sphere-sphere pair of two known, different bodies, one moving, starting no
    deeper than its penetration_tol (away from it by DEPTH_MARGIN), whose law fields and radii
    an earlier pair had (the first of each is checked pair by pair)."""
    contacts = getattr(model, "contacts", [])
    out = [False] * len(contacts)
    sp = sphere_pairs(contacts)
    if not len(sp.index):
        return out
    known = np.array([n == "ground" or n in bodies for n in sp.names] + [False])  # (-1: none)
    fixed = np.array([n == "ground" or (n in bodies and bodies[n].grounded) for n in sp.names] + [True])
    ok = known[sp.a] & known[sp.b] & (sp.a != sp.b) & ~(fixed[sp.a] & fixed[sp.b])
    ok &= initial_depths(model, sp) < sp.tol - DEPTH_MARGIN
    seen: set = set()
    for k, fine, ra, rb in zip(sp.index.tolist(), ok.tolist(), sp.radius_a.tolist(), sp.radius_b.tolist()):
        key = _law_key(contacts[k], ra, rb)
        first = key is None or key not in seen
        if key is not None:
            seen.add(key)
        out[k] = fine and not first
    return out


def _law_key(c, radius_a: float, radius_b: float) -> tuple | None:
    """The fields a sphere-sphere pair's law and checks depend on; None if not hashable (a
    material given as a dict)."""
    key = (_law_fields(c), radius_a, radius_b)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def pair_laws(contacts: list, sp: SpherePairs) -> tuple[list, np.ndarray]:
    """(the distinct laws (contacts.ContactLaw), the law of each pair (P,) as an index into
    them): contact_law once per distinct law fields and radii."""
    laws, slot, which = [], {}, np.empty(len(sp.index), dtype=np.int64)
    for p, (k, ra, rb) in enumerate(zip(sp.index.tolist(), sp.radius_a.tolist(), sp.radius_b.tolist())):
        key = _law_key(contacts[k], ra, rb)
        s = slot.get(key) if key is not None else None
        if s is None:
            s = len(laws)
            laws.append(contact_law(contacts[k], f"contacts[{k}]"))
            if key is not None:
                slot[key] = s
        which[p] = s
    return laws, which
