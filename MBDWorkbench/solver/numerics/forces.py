"""Force elements and the generalized forces Q: gravity, gyroscopic terms and one kernel per kind of
force element (point loads, spring-dampers, rotational spring-dampers).

``S`` is the namedtuple of static arrays built by ``system.System`` (``Static``); ``W`` the
namedtuple of work arrays. All SI units.
"""

import numpy as np

from .broad_phase import candidate_pairs, element_ranges, proxy_centres, retire
from .contact_forces import BOUND, contact, contact_element, patch_scale, points_to_skip
from .jets import eval_jet
from .jit import njit
from .joints import (
    ANGLE,
    DP2,
    Side,
    atan2,
    body_side,
    point_kinematics,
    point_position,
    point_velocity,
    row_terms,
    wrap_angle,
)
from .vec3 import Scalar, Vec3, body_mtv, body_mv, cross, div, dot, scale, sub

# ----------------------------------------------------------------------------- force elements
# One element kernel per kind of force element, generic over real and complex arguments: the
# ODE form (:func:`forces`) and the complex-step Jacobians (integrators/jacobians.py) both
# reach them through :func:`force_element`. ``Q`` holds 6 generalized-force entries (global
# force, body-frame torque) per slot; body b of a side (see joints.py) is its slot in both Q
# and A, b < 0 (the ground) receives nothing.
#
# system.py packs each force of the model into one element: its kernel code (below), the
# moving bodies of its two sides (S.force_bi, S.force_bj; -1: ground or none), up to 4 local
# vectors (S.force_vecs), numbers (S.force_par), 6 profile programs (S.force_prog, -1: none)
# and a flag (S.force_flag). The elements are sorted by kernel code: those of kernel c are
# S.force_start[c] to S.force_start[c + 1] - 1. A new kernel: its function below, its code
# and READS_VELOCITY and MAY_IDLE entries here, one branch in :func:`force_element`.
LOAD, SPRING_DAMPER, ROTATIONAL_SPRING_DAMPER, JOINT_STOP, CONTACT = 0, 1, 2, 3, 4


READS_VELOCITY = np.array([False, True, True, True, True])  # per kernel code: the force depends on the velocities
MAY_IDLE = np.array([False, False, False, True, False])  # per kernel code: an element may be idle (force_element_idle)


FORCE_KERNELS = READS_VELOCITY.shape[0]


@njit(cache=True)
def point_force(Q: np.ndarray, A: np.ndarray, b: int, s: Vec3, F: Vec3) -> None:
    """Add a global force F [N] acting at body-local point s [m] to slot b of Q."""
    if b < 0:
        return
    T = cross(s, body_mtv(A, b, F))
    for k in range(3):
        Q[6 * b + k] += F[k]
        Q[6 * b + 3 + k] += T[k]


@njit(cache=True)
def point_load(Q: np.ndarray, A: np.ndarray, b: int, s: Vec3, F: Vec3, T: Vec3, body_frame: bool) -> tuple[Vec3, Vec3]:
    """Add a force F [N] at body-local point s [m] and a torque T [N m], both global or
    (``body_frame``) in the body frame, to slot b of Q; returns the global force and the
    body-frame torque."""
    if body_frame:
        Fg, Tb = body_mv(A, b, F), T
    else:
        Fg, Tb = F, body_mtv(A, b, T)
    point_force(Q, A, b, s, Fg)
    for c in range(3):
        Q[6 * b + 3 + c] += Tb[c]
    return Fg, Tb


@njit(cache=True)
def load(Q: np.ndarray, A: np.ndarray, side: Side, s: Vec3, F: Vec3, T: Vec3, body_frame: bool) -> tuple[float, Scalar]:
    """A force F [N] at body-local point s [m] and a torque T [N m] on a side, both global or
    (``body_frame``) in the body frame: adds them to Q and returns (0 potential, power [W])."""
    Fg, Tb = point_load(Q, A, side[0], s, F, T, body_frame)
    v = point_velocity(A, side, s)
    w = side[3]
    return 0.0, dot(Fg, v) + Tb[0] * w[0] + Tb[1] * w[1] + Tb[2] * w[2]


