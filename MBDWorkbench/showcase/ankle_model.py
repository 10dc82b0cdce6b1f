"""The 2-DoF parallel humanoid ankle as a solver model, and its actuator-to-foot maps.

``ankle_model_dict(geom)`` builds the multibody model of ``ankle.AnkleGeometry`` (world
frame at the universal joint centre, X forward, Y left, Z up): the shank is the ground,
two motor bars turn about +Y on revolutes driven by rotational drivers, two rods have a
ball joint on the bar and a universal joint on the foot (both cross axes normal to the
rod, which removes the rod's idle spin, so the mobility is exactly 2), and the foot hangs
on a universal joint whose first axis is Y (shank side) and second axis the foot's own
X, so ``R_foot = RotY(pitch) RotX(roll)``. Masses come from simple shapes: aluminium
boxes (bars, foot, shank) and steel cylinders (rods).

``export_actuator_maps`` writes the tables/fits/Jacobians a robot controller needs (URDF
cannot describe the closed chain) and, given a model, checks them against the solver.
The mechanism and its closed-form kinematics follow the ankle design note [R2] (docs/references.md).
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..solver.errors import ModelError
from ..solver.model import Model, from_dict
from ..solver.numerics.quaternion import matrix
from ..solver.system.assembly import assemble
from ..solver.system.system import System
from . import ankle

ALUMINIUM = 2700.0  # kg/m^3
STEEL = 7850.0  # kg/m^3
BAR_SECTION = (0.012, 0.008)  # m, width along the motor axis x height
ROD_RADIUS = 0.003  # m
FOOT_BOX = ((0.22, 0.09, 0.02), (0.03, 0.0, -0.045))  # size, centre [m]
SHANK_BOX = ((0.04, 0.06, 0.30), (0.0, 0.0, 0.16))
FOOT, BARS, RODS = "foot", ("bar1", "bar2"), ("rod1", "rod2")
MOTORS, BALLS, CARDANS, ANKLE = ("motor1", "motor2"), ("ball1", "ball2"), ("cardan1", "cardan2"), "ankle"
DRIVES = ("drive1", "drive2")


# ----------------------------------------------------------------------------- shapes
def _frame_from_axis(u, hint=(0.0, 1.0, 0.0)):
    """Rotation whose first column is u and second the part of ``hint`` normal to u."""
    u = np.asarray(u, float) / np.linalg.norm(u)
    v = np.asarray(hint, float) - np.dot(hint, u) * u
    if np.linalg.norm(v) < 1e-9:
        v = np.cross(u, [1.0, 0.0, 0.0] if abs(u[0]) < 0.9 else [0.0, 0.0, 1.0])
    v /= np.linalg.norm(v)
    return np.column_stack([u, v, np.cross(u, v)])


def box(
    density: float,
    size: Sequence[float],
    axis: Sequence[float] = (1.0, 0.0, 0.0),
    hint: Sequence[float] = (0.0, 1.0, 0.0),
) -> tuple[float, np.ndarray]:
    """(mass [kg], 3x3 inertia [kg m^2] about the CoG in world axes) of a box whose
    edges size[0] lies along ``axis`` and size[1] along ``hint``."""
    a, b, c = size
    m = density * a * b * c
    R = _frame_from_axis(axis, hint)
    I = m / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    return m, R @ I @ R.T


def cylinder(density: float, radius: float, length: float, axis: Sequence[float]) -> tuple[float, np.ndarray]:
    """(mass, inertia in world axes) of a solid cylinder along ``axis``."""
    m = density * np.pi * radius**2 * length
    R = _frame_from_axis(axis)
    I = np.diag([0.5 * m * radius**2] + [m * (3 * radius**2 + length**2) / 12.0] * 2)
    return m, R @ I @ R.T


def _body(name, mass_inertia, position, grounded=False):
    m, I = mass_inertia
    d = {"name": name, "mass": float(m), "inertia": np.round(I, 15).tolist(), "position": [float(x) for x in position]}
    if grounded:
        d["grounded"] = True
    return d


def _joint(name, jtype, bi, bj, origin, z=None, x=None):
    frame = {"origin": [float(v) for v in origin]}
    if z is not None:
        frame["z_axis"] = [float(v) for v in z]
    if x is not None:
        frame["x_axis"] = [float(v) for v in x]
    return {"name": name, "type": jtype, "body_i": bi, "body_j": bj, "frame": frame}


# ----------------------------------------------------------------------------- model
def ankle_model_dict(
    geom: ankle.AnkleGeometry | None = None,
    profiles: dict[str, Any] | None = None,
    name: str = "parallel_ankle",
    gravity: Sequence[float] = (0.0, 0.0, -9.81),
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """JSON-ready model dict of the ankle at home (motor angles and foot angles zero).

    ``profiles`` maps 'drive1'/'drive2' to driver profiles (motor angle [rad] about +Y
    = the closed-form module's theta_k); default: two phase-shifted 0.25 rad, 0.5 Hz
    sine waves (the foot pitches and rolls)."""
    geom = geom or ankle.AnkleGeometry()
    profiles = profiles or {
        DRIVES[0]: {"type": "harmonic", "amplitude": 0.25, "frequency": 0.5},
        DRIVES[1]: {"type": "harmonic", "amplitude": 0.25, "frequency": 0.5, "phase": 1.5707963267948966},
    }
    A, B, C = geom.A, geom.B0, geom.C0
    bodies = [
        _body("shank", box(ALUMINIUM, SHANK_BOX[0], (0, 0, 1)), SHANK_BOX[1], grounded=True),
        _body(FOOT, box(ALUMINIUM, FOOT_BOX[0]), FOOT_BOX[1]),
    ]
    joints = [_joint(ANKLE, "universal", "shank", FOOT, (0, 0, 0), z=(0, 0, -1), x=(0, 1, 0))]
    for k in range(2):
        bar_len, rod = np.linalg.norm(B[k] - A[k]), C[k] - B[k]
        bodies.append(_body(BARS[k], box(ALUMINIUM, (bar_len,) + BAR_SECTION, B[k] - A[k]), 0.5 * (A[k] + B[k])))
        bodies.append(_body(RODS[k], cylinder(STEEL, ROD_RADIUS, np.linalg.norm(rod), rod), 0.5 * (B[k] + C[k])))
        joints += [
            _joint(MOTORS[k], "revolute", "shank", BARS[k], A[k], z=(0, 1, 0), x=B[k] - A[k]),
            _joint(BALLS[k], "spherical", BARS[k], RODS[k], B[k]),
            _joint(CARDANS[k], "universal", RODS[k], FOOT, C[k], z=-rod, x=(1, 0, 0)),
        ]
    drivers = [
        {"name": DRIVES[k], "type": "rotational", "joint": MOTORS[k], "profile": profiles[DRIVES[k]]} for k in range(2)
    ]
    return {
        "name": name,
        "description": "2-DoF parallel humanoid ankle ([R2]): motors at A1/A2 "
        "about +Y, bars A-B, rods B-C (ball joint at B, universal at C), foot on a universal joint "
        "(Y on the shank, then the foot's X): R_foot = RotY(pitch) RotX(roll). Built by "
        "examples/make_ankle.py from MBDWorkbench.showcase.ankle.AnkleGeometry.",
        "gravity": list(gravity),
        "bodies": bodies,
        "joints": joints,
        "forces": [],
        "drivers": drivers,
        "settings": settings or {"t_end": 2.0, "step": 1e-3, "output_step": 0.01, "integrator": "rk4"},
    }


def ankle_model(geom: ankle.AnkleGeometry | None = None, **kwargs: Any) -> Model:
    """The validated Model of :func:`ankle_model_dict`."""
    return from_dict(ankle_model_dict(geom, **kwargs))


def geometry_from_model(model: Model) -> ankle.AnkleGeometry:
    """AnkleGeometry from a model built like :func:`ankle_model_dict` (joint names
    ankle, motor1/2, ball1/2, cardan1/2 with global frames at home); points are taken
    relative to the ankle joint centre. Raises ModelError naming what is missing."""

    def origin(name):
        try:
            j = model.joint(name)
        except KeyError:
            raise ModelError(
                "joints",
                f"not an ankle model: no joint '{name}' (expected the joints of "
                "examples/make_ankle.py: ankle, motor1, motor2, ball1, ball2, cardan1, cardan2)",
            ) from None
        if j.frame is None:
            raise ModelError("joints", f"joint '{name}': the ankle export needs a global 'frame'")
        return np.asarray(j.frame.origin, float)

    o = origin(ANKLE)
    for m in MOTORS:
        z = np.asarray(model.joint(m).frame.z_axis, float) if model.joint(m).frame else None
        if z is None or np.linalg.norm(np.cross(z, [0, 1, 0])) > 1e-9 * np.linalg.norm(z) or z[1] <= 0:
            raise ModelError("joints", f"joint '{m}': the motor axis must be +Y for the closed-form maps")
    A = [origin(m) - o for m in MOTORS]
    B = [origin(b) - o for b in BALLS]
    C = [origin(c) - o for c in CARDANS]
    return ankle.AnkleGeometry(A1=A[0], A2=A[1], B1_0=B[0], B2_0=B[1], C1_0=C[0], C2_0=C[1])


LAYOUT = {  # by kind, the names of the elements of the ankle model (the joints first: they give the geometry)
    "joints": (ANKLE, *MOTORS, *BALLS, *CARDANS),
    "bodies": ("shank", FOOT, *BARS, *RODS),
    "drivers": DRIVES,
    "forces": (),
}


def refuse_non_ankle(data: object) -> None:
    """ModelError unless the model ``data`` (parsed JSON, before it is built) holds only the
    ankle's elements (:data:`LAYOUT`, those of examples/make_ankle.py): the maps are computed
    from them alone, and anything else would only be read, validated and assembled for nothing
    (a 10 MB model with 100,000 extra bodies took minutes), so it is refused in a few seconds."""
    if not isinstance(data, dict):
        return  # left to the model's validation
    for kind, names in LAYOUT.items():
        items = data.get(kind, [])
        if not isinstance(items, list):
            continue
        extra = [e.get("name") if isinstance(e, dict) else e for e in items]
        extra = [n for n in extra if not (isinstance(n, str) and n in names)]
        if extra or len(items) > len(names):
            shown = ", ".join(repr(n)[:40] for n in extra[:3]) + (", ..." if len(extra) > 3 else "")
            raise ModelError(
                kind,
                f"not the parallel ankle: {len(items)} {kind} where the ankle export reads only "
                f"{', '.join(names) or 'none'} (examples/make_ankle.py); other {kind}: {shown or 'duplicates'}",
            )


# ----------------------------------------------------------------------------- solver side
def foot_angles(R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(roll, pitch) [rad] of a foot rotation R = RotY(pitch) RotX(roll) (3x3 or Kx3x3)."""
    R = np.asarray(R, float)
    return np.arctan2(-R[..., 1, 2], R[..., 1, 1]), np.arctan2(-R[..., 2, 0], R[..., 0, 0])


def euler_rates(omega: Sequence[float], pitch: float) -> np.ndarray:
    """(roll_dot, pitch_dot) [rad/s] from the foot's global angular velocity (least
    squares on omega = e_y pitch_dot + RotY(pitch) e_x roll_dot)."""
    Jw = np.array([[np.cos(pitch), 0.0], [0.0, 1.0], [-np.sin(pitch), 0.0]])
    return np.linalg.lstsq(Jw, np.asarray(omega, float), rcond=None)[0]


def with_constant_motors(model: Model | dict, theta1: float, theta2: float) -> Model:
    """Copy of an ankle model (a Model or its ``to_dict()``) with both drivers held at the
    given motor angles [rad]."""
    d = model.to_dict() if isinstance(model, Model) else dict(model)
    d["drivers"] = [dict(drv, profile=float(th)) for drv, th in zip(d["drivers"], (theta1, theta2))]
    return from_dict(d)


def solver_forward_kinematics(model: Model | dict, theta1: float, theta2: float) -> tuple[float, float]:
    """Foot (roll, pitch) [rad] from the solver's assembly with the motors at theta1/2
    (``model``: an ankle Model or its ``to_dict()``)."""
    m = with_constant_motors(model, theta1, theta2)
    sys_ = System(m)
    Y = assemble(sys_, sys_.Y0.copy(), 0.0, tol=1e-13)
    b = sys_.index[FOOT]
    R = matrix(Y[7 * b + 3 : 7 * b + 7]) @ sys_.R_principal[b].T
    return tuple(float(a) for a in foot_angles(R))


# ----------------------------------------------------------------------------- export
def _fk_fit(table, degree):
    """Polynomial (roll, pitch) of (theta1, theta2) from the valid points of a table."""
    m = table["valid"]
    th1, th2 = table["theta1"][m], table["theta2"][m]
    exps = [(i, d - i) for d in range(degree + 1) for i in range(d, -1, -1)]
    Phi = np.stack([th1**i * th2**j for i, j in exps], axis=1)
    R, P = np.meshgrid(table["roll"], table["pitch"], indexing="ij")
    Y = np.stack([R[m], P[m]], axis=1)
    coeffs = np.linalg.lstsq(Phi, Y, rcond=None)[0]
    err = Phi @ coeffs - Y
    return {"exponents": exps, "coefficients": coeffs.tolist(), "max_error_rad": np.max(np.abs(err), axis=0).tolist()}


def export_actuator_maps(
    out_dir: str,
    geom: ankle.AnkleGeometry | None = None,
    model: Model | None = None,
    roll_max: float = 0.35,
    pitch_max: float = 0.35,
    n: int = 15,
    degree: int = 3,
    check_points: int = 5,
) -> dict[str, Any]:
    """Write ``ankle_maps.json`` and ``ankle_table.csv`` into ``out_dir``.

    Grid: roll in [-roll_max, roll_max], pitch in [-pitch_max, pitch_max] [rad], n x n.
    Table columns: roll, pitch, theta1, theta2 (IK, rad), J (q_dot = J theta_dot),
    J^T (motor torques = J^T [tau_roll, tau_pitch]) and cond(J). JSON: geometry, the
    polynomial fits theta(roll, pitch) and (roll, pitch)(theta) with their errors, and,
    if ``model`` is given, the largest difference between the closed-form IK and the
    solver's assembly at check_points x check_points grid points. Returns the JSON dict."""
    if model is not None and geom is None:
        geom = geometry_from_model(model)
    geom = geom or ankle.AnkleGeometry()
    rg, pg = np.linspace(-roll_max, roll_max, n), np.linspace(-pitch_max, pitch_max, n)
    tab = ankle.actuator_map_table(geom, rg, pg)
    fit = ankle.fit_actuator_map(geom, rg, pg, degree)
    os.makedirs(out_dir, exist_ok=True)
    _write_table(os.path.join(out_dir, "ankle_table.csv"), tab)
    out = {
        "geometry_m": {k: getattr(geom, k).tolist() for k in ("A1", "A2", "B1_0", "B2_0", "C1_0", "C2_0", "L_rod")},
        "conventions": "R_foot = RotY(pitch) RotX(roll); motor angles about +Y, 0 at home; "
        "[roll_dot, pitch_dot] = J [theta1_dot, theta2_dot]; motor torques F = J^T tau "
        "with tau the Euler-rate-conjugate torques the motors exert on the foot",
        "grid": {"roll_rad": rg.tolist(), "pitch_rad": pg.tolist(), "valid_points": int(tab["valid"].sum())},
        "ik_fit": {
            "degree": degree,
            "exponents": fit.exponents,
            "coefficients": fit.coeffs.tolist(),
            "max_error_rad": fit.max_error.tolist(),
            "rms_error_rad": fit.rms_error.tolist(),
            "max_error_between_nodes_rad": fit.max_error_check.tolist(),
        },
        "fk_fit": dict(_fk_fit(tab, degree), degree=degree),
        "max_condition_number": float(np.nanmax(tab["cond"])),
    }
    if model is not None:
        out["solver_check"] = _solver_check(model, geom, rg, pg, check_points)
    with open(os.path.join(out_dir, "ankle_maps.json"), "w") as f:
        json.dump(out, f, indent=2)
    return out


def _write_table(path, tab):
    head = [
        "roll [rad]",
        "pitch [rad]",
        "theta1 [rad]",
        "theta2 [rad]",
        "J11",
        "J12",
        "J21",
        "J22",
        "JT11",
        "JT12",
        "JT21",
        "JT22",
        "cond",
        "valid",
    ]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        for i, r in enumerate(tab["roll"]):
            for j, p in enumerate(tab["pitch"]):
                J = tab["J"][i, j]
                vals = [r, p, tab["theta1"][i, j], tab["theta2"][i, j], *J.ravel(), *J.T.ravel(), tab["cond"][i, j]]
                w.writerow([f"{v:.12g}" for v in vals] + [int(tab["valid"][i, j])])


def _solver_check(model, geom, rg, pg, k):
    """Max |solver FK - commanded| [rad] over a k x k sub-grid driven by the closed-form IK."""
    worst, data = 0.0, model.to_dict()  # converted once, not at every point
    for r in np.linspace(rg[0], rg[-1], k):
        for p in np.linspace(pg[0], pg[-1], k):
            th = ankle.inverse_kinematics(geom, r, p)
            rs, ps = solver_forward_kinematics(data, *th)
            worst = max(worst, abs(rs - r), abs(ps - p))
    return {"points": k * k, "max_error_rad": worst}
