"""The contact force element (docs/contact.md): one contact point between an analytic shape on
side i (a sphere; a box corner or a mesh's point: a sphere of radius 0; or a slice of a
cylinder's line contact) and a plane, a sphere or a cylinder's side on side j.
Written once for real and complex arguments, like every element of :mod:`.forces`.

Element data (packed by system.System): vecs[k, 0] the sphere's centre on side i, vecs[k, 1]
the plane's point or the other sphere's centre on side j, vecs[k, 2] the plane's outward unit
normal on side j, vecs[k, 3] = (impact speed v- of the current contact [m/s], NaN while apart;
its floor min_impact_speed [m/s]; the largest normal force [N] evaluated since results.contacts
last read it); numbers p = (K [N/m^n], n, chi, mu_s, mu_k, slip_speed
[m/s], radius_i [m], radius_j [m]); flag: the pair kind. DISC_PLANE (a cylinder's slice on a
plane): vecs[k, 1] the cylinder's axis on side i, p[7] the plane's offset n . point in side j's
frame [m]; POINT_CYLINDER (a sphere or slice against a cylinder's side): vecs[k, 1] a point of
the cylinder's axis and vecs[k, 2] its direction, on side j. POINT_BOX (a sphere or mesh point
against a box on side j): vecs[k, 1] the box's centre, vecs[k, 2] and vecs[k, 4] its first two
half axes (h1 e1, h2 e2), p[7] the third half extent h3 along e1 x e2. POINT_SIDE (against the
side of a finite cylinder on side j): as POINT_CYLINDER, vecs[k, 4, 0] its half length, p[7] its
radius. TORUS_PLANE and SPHERE_TORUS (one arc of a torus's centre circle on side i, radius p[6] of
its tube): vecs[k, 0] the torus's centre, vecs[k, 1] and vecs[k, 4] the circle's half axes R a, R b
at the arc's middle (b = axis x a), the arc spanning +-pi / TORUS_ARCS about a; vecs[k, 2] the
plane's normal (p[7] its offset, as DISC_PLANE) or the sphere's centre (p[7] its radius) on side j.
FACE (a sphere or a cylinder's slice against a bounded plane face, a rectangle): vecs[k, 1] the
slice's axis on side i (zero: a sphere), vecs[k, 2] the face's outward normal, vecs[k, 4] its
centre and vecs[k, 5], vecs[k, 6] its two half edges [m] on side j, p[7] the depth limit [m]: the
point counts only while its deepest point projects into the rectangle and is at most that deep
(the far side of a thin wall does not push); elsewhere its gap is |d| (a sign change where it
meets the face's edge). BOX_BOX (a vertex of either box against the other, or an edge of each)
and SPHERE_CONE: :mod:`.contact_solids`. MESH_MESH: a vertex of either mesh against the other's signed distance
(:func:`_mesh_point`, numerics/mesh_distance.py; the meshes' data in elements of radius p[6] = -1
after the pair's points, model/mesh_pairs.py). Each kind uses its own slots of the element's 7
local vectors (slot 3: the impact speed's state, all kinds).

A pair of many points (a mesh) starts with a BOUND element: a sphere about all its points on side
i (vecs[k, 0], radius p[6]) against the pair's plane or sphere (vecs[k, 1], vecs[k, 2], p[7]), the
points' pair kind p[1] and their count p[0]. While that sphere is apart, :func:`points_to_skip`
tells the loop over the elements to skip the pair's points (their v- reset once, the element's
vecs[k, 3, 0] set to 1 while they may hold one). While it touches, the pair's points share one
law: each point's K is multiplied by :func:`patch_scale`, d_max^n / sum(d_i^n) over the points in
contact, so that the pair's normal force is K d_max^n (1 + ...) at any number of points, spread
over them in proportion to d_i^n (docs/contact.md, "Mesh shapes").

Normal law (Flores et al. 2011 form): Fn = max(0, K d^n (1 + chi d' / v-)), d the penetration
[m], d' its rate; friction: Ft = -mu(s) Fn t, s the slip speed, t the slip direction, mu a
regularised Coulomb coefficient (:func:`friction_coefficient`).
"""