@njit(cache=True)
def spring_damper(
    Q: np.ndarray, A: np.ndarray, side_i: Side, side_j: Side, si: Vec3, sj: Vec3, k: float, c: float, l0: float
) -> tuple[Scalar, Scalar]:
    """Translational spring-damper (stiffness k [N/m], damping c [N s/m], free length l0 [m])
    between the body-local points si, sj [m] of two sides: adds its forces to Q and returns
    (potential [J], damper power [W])."""
    pi, vi, _ = point_kinematics(A, side_i, si)
    pj, vj, _ = point_kinematics(A, side_j, sj)
    d = sub(pj, pi)
    length = np.sqrt(dot(d, d))
    if length.real < 1e-12:
        return 0.0, 0.0
    u = div(d, length)
    rate = dot(u, sub(vj, vi))
    stretch = length - l0
    tension = k * stretch + c * rate
    point_force(Q, A, side_i[0], si, scale(tension, u))
    point_force(Q, A, side_j[0], sj, scale(-tension, u))
    return 0.5 * k * stretch * stretch, -(c * rate * rate)


@njit(cache=True)
def rotational_spring_damper(
    Q: np.ndarray,
    A: np.ndarray,
    side_i: Side,
    side_j: Side,
    vecs: np.ndarray,
    r: int,
    k: float,
    c: float,
    theta0: float,
) -> tuple[Scalar, Scalar]:
    """Rotational spring-damper (stiffness k [N m/rad], damping c [N m s/rad], free angle
    theta0 [rad]) on the joint angle measured by ANGLE row r of ``vecs``: adds its torques
    to Q and returns (potential [J], damper power [W])."""
    theta, _, ang_i, _, ang_j, _, rate = row_terms(ANGLE, vecs, r, A, side_i, side_j)
    dtheta = wrap_angle(theta - theta0)
    torque = -(k * dtheta + c * rate)
    for side in range(2):
        b = side_i[0] if side == 0 else side_j[0]
        ang = ang_i if side == 0 else ang_j
        if b >= 0:
            for i in range(3):
                Q[6 * b + 3 + i] += torque * ang[i]
    return 0.5 * k * dtheta * dtheta, -(c * rate * rate)


@njit(cache=True)
def impact(d: Scalar, ddot: Scalar, k: float, e: float, c_max: float, d_full: float) -> tuple:
    """Adams' IMPACT law at penetration d > 0 [rad or m] growing at ddot: (push [N m or N],
    spring potential [J], non-conservative power [W]); push = max(0, k d^e + c(d) ddot), the
    damping c(d) = c_max s^2 (3 - 2 s), s = min(d / d_full, 1), never pulling."""
    s = d / d_full
    if s.real > 1.0:
        s = s * 0.0 + 1.0
    push = k * d**e + c_max * s * s * (3.0 - 2.0 * s) * ddot
    if push.real < 0.0:
        push = push * 0.0
    spring = k * d**e
    return push, k * d ** (e + 1.0) / (e + 1.0), (spring - push) * ddot


@njit(cache=True)
def _unwrapped_stop_angle(vecs: np.ndarray, r: int, q: Scalar) -> Scalar:
    """The angle q [rad] on the branch nearest to the last one (kept in vecs[r, 3, 0], NaN before
    the first), which it then becomes."""
    prev = vecs[r, 3, 0]
    if prev == prev:
        q = q + 2.0 * np.pi * np.floor((prev - q.real) / (2.0 * np.pi) + 0.5)
    vecs[r, 3, 0] = q.real
    return q


@njit(cache=True)
def _stop_coordinate(A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, r: int, linear: bool) -> Scalar:
    """The value alone of :func:`joint_stop`'s coordinate (the same numbers as row_terms' value): the
    displacement a_i . (p_j - p_i) [m] (DP2: vecs a_i, s_i, s_j) or the unwrapped angle
    atan2(y_i . x_j, x_i . x_j) [rad] (ANGLE: vecs x_i, y_i, x_j)."""
    v0, v1, v2 = _vec(vecs, r, 0), _vec(vecs, r, 1), _vec(vecs, r, 2)
    if linear:
        ai = body_mv(A, side_i[0], v0)
        d = sub(point_position(A, side_j, v2), point_position(A, side_i, v1))
        return dot(ai, d)
    xj = body_mv(A, side_j[0], v2)
    q = atan2(dot(body_mv(A, side_i[0], v1), xj), dot(body_mv(A, side_i[0], v0), xj))
    return _unwrapped_stop_angle(vecs, r, q)


