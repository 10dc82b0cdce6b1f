"""Position assembly onto Phi(q, t) = 0 and velocity projection onto Phi_q v = -Phi_t.

:func:`assemble` is the one position solver: the analyses, the simulation start
(:func:`assemble_initial_state`), the output-time projection of ODE-form runs and the
showcase all call it. Jacobian columns are 6 per moving body (global linear velocity,
body-frame angular velocity); :func:`scaling` makes the Jacobian dimensionless (length
rows divided by the model's length scale ``L``, linear columns multiplied by ``L``) so
that metres and radians weigh alike in steps and rank decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

import numpy as np
import scipy.linalg
import scipy.sparse
import scipy.sparse.linalg

from ..errors import AssemblyError
from ..kernels import normalize_quaternions
from ..numerics.quaternion import rotate_by_body_vector
from ..tolerances import ASSEMBLY_TOL

if TYPE_CHECKING:
    from .system import System


class BodyMove(TypedDict):
    """How far assembly moved one body: CoG distance [m] and rotation angle [rad]."""

    body: str
    moved_m: float
    rotated_rad: float


def apply_increment(system: System, Y: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Copy of Y with every body moved by delta = [dr (global, m), dtheta (body frame, rad)] per body."""
    Y = Y.copy()
    for b in range(system.nb):
        Y[7 * b : 7 * b + 3] += delta[6 * b : 6 * b + 3]
        q = Y[7 * b + 3 : 7 * b + 7].copy()
        rotate_by_body_vector(q, delta[6 * b + 3 : 6 * b + 6].copy(), Y[7 * b + 3 : 7 * b + 7])
    return Y


# ----------------------------------------------------------------------------- scaling
def length_scale(system: System, Y: np.ndarray) -> float:
    """Characteristic length [m] of a configuration: the largest distance of a body CoG
    or joint origin from their centroid (1 m if the model is a single point)."""
    pts = [Y[7 * b : 7 * b + 3] for b in range(system.nb)]
    for j, f in zip(system.model.joints, system.joint_frames):  # fixed sides are global
        pts += [f["o" + s] for s, b in (("i", j.body_i), ("j", j.body_j)) if system.body_index(b) < 0]
    P = np.array(pts, dtype=float).reshape(-1, 3)
    L = float(np.max(np.linalg.norm(P - P.mean(axis=0), axis=1))) if len(P) else 0.0
    return L if L > 1e-9 else 1.0


def scaling(system: System, L: float) -> tuple[np.ndarray, np.ndarray]:
    """Row scale (1/L [1/m] for length rows, 1 for angle rows) and column scale (L [m] for
    linear velocity columns, 1 for angular) making the Jacobian dimensionless."""
    rows = np.where(system.row_angular, 1.0, 1.0 / L)
    cols = np.tile(np.r_[np.full(3, L), np.ones(3)], system.nb)
    return rows, cols


# ----------------------------------------------------------------------------- positions
def assemble(
    system: System,
    Y: np.ndarray | None = None,
    t: float = 0.0,
    tol: float = ASSEMBLY_TOL,
    max_iter: int = 100,
    scaled: bool = True,
) -> np.ndarray:
    """Close all joints and drivers at time t [s] from approximate placements ``Y``
    (default: the model's initial state) until max |Phi| < ``tol`` [m, rad]: Gauss-Newton
    with minimum-norm steps (redundant equations are fine) and backtracking, switching to
    Levenberg-Marquardt damping when a step does not reduce the residual. Steps are of
    minimum norm in the dimensionless coordinates of :func:`scaling`, or in the raw ones
    (m, rad) when ``scaled`` is False (the output-time projection). Velocities are left
    unchanged. Returns the assembled state; raises AssemblyError naming the joints that
    stay open and by how much."""
    Y = (system.Y0 if Y is None else np.asarray(Y, float)).copy()
    normalize_quaternions(system.static, Y)
    if system.m == 0:
        return Y
    rs, cs = scaling(system, length_scale(system, Y)) if scaled else (np.ones(system.m), np.ones(6 * system.nb))
    phi, J = system.constraint_residual(t, Y), None
    mu = 0.0
    for _ in range(max_iter):
        if np.max(np.abs(phi)) < tol:
            return Y
        if J is None:  # (only when a step is needed: an assembled large model builds no m x 6N array)
            J = system.constraint_jacobian(t, Y)[1]
        Js = J * rs[:, None] * cs[None, :]
        Y_new = _damped_step(system, Y, t, Js, phi * rs, cs, rs, mu)
        if Y_new is None:
            if mu > 1e8:
                break
            mu = max(10.0 * mu, 1e-6 * float(np.sum(Js * Js)) + 1e-12)
            continue
        mu = mu / 10.0 if mu > 1e-12 else 0.0
        Y = Y_new
        phi, J = system.constraint_residual(t, Y), None
    if np.max(np.abs(phi)) < tol:
        return Y
    raise _not_assembled(system, phi, t, tol)


