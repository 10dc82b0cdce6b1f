"""The mechanisms of the index-3 study ([R3] in docs/references.md), built as spatial models
constrained to the x-y plane (gravity -y, revolute axes along z): the two-link chain ([R3]
sections 4-5), the driven slider-crank with a guide spring ([R3] section 6), and a four-bar
with four revolutes (redundant constraints; not in [R3]).
Used by tests/test_index3.py and bench/index3_study.py. SI units."""

from __future__ import annotations

import math
from typing import Any

from MBDWorkbench.solver.model import Model, from_dict
from MBDWorkbench.solver.model.builders import revolute_z as _revolute_z
from MBDWorkbench.solver.model.builders import rod as _rod

Point = tuple[float, float]
FOUR_BAR_CRANK_ANGLE = math.radians(60)  # rad, default crank angle of the four-bar


def two_link(q1: float = 0.3, q2: float = -1.0, settings: dict[str, Any] | None = None) -> Model:
    """The chain of [R3] sections 4-5: links m = 1 kg, L = 1 m, J = m L^2 / 12 hinged to the ground and
    to each other, released at rest from absolute angles q1, q2 [rad] (from +x)."""
    p1 = (math.cos(q1), math.sin(q1))
    return from_dict(
        {
            "name": "two_link",
            "gravity": [0, -9.81, 0],
            "bodies": [_rod("link1", 1.0, 1.0, (0, 0), q1), _rod("link2", 1.0, 1.0, p1, q2)],
            "joints": [_revolute_z("base", "ground", "link1", (0, 0)), _revolute_z("elbow", "link1", "link2", p1)],
            "settings": dict(settings or {}),
        }
    )


def slider_crank_geometry(theta: float, r: float = 0.5, l: float = 1.5) -> tuple[Point, Point, float]:
    """Crank pin B, slider pin C and rod angle [rad] at crank angle theta (offset 0)."""
    B = (r * math.cos(theta), r * math.sin(theta))
    x = B[0] + math.sqrt(l * l - B[1] ** 2)
    return B, (x, 0.0), math.atan2(-B[1], x - B[0])


def slider_crank(
    theta0: float = 0.0,
    profile: Any = None,
    k: float = 20.0,
    x0: float = 1.5,
    redundant: bool = False,
    settings: dict[str, Any] | None = None,
) -> Model:
    """Crank r = 0.5 m, rod l = 1.5 m, slider (1 kg) on the x axis, all links 1 kg; the
    rotational driver on the crank pivot prescribes crank angle - theta0 = profile(t)
    (default pi t); a spring k [N/m] along the guide, force -k (x - x0).

    ``redundant=False``: crank pin spherical, rod-slider pin universal (18 independent
    equations); ``True``: all pins revolute (21 equations, rank 18)."""
    r, l = 0.5, 1.5
    B, C, phi = slider_crank_geometry(theta0, r, l)
    e = (C[0] - B[0], C[1] - B[1])
    n = (-e[1] / l, e[0] / l)
    if redundant:
        pins = [_revolute_z("crank_pin", "crank", "rod", B), _revolute_z("rod_pin", "rod", "slider", C)]
    else:
        pins = [
            {
                "name": "crank_pin",
                "type": "spherical",
                "body_i": "crank",
                "body_j": "rod",
                "frame": {"origin": [B[0], B[1], 0.0]},
            },
            {
                "name": "rod_pin",
                "type": "universal",
                "body_i": "rod",
                "body_j": "slider",
                "frame": {
                    "origin": [C[0], C[1], 0.0],
                    "z_axis": [e[0] / l, e[1] / l, 0.0],
                    "x_axis": [n[0], n[1], 0.0],
                },
            },
        ]
    anchor = -1.0
    return from_dict(
        {
            "name": "slider_crank",
            "gravity": [0, -9.81, 0],
            "bodies": [
                _rod("crank", 1.0, r, (0, 0), theta0),
                _rod("rod", 1.0, l, B, phi),
                {"name": "slider", "mass": 1.0, "inertia": [0.01, 0.01, 0.01], "position": [C[0], 0, 0]},
            ],
            "joints": [_revolute_z("crank_pivot", "ground", "crank", (0, 0))]
            + pins
            + [
                {
                    "name": "guide",
                    "type": "prismatic",
                    "body_i": "ground",
                    "body_j": "slider",
                    "frame": {"origin": [C[0], 0, 0], "z_axis": [1, 0, 0], "x_axis": [0, 1, 0]},
                }
            ],
            "forces": [
                {
                    "name": "spring",
                    "type": "spring_damper",
                    "body_i": "ground",
                    "point_i": [anchor, 0, 0],
                    "body_j": "slider",
                    "point_j": [C[0], 0, 0],
                    "stiffness": k,
                    "damping": 0.0,
                    "free_length": x0 - anchor,
                }
            ],
            "drivers": [
                {
                    "name": "motor",
                    "type": "rotational",
                    "joint": "crank_pivot",
                    "profile": profile if profile is not None else {"type": "constant_speed", "speed": math.pi},
                }
            ],
            "settings": dict(settings or {}),
        }
    )


def four_bar_geometry(
    theta2: float, d: float = 1.0, a: float = 0.3, b: float = 1.0, c: float = 0.8
) -> tuple[Point, Point, float, float]:
    """Crank tip A, coupler-rocker pin B (open branch), coupler and rocker angles [rad]."""
    A = (a * math.cos(theta2), a * math.sin(theta2))
    dx, dy = d - A[0], -A[1]
    s = math.hypot(dx, dy)
    p = (b * b - c * c + s * s) / (2 * s)
    hgt = math.sqrt(b * b - p * p)
    ux, uy = dx / s, dy / s
    B = (A[0] + p * ux - hgt * uy, A[1] + p * uy + hgt * ux)
    return A, B, math.atan2(B[1] - A[1], B[0] - A[0]), math.atan2(B[1], B[0] - d)


def four_bar(
    theta2: float = FOUR_BAR_CRANK_ANGLE,
    speed: float | None = None,
    settings: dict[str, Any] | None = None,
    d: float = 1.0,
    a: float = 0.3,
    b: float = 1.0,
    c: float = 0.8,
) -> Model:
    """Four-bar with four parallel-axis revolutes (20 equations, rank 17: three redundant):
    ground d, crank a (0.5 kg), coupler b (1 kg), rocker c (0.8 kg) [m]. ``speed``
    [rad/s]: a rotational driver turns the crank at constant speed; None: free motion
    under gravity from rest."""
    A, B, th3, th4 = four_bar_geometry(theta2, d, a, b, c)
    model = {
        "name": "four_bar",
        "gravity": [0, -9.81, 0],
        "bodies": [
            _rod("crank", 0.5, a, (0, 0), theta2),
            _rod("coupler", 1.0, b, A, th3),
            _rod("rocker", 0.8, c, (d, 0), th4),
        ],
        "joints": [
            _revolute_z("crank_pivot", "ground", "crank", (0, 0)),
            _revolute_z("crank_coupler", "crank", "coupler", A),
            _revolute_z("coupler_rocker", "coupler", "rocker", B),
            _revolute_z("rocker_pivot", "ground", "rocker", (d, 0)),
        ],
        "settings": dict(settings or {}),
    }
    if speed is not None:
        model["drivers"] = [
            {
                "name": "motor",
                "type": "rotational",
                "joint": "crank_pivot",
                "profile": {"type": "constant_speed", "speed": speed},
            }
        ]
    return from_dict(model)
