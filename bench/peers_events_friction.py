"""The friction pendulum of bench/peers_events.py: its constants and the independent SciPy solution
of its 1-DoF equation (turning points), the sampled runs' turning points and their errors."""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import solve_ivp

G, ROD_M = 9.81, 1.0  # [m/s^2, kg] as bench/peers_events.py's
ARM_L, ARM_I_CG, THETA0, MU, PIN_R = 0.5, 0.02, 0.5, 0.3, 0.02  # [m, kg m^2, rad, -, m]; mass ROD_M
ARM_I = ARM_I_CG + ROD_M * ARM_L**2  # about the pin [kg m^2]


def pin_load(theta: float, rate: float, acc: float) -> float:
    """|F| [N] of the pin on the bar: m (a_cg - g) in the tangent and radial components."""
    f_t = ROD_M * (ARM_L * acc + G * math.sin(theta))
    f_p = -ROD_M * (ARM_L * rate**2 + G * math.cos(theta))
    return math.hypot(f_t, f_p)


def friction_turning_points(load_dependent: bool, t_end: float) -> list[tuple[float, float]]:
    """[(t, theta)] of the bar released at THETA0 from the downward vertical, by SciPy (rtol 1e-12):
    I theta'' = -m g L sin theta - s mu r N, N the pin load (load_dependent) or m g (a constant torque)."""

    def rhs(t, y, s):
        acc = 0.0
        for _ in range(12 if load_dependent else 1):  # a contraction by mu r m L / I ~ 0.03
            load = pin_load(y[0], y[1], acc) if load_dependent else ROD_M * G
            acc = (-ROD_M * G * ARM_L * math.sin(y[0]) - s * MU * PIN_R * load) / ARM_I
        return [y[1], acc]

    t, theta, points = 0.0, THETA0, []
    while t < t_end and ARM_L * abs(math.sin(theta)) > MU * PIN_R:
        s = -math.copysign(1.0, theta)
        turn = lambda t, y, s: y[1]  # noqa: E731
        turn.terminal, turn.direction = True, -s
        sol = solve_ivp(rhs, (t, t_end), [theta, 0.0], args=(s,), events=turn, rtol=1e-12, atol=1e-14,
                        first_step=1e-6)  # fmt: skip
        if not sol.t_events[0].size:
            break
        t, theta = float(sol.t_events[0][0]), float(sol.y_events[0][0][0])
        points.append((t, theta))
    return points


def sampled_turning_points(t: np.ndarray, q: np.ndarray, w: np.ndarray) -> list[tuple[float, float]]:
    """[(t, theta)] at the sign changes of the rate (parabola through three samples)."""
    out = []
    for k in np.nonzero(w[1:-1] * w[2:] < 0)[0] + 1:
        a, b, c = q[k - 1 : k + 2]
        d = a - 2 * b + c
        shift = 0.5 * (a - c) / d if d else 0.0
        out.append((float(t[k] + shift * (t[1] - t[0])), float(b - 0.25 * (a - c) * shift)))
    return out


def point_errors(points: list, ref: list) -> tuple[float, float, int]:
    """(largest angle [rad] and time [s] differences of the turning points, how many compared)."""
    n = min(len(points), len(ref))
    if not n:
        return math.nan, math.nan, 0
    dq = max(abs(a[1] - b[1]) for a, b in zip(points[:n], ref[:n]))
    return dq, max(abs(a[0] - b[0]) for a, b in zip(points[:n], ref[:n])), n
