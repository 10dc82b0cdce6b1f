"""Initial conditions: Newton assembly of approximate positions onto Phi = 0 and
projection of the initial velocities onto Phi_q v = -Phi_t."""

import numpy as np
import scipy.linalg

from .errors import AssemblyError
from .kernels import normalize_quaternions
from .quaternion import rotate_by_body_vector


def apply_increment(system, Y, delta):
    """Move every body by delta = [dr (global, m), dtheta (body frame, rad)] per body."""
    Y = Y.copy()
    for b in range(system.nb):
        Y[7 * b : 7 * b + 3] += delta[6 * b : 6 * b + 3]
        q = Y[7 * b + 3 : 7 * b + 7].copy()
        rotate_by_body_vector(q, delta[6 * b + 3 : 6 * b + 6].copy(), Y[7 * b + 3 : 7 * b + 7])
    return Y


def assemble_positions(system, Y, t=0.0, tol=1e-10, max_iter=60):
    """Gauss-Newton with backtracking line search (minimum-norm steps, so redundant
    constraints are fine). Returns the assembled state; raises AssemblyError naming the
    joints that cannot close and by how much."""
    Y = Y.copy()
    normalize_quaternions(system.static, Y)
    if system.m == 0:
        return Y
    phi, J, _, _ = system.constraint_jacobian(t, Y)
    norm = np.linalg.norm(phi)
    for _ in range(max_iter):
        if np.max(np.abs(phi)) < tol:
            return Y
        delta = -scipy.linalg.lstsq(J, phi, cond=1e-10, lapack_driver="gelsd")[0]
        for alpha in (1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125):
            Y_try = apply_increment(system, Y, alpha * delta)
            phi_try, J_try, _, _ = system.constraint_jacobian(t, Y_try)
            if np.linalg.norm(phi_try) < norm:
                break
        else:
            break
        Y, phi, J, norm = Y_try, phi_try, J_try, np.linalg.norm(phi_try)
    if np.max(np.abs(phi)) < tol:
        return Y
    worst = system.worst_joints(phi)
    detail = ", ".join(f"'{n}' off by {v:.3g}" for n, v in worst)
    raise AssemblyError(
        f"the mechanism does not assemble at t = {t:g} s: {detail} (residual {np.max(np.abs(phi)):.3g} after Newton)",
        worst,
    )


def project_velocities(system, Y, t=0.0):
    """Mass-weighted least-change projection of the velocities onto Phi_q v + Phi_t = 0."""
    Y = Y.copy()
    if system.m == 0:
        return Y
    _, J, _, rate = system.constraint_jacobian(t, Y)
    minv = system.static.minv.reshape(-1)
    C = (J * minv) @ J.T
    mu = scipy.linalg.lstsq(C, rate, cond=1e-12)[0]
    Y[7 * system.nb :] -= minv * (J.T @ mu)
    return Y


def assembly_report(system, Y0, Y1):
    """How far assembly moved each body: [{'body', 'moved_m', 'rotated_rad'}]."""
    out = []
    for b, body in enumerate(system.moving):
        dr = float(np.linalg.norm(Y1[7 * b : 7 * b + 3] - Y0[7 * b : 7 * b + 3]))
        q0, q1 = Y0[7 * b + 3 : 7 * b + 7], Y1[7 * b + 3 : 7 * b + 7]
        c = abs(float(np.dot(q0, q1)) / (np.linalg.norm(q0) * np.linalg.norm(q1)))
        out.append({"body": body.name, "moved_m": dr, "rotated_rad": 2.0 * float(np.arccos(min(1.0, c)))})
    return out


def assemble(system, Y, t=0.0, tol=1e-10):
    """Assemble positions and project velocities; returns (Y, report) where the report
    lists how far each body moved (metres, radians)."""
    Y1 = project_velocities(system, assemble_positions(system, Y, t, tol), t)
    return Y1, assembly_report(system, Y, Y1)
