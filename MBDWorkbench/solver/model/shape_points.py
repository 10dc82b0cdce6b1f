"""Contact points of the pairs (docs/contact.md): the :class:`ContactPoint` records a pair becomes,
one per contact element of numerics/contact_forces.py, their element vectors
(:func:`element_vectors`), the bounding sphere of a pair whose points share its law
(:func:`bounding_sphere`), their initial penetration (:func:`penetration`), and the points of
the pairs against a box, a cylinder's finite side, of a torus and of a cone (:func:`pair_points`).
Bounded faces' points (FACE) are made in contacts.py from :mod:`.face_shapes`.

A point's vectors are global [m] at the initial configuration; :func:`element_vectors` maps
them into the kernel's local coordinates of each side with the maps it is given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

# (read by kernels: defined once, there)
from ..numerics.contact_forces import BOX_BOX, MESH_MESH, SPHERE_CONE, TORUS_ARCS
from ..numerics.contact_geometry import box_edges_crossing, sphere_box, sphere_cone, sphere_torus
from .face_shapes import face_penetration

# the kinds of numerics.contact_forces (BOUND: a pair's bounding sphere; tests check they agree)
SPHERE_PLANE, SPHERE_SPHERE, DISC_PLANE, POINT_CYLINDER, BOUND = 0, 1, 2, 3, 4
POINT_BOX, POINT_SIDE, TORUS_PLANE, FACE, SPHERE_TORUS = 5, 6, 7, 8, 9
TORUS_KINDS = (TORUS_PLANE, SPHERE_TORUS)
VECTORS = 7  # local vectors of a force element (system.ForceElement.VECS)


@dataclass
class ContactPoint:
    """One contact element of a pair at the initial configuration, global [m]: the sphere (or box
    corner or mesh point, radius 0) on ``body_i``, the plane's point and outward normal or the other
    sphere's centre on ``body_j``; DISC_PLANE: a cylinder's slice or a cone's rim (centre,
    ``axis_i``) on the plane; POINT_CYLINDER: a sphere or slice against a cylinder's side (a point
    and ``normal_j`` its axis); POINT_BOX: against a box (its centre, ``normal_j`` and ``extra``
    its first two half axes, ``radius_j`` the third half extent); POINT_SIDE: against a finite
    cylinder's side (as POINT_CYLINDER, ``extra[0]`` its half length); TORUS_PLANE, SPHERE_TORUS:
    an arc of a torus (``point_i`` its centre, ``axis_i`` and ``extra`` the circle's half axes at
    the arc's middle, ``radius_i`` the tube's radius) against a plane or a sphere; FACE: a sphere or
    a slice (``axis_i``) against a bounded face (``face``: its centre, normal and half edges, from
    face_shapes.face_frame; ``radius_j`` its depth limit); BOX_BOX: a vertex of box i against box
    j (as POINT_BOX), a vertex of box j (``point_j``) against box i (``point_i`` its centre,
    ``frame_i`` its first two half axes, ``radius_j`` minus its third half extent) or an edge of
    each (``point_i``, ``frame_i`` and ``radius_i`` box i's centre, half axes A1, A2 and third half
    extent, ``point_j``, ``normal_j``, ``extra`` and ``-radius_j`` box j's; each edge at
    centre + A1 + A2 along A1 x A2: numerics/contact_solids.py); SPHERE_CONE: a sphere against a cone (``point_j`` its
    centre, ``normal_j`` its axis, ``extra`` its half length and two radii). ``shared``: the
    pair's points share its law behind a bounding sphere; ``bounds``: a BOUND's points' kind.
    MESH_MESH (model/mesh_pairs.py): a vertex of mesh i (``point_i``) or of mesh j (``point_j``),
    ``extra`` its raw vecs[2], ``depth`` its initial penetration [m]; an element of a mesh's data:
    ``face`` = (side 0 or 1, {slot: ("p" point, "v" vector or "r" raw, vector)}); a BOUND of its
    own ``count`` of elements."""

    kind: int
    body_i: str
    body_j: str
    point_i: np.ndarray
    point_j: np.ndarray
    normal_j: np.ndarray
    radius_i: float
    radius_j: float
    axis_i: np.ndarray = None
    shared: bool = False
    extra: np.ndarray = None
    bounds: int = -1
    face: tuple = None
    frame_i: tuple = None
    depth: float = None
    count: int = 0


def bounding_sphere(points: list[ContactPoint]) -> ContactPoint:
    """The BOUND element of a pair's points (numerics.contact_forces): a sphere about them, laid
    out as its points' kind (a sphere: a disc's axis and a torus arc's half axes set to 0)."""
    first, X = points[0], np.array([p.point_i for p in points])
    centre = 0.5 * (X.min(axis=0) + X.max(axis=0))
    reach = max(float(np.linalg.norm(p.axis_i)) if p.kind in TORUS_KINDS else 0.0 for p in points)
    radius = float(np.linalg.norm(X - centre, axis=1).max() + first.radius_i + reach) * (1.0 + 1e-9) + 1e-12
    zero = np.zeros(3)
    axis = zero if first.kind in (DISC_PLANE, *TORUS_KINDS) else first.axis_i
    extra = zero if first.kind in TORUS_KINDS else first.extra
    return replace(first, kind=BOUND, point_i=centre, radius_i=radius, axis_i=axis, extra=extra, bounds=first.kind)


