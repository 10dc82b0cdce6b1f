"""Numba kernels of the index-3 integrators: the exact, sparse Jacobian of the
generalized force F_v = Q(q, v, t) - Phi_q(q)^T lambda by complex-step differentiation,
element by element (constraint rows and force elements), plus the analytic gyroscopic
block.

Coordinates (docs/index3.md): positions are perturbed by a local increment per body,
x = [dr (global, m), dtheta (body frame, rad)], i.e. q(x) = (r + dr, A exp(dtheta^)),
velocities are Y's [v (global), w (body frame)]. A complex step of size ``H`` along
dtheta_c uses A (I + i H e_c^) which equals A exp(i H e_c^) to O(H^2) (exact in double
precision for H = 1e-30), so Im(f)/H is the derivative of f to rounding: no subtractive
cancellation, no step-size tuning. The element formulas are not repeated here: the row
kernel of joints.py and the force-element kernels of kernels.py (reached through
kernels.force_element, whatever the force type) are generic over real and complex poses,
and this module calls them with complex ones; tests/test_index3.py checks
the assembled Jacobian against central differences of the real kernels.

Each element (a force element, or the run of constraint rows between one pair of bodies,
i.e. a joint's rows, whose forces -Phi_q^T lam are summed) writes a dense block (rows = the
6 generalized-force components of each of its moving bodies, columns = the 6 position
increments and, for velocity-dependent elements, the 6 velocities of each of its moving
bodies) into triplet arrays. Rows whose Phi_q does not depend on the positions
(joints.jacobian_reads_positions: POINT, DP1, ANGLE) leave out the exactly zero dr columns.
The number and order of the triplets depend only on the model and the active rows, so the
sparsity pattern is computed once. A run of rows that are all POINT, DP1 or DP2 (the rows of
every joint type; not drivers, distances or couplers) takes its block from the rows' analytic
second derivatives (joints.add_force_jacobian, :func:`row_blocks`): the same triplets, about 8
times cheaper than the complex evaluations of the joint's rows.
"""

import numpy as np

from ..kernels import fast_call, update_rotations_arrays
from ..numerics.constraints import constraints
from ..numerics.forces import (
    FORCE_KERNELS,
    LOAD,
    MAY_IDLE,
    READS_VELOCITY,
    force_element,
    force_element_angular,
    force_element_data,
    force_element_idle,
    force_elements,
    forces,
    idle_element,
)
from ..numerics.jit import njit_python_errors as njit
from ..numerics.joints import add_force_jacobian, body_side, has_force_jacobian, jacobian_reads_positions, row_terms
from ..numerics.quaternion import rotate_by_body_vector

H_CS = 1e-30  # complex-step size
ROW = -1  # element code of a constraint row; force elements have their kernel code (kernels.py)


# ----------------------------------------------------------------------------- element forces
@njit(cache=True)
def _side(r, v, side):
    """Side ``side`` (see joints.py) of the pose arrays r (2, 3) and velocities v (2, 6)."""
    return (
        side,
        (r[side, 0], r[side, 1], r[side, 2]),
        (v[side, 0], v[side, 1], v[side, 2]),
        (v[side, 3], v[side, 4], v[side, 5]),
    )


@njit(cache=True)
def _row_jacobian(kind, vecs, k, A, side_i, side_j, jac):
    """Phi_q of row k (vecs (m, ROW_VECS, 3)) into jac (2, 6) = [side][v (3), w_body (3)]."""
    _, lin_i, ang_i, lin_j, ang_j, _, _ = row_terms(kind, vecs, k, A, side_i, side_j)
    for c in range(3):
        jac[0, c], jac[0, 3 + c], jac[1, c], jac[1, 3 + c] = lin_i[c], ang_i[c], lin_j[c], ang_j[c]


