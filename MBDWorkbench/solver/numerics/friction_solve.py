"""The friction-consistent solve of joint friction and contact stiction, compiled
(solver/system/friction.py holds the reference in NumPy and the modes; docs/joint-friction.md).

One call evaluates the forces and constraint rows at (t, Y), the friction channels' rows G,
gamma_G and rates, and solves the KKT system densely with the contacts' modes: stuck channels
as extra rows, slipping ones by the fixed point on their efforts mu_k N d, N from the joints'
reactions (or a stiction patch's normal force). Same arithmetic as the reference, in loops:
no LAPACK (whose threads spin on a busy machine) and no allocation of Python objects.

The friction arrays (:data:`FrictionArrays`) are packed once per System (system/friction_pack.py).
"""

from collections import namedtuple

import numpy as np

from .constraints import constraints
from .contact_patch import point_loads
from .forces import forces
from .jets import eval_jet
from .jit import njit
from .joints import eval_row
from .quaternion import quat_to_matrix
from .vec3 import body_mtv, body_mv, cross, dot, row, scale, sub

STICK, SLIP = 1, 0  # a contact's modes
REST_SPEED = 1e-9  # [m/s] slip speed below which a contact is at rest
FIXED_POINT_TOL = 1e-10  # relative change of the friction efforts at which the fixed point has converged
FIXED_POINT_ITER = 100
STICK_SLACK = 1e-12  # relative margin on mu_s N before a sticking contact breaks away (round-off)
GRAM_PIVOT_RATIO = 1e-6  # smallest over largest Cholesky pivot of R M^-1 R^T solved by its inverse factor
CH_ROTATION, CH_ROW, CH_PATCH = 0, 1, 2  # channel kinds: relative rotation about an axis, a joint row, a patch's
C_AXIAL, C_PRISMATIC, C_SPHERICAL, C_PATCH = 0, 1, 2, 3  # how a contact's load N is read
SOLVED, ILL_CONDITIONED, NOT_CONVERGED = 0, 1, 2  # statuses of :func:`friction_solve`

FrictionArrays = namedtuple(
    "FrictionArrays",
    "ch_kind ch_bi ch_bj ch_axis ch_row ch_vecs arm "
    "c_type c_mu_s c_mu_k c_length c_start c_end c_row_start c_rows c_bi c_side c_b c_origin c_axis c_patch "
    "p_el_start p_elements p_bi p_bj p_tangents p_normal p_start p_end",
)


@njit(cache=True)
def _cross(a, b):
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


@njit(cache=True)
def _dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@njit(cache=True)
def _mv(M, v):
    """M @ v, in loops (no BLAS call for these small matrices)."""
    out = np.zeros(M.shape[0])
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            out[i] += M[i, j] * v[j]
    return out


@njit(cache=True)
def _mtv(M, v):
    """M^T @ v, in loops."""
    out = np.zeros(M.shape[1])
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            out[j] += M[i, j] * v[i]
    return out


@njit(cache=True)
def _gram(RM, R):
    """RM @ R^T (symmetric), in loops."""
    n = R.shape[0]
    C = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            C[i, j] = _dot(RM[i], R[j])
            C[j, i] = C[i, j]
    return C


@njit(cache=True)
def _dense_jacobian(nb, row_bi, row_bj, jac):
    """Phi_q (m x 6 nb) from the rows' two sides jac (m, 2, 6)."""
    m = jac.shape[0]
    J = np.zeros((m, 6 * nb))
    for r in range(m):
        for side in range(2):
            b = row_bi[r] if side == 0 else row_bj[r]
            if b >= 0:
                for k in range(6):
                    J[r, 6 * b + k] += jac[r, side, k]
    return J


@njit(cache=True)
def _body_w(Y, off, b):
    """Body b's angular velocity in its frame (zeros for the ground) as a tuple."""
    if b < 0:
        return (0.0, 0.0, 0.0)
    o = off + 6 * b + 3
    return (Y[o], Y[o + 1], Y[o + 2])


