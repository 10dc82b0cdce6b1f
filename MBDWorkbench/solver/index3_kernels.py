"""Numba kernels of the index-3 integrators: the exact, sparse Jacobian of the
generalized force F_v = Q(q, v, t) - Phi_q(q)^T lambda by complex-step differentiation,
element by element (constraint row, spring, rotational spring, load), plus the analytic
gyroscopic block.

Coordinates (docs/index3.md): positions are perturbed by a local increment per body,
x = [dr (global, m), dtheta (body frame, rad)], i.e. q(x) = (r + dr, A exp(dtheta^)),
velocities are Y's [v (global), w (body frame)]. A complex step of size ``H`` along
dtheta_c uses A (I + i H e_c^) which equals A exp(i H e_c^) to O(H^2) (exact in double
precision for H = 1e-30), so Im(f)/H is the derivative of f to rounding: no subtractive
cancellation, no step-size tuning. The element formulas repeat those of joints.py and
kernels.py in complex arithmetic; tests/test_index3.py checks the assembled Jacobian
against central differences of the real kernels.

Each element writes a dense block (rows = the 6 generalized-force components of each
of its moving bodies, columns = the 6 position increments and, for velocity-dependent
elements, the 6 velocities of each of its moving bodies) into triplet arrays; the
number and order of the triplets depend only on the model, so the sparsity pattern
is computed once.
"""
import numpy as np
from numba import njit

from .joints import POINT, DP1, DP2, _add, _cross, _dot, _scale, _sub  # tuple algebra, any dtype
from .kernels import constraints, forces, jet, update_rotations
from .quaternion import rotate_by_body_vector

H_CS = 1e-30                # complex-step size
E_ROW, E_SPRING, E_RSPRING, E_LOAD = 0, 1, 2, 3


# ----------------------------------------------------------------------------- small algebra
# 3-vectors are tuples (no heap allocation inside the complex-step loops); the helpers of
# joints.py are generic over real and complex entries.
@njit(cache=True)
def _v3(arr):
    """A 3-tuple from the first three entries of a 1-d array (complex)."""
    return (arr[0] + 0j, arr[1] + 0j, arr[2] + 0j)


@njit(cache=True)
def _mv(A, x):
    """A x for a (3, 3) matrix."""
    return (A[0, 0] * x[0] + A[0, 1] * x[1] + A[0, 2] * x[2],
            A[1, 0] * x[0] + A[1, 1] * x[1] + A[1, 2] * x[2],
            A[2, 0] * x[0] + A[2, 1] * x[1] + A[2, 2] * x[2])


@njit(cache=True)
def _mtv(A, x):
    """A^T x for a (3, 3) matrix."""
    return (A[0, 0] * x[0] + A[1, 0] * x[1] + A[2, 0] * x[2],
            A[0, 1] * x[0] + A[1, 1] * x[1] + A[2, 1] * x[2],
            A[0, 2] * x[0] + A[1, 2] * x[1] + A[2, 2] * x[2])


# ----------------------------------------------------------------------------- element forces
@njit(cache=True)
def _dp1_jac(Ai, Aj, ai_bar, aj_bar):
    """(value, d/dw_i, d/dw_j) of a_i . a_j (body-frame angular velocity columns)."""
    ai, aj = _mv(Ai, ai_bar), _mv(Aj, aj_bar)
    return _dot(ai, aj), _cross(ai_bar, _mtv(Ai, aj)), _cross(aj_bar, _mtv(Aj, ai))


@njit(cache=True)
def _put(jac, side, lin, ang):
    for k in range(3):
        jac[side, k] = lin[k]
        jac[side, 3 + k] = ang[k]