@njit(cache=True)
def row_jacobian(
    kind: int, vecs: np.ndarray, ri: np.ndarray, Ai: np.ndarray, rj: np.ndarray, Aj: np.ndarray, jac: np.ndarray
) -> None:
    """Phi_q of one primitive row (local vectors vecs (ROW_VECS, 3)) at a (possibly complex) pose:
    jac (2, 6) = [side][v (3), w_body (3)], by joints.row_terms."""
    r, v = np.stack((ri, rj)), np.zeros((2, 6), ri.dtype)
    _row_jacobian(
        kind, vecs.copy().reshape((1, vecs.shape[0], 3)), 0, np.stack((Ai, Aj)), _side(r, v, 0), _side(r, v, 1), jac
    )


@njit(cache=True)
def element_force(
    code: int,
    k: int,
    k_end: int,
    kinds: np.ndarray,
    lam: np.ndarray,
    active: np.ndarray,
    vecs: np.ndarray,
    p: tuple,
    flag: int,
    u: np.ndarray,
    r: np.ndarray,
    A: np.ndarray,
    v: np.ndarray,
    out: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """Generalized force (12,) of element k on its two bodies, given the poses r (2, 3),
    A (2, 3, 3) and velocities v (2, 6) of its sides (complex): for code ROW, the constraint rows
    k .. k_end - 1 (one body pair) as -sum Phi_q^T lam over the active ones (their kinds, the
    multipliers lam and active flags indexed by rows, the rows' vecs; scratch (2, 6) receives each
    row's Jacobian); else force element k of kernel ``code`` (the elements' vecs, its numbers p,
    flag, profiles u)."""
    out[:] = 0.0
    side_i, side_j = _side(r, v, 0), _side(r, v, 1)
    if code == ROW:
        for row in range(k, k_end):
            if active[row]:
                _row_jacobian(kinds[row], vecs, row, A, side_i, side_j, scratch)
                for side in range(2):
                    for c in range(6):
                        out[6 * side + c] -= scratch[side, c] * lam[row]
    else:
        force_element(code, k, 0, out, A, side_i, side_j, vecs, p, flag, u)


# ----------------------------------------------------------------------------- assembly
@njit(cache=True)
def _element_bodies(code, k, S):
    if code == ROW:
        return S.row_bi[k], S.row_bj[k]
    return S.force_bi[k], S.force_bj[k]


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
        for i in range(3):  # A += i h A e_a^ ; column j of A e_a^ is A (e_a x e_j)
            col1, col2 = (a + 1) % 3, (a + 2) % 3
            x1, x2 = A[side, i, col1].real, A[side, i, col2].real
            A[side, i, col1] += 1j * h * x2
            A[side, i, col2] -= 1j * h * x1
    else:
        v[side, c - 6] += 1j * h


@njit(cache=True)
def _rows_read_positions(kinds, active, k, k_end):
    """Whether the Jacobian of any active row k .. k_end - 1 depends on the positions r."""
    for row in range(k, k_end):
        if active[row] and jacobian_reads_positions(kinds[row]):
            return True
    return False


@njit(cache=True)
def element_blocks(code, k, k_end, t, Y, S, Aall, lam, active, with_vel, Ki, Kj, Kv, nK, Di, Dj, Dv, nD, buf):
    """Complex-step derivative of element k's generalized force (code ROW: of the rows k ..
    k_end - 1 between one body pair) w.r.t. the position increments (into K) and, if with_vel,
    the velocities (into D) of its moving bodies. Rows whose Phi_q does not read the positions
    skip the dr columns (exactly zero); an angular force element (forces.force_element_angular) keeps
    only its torque rows and its rotation and angular-velocity columns (the others are exactly zero,
    and their pattern would widen the band of the iteration matrix: a joint's rows do not fill it).
    ``buf`` = scratch arrays (r, A, v, out, scratch: complex; u: real)."""
    nb = S.nb
    r, A, v, out, scratch, u = buf
    bodies = _element_bodies(code, k, S)
    first = 0
    if code == ROW:
        p, flag, vecs = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), 0, S.row_vecs
        if not _rows_read_positions(S.row_kind, active, k, k_end):
            first = 3
    else:
        p, flag = force_element_data(S, k, t, 0, u)
        vecs = S.force_vecs
    if code != ROW and force_element_idle(
        code, k, Aall, body_side(Y, nb, bodies[0]), body_side(Y, nb, bodies[1]), vecs, p, flag
    ):
        return zero_blocks(
            bodies[0], bodies[1], force_element_angular(code, flag), with_vel, Ki, Kj, Kv, nK, Di, Dj, Dv, nD
        )
    angular = code != ROW and force_element_angular(code, flag)
    if angular:
        first = 3
    ncol = 12 if with_vel else 6
    for ps in range(2):
        pb = bodies[ps]
        if pb < 0:
            continue
        for c in range(first, ncol):
            if angular and 6 <= c < 9:  # no linear velocity columns
                continue
            for side in range(2):
                _side_state(Y, Aall, nb, bodies[side], r, A, v, side)
            _perturb(r, A, v, ps, c, H_CS)
            element_force(code, k, k_end, S.row_kind, lam, active, vecs, p, flag, u, r, A, v, out, scratch)
            for side in range(2):
                b = bodies[side]
                if b < 0:
                    continue
                for i in range(3 if angular else 0, 6):  # an angular element: torque rows only
                    if c < 6:
                        Ki[nK], Kj[nK], Kv[nK] = 6 * b + i, 6 * pb + c, out[6 * side + i].imag / H_CS
                        nK += 1
                    else:
                        Di[nD], Dj[nD], Dv[nD] = 6 * b + i, 6 * pb + c - 6, out[6 * side + i].imag / H_CS
                        nD += 1
    return nK, nD