@njit(cache=True)
def _joint_channels(Y, nb, A, F, G, gam, rate):
    """The joints' channel rows of G (n x 6 nb), gamma_G and rate (system/friction.py's _channels)."""
    off = 7 * nb
    chjac = np.zeros((F.ch_kind.shape[0], 2, 6))
    for c in range(F.ch_kind.shape[0]):
        bi, bj = F.ch_bi[c], F.ch_bj[c]
        if F.ch_kind[c] == CH_ROW:
            _, gam[c], rate[c] = eval_row(c, F.ch_row[c], bi, bj, F.ch_vecs, Y, nb, A, chjac)
            for side in range(2):
                b = bi if side == 0 else bj
                if b >= 0:
                    for k in range(6):
                        G[c, 6 * b + k] += chjac[c, side, k]
        elif F.ch_kind[c] == CH_ROTATION:
            ul = row(F.ch_axis, c)
            u = body_mv(A, bi, ul)
            wi = body_mv(A, bi, _body_w(Y, off, bi))
            wj = body_mv(A, bj, _body_w(Y, off, bj))
            if bi >= 0:
                for k in range(3):
                    G[c, 6 * bi + 3 + k] -= ul[k]
            if bj >= 0:
                uj = body_mtv(A, bj, u)
                for k in range(3):
                    G[c, 6 * bj + 3 + k] += uj[k]
            gam[c] = -dot(cross(wi, u), sub(wj, wi))
            rate[c] = dot(u, sub(wj, wi))


@njit(cache=True)
def _side(Y, A, nb, b, p):
    """(rotation, p - its centre [m], velocity [m/s], angular velocity (global) [rad/s]) of body b."""
    if b < 0:
        return np.eye(3), p.copy(), np.zeros(3), np.zeros(3)
    o = 7 * nb + 6 * b
    return A[b].copy(), p - Y[7 * b : 7 * b + 3], Y[o : o + 3].copy(), _mv(A[b], Y[o + 3 : o + 6])


@njit(cache=True)
def _patch_rows(F, k, Y, A, nb, p, radius, G, gam, rate, frame_out):
    """Patch k's rows at its centre of pressure p [m] (system/contact_friction.py's _rows)."""
    bi, bj = F.p_bi[k], F.p_bj[k]
    Ai, ri, vi, wi = _side(Y, A, nb, bi, p)
    Aj, rj, vj, wj = _side(Y, A, nb, bj, p)
    local = np.empty((3, 3))
    local[:, 0], local[:, 1], local[:, 2] = F.p_tangents[k, 0], F.p_tangents[k, 1], F.p_normal[k]
    frame = np.zeros((3, 3))
    for q in range(3):
        frame[:, q] = _mv(Aj, local[:, q].copy())
    frame_out[k] = frame.T
    v_rel = (vi + _cross(wi, ri)) - (vj + _cross(wj, rj))
    first = F.p_start[k]
    for q in range(2):
        c, t = first + q, frame[:, q].copy()
        rate[c] = _dot(t, v_rel)
        gam[c] = -_dot(_cross(wj, t), v_rel) - _dot(t, _cross(wi, _cross(wi, ri)))
        gam[c] += _dot(t, _cross(wj, v_rel + _cross(wj, rj)))
        if bi >= 0:
            G[c, 6 * bi : 6 * bi + 3] += t
            G[c, 6 * bi + 3 : 6 * bi + 6] += _mtv(Ai, _cross(ri, t))
        if bj >= 0:
            G[c, 6 * bj : 6 * bj + 3] -= t
            G[c, 6 * bj + 3 : 6 * bj + 6] -= _mtv(Aj, _cross(rj, t))
    if F.p_end[k] - first == 3:
        c, n = first + 2, frame[:, 2].copy()
        rate[c] = radius * _dot(n, wi - wj)
        gam[c] = -radius * _dot(_cross(wj, n), wi)
        if bi >= 0:
            G[c, 6 * bi + 3 : 6 * bi + 6] += radius * _mtv(Ai, n)
        if bj >= 0:
            G[c, 6 * bj + 3 : 6 * bj + 6] -= radius * _mtv(Aj, n)