@njit(cache=True, inline="always")
def _idle_stop(A: np.ndarray, Y: np.ndarray, nb: int, bi: int, bj: int, vecs: np.ndarray, k: int, linear: bool,
               par: np.ndarray) -> bool:  # fmt: skip
    """:func:`joint_stop_idle` of JOINT_STOP element k at the real state Y, cheaper: an angle from the
    rotations alone (the same numbers as :func:`_stop_coordinate`, its branch kept the same way), no
    sides built but for a displacement, none of it without limits (a rigid stop's)."""
    if par[k, 6] != 0.0:
        return False
    if par[k, 0] == -np.inf and par[k, 1] == np.inf:
        return True
    if linear:
        q = _stop_coordinate(A, body_side(Y, nb, bi), body_side(Y, nb, bj), vecs, k, True)
    else:
        xj = body_mv(A, bj, _vec(vecs, k, 2))
        q = np.arctan2(dot(body_mv(A, bi, _vec(vecs, k, 1)), xj), dot(body_mv(A, bi, _vec(vecs, k, 0)), xj))
        q = _unwrapped_stop_angle(vecs, k, q)
    return par[k, 0] <= q <= par[k, 1]


@njit(cache=True)
def idle_element(code: int, k: int, A: np.ndarray, Y: np.ndarray, nb: int, bi: np.ndarray, bj: np.ndarray,
                 vecs: np.ndarray, par: np.ndarray, flag: np.ndarray) -> bool:  # fmt: skip
    """:func:`force_element_idle` of force element k at the real state Y, from the force arrays (S.force_bi,
    ...; an element that may be idle has no profile): for callers that must not hand S on (jit.py)."""
    return code == JOINT_STOP and _idle_stop(A, Y, nb, bi[k], bj[k], vecs, k, flag[k] == 1, par)


@njit(cache=True)
def joint_stop_idle(
    A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, r: int, linear: bool, p: tuple
) -> bool:
    """Whether :func:`joint_stop` adds nothing at this state nor near it (so its Jacobians are zero): no
    viscous damping and the coordinate inside its limits (always for a rigid stop's infinite ones)."""
    if p[6] != 0.0:
        return False
    if p[0] == -np.inf and p[1] == np.inf:
        return True
    q = _stop_coordinate(A, side_i, side_j, vecs, r, linear).real
    return p[0] <= q <= p[1]


@njit(cache=True)
def force_element_idle(code: int, k: int, A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, p: tuple,
                       flag: int) -> bool:  # fmt: skip
    """Whether force element k (kernel ``code``) adds nothing at this state nor near it: a joint stop
    that is idle (:func:`joint_stop_idle`); the complex-step Jacobians skip its evaluations."""
    return code == JOINT_STOP and joint_stop_idle(A, side_i, side_j, vecs, k, flag == 1, p)


@njit(cache=True, inline="always")
def force_element_angular(code: int, flag: int) -> bool:
    """Whether a force element of kernel ``code`` and ``flag`` applies torques alone, from the rotations
    and angular velocities alone (an angle's stop or rotational spring-damper: an ANGLE row), so that
    its Jacobian blocks have no force rows and no position or linear-velocity columns."""
    return code == ROTATIONAL_SPRING_DAMPER or (code == JOINT_STOP and flag == 0)


@njit(cache=True)
def joint_stop(
    Q: np.ndarray, A: np.ndarray, side_i: Side, side_j: Side, vecs: np.ndarray, r: int, linear: bool, p: tuple
) -> tuple[Scalar, Scalar]:
    """End stops and viscous damping of one joint coordinate (model.joint_stops): the angle (ANGLE
    row, counted continuously from its first evaluation in (-pi, pi]: the last angle is kept in
    vecs[r, 3, 0], NaN before the first, and consecutive evaluations must turn less than pi
    apart) or the displacement (DP2 row, ``linear``) measured by the vectors vecs[r];
    p = (lower, upper, k, e, c_max, d_full, c_viscous). Adds the generalized force to Q;
    returns (potential [J], non-conservative power [W]). Nothing to do (no damping, the coordinate
    inside its limits, none for a rigid stop): only the coordinate's value is evaluated."""
    if joint_stop_idle(A, side_i, side_j, vecs, r, linear, p):
        return 0.0 * Q[0], 0.0 * Q[0]
    q, lin_i, ang_i, lin_j, ang_j, _, rate = row_terms(DP2 if linear else ANGLE, vecs, r, A, side_i, side_j)
    if not linear:
        q = _unwrapped_stop_angle(vecs, r, q)
    effort = -p[6] * rate
    V = 0.0 * q
    P = effort * rate
    if q.real > p[1]:
        push, dV, dP = impact(q - p[1], rate, p[2], p[3], p[4], p[5])
        effort, V, P = effort - push, V + dV, P + dP
    elif q.real < p[0]:
        push, dV, dP = impact(p[0] - q, -rate, p[2], p[3], p[4], p[5])
        effort, V, P = effort + push, V + dV, P + dP
    for side in range(2):
        b = side_i[0] if side == 0 else side_j[0]
        lin = lin_i if side == 0 else lin_j
        ang = ang_i if side == 0 else ang_j
        if b >= 0:
            for c in range(3):
                Q[6 * b + c] += effort * lin[c]
                Q[6 * b + 3 + c] += effort * ang[c]
    return V, P