@njit(cache=True)
def zero_blocks(bi, bj, angular, with_vel, Ki, Kj, Kv, nK, Di, Dj, Dv, nD):
    """The triplets :func:`element_blocks` writes for an idle force element (forces.force_element_idle)
    on the bodies bi and bj, in the same order (the pattern's), all zero; ``angular``:
    forces.force_element_angular. Returns (nK, nD)."""
    bodies = (bi, bj)
    for ps in range(2):
        pb = bodies[ps]
        if pb < 0:
            continue
        for c in range(3 if angular else 0, 12 if with_vel else 6):
            if angular and 6 <= c < 9:
                continue
            for side in range(2):
                b = bodies[side]
                if b < 0:
                    continue
                for i in range(3 if angular else 0, 6):
                    if c < 6:
                        Ki[nK], Kj[nK], Kv[nK] = 6 * b + i, 6 * pb + c, 0.0
                        nK += 1
                    else:
                        Di[nD], Dj[nD], Dv[nD] = 6 * b + i, 6 * pb + c - 6, 0.0
                        nD += 1
    return nK, nD


@njit(cache=True)
def rows_have_force_jacobians(kinds, active, k, k_end):
    """Whether every active row k .. k_end - 1 has an analytic force Jacobian (POINT, DP1, DP2)."""
    for row in range(k, k_end):
        if active[row] and not has_force_jacobian(kinds[row]):
            return False
    return True


@njit(cache=True)
def row_blocks(k, k_end, Y, nb, row_bi, row_bj, row_kind, row_vecs, Aall, lam, active, Ki, Kj, Kv, nK, KB):
    """K triplets of the rows k .. k_end - 1 between one body pair, all POINT, DP1 or DP2
    (:func:`rows_have_force_jacobians`), from their analytic derivatives
    (joints.add_force_jacobian): the same triplets, in the same order, as :func:`element_blocks`
    writes for them by complex steps (the dr columns only if a row reads the positions).
    KB: (2, 2, 6, 6) scratch. Returns nK."""
    bodies = (row_bi[k], row_bj[k])
    sides = (body_side(Y, nb, bodies[0]), body_side(Y, nb, bodies[1]))
    KB[:] = 0.0
    for row in range(k, k_end):
        if active[row]:
            add_force_jacobian(row_kind[row], row_vecs, row, Aall, sides[0], sides[1], lam[row], KB)
    first = 0 if _rows_read_positions(row_kind, active, k, k_end) else 3
    for ps in range(2):
        pb = bodies[ps]
        if pb < 0:
            continue
        for c in range(first, 6):
            for side in range(2):
                b = bodies[side]
                if b < 0:
                    continue
                for i in range(6):
                    Ki[nK], Kj[nK], Kv[nK] = 6 * b + i, 6 * pb + c, KB[side, ps, i, c]
                    nK += 1
    return nK