def _damped_step(system, Y, t, Js, f, cs, rs, mu):
    """One Newton step (Levenberg-Marquardt damped if mu > 0) on the scaled residual f
    with backtracking; None if the residual does not drop."""
    if mu == 0.0:
        dx = -scipy.linalg.lstsq(Js, f, cond=1e-12, lapack_driver="gelsd")[0]
    else:
        n = Js.shape[1]
        dx = -np.linalg.solve(Js.T @ Js + mu * np.eye(n), Js.T @ f)
    norm0 = np.linalg.norm(f)
    alpha = 1.0
    for _ in range(12):
        Y_try = apply_increment(system, Y, alpha * dx * cs)
        phi_try = system.constraint_residual(t, Y_try)
        if np.all(np.isfinite(phi_try)) and np.linalg.norm(phi_try * rs) < norm0 * (1 - 1e-4 * alpha):
            return Y_try
        alpha *= 0.5
    return None


def joint_residuals(system: System, phi: np.ndarray, tol: float = 0.0) -> list[tuple[str, float, float]]:
    """[(name, position residual [m], angle residual [rad])] of the joints and drivers
    violating ``phi`` by more than ``tol``, worst first."""
    out = []
    n_own = len(system.model.joints) + len(system.model.drivers)
    for k in range(n_own):
        rows = system.row_owner == k
        lin = np.abs(phi[rows & ~system.row_angular])
        ang = np.abs(phi[rows & system.row_angular])
        p = float(lin.max()) if lin.size else 0.0
        a = float(ang.max()) if ang.size else 0.0
        if max(p, a) > tol or not np.isfinite(p + a):
            out.append((system.owner_name(k), p, a))
    return sorted(out, key=lambda x: -max(x[1], x[2]))


def _describe_residuals(res, count=4):
    parts = []
    for name, p, a in res[:count]:
        bits = ([f"{p:.3g} m"] if p > 0 else []) + ([f"{a:.3g} rad"] if a > 0 else [])
        parts.append(f"'{name}' open by {' and '.join(bits) or '0'}")
    return ", ".join(parts)


def _not_assembled(system, phi, t, tol):
    """AssemblyError naming the joints left open by more than tol."""
    bad = joint_residuals(system, phi, tol)
    return AssemblyError(
        f"the mechanism does not assemble at t = {t:g} s: {_describe_residuals(bad)} "
        f"(least-squares residual {np.max(np.abs(phi)):.3g} after Newton/Levenberg-Marquardt; "
        f"check the lengths and axes of these joints)",
        [(n, max(p, a)) for n, p, a in bad],
    )


# ----------------------------------------------------------------------------- velocities
def project_velocities(system: System, Y: np.ndarray, t: float = 0.0) -> np.ndarray:
    """Copy of Y with the velocities projected onto Phi_q v + Phi_t = 0 at time t [s]
    (mass-weighted least change)."""
    Y = Y.copy()
    if system.m == 0:
        return Y
    _, J, _, rate = system.constraint_jacobian(t, Y, sparse=True)
    minv = system.static.minv.reshape(-1)
    mu = _sparse_multipliers(J, minv, rate)
    if mu is None:  # dependent rows (redundant joints): the least-squares (minimum-norm) multipliers
        Jd = J.toarray()
        C = (Jd * minv) @ Jd.T
        mu = scipy.linalg.lstsq(C, rate, cond=1e-12)[0]
    Y[7 * system.nb :] -= minv * (J.T @ mu)
    return Y


def _sparse_multipliers(J: scipy.sparse.csr_matrix, minv: np.ndarray, rate: np.ndarray) -> np.ndarray | None:
    """mu with (J M^-1 J^T) mu = rate by a sparse LU (J is sparse: a few bodies per row, so a chain
    of 1000 links takes milliseconds instead of a dense solve's minute); None when J M^-1 J^T is
    singular or the solution does not check (then the caller's dense least squares decides)."""
    Js = scipy.sparse.csr_matrix(J)
    C = (Js.multiply(minv[None, :]) @ Js.T).tocsc()
    try:
        mu = scipy.sparse.linalg.splu(C).solve(rate)
    except RuntimeError:  # exactly singular
        return None
    ok = np.all(np.isfinite(mu)) and np.linalg.norm(C @ mu - rate) <= 1e-10 * max(np.linalg.norm(rate), 1e-300)
    return mu if ok else None


# ----------------------------------------------------------------------------- initial state
def assembly_report(system: System, Y0: np.ndarray, Y1: np.ndarray) -> list[BodyMove]:
    """How far assembly moved each body from Y0 to Y1 (metres, radians)."""
    out = []
    for b, body in enumerate(system.moving):
        dr = float(np.linalg.norm(Y1[7 * b : 7 * b + 3] - Y0[7 * b : 7 * b + 3]))
        q0, q1 = Y0[7 * b + 3 : 7 * b + 7], Y1[7 * b + 3 : 7 * b + 7]
        c = abs(float(np.dot(q0, q1)) / (np.linalg.norm(q0) * np.linalg.norm(q1)))
        out.append({"body": body.name, "moved_m": dr, "rotated_rad": 2.0 * float(np.arccos(min(1.0, c)))})
    return out


def assemble_initial_state(system: System, Y: np.ndarray, t: float = 0.0) -> tuple[np.ndarray, list[BodyMove]]:
    """Initial conditions of a run at time t [s]: positions assembled (:func:`assemble`),
    velocities projected; returns (state, how far each body moved)."""
    Y1 = project_velocities(system, assemble(system, Y, t), t)
    return Y1, assembly_report(system, Y, Y1)
