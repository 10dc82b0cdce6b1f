"""Mesh contact shapes (docs/contact.md, "Mesh shapes"): a closed triangle mesh in its body's frame
[m], ``{"type": "mesh", "vertices": [[x, y, z], ...], "triangles": [[i, j, k], ...]}`` (the form
cad/contact_shapes.py writes from FreeCAD's tessellation).

Checks (:func:`check_mesh`, every error names the pair and the field): a closed surface (every
edge shared by exactly two triangles), no degenerate triangle, and a size within
:data:`MAX_MESH_POINTS` contact points (refused with the memory estimate).

Contact points (:func:`mesh_points`): a mesh meets an analytic shape at points fixed on its
surface, each one contact element of radius 0 against the other shape's exact signed distance
(a plane's, a sphere's, a box's or a cylinder's side). Against a plane the vertices suffice: the
deepest point of a polyhedron in a half-space is a vertex. Against a sphere, a box or a cylinder
the edges and faces are sampled too, with a spacing below :data:`SAMPLE_FRACTION` x the other
shape's smallest size (contacts.sample_spacing), so that the depth missed between samples stays
below spacing^2 / (8 R) (0.5 % of a sphere's or cylinder's R).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ModelError
from .fields import shown

MAX_MESH_POINTS = 200_000  # contact points per pair: one compiled contact element each
BYTES_PER_POINT = 264  # a contact element's 5 vectors, numbers and indices (system.ForceElement)
DEGENERATE_AREA = 1e-12  # a triangle's area below this fraction of the mesh's size squared: degenerate
SAMPLE_FRACTION = 0.2  # sample spacing against a sphere, box or cylinder: a fraction of its smallest size


def mesh_arrays(vertices: object, triangles: object, path: str, pair: str) -> tuple[np.ndarray, np.ndarray]:
    """(vertices (n, 3) [m], triangles (m, 3) int) of a JSON mesh, checked (:func:`check_mesh`)."""
    what = f"contact '{pair}'"
    try:
        V = np.asarray(vertices, dtype=float)
    except (TypeError, ValueError):
        raise ModelError(f"{path}.vertices", f"{what}: vertices must be a list of [x, y, z] numbers") from None
    if V.ndim != 2 or V.shape[1] != 3 or V.shape[0] < 4 or not np.isfinite(V).all():
        raise ModelError(f"{path}.vertices", f"{what}: at least 4 finite [x, y, z] vertices are needed, got {V.shape}")
    T = _triangle_indices(triangles, V.shape[0], path, what)
    check_mesh(V, T, path, what)
    return V, T


def _triangle_indices(triangles: object, n: int, path: str, what: str) -> np.ndarray:
    ok = isinstance(triangles, list) and all(
        isinstance(t, list) and len(t) == 3 and all(isinstance(i, int) and not isinstance(i, bool) for i in t)
        for t in triangles
    )
    if not ok or len(triangles) < 4:
        raise ModelError(f"{path}.triangles", f"{what}: at least 4 triangles [i, j, k] of vertex indices are needed")
    T = np.asarray(triangles, dtype=np.int64)
    bad = np.flatnonzero((T < 0).any(axis=1) | (T >= n).any(axis=1))
    if bad.size:
        raise ModelError(
            f"{path}.triangles[{bad[0]}]", f"{what}: vertex index out of range 0..{n - 1}: {shown(triangles[bad[0]])}"
        )
    return T


def check_mesh(V: np.ndarray, T: np.ndarray, path: str, what: str) -> None:
    """ModelError unless the mesh is within the size limit, has no degenerate triangle and is closed."""
    points = len(V)
    if points > MAX_MESH_POINTS or len(T) > 2 * MAX_MESH_POINTS:
        raise ModelError(f"{path}.triangles", f"{what}: {too_large(len(T), points)}")
    size = float(np.ptp(V, axis=0).max())
    area = 0.5 * np.linalg.norm(np.cross(V[T[:, 1]] - V[T[:, 0]], V[T[:, 2]] - V[T[:, 0]]), axis=1)
    flat = np.flatnonzero(area <= DEGENERATE_AREA * size**2)
    if flat.size:
        k = int(flat[0])
        raise ModelError(
            f"{path}.triangles[{k}]",
            f"{what}: triangle {k} {T[k].tolist()} is degenerate (area {area[k]:.3g} m^2); "
            f"{flat.size} degenerate triangle(s) in all",
        )
    edge, count = open_edges(T)
    if edge is not None:
        raise ModelError(
            f"{path}.triangles",
            f"{what}: the mesh is not closed: edge {edge} (vertices) is shared by {count} triangle(s), "
            "every edge of a closed solid by exactly 2",
        )


def too_large(triangles: int, points: int) -> str:
    """The refusal of a mesh beyond :data:`MAX_MESH_POINTS`, with its memory estimate."""
    mb = max(points, triangles // 2) * BYTES_PER_POINT / 2**20
    return (
        f"a mesh of {triangles} triangles and {points} vertices needs about {max(points, triangles // 2)} contact "
        f"points ({mb:.0f} MB), beyond the limit of {MAX_MESH_POINTS} ({MAX_MESH_POINTS * BYTES_PER_POINT / 2**20:.0f} "
        "MB): tessellate with a larger deflection"
    )


def open_edges(T: np.ndarray) -> tuple[list | None, int]:
    """(the first edge [i, j] not shared by exactly two triangles, its triangle count), or
    (None, 2) for a closed mesh."""
    edges = np.sort(np.concatenate([T[:, [0, 1]], T[:, [1, 2]], T[:, [2, 0]]]), axis=1)
    unique, counts = np.unique(edges, axis=0, return_counts=True)
    bad = np.flatnonzero(counts != 2)
    if bad.size:
        return unique[bad[0]].tolist(), int(counts[bad[0]])
    return None, 2


def mesh_points(V: np.ndarray, T: np.ndarray, spacing: float = math.inf) -> np.ndarray:
    """The contact points [m] of a mesh: its vertices, plus points on its edges and faces no
    farther than about ``spacing`` [m] apart (each edge divided into ceil(length / spacing) equal
    parts, each face a barycentric grid of m x m sub-triangles, m = ceil(longest edge /
    spacing)); infinite spacing: the vertices alone."""
    out = [np.asarray(V, dtype=float)]
    if not math.isfinite(spacing):
        return out[0]
    edges = np.unique(np.sort(np.concatenate([T[:, [0, 1]], T[:, [1, 2]], T[:, [2, 0]]]), axis=1), axis=0)
    for i, j in edges:
        m = int(math.ceil(np.linalg.norm(V[j] - V[i]) / spacing))
        out.append(V[i] + np.arange(1, m)[:, None] / m * (V[j] - V[i]))
    for tri in T:
        a, b, c = V[tri[0]], V[tri[1]], V[tri[2]]
        m = int(math.ceil(max(np.linalg.norm(b - a), np.linalg.norm(c - b), np.linalg.norm(a - c)) / spacing))
        w = np.array([(i / m, j / m) for i in range(1, m) for j in range(1, m - i)]).reshape(-1, 2)
        out.append(a + w[:, :1] * (b - a) + w[:, 1:] * (c - a))
    return np.concatenate(out)


def thickness(V: np.ndarray) -> float:
    """The smallest edge [m] of a mesh's bounding box in its body frame."""
    return float(np.ptp(V, axis=0).min())


