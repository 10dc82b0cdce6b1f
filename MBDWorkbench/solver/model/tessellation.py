"""Tessellations of the analytic contact shapes (docs/contact.md, "Tessellated pairs"): a pair that
no exact kind handles (a box against a cylinder, a cone against a torus, a mesh against a face, ...)
is computed as a mesh pair of its shapes' tessellations.

:func:`shape_mesh` makes a box, a face (the slab of its rectangle and twice its ``depth`` behind
it), a cylinder, a cone or a torus into a closed, outward-oriented triangle mesh in its body's
frame [m]: every vertex on the shape's surface, every triangle within ``deflection`` [m] of it
(chord error). Curved directions get as many segments as the deflection needs (a circle of
radius r: n = ceil(pi / acos(1 - d / r)); a torus: d / 2 in each of its two directions); a
cylinder's or a cone's side is divided along its axis so that no part is longer than ``spacing``
[m] (a fraction of the pair's other shape's size: vertices are the only contact points of a mesh
pair, so a box lying across a long roller finds the roller's vertices under it). A box (and a
face's slab) keeps its 8 corners and its face centres: its faces are exact. The vertex count is
known before the arrays are made: beyond :data:`.mesh_shapes.MAX_MESH_POINTS` it is refused with
the estimate.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ModelError
from .mesh_shapes import MAX_MESH_POINTS, too_large

TESSELLATED = ("box", "face", "cylinder", "cone", "torus")  # the shapes :func:`shape_mesh` makes into meshes
DEFLECTION = 1e-4  # [m] default chord deflection (0.1 mm, the FreeCAD Contact's default Deflection)


def segments(radius: float, deflection: float) -> int:
    """Segments of a circle of ``radius`` [m] whose chords stay within ``deflection`` [m] of it (3 at least)."""
    if radius <= 0.0:
        return 3
    return max(3, math.ceil(math.pi / math.acos(max(-1.0, 1.0 - deflection / radius)) - 1e-9))


def parts(length: float, spacing: float) -> int:
    """Equal parts of a straight ``length`` [m] no longer than ``spacing`` [m] (1 at least)."""
    return max(1, math.ceil(length / spacing - 1e-9)) if math.isfinite(spacing) and spacing > 0 else 1


def _frame(axis) -> np.ndarray:
    """(3, 3): two unit vectors normal to ``axis`` and the unit axis, as columns (right-handed)."""
    u = np.asarray(axis, float) / np.linalg.norm(axis)
    e = np.eye(3)[int(np.argmin(np.abs(u)))]
    a = e - float(e @ u) * u
    a /= np.linalg.norm(a)
    return np.column_stack([a, np.cross(u, a), u])


def _checked(count: int, triangles: int, what: str, path: str) -> None:
    if count > MAX_MESH_POINTS:
        raise ModelError(path, f"{what}: the tessellation of the shape: {too_large(triangles, count)}")


# ----------------------------------------------------------------------------- boxes
def box_tessellation(center, axes: np.ndarray, size) -> tuple[np.ndarray, np.ndarray]:
    """A box (``axes``: its unit edge directions as columns, right-handed; ``size``: edge lengths
    [m]): its 8 corners and 6 face centres, each face 4 triangles about its centre (exact: its edges
    are not divided, the other shape's vertices find its faces anywhere): (vertices (14, 3), triangles
    (24, 3))."""
    corners = [(i, j, k) for i in (0, 1) for j in (0, 1) for k in (0, 1)]
    V = [[(x - 0.5) * s for x, s in zip(ijk, size)] for ijk in corners]
    T = []
    for a in range(3):
        b, c = (a + 1) % 3, (a + 2) % 3
        for side in (0, 1):
            loop = [(0, 0), (1, 0), (1, 1), (0, 1)]  # counter-clockwise about +e_a in (e_b, e_c)
            if side == 0:
                loop.reverse()
            ids = []
            for i, j in loop:
                ijk = [0, 0, 0]
                ijk[a], ijk[b], ijk[c] = side, i, j
                ids.append(corners.index(tuple(ijk)))
            mid = [0.0, 0.0, 0.0]
            mid[a] = (side - 0.5) * size[a]
            V.append(mid)
            T += [[len(V) - 1, ids[k], ids[(k + 1) % 4]] for k in range(4)]
    return np.asarray(center, float) + np.asarray(V, float) @ np.asarray(axes, float).T, np.asarray(T, np.int64)


# ----------------------------------------------------------------------------- solids of revolution
def revolution_tessellation(center, axis, length: float, radii: tuple, deflection: float, spacing: float):
    """A cylinder (``radii`` equal) or a cone (``radii`` at -length/2 and +length/2 along the axis; 0:
    an apex) about ``center`` [m]: rings of :func:`segments` points, :func:`parts` of the length
    apart, plane caps as fans from their centres."""
    F = _frame(axis)
    n, m = segments(max(radii), deflection), parts(length, spacing)
    phi = 2.0 * math.pi * np.arange(n) / n
    rim = np.column_stack([np.cos(phi), np.sin(phi), np.zeros(n)])
    V, rings = [], []
    for k in range(m + 1):
        s = k / m
        r, z = (1.0 - s) * radii[0] + s * radii[1], (s - 0.5) * length
        if r == 0.0:
            rings.append(None)
            V.append(np.array([[0.0, 0.0, z]]))
        else:
            rings.append(sum(len(v) for v in V))
            V.append(r * rim + [0.0, 0.0, z])
    apex = {k: sum(len(v) for v in V[:k]) for k in range(m + 1) if rings[k] is None}
    T = []
    j, j1 = np.arange(n), (np.arange(n) + 1) % n
    for k in range(m):
        lo, hi = rings[k], rings[k + 1]
        if lo is None:
            T.append(np.column_stack([np.full(n, apex[k]), hi + j1, hi + j]))
        elif hi is None:
            T.append(np.column_stack([lo + j, lo + j1, np.full(n, apex[k + 1])]))
        else:
            T.append(np.column_stack([lo + j, lo + j1, hi + j1]))
            T.append(np.column_stack([lo + j, hi + j1, hi + j]))
    count = sum(len(v) for v in V)
    for k, outward in ((0, False), (m, True)):
        if rings[k] is None:
            continue
        V.append(np.array([[0.0, 0.0, (k / m - 0.5) * length]]))
        fan = [np.full(n, count), rings[k] + j, rings[k] + j1]
        T.append(np.column_stack(fan if outward else [fan[0], fan[2], fan[1]]))
        count += 1
    local = np.concatenate(V)
    return np.asarray(center, float) + local @ F.T, np.concatenate(T).astype(np.int64)


def revolution_count(length: float, radii: tuple, deflection: float, spacing: float) -> tuple[int, int]:
    """(vertices, triangles) of :func:`revolution_tessellation`."""
    n, m = segments(max(radii), deflection), parts(length, spacing)
    tips = sum(1 for r in radii if r == 0.0)
    return (m + 1 - tips) * n + tips + 2 - tips, 2 * n * m - n * tips + (2 - tips) * n


# ----------------------------------------------------------------------------- tori
def torus_segments(major: float, minor: float, deflection: float) -> tuple[int, int]:
    """(segments of the centre circle's direction at the outer equator, of the tube) within
    deflection / 2 each."""
    return segments(major + minor, 0.5 * deflection), segments(minor, 0.5 * deflection)


def torus_tessellation(center, axis, major: float, minor: float, deflection: float):
    """A torus as a grid of (u: about its axis) x (v: about its tube) points, each cell two triangles."""
    F = _frame(axis)
    nu, nv = torus_segments(major, minor, deflection)
    u, v = np.meshgrid(2.0 * math.pi * np.arange(nu) / nu, 2.0 * math.pi * np.arange(nv) / nv, indexing="ij")
    rho = major + minor * np.cos(v)
    local = np.stack([rho * np.cos(u), rho * np.sin(u), minor * np.sin(v)], axis=-1).reshape(-1, 3)
    i, j = np.meshgrid(np.arange(nu), np.arange(nv), indexing="ij")
    a, b = i * nv + j, ((i + 1) % nu) * nv + j
    c, d = ((i + 1) % nu) * nv + (j + 1) % nv, i * nv + (j + 1) % nv
    T = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([a, c, d], -1).reshape(-1, 3)])
    return np.asarray(center, float) + local @ F.T, T.astype(np.int64)


# ----------------------------------------------------------------------------- shapes
def _unit(v) -> np.ndarray:
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def shape_count(shape, deflection: float, spacing: float) -> tuple[int, int]:
    """(vertices, triangles) of the tessellation of ``shape`` (a model Shape of :data:`TESSELLATED`)."""
    if shape.type in ("box", "face"):
        return 14, 24
    if shape.type == "cylinder":
        return revolution_count(shape.length, (shape.radius, shape.radius), deflection, spacing)
    if shape.type == "cone":
        return revolution_count(shape.length, (shape.radius1, shape.radius2), deflection, spacing)
    nu, nv = torus_segments(shape.major_radius, shape.minor_radius, deflection)
    return nu * nv, 2 * nu * nv


def shape_mesh(shape, deflection: float, spacing: float, path: str, pair: str) -> tuple[np.ndarray, np.ndarray]:
    """(vertices (n, 3) [m, body frame], triangles (m, 3)) of a box, face, cylinder, cone or torus
    (a model Shape), within ``deflection`` [m], a side along its axis in parts of at most ``spacing`` [m];
    ModelError naming the pair (``path``: the shape's JSON path) beyond the size limit, or for a
    torus whose tube is not thinner than its major radius (it has no closed surface of its own)."""
    what = f"contact '{pair}'"
    count, triangles = shape_count(shape, deflection, spacing)
    _checked(count, triangles, what, path)
    if shape.type == "box":
        return box_tessellation(shape.center, np.eye(3), shape.size)
    if shape.type == "face":
        n, u = _unit(shape.normal), _unit(shape.axis)
        axes = np.column_stack([u, np.cross(n, u), n])
        center = np.asarray(shape.center, float) - shape.depth * n
        return box_tessellation(center, axes, [shape.length, shape.width, 2.0 * shape.depth])
    if shape.type == "cylinder":
        radii = (shape.radius, shape.radius)
        return revolution_tessellation(shape.center, shape.axis, shape.length, radii, deflection, spacing)
    if shape.type == "cone":
        radii = (shape.radius1, shape.radius2)
        return revolution_tessellation(shape.center, shape.axis, shape.length, radii, deflection, spacing)
    if shape.minor_radius >= shape.major_radius:
        raise ModelError(
            f"{path}.minor_radius",
            f"{what}: a torus whose tube radius ({shape.minor_radius:g} m) is not below its major radius "
            f"({shape.major_radius:g} m) cannot be tessellated",
        )
    return torus_tessellation(shape.center, shape.axis, shape.major_radius, shape.minor_radius, deflection)


def smallest_size(shape, vertices: np.ndarray | None = None) -> float:
    """The smallest size [m] of a contact shape: a sphere's radius, a box's or a face's shortest edge
    (or depth), a cylinder's radius or length, a cone's length or larger radius, a torus's tube
    radius, a mesh's (``vertices``) shortest bounding-box edge; a plane: infinite."""
    sizes = {
        "sphere": lambda: [shape.radius],
        "box": lambda: list(shape.size),
        "face": lambda: [shape.length, shape.width, shape.depth],
        "cylinder": lambda: [shape.radius, shape.length],
        "cone": lambda: [shape.length, max(shape.radius1, shape.radius2)],
        "torus": lambda: [shape.minor_radius],
        "mesh": lambda: list(np.ptp(vertices, axis=0)),
    }.get(shape.type, lambda: [])()
    positive = [s for s in sizes if s > 0.0]
    return min(positive) if positive else math.inf