@njit(cache=True)
def row_jacobian(kind, vecs, ri, Ai, rj, Aj, jac):
    """Phi_q of one primitive row at a (possibly complex) pose: jac (2, 6) =
    [side][v (3), w_body (3)], the formulas of joints.eval_row."""
    v0, v1, v2 = _v3(vecs[0]), _v3(vecs[1]), _v3(vecs[2])
    zero = (0j, 0j, 0j)
    if kind == POINT:
        _put(jac, 0, v2, _cross(v0, _mtv(Ai, v2)))
        _put(jac, 1, _scale(-1.0, v2), _scale(-1.0, _cross(v1, _mtv(Aj, v2))))
    elif kind == DP1:
        _, ji, jj = _dp1_jac(Ai, Aj, v0, v1)
        _put(jac, 0, zero, ji)
        _put(jac, 1, zero, jj)
    elif kind == DP2:
        ai = _mv(Ai, v0)
        d = _sub(_add(_v3(rj), _mv(Aj, v2)), _add(_v3(ri), _mv(Ai, v1)))
        _put(jac, 0, _scale(-1.0, ai), _sub(_cross(v0, _mtv(Ai, d)), _cross(v1, v0)))
        _put(jac, 1, ai, _cross(v2, _mtv(Aj, ai)))
    else:  # ANGLE: atan2(y_i . x_j, x_i . x_j)
        s, jsi, jsj = _dp1_jac(Ai, Aj, v1, v2)
        c, jci, jcj = _dp1_jac(Ai, Aj, v0, v2)
        r2 = s * s + c * c
        _put(jac, 0, zero, _scale(1.0 / r2, _sub(_scale(c, jsi), _scale(s, jci))))
        _put(jac, 1, zero, _scale(1.0 / r2, _sub(_scale(c, jsj), _scale(s, jcj))))


@njit(cache=True)
def _angle_cs(Ai, Aj, vecs):
    """Joint angle atan2(y_i.x_j, x_i.x_j) for a complex-step pose: real part by atan2,
    imaginary part by its first derivative (exact for a complex step)."""
    xj = _mv(Aj, _v3(vecs[2]))
    s = _dot(_mv(Ai, _v3(vecs[1])), xj)
    c = _dot(_mv(Ai, _v3(vecs[0])), xj)
    sr, cr = s.real, c.real
    return np.arctan2(sr, cr) + 1j * ((cr * s.imag - sr * c.imag) / (sr * sr + cr * cr))


@njit(cache=True)
def _add_point_force(out, side, A, s, F):
    """Generalized force of a global force F at body point s on side ``side`` of out (12,)."""
    T = _cross(s, _mtv(A, F))
    for k in range(3):
        out[6 * side + k] += F[k]
        out[6 * side + 3 + k] += T[k]


@njit(cache=True)
def _wrap(x):
    return x - 2.0 * np.pi * np.floor((x + np.pi) / (2.0 * np.pi))


@njit(cache=True)
def element_force(etype, k, t, S, lam, r, A, v, out, scratch):
    """Generalized force (12,) of element k of type etype on its two bodies, given the
    poses r (2, 3), A (2, 3, 3) and velocities v (2, 6) of its sides (complex)."""
    out[:] = 0.0
    if etype == E_ROW:
        row_jacobian(S.row_kind[k], S.row_vecs[k], r[0], A[0], r[1], A[1], scratch)
        for side in range(2):
            for c in range(6):
                out[6 * side + c] = -scratch[side, c] * lam[k]
    elif etype == E_SPRING:
        si, sj = _v3(S.sd_si[k]), _v3(S.sd_sj[k])
        pi, pj = _add(_v3(r[0]), _mv(A[0], si)), _add(_v3(r[1]), _mv(A[1], sj))
        vi = _add(_v3(v[0, :3]), _mv(A[0], _cross(_v3(v[0, 3:]), si)))
        vj = _add(_v3(v[1, :3]), _mv(A[1], _cross(_v3(v[1, 3:]), sj)))
        d = _sub(pj, pi)
        length = np.sqrt(_dot(d, d))
        if length.real < 1e-12:
            return
        u = _scale(1.0 / length, d)
        tension = S.sd_k[k] * (length - S.sd_l0[k]) + S.sd_c[k] * _dot(u, _sub(vj, vi))
        _add_point_force(out, 0, A[0], si, _scale(tension, u))
        _add_point_force(out, 1, A[1], sj, _scale(-tension, u))
    elif etype == E_RSPRING:
        vecs = S.rs_vecs[k]
        row_jacobian(3, vecs, r[0], A[0], r[1], A[1], scratch)
        theta = _angle_cs(A[0], A[1], vecs)
        rate = 0j
        for c in range(3):
            rate += scratch[0, 3 + c] * v[0, 3 + c] + scratch[1, 3 + c] * v[1, 3 + c]
        dth = _wrap(theta.real - S.rs_th0[k]) + 1j * theta.imag
        torque = -(S.rs_k[k] * dth + S.rs_c[k] * rate)
        for side in range(2):
            for c in range(3):
                out[6 * side + 3 + c] = torque * scratch[side, 3 + c]
    else:
        _load_force(k, t, S, A[0], out, 0)


