"""Numba kernels of the system evaluator: forces Q, constraints (Phi, Phi_q, gamma),
the Schur complement with Tikhonov regularisation and Baumgarte stabilisation, and the
state derivative dY/dt of seed 000 (Y = [q (7N), qdot (6N)], body-frame angular rates).

``S`` is the namedtuple of static arrays built by ``system.build_static``; ``W`` the
namedtuple of work arrays. All SI units.
"""
import numpy as np
from numba import njit

from .expressions import eval_jet
from .joints import ANGLE, eval_row, wrap_angle
from .quaternion import quat_to_matrix, quat_rate

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
    return eval_jet(k, t, S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x,
                    S.p_table_y, S.p_table_start, S.p_table_base, S.p_stack)


@njit(cache=True)
def _update_rotations(nb, Y, A):
    for b in range(nb):
        quat_to_matrix(Y[7 * b + 3:7 * b + 7], A[b])


@njit(cache=True, inline="always")
def update_rotations(S, Y, A):
    """Rotation matrices of all moving bodies from the quaternions in Y."""
    _update_rotations(S.nb, Y, A)


@njit(cache=True)
def _cross3(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@njit(cache=True)
def _AT(A, b, x):
    return (A[b, 0, 0] * x[0] + A[b, 1, 0] * x[1] + A[b, 2, 0] * x[2],
            A[b, 0, 1] * x[0] + A[b, 1, 1] * x[1] + A[b, 2, 1] * x[2],
            A[b, 0, 2] * x[0] + A[b, 1, 2] * x[1] + A[b, 2, 2] * x[2])


@njit(cache=True)
def _Ax(A, b, x):
    return (A[b, 0, 0] * x[0] + A[b, 0, 1] * x[1] + A[b, 0, 2] * x[2],
            A[b, 1, 0] * x[0] + A[b, 1, 1] * x[1] + A[b, 1, 2] * x[2],
            A[b, 2, 0] * x[0] + A[b, 2, 1] * x[1] + A[b, 2, 2] * x[2])


@njit(cache=True)
def _apply(Q, A, b, s, F):
    """Add a global force F [N] acting at body-local point s to body b's generalized force."""
    if b < 0:
        return
    T = _cross3(s, _AT(A, b, F))
    for k in range(3):
        Q[6 * b + k] += F[k]
        Q[6 * b + 3 + k] += T[k]


@njit(cache=True)
def _point(Y, A, b, s):
    if b < 0:
        return (s[0], s[1], s[2])
    p = _Ax(A, b, s)
    return (Y[7 * b] + p[0], Y[7 * b + 1] + p[1], Y[7 * b + 2] + p[2])


@njit(cache=True)
def _point_velocity(nb, Y, A, b, s):
    if b < 0:
        return (0.0, 0.0, 0.0)
    o = 7 * nb + 6 * b
    w = (Y[o + 3], Y[o + 4], Y[o + 5])
    u = _Ax(A, b, _cross3(w, s))
    return (Y[o] + u[0], Y[o + 1] + u[1], Y[o + 2] + u[2])


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
def _profile_value(progs, k, c, t, code, code_start, consts, const_start, table_x, table_y, table_start,
                   table_base, stack):
    """Value at t of the profile progs[k, c] (0 where it is -1, i.e. absent)."""
    if progs[k, c] < 0:
        return 0.0
    return eval_jet(progs[k, c], t, code, code_start, consts, const_start, table_x, table_y, table_start,
                    table_base, stack)[0]


@njit(cache=True)
def _profile_vector(progs, k, t, code, code_start, consts, const_start, table_x, table_y, table_start,
                    table_base, stack):
    """3-vector of profile values at t from row k of ``progs``."""
    return (_profile_value(progs, k, 0, t, code, code_start, consts, const_start, table_x, table_y,
                           table_start, table_base, stack),
            _profile_value(progs, k, 1, t, code, code_start, consts, const_start, table_x, table_y,
                           table_start, table_base, stack),
            _profile_value(progs, k, 2, t, code, code_start, consts, const_start, table_x, table_y,
                           table_start, table_base, stack))


@njit(cache=True)
def _loads(t, nb, Y, A, Q, body, point, fprog, tprog, frame,
           code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack):
    """Point forces and torques (profiles of t, global or body frame); returns their power [W]."""
    P = 0.0
    for k in range(body.shape[0]):
        b = body[k]
        F = _profile_vector(fprog, k, t, code, code_start, consts, const_start, table_x, table_y,
                            table_start, table_base, stack)
        T = _profile_vector(tprog, k, t, code, code_start, consts, const_start, table_x, table_y,
                            table_start, table_base, stack)
        s = (point[k, 0], point[k, 1], point[k, 2])
        if frame[k] == 1:
            Fg = _Ax(A, b, F)
            Tb = T
        else:
            Fg = F
            Tb = _AT(A, b, T)
        _apply(Q, A, b, s, Fg)
        o = 7 * nb + 6 * b
        for c in range(3):
            Q[6 * b + 3 + c] += Tb[c]
        v = _point_velocity(nb, Y, A, b, s)
        P += (Fg[0] * v[0] + Fg[1] * v[1] + Fg[2] * v[2]
              + Tb[0] * Y[o + 3] + Tb[1] * Y[o + 4] + Tb[2] * Y[o + 5])
    return P


@njit(cache=True)
def _spring_dampers(nb, Y, A, Q, bi_arr, bj_arr, si_arr, sj_arr, k_arr, c_arr, l0_arr):
    """Translational spring-dampers; returns (potential [J], damper power [W])."""
    V = 0.0
    P = 0.0
    for k in range(bi_arr.shape[0]):
        bi, bj = bi_arr[k], bj_arr[k]
        si = (si_arr[k, 0], si_arr[k, 1], si_arr[k, 2])
        sj = (sj_arr[k, 0], sj_arr[k, 1], sj_arr[k, 2])
        pi, pj = _point(Y, A, bi, si), _point(Y, A, bj, sj)
        vi, vj = _point_velocity(nb, Y, A, bi, si), _point_velocity(nb, Y, A, bj, sj)
        d = (pj[0] - pi[0], pj[1] - pi[1], pj[2] - pi[2])
        length = np.sqrt(d[0] ** 2 + d[1] ** 2 + d[2] ** 2)
        if length < 1e-12:
            continue
        u = (d[0] / length, d[1] / length, d[2] / length)
        rate = u[0] * (vj[0] - vi[0]) + u[1] * (vj[1] - vi[1]) + u[2] * (vj[2] - vi[2])
        stretch = length - l0_arr[k]
        tension = k_arr[k] * stretch + c_arr[k] * rate
        _apply(Q, A, bi, si, (tension * u[0], tension * u[1], tension * u[2]))
        _apply(Q, A, bj, sj, (-tension * u[0], -tension * u[1], -tension * u[2]))
        V += 0.5 * k_arr[k] * stretch * stretch
        P -= c_arr[k] * rate * rate
    return V, P


@njit(cache=True)
def _joint_angle(nb, Y, A, bi, bj, vecs, jac, k):
    vel = Y[7 * nb:]
    theta, _, rate = eval_row(k, ANGLE, bi[k], bj[k], vecs, Y, A, vel, jac)
    return theta, rate


@njit(cache=True, inline="always")
def joint_angle(Y, S, W, k):
    """Angle [rad] and rate [rad/s] of rotational spring k's joint; fills W.rs_jac[k]."""
    return _joint_angle(S.nb, Y, W.A, S.rs_bi, S.rs_bj, S.rs_vecs, W.rs_jac, k)


@njit(cache=True)
def _rotational_springs(nb, Y, A, Q, bi, bj, vecs, k_arr, c_arr, th0, jac):
    """Rotational spring-dampers on joint angles; returns (potential, damper power)."""
    V = 0.0
    P = 0.0
    for k in range(bi.shape[0]):
        theta, rate = _joint_angle(nb, Y, A, bi, bj, vecs, jac, k)
        dtheta = wrap_angle(theta - th0[k])
        torque = -(k_arr[k] * dtheta + c_arr[k] * rate)
        for side in range(2):
            b = bi[k] if side == 0 else bj[k]
            if b >= 0:
                for c in range(3):
                    Q[6 * b + 3 + c] += torque * jac[k, side, 3 + c]
        V += 0.5 * k_arr[k] * dtheta * dtheta
        P -= c_arr[k] * rate * rate
    return V, P


@njit(cache=True, inline="always")
def forces(t, Y, S, W, Q):
    """Generalized forces Q (global force, body-frame torque per body, gyroscopic term
    included). Returns (potential energy [J], power of non-conservative forces [W])."""
    V = _gravity_gyro(S.nb, Y, S.mass, S.inertia, S.gravity, Q)
    P = 0.0
    if S.load_body.shape[0]:
        P += _loads(t, S.nb, Y, W.A, Q, S.load_body, S.load_point, S.load_fprog, S.load_tprog, S.load_frame,
                    S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x, S.p_table_y,
                    S.p_table_start, S.p_table_base, S.p_stack)
    if S.sd_bi.shape[0]:
        dV, dP = _spring_dampers(S.nb, Y, W.A, Q, S.sd_bi, S.sd_bj, S.sd_si, S.sd_sj, S.sd_k, S.sd_c, S.sd_l0)
        V += dV
        P += dP
    if S.rs_bi.shape[0]:
        dV, dP = _rotational_springs(S.nb, Y, W.A, Q, S.rs_bi, S.rs_bj, S.rs_vecs, S.rs_k, S.rs_c, S.rs_th0,
                                     W.rs_jac)
        V += dV
        P += dP
    return V, P


@njit(cache=True)
def _constraints(t, Y, nb, A, kind_arr, bi, bj, vecs, prog, phi_out, jac, gamma_out, rate_out,
                 code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack):
    vel = Y[7 * nb:]
    for r in range(kind_arr.shape[0]):
        kind = kind_arr[r]
        phi, gamma, rate = eval_row(r, kind, bi[r], bj[r], vecs, Y, A, vel, jac)
        k = prog[r]
        if k >= 0:
            f, fd, fdd = eval_jet(k, t, code, code_start, consts, const_start, table_x, table_y,
                                  table_start, table_base, stack)
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
    _constraints(t, Y, S.nb, W.A, S.row_kind, S.row_bi, S.row_bj, S.row_vecs, S.row_prog, W.phi, W.jac,
                 W.gamma, W.rate, S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x,
                 S.p_table_y, S.p_table_start, S.p_table_base, S.p_stack)


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
def _multipliers(t, nb, acc, jac, bi, bj, prog, gamma, rate, phi, alpha, beta, band, bw, rhs, lam, perm, minv,
                 code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack):
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
            fd = eval_jet(prog[r], t, code, code_start, consts, const_start, table_x, table_y,
                          table_start, table_base, stack)[1]
            Pdrv -= lr * (rate[r] + fd)
    return True, Pdrv


@njit(cache=True)
def _state_rates(nb, Y, acc, Ydot):
    """Assemble dY/dt from the accelerations; returns False if anything is not finite."""
    for b in range(nb):
        o = 7 * nb + 6 * b
        for k in range(3):
            Ydot[7 * b + k] = Y[o + k]
        quat_rate(Y[7 * b + 3:7 * b + 7], Y[o + 3:o + 6], Ydot[7 * b + 3:7 * b + 7])
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
        ok, Pdrv = _multipliers(t, nb, acc, W.jac, S.row_bi, S.row_bj, S.row_prog, W.gamma, W.rate, W.phi,
                                S.alpha, S.beta, W.band, S.bw, W.rhs, W.lam, S.perm, S.minv,
                                S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x,
                                S.p_table_y, S.p_table_start, S.p_table_base, S.p_stack)
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
