"""Numba kernels of the system evaluator: forces Q, constraints (Phi, Phi_q, gamma),
the Schur complement with Tikhonov regularisation and Baumgarte stabilisation, and the
state derivative dY/dt of [R1] (Y = [q (7N), qdot (6N)], body-frame angular rates).

``S`` is the namedtuple of static arrays built by ``system.System`` (``Static``); ``W`` the
namedtuple of work arrays. All SI units.
"""

import functools

import numpy as np

from .model.expressions import eval_jet
from .numerics.jit import njit
from .numerics.joints import ANGLE, Side, body_side, eval_row, point_kinematics, row_terms, wrap_angle
from .numerics.quaternion import quat_rate, quat_to_matrix, rotate_by_body_vector
from .numerics.vec3 import Scalar, Vec3, body_mtv, body_mv, cross, div, dot, scale, sub
from .tolerances import ODE_NEAR_SINGULAR, ODE_PROJECTION_TOL, ODE_RANK_RETURN_TOL, ODE_RANK_TOL, SCHUR_PIVOT_TOL

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
# are thin inlined wrappers that unpack the fields; but inlining copies S and W as well, with the
# same reference-count atomics unless Numba's refcount pruning removes them (it does not across
# the loops and calls of these kernels), so the per-step path (:func:`derivatives`, the step
# loops) calls the array kernels directly (bench/results/unbiased_kkt.md).
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
# and READS_VELOCITY entry here, one branch in :func:`force_element`.
LOAD, SPRING_DAMPER, ROTATIONAL_SPRING_DAMPER = 0, 1, 2
READS_VELOCITY = np.array([False, True, True])  # per kernel code: the force depends on the velocities
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
    v = point_kinematics(A, side, s)[1]
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
def _profiles(
    progs, k, t, order, u, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
):
    """Fill u (6) with the profiles progs[k] of element k (0 where -1, i.e. absent): values
    (order 0) or time derivatives (order 1) at t."""
    for c in range(u.shape[0]):
        u[c] = 0.0
        if progs[k, c] >= 0:
            u[c] = eval_jet(
                progs[k, c], t, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
            )[order]


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
    return par[k, 0], par[k, 1], par[k, 2], par[k, 3]


@njit(cache=True)
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


