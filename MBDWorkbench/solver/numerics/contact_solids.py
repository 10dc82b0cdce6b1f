"""Exact contact geometry of the box-box and sphere-cone pairs (docs/contact.md, "Shapes and
pairs") for the CONTACT element of :mod:`.contact_forces` (kinds BOX_BOX and SPHERE_CONE),
written once for real and complex arguments.

BOX_BOX element k, by the sign of its number h = p[7]:

* h > 0, a point of side i (a box's vertex, radius 0; the pair's bounding sphere) against box j:
  the POINT_BOX layout (contact_forces), h the box's third half extent;
* h < 0 and p[6] = 0, a vertex of box j (vecs[k, 1]) against box i: its centre vecs[k, 0], its
  first two half axes vecs[k, 5], vecs[k, 6], -h its third half extent (:func:`vertex_in_box_i`);
* h < 0 and p[6] > 0, an edge of box i against an edge of box j (:func:`edge_crossing`): box i's
  centre vecs[k, 0], half axes A1 = vecs[k, 5], A2 = vecs[k, 6] and third half extent p[6], box j's
  vecs[k, 1], vecs[k, 2], vecs[k, 4] and -h; each box's edge is the one at centre + A1 + A2 along
  A1 x A2 (the signs and order of A1, A2 pick it), the outward normals of its faces along A1, A2.

SPHERE_CONE element k (:func:`sphere_cone`): the sphere's centre vecs[k, 0] on side i, the cone's
centre vecs[k, 1] and unit axis vecs[k, 2] on side j, vecs[k, 4] = (its half length, radius1 at
-half length, radius2 at +half length) [m].
"""

import numpy as np

from .jit import njit
from .joints import Side, point_position
from .vec3 import Scalar, Vec3, add, body_mv, cross, div, dot, scale, sub

PARALLEL_EDGES = 1e-6  # |u_i x u_j| of two unit edge directions below this: parallel, no crossing
CONE_SLACK = 0.1  # a crossing's normal may lie this far (cosine) outside an edge's cone of face normals


@njit(cache=True)
def _slot(vecs: np.ndarray, k: int, i: int) -> Vec3:
    return (vecs[k, i, 0], vecs[k, i, 1], vecs[k, i, 2])


@njit(cache=True)
def unit_or(g: Vec3, length: Scalar, fallback: Vec3) -> Vec3:
    """g / length, or the unit vector ``fallback`` where g vanishes."""
    if length.real < 1e-300:
        return (fallback[0] + 0.0 * length, fallback[1] + 0.0 * length, fallback[2] + 0.0 * length)
    return div(g, length)


@njit(cache=True)
def beyond(x: Scalar, h: float) -> Scalar:
    """How far the coordinate x [m] lies beyond [-h, h] (signed; 0 within)."""
    if x.real > h:
        return x - h
    if x.real < -h:
        return x + h
    return 0.0 * x


@njit(cache=True)
def box_distance(g: Vec3, e: tuple, h: tuple) -> tuple:
    """(signed distance [m], outward unit normal) of the point g [m, from the box's centre] to the box
    of unit axes e (3 global vectors) and half extents h [m]: outside, to its nearest surface point;
    inside, minus the depth below its nearest face (that face's normal)."""
    x = (dot(g, e[0]), dot(g, e[1]), dot(g, e[2]))
    q = (beyond(x[0], h[0]), beyond(x[1], h[1]), beyond(x[2], h[2]))
    out = np.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2])
    if out.real > 0.0:
        return out, add(add(scale(q[0] / out, e[0]), scale(q[1] / out, e[1])), scale(q[2] / out, e[2]))
    best, depth = 0, h[0] - x[0] if x[0].real >= 0.0 else h[0] + x[0]
    for m in range(1, 3):
        dm = h[m] - x[m] if x[m].real >= 0.0 else h[m] + x[m]
        if dm.real < depth.real:
            best, depth = m, dm
    sign = 1.0 if x[best].real >= 0.0 else -1.0
    return -depth, scale(sign + 0.0 * depth, e[best])


@njit(cache=True)
def vertex_in_box_i(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, c: Vec3, h3: float):
    """contact_geometry of a vertex of box j (vecs[k, 1]) against box i (centre c [m], half axes
    vecs[k, 5], vecs[k, 6], third half extent h3 [m]): its depth below box i's nearest face, the
    normal from j to i (minus box i's outward normal)."""
    v = point_position(A, side_j, _slot(vecs, k, 1))
    a1, a2 = _slot(vecs, k, 5), _slot(vecs, k, 6)
    h1, h2 = np.sqrt(dot(a1, a1)), np.sqrt(dot(a2, a2))
    e1, e2 = div(a1, h1), div(a2, h2)
    b = side_i[0]
    e = (body_mv(A, b, e1), body_mv(A, b, e2), body_mv(A, b, cross(e1, e2)))
    distance, outward = box_distance(sub(v, c), e, (h1, h2, h3))
    d = -distance
    nrm = scale(-1.0, outward)
    return d, nrm, sub(v, scale(0.5 * d, nrm))


