"""The friction-consistent solve of joint friction and contact stiction, compiled
(solver/system/friction.py holds the reference in NumPy and the modes; docs/joint-friction.md).

One call evaluates the forces and constraint rows at (t, Y), the friction channels' rows G,
gamma_G and rates, and solves the KKT system densely with the contacts' modes: stuck channels
as extra rows, slipping ones by the fixed point on their efforts mu_k N d, N from the joints'
reactions (or a stiction patch's normal force). Same arithmetic as the reference, in loops:
no LAPACK (whose threads spin on a busy machine) and no allocation of Python objects; the work
arrays (numerics/friction_linalg.py's FrictionWork, F.work) are sized once per System, and the
evaluation (:func:`_solve`) runs without reference counts (numerics/jit.py).

The friction arrays (:data:`FrictionArrays`) are packed once per System (system/friction_pack.py).
"""

from collections import namedtuple

import numpy as np

from .constraints import constraints
from .contact_patch import point_loads
from .forces import forces
from .friction_linalg import accelerations, gram, gram_inverse, mv_into
from .friction_linalg import dot as _dot
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
CH_ROTATION, CH_ROW, CH_PATCH = 0, 1, 2  # channel kinds: relative rotation about an axis, a joint row, a patch's
C_AXIAL, C_PRISMATIC, C_SPHERICAL, C_PATCH = 0, 1, 2, 3  # how a contact's load N is read
SOLVED, ILL_CONDITIONED, NOT_CONVERGED = 0, 1, 2  # statuses of :func:`friction_solve`

FrictionArrays = namedtuple(
    "FrictionArrays",
    "ch_kind ch_bi ch_bj ch_axis ch_row ch_vecs arm "
    "c_type c_mu_s c_mu_k c_length c_start c_end c_row_start c_rows c_bi c_side c_b c_origin c_axis c_patch "
    "p_el_start p_elements p_bi p_bj p_tangents p_normal p_start p_end work",
)


@njit(cache=True)
def _cross(a, b):
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


@njit(cache=True)
def _mv(M, v):
    """M @ v, in loops (no BLAS call for these small matrices)."""
    out = np.zeros(M.shape[0])
    mv_into(M, v, out)
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
def _body_w(Y, off, b):
    """Body b's angular velocity in its frame (zeros for the ground) as a tuple."""
    if b < 0:
        return (0.0, 0.0, 0.0)
    o = off + 6 * b + 3
    return (Y[o], Y[o + 1], Y[o + 2])


@njit(cache=True, refcounts=False)  # takes F, writes into K: no reference counts (jit.py)
def _joint_channels(Y, nb, A, F, K):
    """The joints' channel rows of G (n x 6 nb), gamma_G and rate (system/friction.py's _channels)
    into K.G, K.gam_g and K.rate_g, zeroed first (the patches' channels filled after)."""
    off, G, gam, rate, chjac = 7 * nb, K.G, K.gam_g, K.rate_g, K.chjac
    G[:] = 0.0
    gam[:] = 0.0
    rate[:] = 0.0
    chjac[:] = 0.0
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


@njit(cache=True, refcounts=False)  # takes F, writes into out: no reference counts (jit.py)
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


@njit(cache=True, refcounts=False)  # takes F, writes into K: no reference counts (jit.py)
def _directions(F, modes, senses, refs, has_ref, K):
    """Each slipping contact's unit slip direction per channel into K.d (system/friction.py's
    _fixed_point), from the channel rates K.rate_g, or the tendency K.tendency (the rates of
    change of the rates without friction) at rest."""
    d, s = K.d, K.slip
    d[:] = 0.0
    for k in range(F.c_type.shape[0]):
        a, b = F.c_start[k], F.c_end[k]
        if modes[k] == STICK:
            continue
        if senses[k] != 0.0 and b - a == 1:
            d[a] = -senses[k]
            continue
        n = b - a
        for i in range(n):
            s[i] = F.arm[a + i] * K.rate_g[a + i]
        speed = np.sqrt(_dot(s[:n], s[:n]))
        if has_ref[k] and (_dot(refs[k, :n], s[:n]) <= 0.0 or speed <= REST_SPEED):
            for i in range(n):
                d[a + i] = -refs[k, i]
            continue
        if speed <= REST_SPEED:
            for i in range(n):
                s[i] = F.arm[a + i] * K.tendency[a + i]
        norm = np.sqrt(_dot(s[:n], s[:n]))
        if norm > 0.0:
            for i in range(n):
                d[a + i] = -s[i] / norm


