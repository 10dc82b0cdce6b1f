"""Primitive constraint rows, written once: value, Jacobian and gamma of each row kind.

Joint and driver types are lists of these rows (see :mod:`.catalog`).

Primitive rows ([R1]; DP1, DP2 as in [Haug]; hybrid formulation: Jacobian columns are the global linear
velocity v and the BODY-frame angular velocity w of each body; ``gamma`` is the
right-hand side of Phi_q qddot = gamma, i.e. minus the velocity-quadratic part of
Phi_ddot):

* POINT  e . (p_i - p_j) = 0 with p = r + A s (one global direction e per row)
* DP1    a_i . a_j = c (two body-fixed vectors stay perpendicular, c = 0; the angle joint: c = cos
  of its angle, from the row's fourth argument)
* DP2    a_i . (p_j - p_i) = 0 (the point of j stays in a plane of i)
* ANGLE  atan2(y_i . x_j, x_i . x_j) (the rotation of j about z_i; driver rows only)
* DISTANCE  (d . d - L^2) / (2 L) = 0 with d = p_j - p_i (two points at distance L > 0)
* DISTXY  (d . d - (a_i . d)^2 - L^2) / (2 L) = 0: the point of j at distance L > 0 from the axis
  through p_i along the unit vector a_i of i (OndselSolver's DistancexyConstraintIJ)
* GEAR   k_1 theta_i + k_2 theta_j - c = 0, theta_i = atan2(y_i . d, x_i . d) the direction of
  the other frame's origin (d = o_j - o_i) seen in frame i (the "orbit" angle), theta_j the same
  seen from frame j (d -> -d); k [m] are the pitch radii (belt: k_2 < 0)
* LEAD   k_1 a_i . d + k_2 theta - c = 0, theta = atan2(y_i . x_j, x_i . x_j) the rotation of
  frame j about z_i and a_i = x_i (rack and pinion, k_2 = pinion radius) or z_i (screw,
  k_2 = -pitch / 2 pi)

GEAR and LEAD are the coupler rows of FreeCAD's Assembly (OndselSolver's GearConstraintIJ,
RackPinConstraintIJ, ScrewConstraintIJ: the same relations, divided to be in metres). Their
multiplier is a force [N]: the tooth or belt force along the pitch line (gear), the rack force
(rack and pinion) or the thrust (screw). Their constant c is their value at the initial
configuration. Their angles are continuous over many turns: each coupler row keeps the last
angle it evaluated (``vecs[r, UNWRAP]``, NaN before the first evaluation) and takes the branch
of atan2 nearest to it, so consecutive evaluations must turn less than pi apart.

DISTANCE is written in squared form: a polynomial in the poses, smooth everywhere, where
|d| - L has no derivative at d = 0; dividing by 2 L makes it |d| - L to first order (metres,
like POINT rows, so tolerances and Baumgarte gains keep their meaning) and its gradient d / L
has unit length on the constraint (regular at every L > 0). Its multiplier is the rod
tension T [N] scaled by L / |d|, i.e. T itself on the constraint.

Drivers subtract a time profile f(t) from their row: Phi_t = -f', gamma += f''.

The formulas (:func:`row_terms`, :func:`point_kinematics`, :func:`vector_kinematics`)
are generic over real and complex poses: the real kernels (:func:`eval_row`, the force
elements of :mod:`.kernels`) and the complex-step Jacobians of
:mod:`.integrators.jacobians` call the same code. They act on *sides*: a side is a tuple
``(b, r, v, w)`` where b indexes the rotation array A (b < 0: the ground, identity
rotation), r is the position [m], v the global linear velocity [m/s] and w the body-frame
angular velocity [rad/s] of the body (zeros for the ground).

For POINT, DP1 and DP2 rows the derivatives of their constraint forces and torques with respect to
the position increments are also written here in closed form (:func:`add_force_jacobian`): the
index-3 integrators need them every step, and six to twelve complex evaluations of a joint's rows
cost about 8 times more.
"""

from __future__ import annotations

import numpy as np

from .jit import njit
from .vec3 import Scalar, Vec3, add, body_mtv, body_mv, cross, dot, scale, sub

POINT, DP1, DP2, ANGLE, DISTANCE, DISTXY, GEAR, LEAD = 0, 1, 2, 3, 4, 5, 6, 7
COUPLERS = frozenset({GEAR, LEAD})

