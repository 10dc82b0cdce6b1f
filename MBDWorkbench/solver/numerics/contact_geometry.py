"""Closest points and penetration of analytic shape pairs (issue 33, item 2).

Every function returns a :class:`Contact` for shapes ``a`` and ``b`` given in one frame (SI, m):

* ``distance`` [m]: the signed gap, negative when the shapes overlap (then minus the
  penetration depth along ``normal``);
* ``normal``: unit vector from ``a`` towards ``b`` (the direction in which ``b`` would move to
  separate);
* ``point_a`` / ``point_b`` [m]: the witness points on the surfaces of ``a`` and ``b``, with
  ``point_b - point_a == distance * normal``.

A plane is the boundary of the half-space solid below it: ``point`` on it and the outward unit
``normal``. Cylinders are bounded by their end discs unless the function says otherwise.
FreeCAD-free; the CAD side (``cad/contact_shapes.py``) supplies the parameters.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .contact_solids import CONE_SLACK, PARALLEL_EDGES

_FALLBACK_NORMAL = np.array([0.0, 0.0, 1.0])  # for coincident centres, where no direction is defined


class Contact(NamedTuple):
    """Signed distance [m], unit normal from a to b, witness points on a and on b [m]."""

    distance: float
    normal: np.ndarray
    point_a: np.ndarray
    point_b: np.ndarray


def _unit(vector: np.ndarray, what: str) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    if norm < 1e-300 or not np.isfinite(norm):
        raise ValueError(f"{what} must be a finite non-zero vector, got {vector}")
    return np.asarray(vector, dtype=float) / norm


def _direction(vector: np.ndarray) -> np.ndarray:
    """Unit vector along ``vector``, or the fixed fallback where it vanishes."""
    norm = float(np.linalg.norm(vector))
    return _FALLBACK_NORMAL.copy() if norm < 1e-15 else vector / norm


def _perpendicular_part(vector: np.ndarray, axis: np.ndarray) -> np.ndarray:
    return vector - float(np.dot(vector, axis)) * axis


def sphere_plane(center: np.ndarray, radius: float, plane_point: np.ndarray, plane_normal: np.ndarray) -> Contact:
    """Sphere ``a`` (centre, radius [m]) against the half-space ``b`` below a plane."""
    n = _unit(plane_normal, "plane normal")
    c = np.asarray(center, dtype=float)
    height = float(np.dot(c - plane_point, n))
    return Contact(height - radius, -n, c - radius * n, c - height * n)


def sphere_sphere(center_a: np.ndarray, radius_a: float, center_b: np.ndarray, radius_b: float) -> Contact:
    """Two spheres; coincident centres take the +z normal."""
    ca, cb = np.asarray(center_a, dtype=float), np.asarray(center_b, dtype=float)
    n = _direction(cb - ca)
    gap = float(np.linalg.norm(cb - ca)) - radius_a - radius_b
    return Contact(gap, n, ca + radius_a * n, cb - radius_b * n)


def sphere_cylinder_side(
    center: np.ndarray, radius: float, axis_point: np.ndarray, axis: np.ndarray, cylinder_radius: float
) -> Contact:
    """Sphere ``a`` outside the lateral surface of an unbounded cylinder ``b`` (a long pin or
    roller): the sphere's centre must lie within the cylinder's length, which the caller checks."""
    u = _unit(axis, "cylinder axis")
    c = np.asarray(center, dtype=float)
    foot = axis_point + float(np.dot(c - axis_point, u)) * u
    outward = _direction(_perpendicular_part(c - foot, u))
    gap = float(np.linalg.norm(c - foot)) - radius - cylinder_radius
    return Contact(gap, -outward, c - radius * outward, foot + cylinder_radius * outward)


def parallel_cylinders(
    axis_point_a: np.ndarray,
    radius_a: float,
    axis_point_b: np.ndarray,
    radius_b: float,
    axis: np.ndarray,
    inside: bool = False,
) -> Contact:
    """Two cylinders with parallel axes (line contact: roller on a circular cam, pin in a hole).

    ``inside=False``: both solid, touching from outside. ``inside=True``: ``a`` is a hole (bore of
    radius ``radius_a`` in the solid ``a``) and ``b`` a pin in it. The points lie in the plane
    normal to ``axis`` through ``axis_point_b``; the contact line runs along ``axis`` through them.
    """
    u = _unit(axis, "cylinder axis")
    pa, pb = np.asarray(axis_point_a, dtype=float), np.asarray(axis_point_b, dtype=float)
    offset = _perpendicular_part(pb - pa, u)
    centre_a = pb - offset  # axis of a, in b's plane
    n = _direction(offset)
    eccentricity = float(np.linalg.norm(offset))
    if not inside:
        gap = eccentricity - radius_a - radius_b
        return Contact(gap, n, centre_a + radius_a * n, pb - radius_b * n)
    gap = radius_a - radius_b - eccentricity
    return Contact(gap, -n, centre_a + radius_a * n, pb + radius_b * n)


def cylinder_plane(
    center: np.ndarray,
    axis: np.ndarray,
    radius: float,
    half_length: float,
    plane_point: np.ndarray,
    plane_normal: np.ndarray,
) -> tuple[Contact, Contact]:
    """Finite cylinder ``a`` (centre, axis, radius, half length [m]) on the half-space ``b``.

    Returns the contacts of the lowest points of the two end rims. With the axis parallel to the
    plane both have the same distance and span the contact line; tilted, the first is the deeper.
    """
    n = _unit(plane_normal, "plane normal")
    u = _unit(axis, "cylinder axis")
    c = np.asarray(center, dtype=float)
    down = -_direction(_perpendicular_part(n, u)) if abs(float(np.dot(n, u))) < 1.0 - 1e-15 else np.zeros(3)
    contacts = []
    for end in (c + half_length * u, c - half_length * u):
        low = end + radius * down
        height = float(np.dot(low - plane_point, n))
        contacts.append(Contact(height, -n, low, low - height * n))
    contacts.sort(key=lambda contact: contact.distance)
    return contacts[0], contacts[1]


def sphere_box(
    center: np.ndarray, radius: float, box_center: np.ndarray, box_rotation: np.ndarray, half_extents: np.ndarray
) -> Contact:
    """Sphere ``a`` against a box ``b`` (centre, rotation matrix box->frame, half extents [m])."""
    rotation = np.asarray(box_rotation, dtype=float)
    half = np.asarray(half_extents, dtype=float)
    local = rotation.T @ (np.asarray(center, dtype=float) - box_center)
    clamped = np.clip(local, -half, half)
    if np.any(clamped != local):  # centre outside the box: the clamped point is the closest
        n_local = _direction(clamped - local)
        gap = float(np.linalg.norm(clamped - local)) - radius
        surface = clamped
    else:  # centre inside: leave through the nearest face
        depth_to_faces = half - np.abs(local)
        k = int(np.argmin(depth_to_faces))
        n_local = np.zeros(3)
        n_local[k] = -1.0 if local[k] >= 0.0 else 1.0
        surface = local.copy()
        surface[k] = -n_local[k] * half[k]
        gap = -float(depth_to_faces[k]) - radius
    n = rotation @ n_local
    c = np.asarray(center, dtype=float)
    return Contact(gap, n, c + radius * n, box_center + rotation @ surface)


def sphere_torus(
    center: np.ndarray,
    radius: float,
    torus_center: np.ndarray,
    axis: np.ndarray,
    major_radius: float,
    minor_radius: float,
) -> Contact:
    """Sphere ``a`` outside a torus ``b`` (a ball on a ring, a ball in an O-ring groove's
    counterpart): the nearest point of the torus's centre circle makes it a sphere-sphere pair.
    A centre on the torus axis has no unique nearest point; the +x side of the axis is taken."""
    u = _unit(axis, "torus axis")
    c = np.asarray(center, dtype=float)
    in_plane = _perpendicular_part(c - torus_center, u)
    if float(np.linalg.norm(in_plane)) < 1e-15:
        in_plane = _perpendicular_part(np.array([1.0, 0.0, 0.0]), u)
        if float(np.linalg.norm(in_plane)) < 1e-12:
            in_plane = _perpendicular_part(np.array([0.0, 1.0, 0.0]), u)
    circle_point = torus_center + major_radius * in_plane / np.linalg.norm(in_plane)
    return sphere_sphere(c, radius, circle_point, minor_radius)


def points_plane(points: np.ndarray, plane_point: np.ndarray, plane_normal: np.ndarray) -> np.ndarray:
    """Signed heights [m] of ``points`` (N x 3) above a plane: the vertex contacts of a
    polyhedron (a box landing on a floor) are those with negative height."""
    n = _unit(plane_normal, "plane normal")
    return (np.asarray(points, dtype=float) - plane_point) @ n


def sphere_cone(
    center: np.ndarray,
    radius: float,
    cone_center: np.ndarray,
    axis: np.ndarray,
    half_length: float,
    radius1: float,
    radius2: float,
) -> Contact:
    """Sphere ``a`` against a solid cone or frustum ``b`` (the middle of its axis segment, unit axis,
    half length, radius1 at -half_length, radius2 at +half_length [m]): the nearest point of its
    side, a rim or a cap, in the meridian plane through the sphere's centre (a centre on the axis:
    any meridian)."""
    u = _unit(axis, "cone axis")
    g = np.asarray(center, dtype=float) - cone_center
    s = float(g @ u)
    radial = _perpendicular_part(g, u)
    w = float(np.linalg.norm(radial))
    e_r = radial / w if w > 1e-300 else _perpendicular_part(np.eye(3)[int(np.argmin(np.abs(u)))], u)
    e_r /= np.linalg.norm(e_r)
    corners = [np.array(x) for x in ((-half_length, 0.0), (-half_length, radius1), (half_length, radius2))]
    corners.append(np.array([half_length, 0.0]))
    q = np.array([s, w])
    r_at = radius1 + (radius2 - radius1) * (s + half_length) / (2.0 * half_length)
    if abs(s) <= half_length and w <= r_at:  # inside: below the nearest cap or the side
        side = np.array([-(radius2 - radius1), 2.0 * half_length]) / math.hypot(2.0 * half_length, radius2 - radius1)
        depths = [(s + half_length, np.array([-1.0, 0.0])), (half_length - s, np.array([1.0, 0.0]))]
        depths.append(((r_at - w) * side[1], side))
        depth, n2 = min(depths, key=lambda x: x[0])
        distance = -depth
    else:
        nearest = [_segment_point(q, corners[m], corners[m + 1]) for m in range(3)]
        foot = min(nearest, key=lambda x: float(np.linalg.norm(q - x)))
        distance = float(np.linalg.norm(q - foot))
        n2 = (q - foot) / distance
    n = -(n2[0] * u + n2[1] * e_r)  # from the sphere towards the cone
    c = np.asarray(center, dtype=float)
    return Contact(distance - radius, n, c + radius * n, c + distance * n)


def _segment_point(q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The nearest point to q of the segment a-b (2D)."""
    ab = b - a
    length2 = float(ab @ ab)
    t = 0.0 if length2 == 0.0 else min(1.0, max(0.0, float((q - a) @ ab) / length2))
    return a + t * ab


