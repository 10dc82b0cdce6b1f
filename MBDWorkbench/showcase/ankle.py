"""Kinematics of a 2-DoF parallel humanoid ankle (two crank-rod legs + universal joint).

Pure numpy, no FreeCAD.  Derivation follows the ankle design note [R2] (see
docs/references.md): Grubler count (section 1), closed-form inverse kinematics
(section 2), velocity/force Jacobians (section 3), Newton-Raphson forward
kinematics (section 4).

Conventions (all SI: metres, radians, N*m)
-----------------------------------------
* World frame: origin at the universal (Hooke) joint centre, X forward (toe),
  Y left, Z up.  The shank and both motors are fixed to this frame (ground).
* Universal joint: the first axis is the world Y axis and belongs to the
  shank/ground side (pitch, ``theta_p``); the second axis is the foot's own
  X axis (roll, ``theta_r``), i.e. ``RotY(theta_p) @ e_x`` in world.  Hence
  ``R_foot = RotY(pitch) @ RotX(roll)`` maps foot-frame vectors to world, and
  the foot frame coincides with the world frame at roll = pitch = 0.
* Leg k (k = 1, 2): motor centre ``A_k``, motor axis +Y through ``A_k``; the
  bar (crank) tip is ``B_k = A_k + RotY(theta_k) @ (B_k0 - A_k)``; a rod with
  ball joints at both ends connects ``B_k`` to the foot point
  ``C_k = R_foot @ C_k0``.  Positive motor angle is right-handed about +Y.
* Rate convention: ``[roll_dot, pitch_dot] = J @ [theta1_dot, theta2_dot]``.
* Torque convention: ``tau = [tau_roll, tau_pitch]`` are generalized forces
  conjugate to the Euler-angle rates ``(roll_dot, pitch_dot)`` exerted *by the
  actuation on the foot* (power delivered to the foot = tau . q_dot).  For a
  world-frame moment ``m`` about the joint centre, ``tau = (cos p m_x - sin p
  m_z, m_y)``, see :func:`euler_torque_from_moment`.  Motor torques ``F``
  (about +Y, exerted by each motor on its bar) then satisfy
  ``F . theta_dot = tau . q_dot`` and ``F = J.T @ tau``
  (quasi-static, massless links, no friction).  To hold an external load
  with generalized force ``tau_ext`` the motors need ``F = -J.T @ tau_ext``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "AnkleGeometry",
    "grubler_mobility",
    "ankle_mobility",
    "rot_x",
    "rot_y",
    "foot_rotation",
    "ik_coefficients",
    "sin_quadratic_roots",
    "inverse_kinematics",
    "leg_points",
    "jacobian_parts",
    "jacobian",
    "force_jacobian",
    "foot_torque_from_motor_torque",
    "euler_torque_from_moment",
    "forward_kinematics",
    "actuator_map_table",
    "ActuatorMapFit",
    "fit_actuator_map",
]

E_Y = np.array([0.0, 1.0, 0.0])


# --------------------------------------------------------------------------
# Mobility
# --------------------------------------------------------------------------
def grubler_mobility(n_links: int, n_joints: int, sum_freedoms: int) -> int:
    """Spatial Grubler-Kutzbach count ``M = 6 (n - g - 1) + sum f_i``.

    ``n_links`` counts all bodies including ground, ``n_joints`` all joints,
    ``sum_freedoms`` the joint freedoms minus local (idle) freedoms.
    """
    return 6 * (int(n_links) - int(n_joints) - 1) + int(sum_freedoms)


def ankle_mobility() -> int:
    """Mobility of this ankle from its joint inventory (the count of [R2] section 1).

    Bodies: shank(ground), foot, 2 bars, 2 rods -> n = 6 (Hooke cross not a body).
    Joints: 1 universal (2), 2 motor revolutes (1 each), 4 spherical (3 each)
    -> g = 7, sum f = 16; each S-S rod has one idle spin -> sum f = 14 -> M = 2.
    """
    joints = [2] + [1, 1] + [3, 3, 3, 3]
    idle = 2
    return grubler_mobility(6, len(joints), sum(joints) - idle)


# --------------------------------------------------------------------------
# Geometry
# --------------------------------------------------------------------------
def _vec(*xs: float) -> np.ndarray:
    return field(default_factory=lambda: np.array(xs, dtype=float))


@dataclass
class AnkleGeometry:
    """Ankle geometry in metres, world frame at the Hooke joint centre.

    Defaults: motors on the back of the shank 0.25 m above the ankle at
    y = +/-0.035 m, bars 0.05 m pointing backwards (-x), foot points 0.05 m
    behind and 0.01 m below the joint centre, rods 0.26 m, left/right
    symmetric.  Leg 1 is at +y, leg 2 at -y.

    ``C1_0``/``C2_0`` are given in the foot frame (= world at roll = pitch = 0).
    ``L_rod`` (2,) defaults to ``|C_k0 - B_k0|`` so that zero motor angles
    <=> zero foot angles; ``L_bar`` (2,) is always ``|B_k0 - A_k|``.
    The motor axis is +Y (fixed; the closed-form IK relies on it).
    """

    A1: np.ndarray = _vec(0.000, +0.035, 0.250)
    A2: np.ndarray = _vec(0.000, -0.035, 0.250)
    B1_0: np.ndarray = _vec(-0.050, +0.035, 0.250)
    B2_0: np.ndarray = _vec(-0.050, -0.035, 0.250)
    C1_0: np.ndarray = _vec(-0.050, +0.035, -0.010)
    C2_0: np.ndarray = _vec(-0.050, -0.035, -0.010)
    L_rod: np.ndarray | None = None

    def __post_init__(self) -> None:
        for name in ("A1", "A2", "B1_0", "B2_0", "C1_0", "C2_0"):
            v = np.asarray(getattr(self, name), dtype=float).reshape(3)
            setattr(self, name, v)
        if self.L_rod is None:
            self.L_rod = np.linalg.norm(self.C0 - self.B0, axis=1)
        else:
            self.L_rod = np.broadcast_to(np.asarray(self.L_rod, float), (2,)).copy()
        if np.any(self.L_bar <= 0) or np.any(self.L_rod <= 0):
            raise ValueError("bar and rod lengths must be positive")

    # stacked views, row k-1 = leg k
    @property
    def A(self) -> np.ndarray:
        """Motor centres, (2, 3) m."""
        return np.vstack([self.A1, self.A2])

    @property
    def B0(self) -> np.ndarray:
        """Bar tips at zero motor angle, (2, 3) m."""
        return np.vstack([self.B1_0, self.B2_0])

    @property
    def C0(self) -> np.ndarray:
        """Foot attachment points in the foot frame, (2, 3) m."""
        return np.vstack([self.C1_0, self.C2_0])

    @property
    def L_bar(self) -> np.ndarray:
        """Bar (crank) lengths ``|B_k0 - A_k|``, (2,) m."""
        return np.linalg.norm(self.B0 - self.A, axis=1)

    @property
    def motor_axis(self) -> np.ndarray:
        """Unit motor axis (world +Y) shared by both motors."""
        return E_Y.copy()

    def home_assembly_sign(self) -> np.ndarray:
        """Sign of ``J_theta_k`` at the zero pose (theta = 0, roll = pitch = 0), (2,).

        Identifies the assembly mode of the home pose; ``branch=+1`` in
        :func:`inverse_kinematics` keeps this mode.  Raises if home is singular.
        """
        A, B, C = self.A, self.B0, self.C0
        jt = np.einsum("j,kj->k", E_Y, np.cross(B - A, C - B))
        scale = self.L_bar * np.linalg.norm(C - B, axis=1)
        if np.any(np.abs(jt) <= 1e-9 * scale):
            raise ValueError("home pose is a motor-side singularity (J_theta = 0)")
        return np.sign(jt)


# --------------------------------------------------------------------------
# Rotations
# --------------------------------------------------------------------------
def rot_x(a: float) -> np.ndarray:
    """Right-handed rotation matrix about X by ``a`` rad."""
    c, s = np.cos(a), np.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_y(a: float) -> np.ndarray:
    """Right-handed rotation matrix about Y by ``a`` rad."""
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def foot_rotation(roll: float, pitch: float) -> np.ndarray:
    """Foot orientation ``R = RotY(pitch) @ RotX(roll)`` (foot -> world), rad in."""
    return rot_y(pitch) @ rot_x(roll)


# --------------------------------------------------------------------------
# Inverse kinematics (closed form)
# --------------------------------------------------------------------------
def ik_coefficients(geom: AnkleGeometry, roll: float, pitch: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Coefficients of the IK equation ([R2] section 2) ``K sin(th) + N cos(th) = M/2`` per leg.

    With ``CA = A - C`` (world), ``AB0 = B0 - A``:
    ``K = CA_x AB0_z - CA_z AB0_x``, ``N = CA_x AB0_x + CA_z AB0_z``,
    ``M = L_rod^2 - L_bar^2 - |CA|^2 - 2 CA_y AB0_y`` (the last term vanishes
    when the bar is normal to the motor axis, as in [R2]).
    Returns arrays ``(K, N, M)`` of shape (2,), units m^2.
    """
    C = geom.C0 @ foot_rotation(roll, pitch).T
    CA = geom.A - C
    AB0 = geom.B0 - geom.A
    K = CA[:, 0] * AB0[:, 2] - CA[:, 2] * AB0[:, 0]
    N = CA[:, 0] * AB0[:, 0] + CA[:, 2] * AB0[:, 2]
    M = geom.L_rod**2 - geom.L_bar**2 - np.sum(CA * CA, axis=1) - 2.0 * CA[:, 1] * AB0[:, 1]
    return K, N, M