@njit(cache=True)
def edge_crossing(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, c_i: Vec3, h3: tuple):
    """contact_geometry of an edge of box i (centre c_i [m]; h3: both boxes' third half extents [m])
    against an edge of box j: along their common normal n (outward of box j), the depth
    d = n . (p_j - p_i) of the closest points p_i, p_j of their lines, at most the boxes' own
    penetration depth (:func:`separating_depth`: two edges crossing near a face overlap more along
    n than the boxes do). It counts while p_i and p_j lie on the edges, n lies in box j's cone of
    face normals at its edge and -n in box i's (within CONE_SLACK) and d is at most the smallest
    half extent (an edge on a box's far side is deeper): the edges cross, the deepest points of a
    cube turned on another cube. Elsewhere its gap is |d|; parallel edges: apart (their vertices
    carry them)."""
    e_i, h_i = _box_axes(A, side_i[0], vecs, k, 5, 6, h3[0])
    e_j, h_j = _box_axes(A, side_j[0], vecs, k, 2, 4, h3[1])
    c_j = point_position(A, side_j, _slot(vecs, k, 1))
    m_i = add(c_i, add(scale(h_i[0], e_i[0]), scale(h_i[1], e_i[1])))
    w = sub(m_i, add(c_j, add(scale(h_j[0], e_j[0]), scale(h_j[1], e_j[1]))))
    n = cross(e_i[2], e_j[2])
    s = np.sqrt(dot(n, n))
    if s.real < PARALLEL_EDGES:
        gap = np.sqrt(dot(w, w))
        return -gap, unit_or(w, gap, e_j[0]), m_i
    n = div(n, s)
    if dot(n, add(e_j[0], e_j[1])).real < 0.0:
        n = scale(-1.0, n)
    b, di, dj = dot(e_i[2], e_j[2]), dot(e_i[2], w), dot(e_j[2], w)
    t, r = (b * dj - di) / (s * s), (dj - b * di) / (s * s)
    d = -dot(n, w)
    cones = min(dot(n, e_j[0]).real, dot(n, e_j[1]).real, -dot(n, e_i[0]).real, -dot(n, e_i[1]).real)
    limit = min(min(h_i[0], h_i[1]), min(h_i[2], min(h_j[0], min(h_j[1], h_j[2]))))
    if abs(t.real) > h_i[2] or abs(r.real) > h_j[2] or cones < -CONE_SLACK or d.real > limit:
        d = -abs(d.real) + 0.0 * d
    else:
        depth = separating_depth(sub(c_i, c_j), e_i, h_i, e_j, h_j)
        if depth.real < d.real:
            d = depth
    return d, n, add(add(m_i, scale(t, e_i[2])), scale(0.5 * d, n))


@njit(cache=True)
def _box_axes(A: np.ndarray, b: int, vecs: np.ndarray, k: int, s1: int, s2: int, h3: float) -> tuple:
    """((3 global unit axes), (3 half extents [m])) of the box of body b whose first two half axes
    are in slots s1, s2 of element k, the third along their cross product."""
    a1, a2 = _slot(vecs, k, s1), _slot(vecs, k, s2)
    h1, h2 = np.sqrt(dot(a1, a1)), np.sqrt(dot(a2, a2))
    e1, e2 = div(a1, h1), div(a2, h2)
    return (body_mv(A, b, e1), body_mv(A, b, e2), body_mv(A, b, cross(e1, e2))), (h1, h2, h3)


@njit(cache=True)
def _signed_abs(x: Scalar) -> Scalar:
    return x if x.real >= 0.0 else -x


@njit(cache=True)
def _overlap(L: Vec3, w: Vec3, e_i: tuple, h_i: tuple, e_j: tuple, h_j: tuple) -> Scalar:
    """The overlap [m] of two boxes' projections on the unit axis L (w: centre i - centre j)."""
    reach = -_signed_abs(dot(L, w))
    for m in range(3):
        reach = reach + h_i[m] * _signed_abs(dot(L, e_i[m])) + h_j[m] * _signed_abs(dot(L, e_j[m]))
    return reach