@njit(cache=True)
def _load_force(k, t, S, A, out, order):
    """Point force / torque k on side 0 of out; ``order`` 0: value, 1: time derivative."""
    F0, F1, F2, T0, T1, T2 = 0j, 0j, 0j, 0j, 0j, 0j
    if S.load_fprog[k, 0] >= 0:
        F0 = jet(S, S.load_fprog[k, 0], t)[order] + 0j
    if S.load_fprog[k, 1] >= 0:
        F1 = jet(S, S.load_fprog[k, 1], t)[order] + 0j
    if S.load_fprog[k, 2] >= 0:
        F2 = jet(S, S.load_fprog[k, 2], t)[order] + 0j
    if S.load_tprog[k, 0] >= 0:
        T0 = jet(S, S.load_tprog[k, 0], t)[order] + 0j
    if S.load_tprog[k, 1] >= 0:
        T1 = jet(S, S.load_tprog[k, 1], t)[order] + 0j
    if S.load_tprog[k, 2] >= 0:
        T2 = jet(S, S.load_tprog[k, 2], t)[order] + 0j
    F, T = (F0, F1, F2), (T0, T1, T2)
    if S.load_frame[k] == 1:
        Fg, Tb = _mv(A, F), T
    else:
        Fg, Tb = F, _mtv(A, T)
    _add_point_force(out, 0, A, _v3(S.load_point[k]), Fg)
    for c in range(3):
        out[3 + c] += Tb[c]


# ----------------------------------------------------------------------------- assembly
@njit(cache=True)
def _element_bodies(etype, k, S):
    if etype == E_ROW:
        return S.row_bi[k], S.row_bj[k]
    if etype == E_SPRING:
        return S.sd_bi[k], S.sd_bj[k]
    if etype == E_RSPRING:
        return S.rs_bi[k], S.rs_bj[k]
    return S.load_body[k], -1


@njit(cache=True)
def _side_state(Y, Aall, nb, b, r, A, v, side):
    """Fill side ``side`` of the complex pose arrays from body b (identity for ground)."""
    for i in range(3):
        r[side, i] = Y[7 * b + i] if b >= 0 else 0.0
        for j in range(3):
            A[side, i, j] = Aall[b, i, j] if b >= 0 else (1.0 if i == j else 0.0)
    for c in range(6):
        v[side, c] = Y[7 * nb + 6 * b + c] if b >= 0 else 0.0


@njit(cache=True)
def _perturb(r, A, v, side, c, h):
    """Complex step of size h along coordinate c (0-2 dr, 3-5 dtheta, 6-11 velocity)."""
    if c < 3:
        r[side, c] += 1j * h
    elif c < 6:
        a = c - 3
        for i in range(3):      # A += i h A e_a^ ; column j of A e_a^ is A (e_a x e_j)
            col1, col2 = (a + 1) % 3, (a + 2) % 3
            x1, x2 = A[side, i, col1].real, A[side, i, col2].real
            A[side, i, col1] += 1j * h * x2
            A[side, i, col2] -= 1j * h * x1
    else:
        v[side, c - 6] += 1j * h