@njit(cache=True, refcounts=False)  # takes F and W, writes into K: no reference counts (jit.py)
def _fixed_point(F, modes, jac, A, patch_normal, Q, minv, K, n):
    """(converged, worst contact) of the slipping contacts' efforts K.e = arms mu_k N d (d: K.d)
    with N from the multipliers K.lam of the solve with e (:func:`.accelerations` on the first
    n stacked rows), from e = 0 and its solve."""
    nc, nch = F.c_type.shape[0], F.arm.shape[0]
    e, new, normal, change = K.e, K.new, K.normal, K.change
    slipping = False
    for k in range(nc):
        slipping = slipping or modes[k] == SLIP
    if not slipping:
        return True, -1
    for _ in range(FIXED_POINT_ITER):
        _normals(F, jac, K.lam, A, patch_normal, normal)
        new[:] = 0.0
        for k in range(nc):
            if modes[k] == SLIP:
                for c in range(F.c_start[k], F.c_end[k]):
                    new[c] = F.arm[c] * F.c_mu_k[k] * normal[k] * K.d[c]
        largest, converged = 0.0, True
        for c in range(nch):
            change[c] = abs(new[c] - e[c])
            largest = max(largest, abs(new[c]))
        for c in range(nch):
            converged = converged and change[c] <= FIXED_POINT_TOL * (largest + 1e-300)
            e[c] = new[c]
        if converged:
            return True, -1
        accelerations(Q, minv, K, n, False)  # the loads need lam only: acc after the loop
    worst, largest = -1, -1.0
    for k in range(nc):
        if modes[k] != SLIP:
            continue
        for c in range(F.c_start[k], F.c_end[k]):  # a loop, not np.max: its NumPy overload may need NRT
            if change[c] > largest:
                worst, largest = k, change[c]
    return False, worst


@njit(cache=True, refcounts=False)  # takes F, S and W, writes into K: no reference counts (jit.py)
def _stacked_rows(F, modes, S, W, minv, K):
    """The number n of stacked rows R = [J; G of the stuck channels] into K.R, their target
    [gamma*; gamma_G - 2 alpha G v] into K.target, R M^-1 into K.RM and the stuck channels into
    K.locked."""
    m, cols, jac = W.jac.shape[0], K.R.shape[1], W.jac
    nl = 0
    for k in range(F.c_type.shape[0]):
        if modes[k] == STICK:
            for c in range(F.c_start[k], F.c_end[k]):
                K.locked[nl] = c
                nl += 1
    R, target = K.R, K.target
    for r in range(m):
        for j in range(cols):
            R[r, j] = 0.0
        for side in range(2):
            b = S.row_bi[r] if side == 0 else S.row_bj[r]
            if b >= 0:
                for k in range(6):
                    R[r, 6 * b + k] += jac[r, side, k]
        target[r] = W.gamma[r] - 2.0 * S.alpha * W.rate[r] - S.beta**2 * W.phi[r]
    for i in range(nl):
        c = K.locked[i]
        for j in range(cols):
            R[m + i, j] = K.G[c, j]
        target[m + i] = K.gam_g[c] - 2.0 * S.alpha * K.rate_g[c]
    for i in range(m + nl):
        for j in range(cols):
            K.RM[i, j] = R[i, j] * minv[j]
    return m + nl


@njit(cache=True, refcounts=False)  # writes into Ydot: no reference counts (jit.py)
def _state_rates(nb, Y, acc, Ydot):
    """dY/dt into Ydot from the accelerations acc (6 nb): positions, quaternion rates 0.5 q (x) (0, w), acc."""
    for b in range(nb):
        q, o = 7 * b, 7 * nb + 6 * b
        qw, qx, qy, qz, wx, wy, wz = Y[q + 3], Y[q + 4], Y[q + 5], Y[q + 6], Y[o + 3], Y[o + 4], Y[o + 5]
        for k in range(3):
            Ydot[q + k] = Y[o + k]
        Ydot[q + 3] = -0.5 * (qx * wx + qy * wy + qz * wz)
        Ydot[q + 4] = 0.5 * (qw * wx + (qy * wz - qz * wy))
        Ydot[q + 5] = 0.5 * (qw * wy + (qz * wx - qx * wz))
        Ydot[q + 6] = 0.5 * (qw * wz + (qx * wy - qy * wx))
    for j in range(acc.shape[0]):
        Ydot[7 * nb + j] = acc[j]