@njit(cache=True)
def _row_group_end(row_bi, row_bj, k):
    """End (exclusive) of the run of rows from k between the same two bodies (a joint's rows)."""
    k_end = k + 1
    while k_end < row_bi.shape[0] and row_bi[k_end] == row_bi[k] and row_bj[k_end] == row_bj[k]:
        k_end += 1
    return k_end


@njit(cache=True)
def force_jacobians(t, Y, S, W, lam, active, Ki, Kj, Kv, Di, Dj, Dv):
    """Triplets of K = d(Q - Phi_q^T lam)/dx and D = dQ/dv at (t, Y) for the active
    constraint rows (lam indexed like the rows). Returns (nK, nD)."""
    update_rotations_arrays(S.nb, Y, W.A)
    buf = (
        np.zeros((2, 3), np.complex128),
        np.zeros((2, 3, 3), np.complex128),
        np.zeros((2, 6), np.complex128),
        np.zeros(12, np.complex128),
        np.zeros((2, 6), np.complex128),
        np.zeros(6),
    )
    KB = np.zeros((2, 2, 6, 6))
    nK, nD = 0, 0
    k = 0
    while k < S.row_kind.shape[0]:  # one block per run of rows between the same bodies
        k_end = _row_group_end(S.row_bi, S.row_bj, k)
        if active[k:k_end].any():  # a run with no active row has no triplets
            if rows_have_force_jacobians(S.row_kind, active, k, k_end):
                nK = row_blocks(
                    k, k_end, Y, S.nb, S.row_bi, S.row_bj, S.row_kind, S.row_vecs, W.A, lam, active, Ki, Kj, Kv, nK, KB
                )
            else:
                nK, nD = element_blocks(
                    ROW, k, k_end, t, Y, S, W.A, lam, active, False, Ki, Kj, Kv, nK, Di, Dj, Dv, nD, buf
                )
        k = k_end
    nb, f_bi, f_bj, f_vecs, f_par, f_flag = S.nb, S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_flag
    for with_vel in (True, False):  # the velocity-dependent force elements first
        for code in range(FORCE_KERNELS):
            if READS_VELOCITY[code] == with_vel:
                for k in range(S.force_start[code], S.force_start[code + 1]):
                    if MAY_IDLE[code] and idle_element(code, k, W.A, Y, nb, f_bi, f_bj, f_vecs, f_par, f_flag):
                        angular = force_element_angular(code, f_flag[k])  # (S handed to no call: jit.py)
                        nK, nD = zero_blocks(f_bi[k], f_bj[k], angular, with_vel, Ki, Kj, Kv, nK, Di, Dj, Dv, nD)
                        continue
                    nK, nD = element_blocks(
                        code, k, k + 1, t, Y, S, W.A, lam, active, with_vel, Ki, Kj, Kv, nK, Di, Dj, Dv, nD, buf
                    )
    for b in range(nb):  # gyroscopic -(w x J w): d/dw = (J w)^ - w^ J
        o = 7 * nb + 6 * b
        w = Y[o + 3 : o + 6]
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


def triplet_capacity(S: tuple, n_active: int) -> tuple[int, int]:
    """Upper bounds on the K and D triplet counts (a 12 x 12 block per element)."""
    counts = np.diff(S.force_start)
    nK = 144 * (n_active + int(counts.sum()))
    nD = 144 * int(counts[READS_VELOCITY].sum()) + 9 * S.nb
    return max(nK, 1), max(nD, 1)


@njit(cache=True, refcounts=False)  # called from prepare_kernel: no reference counts (jit.py)
def load_rate(t: float, Y: np.ndarray, S: tuple, W: tuple, out: np.ndarray) -> None:
    """dQ/dt (6 N) at fixed state: the explicit time dependence of Q (the loads' profiles)."""
    update_rotations_arrays(S.nb, Y, W.A)
    out[:] = 0.0
    force_elements(t, 1, Y, S, W, out, 0.0)