ROW_VECS = 9  # local vectors of a row (rows of its vecs[r]): the coupler rows use all of them, DISTXY 0..3
COEFFS, UNWRAP = 7, 8  # coupler rows: vecs[r, COEFFS] = (k_1, k_2, c), vecs[r, UNWRAP] = last angles [rad]

# Which rows measure a length (metres) rather than an angle (radians).
ROW_IS_ANGULAR = {
    POINT: False,
    DP1: True,
    DP2: False,
    ANGLE: True,
    DISTANCE: False,
    DISTXY: False,
    GEAR: False,
    LEAD: False,
}

# Sides ("i", "j") whose rotation a row depends on when its points sit at the bodies' centres of
# gravity (point masses: model.geometry.joint_rows), and the rows that depend on the rotations only.
ROW_TURNS = {POINT: "", DP1: "ij", DP2: "i", ANGLE: "ij", DISTANCE: "", DISTXY: "i", GEAR: "ij", LEAD: "ij"}
ROW_ROTATION_ONLY = frozenset({DP1, ANGLE})


@njit(cache=True, inline="always")
def jacobian_reads_positions(kind: int) -> bool:
    """False for the rows whose Phi_q depends on the rotations only, not on the positions r: POINT
    (Phi is linear in r), DP1 and ANGLE (Phi does not depend on r). Their d(Phi_q^T lam)/dr is zero."""
    return not (kind == POINT or kind == DP1 or kind == ANGLE)


Side = tuple  # (b, r, v, w), see the module docstring


def row_vectors(spec: tuple, local: dict) -> np.ndarray:
    """Local vectors (ROW_VECS, 3) of one row; ``local`` maps frame names to (side, vector) (and
    ``length`` to the length [m] of a DISTANCE row, ``coupler`` to the coefficients (k_1, k_2)
    of a coupler row, whose constant is set by :func:`set_coupler_constant`)."""
    kind = spec[0]
    out = np.zeros((ROW_VECS, 3))
    if kind in COUPLERS:
        for k, key in enumerate(("oi", "xi", "yi", "oj", "xj", "yj")):
            out[k] = local[key]
        if kind == LEAD:
            out[6] = local[spec[1]]
        out[COEFFS, :2] = local["coupler"]
        out[UNWRAP] = np.nan
        return out
    if kind == POINT:
        out[0], out[1] = local["oi"], local["oj"]
        out[2, spec[1]] = 1.0
    elif kind == DP1:
        out[0], out[1] = local[spec[1]], local[spec[2]]
        if len(spec) > 3:  # a constant c: a_i . a_j = c
            out[2, 0] = local[spec[3]]
    elif kind == DP2:
        out[0], out[1], out[2] = local[spec[1]], local["oi"], local["oj"]
    elif kind == DISTANCE:
        out[0], out[1] = local["oi"], local["oj"]
        out[2, 0] = local["length"]
    elif kind == DISTXY:
        out[0], out[1], out[2] = local[spec[1]], local["oi"], local["oj"]
        out[3, 0] = local["length"]
    else:
        out[0], out[1], out[2], out[3] = local["xi"], local["yi"], local["xj"], local["zi"]
    return out


# ----------------------------------------------------------------------------- sides
def _body_side_py(Y: np.ndarray, nb: int, b: int) -> Side:
    """:func:`body_side` for the interpreted start (Python numbers, see vec3.py)."""
    if b < 0:
        zero = (0.0, 0.0, 0.0)
        return b, zero, zero, zero
    o = 7 * nb + 6 * b
    v = Y[o : o + 6].tolist()
    return b, tuple(Y[7 * b : 7 * b + 3].tolist()), (v[0], v[1], v[2]), (v[3], v[4], v[5])


@njit(cache=True, interpreted=_body_side_py, refcounts=False)
def body_side(Y: np.ndarray, nb: int, b: int) -> Side:
    """The side (b, r, v, w) of moving body b in a state Y = [q (7 nb), qdot (6 nb)];
    zeros for the ground (b < 0)."""
    if b < 0:
        zero = (0.0, 0.0, 0.0)
        return b, zero, zero, zero
    o = 7 * nb + 6 * b
    return b, (Y[7 * b], Y[7 * b + 1], Y[7 * b + 2]), (Y[o], Y[o + 1], Y[o + 2]), (Y[o + 3], Y[o + 4], Y[o + 5])


