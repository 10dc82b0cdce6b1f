"""Mesh against mesh (docs/contact.md, "Mesh against mesh"): the contact elements of a pair of two
closed triangle meshes, and python-fcl, the collision library that checks the pair before the run.

Each vertex of either mesh is a contact point (MESH_MESH, numerics/contact_forces.py) against the
other mesh's signed distance (numerics/mesh_distance.py), with the normal of the other mesh's
nearest feature; the points of both directions share the pair's law (patch_scale) behind one
BOUND (the two meshes' bounding spheres, also the broad phase's proxies). Each mesh is packed
after the points as a sphere tree and its triangles (:func:`mesh_data`) behind a second BOUND that
is always apart, so that the force loop skips them at no cost.

Before the run python-fcl gives the pair's initial gap (its BVH distance: exact between the two
meshes, the tunnelling check's gap) or, where the meshes collide, the depth is the deepest vertex
of either mesh inside the other (fcl's own penetration depth does not converge to it,
bench/results/contact_libraries.md). python-fcl is not a Debian package: it lives in the
git-ignored ``.venv-contact`` that ``bash tools/contact_venv.sh`` makes (tools/setup.sh runs it),
found by :func:`collision_library` from any Python, FreeCAD's included.
"""

from __future__ import annotations

import glob
import hashlib
import math
import os
import sys

import numpy as np

from ..errors import ModelError
from ..numerics.contact_forces import MESH_DATA_GAP
from ..numerics.mesh_distance import signed_distances
from .shape_points import BOUND, MESH_MESH, VECTORS, ContactPoint

VENV = ".venv-contact"
INSTALL = "bash tools/contact_venv.sh"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))))
CREASE = math.radians(60.0)  # faces meeting at a larger angle are not smoothed across (a box's edges)
KEPT = 8  # meshes whose data mesh_data keeps
_KEPT: dict = {}
CUTOFF_FRACTION = 0.05  # a vertex farther than this fraction of the thinner mesh from the other: apart


def site_packages(root: str = ROOT) -> list[str]:
    """The site-packages folders of ``root``/.venv-contact for this Python's version."""
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    return sorted(glob.glob(os.path.join(root, VENV, "lib*", version, "site-packages")))


def collision_library(pair: str, root: str | None = None):
    """The module ``fcl`` (python-fcl), imported from the system or from the site-packages of
    .venv-contact under ``root`` (default: this checkout, :data:`ROOT`), put on sys.path; ModelError
    naming the pair and the install command if absent."""
    root = root or ROOT
    for attempt in range(2):
        try:
            import fcl

            return fcl
        except ImportError:
            if attempt == 0:
                sys.path.extend(p for p in site_packages(root) if p not in sys.path)
    raise ModelError(
        f"contact '{pair}'",
        f"contact '{pair}': a mesh against a mesh needs the collision library python-fcl, not found (nor in "
        f"{os.path.join(root, VENV)}): install it with `{INSTALL}` in {root}",
    )


# ----------------------------------------------------------------------------- the mesh's data
def pseudonormals(V: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, dict, np.ndarray]:
    """(face unit normals (m, 3), {edge (i, j), i < j: the sum of its two faces' normals}, angle
    weighted unit vertex normals (n, 3)) of a closed mesh [Baerentzen and Aanaes 2005]."""
    e1, e2 = V[T[:, 1]] - V[T[:, 0]], V[T[:, 2]] - V[T[:, 0]]
    faces = np.cross(e1, e2)
    faces /= np.linalg.norm(faces, axis=1)[:, None]
    edges: dict = {}
    vertex = np.zeros_like(V)
    for t, tri in enumerate(T):
        for m in range(3):
            i, j, k = tri[m], tri[(m + 1) % 3], tri[(m + 2) % 3]
            key = (min(i, j), max(i, j))
            edges[key] = edges.get(key, 0.0) + faces[t]
            u, w = V[j] - V[i], V[k] - V[i]
            angle = math.atan2(np.linalg.norm(np.cross(u, w)), float(u @ w))
            vertex[i] += angle * faces[t]
    return faces, edges, vertex / np.linalg.norm(vertex, axis=1)[:, None]