@njit(cache=True)
def element_blocks(etype, k, t, Y, S, Aall, lam, with_vel, Ki, Kj, Kv, nK, Di, Dj, Dv, nD, buf):
    """Complex-step derivative of element k's generalized force w.r.t. the position
    increments (into K) and, if with_vel, the velocities (into D) of its moving bodies.
    ``buf`` = complex scratch arrays (r, A, v, out, scratch)."""
    nb = S.nb
    r, A, v, out, scratch = buf
    bodies = _element_bodies(etype, k, S)
    ncol = 12 if with_vel else 6
    for ps in range(2):
        pb = bodies[ps]
        if pb < 0:
            continue
        for c in range(ncol):
            for side in range(2):
                _side_state(Y, Aall, nb, bodies[side], r, A, v, side)
            _perturb(r, A, v, ps, c, H_CS)
            element_force(etype, k, t, S, lam, r, A, v, out, scratch)
            for side in range(2):
                b = bodies[side]
                if b < 0:
                    continue
                for i in range(6):
                    val = out[6 * side + i].imag / H_CS
                    if c < 6:
                        Ki[nK], Kj[nK], Kv[nK] = 6 * b + i, 6 * pb + c, val
                        nK += 1
                    else:
                        Di[nD], Dj[nD], Dv[nD] = 6 * b + i, 6 * pb + c - 6, val
                        nD += 1
    return nK, nD


@njit(cache=True)
def force_jacobians(t, Y, S, W, lam, active, Ki, Kj, Kv, Di, Dj, Dv):
    """Triplets of K = d(Q - Phi_q^T lam)/dx and D = dQ/dv at (t, Y) for the active
    constraint rows (lam indexed like the rows). Returns (nK, nD)."""
    update_rotations(S, Y, W.A)
    buf = (np.zeros((2, 3), np.complex128), np.zeros((2, 3, 3), np.complex128),
           np.zeros((2, 6), np.complex128), np.zeros(12, np.complex128), np.zeros((2, 6), np.complex128))
    nK, nD = 0, 0
    for r in range(S.row_kind.shape[0]):
        if active[r]:
            nK, nD = element_blocks(E_ROW, r, t, Y, S, W.A, lam, False, Ki, Kj, Kv, nK, Di, Dj, Dv, nD, buf)
    for k in range(S.sd_bi.shape[0]):
        nK, nD = element_blocks(E_SPRING, k, t, Y, S, W.A, lam, True, Ki, Kj, Kv, nK, Di, Dj, Dv, nD, buf)
    for k in range(S.rs_bi.shape[0]):
        nK, nD = element_blocks(E_RSPRING, k, t, Y, S, W.A, lam, True, Ki, Kj, Kv, nK, Di, Dj, Dv, nD, buf)
    for k in range(S.load_body.shape[0]):
        nK, nD = element_blocks(E_LOAD, k, t, Y, S, W.A, lam, False, Ki, Kj, Kv, nK, Di, Dj, Dv, nD, buf)
    nb = S.nb
    for b in range(nb):          # gyroscopic -(w x J w): d/dw = (J w)^ - w^ J
        o = 7 * nb + 6 * b
        w = Y[o + 3:o + 6]
        Jw = S.inertia[b] * w
        for i in range(3):
            for j in range(3):
                val = _skew(Jw, i, j) - _skew(w, i, j) * S.inertia[b, j]
                Di[nD], Dj[nD], Dv[nD] = 6 * b + 3 + i, 6 * b + 3 + j, val
                nD += 1
    return nK, nD