import numpy as np

from .contact_solids import beyond, box_distance, edge_crossing, sphere_cone, unit_or, vertex_in_box_i
from .jit import njit
from .joints import Side, body_side, point_position, point_velocity
from .mesh_distance import signed_distance
from .vec3 import Scalar, Vec3, add, body_mtv, body_mv, cross, div, dot, scale, sub

# pair kinds (the element's flag); BOUND: a mesh pair's bounding sphere
SPHERE_PLANE, SPHERE_SPHERE, DISC_PLANE, POINT_CYLINDER, BOUND = 0, 1, 2, 3, 4
POINT_BOX, POINT_SIDE, TORUS_PLANE, FACE, SPHERE_TORUS = 5, 6, 7, 8, 9
BOX_BOX, SPHERE_CONE = 10, 11  # numerics/contact_solids.py
MESH_MESH = 12  # a vertex of one mesh against the other mesh (numerics/mesh_distance.py)
MESH_DATA_GAP = 1e3  # [m] the gap of an element that holds a mesh's data (no contact point)
TORUS_ARCS = 8  # a torus pair's contact points: the deepest point of each of 8 equal arcs of its circle


@njit(cache=True, inline="always")
def _local(vecs: np.ndarray, k: int, i: int) -> Vec3:
    """Local vector i of element k."""
    return (vecs[k, i, 0], vecs[k, i, 1], vecs[k, i, 2])


@njit(cache=True, inline="always")
def sphere_plane(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, r_i: float):
    """:func:`contact_geometry` of a SPHERE_PLANE element (sphere radius r_i [m]), inlined where it is called."""
    c = point_position(A, side_i, _local(vecs, k, 0))
    q = point_position(A, side_j, _local(vecs, k, 1))
    nrm = body_mv(A, side_j[0], _local(vecs, k, 2))
    d = r_i - dot(nrm, sub(c, q))
    return d, nrm, sub(c, scale(r_i - 0.5 * d, nrm))


@njit(cache=True, refcounts=False)
def contact_geometry(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, kind: int, p: tuple):
    """(penetration d [m], global unit normal from side j to side i, global contact point [m]: the
    middle of the overlap along the normal) of contact element k."""
    r_i, r_j = p[6], p[7]
    c = point_position(A, side_i, _local(vecs, k, 0))
    if kind == DISC_PLANE:
        return _disc_plane(A, side_i, side_j, vecs, k, c, r_i, r_j)
    if kind == FACE:
        return _disc_face(A, side_i, side_j, vecs, k, c, r_i, r_j)
    if kind == TORUS_PLANE or kind == SPHERE_TORUS:
        return _torus_arc(A, side_i, side_j, vecs, k, kind, c, r_i, r_j)
    if kind == SPHERE_CONE:
        return sphere_cone(A, side_j, vecs, k, c, r_i)
    if kind == BOX_BOX and r_j < 0.0:
        if r_i == 0.0:
            return vertex_in_box_i(A, side_i, side_j, vecs, k, c, -r_j)
        return edge_crossing(A, side_i, side_j, vecs, k, c, (r_i, -r_j))
    if kind == MESH_MESH and r_i <= 0.0:  # (a BOUND's radius > 0: its two spheres, below)
        return _mesh_point(A, side_i, side_j, vecs, k, c, r_i)
    q = point_position(A, side_j, _local(vecs, k, 1))
    if kind == POINT_BOX or kind == POINT_SIDE or kind == BOX_BOX:  # BOX_BOX, r_j > 0: a point on box j
        if kind != POINT_SIDE:
            distance, nrm = _box_distance(A, side_j[0], vecs, k, sub(c, q), r_j)
        else:
            distance, nrm = _side_distance(A, side_j[0], vecs, k, sub(c, q), r_j)
        d = r_i - distance
        return d, nrm, sub(c, scale(r_i - 0.5 * d, nrm))
    if kind == SPHERE_PLANE:
        return sphere_plane(A, side_i, side_j, vecs, k, r_i)
    g = sub(c, q)
    if kind == POINT_CYLINDER:  # the offset from the cylinder's axis
        u = body_mv(A, side_j[0], _local(vecs, k, 2))
        g = sub(g, scale(dot(g, u), u))
    length = np.sqrt(dot(g, g))
    if length.real < 1e-300:
        nrm = (0.0 * length, 0.0 * length, 1.0 + 0.0 * length)
    else:
        nrm = div(g, length)
    d = r_i + r_j - length
    x = sub(c, scale(r_i - 0.5 * d, nrm))
    return d, nrm, x


