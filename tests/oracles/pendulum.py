r"""Simple / compound pendulum oracle (one rigid body on a fixed revolute joint).

Model
-----
A rigid body of mass ``m`` swings in the x-y plane about a fixed pivot at
``pivot`` (default the origin).  Its centre of mass (CoM) is at distance ``L``
from the pivot, its moment of inertia about the CoM (axis z) is ``Jc``
(``Jc = 0`` gives the point-mass pendulum).  Gravity ``g`` acts along -y.

Angle convention: ``theta`` is measured from the *downward* vertical (-y),
positive counter-clockwise, so the CoM is at

    r_G = pivot + L (sin theta, -cos theta)

and theta = 0 is the stable (lowest) position.

Equation of motion (minimal coordinate theta, inertia about the pivot
``Ieff = Jc + m L^2``)::

    Ieff theta'' = - m g L sin(theta)

Exact period for release from rest at amplitude theta0 (|theta0| < pi)::

    T = 4 sqrt(Ieff / (m g L)) K(k),   k = sin(theta0 / 2)

where K is the complete elliptic integral of the first kind *of modulus k*.
``scipy.special.ellipk`` takes the *parameter* m = k^2, so we call
``ellipk(k**2)``.

Energy:  1/2 Ieff theta'^2 - m g L cos(theta) = const, hence the angular speed
at angle theta for release from rest at theta0 is
``sqrt(2 m g L (cos theta - cos theta0) / Ieff)``.

Pivot reaction (force exerted *by the pivot on the body*), from Newton for the
CoM, ``m a_G = F_pivot + m g_vec``::

    a_G = L theta'' (cos th, sin th) + L theta'^2 (-sin th, cos th)
    F_pivot = m a_G + (0, m g)

At the lowest point (theta = 0) theta'' = 0 and this reduces to the vertical
force ``(0, m g + m L omega^2)`` (upward).  The force of the body on the pivot
(on the ground) is the negative of this.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import ellipk

__all__ = [
    "effective_inertia",
    "pendulum_period",
    "small_angle_period",
    "pendulum_angular_speed",
    "pendulum_omega_bottom",
    "pendulum_angular_acceleration",
    "pendulum_com_position",
    "pivot_reaction",
    "pivot_reaction_bottom",
    "pendulum_energy",
    "PendulumSolution",
    "pendulum_ode_solution",
]


def effective_inertia(m=1.0, L=1.0, Jc=0.0):
    """Moment of inertia about the pivot, ``Ieff = Jc + m L^2`` [kg m^2]."""
    return Jc + m * L * L


def pendulum_period(theta0, m=1.0, L=1.0, g=9.81, Jc=0.0):
    """Exact period [s] for release from rest at ``theta0`` [rad], |theta0| < pi.

    ``T = 4 sqrt(Ieff/(m g L)) K(k)``, ``k = sin(theta0/2)``; scipy's ``ellipk``
    takes the parameter ``k**2``.
    """
    theta0 = np.asarray(theta0, dtype=float)
    if np.any(np.abs(theta0) >= np.pi):
        raise ValueError("|theta0| must be < pi for an oscillating pendulum")
    k = np.sin(theta0 / 2.0)
    Ieff = effective_inertia(m, L, Jc)
    return 4.0 * np.sqrt(Ieff / (m * g * L)) * ellipk(k * k)


def small_angle_period(m=1.0, L=1.0, g=9.81, Jc=0.0):
    """Linearised period ``2 pi sqrt(Ieff/(m g L))`` [s]."""
    return 2.0 * np.pi * np.sqrt(effective_inertia(m, L, Jc) / (m * g * L))


def pendulum_angular_speed(theta, theta0, m=1.0, L=1.0, g=9.81, Jc=0.0):
    """|theta'| [rad/s] at angle ``theta`` for release from rest at ``theta0`` (energy)."""
    Ieff = effective_inertia(m, L, Jc)
    val = 2.0 * m * g * L * (np.cos(theta) - np.cos(theta0)) / Ieff
    return np.sqrt(np.maximum(val, 0.0))


def pendulum_omega_bottom(theta0, m=1.0, L=1.0, g=9.81, Jc=0.0):
    """Angular speed [rad/s] at the lowest point: ``sqrt(2 m g L (1 - cos theta0) / Ieff)``."""
    return pendulum_angular_speed(0.0, theta0, m, L, g, Jc)