def sin_quadratic_roots(K: float, N: float, M: float) -> np.ndarray:
    """Roots (sin(theta)) of [R2]'s ``4(N^2+K^2) s^2 - 4 M K s + (M^2 - 4N^2) = 0``.

    Returned as ``[+root, -root]`` ([R2] takes '+' for its geometry).
    Reference only: where ``N = 0`` the two assembly modes share the same
    sin(theta), so :func:`inverse_kinematics` uses the equivalent phase form.
    """
    a = 4.0 * (N * N + K * K)
    b = -4.0 * M * K
    c = M * M - 4.0 * N * N
    disc = b * b - 4.0 * a * c
    if disc < 0:
        raise ValueError("no real root")
    r = np.sqrt(disc)
    return np.array([(-b + r) / (2 * a), (-b - r) / (2 * a)])


def _wrap(a: float | np.ndarray) -> np.ndarray:
    return (np.asarray(a) + np.pi) % (2.0 * np.pi) - np.pi


def inverse_kinematics(geom: AnkleGeometry, roll: float, pitch: float, branch: int = +1) -> tuple[float, float]:
    """Motor angles ``(theta1, theta2)`` [rad] for foot ``roll, pitch`` [rad].

    Solves ``K sin(th) + N cos(th) = M/2`` (:func:`ik_coefficients`) as
    ``th = atan2(K, N) + s * acos(M / (2 sqrt(K^2+N^2)))``, wrapped to
    (-pi, pi].  ``s = +1`` is the mode with ``J_theta > 0``.  ``branch=+1``
    keeps the assembly mode of the home pose (``s = home_assembly_sign``);
    ``branch=-1`` gives the other mode.  Raises ``ValueError`` naming the leg
    when the rod sphere does not meet the bar circle (pose unreachable).
    """
    if branch not in (1, -1):
        raise ValueError("branch must be +1 or -1")
    K, N, M = ik_coefficients(geom, roll, pitch)
    sgn = branch * geom.home_assembly_sign()
    out = []
    for k in range(2):
        rho = np.hypot(K[k], N[k])
        scale = geom.L_bar[k] * (geom.L_rod[k] + geom.L_bar[k])
        if rho <= 1e-15 * scale:
            raise ValueError(
                f"leg {k + 1}: no IK solution at roll={roll:.6g}, pitch={pitch:.6g} rad (foot point on motor axis)"
            )
        ratio = 0.5 * M[k] / rho
        if abs(ratio) > 1.0:
            if abs(ratio) - 1.0 > 1e-12:
                raise ValueError(
                    f"leg {k + 1}: no real IK solution at roll={roll:.6g}, "
                    f"pitch={pitch:.6g} rad (|M/2|/sqrt(K^2+N^2) = {abs(ratio):.6g} > 1; "
                    f"rod cannot reach the bar circle)"
                )
            ratio = np.clip(ratio, -1.0, 1.0)
        th = np.arctan2(K[k], N[k]) + sgn[k] * np.arccos(ratio)
        out.append(float(_wrap(th)))
    return out[0], out[1]