@njit(cache=True, refcounts=False)  # takes S: no reference counts (jit.py)
def _driver_power(t, S, lam, rate, m):
    """Driver power [W] of the first m multipliers (as numerics.schur.solve_multipliers)."""
    P = 0.0
    for r in range(m):
        if S.row_prog[r] >= 0:
            fd = eval_jet(S.row_prog[r], t, S.p_code, S.p_code_start, S.p_consts, S.p_const_start, S.p_table_x,
                          S.p_table_y, S.p_table_start, S.p_table_base, S.p_stack)[1]  # fmt: skip
            P -= lam[r] * (rate[r] + fd)
    return P


@njit(cache=True, refcounts=False)  # takes F and S, writes into K: no reference counts (jit.py)
def _outputs(t, S, W, F, p_normal, K, m, n):
    """After the solve: the stuck channels' efforts into K.e, the contacts' friction powers [W]
    into K.power and loads N [N] into K.normal, the channels' rates of change into K.rate_dot.
    Returns (the friction power [W], the driver power [W])."""
    for i in range(n - m):
        K.e[K.locked[i]] = -K.lam[m + i]
    total = 0.0
    for k in range(F.c_type.shape[0]):
        a, b = F.c_start[k], F.c_end[k]
        K.power[k] = _dot(K.e[a:b], K.rate_g[a:b])
        total += K.power[k]
    _normals(F, W.jac, K.lam, W.A, p_normal, K.normal)
    mv_into(K.G, K.acc, K.rate_dot)
    driven = False
    for r in range(m):
        driven = driven or S.row_prog[r] >= 0
    return total, _driver_power(t, S, K.lam, W.rate, m) if driven else 0.0


@njit(cache=True, refcounts=False)  # per evaluation with S, W and F: no reference counts (jit.py)
def _solve(t, Y, S, W, F, modes, senses, refs, has_ref, p_normal, p_frame, p_centre, p_radius):
    """The friction-consistent accelerations at (t [s], Y) into F.work (K.acc, K.lam, the efforts
    K.e of the slipping channels); W's forces and constraint rows evaluated there. Returns
    (status, worst contact, V [J], Pnc [W] of the forces, n stacked rows); status
    ILL_CONDITIONED: nothing solved."""
    nb, A, K = S.nb, W.A, F.work
    if K.acc.shape[0] != 6 * nb or K.R.shape[0] != W.jac.shape[0] + F.arm.shape[0]:
        raise ValueError("friction_solve: F.work is sized for another system (friction_pack.pack)")
    minv = S.minv.reshape(-1)
    for b in range(nb):
        quat_to_matrix(Y[7 * b + 3 : 7 * b + 7], A[b])
    constraints(t, Y, S, W)
    V, Pnc = forces(t, Y, S, W, W.Q)
    _joint_channels(Y, nb, A, F, K)
    if F.p_bi.shape[0]:
        _patch_channels(Y, nb, A, S, F, K.G, K.gam_g, K.rate_g, p_normal, p_frame, p_centre, p_radius)
    n = _stacked_rows(F, modes, S, W, minv, K)
    gram(K.RM, K.R, n, K.C)
    if not gram_inverse(K.C, n, K.L, K.Linv, K.Cp):
        return ILL_CONDITIONED, -1, V, Pnc, n
    K.e[:] = 0.0
    accelerations(W.Q, minv, K, n, True)
    mv_into(K.G, K.acc, K.tendency)
    _directions(F, modes, senses, refs, has_ref, K)
    converged, worst = _fixed_point(F, modes, W.jac, A, p_normal, W.Q, minv, K, n)
    accelerations(W.Q, minv, K, n, True)
    return SOLVED if converged else NOT_CONVERGED, worst, V, Pnc, n


@njit(cache=True, refcounts=False)  # per evaluation with S, W and F: no reference counts (jit.py)
def evaluate(t, Y, S, W, F, state):
    """:func:`friction_solve` at (t [s], Y) with the modes' ``state`` (its arguments from ``modes``
    on) into the work arrays F.work (K.ydot: dY/dt; K.lam, K.e, K.rate_g, K.rate_dot, K.normal,
    K.power) and W (phi, rate); returns its (status, worst contact, V [J], Pnc [W], Pdrv [W])."""
    modes, senses, refs, has_ref, pn, pf, pc, pr = state
    status, worst, V, Pnc, n = _solve(t, Y, S, W, F, modes, senses, refs, has_ref, pn, pf, pc, pr)
    if status == ILL_CONDITIONED:
        return status, worst, V, Pnc, 0.0
    K = F.work
    power, Pdrv = _outputs(t, S, W, F, pn, K, W.jac.shape[0], n)
    _state_rates(S.nb, Y, K.acc, K.ydot)
    return status, worst, V, Pnc + power, Pdrv