@njit(cache=True)
def _skew(a, i, j):
    """Entry (i, j) of the cross-product matrix of a."""
    if i == j:
        return 0.0
    if i == 0:
        return -a[2] if j == 1 else a[1]
    if i == 1:
        return a[2] if j == 0 else -a[0]
    return -a[1] if j == 0 else a[0]


def triplet_capacity(S, n_active):
    """Upper bounds on the K and D triplet counts."""
    ns, nr, nl = S.sd_bi.shape[0], S.rs_bi.shape[0], S.load_body.shape[0]
    nK = 144 * (n_active + ns + nr) + 36 * nl
    nD = 144 * (ns + nr) + 9 * S.nb
    return max(nK, 1), max(nD, 1)


@njit(cache=True)
def load_rate(t, Y, S, W, out):
    """dQ/dt (6 N) of the time-dependent loads (the only explicit time dependence of Q)."""
    update_rotations(S, Y, W.A)
    out[:] = 0.0
    tmp = np.zeros(12, np.complex128)
    A = np.zeros((3, 3), np.complex128)
    for k in range(S.load_body.shape[0]):
        b = S.load_body[k]
        for i in range(3):
            for j in range(3):
                A[i, j] = W.A[b, i, j]
        tmp[:] = 0.0
        _load_force(k, t, S, A, tmp, 1)
        for c in range(6):
            out[6 * b + c] += tmp[c].real


# ----------------------------------------------------------------------------- state helpers
@njit(cache=True)
def apply_increment(S, Y, x, out):
    """out = Y with positions moved by x = [dr, dtheta_body] per body (unit quaternions)."""
    nb = S.nb
    out[:] = Y
    for b in range(nb):
        for c in range(3):
            out[7 * b + c] = Y[7 * b + c] + x[6 * b + c]
        rotate_by_body_vector(Y[7 * b + 3:7 * b + 7].copy(), x[6 * b + 3:6 * b + 6].copy(),
                              out[7 * b + 3:7 * b + 7])


@njit(cache=True)
def lie_kinematic_blocks(S, Y, Ji, Jj, Jv):
    """Triplets of d(x')/dx at x = 0 for x_theta' = T(x)^-1 w = w + x x w / 2 + ...:
    -w^/2 per body (the translational part is zero)."""
    nb = S.nb
    n = 0
    for b in range(nb):
        o = 7 * nb + 6 * b
        w = Y[o + 3:o + 6]
        for i in range(3):
            for j in range(3):
                Ji[n], Jj[n], Jv[n] = 6 * b + 3 + i, 6 * b + 3 + j, -0.5 * _skew(w, i, j)
                n += 1
    return n


# ----------------------------------------------------------------------------- fused evaluation
@njit(cache=True)
def prepare(t, Y, S, W, lam, active, jq_g, jq, Qt, blocks, Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv):
    """Everything one step needs at (t, Y), in a single call: W.Q (forces), W.phi, W.jac,
    W.rate, W.gamma, the active Phi_q values jq (gathered by jq_g), dQ/dt of the loads
    (Qt) and, if ``blocks``, the K, D and Lie-kinematic triplets (lam indexed by rows).
    Returns (potential energy, non-conservative power, nK, nD)."""
    update_rotations(S, Y, W.A)
    V, Pnc = forces(t, Y, S, W, W.Q)
    if S.row_kind.shape[0] > 0:
        constraints(t, Y, S, W)
    flat = W.jac.reshape(-1)
    for i in range(jq_g.shape[0]):
        jq[i] = flat[jq_g[i]]
    if S.load_body.shape[0] > 0:
        load_rate(t, Y, S, W, Qt)
    nK, nD = 0, 0
    if blocks:
        nK, nD = force_jacobians(t, Y, S, W, lam, active, Ki, Kj, Kv, Di, Dj, Dv)
        lie_kinematic_blocks(S, Y, Li, Lj, Lv)
    return V, Pnc, nK, nD