def leg_points(geom: AnkleGeometry, theta: Sequence[float], roll: float, pitch: float) -> dict[str, np.ndarray]:
    """World points ``A, B, C`` (each (2, 3), m; row k-1 = leg k) for a pose."""
    th = np.asarray(theta, float).reshape(2)
    AB0 = geom.B0 - geom.A
    B = geom.A + np.vstack([rot_y(th[k]) @ AB0[k] for k in range(2)])
    C = geom.C0 @ foot_rotation(roll, pitch).T
    return {"A": geom.A, "B": B, "C": C}


# --------------------------------------------------------------------------
# Jacobians
# --------------------------------------------------------------------------
def jacobian_parts(
    geom: AnkleGeometry, theta: Sequence[float] | None, roll: float, pitch: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Jacobian factors ([R2] section 3) ``(Jx, Jq, J_theta)`` at a pose.

    * ``Jq`` (6x2): ``[v; w] = Jq @ [roll_dot, pitch_dot]`` with foot-origin
      velocity ``v = 0`` and world angular velocity
      ``w = e_y pitch_dot + RotY(pitch) e_x roll_dot``.
    * ``Jx`` (2x6): row k ``[BC_k^T, (C_k x BC_k)^T]``, ``BC = C - B`` (world,
      un-normalised, m): speed of C along the rod times |BC|.
    * ``J_theta`` (2x2): ``diag(e_y . (AB_k x BC_k))`` [m^2]: the same quantity
      produced by the motor rates.
    ``theta=None`` computes the motor angles by IK (branch +1).
    """
    if theta is None:
        theta = inverse_kinematics(geom, roll, pitch)
    P = leg_points(geom, theta, roll, pitch)
    A, B, C = P["A"], P["B"], P["C"]
    BC = C - B
    AB = B - A
    cp, sp = np.cos(pitch), np.sin(pitch)
    Jq = np.zeros((6, 2))
    Jq[3:, 0] = [cp, 0.0, -sp]
    Jq[3:, 1] = [0.0, 1.0, 0.0]
    Jx = np.hstack([BC, np.cross(C, BC)])
    Jt = np.diag(np.cross(AB, BC) @ E_Y)
    return Jx, Jq, Jt


def jacobian(geom: AnkleGeometry, theta: Sequence[float] | None, roll: float, pitch: float) -> np.ndarray:
    """``J = (Jx Jq)^-1 J_theta`` (2x2, rad/rad): ``[roll_dot, pitch_dot] = J @ theta_dot``.

    ``theta`` must be the motor angles of the pose (``None``: IK, branch +1).
    Raises ``numpy.linalg.LinAlgError`` at a foot-side singularity.
    """
    Jx, Jq, Jt = jacobian_parts(geom, theta, roll, pitch)
    return np.linalg.solve(Jx @ Jq, Jt)


def force_jacobian(geom: AnkleGeometry, theta: Sequence[float] | None, roll: float, pitch: float) -> np.ndarray:
    """``J^T`` (2x2, m-less): motor torques ``F = J^T @ [tau_roll, tau_pitch]``.

    ``F_k`` [N m] is the torque motor k applies to its bar about +Y;
    ``tau`` [N m] is the generalized force on the foot conjugate to
    ``(roll_dot, pitch_dot)`` (see module docstring); from virtual work
    ``F^T theta_dot = tau^T q_dot``.  [R2]'s ``J_tau = (J^-1)^T`` (section 3.4) maps back.
    """
    return jacobian(geom, theta, roll, pitch).T


def foot_torque_from_motor_torque(
    geom: AnkleGeometry, theta: Sequence[float] | None, roll: float, pitch: float, F: Sequence[float]
) -> np.ndarray:
    """``tau = (J^-1)^T F`` [N m]: Euler-rate-conjugate foot torques from motor torques."""
    return np.linalg.solve(force_jacobian(geom, theta, roll, pitch), np.asarray(F, float))


def euler_torque_from_moment(roll: float, pitch: float, moment_world: Sequence[float]) -> np.ndarray:
    """Generalized torques ``[tau_roll, tau_pitch]`` of a world moment [N m] on the foot.

    ``tau = Jq_w^T m = [cos(p) m_x - sin(p) m_z, m_y]``; the component of
    ``m`` along ``e_y x (RotY(p) e_x)`` is carried by the universal joint.
    """
    m = np.asarray(moment_world, float).reshape(3)
    cp, sp = np.cos(pitch), np.sin(pitch)
    return np.array([cp * m[0] - sp * m[2], m[1]])


# --------------------------------------------------------------------------
# Forward kinematics (Newton-Raphson, [R2] section 4)
# --------------------------------------------------------------------------
def forward_kinematics(
    geom: AnkleGeometry,
    theta1: float,
    theta2: float,
    guess: Sequence[float] = (0.0, 0.0),
    tol: float = 1e-12,
    max_iter: int = 50,
    branch: int = +1,
) -> tuple[float, float]:
    """Foot ``(roll, pitch)`` [rad] from motor angles [rad] by Newton-Raphson.

    Iterates ``Omega <- Omega + J(Omega) (Theta - IK(Omega))`` from ``guess``
    until ``|Theta - IK(Omega)| < tol`` (rad).  ([R2] writes
    ``dTheta = Theta_k - Theta`` with a '+' update, which would step the wrong
    way.)  Steps are halved if the trial pose is unreachable or the residual
    grows.  Raises ``RuntimeError`` when not converged in ``max_iter``.
    """
    target = np.array([theta1, theta2], float)
    omega = np.array(guess, float).reshape(2)

    def resid(om: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        th = np.array(inverse_kinematics(geom, om[0], om[1], branch))
        return _wrap(target - th), th

    try:
        r, th = resid(omega)
    except ValueError as exc:
        raise RuntimeError(f"forward kinematics: initial guess unreachable ({exc})") from exc
    rn = np.linalg.norm(r)
    for _ in range(max_iter):
        if rn < tol:
            return float(omega[0]), float(omega[1])
        step = jacobian(geom, th, omega[0], omega[1]) @ r
        lam = 1.0
        for _ in range(40):
            trial = omega + lam * step
            try:
                r_t, th_t = resid(trial)
            except ValueError:
                lam *= 0.5
                continue
            if np.linalg.norm(r_t) < rn or lam < 1e-6:
                break
            lam *= 0.5
        else:
            raise RuntimeError("forward kinematics: line search failed (motor angles unreachable?)")
        omega, r, th, rn = trial, r_t, th_t, np.linalg.norm(r_t)
    if rn < tol:
        return float(omega[0]), float(omega[1])
    raise RuntimeError(f"forward kinematics did not converge: |dTheta| = {rn:.3g} rad after {max_iter} iterations")


# --------------------------------------------------------------------------
# Actuator map (controller export)
# --------------------------------------------------------------------------
def actuator_map_table(
    geom: AnkleGeometry, roll_grid: Sequence[float], pitch_grid: Sequence[float], branch: int = +1
) -> dict[str, np.ndarray]:
    """Tabulate IK and Jacobians on a (roll, pitch) grid (``indexing='ij'``).

    Returns a dict of arrays: ``roll`` (nr,), ``pitch`` (np,) [rad];
    ``theta1``, ``theta2`` (nr, np) [rad]; ``J``, ``J_inv`` (nr, np, 2, 2)
    (``q_dot = J theta_dot``; ``J^T`` is the force map); ``cond`` (nr, np)
    2-norm condition number of J; ``valid`` (nr, np) bool.  Unreachable or
    singular points are NaN with ``valid=False``.
    """
    r = np.asarray(roll_grid, float).ravel()
    p = np.asarray(pitch_grid, float).ravel()
    nr, npch = r.size, p.size
    th1 = np.full((nr, npch), np.nan)
    th2 = np.full((nr, npch), np.nan)
    J = np.full((nr, npch, 2, 2), np.nan)
    Ji = np.full((nr, npch, 2, 2), np.nan)
    cond = np.full((nr, npch), np.nan)
    valid = np.zeros((nr, npch), bool)
    for i, ri in enumerate(r):
        for j, pj in enumerate(p):
            try:
                t = inverse_kinematics(geom, ri, pj, branch)
                Jij = jacobian(geom, t, ri, pj)
                Jiij = np.linalg.inv(Jij)
            except (ValueError, np.linalg.LinAlgError):
                continue
            th1[i, j], th2[i, j] = t
            J[i, j], Ji[i, j] = Jij, Jiij
            cond[i, j] = np.linalg.cond(Jij)
            valid[i, j] = True
    return {"roll": r, "pitch": p, "theta1": th1, "theta2": th2, "J": J, "J_inv": Ji, "cond": cond, "valid": valid}


@dataclass
class ActuatorMapFit:
    """Polynomial ``theta_k(roll, pitch) = sum c_ij roll^i pitch^j`` (i + j <= degree).

    ``coeffs`` (n_terms, 2) rad, column k-1 = motor k; ``exponents`` list of
    (i, j); ``max_error``/``rms_error`` (2,) rad on the fit grid;
    ``max_error_check`` (2,) rad at the grid cell centres (interpolation).
    """

    degree: int
    exponents: list[tuple[int, int]]
    coeffs: np.ndarray
    max_error: np.ndarray
    rms_error: np.ndarray
    max_error_check: np.ndarray

    def basis(self, roll: float | np.ndarray, pitch: float | np.ndarray) -> np.ndarray:
        """Monomials ``roll^i pitch^j`` of the fit, shape ``broadcast(roll, pitch).shape + (n_terms,)``."""
        r = np.asarray(roll, float)[..., None]
        p = np.asarray(pitch, float)[..., None]
        i = np.array([e[0] for e in self.exponents])
        j = np.array([e[1] for e in self.exponents])
        return r**i * p**j

    def __call__(self, roll: float | np.ndarray, pitch: float | np.ndarray) -> np.ndarray:
        """Motor angles [rad], shape ``broadcast(roll, pitch).shape + (2,)``."""
        return self.basis(roll, pitch) @ self.coeffs


def fit_actuator_map(
    geom: AnkleGeometry, roll_grid: Sequence[float], pitch_grid: Sequence[float], degree: int = 3, branch: int = +1
) -> ActuatorMapFit:
    """Least-squares 2-D polynomial fit of motor angles vs (roll, pitch).

    Uses the valid points of :func:`actuator_map_table`; reports max/RMS error
    on that grid and max error at the cell centres (all rad).
    """
    tab = actuator_map_table(geom, roll_grid, pitch_grid, branch)
    exps = [(i, d - i) for d in range(degree + 1) for i in range(d, -1, -1)]
    R, P = np.meshgrid(tab["roll"], tab["pitch"], indexing="ij")
    m = tab["valid"]
    Y = np.stack([tab["theta1"][m], tab["theta2"][m]], axis=1)
    if Y.shape[0] < len(exps):
        raise ValueError(f"need >= {len(exps)} valid grid points for degree {degree}")
    fit = ActuatorMapFit(degree, exps, np.zeros((len(exps), 2)), np.zeros(2), np.zeros(2), np.zeros(2))
    Phi = fit.basis(R[m], P[m])
    fit.coeffs = np.linalg.lstsq(Phi, Y, rcond=None)[0]
    err = Phi @ fit.coeffs - Y
    fit.max_error = np.max(np.abs(err), axis=0)
    fit.rms_error = np.sqrt(np.mean(err**2, axis=0))
    rc = 0.5 * (tab["roll"][1:] + tab["roll"][:-1])
    pc = 0.5 * (tab["pitch"][1:] + tab["pitch"][:-1])
    chk = []
    for ri in rc:
        for pj in pc:
            try:
                t = np.array(inverse_kinematics(geom, ri, pj, branch))
            except ValueError:
                continue
            chk.append(np.abs(fit(ri, pj) - t))
    fit.max_error_check = np.max(chk, axis=0) if chk else np.full(2, np.nan)
    return fit
