"""Exact nodal loads of a rigid-body load set on a tetrahedral mesh, a statically determinate
3-2-1 support and the CalculiX input/output additions (docs/fem.md). Pure numpy: lengths in
the unit of the node coordinates, forces in N.

* A joint wrench (F at P, M about P) on the nodes of its faces, as an RBE3 element would: a
  uniform share F/n per node plus the least-squares couple f_n = w x r_n (r_n from the nodes'
  centroid) carrying M + (P - c) x F.
* The d'Alembert body force rho (g - a - alpha x r - w x (w x r)) (linear in position) as the
  consistent nodal loads of each 4- or 10-node tetrahedron (exact for straight-sided elements),
  then corrected by a small rigid field so that its resultant equals the rigid body's exactly
  (the mesh's volume and inertia differ from the CAD solid's by the discretisation)."""

from __future__ import annotations

import itertools
import re

import numpy as np

MAX_MESH_ELEMENTS = 200_000  # largest tetrahedron count meshed and solved (~300k nodes: minutes, GBs in CalculiX)
WORST_MAX = 20  # most instants of one request (each one Gmsh mesh and one CalculiX run)
# accepted Young's moduli [MPa]: a soft foam (1 kPa) to beyond diamond (1.2e6 MPa); outside, CalculiX's
# stiffness matrix under- or overflows and the run ends without reactions
YOUNGS_MODULUS_RANGE_MPA = (1e-3, 1e7)
MESH_SIZE_RANGE_MM = (1e-3, 1e6)  # accepted --mesh-size [mm] (a micron to a kilometre)
TETS_PER_CUBE = 6.0 * 2.0**0.5  # regular tetrahedra of edge h per volume h^3


def estimated_elements(volume: float, size: float) -> float:
    """Tetrahedra of a mesh of largest element ``size`` of a solid of ``volume`` (same length
    unit): volume over a regular tetrahedron's. A lower bound: Gmsh refines at small features."""
    return TETS_PER_CUBE * volume / size**3


# integral over a straight tetrahedron of (10-node shape function) x (corner barycentric L_k), / volume
_CORNER_WEIGHTS = np.array([[0.0 if i == k else -1.0 / 60.0 for k in range(4)] for i in range(4)])


def _midside_weights(i: int, j: int) -> np.ndarray:
    return np.array([1.0 / 15.0 if k in (i, j) else 1.0 / 30.0 for k in range(4)])


def rbe3_forces(nodes: np.ndarray, point: np.ndarray, force: np.ndarray, moment: np.ndarray) -> np.ndarray:
    """Nodal forces (n, 3) on ``nodes`` (n, 3) statically equivalent to ``force`` at ``point``
    and ``moment`` about it: uniform share plus least-squares couple."""
    nodes = np.asarray(nodes, float)
    n = len(nodes)
    c = nodes.mean(axis=0)
    r = nodes - c
    remaining = np.asarray(moment, float) + np.cross(np.asarray(point, float) - c, force)
    J = np.einsum("ni,ni->", r, r) * np.eye(3) - r.T @ r
    w = np.linalg.pinv(J, rcond=1e-10) @ remaining
    return np.tile(np.asarray(force, float) / n, (n, 1)) + np.cross(w, r)


def bearing_forces(
    nodes: np.ndarray, normals: np.ndarray, point: np.ndarray, force: np.ndarray, moment: np.ndarray
) -> np.ndarray:
    """Nodal forces (n, 3) on a bore's or shaft's ``nodes`` (n, 3) with outward unit ``normals``
    (n, 3) equivalent to ``force`` at ``point`` and ``moment`` about it: the force as a cosine
    bearing pressure over the loaded half (f_n ~ cos(theta_n) (-normal_n) where the surface faces
    the force, 0 on the other half; equal node areas), and what that leaves (the axial force,
    the moments, the discretisation's residue) spread as :func:`rbe3_forces` does."""
    nodes, normals = np.asarray(nodes, float), np.asarray(normals, float)
    force, point = np.asarray(force, float), np.asarray(point, float)
    bearing = np.zeros_like(nodes)
    size = np.linalg.norm(force)
    if size > 0:
        cosines = np.clip(-(normals @ force) / size, 0.0, None)
        push = -normals * cosines[:, None]
        G = push.sum(axis=0)
        if G @ G > 0:
            bearing = push * ((G @ force) / (G @ G))
    F_b, M_b = resultant(nodes, bearing, point)
    return bearing + rbe3_forces(nodes, point, force - F_b, np.asarray(moment, float) - M_b)