@njit(cache=True)
def _force_elements(
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
    u = np.zeros(6)
    for kernel in range(start.shape[0] - 1):
        if start[kernel + 1] == start[kernel]:
            continue
        group_V = 0.0
        group_P = 0.0
        for k in range(start[kernel], start[kernel + 1]):
            if _has_profiles(progs, k):
                _profiles(
                    progs, k, t, order, u, code, code_start, consts, const_start, table_x, table_y, table_start,
                    table_base, stack,
                )  # fmt: skip
            side_i, side_j = body_side(Y, nb, bi[k]), body_side(Y, nb, bj[k])
            dV, dP = force_element(kernel, k, order, Q, A, side_i, side_j, vecs, _numbers(par, k), flag[k], u)
            group_V += dV
            group_P += dP
        V += group_V
        P += group_P
    return V, P


@njit(cache=True, inline="always")
def force_elements(t: float, order: int, Y: np.ndarray, S: tuple, W: tuple, Q: np.ndarray, V: float) -> tuple:
    """Add all force elements to Q (order 0) or their explicit time derivatives dQ/dt
    (order 1); returns (V + their potential [J], their power [W])."""
    if S.force_bi.shape[0] == 0:
        return V, 0.0
    return _force_elements(
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


# ----------------------------------------------------------------------------- Schur complement
# The constraint rows enter the dynamics through the Schur complement C = J M^-1 J^T, assembled
# as a band matrix after reverse Cuthill-McKee (row r sits at band position S.perm[r]). Which rows
# enter is the kept set W.keep (per band position: 1 kept, 0 dropped), decided by
# :func:`decide_rows` in the dimensionless metric S.rank_w (each body with unit mass and a radius
# of gyration equal to its size, so no mass, inertia or unit enters): a row whose sine to the
# span of the kept rows before it is below ODE_RANK_TOL depends on them and is dropped (its
# multiplier is 0). The solve is exact on the kept rows, so nothing depends on a regularisation.
#
# W.ctl, the rank state shared with the steppers (indices):
CTL_DECIDE = 0  # 1: the next derivatives call decides the kept set first
CTL_RANK = 1  # number of kept rows (-1: never decided)
CTL_MIN_SINE2 = 2  # smallest squared sine of a kept row at the last decision
CTL_CHANGES = 3  # number of decisions that changed the kept set
CTL_CHANGE_T = 4  # time of the last change [s]
CTL_WATCH = 5  # 1: a kept pivot fell by WATCH_DROP since the last decision: decide after the step
CTL_SET_REF = 6  # 1: the next factorisation stores its pivot ratios as the references
CTL_NEAR_T = 7  # first decision near a singular position since the stepper last reset it [s] (-1: none)
CTL_NEAR_MIN = 8  # the smallest squared sine (kept rows, or a row dropped there) since then (state in W.y_near)
CTL_NEAR_STEPS = 9  # number of steps that ended near a singular position (each projected)
CTL_RANK_BEFORE = 10  # the rank before the last change (equal to CTL_RANK: other rows dropped, same rank)
CTL_NEAR_MIN_T = 11  # time of that smallest squared sine [s]
CTL_SIZE = 12
RANK_SINE2 = ODE_RANK_TOL * ODE_RANK_TOL
RETURN_SINE2 = ODE_RANK_RETURN_TOL * ODE_RANK_RETURN_TOL
NEAR_SINE2 = ODE_NEAR_SINGULAR * ODE_NEAR_SINGULAR
WATCH_DROP = 0.1  # a kept pivot ratio (mass metric) this much below its reference: decide after the step
DECIDE_NOW_DROP = 1e-6  # ... this much below: decide at once, at the current state
PROJECT_ITER = 4  # chord-Newton iterations of the near-singular position projection


def new_rank_state(m: int) -> np.ndarray:
    """Initial W.ctl: nothing decided yet (the first evaluation decides)."""
    ctl = np.zeros(CTL_SIZE)
    ctl[CTL_DECIDE], ctl[CTL_RANK], ctl[CTL_MIN_SINE2], ctl[CTL_SET_REF] = 1.0, -1.0, 1.0, 1.0
    ctl[CTL_CHANGE_T], ctl[CTL_NEAR_T], ctl[CTL_NEAR_MIN] = -1.0, -1.0, 1.0
    return ctl


# ----------------------------------------------------------------------------- NumPy versions
# The interpreted start (solver/numerics/cold_start.py) runs these instead of the band kernels below,
# whose Python loops would dominate it: the same contracts, computed with one dense LAPACK
# factorisation of the kept rows (the band factor of the kept rows is that dense factor: fill-in
# stays inside the band). Every irregular case (a pivot not positive, a watched ratio falling, a
# kept set that changes) is handed to the loop version, unchanged input.
@functools.lru_cache(maxsize=64)
def _band_layout(m: int, bw: int) -> tuple:
    """(rows, cols, valid, width): band[i, k] is entry (rows, cols) = (i, i - k) where valid
    (cached: the same few sizes at every evaluation; the arrays are only read)."""
    width = min(bw, m - 1) + 1
    rows = np.repeat(np.arange(m), width).reshape(m, width)
    cols = rows - np.arange(width)
    return rows, cols, cols >= 0, width


def _dense_kept_factor(band, bw, keep):
    """(factor L, diagonal of C) of the kept rows, identity rows for the dropped ones, or None
    if the kept rows are not numerically positive definite."""
    m = band.shape[0]
    rows, cols, valid, width = _band_layout(m, bw)
    dense = np.zeros((m, m))
    dense[rows[valid], cols[valid]] = band[:, :width][valid]
    diag = np.diagonal(dense).copy()
    kept = np.flatnonzero(keep != 0)
    factor = np.zeros((m, m))
    try:
        sub = np.linalg.cholesky(dense[np.ix_(kept, kept)])
    except np.linalg.LinAlgError:
        return None
    factor[np.ix_(kept, kept)] = sub
    dropped = np.flatnonzero(keep == 0)
    factor[dropped, dropped] = 1.0
    pivots = np.diagonal(sub) ** 2
    if not (np.all(np.isfinite(sub)) and np.all(pivots > 0.0)):
        return None
    return factor, diag


def _store_factor(band, bw, factor) -> None:
    rows, cols, valid, width = _band_layout(band.shape[0], bw)
    band[:, :width][valid] = factor[rows[valid], cols[valid]]


def _ratios(factor, diag, keep) -> np.ndarray:
    """Pivot / diagonal entry per row (0 for a dropped row)."""
    r = np.where(keep != 0, np.diagonal(factor) ** 2 / np.where(diag > 0.0, diag, 1.0), 0.0)
    return np.where(diag > 0.0, r, 0.0)


def _band_cholesky_numpy(band, bw, keep, ratio, drop_below=-1.0, return_below=-1.0):
    """:func:`band_cholesky` (NumPy version). Deciding the kept set on the way, it checks the
    decision so far (keep 1 kept, 2 dropped) against one factorisation of the kept rows; a
    decision that changes is the loop's."""
    deciding = drop_below >= 0.0
    kept = np.where(keep == 2, 0, keep) if deciding else keep
    found = _dense_kept_factor(band, bw, kept)
    if found is not None:
        factor, diag = found
        r = _ratios(factor, diag, kept)
        if not deciding or _same_decision(band, bw, keep, factor, diag, r, drop_below, return_below):
            if deciding:
                keep[:] = kept
            ratio[:] = r
            _store_factor(band, bw, factor)
            return True
    return band_cholesky.py_func(band, bw, keep, ratio, drop_below, return_below)


def _same_decision(band, bw, keep, factor, diag, r, drop_below, return_below) -> bool:
    """Whether deciding again keeps exactly the rows kept so far: every kept row's ratio above
    drop_below, and every row dropped so far (keep 2) not above return_below, its ratio taken
    against the kept rows before it and written into r, as the loop does."""
    from scipy.linalg import solve_triangular

    kept = np.flatnonzero(keep == 1)
    if np.any(~(r[kept] > drop_below)):
        return False
    for i in np.flatnonzero(keep == 2):
        before = kept[(kept < i) & (kept >= i - bw)]
        column = np.array([band[i, i - j] for j in before])
        d = diag[i]
        if before.size:
            block = factor[np.ix_(kept[kept < i], kept[kept < i])]
            rhs = np.zeros(block.shape[0])
            rhs[-before.size :] = column
            x = solve_triangular(block, rhs, lower=True, check_finite=False)
            s = d - float(x @ x)
        else:
            s = d
        r[i] = s / d if d > 0.0 else 0.0
        if r[i] > return_below:
            return False
    return True


def _watched(ratio, keep, ref, ctl) -> tuple:
    """The pivot watch of the factorisations: (decide now, smallest kept ratio); sets the
    references or the watch flag as the loop versions do when no decision is due now."""
    kept = keep != 0
    r = ratio[kept]
    rmin = min(1.0, float(r.min())) if r.size else 1.0
    if ctl[CTL_SET_REF] > 0.0:
        ref[kept] = r
    else:
        if np.any(r < DECIDE_NOW_DROP * ref[kept]):
            return True, rmin
        if np.any(r < WATCH_DROP * ref[kept]):
            ctl[CTL_WATCH] = 1.0
    ctl[CTL_SET_REF] = 0.0
    return False, rmin


def _watched_factor_numpy(band, bw, keep, ratio, ref, ctl):
    """The NumPy part of the watched factorisations: (ok, rmin), or None where the loop
    version must decide (no regular factor, or a pivot fell by DECIDE_NOW_DROP)."""
    found = _dense_kept_factor(band, bw, keep)
    if found is None:
        return None
    r = _ratios(*found, keep)
    saved = (ref.copy(), ctl.copy())
    now, rmin = _watched(r, keep, ref, ctl)
    if now:
        ref[:], ctl[:] = saved
        return None
    ratio[:] = r
    _store_factor(band, bw, found[0])
    return True, rmin


def _full_cholesky_watched_numpy(band, bw, ratio, ref, ctl):
    """:func:`_full_cholesky_watched` (NumPy version)."""
    done = _watched_factor_numpy(band, bw, np.ones(band.shape[0], dtype=np.int64), ratio, ref, ctl)
    return done if done is not None else _full_cholesky_watched.py_func(band, bw, ratio, ref, ctl)


def _kept_cholesky_watched_numpy(band, bw, keep, ratio, ref, ctl):
    """:func:`_kept_cholesky_watched` (NumPy version)."""
    done = _watched_factor_numpy(band, bw, keep, ratio, ref, ctl)
    return done if done is not None else _kept_cholesky_watched.py_func(band, bw, keep, ratio, ref, ctl)


def _band_solve_numpy(band, bw, x):
    """:func:`band_solve` (NumPy version: LAPACK's banded Cholesky solve)."""
    from scipy.linalg import cho_solve_banded

    m = band.shape[0]
    if m == 0:
        return
    width = min(bw, m - 1) + 1
    lower = np.zeros((width, m))
    for k in range(width):
        lower[k, : m - k] = band[k:, k]
    x[:] = cho_solve_banded((lower, True), x, check_finite=False)


def _schur_numpy(band, jac, weight, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm):
    """:func:`_schur` in NumPy (the interpreted start's version: the loops are slow in Python)."""
    vals = (jac[pair_r, pair_side_r] * weight[pair_body] * jac[pair_s, pair_side_s]).sum(axis=1)
    i, j = perm[pair_r], perm[pair_s]
    band[:, :] = 0.0
    np.add.at(band, (np.maximum(i, j), np.abs(i - j)), vals)


@njit(cache=True, interpreted=_schur_numpy)
def _schur(band, jac, weight, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm):
    """Band of the permuted J diag(weight) J^T (weight: M^-1, or the rank metric)."""
    band[:, :] = 0.0
    for p in range(pair_r.shape[0]):
        r, s, b = pair_r[p], pair_s[p], pair_body[p]
        sr, ss = pair_side_r[p], pair_side_s[p]
        val = 0.0
        for k in range(6):
            val += jac[r, sr, k] * weight[b, k] * jac[s, ss, k]
        i, j = perm[r], perm[s]
        if i >= j:
            band[i, i - j] += val
        else:
            band[j, j - i] += val


@njit(cache=True, interpreted=_band_cholesky_numpy)
def band_cholesky(band, bw, keep, ratio, drop_below=-1.0, return_below=-1.0):
    """In-place Cholesky factor of the kept rows of a symmetric band matrix (row i, column
    i - k at band[i, k]); a dropped row (keep[i] == 0) becomes an identity row with zeros in
    its column, so that solves give it 0. ratio[i] = pivot / diagonal entry of row i (its
    squared sine to the span of the kept rows before it). With drop_below >= 0 the kept set
    is decided on the way (keep must start 1 for rows kept so far, 2 for rows dropped so far):
    a row whose ratio is not above drop_below (return_below for a row dropped so far) is
    dropped. Returns False if a kept pivot is not positive or not finite."""
    m = band.shape[0]
    for i in range(m):
        j0 = max(0, i - bw)
        if keep[i] == 0:
            ratio[i] = 0.0
            _identity_row(band, i, j0)
            continue
        for j in range(j0, i):
            if keep[j] == 0:
                band[i, i - j] = 0.0
                continue
            s = band[i, i - j]
            for k in range(max(j0, j - bw), j):
                s -= band[i, i - k] * band[j, j - k]
            band[i, i - j] = s / band[j, 0]
        d = band[i, 0]
        s = d
        for k in range(j0, i):
            s -= band[i, i - k] * band[i, i - k]
        ratio[i] = s / d if d > 0.0 else 0.0
        if drop_below >= 0.0:
            if not ratio[i] > (drop_below if keep[i] == 1 else return_below):
                keep[i] = 0
                _identity_row(band, i, j0)
                continue
            keep[i] = 1
        if not s > 0.0 or not np.isfinite(s):
            return False
        band[i, 0] = np.sqrt(s)
    return True


@njit(cache=True)
def _identity_row(band, i, j0):
    for k in range(1, i - j0 + 1):
        band[i, k] = 0.0
    band[i, 0] = 1.0


@njit(cache=True, interpreted=_band_solve_numpy)
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
def _solve_kept(band, bw, perm, keep, b, x, rhs):
    """x = C_KK^-1 b on the kept rows, 0 on the dropped ones (rows in model order; rhs: scratch)."""
    m = b.shape[0]
    for r in range(m):
        i = perm[r]
        rhs[i] = b[r] if keep[i] else 0.0
    band_solve(band, bw, rhs)
    for r in range(m):
        x[r] = rhs[perm[r]]


@njit(cache=True)
def _decide_rows(t, Y, band, bw, jac, rank_w, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm, keep,
                 keep_prev, sine2, ctl, y_near):  # fmt: skip
    """Decide the kept set at (t, Y) from the Jacobian in jac (see the section comment) and
    update the rank state ctl (keep_prev: the kept set before the last change); returns the rank."""
    _schur(band, jac, rank_w, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm)
    m = keep.shape[0]
    old = keep.copy()
    for i in range(m):
        keep[i] = 1 if old[i] else 2  # a dropped row comes back only above RETURN_SINE2 (hysteresis)
    band_cholesky(band, bw, keep, sine2, RANK_SINE2, RETURN_SINE2)
    rank, smin, snear, changed = 0, 1.0, 1.0, False
    for i in range(m):
        rank += keep[i]
        if keep[i]:
            smin = min(smin, sine2[i])
        elif old[i] and ctl[CTL_RANK] >= 0.0:  # dropped just now: the passage's closest approach
            snear = min(snear, sine2[i])
        changed = changed or keep[i] != old[i]
    snear = min(snear, smin)
    if changed and ctl[CTL_RANK] >= 0.0:
        ctl[CTL_CHANGES] += 1.0
        ctl[CTL_CHANGE_T] = t
        ctl[CTL_RANK_BEFORE] = ctl[CTL_RANK]
        keep_prev[:] = old
    if snear < NEAR_SINE2:
        if ctl[CTL_NEAR_T] < 0.0:
            ctl[CTL_NEAR_T] = t
        if snear < ctl[CTL_NEAR_MIN]:
            ctl[CTL_NEAR_MIN], ctl[CTL_NEAR_MIN_T] = snear, t
            for k in range(Y.shape[0]):
                y_near[k] = Y[k]
    ctl[CTL_RANK], ctl[CTL_MIN_SINE2] = rank, smin
    ctl[CTL_DECIDE], ctl[CTL_WATCH], ctl[CTL_SET_REF] = 0.0, 0.0, 1.0
    return rank


@njit(cache=True, inline="always")
def decide_rows(t, Y, S, W):
    """Decide the kept rows at (t, Y) (W.jac must hold the Jacobian there); returns the rank."""
    return _decide_rows(
        t, Y, W.band, S.bw, W.jac, S.rank_w, S.pair_r, S.pair_s, S.pair_body, S.pair_side_r, S.pair_side_s, S.perm,
        W.keep, W.keep_prev, W.sine2, W.ctl, W.y_near,
    )  # fmt: skip


@njit(cache=True, interpreted=_kept_cholesky_watched_numpy)
def _kept_cholesky_watched(band, bw, keep, ratio, ref, ctl):
    """Factor the kept rows of the assembled C (:func:`band_cholesky`) and watch their pivots
    against those of the last decision. Returns (ok, smallest kept pivot ratio); not ok if a
    pivot is not positive or fell by DECIDE_NOW_DROP (the kept set must be decided again here)."""
    if not band_cholesky(band, bw, keep, ratio):
        return False, 0.0
    rmin = 1.0
    set_ref = ctl[CTL_SET_REF] > 0.0
    for i in range(keep.shape[0]):
        if keep[i]:
            r = ratio[i]
            rmin = min(rmin, r)
            if set_ref:
                ref[i] = r
            elif r < WATCH_DROP * ref[i]:
                ctl[CTL_WATCH] = 1.0
                if r < DECIDE_NOW_DROP * ref[i]:
                    return False, rmin
    ctl[CTL_SET_REF] = 0.0
    return True, rmin


@njit(cache=True, interpreted=_full_cholesky_watched_numpy)
def _full_cholesky_watched(band, bw, ratio, ref, ctl):
    """:func:`_kept_cholesky_watched` when every row is kept (the common case, kept lean):
    band_cholesky without the kept-set branches, the pivots watched on the way."""
    m = band.shape[0]
    set_ref = ctl[CTL_SET_REF] > 0.0
    rmin = 1.0
    for i in range(m):
        j0 = max(0, i - bw)
        d = band[i, 0]
        for j in range(j0, i + 1):
            s = band[i, i - j]
            for k in range(max(j0, j - bw), j):
                s -= band[i, i - k] * band[j, j - k]
            if j < i:
                band[i, i - j] = s / band[j, 0]
                continue
            if not s > 0.0 or not np.isfinite(s):
                return False, 0.0
            r = s / d
            ratio[i] = r
            rmin = min(rmin, r)
            if set_ref:
                ref[i] = r
            elif r < WATCH_DROP * ref[i]:
                ctl[CTL_WATCH] = 1.0
                if r < DECIDE_NOW_DROP * ref[i]:
                    return False, rmin
            band[i, 0] = np.sqrt(s)
    ctl[CTL_SET_REF] = 0.0
    return True, rmin


@njit(cache=True)
def _factor_all_rows(band, jac, minv, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm, bw, ratio, ref, ctl):
    """The common case of :func:`factor_schur`: every row kept and no decision due. Assembles and
    factors C = J M^-1 J^T, watching the pivots; returns (ok, smallest pivot ratio), not ok if
    the case does not apply or the factorisation shows that the kept set no longer fits."""
    if ctl[CTL_DECIDE] != 0.0 or ctl[CTL_RANK] != band.shape[0]:
        return False, 0.0
    _schur(band, jac, minv, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm)
    return _full_cholesky_watched(band, bw, ratio, ref, ctl)


@njit(cache=True)
def factor_schur(t, Y, S, W):
    """Factor C = J M^-1 J^T on the kept rows at (t, Y) (W.jac filled), deciding the kept set
    first when asked to (W.ctl) or when the factorisation shows that it no longer fits. Returns
    (ok, smallest pivot ratio of the kept rows). :func:`derivatives` calls its two parts directly:
    the common case (:func:`_factor_all_rows`), then :func:`_factor_with_decisions` if needed."""
    ok, rmin = _factor_all_rows(
        W.band, W.jac, S.minv, S.pair_r, S.pair_s, S.pair_body, S.pair_side_r, S.pair_side_s, S.perm, S.bw,
        W.ratio, W.ref, W.ctl,
    )  # fmt: skip
    if ok:
        return ok, rmin
    return _factor_with_decisions(t, Y, S, W)


@njit(cache=True)
def _factor_with_decisions(t, Y, S, W):
    """:func:`factor_schur` with a decision due, rows dropped, or a factorisation that failed."""
    if W.ctl[CTL_DECIDE] > 0.0:
        decide_rows(t, Y, S, W)
    ok, rmin = _factor_kept(S, W)
    if not ok:
        decide_rows(t, Y, S, W)
        ok, rmin = _factor_kept(S, W)
    return ok, rmin


@njit(cache=True, inline="always")
def _factor_kept(S, W):
    """Assemble C = J M^-1 J^T and factor its kept rows, watching the pivots (see
    :func:`_kept_cholesky_watched`): (ok, smallest kept pivot ratio)."""
    _schur(W.band, W.jac, S.minv, S.pair_r, S.pair_s, S.pair_body, S.pair_side_r, S.pair_side_s, S.perm)
    if W.ctl[CTL_RANK] == S.row_kind.shape[0]:
        return _full_cholesky_watched(W.band, S.bw, W.ratio, W.ref, W.ctl)
    return _kept_cholesky_watched(W.band, S.bw, W.keep, W.ratio, W.ref, W.ctl)


REFINE_SWEEPS = 12  # at most this many iterative-refinement sweeps per multiplier solve
REFINE_TOL = 1e-15  # relative change of the constraint accelerations at which the refinement stops


def _constraint_acc_numpy(nb, bi, bj, jac, minv, lam, u):
    """:func:`_constraint_acc` (NumPy version)."""
    loads = np.zeros((nb + 1, 6))  # the last row stands for the ground
    m = bi.shape[0]
    np.add.at(loads, np.where(bi >= 0, bi, nb), jac[:m, 0, :] * lam[:m, None])
    np.add.at(loads, np.where(bj >= 0, bj, nb), jac[:m, 1, :] * lam[:m, None])
    u[: 6 * nb] = (minv[:nb] * loads[:nb]).ravel()


@njit(cache=True, interpreted=_constraint_acc_numpy)
def _constraint_acc(nb, bi, bj, jac, minv, lam, u):
    """u = M^-1 J^T lam (the accelerations the constraint loads take away)."""
    for i in range(6 * nb):
        u[i] = 0.0
    for r in range(bi.shape[0]):
        lr = lam[r]
        for side in range(2):
            b_ = bi[r] if side == 0 else bj[r]
            if b_ >= 0:
                for k in range(6):
                    u[6 * b_ + k] += minv[b_, k] * jac[r, side, k] * lr


@njit(cache=True)
def _schur_residual(nb, bi, bj, jac, minv, b, lam, u, res):
    """u = M^-1 J^T lam and res = b - J u = b - C lam."""
    _constraint_acc(nb, bi, bj, jac, minv, lam, u)
    _jacobian_times(nb, jac, bi, bj, u, res)
    for r in range(bi.shape[0]):
        res[r] = b[r] - res[r]


@njit(cache=True)
def _refined_solve(nb, bi, bj, jac, minv, band, bw, perm, keep, b, lam, rhs, u, res, u_prev):
    """lam = C_KK^-1 b on the kept rows (0 on the dropped ones) with the factor in ``band`` and
    iterative refinement against C itself, for an ill-conditioned C_KK (badly scaled masses,
    e.g. a point mass with inertia 1e-8 kg m^2): lam += C_KK^-1 (b - C lam). The sweeps stop
    when the change of the constraint accelerations u = M^-1 J^T lam, in the kinetic-energy
    norm (so independent of units and masses), is at rounding level (REFINE_TOL relative) or
    stops shrinking. Leaves u = M^-1 J^T lam."""
    m = bi.shape[0]
    _solve_kept(band, bw, perm, keep, b, lam, rhs)
    _schur_residual(nb, bi, bj, jac, minv, b, lam, u, res)
    prev = np.inf
    for _ in range(REFINE_SWEEPS):
        for i in range(6 * nb):
            u_prev[i] = u[i]
        _solve_kept(band, bw, perm, keep, res, res, rhs)
        for r in range(m):
            lam[r] += res[r]
        _schur_residual(nb, bi, bj, jac, minv, b, lam, u, res)
        du2, u2 = 0.0, 0.0
        for i in range(6 * nb):
            w = 1.0 / minv[i // 6, i % 6]
            du2 += w * (u[i] - u_prev[i]) ** 2
            u2 += w * u[i] * u[i]
        if not du2 > REFINE_TOL * REFINE_TOL * u2 or not du2 < 0.25 * prev:
            return
        prev = du2


def _jacobian_times_numpy(nb, jac, bi, bj, x, out):
    """:func:`_jacobian_times` (NumPy version)."""
    bodies = np.zeros((nb + 1, 6))  # the last row stands for the ground
    bodies[:nb] = x[: 6 * nb].reshape(nb, 6)
    m = bi.shape[0]
    jx = (jac[:m, 0, :] * bodies[np.where(bi >= 0, bi, nb)]).sum(axis=1)
    out[:m] = jx + (jac[:m, 1, :] * bodies[np.where(bj >= 0, bj, nb)]).sum(axis=1)


@njit(cache=True, inline="always", interpreted=_jacobian_times_numpy)
def _jacobian_times(nb, jac, bi, bj, x, out):
    """out = J x for body-velocity-like x (6 per moving body)."""
    for r in range(bi.shape[0]):
        s = 0.0
        for side in range(2):
            b = bi[r] if side == 0 else bj[r]
            if b >= 0:
                for k in range(6):
                    s += jac[r, side, k] * x[6 * b + k]
        out[r] = s


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
    keep,
    minv,
    bvec,
    u,
    res,
    u_prev,
    refine,
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
    """Solve C lam = J M^-1 Q - gamma* on the kept rows with the banded Cholesky factor in
    ``band`` (refined against C if ``refine``) and subtract M^-1 J^T lam from acc. Returns the
    driver power [W]."""
    m = bi.shape[0]
    _jacobian_times(nb, jac, bi, bj, acc, bvec)
    for r in range(m):
        bvec[r] -= gamma[r] - 2.0 * alpha * rate[r] - beta * beta * phi[r]  # J acc - gamma* (Baumgarte's)
    if refine:
        _refined_solve(nb, bi, bj, jac, minv, band, bw, perm, keep, bvec, lam, rhs, u, res, u_prev)
    else:
        _solve_kept(band, bw, perm, keep, bvec, lam, rhs)
        _constraint_acc(nb, bi, bj, jac, minv, lam, u)
    for i in range(6 * nb):
        acc[i] -= u[i]
    Pdrv = 0.0
    for r in range(m):
        if prog[r] >= 0:
            fd = eval_jet(
                prog[r], t, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
            )[1]
            Pdrv -= lam[r] * (rate[r] + fd)
    return Pdrv


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
    """dY/dt at (t, Y); fills W.lam (multipliers of the kept rows, 0 for the dropped ones;
    J^T lam is the constraint load with a minus sign). Returns (status, potential energy,
    non-conservative power, driver power)."""
    # Inlined only into explicit.run_fixed, which is compiled without reference counts (jit.py):
    # there the inlined helpers' copies of S and W touch no reference count. In a kernel that
    # counts them, each copy would cost ~58 atomics (bench/results/unbiased_kkt.md).
    _update_rotations(S.nb, Y, W.A)
    V, Pnc = forces(t, Y, S, W, W.Q)
    _free_acc(S.nb, W.Q, S.minv, W.acc)
    Pdrv = 0.0
    if S.row_kind.shape[0] > 0:
        constraints(t, Y, S, W)
        ok, rmin = _factor_all_rows(
            W.band, W.jac, S.minv, S.pair_r, S.pair_s, S.pair_body, S.pair_side_r, S.pair_side_s, S.perm, S.bw,
            W.ratio, W.ref, W.ctl,
        )  # fmt: skip
        if not ok:
            ok, rmin = _factor_with_decisions(t, Y, S, W)
        if not ok:
            return SINGULAR, V, Pnc, Pdrv
        Pdrv = _multipliers(
            t,
            S.nb,
            W.acc,
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
            W.keep,
            S.minv,
            W.bvec,
            W.u,
            W.res,
            W.u_prev,
            rmin < SCHUR_PIVOT_TOL,
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
    if not _state_rates(S.nb, Y, W.acc, Ydot):
        return NOT_FINITE, V, Pnc, Pdrv
    return OK, V, Pnc, Pdrv


@njit(cache=True)
def _free_acc(nb, Q, minv, acc):
    """acc = M^-1 Q (accelerations without the constraint loads)."""
    for i in range(6 * nb):
        acc[i] = Q[i] * minv[i // 6, i % 6]


# ----------------------------------------------------------------------------- near singular positions
@njit(cache=True, inline="always")
def wants_decision(S, W) -> bool:
    """Whether the kept set must be decided again after a step: rows are dropped (the rank may
    come back), the last decision was near a singular position, or a pivot fell since."""
    c = W.ctl
    return c[CTL_WATCH] > 0.0 or c[CTL_RANK] < S.row_kind.shape[0] or c[CTL_MIN_SINE2] < NEAR_SINE2


@njit(cache=True)
def _scaled_violation(phi, row_scale, perm, keep):
    """max |Phi| over the kept rows (length rows / the model length scale); inf if not finite."""
    e = 0.0
    for r in range(phi.shape[0]):
        if keep[perm[r]]:
            v = abs(phi[r]) * row_scale[r]
            if not np.isfinite(v):
                return np.inf
            e = max(e, v)
    return e


@njit(cache=True, inline="always")
def _kept_correction(S, W, b):
    """W.u = M^-1 J^T C_KK^-1 b (the mass-orthogonal correction that removes b from the kept rows)."""
    _solve_kept(W.band, S.bw, S.perm, W.keep, b, W.res, W.rhs)
    _constraint_acc(S.nb, S.row_bi, S.row_bj, W.jac, S.minv, W.res, W.u)


@njit(cache=True)
def project_state(t, Y, S, W):
    """Project Y in place onto the kept constraint rows at time t [s], mass-orthogonally:
    positions by chord Newton on Phi_K = 0 (factor of the first iterate, at most PROJECT_ITER
    corrections, until ODE_PROJECTION_TOL), then velocities onto J_K v = -Phi_t. Returns a
    status (OK, SINGULAR, NOT_FINITE)."""
    nb = S.nb
    for it in range(PROJECT_ITER + 1):
        _update_rotations(nb, Y, W.A)
        constraints(t, Y, S, W)
        if it == 0 and not factor_schur(t, Y, S, W)[0]:
            return SINGULAR
        e = _scaled_violation(W.phi, S.row_scale, S.perm, W.keep)
        if not np.isfinite(e):
            return NOT_FINITE
        if e <= ODE_PROJECTION_TOL or it == PROJECT_ITER:
            break
        _kept_correction(S, W, W.phi)
        for b in range(nb):
            for k in range(3):
                Y[7 * b + k] -= W.u[6 * b + k]
            dtheta = np.empty(3)
            for k in range(3):
                dtheta[k] = -W.u[6 * b + 3 + k]
            rotate_by_body_vector(Y[7 * b + 3 : 7 * b + 7].copy(), dtheta, Y[7 * b + 3 : 7 * b + 7])
    _kept_correction(S, W, W.rate)
    for i in range(6 * nb):
        Y[7 * nb + i] -= W.u[i]
    return OK


@njit(cache=True)
def _stabilise(t, Y, S, W, changes_before):
    """The work of :func:`end_of_step` once a decision is due (not inlined: it is rare)."""
    _update_rotations(S.nb, Y, W.A)
    constraints(t, Y, S, W)
    decide_rows(t, Y, S, W)
    near = W.ctl[CTL_MIN_SINE2] < NEAR_SINE2
    if not near and W.ctl[CTL_CHANGES] == changes_before:
        return OK, False
    if near:
        W.ctl[CTL_NEAR_STEPS] += 1.0
    return project_state(t, Y, S, W), True


@njit(cache=True)
def end_of_step_due(ctl, m, changes_before):
    """Whether :func:`end_of_step` has work after a step (m constraint rows): a decision is due
    (:func:`wants_decision`) or a decision inside the step changed the kept set. Takes the arrays
    only, so that the step loops can call it every step without copying S and W."""
    if m > 0 and (ctl[CTL_WATCH] > 0.0 or ctl[CTL_RANK] < m or ctl[CTL_MIN_SINE2] < NEAR_SINE2):
        return True
    return ctl[CTL_CHANGES] != changes_before


@njit(cache=True, inline="always")  # not compiled on its own: one closure less for LLVM
def end_of_step(t, Y, S, W, changes_before):
    """After an accepted step to (t, Y): decide the kept set again if needed (:func:`wants_decision`);
    if the state is near a singular position or the kept set changed since the rank state's change
    counter read ``changes_before``, project Y onto the constraints (:func:`project_state`).
    Returns (status, whether Y was projected). Step loops call it only when
    :func:`end_of_step_due`."""
    if S.row_kind.shape[0] > 0 and wants_decision(S, W):
        return _stabilise(t, Y, S, W, changes_before)
    if W.ctl[CTL_CHANGES] != changes_before:  # a decision inside the step changed the kept set
        return project_state(t, Y, S, W), True
    return OK, False


@njit(cache=True)
def accepted_state(t, Y, S, W, changes_before):
    """:func:`end_of_step` for the steppers written in Python: (status, projected)."""
    return end_of_step(t, Y, S, W, changes_before)


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