@njit(cache=True)
def _mesh_point(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, c: Vec3, r_i: float):
    """contact_geometry of a MESH_MESH element (docs/contact.md, "Mesh against mesh"): a vertex
    of one mesh (vecs[k, 0] on side i, or vecs[k, 1] on side j if vecs[k, 2, 1] = 1) against the
    signed distance to the other mesh, whose sphere tree starts vecs[k, 2, 0] elements on; a point
    farther than vecs[k, 2, 2] [m] from it is apart by that much; vecs[k, 4, 0]: its last nearest
    triangle (the next search's start). r_i < 0: an element of a mesh's data, always apart."""
    zero = 0.0 * c[0]
    if r_i < 0.0:
        return zero - MESH_DATA_GAP, (zero, zero, 1.0 + zero), c
    root, reverse, cutoff, hint = k + int(vecs[k, 2, 0]), vecs[k, 2, 1] == 1.0, vecs[k, 2, 2], int(vecs[k, 4, 0])
    if reverse:
        point = point_position(A, side_j, _local(vecs, k, 1))
        s, n_local, nearest = signed_distance(vecs, root, _body_point(A, side_i, point), cutoff, hint)
        vecs[k, 4, 0] = nearest
        outward = body_mv(A, side_i[0], n_local)  # the other mesh's outward normal at its nearest feature
        return -s, scale(-1.0, outward), add(point, scale(-0.5 * s, outward))
    s, n_local, nearest = signed_distance(vecs, root, _body_point(A, side_j, c), cutoff, hint)
    vecs[k, 4, 0] = nearest
    outward = body_mv(A, side_j[0], n_local)
    return -s, outward, add(c, scale(-0.5 * s, outward))


@njit(cache=True)
def _disc_plane(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, c: Vec3, r: float, offset: float):
    """contact_geometry of a cylinder's slice (centre c [m], radius r [m], axis vecs[k, 1] on side
    i) on the plane n . x = offset of side j: the rim point nearest the plane."""
    nrm = body_mv(A, side_j[0], _local(vecs, k, 2))
    u = body_mv(A, side_i[0], _local(vecs, k, 1))
    rim = sub(nrm, scale(dot(nrm, u), u))
    rim_length = np.sqrt(dot(rim, rim))
    height = dot(nrm, sub(c, side_j[1])) - offset
    if rim_length.real < 1e-12:  # the axis along the normal: the face's centre
        low, d = c, -height
    else:
        low, d = sub(c, scale(r / rim_length, rim)), r * rim_length - height
    return d, nrm, sub(low, scale(-0.5 * d, nrm))


