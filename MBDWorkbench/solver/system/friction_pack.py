"""The friction contacts of a System (system/friction.py) as the arrays of the compiled solve
(numerics/friction_solve.py), packed once per System."""

from __future__ import annotations

import numpy as np

from ..numerics import friction_solve as fs
from ..numerics.friction_linalg import friction_work
from ..numerics.joints import ROW_VECS

LOAD_KIND = {"prismatic": fs.C_PRISMATIC, "spherical": fs.C_SPHERICAL, "contact": fs.C_PATCH}  # else C_AXIAL


def _channels(friction) -> dict:
    n = friction.n_channels
    out = dict(ch_kind=np.full(n, fs.CH_PATCH, np.int64), ch_bi=np.full(n, -1, np.int64),
               ch_bj=np.full(n, -1, np.int64), ch_axis=np.zeros((n, 3)), ch_row=np.zeros(n, np.int64),
               ch_vecs=np.zeros((n, ROW_VECS, 3)), arm=np.ones(n))  # fmt: skip
    for c, bi, bj, axis in friction.rotation_channels:
        out["ch_kind"][c], out["ch_bi"][c], out["ch_bj"][c], out["ch_axis"][c] = fs.CH_ROTATION, bi, bj, axis
    for c, kind, bi, bj, vecs in friction.row_channels:
        out["ch_kind"][c], out["ch_bi"][c], out["ch_bj"][c] = fs.CH_ROW, bi, bj
        out["ch_row"][c], out["ch_vecs"][c] = kind, vecs[0]
    for contact in friction.contacts:
        out["arm"][contact.channels] = contact.arms
    return out


def _contacts(friction) -> dict:
    contacts = friction.contacts
    rows = [np.asarray(c.rows, np.int64) for c in contacts]
    ints = lambda values: np.array(values, np.int64)  # noqa: E731
    return dict(
        c_type=ints([LOAD_KIND.get(c.type, fs.C_AXIAL) for c in contacts]),
        c_mu_s=np.array([c.mu_s for c in contacts], float),
        c_mu_k=np.array([c.mu_k for c in contacts], float),
        c_length=np.array([c.length for c in contacts], float),
        c_start=ints([c.channels[0] for c in contacts]),
        c_end=ints([c.channels[-1] + 1 for c in contacts]),
        c_row_start=ints(np.cumsum([0] + [len(r) for r in rows])),
        c_rows=np.concatenate(rows + [np.zeros(0, np.int64)]),
        c_bi=ints([c.bi for c in contacts]),
        c_side=ints([c.side for c in contacts]),
        c_b=ints([c.b for c in contacts]),
        c_origin=np.array([c.origin for c in contacts], float).reshape(-1, 3),
        c_axis=np.array([c.axis for c in contacts], float).reshape(-1, 3),
        c_patch=ints([c.jk if c.type == "contact" else -1 for c in contacts]),
    )


def _patches(patches) -> dict:
    found = [] if patches is None else patches.patches
    elements = [np.asarray(p.elements, np.int64) for p in found]
    ints = lambda values: np.array(values, np.int64)  # noqa: E731
    return dict(
        p_el_start=ints(np.cumsum([0] + [len(e) for e in elements])),
        p_elements=np.concatenate(elements + [np.zeros(0, np.int64)]),
        p_bi=ints([p.bi for p in found]),
        p_bj=ints([p.bj for p in found]),
        p_tangents=np.array([p.tangents for p in found], float).reshape(-1, 2, 3),
        p_normal=np.array([p.normal for p in found], float).reshape(-1, 3),
        p_start=ints([p.channels[0] for p in found]),
        p_end=ints([p.channels[-1] + 1 for p in found]),
    )


def pack(friction) -> fs.FrictionArrays:
    """The FrictionArrays of a JointFriction (its channels, contacts and stiction patches) with the
    solve's work arrays sized for its System (numerics/friction_linalg.py)."""
    fields = {**_channels(friction), **_contacts(friction), **_patches(friction.patches)}
    sys = friction.system
    work = friction_work(sys.nb, sys.m, friction.n_channels, len(friction.contacts))
    return fs.FrictionArrays(**{k: np.ascontiguousarray(v) for k, v in fields.items()}, work=work)