@njit(cache=True)
def packed(ev, K, phi, rate):
    """:func:`friction_solve`'s output of the evaluation ``ev`` (:func:`evaluate`'s return) from the
    work arrays K and W's ``phi`` and constraint ``rate`` (m rows): new arrays."""
    status, worst, V, Pnc, Pdrv = ev
    empty = np.zeros(0)
    if status == ILL_CONDITIONED:
        return ILL_CONDITIONED, -1, V, Pnc, 0.0, empty, empty, empty, empty, empty, empty, empty, empty, empty
    return (status, worst, V, Pnc, Pdrv, K.ydot.copy(), K.lam[: phi.shape[0]].copy(), K.e.copy(), K.rate_g.copy(),
            K.rate_dot.copy(), K.normal.copy(), K.power.copy(), phi.copy(), rate.copy())  # fmt: skip


@njit(cache=True)
def friction_solve(t, Y, S, W, F, modes, senses, refs, has_ref, p_normal, p_frame, p_centre, p_radius):
    """The friction-consistent solve at (t [s], Y) with the contacts' ``modes`` (STICK/SLIP), slip
    ``senses`` (+-1, 0) and reference directions ``refs`` (nc, 3) where ``has_ref``; fills the
    patches' loads [N], frames, centres [m] and radii [m]. Returns (status, worst contact, V [J],
    Pnc [W], Pdrv [W], Ydot, lam (m), efforts, channel rates, their rates of change, loads N [N],
    friction powers [W], phi, constraint rates), new arrays; status ILL_CONDITIONED: nothing solved."""
    state = (modes, senses, refs, has_ref, p_normal, p_frame, p_centre, p_radius)
    return packed(evaluate(t, Y, S, W, F, state), F.work, W.phi, W.rate)


@njit(cache=True, refcounts=False)  # per rk4 stage with S, W and F: no reference counts (jit.py)
def friction_derivative(t, Y, S, W, F, state, Ydot):
    """(status, worst contact) of :func:`friction_solve` at (t [s], Y) with the modes' ``state``
    (its arguments from ``modes`` on), its dY/dt written into Ydot (untouched when ILL_CONDITIONED);
    none of its other outputs (the rk4 stages of integrators/friction_kernel.py)."""
    modes, senses, refs, has_ref, pn, pf, pc, pr = state
    status, worst = _solve(t, Y, S, W, F, modes, senses, refs, has_ref, pn, pf, pc, pr)[:2]
    if status != ILL_CONDITIONED:
        _state_rates(S.nb, Y, F.work.acc, Ydot)
    return status, worst


@njit(cache=True, refcounts=False)  # per step with F, writes into g: no reference counts (jit.py)
def event_values_into(F, modes, senses, refs, has_ref, effort, rate, normal, g):
    """:func:`event_values` with g written into the given array; returns ``unset``."""
    s = F.work.slip
    unset = False
    for k in range(F.c_type.shape[0]):
        a, b = F.c_start[k], F.c_end[k]
        if modes[k] == STICK:
            needed = 0.0
            for c in range(a, b):
                needed += (effort[c] / F.arm[c]) ** 2
            g[k] = F.c_mu_s[k] * normal[k] * (1.0 + STICK_SLACK) + 1e-12 - np.sqrt(needed)
            continue
        for i in range(b - a):
            s[i] = F.arm[a + i] * rate[a + i]
        if b - a == 1:
            g[k] = senses[k] * s[0] if senses[k] != 0.0 else abs(s[0])
        elif has_ref[k]:
            g[k] = _dot(refs[k, : b - a], s[: b - a])
        else:
            g[k] = np.sqrt(_dot(s[: b - a], s[: b - a]))
            unset = unset or g[k] > REST_SPEED
    return unset


@njit(cache=True)
def event_values(F, modes, senses, refs, has_ref, effort, rate, normal):
    """(g, unset): each contact's event function (solver/friction_events.py) from a solve's efforts,
    channel rates and loads N [N]: sticking, mu_s N - |F| with the round-off slack; slipping, its
    slip velocity along its sense or its reference direction (its speed without one). ``unset``:
    a slipping contact of several channels moves without a reference direction (the events'
    check takes it there)."""
    g = np.zeros(F.c_type.shape[0])
    unset = event_values_into(F, modes, senses, refs, has_ref, effort, rate, normal, g)
    return g, unset