@njit(cache=True)
def _disc_face(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, c: Vec3, r: float, depth: float):
    """contact_geometry of a sphere or a cylinder's slice (centre c [m], radius r [m]) against the
    bounded face of side j (docs/contact.md, "Bounded faces"): the deepest point c - r n (a
    slice: its rim point nearest the face) counts while it projects into the rectangle and lies
    at most ``depth`` [m] behind it; elsewhere the penetration is -|d| (apart)."""
    nrm = body_mv(A, side_j[0], _local(vecs, k, 2))
    u = body_mv(A, side_i[0], _local(vecs, k, 1))
    rim = sub(nrm, scale(dot(nrm, u), u))
    rim_length = np.sqrt(dot(rim, rim))
    centre = point_position(A, side_j, _local(vecs, k, 4))
    height = dot(nrm, sub(c, centre))
    if rim_length.real < 1e-12:  # a slice lying flat on the face: its centre
        low, d = c, -height
    else:
        low, d = sub(c, scale(r / rim_length, rim)), r * rim_length - height
    rel = sub(low, centre)
    inside = d.real <= depth
    for e in (5, 6):
        half = body_mv(A, side_j[0], _local(vecs, k, e))
        inside = inside and abs(dot(rel, half).real) <= dot(half, half).real
    if not inside:
        d = -abs(d.real) + 0.0 * d
    return d, nrm, sub(low, scale(-0.5 * d, nrm))


@njit(cache=True)
def _box_distance(A: np.ndarray, b: int, vecs: np.ndarray, k: int, g: Vec3, h3: float) -> tuple:
    """(signed distance [m], outward unit normal) of the point g [m, from the box's centre] to the
    box of side b: outside, to its nearest surface point; inside, minus the depth below its nearest
    face (that face's normal)."""
    a1, a2 = _local(vecs, k, 2), _local(vecs, k, 4)
    h1, h2 = np.sqrt(dot(a1, a1)), np.sqrt(dot(a2, a2))
    e1, e2 = div(a1, h1), div(a2, h2)
    e = (body_mv(A, b, e1), body_mv(A, b, e2), body_mv(A, b, cross(e1, e2)))
    return box_distance(g, e, (h1, h2, h3))


@njit(cache=True)
def _side_distance(A: np.ndarray, b: int, vecs: np.ndarray, k: int, g: Vec3, radius: float) -> tuple:
    """(signed distance [m], outward unit normal) of the point g [m, from the axis's middle] to
    the finite cylinder of side b: within its length, rho - radius along the radial direction
    (inside: the depth below the side, the end faces being no contact surfaces); beyond an end,
    the distance to the solid cylinder."""
    u = body_mv(A, b, _local(vecs, k, 2))
    s = dot(g, u)
    radial = sub(g, scale(s, u))
    rho = np.sqrt(dot(radial, radial))
    out = unit_or(radial, rho, (0.0, 0.0, 1.0))
    past = beyond(s, vecs[k, 4, 0])
    if past.real == 0.0:
        return rho - radius, out
    if rho.real <= radius:  # beyond an end face, within its disc
        sign = 1.0 if past.real > 0.0 else -1.0
        return sign * past, scale(sign + 0.0 * past, u)
    off = rho - radius
    distance = np.sqrt(off * off + past * past)
    return distance, add(scale(off / distance, out), scale(past / distance, u))


@njit(cache=True)
def arc_point(c: Vec3, a: Vec3, b: Vec3, t: Vec3) -> Vec3:
    """The point c + cos(f) a + sin(f) b of the arc |f| <= pi / TORUS_ARCS (a, b: the circle's
    orthogonal half axes [m]) farthest along t: the nearest point of the arc to a point in the
    direction t, or its deepest point below a plane of normal -t. a = b = 0: c."""
    alpha, beta = dot(t, a), dot(t, b)
    rho = np.sqrt(alpha * alpha + beta * beta)
    half = np.pi / TORUS_ARCS
    if rho.real <= 1e-9 * np.sqrt(dot(t, t).real * dot(a, a).real):  # t along the axis: the middle
        cos_f, sin_f = 1.0 + 0.0 * rho, 0.0 * rho
    elif (alpha / rho).real >= np.cos(half):
        cos_f, sin_f = alpha / rho, beta / rho
    else:
        cos_f, sin_f = np.cos(half) + 0.0 * rho, (np.sin(half) if beta.real >= 0.0 else -np.sin(half)) + 0.0 * rho
    return add(c, add(scale(cos_f, a), scale(sin_f, b)))