# ----------------------------------------------------------------------------- state helpers
@njit(cache=True)
def apply_increment(nb, Y, x, out):
    """out = Y with positions moved by x = [dr, dtheta_body] per body (unit quaternions)."""
    out[:] = Y
    for b in range(nb):
        for c in range(3):
            out[7 * b + c] = Y[7 * b + c] + x[6 * b + c]
        rotate_by_body_vector(
            Y[7 * b + 3 : 7 * b + 7].copy(), x[6 * b + 3 : 6 * b + 6].copy(), out[7 * b + 3 : 7 * b + 7]
        )


@njit(cache=True)
def lie_kinematic_blocks(nb, Y, Ji, Jj, Jv):
    """Triplets of d(x')/dx at x = 0 for x_theta' = T(x)^-1 w = w + x x w / 2 + ...:
    -w^/2 per body (the translational part is zero)."""
    n = 0
    for b in range(nb):
        o = 7 * nb + 6 * b
        w = Y[o + 3 : o + 6]
        for i in range(3):
            for j in range(3):
                Ji[n], Jj[n], Jv[n] = 6 * b + 3 + i, 6 * b + 3 + j, -0.5 * _skew(w, i, j)
                n += 1
    return n


# ----------------------------------------------------------------------------- fused evaluation
@njit(cache=True, refcounts=False)
def prepare_kernel(t, Y, S, W, lam, active, jq_g, jq, Qt, blocks, Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv):
    """The compiled body of :func:`prepare`, once per Newton iteration. Compiled without reference
    counts (jit.py), as are the helpers it hands S and W (inlined, or load_rate): a call taking a
    namedtuple would otherwise touch the reference count of every array in it (58 in S and W),
    which was half the time of a galpha step on the two-link chain (docs/index3.md, "Reference
    counts"). force_jacobians, called only when factorising, still counts them."""
    update_rotations_arrays(S.nb, Y, W.A)
    V, Pnc = forces(t, Y, S, W, W.Q)
    if S.row_kind.shape[0] > 0:
        constraints(t, Y, S, W)
    flat = W.jac.reshape(-1)
    for i in range(jq_g.shape[0]):
        jq[i] = flat[jq_g[i]]
    if S.force_start[LOAD + 1] > S.force_start[LOAD]:  # only the loads depend on t explicitly
        load_rate(t, Y, S, W, Qt)
    else:
        for i in range(Qt.shape[0]):
            Qt[i] = 0.0
    nK, nD = 0, 0
    if blocks:
        nK, nD = force_jacobians(t, Y, S, W, lam, active, Ki, Kj, Kv, Di, Dj, Dv)
        lie_kinematic_blocks(S.nb, Y, Li, Lj, Lv)
    return V, Pnc, nK, nD


def prepare(
    t: float,
    Y: np.ndarray,
    S: tuple,
    W: tuple,
    lam: np.ndarray,
    active: np.ndarray,
    jq_g: np.ndarray,
    jq: np.ndarray,
    Qt: np.ndarray,
    blocks: bool,
    *triplets: np.ndarray,
) -> tuple:
    """Everything one step needs at (t, Y), in a single call: W.Q (forces), W.phi, W.jac,
    W.rate, W.gamma, the active Phi_q values jq (gathered by jq_g), dQ/dt of the loads
    (Qt) and, if ``blocks``, the K, D and Lie-kinematic triplets (``triplets`` = Ki, Kj,
    Kv, Di, Dj, Dv, Li, Lj, Lv; lam indexed by rows). Returns (potential energy [J],
    non-conservative power [W], nK, nD). Called through kernels.fast_call: resolving the
    types of the Static and Work arguments costs more than evaluating a small model."""
    return fast_call(prepare_kernel, t, Y, S, W, lam, active, jq_g, jq, Qt, blocks, *triplets)
