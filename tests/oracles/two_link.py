r"""Planar double pendulum oracle ([R3] sections 4 and 5, see docs/references.md).

Set-up of [R3] (the reference case of ``two_link_model`` and ``two_link_solution``)
---------------------------------------------------------------------------
A massive fixed base and two uniform links, ``m = 1 kg``, ``L = 1 m``,
``Jc = m L^2 / 12``, revolute joints at the base and between the links,
released at rest from ``q1 = 0.3``, ``q2 = -1.0`` rad, gravity 9.81 along -y.
In the solver these are 3 bodies, 7 constraints (3 fixing the base, 2 per
revolute joint).

Reading of [R3]'s angles (documented assumption)
------------------------------------------------
[R3] (a redundant-coordinate paper) gives body coordinates
``q_i = (x_i, y_i, theta_i)`` with ``theta_i`` the *absolute* rotation of body
``i`` in the world frame, and states only "released from q1 = 0.3 and
q2 = -1.0 rad".  It does NOT say where the link axis lies in the body frame,
i.e. whether the angles are measured from the horizontal or from the vertical.
We read q1, q2 as *absolute* link angles (not relative joint angles) and make
the reference direction a parameter ``convention``:

* ``"horizontal"`` (default): the link axis (proximal joint -> distal joint)
  is the body x-axis, so the link direction is ``e(phi) = (cos phi, sin phi)``;
  phi = 0 is a horizontal link pointing to +x, phi = -pi/2 hangs straight down.
  This equals the body rotation angle theta_i of a link modelled along its local
  x-axis, the most literal reading of [R3]'s body coordinates.
* ``"vertical"``: angle from the downward vertical, ``e(phi) = (sin phi, -cos phi)``;
  phi = 0 hangs straight down.  (phi_vertical = phi_horizontal + pi/2.)

Both are CCW-positive.  Use ``relative=True`` in :func:`two_link_solution` /
``simulate`` if the initial q2 is to be read as the joint angle phi2 - phi1.

Geometry
--------
Base pivot ``P0 = base`` (default origin).  Link i has length ``L_i``, mass
``m_i``, CoM at distance ``c_i`` from its *proximal* joint along the link axis
(uniform link: c_i = L_i / 2) and inertia ``J_i`` about its CoM.  With
``e_i = e(phi_i)`` and ``n_i = d e_i / d phi_i`` (e_i rotated +90 deg)::

    G1 = P0 + c1 e1                 (CoM link 1)
    P1 = P0 + L1 e1                 (middle joint)
    G2 = P1 + c2 e2                 (CoM link 2)
    P2 = P1 + L2 e2                 (end effector = tip of link 2)

Lagrange equations in the absolute angles (phi1, phi2)
------------------------------------------------------
Velocities ``vG1 = c1 phi1' n1``, ``vG2 = L1 phi1' n1 + c2 phi2' n2`` and
``n1 . n2 = cos(phi1 - phi2)`` give

    T = 1/2 M11 phi1'^2 + M12 phi1' phi2' + 1/2 M22 phi2'^2
    M11 = J1 + m1 c1^2 + m2 L1^2
    M22 = J2 + m2 c2^2
    M12 = M21 = m2 L1 c2 cos(phi1 - phi2)

    V = -(m1 g_vec . G1 + m2 g_vec . G2),     g_vec = (0, -g)

and the equations of motion ``M(phi) phi'' + h(phi, phi') = Q_g(phi)`` with

    h1 = + m2 L1 c2 sin(phi1 - phi2) phi2'^2
    h2 = - m2 L1 c2 sin(phi1 - phi2) phi1'^2
    Q_g1 = (m1 c1 + m2 L1) g_vec . n1
    Q_g2 = m2 c2 g_vec . n2

Explicitly, "horizontal" convention (n = (-sin, cos), g_vec . n = -g cos phi):

    Q_g1 = -(m1 c1 + m2 L1) g cos(phi1),   Q_g2 = -m2 c2 g cos(phi2)
    V    =  g [ (m1 c1 + m2 L1) sin(phi1) + m2 c2 sin(phi2) ]   (base at y = 0)

"vertical" convention (n = (cos, sin), g_vec . n = -g sin phi):

    Q_g1 = -(m1 c1 + m2 L1) g sin(phi1),   Q_g2 = -m2 c2 g sin(phi2)
    V    = -g [ (m1 c1 + m2 L1) cos(phi1) + m2 c2 cos(phi2) ]

(The Coriolis/centrifugal terms h depend only on phi1 - phi2 and are identical
in both conventions.)

Joint reactions (Newton-Euler on each link, given the accelerations)
------------------------------------------------------------------
CoM accelerations: ``aG1 = c1 (phi1'' n1 - phi1'^2 e1)``,
``aG2 = L1 (phi1'' n1 - phi1'^2 e1) + c2 (phi2'' n2 - phi2'^2 e2)``.

    F_mid  = m2 (aG2 - g_vec)      force of link 1 ON link 2 at the middle joint
    F_base = m1 (aG1 - g_vec) + F_mid
                                   force of the base ON link 1 at the base pivot

(link 2 acts on link 1 with -F_mid; link 1 acts on the base with -F_base).  The
rotational Newton-Euler equations ``J_i phi_i'' = sum (r - G_i) x F`` are not
needed for the forces; they are satisfied identically and are used in the
tests as an independent check of the Lagrange equations.

Energy ``E = T + V`` with V measured from the base pivot height (V uses the
absolute positions, so a shifted ``base`` shifts E by a constant).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike
from scipy.integrate import solve_ivp

__all__ = [
    "DoublePendulum",
    "DoublePendulumSolution",
    "two_link_model",
    "two_link_solution",
    "TWO_LINK_Q0",
    "TWO_LINK_QD0",
]

TWO_LINK_Q0 = (0.3, -1.0)  # absolute link angles at release [rad]
TWO_LINK_QD0 = (0.0, 0.0)  # released at rest

_E0 = {"horizontal": np.array([1.0, 0.0]), "vertical": np.array([0.0, -1.0])}


def _cross2(a, b):
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


@dataclass
class DoublePendulum:
    """Planar double pendulum in absolute link angles (see module docstring).

    ``J1``/``J2`` default to the uniform-bar value ``m L^2 / 12`` and ``c1``/``c2``
    to ``L / 2``.  ``g`` is the magnitude of gravity along -y.
    """

    m1: float = 1.0
    m2: float = 1.0
    L1: float = 1.0
    L2: float = 1.0
    J1: float | None = None
    J2: float | None = None
    c1: float | None = None
    c2: float | None = None
    g: float = 9.81
    convention: str = "horizontal"
    base: tuple = (0.0, 0.0)

    def __post_init__(self) -> None:
        if self.convention not in _E0:
            raise ValueError(f"convention must be one of {sorted(_E0)}")
        if self.J1 is None:
            self.J1 = self.m1 * self.L1**2 / 12.0
        if self.J2 is None:
            self.J2 = self.m2 * self.L2**2 / 12.0
        if self.c1 is None:
            self.c1 = self.L1 / 2.0
        if self.c2 is None:
            self.c2 = self.L2 / 2.0
        self.g_vec = np.array([0.0, -self.g])
        self._e0 = _E0[self.convention]
        self._base = np.asarray(self.base, dtype=float)

    # --- geometry -------------------------------------------------------
    def e(self, phi: ArrayLike) -> np.ndarray:
        """Unit vector along the link (proximal -> distal), shape (..., 2)."""
        phi = np.asarray(phi, dtype=float)
        c, s = np.cos(phi), np.sin(phi)
        ex, ey = self._e0
        return np.stack([c * ex - s * ey, s * ex + c * ey], axis=-1)

    def n(self, phi: ArrayLike) -> np.ndarray:
        """d e / d phi = e rotated by +90 deg, shape (..., 2)."""
        ev = self.e(phi)
        return np.stack([-ev[..., 1], ev[..., 0]], axis=-1)

    def points(self, phi1: ArrayLike, phi2: ArrayLike) -> dict[str, np.ndarray]:
        """dict of positions (each (..., 2)): G1, G2 (CoMs), P0 (base), P1 (middle joint), P2 (tip)."""
        e1, e2 = self.e(phi1), self.e(phi2)
        P0 = np.broadcast_to(self._base, e1.shape).copy()
        P1 = P0 + self.L1 * e1
        return dict(P0=P0, G1=P0 + self.c1 * e1, P1=P1, G2=P1 + self.c2 * e2, P2=P1 + self.L2 * e2)

    # --- dynamics -------------------------------------------------------
    def mass_matrix(self, phi1: ArrayLike, phi2: ArrayLike) -> np.ndarray:
        m12 = self.m2 * self.L1 * self.c2 * np.cos(phi1 - phi2)
        M11 = self.J1 + self.m1 * self.c1**2 + self.m2 * self.L1**2
        M22 = self.J2 + self.m2 * self.c2**2
        return np.array([[M11, m12], [m12, M22]])

    def velocity_terms(self, phi1: ArrayLike, phi2: ArrayLike, w1: ArrayLike, w2: ArrayLike) -> np.ndarray:
        """Coriolis/centrifugal vector h (on the left-hand side)."""
        k = self.m2 * self.L1 * self.c2 * np.sin(phi1 - phi2)
        return np.array([k * w2 * w2, -k * w1 * w1])

    def gravity_forces(self, phi1: ArrayLike, phi2: ArrayLike) -> np.ndarray:
        """Generalised gravity forces Q_g (on the right-hand side)."""
        gn1 = self.n(phi1) @ self.g_vec
        gn2 = self.n(phi2) @ self.g_vec
        return np.array([(self.m1 * self.c1 + self.m2 * self.L1) * gn1, self.m2 * self.c2 * gn2])

    def accelerations(self, phi1: float, phi2: float, w1: float, w2: float) -> np.ndarray:
        """(phi1'', phi2'') from M phi'' = Q_g - h (scalar inputs)."""
        M = self.mass_matrix(phi1, phi2)
        rhs = self.gravity_forces(phi1, phi2) - self.velocity_terms(phi1, phi2, w1, w2)
        return np.linalg.solve(M, rhs)

    def rhs(self, _t: float, y: np.ndarray) -> np.ndarray:
        a = self.accelerations(y[0], y[1], y[2], y[3])
        return np.array([y[2], y[3], a[0], a[1]])

    def kinetic_energy(self, phi1: ArrayLike, phi2: ArrayLike, w1: ArrayLike, w2: ArrayLike) -> np.ndarray:
        M11 = self.J1 + self.m1 * self.c1**2 + self.m2 * self.L1**2
        M22 = self.J2 + self.m2 * self.c2**2
        M12 = self.m2 * self.L1 * self.c2 * np.cos(phi1 - phi2)
        return 0.5 * M11 * w1**2 + M12 * w1 * w2 + 0.5 * M22 * w2**2

    def potential_energy(self, phi1: ArrayLike, phi2: ArrayLike) -> np.ndarray:
        p = self.points(phi1, phi2)
        return -(self.m1 * (p["G1"] @ self.g_vec) + self.m2 * (p["G2"] @ self.g_vec))

    def energy(self, phi1: ArrayLike, phi2: ArrayLike, w1: ArrayLike, w2: ArrayLike) -> np.ndarray:
        return self.kinetic_energy(phi1, phi2, w1, w2) + self.potential_energy(phi1, phi2)

    def com_accelerations(
        self, phi1: ArrayLike, phi2: ArrayLike, w1: ArrayLike, w2: ArrayLike, a1: ArrayLike, a2: ArrayLike
    ) -> tuple[np.ndarray, np.ndarray]:
        """(aG1, aG2), each (..., 2)."""
        w1 = np.asarray(w1)[..., None]
        w2 = np.asarray(w2)[..., None]
        a1 = np.asarray(a1)[..., None]
        a2 = np.asarray(a2)[..., None]
        e1, e2, n1, n2 = self.e(phi1), self.e(phi2), self.n(phi1), self.n(phi2)
        u1 = a1 * n1 - w1 * w1 * e1
        u2 = a2 * n2 - w2 * w2 * e2
        return self.c1 * u1, self.L1 * u1 + self.c2 * u2

    def reactions(
        self, phi1: ArrayLike, phi2: ArrayLike, w1: ArrayLike, w2: ArrayLike, a1: ArrayLike, a2: ArrayLike
    ) -> tuple[np.ndarray, np.ndarray]:
        """Joint forces from Newton-Euler, each (..., 2), world frame.

        Returns ``(F_base, F_mid)``: F_base = force of the base ON link 1 at the
        base pivot, F_mid = force of link 1 ON link 2 at the middle joint.
        """
        aG1, aG2 = self.com_accelerations(phi1, phi2, w1, w2, a1, a2)
        F_mid = self.m2 * (aG2 - self.g_vec)
        F_base = self.m1 * (aG1 - self.g_vec) + F_mid
        return F_base, F_mid

    # --- integration ----------------------------------------------------
    def simulate(
        self,
        q0: ArrayLike,
        qd0: ArrayLike = (0.0, 0.0),
        t_end: float = 4.0,
        method: str = "DOP853",
        rtol: float = 1e-12,
        atol: float = 1e-12,
        relative: bool = False,
        max_step: float = np.inf,
    ) -> DoublePendulumSolution:
        """Integrate from absolute angles ``q0`` (rad) and rates ``qd0`` (rad/s) at t = 0.

        ``relative=True`` reads q0[1], qd0[1] as the joint angle/rate phi2 - phi1.
        Returns a :class:`DoublePendulumSolution` with dense output on [0, t_end].
        """
        q0 = np.asarray(q0, dtype=float).copy()
        qd0 = np.asarray(qd0, dtype=float).copy()
        if relative:
            q0[1] += q0[0]
            qd0[1] += qd0[0]
        y0 = np.concatenate([q0, qd0])
        kw = dict(rtol=rtol, atol=atol, dense_output=True, max_step=max_step)
        if method in ("Radau", "BDF", "LSODA"):
            kw["jac"] = self._jac_fd
        res = solve_ivp(self.rhs, (0.0, float(t_end)), y0, method=method, **kw)
        if not res.success:
            raise RuntimeError(res.message)
        return DoublePendulumSolution(model=self, sol=res.sol, t_end=float(t_end), nfev=res.nfev, y0=y0)

    def _jac_fd(self, t, y):
        # central differences are ample for the Newton iteration of an implicit method
        J = np.empty((4, 4))
        for j in range(4):
            h = 1e-7 * max(1.0, abs(y[j]))
            yp, ym = y.copy(), y.copy()
            yp[j] += h
            ym[j] -= h
            J[:, j] = (self.rhs(t, yp) - self.rhs(t, ym)) / (2 * h)
        return J


@dataclass
class DoublePendulumSolution:
    """Dense high-accuracy solution; every method takes an array of times ``t``."""

    model: DoublePendulum
    sol: object
    t_end: float
    nfev: int = 0
    y0: np.ndarray = field(default=None)

    def state(self, t: ArrayLike) -> np.ndarray:
        """array (len(t), 4): phi1, phi2, phi1', phi2'."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        if np.any(t < -1e-12) or np.any(t > self.t_end + 1e-12):
            raise ValueError("requested time outside the integrated interval")
        return self.sol(t).T

    def angles(self, t: ArrayLike) -> np.ndarray:
        """(len(t), 2) absolute link angles [rad] in the model's convention."""
        return self.state(t)[:, :2]

    def rates(self, t: ArrayLike) -> np.ndarray:
        """(len(t), 2) absolute angular rates [rad/s] (= body angular velocities)."""
        return self.state(t)[:, 2:]

    def angular_accelerations(self, t: ArrayLike) -> np.ndarray:
        y = self.state(t)
        return np.array([self.model.accelerations(*row) for row in y])

    def points(self, t: ArrayLike) -> dict[str, np.ndarray]:
        y = self.state(t)
        return self.model.points(y[:, 0], y[:, 1])

    def com_positions(self, t: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """(G1, G2), each (len(t), 2)."""
        p = self.points(t)
        return p["G1"], p["G2"]

    def joint_positions(self, t: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """(P0 base pivot, P1 middle joint), each (len(t), 2)."""
        p = self.points(t)
        return p["P0"], p["P1"]

    def end_effector(self, t: ArrayLike) -> np.ndarray:
        """(len(t), 2) tip of link 2."""
        return self.points(t)["P2"]

    def energy(self, t: ArrayLike) -> np.ndarray:
        y = self.state(t)
        return self.model.energy(y[:, 0], y[:, 1], y[:, 2], y[:, 3])

    def com_velocities(self, t: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        y = self.state(t)
        m = self.model
        w1, w2 = y[:, 2:3], y[:, 3:4]
        n1, n2 = m.n(y[:, 0]), m.n(y[:, 1])
        return m.c1 * w1 * n1, m.L1 * w1 * n1 + m.c2 * w2 * n2

    def reactions(self, t: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """(F_base, F_mid), each (len(t), 2); see :meth:`DoublePendulum.reactions`."""
        y = self.state(t)
        acc = self.angular_accelerations(t)
        return self.model.reactions(y[:, 0], y[:, 1], y[:, 2], y[:, 3], acc[:, 0], acc[:, 1])


def two_link_model(convention: str = "horizontal", g: float = 9.81) -> DoublePendulum:
    """The two-link chain of [R3]: m = 1 kg, L = 1 m, Jc = 1/12 kg m^2, uniform links."""
    return DoublePendulum(
        m1=1.0, m2=1.0, L1=1.0, L2=1.0, J1=1.0 / 12, J2=1.0 / 12, c1=0.5, c2=0.5, g=g, convention=convention
    )


def two_link_solution(
    t_end: float = 4.0,
    convention: str = "horizontal",
    method: str = "DOP853",
    rtol: float = 1e-12,
    atol: float = 1e-12,
    q0: ArrayLike = TWO_LINK_Q0,
    qd0: ArrayLike = TWO_LINK_QD0,
    relative: bool = False,
) -> DoublePendulumSolution:
    """High-accuracy reference for the [R3] case (released at rest from q = (0.3, -1.0))."""
    return two_link_model(convention).simulate(
        q0, qd0, t_end=t_end, method=method, rtol=rtol, atol=atol, relative=relative
    )