@njit(cache=True)
def _torus_arc(
    A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, kind: int, c: Vec3, r: float, r_j: float
):
    """contact_geometry of one arc of a torus (centre c [m], tube radius r [m]) on side i against
    the plane n . x = r_j of side j (TORUS_PLANE) or the sphere of radius r_j (SPHERE_TORUS): the
    tube's sphere at the arc's point nearest the other shape."""
    a = body_mv(A, side_i[0], _local(vecs, k, 1))
    b = body_mv(A, side_i[0], _local(vecs, k, 4))
    if kind == TORUS_PLANE:
        nrm = body_mv(A, side_j[0], _local(vecs, k, 2))
        p = arc_point(c, a, b, scale(-1.0, nrm))
        d = r - (dot(nrm, sub(p, side_j[1])) - r_j)
    else:
        q = point_position(A, side_j, _local(vecs, k, 2))
        p = arc_point(c, a, b, sub(q, c))
        g = sub(p, q)
        length = np.sqrt(dot(g, g))
        nrm = unit_or(g, length, (0.0, 0.0, 1.0))
        d = r + r_j - length
    return d, nrm, sub(p, scale(r - 0.5 * d, nrm))


@njit(cache=True)
def points_to_skip(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, p: tuple) -> int:
    """The number of contact points after BOUND element k to skip: all of its pair's while its
    bounding sphere is apart from the pair's other shape, else 0."""
    d = contact_geometry(A, side_i, side_j, vecs, k, int(p[1]), p)[0]
    count = int(p[0])
    if d.real > 0.0:
        vecs[k, 3, 0] = 1.0  # its points may start an impact: reset their v- when it leaves
        return 0
    if vecs[k, 3, 0] == 1.0:
        for e in range(k + 1, k + 1 + count):
            vecs[e, 3, 0] = np.nan
        vecs[k, 3, 0] = 0.0
    return count


@njit(cache=True)
def patch_scale(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, par: np.ndarray, k: int) -> float:
    """d_max^n / sum(d_i^n) over the penetrating points of BOUND element k's pair (1 if none).
    A point starting to touch takes the impact speed v- of the pair's points already touching."""
    d_max, total, v_pair = 0.0, 0.0, np.nan
    for e in range(k + 1, k + 1 + int(par[k, 0])):
        p = (par[e, 0], par[e, 1], par[e, 2], par[e, 3], par[e, 4], par[e, 5], par[e, 6], par[e, 7])
        d = contact_geometry(A, side_i, side_j, vecs, e, int(par[k, 1]), p)[0].real
        if d > 0.0:
            d_max = max(d_max, d)
            total += d ** par[e, 1]
            if vecs[e, 3, 0] == vecs[e, 3, 0]:
                v_pair = vecs[e, 3, 0]
    if v_pair == v_pair:
        for e in range(k + 1, k + 1 + int(par[k, 0])):
            if vecs[e, 3, 0] != vecs[e, 3, 0]:
                vecs[e, 3, 0] = v_pair  # a point that is apart resets it in contact_loads
    return d_max ** par[k + 1, 1] / total if total > 0.0 else 1.0


@njit(cache=True)
def friction_coefficient(s: Scalar, mu_s: float, mu_k: float, v_s: float) -> Scalar:
    """mu at slip speed s [m/s]: mu_s s / v_s below v_s (the creep), a smooth step from mu_s to
    mu_k over [v_s, 2 v_s], mu_k above."""
    if s.real <= v_s:
        return mu_s * s / v_s
    if s.real >= 2.0 * v_s:
        return mu_k + 0.0 * s
    t = (s - v_s) / v_s
    return mu_s + (mu_k - mu_s) * t * t * (3.0 - 2.0 * t)


@njit(cache=True)
def _power(d: Scalar, n: float) -> Scalar:
    """d^n, without the pow call for the linear law's n = 1 and its potential's n = 2 (exact)."""
    if n == 1.0:
        return d
    if n == 2.0:
        return d * d
    return d**n


