r"""IFToMM benchmark A02, the N four-bar mechanism, and its exact one-DoF reduction.

Geometry (lim.ii.udc.es/mbsbenchmark A02): N four-bar windows made of 2N+1 uniform
slender links of length ``L`` = 1 m and mass ``m`` = 1 kg. Crank i (i = 0..N) is pinned
to the ground at A_i = (i L, 0) and points along the angle ``theta`` (from +x, counter-
clockwise) to B_i = A_i + L (cos theta, sin theta); coupler i (i = 0..N-1) joins B_i to
B_{i+1}. Gravity g acts along -y. Initially theta = pi/4 and B_0 moves along +x at
1 m/s, so theta' = -1 / (L sin theta) and the cranks fall through the horizontal
(theta = 0), where all links are collinear and the mobility jumps from 1 to N+1.

Reduction (all cranks share theta; every coupler translates with B_i):

    T = 1/2 [(N+1) m L^2 / 3 + N m L^2] theta'^2
    V = [(N+1) m g L / 2 + N m g L] sin(theta)
    M theta'' = -V0 cos(theta),  M = (N+1) m L^2/3 + N m L^2,  V0 = ((N+1)/2 + N) m g L

The physics passes the singular position: the reduced equation is regular there.
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np
from scipy.integrate import solve_ivp

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples")
)
from make_iftomm import n_four_bar_chain  # noqa: E402

THETA0 = math.pi / 4  # initial crank angle [rad]
B0_SPEED = 1.0  # initial x velocity of point B0 [m/s]


def model_dict(n: int = 2, m: float = 1.0, L: float = 1.0, g: float = 9.81, theta0: float = THETA0) -> dict:
    """The A02 model (JSON dict) with ``n`` windows, started at crank angle ``theta0`` [rad]
    with B0 moving at B0_SPEED along +x (bodies carry their exact initial velocities)."""
    bodies, joints = n_four_bar_chain(n, m, L, theta0, B0_SPEED)
    return {
        "name": f"n_four_bar_{n}",
        "description": f"IFToMM A02: {n} parallelogram four-bars, cranks passing the horizontal singular position",
        "gravity": [0.0, -g, 0.0],
        "bodies": bodies,
        "joints": joints,
    }


def reduced_inertia(n: int, m: float = 1.0, L: float = 1.0) -> float:
    """Generalised inertia of the crank angle [kg m^2]."""
    return (n + 1) * m * L * L / 3 + n * m * L * L


def reduced_weight(n: int, m: float = 1.0, L: float = 1.0, g: float = 9.81) -> float:
    """V0 in V = V0 sin(theta) [J]."""
    return ((n + 1) / 2 + n) * m * g * L


def crank_angle(t: np.ndarray, n: int = 2, m: float = 1.0, L: float = 1.0, g: float = 9.81) -> np.ndarray:
    """(theta, theta') [rad, rad/s] at times ``t`` [s] from the reduced ODE (DOP853, rtol 1e-12)."""
    M, V0 = reduced_inertia(n, m, L), reduced_weight(n, m, L, g)
    rhs = lambda _t, y: [y[1], -V0 * math.cos(y[0]) / M]  # noqa: E731
    t = np.atleast_1d(np.asarray(t, dtype=float))
    y0 = [THETA0, -B0_SPEED / (L * math.sin(THETA0))]
    sol = solve_ivp(rhs, (0.0, float(t[-1])), y0, method="DOP853", rtol=1e-12, atol=1e-13, t_eval=t)
    return sol.y[0], sol.y[1]


def b0_position(t: np.ndarray, n: int = 2, L: float = 1.0, **kw) -> np.ndarray:
    """Position (x, y) [m] of point B0 at times ``t`` [s], shape (len(t), 2)."""
    theta, _ = crank_angle(t, n=n, L=L, **kw)
    return np.column_stack([L * np.cos(theta), L * np.sin(theta)])
