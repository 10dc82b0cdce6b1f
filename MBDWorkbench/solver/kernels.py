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


@njit(cache=True)
def jet(S, k, t):
    """Value, first and second time derivative of profile program k at time t."""
    return eval_jet(k, t, S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x,
                    S.p_table_y, S.p_table_start, S.p_table_base, S.p_stack)


@njit(cache=True)
def update_rotations(S, Y, A):
    """Rotation matrices of all moving bodies from the quaternions in Y."""
    for b in range(S.nb):
        quat_to_matrix(Y[7 * b + 3:7 * b + 7], A[b])


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
def _point_velocity(S, Y, A, b, s):
    if b < 0:
        return (0.0, 0.0, 0.0)
    o = 7 * S.nb + 6 * b
    w = (Y[o + 3], Y[o + 4], Y[o + 5])
    u = _Ax(A, b, _cross3(w, s))
    return (Y[o] + u[0], Y[o + 1] + u[1], Y[o + 2] + u[2])


@njit(cache=True)
def forces(t, Y, S, W, Q):
    """Generalized forces Q (global force, body-frame torque per body, gyroscopic term
    included). Returns (potential energy [J], power of non-conservative forces [W])."""
    A = W.A
    nb = S.nb
    V = 0.0
    P = 0.0
    for b in range(nb):
        o = 7 * nb + 6 * b
        w0, w1, w2 = Y[o + 3], Y[o + 4], Y[o + 5]
        J0, J1, J2 = S.inertia[b, 0], S.inertia[b, 1], S.inertia[b, 2]
        for k in range(3):
            Q[6 * b + k] = S.mass[b] * S.gravity[k]
            V -= S.mass[b] * S.gravity[k] * Y[7 * b + k]
        Q[6 * b + 3] = -(w1 * J2 * w2 - w2 * J1 * w1)
        Q[6 * b + 4] = -(w2 * J0 * w0 - w0 * J2 * w2)
        Q[6 * b + 5] = -(w0 * J1 * w1 - w1 * J0 * w0)
    for k in range(S.load_body.shape[0]):
        P += _load(t, Y, S, W, Q, k)
    for k in range(S.sd_bi.shape[0]):
        dV, dP = _spring_damper(Y, S, W, Q, k)
        V += dV
        P += dP
    for k in range(S.rs_bi.shape[0]):
        dV, dP = _rotational_spring(Y, S, W, Q, k)
        V += dV
        P += dP
    return V, P


@njit(cache=True)
def _load(t, Y, S, W, Q, k):
    """Point force and torque k; returns its power [W]."""
    A = W.A
    b = S.load_body[k]
    F = np.zeros(3)
    T = np.zeros(3)
    for c in range(3):
        if S.load_fprog[k, c] >= 0:
            F[c] = jet(S, S.load_fprog[k, c], t)[0]
        if S.load_tprog[k, c] >= 0:
            T[c] = jet(S, S.load_tprog[k, c], t)[0]
    s = (S.load_point[k, 0], S.load_point[k, 1], S.load_point[k, 2])
    if S.load_frame[k] == 1:
        Fg = _Ax(A, b, (F[0], F[1], F[2]))
        Tb = (T[0], T[1], T[2])
    else:
        Fg = (F[0], F[1], F[2])
        Tb = _AT(A, b, (T[0], T[1], T[2]))
    _apply(Q, A, b, s, Fg)
    o = 7 * S.nb + 6 * b
    for c in range(3):
        Q[6 * b + 3 + c] += Tb[c]
    v = _point_velocity(S, Y, A, b, s)
    return (Fg[0] * v[0] + Fg[1] * v[1] + Fg[2] * v[2]
            + Tb[0] * Y[o + 3] + Tb[1] * Y[o + 4] + Tb[2] * Y[o + 5])


@njit(cache=True)
def _spring_damper(Y, S, W, Q, k):
    """Translational spring-damper k; returns (potential [J], damper power [W])."""
    A = W.A
    bi, bj = S.sd_bi[k], S.sd_bj[k]
    si = (S.sd_si[k, 0], S.sd_si[k, 1], S.sd_si[k, 2])
    sj = (S.sd_sj[k, 0], S.sd_sj[k, 1], S.sd_sj[k, 2])
    pi, pj = _point(Y, A, bi, si), _point(Y, A, bj, sj)
    vi, vj = _point_velocity(S, Y, A, bi, si), _point_velocity(S, Y, A, bj, sj)
    d = (pj[0] - pi[0], pj[1] - pi[1], pj[2] - pi[2])
    length = np.sqrt(d[0] ** 2 + d[1] ** 2 + d[2] ** 2)
    if length < 1e-12:
        return 0.0, 0.0
    u = (d[0] / length, d[1] / length, d[2] / length)
    rate = u[0] * (vj[0] - vi[0]) + u[1] * (vj[1] - vi[1]) + u[2] * (vj[2] - vi[2])
    stretch = length - S.sd_l0[k]
    tension = S.sd_k[k] * stretch + S.sd_c[k] * rate
    _apply(Q, A, bi, si, (tension * u[0], tension * u[1], tension * u[2]))
    _apply(Q, A, bj, sj, (-tension * u[0], -tension * u[1], -tension * u[2]))
    return 0.5 * S.sd_k[k] * stretch * stretch, -S.sd_c[k] * rate * rate


@njit(cache=True)
def joint_angle(Y, S, W, k):
    """Angle [rad] and rate [rad/s] of rotational spring k's joint; fills W.rs_jac[k]."""
    vel = Y[7 * S.nb:]
    theta, _, rate = eval_row(k, ANGLE, S.rs_bi[k], S.rs_bj[k], S.rs_vecs, Y, W.A, vel, W.rs_jac)
    return theta, rate