@njit(cache=True, inline="always")
def vector_kinematics(A: np.ndarray, side: Side, abar: Vec3) -> tuple[Vec3, Vec3, Vec3]:
    """Global vector a = A abar of a side, its rate, and the velocity-quadratic part of
    its second derivative."""
    b, _, _, w = side
    wa = cross(w, abar)
    return body_mv(A, b, abar), body_mv(A, b, wa), body_mv(A, b, cross(w, wa))


@njit(cache=True, inline="always")
def point_kinematics(A: np.ndarray, side: Side, sbar: Vec3) -> tuple[Vec3, Vec3, Vec3]:
    """Global point p = r + A sbar [m] of a side, its velocity [m/s], and the
    velocity-quadratic part of its acceleration [m/s^2]."""
    b, r, v, w = side
    ws = cross(w, sbar)
    return add(r, body_mv(A, b, sbar)), add(v, body_mv(A, b, ws)), body_mv(A, b, cross(w, ws))


@njit(cache=True, inline="always")
def point_position(A: np.ndarray, side: Side, sbar: Vec3) -> Vec3:
    """Global point p = r + A sbar [m] of a side: :func:`point_kinematics`' first value alone."""
    return add(side[1], body_mv(A, side[0], sbar))


@njit(cache=True, inline="always")
def point_velocity(A: np.ndarray, side: Side, sbar: Vec3) -> Vec3:
    """Velocity [m/s] v + A (w x sbar) of a side's point sbar: :func:`point_kinematics`' second value alone."""
    return add(side[2], body_mv(A, side[0], cross(side[3], sbar)))


# ----------------------------------------------------------------------------- rows
@njit(cache=True)
def atan2(s: Scalar, c: Scalar) -> Scalar:
    """atan2(s, c) [rad]; for complex-step arguments (x + i h dx) the value plus i h times
    its first derivative, exact for a complex step (the real atan2 has no complex form).
    For real arguments the added term is zero."""
    sr, cr = s.real, c.real
    return np.arctan2(sr, cr) + (cr * (s - sr) - sr * (c - cr)) / (sr * sr + cr * cr)


@njit(cache=True)
def wrap_angle(x: Scalar) -> Scalar:
    """Wrap an angle difference [rad] to (-pi, pi] (by its real part if complex)."""
    return x - 2.0 * np.pi * np.floor((x.real + np.pi) / (2.0 * np.pi))


def _local_py(vecs, r, i):
    """:func:`_local` for the interpreted start (Python numbers)."""
    return tuple(vecs[r, i, :3].tolist())


@njit(cache=True, interpreted=_local_py)
def _local(vecs, r, i):
    return (vecs[r, i, 0], vecs[r, i, 1], vecs[r, i, 2])


@njit(cache=True)
def _dp1(A, side_i, side_j, ai_bar, aj_bar):
    """DP1 a_i.a_j: value, omega-Jacobians of i and j, gamma, rate."""
    ai, dai, qai = vector_kinematics(A, side_i, ai_bar)
    aj, daj, qaj = vector_kinematics(A, side_j, aj_bar)
    ji = cross(ai_bar, body_mtv(A, side_i[0], aj))
    jj = cross(aj_bar, body_mtv(A, side_j[0], ai))
    gamma = -(dot(qai, aj) + 2.0 * dot(dai, daj) + dot(ai, qaj))
    rate = dot(dai, aj) + dot(ai, daj)
    return dot(ai, aj), ji, jj, gamma, rate


@njit(cache=True)
def _dp2(A, side_i, side_j, ai_bar, si, sj):
    """DP2 a_i.(p_j - p_i): the terms of :func:`row_terms`."""
    ai, dai, qai = vector_kinematics(A, side_i, ai_bar)
    pi, dpi, qpi = point_kinematics(A, side_i, si)
    pj, dpj, qpj = point_kinematics(A, side_j, sj)
    d, dd = sub(pj, pi), sub(dpj, dpi)
    ang_i = sub(cross(ai_bar, body_mtv(A, side_i[0], d)), cross(si, ai_bar))
    ang_j = cross(sj, body_mtv(A, side_j[0], ai))
    gamma = -(dot(qai, d) + 2.0 * dot(dai, dd) + dot(ai, sub(qpj, qpi)))
    return dot(ai, d), scale(-1.0, ai), ang_i, ai, ang_j, gamma, dot(dai, d) + dot(ai, dd)