def corner_normals(V: np.ndarray, T: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """(m, 3, 3): at each corner of each triangle, the unit normal of its vertex over the faces there
    whose normals lie within :data:`CREASE` of the triangle's own (angle weighted)."""
    e = [V[np.roll(T, -1, axis=1)] - V[T], V[np.roll(T, 1, axis=1)] - V[T]]  # (m, 3, 3): corner edges
    angle = np.arctan2(np.linalg.norm(np.cross(e[0], e[1]), axis=2), np.einsum("ijk,ijk->ij", e[0], e[1]))
    at: dict = {}
    for t, tri in enumerate(T):
        for m in range(3):
            at.setdefault(int(tri[m]), []).append((t, m))
    out = np.zeros((len(T), 3, 3))
    for t, tri in enumerate(T):
        for m in range(3):
            n = sum(angle[f, k] * faces[f] for f, k in at[int(tri[m])] if faces[f] @ faces[t] >= math.cos(CREASE))
            out[t, m] = n / np.linalg.norm(n)
    return out


def _tree(centroids: np.ndarray, index: np.ndarray, nodes: list) -> int:
    """Append the nodes of a median-split tree over triangles ``index`` (depth first); returns the
    node's position. A node: [first child, second child, triangle] (-1: none)."""
    at = len(nodes)
    nodes.append([-1, -1, int(index[0]) if len(index) == 1 else -1])
    if len(index) > 1:
        axis = int(np.argmax(np.ptp(centroids[index], axis=0)))
        order = index[np.argsort(centroids[index, axis], kind="stable")]
        half = len(order) // 2
        nodes[at][0] = _tree(centroids, order[:half], nodes)
        nodes[at][1] = _tree(centroids, order[half:], nodes)
    return at


def _sphere(V: np.ndarray, T: np.ndarray, nodes: list, n: int, spheres: dict) -> tuple:
    """The bounding sphere (centre, radius) [m] of node n's triangles (its children's first)."""
    first, second, t = nodes[n]
    X = V[T[t]] if t >= 0 else V[np.unique(T[_leaves(nodes, n)].ravel())]
    if t < 0:
        _sphere(V, T, nodes, first, spheres), _sphere(V, T, nodes, second, spheres)
    centre = 0.5 * (X.min(axis=0) + X.max(axis=0))
    spheres[n] = centre, float(np.linalg.norm(X - centre, axis=1).max()) * (1.0 + 1e-9) + 1e-12
    return spheres[n]


def _leaves(nodes: list, n: int) -> list[int]:
    first, second, t = nodes[n]
    return [t] if t >= 0 else _leaves(nodes, first) + _leaves(nodes, second)


def mesh_data(V: np.ndarray, T: np.ndarray) -> list[dict]:
    """The elements {slot: (what, vector)} of a mesh (vertices V [m], global) for
    numerics/mesh_distance.py: its sphere-tree nodes (the root first), then three per triangle.
    Kept for the last :data:`KEPT` meshes (a model's check, its run's checks and its System each
    ask for its pairs' elements: about 1 s of Python per 5000 triangles)."""
    key = hashlib.sha1(np.ascontiguousarray(V, float).tobytes() + np.ascontiguousarray(T, np.int64).tobytes()).digest()
    if key not in _KEPT:
        while len(_KEPT) >= KEPT:
            _KEPT.pop(next(iter(_KEPT)))
        _KEPT[key] = _mesh_data(V, T)
    return _KEPT[key]


def _mesh_data(V: np.ndarray, T: np.ndarray) -> list[dict]:
    faces, edges, vertex = pseudonormals(V, T)
    nodes: list = []
    _tree(V[T].mean(axis=1), np.arange(len(T)), nodes)
    spheres: dict = {}
    _sphere(V, T, nodes, 0, spheres)
    out = []
    tri_at = len(nodes)  # the elements of triangle t: tri_at + 3 t .. tri_at + 3 t + 2
    corners = corner_normals(V, T, faces)
    for n, (first, second, t) in enumerate(nodes):
        centre, radius = spheres[n]
        links = (radius, first - n, second - n) if t < 0 else (radius, 0.0, 0.0)
        out.append({0: ("p", centre), 1: ("r", links), 2: ("r", (tri_at + 3 * t - n if t >= 0 else 0, 0.0, 0.0))})
    for t, (a, b, c) in enumerate(T):
        e = [edges[(min(u, w), max(u, w))] for u, w in ((a, b), (b, c), (c, a))]
        out.append({0: ("p", V[a]), 1: ("p", V[b]), 2: ("p", V[c]), 4: ("v", faces[t]), 5: ("v", e[0]), 6: ("v", e[1])})
        out.append({0: ("v", e[2]), 1: ("v", vertex[a]), 2: ("v", vertex[b]), 4: ("v", vertex[c])})
        out.append({0: ("v", corners[t, 0]), 1: ("v", corners[t, 1]), 2: ("v", corners[t, 2])})
    return [{s: (what, np.asarray(v, float)) for s, (what, v) in d.items()} for d in out]


def data_array(data: list[dict]) -> np.ndarray:
    """The element vectors (len(data), VECTORS, 3) of a mesh's data in the coordinates it was made in."""
    vecs = np.zeros((len(data), VECTORS, 3))
    for e, d in enumerate(data):
        for slot, (_, v) in d.items():
            vecs[e, slot] = v
    return vecs


# ----------------------------------------------------------------------------- the pair
def mesh_pair_points(pair: str, mesh_i: tuple, mesh_j: tuple) -> list[ContactPoint]:
    """The elements of a mesh-mesh pair: [BOUND, vertices of mesh i, vertices of mesh j, BOUND of the
    data, the data of mesh j, then of mesh i]; ``mesh_i``, ``mesh_j``: (body, vertices (n, 3) [m,
    global at the initial configuration], triangles). ModelError without python-fcl."""
    fcl = collision_library(pair)
    (body_i, V_i, T_i), (body_j, V_j, T_j) = mesh_i, mesh_j
    data_j, data_i = mesh_data(V_j, T_j), mesh_data(V_i, T_i)
    cutoff = CUTOFF_FRACTION * min(float(np.ptp(V_i, axis=0).min()), float(np.ptp(V_j, axis=0).min()))
    n_points = len(V_i) + len(V_j)
    root_j, root_i = n_points + 2, n_points + 2 + len(data_j)  # positions: BOUND, points, BOUND of the data
    depth_i, depth_j = initial_depths(fcl, (V_i, T_i, data_i), (V_j, T_j, data_j))
    zero = np.zeros(3)

    def vertex(e: int, x: np.ndarray, reverse: bool, depth: float) -> ContactPoint:
        raw = np.array([(root_i if reverse else root_j) - e, float(reverse), cutoff])
        at_i, at_j = (zero, x) if reverse else (x, zero)
        return ContactPoint(MESH_MESH, body_i, body_j, at_i, at_j, zero, 0.0, 0.0, extra=raw, depth=depth)

    points = [vertex(1 + e, x, False, float(d)) for e, (x, d) in enumerate(zip(V_i, depth_i))]
    points += [vertex(1 + len(V_i) + e, x, True, float(d)) for e, (x, d) in enumerate(zip(V_j, depth_j))]
    spheres = [_bounds(V_i), _bounds(V_j)]
    bound = ContactPoint(BOUND, body_i, body_j, spheres[0][0], spheres[1][0], zero, spheres[0][1], spheres[1][1])
    bound.bounds, bound.count, bound.depth = MESH_MESH, n_points, -math.inf
    hidden = ContactPoint(BOUND, body_i, body_j, zero, zero, zero, -1.0, 0.0, bounds=MESH_MESH, depth=-math.inf)
    hidden.count = len(data_i) + len(data_j)
    data = [(1, d) for d in data_j] + [(0, d) for d in data_i]
    return [bound, *points, hidden] + [
        ContactPoint(MESH_MESH, body_i, body_j, zero, zero, zero, -1.0, 0.0, face=d, depth=-MESH_DATA_GAP) for d in data
    ]


def _bounds(V: np.ndarray) -> tuple[np.ndarray, float]:
    centre = 0.5 * (V.min(axis=0) + V.max(axis=0))
    return centre, float(np.linalg.norm(V - centre, axis=1).max()) * (1.0 + 1e-9) + 1e-12


def initial_depths(fcl, mesh_i: tuple, mesh_j: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The initial penetration [m] of every vertex of mesh i into mesh j and of mesh j into mesh i
    (V, T, data: global [m]): all minus the meshes' gap (python-fcl's BVH distance) where they are
    apart, else each vertex's depth below the other mesh (numerics/mesh_distance.py, without the
    run's cutoff: however deep)."""
    gap = fcl_distance(fcl, mesh_i[:2], mesh_j[:2])
    if gap > 0.0:
        return np.full(len(mesh_i[0]), -gap), np.full(len(mesh_j[0]), -gap)
    into_j = -signed_distances(data_array(mesh_j[2]), 0, np.ascontiguousarray(mesh_i[0]), math.inf)
    into_i = -signed_distances(data_array(mesh_i[2]), 0, np.ascontiguousarray(mesh_j[0]), math.inf)
    return into_j, into_i


def fcl_distance(fcl, mesh_a: tuple, mesh_b: tuple) -> float:
    """python-fcl's distance [m] between two meshes (V global [m], T); 0 or less where they collide."""
    objects = []
    for V, T in (mesh_a, mesh_b):
        model = fcl.BVHModel()
        model.beginModel(len(V), len(T))
        model.addSubModel(np.asarray(V, float), np.asarray(T, np.int32))
        model.endModel()
        objects.append(fcl.CollisionObject(model, fcl.Transform()))
    if fcl.collide(*objects, fcl.CollisionRequest(), fcl.CollisionResult()):
        return 0.0
    return float(fcl.distance(*objects, fcl.DistanceRequest(), fcl.DistanceResult()))