@njit(cache=True)
def _profiles(
    progs, k, t, order, u, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
):
    """Fill u (6) with the profiles progs[k] of element k (0 where -1, i.e. absent): values
    (order 0) or time derivatives (order 1) at t."""
    values = _profile_values(
        progs, k, t, order, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
    )
    for c in range(6):
        u[c] = values[c]


@njit(cache=True)
def _profile_values(progs, k, t, order, code, code_start, consts, const_start, table_x, table_y, table_start,
                    table_base, stack):  # fmt: skip
    """:func:`_profiles`' six values as a tuple (no array: force_elements_arrays counts no references)."""
    v = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    for c in range(6):
        if progs[k, c] >= 0:
            v[c] = eval_jet(
                progs[k, c], t, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
            )[order]
    return v[0], v[1], v[2], v[3], v[4], v[5]


@njit(cache=True, inline="always")
def _has_profiles(progs, k):
    """Whether element k has a profile."""
    for c in range(progs.shape[1]):
        if progs[k, c] >= 0:
            return True
    return False


@njit(cache=True)
def _vec(vecs, k, i):
    """Local vector i of element k."""
    return (vecs[k, i, 0], vecs[k, i, 1], vecs[k, i, 2])


@njit(cache=True, inline="always")
def _numbers(par, k):
    """The numbers of element k."""
    return par[k, 0], par[k, 1], par[k, 2], par[k, 3], par[k, 4], par[k, 5], par[k, 6], par[k, 7]


@njit(cache=True, refcounts=False)
def force_element(
    code: int,
    k: int,
    order: int,
    Q: np.ndarray,
    A: np.ndarray,
    side_i: Side,
    side_j: Side,
    vecs: np.ndarray,
    p: tuple,
    flag: int,
    u: np.ndarray,
) -> tuple[Scalar, Scalar]:
    """Add the generalized force of force element k (kernel ``code``, local vectors vecs[k])
    on sides i and j to Q or, with order 1, its explicit time derivative, given its numbers
    p, flag and profiles u (see :func:`force_element_data`). Returns (potential [J], power
    [W])."""
    if code == LOAD:
        return load(Q, A, side_i, _vec(vecs, k, 0), (u[0], u[1], u[2]), (u[3], u[4], u[5]), flag == 1)
    if order > 0:  # the other elements do not depend on t explicitly
        return 0.0, 0.0
    if code == SPRING_DAMPER:
        return spring_damper(Q, A, side_i, side_j, _vec(vecs, k, 0), _vec(vecs, k, 1), p[0], p[1], p[2])
    if code == JOINT_STOP:
        return joint_stop(Q, A, side_i, side_j, vecs, k, flag == 1, p)
    if code == CONTACT:
        return contact(Q, A, side_i, side_j, vecs, k, flag, p)
    return rotational_spring_damper(Q, A, side_i, side_j, vecs, k, p[0], p[1], p[2])


@njit(cache=True, inline="always")
def force_element_data(S: tuple, k: int, t: float, order: int, u: np.ndarray) -> tuple[tuple, int]:
    """(numbers, flag) of force element k; fills u (6) with its profiles at t (order 0) or
    their time derivatives (order 1)."""
    if _has_profiles(S.force_prog, k):
        _profiles(
            S.force_prog,
            k,
            t,
            order,
            u,
            S.p_code,
            S.p_code_start,
            S.p_consts,
            S.p_const_start,
            S.p_table_x,
            S.p_table_y,
            S.p_table_start,
            S.p_table_base,
            S.p_stack,
        )
    return _numbers(S.force_par, k), S.force_flag[k]