@njit(cache=True)
def _swap(t):
    """The terms of a row with its sides i and j exchanged."""
    return t[0], t[3], t[4], t[1], t[2], t[5], t[6]


@njit(cache=True)
def _atan2_terms(s, c):
    """theta = atan2(s, c) of two rows' terms s and c (value on the principal branch)."""
    r2 = s[0] * s[0] + c[0] * c[0]
    lin_i = scale(1.0 / r2, sub(scale(c[0], s[1]), scale(s[0], c[1])))
    ang_i = scale(1.0 / r2, sub(scale(c[0], s[2]), scale(s[0], c[2])))
    lin_j = scale(1.0 / r2, sub(scale(c[0], s[3]), scale(s[0], c[3])))
    ang_j = scale(1.0 / r2, sub(scale(c[0], s[4]), scale(s[0], c[4])))
    rate = (c[0] * s[6] - s[0] * c[6]) / r2
    gamma = (c[0] * s[5] - s[0] * c[5]) / r2 + 2.0 * rate * (s[0] * s[6] + c[0] * c[6]) / r2
    return atan2(s[0], c[0]), lin_i, ang_i, lin_j, ang_j, gamma, rate


@njit(cache=True)
def _unwrapped(t, vecs, r, k):
    """Angle terms t with the value on the branch nearest to the last angle of coupler row r
    (slot k of vecs[r, UNWRAP]; NaN: the principal branch), which it then becomes."""
    prev = vecs[r, UNWRAP, k]
    theta = t[0]
    if prev == prev:
        theta = theta + 2.0 * np.pi * np.floor((prev - theta.real) / (2.0 * np.pi) + 0.5)
    vecs[r, UNWRAP, k] = theta.real
    return theta, t[1], t[2], t[3], t[4], t[5], t[6]


@njit(cache=True)
def _combine(k1, t1, k2, t2, c):
    """k1 t1 + k2 t2 - c of two rows' terms."""
    return (
        k1 * t1[0] + k2 * t2[0] - c,
        add(scale(k1, t1[1]), scale(k2, t2[1])),
        add(scale(k1, t1[2]), scale(k2, t2[2])),
        add(scale(k1, t1[3]), scale(k2, t2[3])),
        add(scale(k1, t1[4]), scale(k2, t2[4])),
        k1 * t1[5] + k2 * t2[5],
        k1 * t1[6] + k2 * t2[6],
    )


@njit(cache=True)
def _coupler(kind, vecs, r, A, side_i, side_j):
    """GEAR or LEAD row r: the terms of :func:`row_terms`."""
    oi, xi, yi = _local(vecs, r, 0), _local(vecs, r, 1), _local(vecs, r, 2)
    oj, xj, yj = _local(vecs, r, 3), _local(vecs, r, 4), _local(vecs, r, 5)
    k1, k2, c = vecs[r, COEFFS, 0], vecs[r, COEFFS, 1], vecs[r, COEFFS, 2]
    if kind == GEAR:
        orbit_i = _atan2_terms(_dp2(A, side_i, side_j, yi, oi, oj), _dp2(A, side_i, side_j, xi, oi, oj))
        orbit_j = _atan2_terms(_dp2(A, side_j, side_i, yj, oj, oi), _dp2(A, side_j, side_i, xj, oj, oi))
        return _combine(k1, _unwrapped(orbit_i, vecs, r, 0), k2, _unwrapped(_swap(orbit_j), vecs, r, 1), c)
    zero = (0.0, 0.0, 0.0)
    s, jsi, jsj, gs, ds = _dp1(A, side_i, side_j, yi, xj)
    cs, jci, jcj, gc, dc = _dp1(A, side_i, side_j, xi, xj)
    turn = _atan2_terms((s, zero, jsi, zero, jsj, gs, ds), (cs, zero, jci, zero, jcj, gc, dc))
    return _combine(k1, _dp2(A, side_i, side_j, _local(vecs, r, 6), oi, oj), k2, _unwrapped(turn, vecs, r, 0), c)