def box_edges_crossing(c_i: np.ndarray, a1_i, a2_i, h3_i: float, c_j: np.ndarray, a1_j, a2_j, h3_j: float) -> float:
    """The penetration [m] of an edge of box i and an edge of box j where they cross (each box: its
    centre, half axes A1, A2 [m] and the half extent h3 along A1 x A2; its edge at centre + A1 + A2
    along A1 x A2): the depth along their common normal, at most the boxes' separating-axis depth,
    counted while the closest points lie on both edges, the normal in both edges' cones of face
    normals (within CONE_SLACK) and the depth at most the smallest half extent; otherwise minus its
    absolute value; parallel edges: minus the distance of the edges' middles
    (numerics/contact_solids.edge_crossing)."""
    (e_i, h_i), (e_j, h_j) = _box_axes(a1_i, a2_i, h3_i), _box_axes(a1_j, a2_j, h3_j)
    m_i, m_j = c_i + a1_i + a2_i, c_j + a1_j + a2_j
    w = m_i - m_j
    n = np.cross(e_i[2], e_j[2])
    s = float(np.linalg.norm(n))
    if s < PARALLEL_EDGES:
        return -float(np.linalg.norm(w))
    n = n / s if float(n @ (e_j[0] + e_j[1])) >= 0.0 else -n / s
    b, di, dj = float(e_i[2] @ e_j[2]), float(e_i[2] @ w), float(e_j[2] @ w)
    t, r = (b * dj - di) / s**2, (dj - b * di) / s**2
    d = -float(n @ w)
    cones = min(n @ e_j[0], n @ e_j[1], -(n @ e_i[0]), -(n @ e_i[1]))
    if abs(t) > h_i[2] or abs(r) > h_j[2] or cones < -CONE_SLACK or d > min(*h_i, *h_j):
        return -abs(d)
    return min(d, box_box_depth(c_i, e_i, h_i, c_j, e_j, h_j))


def _box_axes(a1, a2, h3: float) -> tuple[list, list]:
    """([3 unit axes], [3 half extents]) of a box from its first two half axes and third half extent."""
    h = [float(np.linalg.norm(a1)), float(np.linalg.norm(a2)), h3]
    e1, e2 = np.asarray(a1, float) / h[0], np.asarray(a2, float) / h[1]
    return [e1, e2, np.cross(e1, e2)], h


def box_box_depth(c_i, e_i, h_i, c_j, e_j, h_j) -> float:
    """The penetration depth [m] of two boxes (centres, unit axes, half extents; negative: apart): the
    smallest overlap of their projections on the 15 separating axes [GLM96]."""
    axes = [*e_i, *e_j] + [np.cross(a, b) for a in e_i for b in e_j]
    best = math.inf
    for L in axes:
        s = float(np.linalg.norm(L))
        if s > PARALLEL_EDGES:
            L = L / s
            reach = sum(h * abs(float(L @ e)) for h, e in zip([*h_i, *h_j], [*e_i, *e_j]))
            best = min(best, reach - abs(float(L @ (np.asarray(c_i, float) - c_j))))
    return best