@njit(cache=True, refcounts=False)
def impact_speed(vecs: np.ndarray, k: int, rate: float) -> float:
    """v- of the current contact of element k: the penetration rate [m/s] at its first
    evaluation in contact (floored at vecs[k, 3, 1]), kept in vecs[k, 3, 0] until it separates."""
    v = vecs[k, 3, 0]
    if v != v:
        v = max(rate, vecs[k, 3, 1])
        vecs[k, 3, 0] = v
    return v


@njit(cache=True, refcounts=False)
def located_peak(f0: float, f1: float, f2: float) -> float:
    """The top [N] of the parabola through three normal forces at equal steps whose middle one is the
    largest (f1 otherwise): the peak between the states of the solution, at most f1 + (|f1 - f0| +
    |f1 - f2|) / 8."""
    a, b = f1 - f0, f1 - f2
    if a < 0.0 or b < 0.0 or a + b <= 0.0:
        return f1
    return f1 + (a - b) * (a - b) / (8.0 * (a + b))


@njit(cache=True)
def keep_contact_memory(vecs: np.ndarray, first: int, end: int, kept: np.ndarray) -> None:
    """Copy the impact speed v- and the running peak (vecs[k, 3, 0] and vecs[k, 3, 2]) of the contact
    elements first .. end - 1 into kept (end - first, 2): what an evaluation at a state that is no
    state of the solution (an RK stage, a Newton iterate) must not change."""
    for k in range(first, end):
        kept[k - first, 0], kept[k - first, 1] = vecs[k, 3, 0], vecs[k, 3, 2]


@njit(cache=True)
def restore_contact_memory(vecs: np.ndarray, first: int, end: int, kept: np.ndarray) -> None:
    """Put back what :func:`keep_contact_memory` kept."""
    for k in range(first, end):
        vecs[k, 3, 0], vecs[k, 3, 2] = kept[k - first, 0], kept[k - first, 1]


@njit(cache=True, refcounts=False)
def _body_point(A: np.ndarray, side: Side, x: Vec3) -> Vec3:
    """The global point x [m] in the local coordinates of a side (global for the ground)."""
    return body_mtv(A, side[0], sub(x, side[1]))


@njit(cache=True)
def gap_and_rate(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, kind: int, p: tuple) -> tuple:
    """(gap [m]: minus the penetration, its rate [m/s]) of contact element k (solver/events.py's
    onset event function); of a BOUND element: its bounding sphere's, a lower bound of its points'."""
    d, nrm, x = contact_geometry(A, side_i, side_j, vecs, k, int(p[1]) if kind == BOUND else kind, p)
    v_i = point_velocity(A, side_i, _body_point(A, side_i, x))
    v_j = point_velocity(A, side_j, _body_point(A, side_j, x))
    return -d, dot(nrm, sub(v_i, v_j))


@njit(cache=True)
def contact_gaps(
    Y: np.ndarray,
    nb: int,
    A: np.ndarray,
    bi: np.ndarray,
    bj: np.ndarray,
    vecs: np.ndarray,
    par: np.ndarray,
    flag: np.ndarray,
    first: int,
    gaps: np.ndarray,
    rates: np.ndarray,
) -> None:
    """Fill gaps [m] and rates [m/s] (:func:`gap_and_rate`) of the contact elements first ..
    first + len(gaps) - 1 at state Y; a BOUND element apart gives its own to its points, which are
    not evaluated (as the force loop skips them)."""
    e = 0
    while e < gaps.shape[0]:
        k = first + e
        p = (par[k, 0], par[k, 1], par[k, 2], par[k, 3], par[k, 4], par[k, 5], par[k, 6], par[k, 7])
        gaps[e], rates[e] = gap_and_rate(A, body_side(Y, nb, bi[k]), body_side(Y, nb, bj[k]), vecs, k, flag[k], p)
        if flag[k] == BOUND and gaps[e] >= 0.0:
            count = int(p[0])
            gaps[e + 1 : e + 1 + count] = gaps[e]
            rates[e + 1 : e + 1 + count] = rates[e]
            e += count
        e += 1