@njit(cache=True)
def _distance(A, side_i, side_j, si, sj, length):
    """DISTANCE (d.d - L^2) / (2 L), d = p_j - p_i: the terms of :func:`row_terms`."""
    pi, dpi, qpi = point_kinematics(A, side_i, si)
    pj, dpj, qpj = point_kinematics(A, side_j, sj)
    d, dd = sub(pj, pi), sub(dpj, dpi)
    u = scale(1.0 / length, d)
    ang_i = scale(-1.0, cross(si, body_mtv(A, side_i[0], u)))
    ang_j = cross(sj, body_mtv(A, side_j[0], u))
    gamma = -(dot(dd, dd) + dot(d, sub(qpj, qpi))) / length
    phi = (dot(d, d) - length * length) / (2.0 * length)
    return phi, scale(-1.0, u), ang_i, u, ang_j, gamma, dot(u, dd)


@njit(cache=True)
def _distxy(A, side_i, side_j, ai_bar, si, sj, length):
    """DISTXY (d.d - s^2 - L^2) / (2 L), s = a_i.d, d = p_j - p_i: the terms of :func:`row_terms`.
    With e = d - s a_i (the part of d normal to the axis) its Jacobian is that of a rod along e
    plus the turn of a_i, -s (a_i x d) / L on body i."""
    ai, dai, qai = vector_kinematics(A, side_i, ai_bar)
    pi, dpi, qpi = point_kinematics(A, side_i, si)
    pj, dpj, qpj = point_kinematics(A, side_j, sj)
    d, dd = sub(pj, pi), sub(dpj, dpi)
    s = dot(ai, d)
    ds = dot(dai, d) + dot(ai, dd)
    gamma_s = -(dot(qai, d) + 2.0 * dot(dai, dd) + dot(ai, sub(qpj, qpi)))
    e = sub(d, scale(s, ai))
    inv = 1.0 / length
    lin_j = scale(inv, e)
    ang_i = scale(-inv, add(cross(si, body_mtv(A, side_i[0], e)), scale(s, cross(ai_bar, body_mtv(A, side_i[0], d)))))
    ang_j = scale(inv, cross(sj, body_mtv(A, side_j[0], e)))
    phi = (dot(d, d) - s * s - length * length) * 0.5 * inv
    gamma = -(dot(dd, dd) + dot(d, sub(qpj, qpi)) - ds * ds + s * gamma_s) * inv
    return phi, scale(-1.0, lin_j), ang_i, lin_j, ang_j, gamma, (dot(d, dd) - s * ds) * inv


@njit(cache=True)
def row_terms(kind: int, vecs: np.ndarray, r: int, A: np.ndarray, side_i: Side, side_j: Side) -> tuple:
    """Row r (local vectors vecs[r], vecs (m, ROW_VECS, 3)) of kind ``kind`` between two sides:
    (phi, Phi_q of side i as linear and angular parts, the same of side j, gamma,
    rate = Phi_q qdot without Phi_t). Real or complex."""
    zero = (0.0, 0.0, 0.0)
    if kind == POINT:
        e = _local(vecs, r, 2)
        pi, dpi, qpi = point_kinematics(A, side_i, _local(vecs, r, 0))
        pj, dpj, qpj = point_kinematics(A, side_j, _local(vecs, r, 1))
        ang_i = cross(_local(vecs, r, 0), body_mtv(A, side_i[0], e))
        ang_j = scale(-1.0, cross(_local(vecs, r, 1), body_mtv(A, side_j[0], e)))
        return (dot(e, sub(pi, pj)), e, ang_i, scale(-1.0, e), ang_j, -dot(e, sub(qpi, qpj)), dot(e, sub(dpi, dpj)))
    if kind == DP1:
        phi, ji, jj, gamma, rate = _dp1(A, side_i, side_j, _local(vecs, r, 0), _local(vecs, r, 1))
        return phi - vecs[r, 2, 0], zero, ji, zero, jj, gamma, rate
    if kind == DP2:
        return _dp2(A, side_i, side_j, _local(vecs, r, 0), _local(vecs, r, 1), _local(vecs, r, 2))
    if kind == DISTANCE:
        return _distance(A, side_i, side_j, _local(vecs, r, 0), _local(vecs, r, 1), vecs[r, 2, 0])
    if kind == DISTXY:
        si, sj = _local(vecs, r, 1), _local(vecs, r, 2)
        return _distxy(A, side_i, side_j, _local(vecs, r, 0), si, sj, vecs[r, 3, 0])
    if kind == GEAR or kind == LEAD:
        return _coupler(kind, vecs, r, A, side_i, side_j)
    # ANGLE: theta = atan2(s, c), s = y_i.x_j, c = x_i.x_j
    s, jsi, jsj, gs, ds = _dp1(A, side_i, side_j, _local(vecs, r, 1), _local(vecs, r, 2))
    c, jci, jcj, gc, dc = _dp1(A, side_i, side_j, _local(vecs, r, 0), _local(vecs, r, 2))
    r2 = s * s + c * c
    ang_i = scale(1.0 / r2, sub(scale(c, jsi), scale(s, jci)))
    ang_j = scale(1.0 / r2, sub(scale(c, jsj), scale(s, jcj)))
    rate = (c * ds - s * dc) / r2
    gamma = (c * gs - s * gc) / r2 + 2.0 * rate * (s * ds + c * dc) / r2
    return atan2(s, c), zero, ang_i, zero, ang_j, gamma, rate