@njit(cache=True)
def separating_depth(w: Vec3, e_i: tuple, h_i: tuple, e_j: tuple, h_j: tuple) -> Scalar:
    """The penetration depth [m] of two boxes (w: centre i - centre j; unit axes e, half extents h):
    the smallest overlap of their projections on the 15 separating axes, their 6 face normals and
    the 9 cross products of their edges (negative: apart) [GLM96]."""
    best = _overlap(e_i[0], w, e_i, h_i, e_j, h_j)
    for a in range(3):
        for L in (e_i[a], e_j[a]):
            ov = _overlap(L, w, e_i, h_i, e_j, h_j)
            if ov.real < best.real:
                best = ov
        for b in range(3):
            L = cross(e_i[a], e_j[b])
            s = np.sqrt(dot(L, L))
            if s.real > PARALLEL_EDGES:
                ov = _overlap(div(L, s), w, e_i, h_i, e_j, h_j)
                if ov.real < best.real:
                    best = ov
    return best


@njit(cache=True)
def _to_segment(s: Scalar, w: Scalar, a: tuple, b: tuple) -> tuple:
    """(s, w) minus its nearest point on the segment a-b of the (s, w) plane [m]."""
    ds, dw = b[0] - a[0], b[1] - a[1]
    length2 = ds * ds + dw * dw
    t = 0.0 * s
    if length2 > 0.0:
        t = ((s - a[0]) * ds + (w - a[1]) * dw) / length2
        if t.real < 0.0:
            t = 0.0 * t
        elif t.real > 1.0:
            t = 1.0 + 0.0 * t
    return s - a[0] - t * ds, w - a[1] - t * dw


@njit(cache=True)
def cone_distance(s: Scalar, w: Scalar, half: float, r1: float, r2: float) -> tuple:
    """(signed distance [m], its normal's axial and radial parts) of the point at s along the axis
    from the middle and w >= 0 from the axis [m] to the solid cone (half length, radii r1 at -half,
    r2 at +half): its meridian section, a trapezoid of caps and a side, outside to the nearest of
    them (a rim: a corner), inside minus the depth below the nearest."""
    slope = (r2 - r1) / (2.0 * half)
    length = np.sqrt(4.0 * half * half + (r2 - r1) ** 2)
    side_n = (-(r2 - r1) / length, 2.0 * half / length)  # the side's outward normal (s, w)
    r_at = r1 + slope * (s + half)
    if abs(s.real) <= half and w.real <= r_at.real:
        depth, ns, nw = s + half, -1.0 + 0.0 * s, 0.0 * s
        if (half - s).real < depth.real:
            depth, ns = half - s, 1.0 + 0.0 * s
        below = (r_at - w) * side_n[1]
        if below.real < depth.real:
            depth, ns, nw = below, side_n[0] + 0.0 * s, side_n[1] + 0.0 * s
        return -depth, ns, nw
    corners = ((-half, 0.0), (-half, r1), (half, r2), (half, 0.0))
    best_s, best_w = _to_segment(s, w, corners[0], corners[1])
    for m in range(1, 3):
        gs, gw = _to_segment(s, w, corners[m], corners[m + 1])
        if (gs * gs + gw * gw).real < (best_s * best_s + best_w * best_w).real:
            best_s, best_w = gs, gw
    distance = np.sqrt(best_s * best_s + best_w * best_w)
    return distance, best_s / distance, best_w / distance


@njit(cache=True)
def sphere_cone(A: np.ndarray, side_j: Side, vecs: np.ndarray, k: int, c: Vec3, radius: float):
    """contact_geometry of a sphere (centre c [m], radius [m]) against the solid cone of side j:
    its exact signed distance (:func:`cone_distance`: the side, a rim or a cap nearest)."""
    q = point_position(A, side_j, _slot(vecs, k, 1))
    u = body_mv(A, side_j[0], _slot(vecs, k, 2))
    g = sub(c, q)
    s = dot(g, u)
    radial = sub(g, scale(s, u))
    w = np.sqrt(dot(radial, radial))
    side = (u[1], -u[0], 0.0 * u[2]) if abs(u[2].real) < 0.9 else (0.0 * u[0], u[2], -u[1])
    e_r = unit_or(radial, w, div(side, np.sqrt(dot(side, side))))
    distance, ns, nw = cone_distance(s, w, vecs[k, 4, 0], vecs[k, 4, 1], vecs[k, 4, 2])
    nrm = add(scale(ns, u), scale(nw, e_r))
    d = radius - distance
    return d, nrm, sub(c, scale(radius - 0.5 * d, nrm))