def pendulum_angular_acceleration(theta, m=1.0, L=1.0, g=9.81, Jc=0.0):
    """theta'' = -(m g L / Ieff) sin(theta) [rad/s^2]."""
    return -(m * g * L / effective_inertia(m, L, Jc)) * np.sin(theta)


def pendulum_com_position(theta, L=1.0, pivot=(0.0, 0.0)):
    """CoM position(s) ``pivot + L (sin th, -cos th)``; shape (..., 2)."""
    theta = np.asarray(theta, dtype=float)
    p = np.asarray(pivot, dtype=float)
    return np.stack([p[0] + L * np.sin(theta), p[1] - L * np.cos(theta)], axis=-1)


def pivot_reaction(theta, theta_dot, m=1.0, L=1.0, g=9.81, Jc=0.0):
    """Force [N] exerted BY THE PIVOT ON THE BODY, shape (..., 2), world x-y.

    Uses the free-motion acceleration ``theta'' = -(m g L/Ieff) sin theta``.
    ``F = m a_G + (0, m g)``.
    """
    theta = np.asarray(theta, dtype=float)
    w = np.asarray(theta_dot, dtype=float)
    a = pendulum_angular_acceleration(theta, m, L, g, Jc)
    c, s = np.cos(theta), np.sin(theta)
    ax = L * a * c - L * w * w * s
    ay = L * a * s + L * w * w * c
    return np.stack([m * ax, m * ay + m * g], axis=-1)


def pivot_reaction_bottom(theta0, m=1.0, L=1.0, g=9.81, Jc=0.0):
    """Pivot force on the body at the lowest point for release from rest at theta0.

    Returns the (upward, +y) magnitude ``m g + m L omega_bottom^2`` [N]; the
    horizontal component is exactly zero there.
    """
    w = pendulum_omega_bottom(theta0, m, L, g, Jc)
    return m * g + m * L * w * w


def pendulum_energy(theta, theta_dot, m=1.0, L=1.0, g=9.81, Jc=0.0):
    """Mechanical energy [J], potential zero at the pivot height: 1/2 Ieff w^2 - m g L cos th."""
    return 0.5 * effective_inertia(m, L, Jc) * np.asarray(theta_dot) ** 2 - m * g * L * np.cos(theta)


@dataclass
class PendulumSolution:
    """Result of :func:`pendulum_ode_solution` (arrays aligned with ``t``)."""

    t: np.ndarray
    theta: np.ndarray  # rad, from downward vertical, CCW +
    omega: np.ndarray  # rad/s
    alpha: np.ndarray  # rad/s^2
    sol: object  # scipy OdeSolution (dense output), callable sol(t) -> [theta, omega]
    params: dict

    def pivot_reaction(self):
        p = self.params
        return pivot_reaction(self.theta, self.omega, p["m"], p["L"], p["g"], p["Jc"])

    def energy(self):
        p = self.params
        return pendulum_energy(self.theta, self.omega, p["m"], p["L"], p["g"], p["Jc"])


def pendulum_ode_solution(theta0, t, omega0=0.0, m=1.0, L=1.0, g=9.81, Jc=0.0, method="DOP853", rtol=1e-12, atol=1e-12):
    """Integrate ``Ieff theta'' = -m g L sin theta`` from (theta0, omega0) at t=0.

    ``t`` is an increasing array of output times (t[0] may be > 0).  Returns a
    :class:`PendulumSolution` with dense output over [0, t[-1]].
    """
    t = np.atleast_1d(np.asarray(t, dtype=float))
    c = m * g * L / effective_inertia(m, L, Jc)

    def rhs(_t, y):
        return [y[1], -c * np.sin(y[0])]

    res = solve_ivp(
        rhs,
        (0.0, float(t[-1])),
        [float(theta0), float(omega0)],
        method=method,
        t_eval=t,
        dense_output=True,
        rtol=rtol,
        atol=atol,
    )
    if not res.success:
        raise RuntimeError(res.message)
    th, om = res.y
    return PendulumSolution(
        t=t, theta=th, omega=om, alpha=-c * np.sin(th), sol=res.sol, params=dict(m=m, L=L, g=g, Jc=Jc)
    )