@njit(cache=True, inline="always")
def has_force_jacobian(kind: int) -> bool:
    """Whether :func:`add_force_jacobian` has the row kind: POINT, DP1 and DP2 (the rows of the
    spherical, revolute, universal, cylindrical, prismatic, planar and fixed joints)."""
    return kind == POINT or kind == DP1 or kind == DP2


@njit(cache=True, inline="always")
def _unit(n):
    return (1.0 if n == 0 else 0.0, 1.0 if n == 1 else 0.0, 1.0 if n == 2 else 0.0)


@njit(cache=True)
def _add_outer_minus_dot(KB, s, p, c, a, b):
    """Torque-rotation block KB[s, p, 3:, 3:] += c (a~ b~) = c (b a^T - (a.b) I): the derivative of
    a x (A^T u) with respect to the rotation of A (d(A^T u) = (A^T u) x theta)."""
    ab = dot(a, b)
    for m in range(3):
        for n in range(3):
            KB[s, p, 3 + m, 3 + n] += c * (b[m] * a[n] - (ab if m == n else 0.0))


@njit(cache=True)
def _add_cross_coupling(KB, s, p, c, A, bs, bp, a_s, a_p):
    """KB[s, p, 3:, 3:] += c a_s~ A_s^T A_p a_p~ (column n: a_s x A_s^T A_p (a_p x e_n)): how body
    s's torque a_s x (A_s^T A_p a_p) turns with body p's rotation."""
    for n in range(3):
        col = cross(a_s, body_mtv(A, bs, body_mv(A, bp, cross(a_p, _unit(n)))))
        for m in range(3):
            KB[s, p, 3 + m, 3 + n] += c * col[m]


@njit(cache=True)
def _add_dp2(KB, vecs, r, A, side_i, side_j, lam):
    """:func:`add_force_jacobian` of a DP2 row a_i.(p_j - p_i), a_i = A_i abar, d = p_j - p_i:
    forces -lam (-a_i) on i and -lam a_i on j, torques -lam (abar x e - s_i x abar) on i
    (e = A_i^T d) and -lam s_j x g on j (g = A_j^T a_i). With d a_i = -A_i abar~ theta_i and
    d p = dr - A s~ theta (so d e = (e~ + s_i~) theta_i + A_i^T (dr_j - dr_i - A_j s_j~ theta_j)):
    force on i / theta_i: -lam A_i abar~ (on j: the opposite); torque on i / r_i: +lam abar~ A_i^T
    (/ r_j: the opposite), / theta_i: -lam abar~ (e~ + s_i~), / theta_j: +lam abar~ A_i^T A_j s_j~;
    torque on j / theta_i: +lam s_j~ A_j^T A_i abar~, / theta_j: -lam s_j~ g~."""
    bi, bj = side_i[0], side_j[0]
    abar, si, sj = _local(vecs, r, 0), _local(vecs, r, 1), _local(vecs, r, 2)
    a = body_mv(A, bi, abar)
    d = sub(add(side_j[1], body_mv(A, bj, sj)), add(side_i[1], body_mv(A, bi, si)))
    e, g = body_mtv(A, bi, d), body_mtv(A, bj, a)
    for n in range(3):
        u = _unit(n)
        force_i = body_mv(A, bi, cross(abar, u))  # force on i / theta_i, times -lam
        torque_r = cross(abar, body_mtv(A, bi, u))  # torque on i / r_i, times +lam
        torque_ii = cross(abar, add(cross(e, u), cross(si, u)))  # times -lam
        torque_ij = cross(abar, body_mtv(A, bi, body_mv(A, bj, cross(sj, u))))  # times +lam
        torque_ji = cross(sj, body_mtv(A, bj, body_mv(A, bi, cross(abar, u))))  # times +lam
        torque_jj = cross(sj, cross(g, u))  # times -lam
        for m in range(3):
            KB[0, 0, m, 3 + n] -= lam * force_i[m]
            KB[1, 0, m, 3 + n] += lam * force_i[m]
            KB[0, 0, 3 + m, n] += lam * torque_r[m]
            KB[0, 1, 3 + m, n] -= lam * torque_r[m]
            KB[0, 0, 3 + m, 3 + n] -= lam * torque_ii[m]
            KB[0, 1, 3 + m, 3 + n] += lam * torque_ij[m]
            KB[1, 0, 3 + m, 3 + n] += lam * torque_ji[m]
            KB[1, 1, 3 + m, 3 + n] -= lam * torque_jj[m]