@njit(cache=True)
def _rotational_spring(Y, S, W, Q, k):
    """Rotational spring-damper k on a joint angle; returns (potential, damper power)."""
    theta, rate = joint_angle(Y, S, W, k)
    dtheta = wrap_angle(theta - S.rs_th0[k])
    torque = -(S.rs_k[k] * dtheta + S.rs_c[k] * rate)
    for side in range(2):
        b = S.rs_bi[k] if side == 0 else S.rs_bj[k]
        if b >= 0:
            for c in range(3):
                Q[6 * b + 3 + c] += torque * W.rs_jac[k, side, 3 + c]
    return 0.5 * S.rs_k[k] * dtheta * dtheta, -S.rs_c[k] * rate * rate


@njit(cache=True)
def constraints(t, Y, S, W):
    """Fill W.phi, W.jac, W.gamma, W.rate (= Phi_q qdot + Phi_t) at (t, Y)."""
    vel = Y[7 * S.nb:]
    for r in range(S.row_kind.shape[0]):
        kind = S.row_kind[r]
        phi, gamma, rate = eval_row(r, kind, S.row_bi[r], S.row_bj[r], S.row_vecs, Y, W.A, vel, W.jac)
        k = S.row_prog[r]
        if k >= 0:
            f, fd, fdd = jet(S, k, t)
            phi = phi - f
            if kind == ANGLE:
                phi = wrap_angle(phi)
            rate -= fd
            gamma += fdd
        W.phi[r] = phi
        W.gamma[r] = gamma
        W.rate[r] = rate


@njit(cache=True)
def _schur_band(S, W):
    """Assemble the band of the permuted, regularised Schur complement C = J M^-1 J^T."""
    band = W.band
    band[:, :] = 0.0
    jac = W.jac
    for p in range(S.pair_r.shape[0]):
        r, s, b = S.pair_r[p], S.pair_s[p], S.pair_body[p]
        sr, ss = S.pair_side_r[p], S.pair_side_s[p]
        val = 0.0
        for k in range(6):
            val += jac[r, sr, k] * S.minv[b, k] * jac[s, ss, k]
        i, j = S.perm[r], S.perm[s]
        if i >= j:
            band[i, i - j] += val
        else:
            band[j, j - i] += val
    m = band.shape[0]
    dmax = 0.0
    for i in range(m):
        dmax = max(dmax, band[i, 0])
    for i in range(m):
        band[i, 0] += S.eps * band[i, 0] + 1e-15 * dmax


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
def derivatives(t, Y, S, W, Ydot):
    """dY/dt at (t, Y); fills W.lam (multipliers, J^T lam is the constraint load with
    a minus sign). Returns (status, potential energy, non-conservative power, driver power)."""
    nb = S.nb
    update_rotations(S, Y, W.A)
    V, Pnc = forces(t, Y, S, W, W.Q)
    m = S.row_kind.shape[0]
    Pdrv = 0.0
    acc = W.acc
    for i in range(6 * nb):
        acc[i] = W.Q[i] * S.minv[i // 6, i % 6]
    if m > 0:
        constraints(t, Y, S, W)
        _schur_band(S, W)
        if not band_cholesky(W.band, S.bw):
            return SINGULAR, V, Pnc, Pdrv
        rhs = W.rhs
        for r in range(m):
            s = 0.0
            for side in range(2):
                b = S.row_bi[r] if side == 0 else S.row_bj[r]
                if b >= 0:
                    for k in range(6):
                        s += W.jac[r, side, k] * acc[6 * b + k]
            gstar = W.gamma[r] - 2.0 * S.alpha * W.rate[r] - S.beta * S.beta * W.phi[r]
            rhs[S.perm[r]] = s - gstar
        band_solve(W.band, S.bw, rhs)
        for r in range(m):
            lam = rhs[S.perm[r]]
            W.lam[r] = lam
            for side in range(2):
                b = S.row_bi[r] if side == 0 else S.row_bj[r]
                if b >= 0:
                    for k in range(6):
                        acc[6 * b + k] -= S.minv[b, k] * W.jac[r, side, k] * lam
            if S.row_prog[r] >= 0:
                Pdrv -= lam * (W.rate[r] + jet(S, S.row_prog[r], t)[1])
    for b in range(nb):
        o = 7 * nb + 6 * b
        for k in range(3):
            Ydot[7 * b + k] = Y[o + k]
        quat_rate(Y[7 * b + 3:7 * b + 7], Y[o + 3:o + 6], Ydot[7 * b + 3:7 * b + 7])
        for k in range(6):
            Ydot[o + k] = acc[6 * b + k]
    for i in range(Ydot.shape[0]):
        if not np.isfinite(Ydot[i]):
            return NOT_FINITE, V, Pnc, Pdrv
    return OK, V, Pnc, Pdrv


@njit(cache=True)
def normalize_quaternions(S, Y):
    """Project the quaternions of Y back onto the unit sphere."""
    for b in range(S.nb):
        n = np.sqrt(Y[7 * b + 3] ** 2 + Y[7 * b + 4] ** 2 + Y[7 * b + 5] ** 2 + Y[7 * b + 6] ** 2)
        for k in range(4):
            Y[7 * b + 3 + k] /= n


@njit(cache=True)
def kinetic_energy(S, Y):
    """Kinetic energy [J] of all moving bodies."""
    T = 0.0
    for b in range(S.nb):
        o = 7 * S.nb + 6 * b
        for k in range(3):
            T += 0.5 * S.mass[b] * Y[o + k] ** 2 + 0.5 * S.inertia[b, k] * Y[o + 3 + k] ** 2
    return T