@njit(cache=True)
def _patch_channels(Y, nb, A, S, F, G, gam, rate, normals, frames, centres, radii):
    """The stiction patches' rows, and their loads N [N], frames, centres of pressure and radii."""
    for k in range(F.p_bi.shape[0]):
        elements = F.p_elements[F.p_el_start[k] : F.p_el_start[k + 1]].copy()
        m = elements.shape[0]
        depth, x, fn = np.empty(m), np.empty((m, 3)), np.empty(m)
        point_loads(Y, nb, A, S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_flag, elements, depth, x, fn)
        N = fn.sum()
        p = _mtv(x, fn) / N if N > 0.0 else x[np.argmax(depth)].copy()
        radius = 0.0
        if N > 0.0:
            for i in range(m):
                radius += fn[i] * np.sqrt(np.sum((x[i] - p) ** 2))
            radius /= N
        normals[k], centres[k], radii[k] = N, p, radius
        _patch_rows(F, k, Y, A, nb, p, radius, G, gam, rate, frames)


@njit(cache=True)
def _gram_inverse(C):
    """(ok, C^-1) of the symmetric positive definite C by its Cholesky factor's inverse; not ok
    when C is not positive definite or its pivots span more than GRAM_PIVOT_RATIO (the caller
    then takes the reference path's pseudo-inverse)."""
    n = C.shape[0]
    L = np.zeros((n, n))
    for j in range(n):
        s = C[j, j] - np.sum(L[j, :j] ** 2)
        if not s > 0.0:
            return False, L
        L[j, j] = np.sqrt(s)
        for i in range(j + 1, n):
            L[i, j] = (C[i, j] - np.sum(L[i, :j] * L[j, :j])) / L[j, j]
    smallest, largest = np.inf, 0.0
    for j in range(n):
        smallest, largest = min(smallest, L[j, j]), max(largest, L[j, j])
    if n and smallest <= GRAM_PIVOT_RATIO * largest:
        return False, L
    Linv = np.zeros((n, n))
    for i in range(n):
        Linv[i, i] = 1.0 / L[i, i]
        for k in range(i):
            Linv[i, k] = -np.sum(L[i, :i] * Linv[:i, k]) / L[i, i]
    Cp = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            for k in range(max(i, j), n):
                Cp[i, j] += Linv[k, i] * Linv[k, j]
    return True, Cp


@njit(cache=True)
def _accelerations(Q, G, e, Cp, RM, R, target, minv, acc, lam, Qt, b):
    """acc (6 nb) and lam (rows) with the channel efforts e: M acc + R^T lam = Q + G^T e, R acc = target
    (Qt, b: scratch of 6 nb and rows)."""
    Qt[:] = Q
    for c in range(G.shape[0]):
        if e[c] != 0.0:
            for j in range(G.shape[1]):
                Qt[j] += G[c, j] * e[c]
    for i in range(R.shape[0]):
        b[i] = -target[i]
        for j in range(R.shape[1]):
            b[i] += RM[i, j] * Qt[j]
    for i in range(R.shape[0]):
        lam[i] = 0.0
        for j in range(R.shape[0]):
            lam[i] += Cp[i, j] * b[j]
    for j in range(R.shape[1]):
        f = Qt[j]
        for i in range(R.shape[0]):
            f -= R[i, j] * lam[i]
        acc[j] = minv[j] * f


