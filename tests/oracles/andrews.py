r"""Andrews' squeezer (IFToMM A03) in [HW]'s seven relative angles, an independent reference.

[HW] section VII.7 writes the mechanism in q = (beta, Theta, gamma, Phi, delta, Omega, epsilon)
with six loop-closure equations g(q) = 0: M(q) q'' = f(q, q') - G(q)^T lambda. We solve its
index-1 form [M G^T; G 0] [q''; lambda] = [f; -(dG/dt) q'] with DOP853 at rtol 1e-12 (0.03 s: the
drift off g = 0 stays below 1e-12 m) and map the angles to the bodies' CoGs with the same
geometry as the JSON model (examples/make_iftomm.andrews_points, which fixes the CoG directions
[HW] leaves open). [HW]'s reference angles at t = 0.03 s (PSIDE at 1e-14) check this oracle.

Each loop equation is a sum of terms a * cos(sum of angles) or a * sin(sum of angles) plus a
constant, so g, its Jacobian G and the velocity term (dG/dt) q' all come from one term list.
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
from make_iftomm import AQ, AQ_Q0, andrews_points  # noqa: E402

# [HW]'s solution at t = 0.03 s (the test set's PSIDE run at rtol = atol = 1e-14)
Q_AT_003 = np.array([
    0.1581077119629904e2, -0.1575637105984298e2, 0.4082224013073101e-1, -0.5347301163226948,
    0.5244099658805304, 0.5347301163226948, 0.1048080741042263e1,
])  # fmt: skip


def _terms():
    """Per loop row: a list of (coefficient, 'c' or 's', angle indices) and a constant."""
    p = AQ
    BE, TH, GA, PH, DE, OM, EP = range(7)
    rows = [
        ([(p["rr"], "c", (BE,)), (-p["d"], "c", (BE, TH)), (-p["ss"], "s", (GA,))], -p["xb"]),
        ([(p["rr"], "s", (BE,)), (-p["d"], "s", (BE, TH)), (p["ss"], "c", (GA,))], -p["yb"]),
        ([(p["rr"], "c", (BE,)), (-p["d"], "c", (BE, TH)), (-p["e"], "s", (PH, DE)), (-p["zt"], "c", (DE,))], -p["xa"]),
        ([(p["rr"], "s", (BE,)), (-p["d"], "s", (BE, TH)), (p["e"], "c", (PH, DE)), (-p["zt"], "s", (DE,))], -p["ya"]),
        ([(p["rr"], "c", (BE,)), (-p["d"], "c", (BE, TH)), (-p["zf"], "c", (OM, EP)), (-p["u"], "s", (EP,))], -p["xa"]),
        ([(p["rr"], "s", (BE,)), (-p["d"], "s", (BE, TH)), (-p["zf"], "s", (OM, EP)), (p["u"], "c", (EP,))], -p["ya"]),
    ]  # fmt: skip
    return rows


ROWS = _terms()


def constraints(q: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """g(q) [m], G = dg/dq [m], and (dG/dt) q' [m/s^2] at angles q, rates v."""
    g, G, gv = np.zeros(6), np.zeros((6, 7)), np.zeros(6)
    for r, (terms, const) in enumerate(ROWS):
        g[r] = const
        for a, kind, idx in terms:
            angle, rate = sum(q[i] for i in idx), sum(v[i] for i in idx)
            value, slope = (math.cos(angle), -math.sin(angle)) if kind == "c" else (math.sin(angle), math.cos(angle))
            g[r] += a * value
            for i in idx:
                G[r, i] += a * slope
            gv[r] -= a * value * rate * rate  # d2/dt2 of a*cos(x) or a*sin(x) at x'' = 0
    return g, G, gv