@njit(cache=True, refcounts=False)
def contact_loads(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, kind: int, p: tuple) -> tuple:
    """(d [m], normal, point [m], Fn [N], Ft (global) [N], slip velocity [m/s], penetration rate
    [m/s], elastic part K d^n [N]) of contact element k; Fn = 0 while apart (v- reset)."""
    K, n, chi, mu_s, mu_k, v_s = p[0], p[1], p[2], p[3], p[4], p[5]
    if kind == SPHERE_PLANE:  # contact_geometry's, with no call
        d, nrm, x = sphere_plane(A, side_i, side_j, vecs, k, p[6])
    else:
        d, nrm, x = contact_geometry(A, side_i, side_j, vecs, k, kind, p)
    zero = 0.0 * d
    if d.real <= 0.0:
        vecs[k, 3, 0] = np.nan
        return d, nrm, x, zero, (zero, zero, zero), (zero, zero, zero), zero, zero
    v_i = point_velocity(A, side_i, _body_point(A, side_i, x))
    v_j = point_velocity(A, side_j, _body_point(A, side_j, x))
    v_rel = sub(v_i, v_j)
    vn = dot(nrm, v_rel)
    rate = -vn
    elastic = K * _power(d, n)
    Fn = elastic * (1.0 + chi * rate / impact_speed(vecs, k, rate.real))
    if Fn.real < 0.0:
        Fn = zero
    slip = sub(v_rel, scale(vn, nrm))
    s = np.sqrt(dot(slip, slip))
    Ft = (zero, zero, zero)
    if s.real > 1e-300 and mu_s + mu_k > 0.0:
        Ft = scale(-friction_coefficient(s, mu_s, mu_k, v_s) * Fn / s, slip)
    return d, nrm, x, Fn, Ft, slip, rate, elastic


@njit(cache=True, inline="always")
def contact_element(
    Q: np.ndarray, A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, kind: int, p: tuple
) -> tuple[Scalar, Scalar]:
    """:func:`contact`, a sphere-plane element's gap looked at first, inlined in the caller: apart, its
    v- reset and nothing applied, with no call (the common case of a point, made cheap)."""
    if kind == SPHERE_PLANE:
        d = sphere_plane(A, side_i, side_j, vecs, k, p[6])[0]
        if d.real <= 0.0:
            vecs[k, 3, 0] = np.nan
            return 0.0 * d, 0.0 * d
    return contact(Q, A, side_i, side_j, vecs, k, kind, p)


@njit(cache=True, refcounts=False)
def contact(
    Q: np.ndarray, A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, k: int, kind: int, p: tuple
) -> tuple[Scalar, Scalar]:
    """Add contact element k's force to Q (on side i, its opposite on side j, both at the contact
    point); returns (spring potential K d^(n+1) / (n+1) [J], power of its damping and friction [W]).
    A BOUND element applies nothing."""
    if kind == BOUND:
        return 0.0 * A[0, 0, 0], 0.0 * A[0, 0, 0]
    d, nrm, x, Fn, Ft, slip, rate, elastic = contact_loads(A, side_i, side_j, vecs, k, kind, p)
    if d.real <= 0.0:
        return 0.0 * d, 0.0 * d
    if Fn.real > vecs[k, 3, 2]:
        vecs[k, 3, 2] = Fn.real  # the peak between output samples (results.contacts)
    F = (Fn * nrm[0] + Ft[0], Fn * nrm[1] + Ft[1], Fn * nrm[2] + Ft[2])
    for side in range(2):
        sd = side_i if side == 0 else side_j
        b = sd[0]
        if b >= 0:
            s_local = _body_point(A, sd, x)
            sign = 1.0 if side == 0 else -1.0
            T = cross(s_local, body_mtv(A, b, F))
            for c in range(3):
                Q[6 * b + c] += sign * F[c]
                Q[6 * b + 3 + c] += sign * T[c]
    n = p[1]
    return p[0] * _power(d, n + 1.0) / (n + 1.0), (elastic - Fn) * rate + dot(Ft, slip)
