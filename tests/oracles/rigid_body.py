r"""Torque-free rigid body oracle (3D).

Conventions
-----------
* ``R`` is the rotation matrix mapping body-frame components to world-frame
  components: ``v_world = R @ v_body``.
* ``omega`` (``omega_body``) is the angular velocity in *body* components;
  the world angular velocity is ``R @ omega_body``.
* Quaternions are scalar-first unit quaternions ``q = (w, x, y, z)`` with the
  same meaning as ``R`` (``R(q)`` = body -> world).  Kinematics:
  ``q_dot = 1/2 q (x) (0, omega_body)``  (Hamilton product),
  ``R_dot = R [omega_body]_x``.
* ``J`` is the inertia tensor about the centre of mass in body axes; pass
  either its principal values (3-vector, body axes = principal axes) or a full
  symmetric 3x3 matrix.  Units kg m^2, rad/s, s, J.

Equations
---------
Euler (no torque):      J omega_dot = (J omega) x omega
World angular momentum: H_w = R J omega      (constant)
Kinetic energy:         T = 1/2 omega . J omega   (constant)

Exact period of the body rates (Landau & Lifshitz, Mechanics, sect. 37)
-----------------------------------------------------------------------
Sort the principal moments Ia < Ib < Ic, let H2 = |J omega|^2, E2 = 2 T.
If H2 > E2 Ib (motion around the major axis c):

    p   = sqrt((Ic - Ib)(H2 - E2 Ia) / (Ia Ib Ic))
    k^2 = (Ib - Ia)(E2 Ic - H2) / ((Ic - Ib)(H2 - E2 Ia))

If H2 < E2 Ib (around the minor axis a) swap a <-> c in both formulas:

    p   = sqrt((Ib - Ia)(E2 Ic - H2) / (Ia Ib Ic))
    k^2 = (Ic - Ib)(H2 - E2 Ia) / ((Ib - Ia)(E2 Ic - H2))

Then omega_a ~ cn, omega_b ~ sn, omega_c ~ dn of ``p t`` with modulus k (or
with a and c exchanged), so the body-rate vector is periodic with period
``T = 4 K(k^2) / p`` (scipy's ellipk takes m = k^2), and the intermediate-axis
rate omega_b (a pure ``sn``) changes sign every ``T/2 = 2 K / p``.  For a spin
about the intermediate axis with a small perturbation (the Dzhanibekov / tennis
racket case) T/2 is the time between successive flips.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import ellipk

__all__ = [
    "inertia_matrix",
    "skew",
    "quat_to_matrix",
    "matrix_to_quat",
    "quat_multiply",
    "angular_momentum_world",
    "kinetic_energy",
    "euler_rhs",
    "TorqueFreeSolution",
    "simulate_torque_free",
    "body_rate_period",
    "dzhanibekov_flip_interval",
    "intermediate_axis_spin",
]


def inertia_matrix(J):
    J = np.asarray(J, dtype=float)
    if J.shape == (3,):
        return np.diag(J)
    if J.shape == (3, 3):
        return J
    raise ValueError("J must be a 3-vector of principal moments or a 3x3 matrix")


def skew(w):
    w = np.asarray(w, dtype=float)
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def quat_multiply(p, q):
    """Hamilton product p (x) q, scalar-first."""
    pw, px, py, pz = p
    qw, qx, qy, qz = q
    return np.array(
        [
            pw * qw - px * qx - py * qy - pz * qz,
            pw * qx + px * qw + py * qz - pz * qy,
            pw * qy - px * qz + py * qw + pz * qx,
            pw * qz + px * qy - py * qx + pz * qw,
        ]
    )


def quat_to_matrix(q):
    """Rotation matrix (body -> world) of a scalar-first quaternion; q (...,4) -> (...,3,3)."""
    q = np.asarray(q, dtype=float)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    w, x, y, z = np.moveaxis(q, -1, 0)
    R = np.empty(q.shape[:-1] + (3, 3))
    R[..., 0, 0] = 1 - 2 * (y * y + z * z)
    R[..., 0, 1] = 2 * (x * y - w * z)
    R[..., 0, 2] = 2 * (x * z + w * y)
    R[..., 1, 0] = 2 * (x * y + w * z)
    R[..., 1, 1] = 1 - 2 * (x * x + z * z)
    R[..., 1, 2] = 2 * (y * z - w * x)
    R[..., 2, 0] = 2 * (x * z - w * y)
    R[..., 2, 1] = 2 * (y * z + w * x)
    R[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return R


def matrix_to_quat(R):
    """Scalar-first unit quaternion (w >= 0) of a rotation matrix (Shepperd's method)."""
    R = np.asarray(R, dtype=float)
    tr = np.trace(R)
    cands = np.array([tr, R[0, 0], R[1, 1], R[2, 2]])
    i = int(np.argmax(cands))
    if i == 0:
        w = 0.5 * np.sqrt(1 + tr)
        q = [w, (R[2, 1] - R[1, 2]) / (4 * w), (R[0, 2] - R[2, 0]) / (4 * w), (R[1, 0] - R[0, 1]) / (4 * w)]
    elif i == 1:
        x = 0.5 * np.sqrt(1 + 2 * R[0, 0] - tr)
        q = [(R[2, 1] - R[1, 2]) / (4 * x), x, (R[0, 1] + R[1, 0]) / (4 * x), (R[0, 2] + R[2, 0]) / (4 * x)]
    elif i == 2:
        y = 0.5 * np.sqrt(1 + 2 * R[1, 1] - tr)
        q = [(R[0, 2] - R[2, 0]) / (4 * y), (R[0, 1] + R[1, 0]) / (4 * y), y, (R[1, 2] + R[2, 1]) / (4 * y)]
    else:
        z = 0.5 * np.sqrt(1 + 2 * R[2, 2] - tr)
        q = [(R[1, 0] - R[0, 1]) / (4 * z), (R[0, 2] + R[2, 0]) / (4 * z), (R[1, 2] + R[2, 1]) / (4 * z), z]
    q = np.array(q)
    return q if q[0] >= 0 else -q


def angular_momentum_world(R, omega_body, J):
    """H_world = R J omega_body; R (...,3,3), omega (...,3) -> (...,3)."""
    Jm = inertia_matrix(J)
    Hb = np.asarray(omega_body, dtype=float) @ Jm.T
    return np.einsum("...ij,...j->...i", np.asarray(R, dtype=float), Hb)


def kinetic_energy(omega_body, J):
    """T = 1/2 omega . J omega (body components)."""
    Jm = inertia_matrix(J)
    w = np.asarray(omega_body, dtype=float)
    return 0.5 * np.einsum("...i,ij,...j->...", w, Jm, w)


def euler_rhs(omega_body, J, torque_body=(0.0, 0.0, 0.0)):
    """omega_dot from J omega_dot = (J omega) x omega + torque_body."""
    Jm = inertia_matrix(J)
    w = np.asarray(omega_body, dtype=float)
    return np.linalg.solve(Jm, np.cross(Jm @ w, w) + np.asarray(torque_body, dtype=float))


@dataclass
class TorqueFreeSolution:
    """Dense solution; every method takes an array of times ``t`` (seconds)."""

    J: np.ndarray
    sol: object
    t_end: float
    attitude: str  # "quaternion" or "matrix"

    def _y(self, t):
        t = np.atleast_1d(np.asarray(t, dtype=float))
        if np.any(t < -1e-12) or np.any(t > self.t_end + 1e-12):
            raise ValueError("requested time outside the integrated interval")
        return self.sol(t).T

    def omega(self, t):
        """(n,3) body angular velocity."""
        return self._y(t)[:, :3]

    def omega_world(self, t):
        return np.einsum("nij,nj->ni", self.rotation(t), self.omega(t))

    def rotation(self, t):
        """(n,3,3) body -> world rotation matrices."""
        y = self._y(t)
        if self.attitude == "quaternion":
            return quat_to_matrix(y[:, 3:7])
        return y[:, 3:12].reshape(-1, 3, 3)

    def quaternion(self, t):
        """(n,4) scalar-first unit quaternions (sign continuous along the trajectory)."""
        y = self._y(t)
        if self.attitude == "quaternion":
            q = y[:, 3:7]
            return q / np.linalg.norm(q, axis=1, keepdims=True)
        return np.array([matrix_to_quat(R) for R in self.rotation(t)])

    def angular_momentum_world(self, t):
        return angular_momentum_world(self.rotation(t), self.omega(t), self.J)

    def energy(self, t):
        return kinetic_energy(self.omega(t), self.J)


def simulate_torque_free(J, omega0, t_end, R0=None, attitude="quaternion", method="DOP853", rtol=1e-12, atol=1e-12):
    """Integrate Euler's equations + attitude kinematics from t = 0 to ``t_end``.

    ``omega0``: initial body angular velocity; ``R0``: initial rotation matrix
    (body -> world, default identity); ``attitude``: ``"quaternion"`` (state
    omega, q) or ``"matrix"`` (state omega, R row-major).
    """
    Jm = inertia_matrix(J)
    R0 = np.eye(3) if R0 is None else np.asarray(R0, dtype=float)
    w0 = np.asarray(omega0, dtype=float)

    if attitude == "quaternion":
        y0 = np.concatenate([w0, matrix_to_quat(R0)])

        def rhs(_t, y):
            w = y[:3]
            q = y[3:7]
            return np.concatenate([euler_rhs(w, Jm), 0.5 * quat_multiply(q, [0.0, *w])])
    elif attitude == "matrix":
        y0 = np.concatenate([w0, R0.ravel()])

        def rhs(_t, y):
            w = y[:3]
            R = y[3:12].reshape(3, 3)
            return np.concatenate([euler_rhs(w, Jm), (R @ skew(w)).ravel()])
    else:
        raise ValueError("attitude must be 'quaternion' or 'matrix'")

    res = solve_ivp(rhs, (0.0, float(t_end)), y0, method=method, rtol=rtol, atol=atol, dense_output=True)
    if not res.success:
        raise RuntimeError(res.message)
    return TorqueFreeSolution(J=Jm, sol=res.sol, t_end=float(t_end), attitude=attitude)


def _principal(J):
    J = np.asarray(J, dtype=float)
    if J.shape != (3,):
        raise ValueError("the elliptic period needs the principal moments (3-vector, body = principal axes)")
    return J


def body_rate_period(J, omega0):
    """Exact period [s] of omega_body(t) for principal moments J (distinct) and omega0.

    ``T = 4 K(k^2) / p`` (see module docstring).  Undefined on the separatrix
    (H^2 = 2 T Ib exactly), where the period is infinite.
    """
    J = _principal(J)
    w = np.asarray(omega0, dtype=float)
    order = np.argsort(J)
    Ia, Ib, Ic = J[order]
    if not (Ia < Ib < Ic):
        raise ValueError("principal moments must be distinct")
    H2 = float(np.sum((J * w) ** 2))
    E2 = float(np.sum(J * w * w))
    if H2 > E2 * Ib:
        p2 = (Ic - Ib) * (H2 - E2 * Ia) / (Ia * Ib * Ic)
        k2 = (Ib - Ia) * (E2 * Ic - H2) / ((Ic - Ib) * (H2 - E2 * Ia))
    elif H2 < E2 * Ib:
        p2 = (Ib - Ia) * (E2 * Ic - H2) / (Ia * Ib * Ic)
        k2 = (Ic - Ib) * (H2 - E2 * Ia) / ((Ib - Ia) * (E2 * Ic - H2))
    else:
        return np.inf
    return 4.0 * ellipk(k2) / np.sqrt(p2)


def dzhanibekov_flip_interval(J, omega0):
    """Time [s] between successive sign reversals of the intermediate-axis body rate.

    Equal to half of :func:`body_rate_period` (omega_b is a pure Jacobi ``sn``).
    """
    return 0.5 * body_rate_period(J, omega0)


def intermediate_axis_spin(J, spin, eps=1e-3):
    """omega0 for a spin ``spin`` [rad/s] about the intermediate principal axis with a
    perturbation ``eps * spin`` on each of the two other axes."""
    J = _principal(J)
    order = np.argsort(J)
    w = np.full(3, eps * spin)
    w[order[1]] = spin
    return w