def mass_and_forces(q: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[HW]'s M(q) [kg m^2] and f(q, q') [N m]: Coriolis terms, the motor torque, the spring."""
    p, m, i = AQ, AQ["m"], AQ["i"]
    be, th, ga, ph, de, om, ep = q
    bep, thp, _, php, dep, omp, epp = v
    ee, zz = p["e"] - p["ea"], p["zf"] - p["fa"]
    M = np.zeros((7, 7))
    M[0, 0] = (
        m[0] * p["ra"] ** 2 + m[1] * (p["rr"] ** 2 - 2 * p["da"] * p["rr"] * math.cos(th) + p["da"] ** 2) + i[0] + i[1]
    )
    M[1, 1] = m[1] * p["da"] ** 2 + i[1]
    M[2, 2] = m[2] * (p["sa"] ** 2 + p["sb"] ** 2) + i[2]
    M[3, 3] = m[3] * ee**2 + i[3]
    M[4, 4] = (
        m[3] * (p["zt"] ** 2 + 2 * p["zt"] * ee * math.sin(ph) + ee**2)
        + m[4] * (p["ta"] ** 2 + p["tb"] ** 2)
        + i[3]
        + i[4]
    )
    M[5, 5] = m[5] * zz**2 + i[5]
    M[6, 6] = (
        m[5] * (zz**2 - 2 * p["u"] * zz * math.sin(om) + p["u"] ** 2)
        + m[6] * (p["ua"] ** 2 + p["ub"] ** 2)
        + i[5]
        + i[6]
    )
    M[0, 1] = M[1, 0] = m[1] * (p["da"] ** 2 - p["da"] * p["rr"] * math.cos(th)) + i[1]
    M[3, 4] = M[4, 3] = m[3] * (ee**2 + p["zt"] * ee * math.sin(ph)) + i[3]
    M[5, 6] = M[6, 5] = m[5] * (zz**2 - p["u"] * zz * math.sin(om)) + i[5]
    xd = p["sd"] * math.cos(ga) + p["sc"] * math.sin(ga) + p["xb"]
    yd = p["sd"] * math.sin(ga) - p["sc"] * math.cos(ga) + p["yb"]
    length = math.hypot(xd - p["xc"], yd - p["yc"])
    pull = -p["c0"] * (length - p["l0"]) / length
    fx, fy = pull * (xd - p["xc"]), pull * (yd - p["yc"])
    f = np.array([
        p["mom"] - m[1] * p["da"] * p["rr"] * thp * (thp + 2 * bep) * math.sin(th),
        m[1] * p["da"] * p["rr"] * bep**2 * math.sin(th),
        fx * (p["sc"] * math.cos(ga) - p["sd"] * math.sin(ga)) + fy * (p["sd"] * math.cos(ga) + p["sc"] * math.sin(ga)),
        m[3] * p["zt"] * ee * dep**2 * math.cos(ph),
        -m[3] * p["zt"] * ee * php * (php + 2 * dep) * math.cos(ph),
        -m[5] * p["u"] * zz * epp**2 * math.cos(om),
        m[5] * p["u"] * zz * omp * (omp + 2 * epp) * math.cos(om),
    ])  # fmt: skip
    return M, f


def _rhs(_t: float, y: np.ndarray) -> np.ndarray:
    q, v = y[:7], y[7:]
    M, f = mass_and_forces(q, v)
    _, G, gv = constraints(q, v)
    K = np.block([[M, G.T], [G, np.zeros((6, 6))]])
    acc = np.linalg.solve(K, np.concatenate([f, -gv]))[:7]
    return np.concatenate([v, acc])


def angles(t: np.ndarray) -> np.ndarray:
    """[HW]'s angles q(t) [rad], shape (len(t), 7), released at rest (DOP853, rtol 1e-12)."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    y0 = np.concatenate([AQ_Q0, np.zeros(7)])
    sol = solve_ivp(_rhs, (0.0, float(t[-1])), y0, method="DOP853", rtol=1e-12, atol=1e-14, t_eval=t)
    return sol.y[:7].T


def cog_positions(t: np.ndarray) -> np.ndarray:
    """CoG (x, y) [m] of K1..K7 at times t [s], shape (len(t), 7, 2)."""
    return np.array([andrews_points(q)[1] for q in angles(t)])


def body_angles(t: np.ndarray) -> np.ndarray:
    """Absolute rotation angles [rad] of K1..K7 about z, shape (len(t), 7)."""
    return np.array([andrews_points(q)[2] for q in angles(t)])