@njit(cache=True)
def add_force_jacobian(kind: int, vecs: np.ndarray, r: int, A: np.ndarray, side_i: Side, side_j: Side, lam, KB) -> None:
    """Add the derivatives of row r's constraint forces and torques -lam Phi_q^T (global forces,
    body-frame torques) w.r.t. the position increments x = [dr (global), theta (body frame),
    A <- A (I + theta~)] of both sides to KB (2, 2, 6, 6) [side of the force, side of the
    increment] (real A (n, 3, 3); sides as :func:`row_terms`, identity and zeros for the ground).
    POINT, DP1 and DP2 (:func:`has_force_jacobian`); the second derivatives of the rows of
    :func:`row_terms` (tests/test_index3.py compares them with complex steps of those rows):

    * POINT e.(p_i - p_j): constant forces; torques -lam s_i x b_i and +lam s_j x b_j,
      b = A^T e, whose derivatives are -lam s_i~ b_i~ and +lam s_j~ b_j~ (d b = b x theta);
    * DP1 a_i.a_j: no force; torque -lam a_i x (A_i^T A_j a_j) on i: -lam a_i~ b_i~ w.r.t.
      theta_i and +lam a_i~ A_i^T A_j a_j~ w.r.t. theta_j; the same with i and j exchanged;
    * DP2: :func:`_add_dp2`."""
    bi, bj = side_i[0], side_j[0]
    if kind == POINT:
        e = _local(vecs, r, 2)
        _add_outer_minus_dot(KB, 0, 0, -lam, _local(vecs, r, 0), body_mtv(A, bi, e))
        _add_outer_minus_dot(KB, 1, 1, lam, _local(vecs, r, 1), body_mtv(A, bj, e))
    elif kind == DP1:
        ai_bar, aj_bar = _local(vecs, r, 0), _local(vecs, r, 1)
        ai, aj = body_mv(A, bi, ai_bar), body_mv(A, bj, aj_bar)
        _add_outer_minus_dot(KB, 0, 0, -lam, ai_bar, body_mtv(A, bi, aj))
        _add_outer_minus_dot(KB, 1, 1, -lam, aj_bar, body_mtv(A, bj, ai))
        _add_cross_coupling(KB, 0, 1, lam, A, bi, bj, ai_bar, aj_bar)
        _add_cross_coupling(KB, 1, 0, lam, A, bj, bi, aj_bar, ai_bar)
    else:
        _add_dp2(KB, vecs, r, A, side_i, side_j, lam)


@njit(cache=True)
def _put(jac, r, side, lin, ang):
    for k in range(3):
        jac[r, side, k] = lin[k]
        jac[r, side, 3 + k] = ang[k]


@njit(cache=True)
def eval_row(
    r: int, kind: int, bi: int, bj: int, vecs: np.ndarray, Y: np.ndarray, nb: int, A: np.ndarray, jac: np.ndarray
) -> tuple[float, float, float]:
    """Evaluate primitive row r between bodies bi and bj at state Y (nb moving bodies):
    fills jac[r] and returns (phi, gamma, rate) where rate = Phi_q qdot (without Phi_t)."""
    phi, lin_i, ang_i, lin_j, ang_j, gamma, rate = row_terms(
        kind, vecs, r, A, body_side(Y, nb, bi), body_side(Y, nb, bj)
    )
    _put(jac, r, 0, lin_i, ang_i)
    _put(jac, r, 1, lin_j, ang_j)
    return phi, gamma, rate