# ----------------------------------------------------------------------------- force loops
@njit(cache=True)
def _gravity_gyro(nb, Y, mass, inertia, gravity, Q):
    """Weight and gyroscopic torque -w x (J w) per body; returns the gravity potential [J]."""
    V = 0.0
    for b in range(nb):
        o = 7 * nb + 6 * b
        w0, w1, w2 = Y[o + 3], Y[o + 4], Y[o + 5]
        J0, J1, J2 = inertia[b, 0], inertia[b, 1], inertia[b, 2]
        for k in range(3):
            Q[6 * b + k] = mass[b] * gravity[k]
            V -= mass[b] * gravity[k] * Y[7 * b + k]
        Q[6 * b + 3] = -(w1 * J2 * w2 - w2 * J1 * w1)
        Q[6 * b + 4] = -(w2 * J0 * w0 - w0 * J2 * w2)
        Q[6 * b + 5] = -(w0 * J1 * w1 - w1 * J0 * w0)
    return V


@njit(cache=True, refcounts=False)  # once an evaluation: no reference counts (jit.py)
def force_elements_arrays(
    t,
    order,
    nb,
    Y,
    A,
    Q,
    V,
    P,
    start,
    bi,
    bj,
    vecs,
    par,
    progs,
    flag,
    code,
    code_start,
    consts,
    const_start,
    table_x,
    table_y,
    table_start,
    table_base,
    stack,
):
    """Add all force elements to Q (order 1: their explicit time derivatives), kernel by
    kernel; returns V and P plus their potentials [J] and powers [W], summed per kernel."""
    u = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for kernel in range(start.shape[0] - 1):
        if start[kernel + 1] == start[kernel]:
            continue
        group_V = 0.0
        group_P = 0.0
        if kernel == CONTACT and order == 0:
            group_V, group_P = contact_range(start[kernel], start[kernel + 1], nb, Y, A, Q, 0.0, 0.0, bi, bj, vecs, par,
                                             flag)  # fmt: skip
            V += group_V
            P += group_P
            continue
        k, scale, scaled = start[kernel] - 1, 1.0, 0
        while k + 1 < start[kernel + 1]:  # the loop of contact_range for every kernel
            k += 1
            if kernel == JOINT_STOP and _idle_stop(A, Y, nb, bi[k], bj[k], vecs, k, flag[k] == 1, par):
                continue  # (the common case, made cheap: the limits not reached)
            side_i, side_j = body_side(Y, nb, bi[k]), body_side(Y, nb, bj[k])
            if kernel == CONTACT and flag[k] == BOUND:  # a pair's bounding sphere: skip its points while apart
                skip = points_to_skip(A, side_i, side_j, vecs, k, _numbers(par, k))
                if skip == 0:  # touching: its points share the pair's law
                    scale, scaled = patch_scale(A, side_i, side_j, vecs, par, k), int(par[k, 0])
                k += skip
                continue
            p = _numbers(par, k)
            if scaled > 0:
                p = (p[0] * scale, p[1], p[2], p[3], p[4], p[5], p[6], p[7])
                scaled -= 1
            if _has_profiles(progs, k):
                u = _profile_values(
                    progs, k, t, order, code, code_start, consts, const_start, table_x, table_y, table_start,
                    table_base, stack,
                )  # fmt: skip
            dV, dP = force_element(kernel, k, order, Q, A, side_i, side_j, vecs, p, flag[k], u)
            group_V += dV
            group_P += dP
        V += group_V
        P += group_P
    return V, P


@njit(cache=True, refcounts=False)
def contact_range(k0, k1, nb, Y, A, Q, group_V, group_P, bi, bj, vecs, par, flag):
    """Add the CONTACT elements k0 .. k1 - 1 to Q (their values; they have no profiles); returns
    group_V, group_P plus their potentials [J] and powers [W], added in the order of the elements.
    A sphere-plane element apart costs no further call (:func:`.contact_forces.contact_element`, inlined
    here); not inlined itself (docs/contact.md, "The force loop": compile time)."""
    k, scale, scaled = k0 - 1, 1.0, 0
    while k + 1 < k1:
        k += 1
        side_i, side_j = body_side(Y, nb, bi[k]), body_side(Y, nb, bj[k])
        if flag[k] == BOUND:  # a pair's bounding sphere: skip its points while apart
            skip = points_to_skip(A, side_i, side_j, vecs, k, _numbers(par, k))
            if skip == 0:  # touching: its points share the pair's law
                scale, scaled = patch_scale(A, side_i, side_j, vecs, par, k), int(par[k, 0])
            k += skip
            continue
        p = _numbers(par, k)
        if scaled > 0:
            p = (p[0] * scale, p[1], p[2], p[3], p[4], p[5], p[6], p[7])
            scaled -= 1
        dV, dP = contact_element(Q, A, side_i, side_j, vecs, k, flag[k], p)
        group_V += dV
        group_P += dP
    return group_V, group_P