@njit(cache=True)
def _normals(F, jac, lam, A, patch_normal, out):
    """Each contact's load N [N] from the multipliers lam (system/friction.py's _normal)."""
    for k in range(F.c_type.shape[0]):
        if F.c_type[k] == C_PATCH:
            out[k] = patch_normal[F.c_patch[k]]
            continue
        side = F.c_side[k]
        f0, f1, f2, m0, m1, m2 = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        for idx in range(F.c_row_start[k], F.c_row_start[k + 1]):
            r = F.c_rows[idx]
            f0, f1, f2 = f0 - jac[r, side, 0] * lam[r], f1 - jac[r, side, 1] * lam[r], f2 - jac[r, side, 2] * lam[r]
            m0, m1, m2 = m0 - jac[r, side, 3] * lam[r], m1 - jac[r, side, 4] * lam[r], m2 - jac[r, side, 5] * lam[r]
        f, b = (f0, f1, f2), F.c_b[k]
        M = sub(body_mv(A, b, (m0, m1, m2)), cross(body_mv(A, b, row(F.c_origin, k)), f))
        if F.c_type[k] == C_SPHERICAL:
            out[k] = np.sqrt(dot(f, f))
            continue
        z = body_mv(A, F.c_bi[k], row(F.c_axis, k))
        f_perp = sub(f, scale(dot(f, z), z))
        M_arm = M if F.c_type[k] == C_PRISMATIC else sub(M, scale(dot(M, z), z))
        N = np.sqrt(dot(f_perp, f_perp))
        if F.c_length[k] > 0.0:
            N += 2.0 * np.sqrt(dot(M_arm, M_arm)) / F.c_length[k]
        out[k] = N


@njit(cache=True)
def _directions(F, modes, senses, refs, has_ref, rate_g, tendency):
    """Each slipping contact's unit slip direction d per channel (system/friction.py's _fixed_point)."""
    d = np.zeros(F.arm.shape[0])
    for k in range(F.c_type.shape[0]):
        a, b = F.c_start[k], F.c_end[k]
        if modes[k] == STICK:
            continue
        if senses[k] != 0.0 and b - a == 1:
            d[a] = -senses[k]
            continue
        s = F.arm[a:b] * rate_g[a:b]
        ref = refs[k, : b - a]
        if has_ref[k] and (_dot(ref, s) <= 0.0 or np.sqrt(_dot(s, s)) <= REST_SPEED):
            d[a:b] = -ref
            continue
        if np.sqrt(_dot(s, s)) <= REST_SPEED:
            s = F.arm[a:b] * tendency[a:b]
        norm = np.sqrt(_dot(s, s))
        if norm > 0.0:
            d[a:b] = -s / norm
    return d


@njit(cache=True)
def _fixed_point(F, modes, d, jac, A, patch_normal, solve):
    """(converged, efforts e, worst contact) of the slipping contacts: e = arms mu_k N d with N
    from the multipliers of the solve with e; ``solve`` (Q, G, Cp, RM, R, target, minv, acc, lam,
    Qt, b) as :func:`_accelerations`'s arguments."""
    Q, G, Cp, RM, R, target, minv, acc, lam, Qt, b = solve
    nc, nch = F.c_type.shape[0], F.arm.shape[0]
    e, new, normal, change = np.zeros(nch), np.zeros(nch), np.zeros(nc), np.zeros(nch)
    if not np.any(modes == SLIP):
        return True, e, -1
    for _ in range(FIXED_POINT_ITER):
        _normals(F, jac, lam, A, patch_normal, normal)
        new[:] = 0.0
        for k in range(nc):
            if modes[k] == SLIP:
                for c in range(F.c_start[k], F.c_end[k]):
                    new[c] = F.arm[c] * F.c_mu_k[k] * normal[k] * d[c]
        largest, converged = 0.0, True
        for c in range(nch):
            change[c] = abs(new[c] - e[c])
            largest = max(largest, abs(new[c]))
        for c in range(nch):
            converged = converged and change[c] <= FIXED_POINT_TOL * (largest + 1e-300)
        e[:] = new
        if converged:
            return True, e, -1
        _accelerations(Q, G, e, Cp, RM, R, target, minv, acc, lam, Qt, b)
    worst, largest = -1, -1.0
    for k in range(nc):
        if modes[k] == SLIP and np.max(change[F.c_start[k] : F.c_end[k]]) > largest:
            worst, largest = k, np.max(change[F.c_start[k] : F.c_end[k]])
    return False, e, worst