def element_vectors(p: ContactPoint, point_i, point_j, vector_i, vector_j) -> tuple[np.ndarray, float]:
    """(the element's local vectors (VECTORS, 3), its number radius_j) of contact point ``p``
    (numerics.contact_forces' layout of its kind); ``point_i(x)``, ``vector_j(v)`` ...: a global
    point or vector at the initial configuration in side i's or j's kernel coordinates."""
    kind = p.bounds if p.kind == BOUND else p.kind
    if p.kind == MESH_MESH:
        return _mesh_vectors(p, (point_i, vector_i), (point_j, vector_j))
    vecs = np.zeros((VECTORS, 3))
    vecs[0], vecs[1], vecs[2] = point_i(p.point_i), point_j(p.point_j), vector_j(p.normal_j)
    radius_j = p.radius_j
    if kind in (DISC_PLANE, TORUS_PLANE):  # the plane as n . x = offset on side j
        radius_j = float(vecs[2] @ vecs[1])
    if kind == DISC_PLANE:
        vecs[1] = vector_i(p.axis_i)
    elif kind == POINT_BOX:
        vecs[4] = vector_j(p.extra)
    elif kind in (POINT_SIDE, SPHERE_CONE):  # numbers: a half length (and a cone's radii)
        vecs[4] = p.extra
    elif kind == BOX_BOX:
        vecs[4] = vector_j(p.extra)
        if p.frame_i is not None:
            vecs[5], vecs[6] = vector_i(p.frame_i[0]), vector_i(p.frame_i[1])
    elif kind in TORUS_KINDS:
        if kind == SPHERE_TORUS:
            vecs[2] = vecs[1]
        vecs[1], vecs[4] = vector_i(p.axis_i), vector_i(p.extra)
    elif kind == FACE:  # the slice's axis (0: a sphere), the face's centre and half edges
        vecs[1] = 0.0 if p.axis_i is None else vector_i(p.axis_i)
        vecs[4], vecs[5], vecs[6] = point_j(p.face[0]), vector_j(p.face[2]), vector_j(p.face[3])
    return vecs, radius_j


def _mesh_vectors(p: ContactPoint, maps_i: tuple, maps_j: tuple) -> tuple[np.ndarray, float]:
    """element_vectors of a MESH_MESH vertex or mesh data element (maps: (point, vector) of a side)."""
    vecs = np.zeros((VECTORS, 3))
    if p.face is None:  # a vertex: its point on side i and on side j, its raw numbers
        vecs[0], vecs[1], vecs[2] = maps_i[0](p.point_i), maps_j[0](p.point_j), p.extra
        return vecs, 0.0
    maps = maps_i if p.face[0] == 0 else maps_j
    for slot, (what, v) in p.face[1].items():
        vecs[slot] = maps[0](v) if what == "p" else (maps[1](v) if what == "v" else v)
    return vecs, 0.0