@njit(cache=True)
def broad_contact_elements(t, order, nb, Y, A, Q, V, P, start, bi, bj, vecs, par, progs, flag, code, code_start, consts,
                           const_start, table_x, table_y, table_start, table_base, stack, bp_body, bp_centre, bp_radius,
                           bp_key, bp_first, bp_end, bp_always, bp_world, bp_order, bp_live, bp_mark):  # fmt: skip
    """Add the CONTACT elements of the pairs that the broad phase keeps (numerics.broad_phase: the
    candidates and the pairs evaluated always) to Q, in the order of the elements; returns V and P
    plus their potentials [J] and powers [W]."""
    proxy_centres(nb, Y, A, bp_body, bp_centre, bp_world)
    pairs = candidate_pairs(bp_world, bp_radius, bp_order, bp_key, 0.0)
    retire(pairs, bp_first, bp_end, bp_live, bp_mark, vecs, flag)
    ranges = element_ranges(pairs, bp_first, bp_end, bp_always)
    group_V, group_P = 0.0, 0.0
    for r in range(ranges.shape[0]):
        group_V, group_P = contact_range(ranges[r, 0], ranges[r, 1], nb, Y, A, Q, group_V, group_P, bi, bj, vecs, par,
                                         flag)  # fmt: skip
    if start[CONTACT + 1] > start[CONTACT]:
        V += group_V
        P += group_P
    return V, P


@njit(cache=True, inline="always")
def force_elements(t: float, order: int, Y: np.ndarray, S: tuple, W: tuple, Q: np.ndarray, V: float) -> tuple:
    """Add all force elements to Q (order 0) or their explicit time derivatives dQ/dt
    (order 1); returns (V + their potential [J], their power [W])."""
    if S.force_bi.shape[0] == 0:
        return V, 0.0
    if order == 0 and S.force_start[CONTACT] == 0 and S.bp_key.shape[0] == 0:  # contacts only: fewer arguments
        dV, dP = contact_range(0, S.force_bi.shape[0], S.nb, Y, W.A, Q, 0.0, 0.0, S.force_bi, S.force_bj,
                               S.force_vecs, S.force_par, S.force_flag)  # fmt: skip
        return V + dV, 0.0 + dP
    if S.bp_key.shape[0] > 0 and order == 0:  # contact pairs through the broad phase
        V, P = force_elements_arrays(
            t, order, S.nb, Y, W.A, Q, V, 0.0, S.bp_start, S.force_bi, S.force_bj, S.force_vecs, S.force_par,
            S.force_prog, S.force_flag, S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x,
            S.p_table_y, S.p_table_start, S.p_table_base, S.p_stack,
        )  # fmt: skip
        return broad_contact_elements(
            t, order, S.nb, Y, W.A, Q, V, P, S.force_start, S.force_bi, S.force_bj, S.force_vecs, S.force_par,
            S.force_prog, S.force_flag, S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x,
            S.p_table_y, S.p_table_start, S.p_table_base, S.p_stack, S.bp_body, S.bp_centre, S.bp_radius, S.bp_key,
            S.bp_first, S.bp_end, S.bp_always, S.bp_world, S.bp_order, S.bp_live, S.bp_mark,
        )  # fmt: skip
    return force_elements_arrays(
        t,
        order,
        S.nb,
        Y,
        W.A,
        Q,
        V,
        0.0,
        S.force_start,
        S.force_bi,
        S.force_bj,
        S.force_vecs,
        S.force_par,
        S.force_prog,
        S.force_flag,
        S.p_code,
        S.p_code_start,
        S.p_consts,
        S.p_const_start,
        S.p_table_x,
        S.p_table_y,
        S.p_table_start,
        S.p_table_base,
        S.p_stack,
    )


@njit(cache=True, inline="always")
def forces(t, Y, S, W, Q):
    """Generalized forces Q (global force, body-frame torque per body, gyroscopic term
    included). Returns (potential energy [J], power of non-conservative forces [W])."""
    V = _gravity_gyro(S.nb, Y, S.mass, S.inertia, S.gravity, Q)
    return force_elements(t, 0, Y, S, W, Q, V)
