"""Kinematic analysis, inverse dynamics and static equilibrium (no time integration).

* Kinematic analysis of a fully driven mechanism (mobility 0 with its drivers): at each
  output time, positions by Newton on Phi(q, t) = 0, velocities from Phi_q v = -Phi_t,
  accelerations from Phi_q a = gamma (gamma includes the drivers' f'').
* Inverse dynamics along it: the multipliers solve Phi_q^T lam = Q - M a (minimum-norm
  least squares when equations are redundant, which splits the statically
  indeterminate reactions by that rule, not by elasticity). Q holds gravity, loads,
  springs, dampers and the gyroscopic terms. The constraint load on the bodies is
  -Phi_q^T lam; a driver's effort is -lam of its row (torque/force on body_j).
* Statics: Phi(q, t) = 0 and Q(q) = Phi_q^T lam with zero velocities and the drivers
  held at their value at t, by Newton on that combined system (finite-difference
  tangent stiffness, Levenberg-Marquardt damping along the free directions so that it
  settles in a stable equilibrium from a nearby start).

Redundant joint equations are dropped (selection at the start, see :mod:`.mobility`) for the
position/velocity/acceleration solves and kept for the multipliers. The solves use the velocity
columns that are degrees of freedom (``System.free_columns``: not the rotation of a point mass,
which no equation involves). All results are
``Results`` objects, written in the same directory format as dynamic runs.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Iterator

import numpy as np
import scipy.linalg

from .. import kernels
from ..errors import AssemblyError, Cancelled, ModelError, SimulationError
from ..model.schema import Model
from ..model.validate import validate_run, with_settings
from ..numerics.quaternion import quat_rate
from ..results.files import ResultsWriter
from ..results.results import Results
from ..results.status import CANCELLED, COMPLETED, FAILED
from ..system.assembly import apply_increment, assemble, assembly_report, joint_residuals, length_scale, scaling
from ..system.system import System
from ..tolerances import ASSEMBLY_TOL, RANK_TOL, SINGULAR_TOL, STATICS_FORCE_TOL
from .mobility import MobilityReport, dependent_equations, mobility, singular_values


class SingularConfigurationError(SimulationError):
    """The drivers cannot determine the motion (the Jacobian of the independent joint
    and driver equations is singular); ``results`` holds the samples before it."""


# ----------------------------------------------------------------------------- setup
def _prepare(model, overrides, label):
    """(system, settings, results) with settings overridden and integrator = label."""
    model = with_settings(model, overrides)
    system = System(model)
    settings = copy.copy(model.settings)
    settings.integrator = label
    return system, settings, Results(system, settings)


def check_fully_driven(system: System, Y: np.ndarray, t: float = 0.0, tol: float = RANK_TOL) -> MobilityReport:
    """Mobility report at (t [s], Y); raises ModelError naming the drivers when the
    mechanism is over-driven or leaves degrees of freedom to no driver."""
    rep = mobility(system, Y, t, tol, relax=False)
    refuse_over_driving(system, rep)
    if rep.mobility_driven > 0:
        names = ", ".join(f"'{d.name}'" for d in system.model.drivers)
        by = f"drivers {names} leave" if names else "no drivers: it has"
        raise ModelError(
            "drivers",
            f"the mechanism is not fully driven at t = {t:g} s: mobility "
            f"{rep.mobility}, {by} {rep.mobility_driven} degree(s) of freedom free (add "
            "drivers, or the start is a singular configuration; use 'simulate' for free motion)",
        )
    return rep


def refuse_over_driving(system: System, rep: MobilityReport) -> None:
    """Raise ModelError naming the first driver whose motion the joints and the drivers before it
    already fix (its reactions and efforts would be one arbitrary split among the drivers)."""
    nj = len(system.model.joints)
    for e in rep.over_driving:
        k = int(system.row_owner[e["row"]]) - nj
        d = system.model.drivers[k]
        raise ModelError(
            f"drivers[{k}]",
            f"driver '{d.name}' on joint '{d.joint}' over-drives the mechanism: "
            f"its motion is already fixed by the joints and the drivers before it (mobility "
            f"{rep.mobility}, {rep.n_driver_equations} drivers) - remove it or free a joint",
        )


def _square_jacobian(system, t, Y, rows, rs, cs):
    """Phi, full Phi_q, gamma, rate and the scaled square Jacobian of the kept rows (free columns)."""
    phi, J, gamma, rate = system.constraint_jacobian(t, Y)
    return phi, J, gamma, rate, (J[rows] * rs[rows, None] * cs[None, :])[:, system.free_columns]


def _full(system, x_free):
    """A 6 N vector of velocity-like entries from its free ones (zeros elsewhere)."""
    x = np.zeros(6 * system.nb)
    x[system.free_columns] = x_free
    return x


def _singular_error(system, t, Js_sel, rows, ratio, res=None):
    names = dependent_equations(system, Js_sel, rows)
    err = SingularConfigurationError(
        f"singular configuration at t = {t:.6g} s: the equations of "
        f"{', '.join(repr(n) for n in names)} become dependent (sigma_min/sigma_max = {ratio:.2g}); "
        "the drivers cannot determine the motion here (dead point, change point or lock-up)",
        time=t,
        worst_joints=[(n, ratio) for n in names],
        results=res,
    )
    return err


def _crossing_error(system, t0, t1, res):
    return SingularConfigurationError(
        f"singular configuration between t = {t0:.6g} s and {t1:.6g} s: the determinant of the joint "
        "and driver Jacobian changed sign, so the mechanism passed a dead point or change point (the "
        "positions after it may lie on another assembly branch); use a smaller output step or change "
        "the drive",
        time=t1,
        worst_joints=[],
        results=res,
    )


def _position(system, Y, t, rows, rs, cs, tol, max_iter, singular_tol, res):
    """Newton on the kept rows at time t; returns Y. Raises on singularity/divergence."""
    for it in range(max_iter + 1):
        phi, J, _, _, Js = _square_jacobian(system, t, Y, rows, rs, cs)
        if np.max(np.abs(phi)) < tol:
            s = singular_values(Js)
            ratio = s[-1] / s[0] if s[0] > 0 else 0.0
            if ratio < singular_tol:
                raise _singular_error(system, t, Js, rows, ratio, res)
            return Y, it, np.linalg.slogdet(Js)[0]
        f = phi[rows] * rs[rows]
        try:
            dx = _full(system, np.linalg.solve(Js, -f))
        except np.linalg.LinAlgError:
            raise _singular_error(system, t, Js, rows, 0.0, res) from None
        alpha, n0 = 1.0, np.linalg.norm(phi * np.where(system.row_angular, 1.0, rs))
        for _ in range(10):
            Y_try = apply_increment(system, Y, alpha * dx * cs)
            phi_try = system.constraint_residual(t, Y_try)
            if np.linalg.norm(phi_try * np.where(system.row_angular, 1.0, rs)) < n0:
                break
            alpha *= 0.5
        Y = Y_try
    bad = joint_residuals(system, system.constraint_residual(t, Y), tol)
    raise SingularConfigurationError(
        f"position analysis did not converge at t = {t:.6g} s: "
        + ", ".join(f"'{n}' open by {max(p, a):.3g}" for n, p, a in bad[:4])
        + " (the drivers may have pushed the mechanism past a limit or singular position)",
        time=t,
        worst_joints=[(n, max(p, a)) for n, p, a in bad],
        results=res,
    )


def _state_derivative(system, Y, acc6):
    """Ydot = [r_dot, quaternion rate] per body then the accelerations."""
    nb = system.nb
    Ydot = np.zeros_like(Y)
    for b in range(nb):
        o = 7 * nb + 6 * b
        Ydot[7 * b : 7 * b + 3] = Y[o : o + 3]
        quat_rate(Y[7 * b + 3 : 7 * b + 7], Y[o + 3 : o + 6], Ydot[7 * b + 3 : 7 * b + 7])
    Ydot[7 * nb :] = acc6
    return Ydot


def generalized_forces(system: System, t: float, Y: np.ndarray) -> np.ndarray:
    """Q (6 per body: global force [N], principal-body-frame torque [N m] including the
    gyroscopic term) at (t, Y)."""
    Q = np.zeros(6 * system.nb)
    kernels.update_rotations(system.static, Y, system.work.A)
    kernels.forces(t, Y, system.static, system.work, Q)
    return Q


def multipliers(system: System, t: float, Y: np.ndarray, acc6: np.ndarray, J: np.ndarray) -> tuple[np.ndarray, float]:
    """Minimum-norm lam solving J^T lam = Q - M a at time t [s] (accelerations acc6, 6 per
    body, m/s^2 and rad/s^2); returns (lam, relative residual)."""
    rhs = generalized_forces(system, t, Y) - system.mass6.reshape(-1) * acc6
    if system.m == 0:
        return np.zeros(0), 0.0
    lam = scipy.linalg.lstsq(J.T, rhs, cond=1e-12, lapack_driver="gelsd")[0]
    return lam, float(np.linalg.norm(J.T @ lam - rhs) / max(np.linalg.norm(rhs), 1e-300))


# ----------------------------------------------------------------------------- kinematics
def kinematic_analysis(
    model: Model,
    t_end: float | None = None,
    output_step: float | None = None,
    tol: float = ASSEMBLY_TOL,
    singular_tol: float = SINGULAR_TOL,
    max_iter: int = 30,
    progress: Callable[[float, float], None] | None = None,
    out_dir: str | None = None,
    overwrite: bool = False,
    cancel: Callable[[], bool] | None = None,
) -> Results:
    """Kinematic analysis with inverse dynamics of a fully driven mechanism at the output
    times 0, output_step, ..., t_end [s] (model settings unless given). Returns Results
    whose driver efforts and joint reactions are the inverse-dynamics ones. Positions
    converge to ``tol`` (m, rad). Raises ModelError (not fully driven / over-driven),
    AssemblyError (no start) or SingularConfigurationError (with the samples so far,
    written to ``out_dir``) when the kept Jacobian's sigma_min/sigma_max falls below
    ``singular_tol`` (condition number above its inverse), when its determinant changes
    sign between samples, or when Newton does not converge; Cancelled (samples so far
    written, status cancelled) when ``cancel()`` turns True (checked at every output time).
    ``out_dir`` is checked and locked before anything is computed and written as a whole
    (a non-empty folder only with ``overwrite``; results_files.ResultsWriter)."""
    model = with_settings(model, dict(t_end=t_end, output_step=output_step))
    validate_run(model, "kinematics")  # before System: a model too large is refused at once
    system, settings, res = _prepare(model, {}, "kinematics")
    with _results_folder(out_dir, overwrite) as writer:
        _kinematics(system, settings, res, tol, singular_tol, max_iter, progress, writer, cancel)
    return res


@contextlib.contextmanager
def _results_folder(out_dir: str | None, overwrite: bool) -> Iterator[ResultsWriter | None]:
    """The results writer of ``out_dir`` (None: no folder), opened before the analysis: the
    folder is refused at once if it may not be written; dropped if the analysis raises
    before committing it."""
    writer = None if out_dir is None else ResultsWriter(out_dir, overwrite)
    try:
        yield writer
    finally:
        if writer is not None:
            writer.abort()  # nothing left to drop after a commit


def _kinematics(system, settings, res, tol, singular_tol, max_iter, progress, writer, cancel) -> None:
    """The loop of kinematic_analysis: samples into ``res`` (and ``writer``), which is committed
    at the end, also after a failure or a cancel (with the samples so far)."""
    n_out = max(1, int(round(settings.t_end / settings.output_step)))
    times = np.linspace(0.0, settings.t_end, n_out + 1)
    Y0 = system.Y0.copy()
    Y0[7 * system.nb :] = 0.0
    Y = assemble(system, Y0, 0.0, tol)
    res.assembly = assembly_report(system, Y0, Y)
    rep = check_fully_driven(system, Y, 0.0)
    rows = np.array(rep.independent, dtype=int)
    rs, cs = scaling(system, length_scale(system, Y))
    acc = np.zeros(6)
    a = last_sign = None  # acceleration and Jacobian-determinant sign of the previous sample
    try:
        for k, t in enumerate(times):
            if cancel is not None and cancel():
                raise Cancelled(f"cancelled at t = {times[k - 1] if k else 0.0:.6g} s", time=t)
            if k:
                dt = t - times[k - 1]
                Y = apply_increment(system, Y, Y[7 * system.nb :] * dt + 0.5 * a * dt * dt)
            Y, iters, sign = _position(system, Y, t, rows, rs, cs, tol, max_iter, singular_tol, res)
            if k and sign != last_sign:
                raise _crossing_error(system, times[k - 1], t, res)
            last_sign = sign
            res.steps += iters
            Y, a, lam = _rates(system, t, Y, rows)
            ev = res.record(t, Y, acc, lam=lam, Ydot=_state_derivative(system, Y, a))
            row = res._rows[-1]
            acc[:] = [t, ev["Pdrv"], ev["Pnc"], row["Wd"], row["Wn"], 1.0]
            if writer is not None:
                writer.append(res)
            if progress is not None:
                progress(t, settings.t_end)
        res.status = COMPLETED
    except KeyboardInterrupt:
        error = Cancelled("interrupted (Ctrl-C)")
        _stopped(res, error, CANCELLED, writer)
        raise error from None
    except SimulationError as e:
        _stopped(res, e, CANCELLED if isinstance(e, Cancelled) else FAILED, writer)
        raise
    if writer is not None:
        writer.commit(res)


def _stopped(res: Results, error: SimulationError, status: str, writer: ResultsWriter | None) -> None:
    """A failed or cancelled analysis: its samples so far are kept (and written, with ``status``)."""
    res.status, res.message = status, str(error)
    error.results = res
    if writer is not None and len(res):
        writer.commit(res)


def _rates(system, t, Y, rows):
    """Velocities, accelerations and inverse-dynamics multipliers at a solved position."""
    nb = system.nb
    Y = Y.copy()
    Y[7 * nb :] = 0.0
    free = system.free_columns
    _, J, _, phi_t = system.constraint_jacobian(t, Y)
    Y[7 * nb :] = _full(system, np.linalg.solve(J[rows][:, free], -phi_t[rows]))
    _, J, gamma, _ = system.constraint_jacobian(t, Y)
    a = _full(system, np.linalg.solve(J[rows][:, free], gamma[rows]))
    lam, _ = multipliers(system, t, Y, a, J)
    return Y, a, lam


def inverse_dynamics(model: Model, **kwargs) -> Results:
    """Driver efforts and joint reactions along the kinematic analysis (same arguments
    and Results as kinematic_analysis, which always computes them)."""
    return kinematic_analysis(model, **kwargs)


# ----------------------------------------------------------------------------- statics
def static_equilibrium(
    model: Model,
    t: float = 0.0,
    tol: float = ASSEMBLY_TOL,
    force_tol: float = STATICS_FORCE_TOL,
    max_iter: int = 100,
    out_dir: str | None = None,
    overwrite: bool = False,
) -> Results:
    """Static equilibrium at time t [s] (drivers held at their value at t, zero
    velocities) under gravity, loads and springs. Returns Results with one sample whose
    reactions and driver efforts hold the mechanism; ``results.equilibrium`` has
    'iterations', 'force_residual' [N or N m], 'stable' (the tangent stiffness is
    positive definite on the free directions) and 'min_reduced_stiffness' (its smallest
    eigenvalue, N m per unit of the dimensionless coordinates: only the sign is
    physical). Raises AssemblyError if it does not converge. ``out_dir`` is checked and
    locked before anything is computed, and written as a whole (a non-empty folder only with
    ``overwrite``)."""
    validate_run(model, "statics", t)
    system, settings, res = _prepare(model, {}, "statics")
    with _results_folder(out_dir, overwrite) as writer:
        _statics(system, res, t, tol, force_tol, max_iter)
        if writer is not None:
            writer.commit(res)
    return res


def _statics(system, res, t, tol, force_tol, max_iter) -> None:
    """The solve of static_equilibrium into ``res``."""
    Y0 = system.Y0.copy()
    Y0[7 * system.nb :] = 0.0
    Y = assemble(system, Y0, t, tol)
    L = length_scale(system, Y)
    rs, cs = scaling(system, L)
    rep = mobility(system, Y, t, relax=False)
    refuse_over_driving(system, rep)
    rows = np.array(rep.independent, dtype=int)
    fscale = _force_scale(system, t, Y)
    Y, info = _static_newton(system, Y, t, rows, rs, cs, L, fscale, tol, force_tol, max_iter)
    res.assembly = assembly_report(system, Y0, Y)
    J = system.constraint_jacobian(t, Y)[1]
    lam, _ = multipliers(system, t, Y, np.zeros(6 * system.nb), J)
    res.record(t, Y, np.zeros(6), lam=lam, Ydot=np.zeros_like(Y))
    res.equilibrium = info
    res.status = COMPLETED
    res.steps = info["iterations"]


def _force_scale(system, t, Y):
    """Force scale [N]: total weight, or the largest generalized force, or 1 N."""
    w = system.weight()
    q = float(np.max(np.abs(generalized_forces(system, t, Y)))) if system.nb else 0.0
    return max(w, q, 1e-9) or 1.0


def _tangent_residual(system, t, Y, rows):
    """Q - J^T lam* with lam* the least-squares multipliers (zero at equilibrium)."""
    J = system.constraint_jacobian(t, Y)[1]
    Q = generalized_forces(system, t, Y)
    if not len(rows):
        return Q, np.zeros(0), J
    lam = scipy.linalg.lstsq(J[rows].T, Q, cond=1e-12)[0]
    return Q - J[rows].T @ lam, lam, J


def _stiffness(system, t, Y, lam, rows, cs, h=1e-7):
    """H = -diag(cs) d(Q - J_rows^T lam)/dx (lam fixed, dq = cs dx) by central
    differences: the tangent stiffness in scaled coordinates (rows x cs like Rs)."""
    n = 6 * system.nb
    H = np.zeros((n, n))
    for k in range(n):
        d = np.zeros(n)
        d[k] = h * cs[k]
        out = []
        for sgn in (1.0, -1.0):
            Yp = apply_increment(system, Y, sgn * d)
            Jp = system.constraint_jacobian(t, Yp)[1]
            out.append(generalized_forces(system, t, Yp) - Jp[rows].T @ lam)
        H[:, k] = -(out[0] - out[1]) / (2.0 * h)
    return cs[:, None] * H


def _static_newton(system, Y, t, rows, rs, cs, L, fscale, tol, force_tol, max_iter):
    """Newton / Levenberg-Marquardt on [Q - J^T lam = 0, Phi_rows = 0] (scaled)."""
    for it in range(max_iter + 1):
        R, lam, J = _tangent_residual(system, t, Y, rows)
        phi = system.constraint_residual(t, Y)
        free = system.free_columns
        Rs = (R * cs / (fscale * L))[free]
        H = (_stiffness(system, t, Y, lam, rows, cs) / (fscale * L))[np.ix_(free, free)]
        Js = (J[rows] * rs[rows, None] * cs[None, :])[:, free]
        kmin = _reduced_min_eig(H, Js)
        if np.max(np.abs(Rs)) < force_tol and np.max(np.abs(phi)) < tol:
            return Y, dict(
                iterations=it,
                force_residual=float(np.max(np.abs(R))),
                stable=bool(kmin > 0),
                min_reduced_stiffness=float(kmin * fscale * L),
            )
        scale = max(1.0, float(np.abs(H).max()))
        Y_new = None
        f = phi[rows] * rs[rows]
        if kmin > 1e-6 * scale:  # Newton: residual must drop
            dx = _full(system, _kkt_step(H, Js, Rs, f, 0.0))
            Y_new = _static_line_search(system, Y, t, rows, rs, cs, L, fscale, dx, False)
        if Y_new is None:  # damped: descend the potential along the free directions
            dx = _full(system, _kkt_step(H, Js, Rs, f, max(-kmin, 0.0) + 1e-3 * scale))
            Y_new = _static_line_search(system, Y, t, rows, rs, cs, L, fscale, dx, True)
        if Y_new is None:
            break
        Y = Y_new
    bad = joint_residuals(system, system.constraint_residual(t, Y), tol)
    raise AssemblyError(
        f"static equilibrium not found at t = {t:g} s after {it} iterations "
        f"(force residual {np.max(np.abs(R)):.3g}; open joints: "
        f"{', '.join(n for n, _, _ in bad) or 'none'}): the mechanism may have no "
        "equilibrium near its start (unbounded motion or too weak springs)",
        [(n, max(p, a)) for n, p, a in bad],
    )


def _reduced_min_eig(H, Js):
    """Smallest eigenvalue of the symmetric stiffness on the constraint tangent space."""
    Z = scipy.linalg.null_space(Js) if Js.size else np.eye(H.shape[0])
    if Z.shape[1] == 0:
        return np.inf
    Hr = Z.T @ (0.5 * (H + H.T)) @ Z
    return float(np.linalg.eigvalsh(Hr)[0])


def _kkt_step(H, Js, Rs, f, mu):
    """dx solving [H + mu I, J^T; J, 0] [dx; dlam] = [Rs; -f] (scaled), clamped to 0.5."""
    n, m = H.shape[0], Js.shape[0]
    K = np.zeros((n + m, n + m))
    K[:n, :n] = H + mu * np.eye(n)
    K[:n, n:] = Js.T
    K[n:, :n] = Js
    dx = scipy.linalg.lstsq(K, np.r_[Rs, -f], cond=1e-14)[0][:n]
    big = np.max(np.abs(dx)) if n else 0.0
    return dx if big < 0.5 else dx * (0.5 / big)


def _static_line_search(system, Y, t, rows, rs, cs, L, fscale, dx, damped):
    """Backtracking. Newton steps must reduce ||Q - J^T lam*|| / (F L) + ||Phi|| (scaled);
    damped steps must do positive work with the applied forces (trapezoid estimate, a
    potential-energy decrease) without opening the joints. None if no step qualifies."""

    def merit(Yc):
        R = _tangent_residual(system, t, Yc, rows)[0]
        return np.linalg.norm(R * cs / (fscale * L)) + np.linalg.norm(system.constraint_residual(t, Yc) * rs)

    m0 = merit(Y)
    Q0 = generalized_forces(system, t, Y)
    c0 = np.linalg.norm(system.constraint_residual(t, Y) * rs)
    alpha = 1.0
    for _ in range(20):
        d = alpha * dx * cs
        Y_try = apply_increment(system, Y, d)
        if not damped:
            if merit(Y_try) < m0:
                return Y_try
        else:
            work = 0.5 * float(np.dot(Q0 + generalized_forces(system, t, Y_try), d))
            c1 = np.linalg.norm(system.constraint_residual(t, Y_try) * rs)
            if work > 0.0 and c1 <= max(2.0 * c0, 1e-9):
                return Y_try
        alpha *= 0.5
    return None


# ----------------------------------------------------------------------------- accessors
def accelerations(results: Results, body: str) -> tuple[np.ndarray, np.ndarray]:
    """CoG acceleration [m/s^2] and angular acceleration [rad/s^2], global axes, of a
    body along a run (from the stored state derivatives): two (K, 3) arrays."""
    sys = results.system
    b = results.body_names.index(body)
    Ydot = results._stack("Ydot")
    o = 7 * sys.nb + 6 * b
    A = results._poses()["A"][:, b] @ sys.R_principal[b]  # principal -> global
    return Ydot[:, o : o + 3], np.einsum("kij,kj->ki", A, Ydot[:, o + 3 : o + 6])
