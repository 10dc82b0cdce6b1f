"""Numba kernels of the system evaluator: forces Q, constraints (Phi, Phi_q, gamma),
the Schur complement with Tikhonov regularisation and Baumgarte stabilisation, and the
state derivative dY/dt of [R1] (Y = [q (7N), qdot (6N)], body-frame angular rates).

``S`` is the namedtuple of static arrays built by ``system.System`` (``Static``); ``W`` the
namedtuple of work arrays. All SI units.
"""

import numpy as np
from numba import njit

from .expressions import eval_jet
from .joints import ANGLE, Side, body_side, eval_row, point_kinematics, row_terms, wrap_angle
from .quaternion import quat_rate, quat_to_matrix
from .vec3 import Scalar, Vec3, body_mtv, body_mv, cross, div, dot, row, scale, sub

OK, SINGULAR, NOT_FINITE = 0, 1, 2
_ENTRY_POINTS = {}


def fast_call(fn, *args):
    """Call a Numba function from Python, skipping the dispatcher's type resolution after
    the first call: resolving the ~50 arrays of the Static/Work namedtuples costs tens of
    microseconds per call, the compiled entry point only unboxes them. Arrays must be
    C-contiguous float64/int64 as in the first call (the unboxing checks the types)."""
    entry = _ENTRY_POINTS.get(fn)
    if entry is not None:
        return entry(*args)
    out = fn(*args)
    if len(fn.overloads) == 1:
        _ENTRY_POINTS[fn] = next(iter(fn.overloads.values())).entry_point
    return out