@njit(cache=True)
def _stacked_rows(F, modes, J, G, phi, gamma, rate, gam_g, rate_g, alpha, beta):
    """R = [J; G of the stuck channels] and its target [gamma*; gamma_G - 2 alpha G v]."""
    m = J.shape[0]
    locked = np.zeros(G.shape[0], np.int64)
    nl = 0
    for k in range(F.c_type.shape[0]):
        if modes[k] == STICK:
            for c in range(F.c_start[k], F.c_end[k]):
                locked[nl] = c
                nl += 1
    R, target = np.zeros((m + nl, G.shape[1])), np.zeros(m + nl)
    R[:m] = J
    target[:m] = gamma - 2.0 * alpha * rate - beta**2 * phi
    for i in range(nl):
        R[m + i] = G[locked[i]]
        target[m + i] = gam_g[locked[i]] - 2.0 * alpha * rate_g[locked[i]]
    return R, target, locked[:nl]


@njit(cache=True)
def _state_rates(nb, Y, acc):
    """dY/dt from the accelerations acc (6 nb): positions, quaternion rates 0.5 q (x) (0, w), acc."""
    Ydot = np.empty_like(Y)
    for b in range(nb):
        q, o = 7 * b, 7 * nb + 6 * b
        qw, qx, qy, qz, wx, wy, wz = Y[q + 3], Y[q + 4], Y[q + 5], Y[q + 6], Y[o + 3], Y[o + 4], Y[o + 5]
        Ydot[q : q + 3] = Y[o : o + 3]
        Ydot[q + 3] = -0.5 * (qx * wx + qy * wy + qz * wz)
        Ydot[q + 4] = 0.5 * (qw * wx + (qy * wz - qz * wy))
        Ydot[q + 5] = 0.5 * (qw * wy + (qz * wx - qx * wz))
        Ydot[q + 6] = 0.5 * (qw * wz + (qx * wy - qy * wx))
    Ydot[7 * nb :] = acc
    return Ydot


@njit(cache=True)
def _driver_power(t, S, lam, rate):
    """Driver power [W] of the multipliers (as numerics.schur.solve_multipliers)."""
    P = 0.0
    for r in range(lam.shape[0]):
        if S.row_prog[r] >= 0:
            fd = eval_jet(S.row_prog[r], t, S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x,
                          S.p_table_y, S.p_table_start, S.p_table_base, S.p_stack)[1]  # fmt: skip
            P -= lam[r] * (rate[r] + fd)
    return P