# ----------------------------------------------------------------------------- penetration
def penetration(p: ContactPoint) -> float:
    """The penetration [m] of a contact point in its initial configuration (negative: the gap)."""
    if p.depth is not None:  # a MESH_MESH element's (model/mesh_pairs.py)
        return p.depth
    if p.kind == SPHERE_PLANE:
        return p.radius_i - float(p.normal_j @ (p.point_i - p.point_j))
    if p.kind == DISC_PLANE:  # the slice's rim point nearest the plane
        rim = p.normal_j - float(p.normal_j @ p.axis_i) * p.axis_i
        return p.radius_i * float(np.linalg.norm(rim)) - float(p.normal_j @ (p.point_i - p.point_j))
    if p.kind == FACE:
        return face_penetration(p.point_i, p.radius_i, p.axis_i, p.face, p.radius_j)
    if p.kind == POINT_CYLINDER:
        g = p.point_i - p.point_j
        return p.radius_i + p.radius_j - float(np.linalg.norm(g - float(g @ p.normal_j) * p.normal_j))
    if p.kind == POINT_BOX or (p.kind == BOX_BOX and p.radius_j > 0.0):
        axes = np.column_stack([p.normal_j, p.extra, np.cross(_unit(p.normal_j), _unit(p.extra)) * p.radius_j])
        half = np.linalg.norm(axes, axis=0)
        return -sphere_box(p.point_i, p.radius_i, p.point_j, axes / half, half).distance
    if p.kind == BOX_BOX and p.radius_i > 0.0:  # an edge of each
        return box_edges_crossing(p.point_i, *p.frame_i, p.radius_i, p.point_j, p.normal_j, p.extra, -p.radius_j)
    if p.kind == BOX_BOX:  # a vertex of box j in box i
        a1, a2 = p.frame_i
        axes = np.column_stack([a1, a2, np.cross(_unit(a1), _unit(a2)) * -p.radius_j])
        half = np.linalg.norm(axes, axis=0)
        return -sphere_box(p.point_j, 0.0, p.point_i, axes / half, half).distance
    if p.kind == SPHERE_CONE:
        half, r1, r2 = p.extra
        return -sphere_cone(p.point_i, p.radius_i, p.point_j, p.normal_j, half, r1, r2).distance
    if p.kind == POINT_SIDE:
        return p.radius_i - side_distance(p.point_i - p.point_j, p.normal_j, p.radius_j, p.extra[0])
    if p.kind in TORUS_KINDS:  # the whole circle's nearest point: the deepest of its arcs
        R, u = float(np.linalg.norm(p.axis_i)), _unit(np.cross(p.axis_i, p.extra))
        if p.kind == SPHERE_TORUS:
            return -sphere_torus(p.point_j, p.radius_j, p.point_i, u, R, p.radius_i).distance
        tilt = math.sqrt(max(0.0, 1.0 - float(p.normal_j @ u) ** 2))
        return p.radius_i + R * tilt - float(p.normal_j @ (p.point_i - p.point_j))
    return p.radius_i + p.radius_j - float(np.linalg.norm(p.point_i - p.point_j))


def side_distance(g: np.ndarray, axis: np.ndarray, radius: float, half_length: float) -> float:
    """Signed distance [m] of the point g [m, from the axis's middle] to a finite cylinder's side
    (numerics.contact_forces._side_distance): rho - radius within its length; beyond an end, the
    distance to the solid cylinder."""
    s = float(g @ axis)
    rho = float(np.linalg.norm(g - s * axis))
    beyond = max(0.0, abs(s) - half_length)
    if beyond == 0.0:
        return rho - radius
    return math.hypot(max(0.0, rho - radius), beyond)


def _unit(v) -> np.ndarray:
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def perpendicular(u: np.ndarray) -> np.ndarray:
    """A unit vector normal to the unit vector u."""
    e = np.eye(3)[int(np.argmin(np.abs(u)))]
    return _unit(e - float(e @ u) * u)


# ----------------------------------------------------------------------------- pairs
def pair_points(body_i: str, first, body_j: str, second, poses: tuple, centres=None) -> list[ContactPoint]:
    """The contact points of a pair against a box or a cylinder's finite side (``centres`` [m, body
    frame]: a mesh's points, radius 0; else ``first`` is a sphere or a box), of a torus on a plane
    or a sphere, of a cone on a plane, of a sphere on a cone; ``poses``: the initial (position [m],
    rotation) of the two bodies' frames. first/second: model Shapes in the order of contacts.PAIRS."""
    (r_i, A_i), (r_j, A_j) = poses
    shared = centres is not None
    if not shared and first.type == "torus":
        return _torus_points(body_i, first, body_j, second, poses)
    if not shared and first.type == "cone":
        return _cone_points(body_i, first, body_j, second, poses)
    if not shared and first.type == "box":
        return _box_box_points(body_i, first, body_j, second, poses)
    if not shared and second.type == "cone":
        return [_sphere_cone_point(body_i, first, body_j, second, poses)]
    if centres is None:
        centres, radius = [np.asarray(first.center, float)], first.radius
    else:
        radius = 0.0
    X = [r_i + A_i @ np.asarray(x, float) for x in centres]
    centre_j = r_j + A_j @ np.asarray(second.center, float)
    if second.type == "box":
        h = 0.5 * np.asarray(second.size, float)
        a1, a2 = A_j[:, 0] * h[0], A_j[:, 1] * h[1]
        return [ContactPoint(POINT_BOX, body_i, body_j, x, centre_j, a1, radius, h[2], None, shared, a2) for x in X]
    u, extra = A_j @ _unit(second.axis), np.array([0.5 * second.length, 0.0, 0.0])
    return [
        ContactPoint(POINT_SIDE, body_i, body_j, x, centre_j, u, radius, second.radius, None, shared, extra) for x in X
    ]