# Kernels take their arrays explicitly: passing the Static/Work namedtuples to a non-inlined
# Numba function costs ~0.6 us a call (the whole struct is copied and every array's reference
# count touched), more than the work itself for small models. The functions taking (S, W)
# are thin inlined wrappers that unpack the fields.
@njit(cache=True, inline="always")
def jet(S, k, t):
    """Value, first and second time derivative of profile program k at time t."""
    return eval_jet(
        k,
        t,
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


@njit(cache=True)
def _update_rotations(nb, Y, A):
    for b in range(nb):
        quat_to_matrix(Y[7 * b + 3 : 7 * b + 7], A[b])


@njit(cache=True, inline="always")
def update_rotations(S, Y, A):
    """Rotation matrices of all moving bodies from the quaternions in Y."""
    _update_rotations(S.nb, Y, A)


# ----------------------------------------------------------------------------- force elements
# One element kernel per force type, generic over real and complex arguments: the ODE form
# (:func:`forces`) and the complex-step Jacobians (integrators/jacobians.py) both call them.
# ``Q`` holds 6 generalized-force entries (global force, body-frame torque) per slot; body b
# of a side (see joints.py) is its slot in both Q and A, b < 0 (the ground) receives nothing.
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


@njit(cache=True)
def _profile_value(
    progs, k, c, t, order, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
):
    """Value (order 0) or time derivative (order 1) at t of the profile progs[k, c]
    (0 where it is -1, i.e. absent)."""
    if progs[k, c] < 0:
        return 0.0
    return eval_jet(
        progs[k, c], t, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
    )[order]


@njit(cache=True)
def _profile_vector(
    progs, k, t, order, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
):
    """3-vector of profile values (order 0) or time derivatives (order 1) at t from row k of ``progs``."""
    return (
        _profile_value(
            progs,
            k,
            0,
            t,
            order,
            code,
            code_start,
            consts,
            const_start,
            table_x,
            table_y,
            table_start,
            table_base,
            stack,
        ),
        _profile_value(
            progs,
            k,
            1,
            t,
            order,
            code,
            code_start,
            consts,
            const_start,
            table_x,
            table_y,
            table_start,
            table_base,
            stack,
        ),
        _profile_value(
            progs,
            k,
            2,
            t,
            order,
            code,
            code_start,
            consts,
            const_start,
            table_x,
            table_y,
            table_start,
            table_base,
            stack,
        ),
    )


@njit(cache=True, inline="always")
def load_profiles(S: tuple, k: int, t: float, order: int) -> tuple[Vec3, Vec3]:
    """Force [N] and torque [N m] of load k at time t (order 0) or their time derivatives
    (order 1), in the frame of the load."""
    return (
        _profile_vector(
            S.load_fprog,
            k,
            t,
            order,
            S.p_code,
            S.p_code_start,
            S.p_consts,
            S.p_const_start,
            S.p_table_x,
            S.p_table_y,
            S.p_table_start,
            S.p_table_base,
            S.p_stack,
        ),
        _profile_vector(
            S.load_tprog,
            k,
            t,
            order,
            S.p_code,
            S.p_code_start,
            S.p_consts,
            S.p_const_start,
            S.p_table_x,
            S.p_table_y,
            S.p_table_start,
            S.p_table_base,
            S.p_stack,
        ),
    )


@njit(cache=True)
def _loads(
    t,
    nb,
    Y,
    A,
    Q,
    body,
    point,
    fprog,
    tprog,
    frame,
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
    """Point forces and torques (profiles of t, global or body frame); returns their power [W]."""
    P = 0.0
    for k in range(body.shape[0]):
        F = _profile_vector(
            fprog, k, t, 0, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
        )
        T = _profile_vector(
            tprog, k, t, 0, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
        )
        side = body_side(Y, nb, body[k])
        s = row(point, k)
        Fg, Tb = point_load(Q, A, body[k], s, F, T, frame[k] == 1)
        v = point_kinematics(A, side, s)[1]
        w = side[3]
        P += dot(Fg, v) + Tb[0] * w[0] + Tb[1] * w[1] + Tb[2] * w[2]
    return P


@njit(cache=True)
def _spring_dampers(nb, Y, A, Q, bi, bj, si, sj, k_arr, c_arr, l0):
    """Translational spring-dampers; returns (potential [J], damper power [W])."""
    V = 0.0
    P = 0.0
    for k in range(bi.shape[0]):
        dV, dP = spring_damper(
            Q, A, body_side(Y, nb, bi[k]), body_side(Y, nb, bj[k]), row(si, k), row(sj, k), k_arr[k], c_arr[k], l0[k]
        )
        V += dV
        P += dP
    return V, P


@njit(cache=True)
def _rotational_springs(nb, Y, A, Q, bi, bj, vecs, k_arr, c_arr, th0):
    """Rotational spring-dampers on joint angles; returns (potential [J], damper power [W])."""
    V = 0.0
    P = 0.0
    for k in range(bi.shape[0]):
        dV, dP = rotational_spring_damper(
            Q, A, body_side(Y, nb, bi[k]), body_side(Y, nb, bj[k]), vecs, k, k_arr[k], c_arr[k], th0[k]
        )
        V += dV
        P += dP
    return V, P


@njit(cache=True, inline="always")
def forces(t, Y, S, W, Q):
    """Generalized forces Q (global force, body-frame torque per body, gyroscopic term
    included). Returns (potential energy [J], power of non-conservative forces [W])."""
    V = _gravity_gyro(S.nb, Y, S.mass, S.inertia, S.gravity, Q)
    P = 0.0
    if S.load_body.shape[0]:
        P += _loads(
            t,
            S.nb,
            Y,
            W.A,
            Q,
            S.load_body,
            S.load_point,
            S.load_fprog,
            S.load_tprog,
            S.load_frame,
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
    if S.sd_bi.shape[0]:
        dV, dP = _spring_dampers(S.nb, Y, W.A, Q, S.sd_bi, S.sd_bj, S.sd_si, S.sd_sj, S.sd_k, S.sd_c, S.sd_l0)
        V += dV
        P += dP
    if S.rs_bi.shape[0]:
        dV, dP = _rotational_springs(S.nb, Y, W.A, Q, S.rs_bi, S.rs_bj, S.rs_vecs, S.rs_k, S.rs_c, S.rs_th0)
        V += dV
        P += dP
    return V, P


@njit(cache=True)
def _constraints(
    t,
    Y,
    nb,
    A,
    kind_arr,
    bi,
    bj,
    vecs,
    prog,
    phi_out,
    jac,
    gamma_out,
    rate_out,
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
    for r in range(kind_arr.shape[0]):
        kind = kind_arr[r]
        phi, gamma, rate = eval_row(r, kind, bi[r], bj[r], vecs, Y, nb, A, jac)
        k = prog[r]
        if k >= 0:
            f, fd, fdd = eval_jet(
                k, t, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
            )
            phi = phi - f
            if kind == ANGLE:
                phi = wrap_angle(phi)
            rate -= fd
            gamma += fdd
        phi_out[r] = phi
        gamma_out[r] = gamma
        rate_out[r] = rate


@njit(cache=True, inline="always")
def constraints(t, Y, S, W):
    """Fill W.phi, W.jac, W.gamma, W.rate (= Phi_q qdot + Phi_t) at (t, Y)."""
    _constraints(
        t,
        Y,
        S.nb,
        W.A,
        S.row_kind,
        S.row_bi,
        S.row_bj,
        S.row_vecs,
        S.row_prog,
        W.phi,
        W.jac,
        W.gamma,
        W.rate,
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


@njit(cache=True)
def _schur(band, jac, minv, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm, eps):
    band[:, :] = 0.0
    for p in range(pair_r.shape[0]):
        r, s, b = pair_r[p], pair_s[p], pair_body[p]
        sr, ss = pair_side_r[p], pair_side_s[p]
        val = 0.0
        for k in range(6):
            val += jac[r, sr, k] * minv[b, k] * jac[s, ss, k]
        i, j = perm[r], perm[s]
        if i >= j:
            band[i, i - j] += val
        else:
            band[j, j - i] += val
    m = band.shape[0]
    dmax = 0.0
    for i in range(m):
        dmax = max(dmax, band[i, 0])
    for i in range(m):
        band[i, 0] += eps * band[i, 0] + 1e-15 * dmax


@njit(cache=True, inline="always")
def _schur_band(S, W):
    """Assemble the band of the permuted, regularised Schur complement C = J M^-1 J^T."""
    _schur(W.band, W.jac, S.minv, S.pair_r, S.pair_s, S.pair_body, S.pair_side_r, S.pair_side_s, S.perm, S.eps)


@njit(cache=True)
def band_cholesky(band, bw):
    """In-place Cholesky factor of a symmetric band matrix (row i, column i - k at
    band[i, k]); returns False if it is not positive definite."""
    m = band.shape[0]
    for i in range(m):
        j0 = max(0, i - bw)
        for j in range(j0, i + 1):
            s = band[i, i - j]
            for k in range(max(j0, j - bw), j):
                s -= band[i, i - k] * band[j, j - k]
            if j == i:
                if not s > 0.0:
                    return False
                band[i, 0] = np.sqrt(s)
            else:
                band[i, i - j] = s / band[j, 0]
    return True


@njit(cache=True)
def band_solve(band, bw, x):
    """Solve L L^T x = b in place for a factor from band_cholesky."""
    m = band.shape[0]
    for i in range(m):
        s = x[i]
        for k in range(max(0, i - bw), i):
            s -= band[i, i - k] * x[k]
        x[i] = s / band[i, 0]
    for i in range(m - 1, -1, -1):
        s = x[i]
        for k in range(i + 1, min(m, i + bw + 1)):
            s -= band[k, k - i] * x[k]
        x[i] = s / band[i, 0]


@njit(cache=True)
def _multipliers(
    t,
    nb,
    acc,
    jac,
    bi,
    bj,
    prog,
    gamma,
    rate,
    phi,
    alpha,
    beta,
    band,
    bw,
    rhs,
    lam,
    perm,
    minv,
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
    """Solve C lam = J M^-1 Q - gamma* (band Cholesky) and subtract M^-1 J^T lam from acc.
    Returns (ok, driver power [W])."""
    m = bi.shape[0]
    if not band_cholesky(band, bw):
        return False, 0.0
    for r in range(m):
        s = 0.0
        for side in range(2):
            b = bi[r] if side == 0 else bj[r]
            if b >= 0:
                for k in range(6):
                    s += jac[r, side, k] * acc[6 * b + k]
        gstar = gamma[r] - 2.0 * alpha * rate[r] - beta * beta * phi[r]
        rhs[perm[r]] = s - gstar
    band_solve(band, bw, rhs)
    Pdrv = 0.0
    for r in range(m):
        lr = rhs[perm[r]]
        lam[r] = lr
        for side in range(2):
            b = bi[r] if side == 0 else bj[r]
            if b >= 0:
                for k in range(6):
                    acc[6 * b + k] -= minv[b, k] * jac[r, side, k] * lr
        if prog[r] >= 0:
            fd = eval_jet(
                prog[r], t, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
            )[1]
            Pdrv -= lr * (rate[r] + fd)
    return True, Pdrv


@njit(cache=True)
def _state_rates(nb, Y, acc, Ydot):
    """Assemble dY/dt from the accelerations; returns False if anything is not finite."""
    for b in range(nb):
        o = 7 * nb + 6 * b
        for k in range(3):
            Ydot[7 * b + k] = Y[o + k]
        quat_rate(Y[7 * b + 3 : 7 * b + 7], Y[o + 3 : o + 6], Ydot[7 * b + 3 : 7 * b + 7])
        for k in range(6):
            Ydot[o + k] = acc[6 * b + k]
    for i in range(Ydot.shape[0]):
        if not np.isfinite(Ydot[i]):
            return False
    return True


@njit(cache=True, inline="always")
def derivatives(t, Y, S, W, Ydot):
    """dY/dt at (t, Y); fills W.lam (multipliers, J^T lam is the constraint load with
    a minus sign). Returns (status, potential energy, non-conservative power, driver power)."""
    nb = S.nb
    _update_rotations(nb, Y, W.A)
    V, Pnc = forces(t, Y, S, W, W.Q)
    acc = W.acc
    for i in range(6 * nb):
        acc[i] = W.Q[i] * S.minv[i // 6, i % 6]
    Pdrv = 0.0
    if S.row_kind.shape[0] > 0:
        constraints(t, Y, S, W)
        _schur_band(S, W)
        ok, Pdrv = _multipliers(
            t,
            nb,
            acc,
            W.jac,
            S.row_bi,
            S.row_bj,
            S.row_prog,
            W.gamma,
            W.rate,
            W.phi,
            S.alpha,
            S.beta,
            W.band,
            S.bw,
            W.rhs,
            W.lam,
            S.perm,
            S.minv,
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
        if not ok:
            return SINGULAR, V, Pnc, Pdrv
    if not _state_rates(nb, Y, acc, Ydot):
        return NOT_FINITE, V, Pnc, Pdrv
    return OK, V, Pnc, Pdrv


@njit(cache=True)
def _normalize_quaternions(nb, Y):
    for b in range(nb):
        n = np.sqrt(Y[7 * b + 3] ** 2 + Y[7 * b + 4] ** 2 + Y[7 * b + 5] ** 2 + Y[7 * b + 6] ** 2)
        for k in range(4):
            Y[7 * b + 3 + k] /= n


@njit(cache=True, inline="always")
def normalize_quaternions(S, Y):
    """Project the quaternions of Y back onto the unit sphere."""
    _normalize_quaternions(S.nb, Y)


@njit(cache=True)
def kinetic_energy(S, Y):
    """Kinetic energy [J] of all moving bodies."""
    T = 0.0
    for b in range(S.nb):
        o = 7 * S.nb + 6 * b
        for k in range(3):
            T += 0.5 * S.mass[b] * Y[o + k] ** 2 + 0.5 * S.inertia[b, k] * Y[o + 3 + k] ** 2
    return T