@njit(cache=True)
def friction_solve(t, Y, S, W, F, modes, senses, refs, has_ref, p_normal, p_frame, p_centre, p_radius):
    """The friction-consistent solve at (t [s], Y) with the contacts' ``modes`` (STICK/SLIP), slip
    ``senses`` (+-1, 0) and reference directions ``refs`` (nc, 3) where ``has_ref``; fills the
    patches' loads [N], frames, centres [m] and radii [m]. Returns (status, worst contact, V [J],
    Pnc [W], Pdrv [W], Ydot, lam (m), efforts, channel rates, their rates of change, loads N [N],
    friction powers [W], phi, constraint rates); status ILL_CONDITIONED: nothing solved."""
    nb, A = S.nb, W.A
    minv = S.minv.reshape(-1)
    for b in range(nb):
        quat_to_matrix(Y[7 * b + 3 : 7 * b + 7], A[b])
    constraints(t, Y, S, W)
    V, Pnc = forces(t, Y, S, W, W.Q)
    nch = F.arm.shape[0]
    J = _dense_jacobian(nb, S.row_bi, S.row_bj, W.jac)
    G, gam_g, rate_g = np.zeros((nch, 6 * nb)), np.zeros(nch), np.zeros(nch)
    _joint_channels(Y, nb, A, F, G, gam_g, rate_g)
    if F.p_bi.shape[0]:
        _patch_channels(Y, nb, A, S, F, G, gam_g, rate_g, p_normal, p_frame, p_centre, p_radius)
    R, target, locked = _stacked_rows(F, modes, J, G, W.phi, W.gamma, W.rate, gam_g, rate_g, S.alpha, S.beta)
    RM = R * minv
    ok, Cp = _gram_inverse(_gram(RM, R))
    m, nc = J.shape[0], F.c_type.shape[0]
    acc, lam, Qt, b = np.zeros(6 * nb), np.zeros(R.shape[0]), np.zeros(6 * nb), np.zeros(R.shape[0])
    empty = np.zeros(0)
    if not ok:
        return ILL_CONDITIONED, -1, V, Pnc, 0.0, empty, empty, empty, empty, empty, empty, empty, empty, empty
    solve = (W.Q, G, Cp, RM, R, target, minv, acc, lam, Qt, b)
    _accelerations(W.Q, G, np.zeros(nch), Cp, RM, R, target, minv, acc, lam, Qt, b)
    d = _directions(F, modes, senses, refs, has_ref, rate_g, _mv(G, acc))
    converged, e, worst = _fixed_point(F, modes, d, W.jac, A, p_normal, solve)
    status = SOLVED if converged else NOT_CONVERGED
    _accelerations(W.Q, G, e, Cp, RM, R, target, minv, acc, lam, Qt, b)
    for i in range(locked.shape[0]):
        e[locked[i]] = -lam[m + i]
    power, normal = np.zeros(nc), np.zeros(nc)
    for k in range(nc):
        power[k] = _dot(e[F.c_start[k] : F.c_end[k]], rate_g[F.c_start[k] : F.c_end[k]])
    _normals(F, W.jac, lam, A, p_normal, normal)
    lam_rows = lam[:m].copy()
    Pdrv = _driver_power(t, S, lam_rows, W.rate) if np.any(S.row_prog >= 0) else 0.0
    Ydot = _state_rates(nb, Y, acc)
    return (status, worst, V, Pnc + power.sum(), Pdrv, Ydot, lam_rows, e, rate_g, _mv(G, acc), normal, power,
            W.phi.copy(), W.rate.copy())  # fmt: skip


@njit(cache=True)
def event_values(F, modes, senses, refs, has_ref, effort, rate, normal):
    """(g, unset): each contact's event function (solver/friction_events.py) from a solve's efforts,
    channel rates and loads N [N]: sticking, mu_s N - |F| with the round-off slack; slipping, its
    slip velocity along its sense or its reference direction (its speed without one). ``unset``:
    a slipping contact of several channels moves without a reference direction (the events'
    check takes it there)."""
    nc = F.c_type.shape[0]
    g = np.zeros(nc)
    unset = False
    for k in range(nc):
        a, b = F.c_start[k], F.c_end[k]
        if modes[k] == STICK:
            needed = 0.0
            for c in range(a, b):
                needed += (effort[c] / F.arm[c]) ** 2
            g[k] = F.c_mu_s[k] * normal[k] * (1.0 + STICK_SLACK) + 1e-12 - np.sqrt(needed)
            continue
        s = F.arm[a:b] * rate[a:b]
        if b - a == 1:
            g[k] = senses[k] * s[0] if senses[k] != 0.0 else abs(s[0])
        elif has_ref[k]:
            g[k] = _dot(refs[k, : b - a], s)
        else:
            g[k] = np.sqrt(_dot(s, s))
            unset = unset or g[k] > REST_SPEED
    return g, unset