def _torus_points(body_i, torus, body_j, other, poses) -> list[ContactPoint]:
    """TORUS_ARCS arcs of a torus's centre circle, each one point against a plane or a sphere."""
    (r_i, A_i), (r_j, A_j) = poses
    c, u = r_i + A_i @ np.asarray(torus.center, float), A_i @ _unit(torus.axis)
    a0 = perpendicular(u)
    b0 = np.cross(u, a0)
    if other.type == "plane":
        kind, q, n, r_b = TORUS_PLANE, r_j + A_j @ np.asarray(other.point, float), A_j @ _unit(other.normal), 0.0
    else:
        kind, q, n, r_b = SPHERE_TORUS, r_j + A_j @ np.asarray(other.center, float), np.zeros(3), other.radius
    out = []
    for k in range(TORUS_ARCS):
        f = 2.0 * math.pi * k / TORUS_ARCS
        a = torus.major_radius * (math.cos(f) * a0 + math.sin(f) * b0)
        b = np.cross(u, a)
        out.append(ContactPoint(kind, body_i, body_j, c, q, n, torus.minor_radius, r_b, a, True, b))
    return out


def _cone_points(body_i, cone, body_j, plane, poses) -> list[ContactPoint]:
    """A cone's two end rims (a radius 0: its apex), each one DISC_PLANE point on the plane: the
    deepest point of a cone in a half-space lies on one of them."""
    (r_i, A_i), (r_j, A_j) = poses
    c, u = r_i + A_i @ np.asarray(cone.center, float), A_i @ _unit(cone.axis)
    q, n = r_j + A_j @ np.asarray(plane.point, float), A_j @ _unit(plane.normal)
    ends = ((-0.5, cone.radius1), (0.5, cone.radius2))
    return [ContactPoint(DISC_PLANE, body_i, body_j, c + s * cone.length * u, q, n, r, 0.0, u, True) for s, r in ends]


def _box_frame(box, pose: tuple) -> tuple[np.ndarray, np.ndarray]:
    """(centre [m], half axes as columns [m]) of a box, global."""
    r, A = pose
    return r + A @ np.asarray(box.center, float), A * (0.5 * np.asarray(box.size, float))


def _box_edges(H: np.ndarray) -> list[tuple]:
    """(A1, A2, h3) of each of the 12 edges of the box of half axes H (columns): the edge at
    centre + A1 + A2 along A1 x A2, h3 [m] its half length."""
    h = np.linalg.norm(H, axis=0)
    out = []
    for a in range(3):
        b, e = (a + 1) % 3, (a + 2) % 3
        out += [(sb * H[:, b], se * H[:, e], float(h[a])) for sb in (-1.0, 1.0) for se in (-1.0, 1.0)]
    return out


def _box_box_points(body_i, box_i, body_j, box_j, poses) -> list[ContactPoint]:
    """BOX_BOX points: the 8 vertices of each box against the other, and the 144 pairs of their
    edges (an edge crossing counts where the edges cross: numerics/contact_solids.py)."""
    (c_i, H_i), (c_j, H_j) = _box_frame(box_i, poses[0]), _box_frame(box_j, poses[1])
    signs = [np.array([sx, sy, sz]) for sx in (-1.0, 1.0) for sy in (-1.0, 1.0) for sz in (-1.0, 1.0)]
    h3_i, h3_j, zero = float(np.linalg.norm(H_i[:, 2])), float(np.linalg.norm(H_j[:, 2])), np.zeros(3)
    out = [
        ContactPoint(BOX_BOX, body_i, body_j, c_i + H_i @ s, c_j, H_j[:, 0], 0.0, h3_j, None, True, H_j[:, 1])
        for s in signs
    ]
    out += [
        ContactPoint(BOX_BOX, body_i, body_j, c_i, c_j + H_j @ s, zero, 0.0, -h3_i, None, True, zero,
                     frame_i=(H_i[:, 0], H_i[:, 1]))
        for s in signs
    ]  # fmt: skip
    for a1, a2, h_i in _box_edges(H_i):
        out += [
            ContactPoint(BOX_BOX, body_i, body_j, c_i, c_j, b1, h_i, -h_j, None, True, b2, frame_i=(a1, a2))
            for b1, b2, h_j in _box_edges(H_j)
        ]
    return out


def _sphere_cone_point(body_i, sphere, body_j, cone, poses) -> ContactPoint:
    """The SPHERE_CONE point of a sphere against a cone."""
    (r_i, A_i), (r_j, A_j) = poses
    c, q = r_i + A_i @ np.asarray(sphere.center, float), r_j + A_j @ np.asarray(cone.center, float)
    extra = np.array([0.5 * cone.length, cone.radius1, cone.radius2])
    u = A_j @ _unit(cone.axis)
    return ContactPoint(SPHERE_CONE, body_i, body_j, c, q, u, sphere.radius, 0.0, None, False, extra)