def resultant(nodes: np.ndarray, forces: np.ndarray, about: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sum of the nodal forces and of their moments about ``about``."""
    return forces.sum(axis=0), np.cross(nodes - about, forces).sum(axis=0)


def _element_weights(corners: np.ndarray, mids: np.ndarray) -> tuple[list, np.ndarray]:
    """For one tetrahedron: its midside nodes' corner pairs and the (nodes x 4) matrix W with
    nodal load = volume * W @ (body force at the corners)."""
    pairs = []
    for m in mids:
        pairs.append(
            min(itertools.combinations(range(4), 2), key=lambda p: np.linalg.norm(m - corners[list(p)].mean(0)))
        )
    rows = [_CORNER_WEIGHTS[i] for i in range(4)] + [_midside_weights(*p) for p in pairs]
    return pairs, np.array(rows)


def body_force_loads(
    coords: dict, elements: list, body_force, rigid_force: np.ndarray, rigid_moment: np.ndarray, about: np.ndarray
) -> tuple[dict, float]:
    """Consistent nodal loads {node: force} of the linear ``body_force(x) -> (3,)`` [force per
    volume] over 4/10-node tetrahedra ``elements`` (node id tuples, corners first), corrected so
    that their resultant is ``rigid_force`` and their moment about ``about`` ``rigid_moment``.
    Returns the loads and the size of the correction relative to the loads."""
    loads: dict = {}
    share: dict = {}
    for el in elements:
        corners = np.array([coords[n] for n in el[:4]])
        vol = abs(np.linalg.det(corners[1:] - corners[0])) / 6.0
        if len(el) == 4:
            W = np.full((4, 4), 1.0 / 20.0) + np.eye(4) / 20.0
        else:
            _, W = _element_weights(corners, np.array([coords[n] for n in el[4:10]]))
        b = np.array([body_force(x) for x in corners])
        f = vol * W @ b
        for node, fn, wn in zip(el, f, W.sum(axis=1)):
            loads[node] = loads.get(node, 0.0) + fn
            share[node] = share.get(node, 0.0) + abs(wn) * vol
    ids = list(loads)
    X = np.array([coords[n] for n in ids])
    Fm = np.array([loads[n] for n in ids])
    v = np.array([share[n] for n in ids])
    F0, M0 = resultant(X, Fm, about)
    dF, dM = np.asarray(rigid_force) - F0, np.asarray(rigid_moment) - M0
    r = X - about

    def effect(p):  # resultant of v_n (c + d x r_n)
        field = v[:, None] * (p[:3] + np.cross(p[3:], r))
        return np.concatenate(resultant(X, field, about))

    A = np.array([effect(e) for e in np.eye(6)]).T
    p = np.linalg.lstsq(A, np.concatenate([dF, dM]), rcond=None)[0]
    correction = v[:, None] * (p[:3] + np.cross(p[3:], r))
    scale = max(np.abs(Fm).sum(), 1e-300)
    return {n: Fm[k] + correction[k] for k, n in enumerate(ids)}, float(np.abs(correction).sum() / scale)


def support_321(coords: dict) -> list:
    """A statically determinate 3-2-1 support: [(node, dof 1..3), ...] (6 entries) on three
    far-apart nodes, the direction choice that makes the 6 x 6 rigid-motion matrix best conditioned."""
    ids = list(coords)
    X = np.array([coords[n] for n in ids])
    c = X.mean(axis=0)
    a = int(np.argmax(np.linalg.norm(X - c, axis=1)))
    b = int(np.argmax(np.linalg.norm(X - X[a], axis=1)))
    ab = (X[b] - X[a]) / np.linalg.norm(X[b] - X[a])
    d = X - X[a]
    c3 = int(np.argmax(np.linalg.norm(d - np.outer(d @ ab, ab), axis=1)))
    best, best_cond = None, np.inf
    for pair in itertools.combinations(range(3), 2):
        for single in range(3):
            rows = [(a, i) for i in range(3)] + [(b, i) for i in pair] + [(c3, single)]
            cond = np.linalg.cond(_rigid_rows(X, rows, c))
            if cond < best_cond:
                best, best_cond = rows, cond
    if best_cond > 1e8:
        raise ValueError("no statically determinate 3-2-1 support found (the mesh nodes are collinear)")
    return [(ids[n], i + 1) for n, i in best]


def _rigid_rows(X: np.ndarray, rows: list, c: np.ndarray) -> np.ndarray:
    """Displacement of each supported (node, dof) under the 6 rigid motions."""
    out = []
    for n, i in rows:
        r = X[n] - c
        e = np.eye(3)[i]
        out.append(np.concatenate([e, np.cross(r, e)]))  # e . (t + th x r) = e.t + th.(r x e)
    return np.array(out)


def inp_additions(text: str, loads: dict, support: list, set_name: str = "NMBDSUPPORT") -> str:
    """The CalculiX input ``text`` with the support (*BOUNDARY), the nodal loads (*CLOAD) and
    the support reactions printed to the .dat file added to its (single) step."""
    nodes = sorted({n for n, _ in support})
    nset = "*NSET,NSET=%s\n%s\n" % (set_name, ",".join(str(n) for n in nodes))
    step = ["** MBD Workbench: 3-2-1 support (its reactions must be ~0) and the motion loads", "*BOUNDARY"]
    step += ["%d,%d,%d,0.0" % (n, d, d) for n, d in support]
    step += ["*CLOAD"]
    for n in sorted(loads):
        for d in range(3):
            if loads[n][d] != 0.0:
                step.append("%d,%d,%.12e" % (n, d + 1, loads[n][d]))
    step += ["*NODE PRINT,NSET=%s" % set_name, "RF", ""]
    i_step = text.index("*STEP")
    i_end = text.rindex("*END STEP")
    return text[:i_step] + nset + text[i_step:i_end] + "\n".join(step) + "\n" + text[i_end:]


def printed_forces(dat_text: str) -> dict:
    """{node: (3,) force} of the last "forces (fx,fy,fz) for set ..." block of a CalculiX .dat
    file: the nodes' internal forces K u, i.e. support reaction plus the load applied there."""
    blocks = re.split(r"forces \(fx,fy,fz\) for set \S+ and time\s+\S+", dat_text)
    if len(blocks) < 2:
        raise ValueError("no support reactions in the CalculiX .dat file")
    out = {}
    for line in blocks[-1].strip().splitlines():
        parts = line.split()
        if len(parts) != 4:
            break
        out[int(parts[0])] = np.array([float(x) for x in parts[1:]])
    return out


def support_reactions(dat_text: str, loads: dict, support: list) -> np.ndarray:
    """Reaction [N] of each supported (node, dof) of ``support``: the printed internal force
    minus the load applied at that node (``loads``: {node: (3,)})."""
    forces = printed_forces(dat_text)
    out = []
    for node, dof in support:
        applied = loads.get(node, np.zeros(3))[dof - 1]
        out.append(forces[node][dof - 1] - applied)
    return np.array(out)
