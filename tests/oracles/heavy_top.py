r"""Heavy symmetric top in Euler angles, the reference of examples/heavy_top.json.

Z-X-Z Euler angles (precession psi, nutation theta, spin phi): R = Rz(psi) Rx(theta) Rz(phi),
the symmetry axis R e_z = (sin psi sin theta, -cos psi sin theta, cos theta). With I1 the
transverse inertia about the pivot (I_cg + m l^2), I3 the axial one and l the pivot-CoG distance,
the spin w3 = phi' + psi' cos(theta) and p_psi = I1 psi' sin^2(theta) + I3 w3 cos(theta) are
conserved and

    I1 theta'' = I1 psi'^2 sin(theta) cos(theta) - I3 w3 psi' sin(theta) + m g l sin(theta)

(Goldstein, section 5.7). Integrated with DOP853 at rtol 1e-12; theta stays away from 0.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import solve_ivp


def _rot(axis: int, a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    if axis == 0:
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def solution(t: np.ndarray, m: float, radius: float, stem: float, tilt: float, spin: float, g: float = 9.81):
    """(CoG positions [m] shape (K, 3), rotation matrices shape (K, 3, 3)) of a thin disc top
    released with theta = tilt, psi = phi = 0, theta' = psi' = 0 and spin ``spin`` [rad/s]."""
    I1 = m * radius**2 / 4 + m * stem**2
    I3 = m * radius**2 / 2
    w3 = spin
    p_psi = I3 * w3 * math.cos(tilt)

    def rhs(_t, y):
        theta, theta_dot = y[0], y[1]
        s, c = math.sin(theta), math.cos(theta)
        psi_dot = (p_psi - I3 * w3 * c) / (I1 * s * s)
        theta_dd = (I1 * psi_dot**2 * s * c - I3 * w3 * psi_dot * s + m * g * stem * s) / I1
        return [theta_dot, theta_dd, psi_dot, w3 - psi_dot * c]

    t = np.atleast_1d(np.asarray(t, dtype=float))
    sol = solve_ivp(rhs, (0.0, float(t[-1])), [tilt, 0.0, 0.0, 0.0], method="DOP853", rtol=1e-12, atol=1e-12, t_eval=t)
    theta, psi, phi = sol.y[0], sol.y[2], sol.y[3]
    R = np.array([_rot(2, a) @ _rot(0, b) @ _rot(2, c) for a, b, c in zip(psi, theta, phi)])
    return stem * R[:, :, 2], R
