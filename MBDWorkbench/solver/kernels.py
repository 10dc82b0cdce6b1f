"""The state derivative dY/dt of [R1] (Y = [q (7N), qdot (6N)], body-frame angular rates) that
the integrators call: forces (numerics/forces.py), constraints (numerics/constraints.py) and the
multipliers of the kept rows (numerics/schur.py) put together; the end of a step near singular
positions (rank decisions, projection onto the constraints); the run status codes.

``S`` is the namedtuple of static arrays built by ``system.System`` (``Static``); ``W`` the
namedtuple of work arrays. All SI units. ``X_arrays`` is the kernel on its arrays, ``X(S, ...)``
its inlined wrapper that unpacks the fields.
"""

import numpy as np

from .numerics.constraints import constraints
from .numerics.forces import (
    FORCE_KERNELS,
    LOAD,
    ROTATIONAL_SPRING_DAMPER,
    SPRING_DAMPER,
    force_element,
    force_elements_arrays,
    forces,
)
from .numerics.jit import njit
from .numerics.quaternion import quat_rate, quat_to_matrix, rotate_by_body_vector
from .numerics.schur import (
    CTL_CHANGES,
    CTL_DECIDE,
    CTL_MIN_SINE2,
    CTL_NEAR_MIN,
    CTL_NEAR_MIN_T,
    CTL_NEAR_STEPS,
    CTL_NEAR_T,
    CTL_RANK,
    CTL_RANK_BEFORE,
    CTL_WATCH,
    NEAR_SINE2,
    constraint_acc,
    decide_rows,
    factor_all_rows,
    factor_schur,
    factor_with_decisions,
    new_rank_state,
    solve_kept,
    solve_multipliers,
)
from .tolerances import ODE_PROJECTION_TOL, SCHUR_PIVOT_TOL

__all__ = [  # what the integrators reach as kernels.NAME: this module's kernels and status codes, and
    # the force, constraint and rank-state names it hands on from numerics/
    "OK", "SINGULAR", "NOT_FINITE", "fast_call", "derivatives", "end_of_step", "end_of_step_due", "accepted_state",
    "project_state", "update_rotations", "update_rotations_arrays", "normalize_quaternions",
    "normalize_quaternions_arrays", "kinetic_energy", "constraints", "forces", "force_element",
    "force_elements_arrays", "FORCE_KERNELS", "LOAD", "SPRING_DAMPER", "ROTATIONAL_SPRING_DAMPER", "new_rank_state",
    "solve_kept", "CTL_CHANGES", "CTL_DECIDE", "CTL_NEAR_MIN", "CTL_NEAR_MIN_T", "CTL_NEAR_STEPS", "CTL_NEAR_T",
    "CTL_RANK", "CTL_RANK_BEFORE",
]  # fmt: skip

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
@njit(cache=True)
def update_rotations_arrays(nb, Y, A):
    """W.A: the rotation matrices of the nb moving bodies from the quaternions in Y."""
    for b in range(nb):
        quat_to_matrix(Y[7 * b + 3 : 7 * b + 7], A[b])


@njit(cache=True, inline="always")
def update_rotations(S, Y, A):
    """Rotation matrices of all moving bodies from the quaternions in Y."""
    update_rotations_arrays(S.nb, Y, A)


PROJECT_ITER = 4  # chord-Newton iterations of the near-singular position projection


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
    update_rotations_arrays(S.nb, Y, W.A)
    V, Pnc = forces(t, Y, S, W, W.Q)
    _free_acc(S.nb, W.Q, S.minv, W.acc)
    Pdrv = 0.0
    if S.row_kind.shape[0] > 0:
        constraints(t, Y, S, W)
        ok, rmin = factor_all_rows(
            W.band, W.jac, S.minv, S.pair_r, S.pair_s, S.pair_body, S.pair_side_r, S.pair_side_s, S.perm, S.bw,
            W.ratio, W.ref, W.ctl,
        )  # fmt: skip
        if not ok:
            ok, rmin = factor_with_decisions(t, Y, S, W)
        if not ok:
            return SINGULAR, V, Pnc, Pdrv
        Pdrv = solve_multipliers(
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
    solve_kept(W.band, S.bw, S.perm, W.keep, b, W.res, W.rhs)
    constraint_acc(S.nb, S.row_bi, S.row_bj, W.jac, S.minv, W.res, W.u)


@njit(cache=True)
def project_state(t, Y, S, W):
    """Project Y in place onto the kept constraint rows at time t [s], mass-orthogonally:
    positions by chord Newton on Phi_K = 0 (factor of the first iterate, at most PROJECT_ITER
    corrections, until ODE_PROJECTION_TOL), then velocities onto J_K v = -Phi_t. Returns a
    status (OK, SINGULAR, NOT_FINITE)."""
    nb = S.nb
    for it in range(PROJECT_ITER + 1):
        update_rotations_arrays(nb, Y, W.A)
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
    update_rotations_arrays(S.nb, Y, W.A)
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
def normalize_quaternions_arrays(nb, Y):
    """Scale the quaternions of the nb moving bodies in Y to unit length."""
    for b in range(nb):
        n = np.sqrt(Y[7 * b + 3] ** 2 + Y[7 * b + 4] ** 2 + Y[7 * b + 5] ** 2 + Y[7 * b + 6] ** 2)
        for k in range(4):
            Y[7 * b + 3 + k] /= n


@njit(cache=True, inline="always")
def normalize_quaternions(S, Y):
    """Project the quaternions of Y back onto the unit sphere."""
    normalize_quaternions_arrays(S.nb, Y)


@njit(cache=True, inline="always")  # inlined into results.sample_kernels.record_samples (no counts)
def kinetic_energy(S, Y):
    """Kinetic energy [J] of all moving bodies."""
    T = 0.0
    for b in range(S.nb):
        o = 7 * S.nb + 6 * b
        for k in range(3):
            T += 0.5 * S.mass[b] * Y[o + k] ** 2 + 0.5 * S.inertia[b, k] * Y[o + 3 + k] ** 2
    return T