def box_mesh(size: tuple, center: tuple = (0.0, 0.0, 0.0)) -> dict:
    """The JSON mesh of a box with edge lengths ``size`` [m] about ``center`` [m]: 8 vertices,
    12 triangles (outward)."""
    h = 0.5 * np.asarray(size, float)
    V = [np.asarray(center, float) + h * (sx, sy, sz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    T = [t for a, b, c, d in quads for t in ([a, b, c], [a, c, d])]
    return {"type": "mesh", "vertices": [v.tolist() for v in V], "triangles": T}


def sphere_mesh(radius: float, deflection: float, tilt: float = 0.0) -> dict:
    """The JSON mesh of a sphere of ``radius`` [m] about the origin, tessellated like a CAD
    kernel: latitude rings and meridians whose chords stay within ``deflection`` [m] of the
    sphere (vertices on it, poles on the z axis), turned by ``tilt`` [rad] about the x axis."""
    step = 2.0 * math.acos(max(-1.0, 1.0 - deflection / radius))  # the angle of a chord of that deflection
    n_lat = max(2, math.ceil(math.pi / step))
    n_lon = max(3, math.ceil(2.0 * math.pi / step))
    V = [(0.0, 0.0, radius)]
    for i in range(1, n_lat):
        th = math.pi * i / n_lat
        V += [(radius * math.sin(th) * math.cos(p), radius * math.sin(th) * math.sin(p), radius * math.cos(th))
              for p in 2.0 * math.pi * np.arange(n_lon) / n_lon]  # fmt: skip
    V.append((0.0, 0.0, -radius))
    ring = lambda i, j: 1 + (i - 1) * n_lon + j % n_lon  # noqa: E731
    south = len(V) - 1
    T = [[0, ring(1, j), ring(1, j + 1)] for j in range(n_lon)]
    for i in range(1, n_lat - 1):
        for j in range(n_lon):
            T += [[ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)], [ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)]]
    T += [[south, ring(n_lat - 1, j + 1), ring(n_lat - 1, j)] for j in range(n_lon)]
    c, s = math.cos(tilt), math.sin(tilt)
    R = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    return {"type": "mesh", "vertices": (np.asarray(V) @ R.T).tolist(), "triangles": T}
