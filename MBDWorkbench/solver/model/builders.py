"""Model-dict pieces for mechanisms drawn in the x-y plane (used by the shipped examples and
the index-3 study's models): slender rods and revolutes about z."""

from __future__ import annotations

import math
from collections.abc import Sequence

THIN = 1e-4  # inertia of a slender rod about its own axis [kg m^2] (no effect in plane)


def rot_z(angle: float) -> list[float]:
    """Quaternion [qw, qx, qy, qz] of a rotation by ``angle`` [rad] about z."""
    return [math.cos(angle / 2), 0.0, 0.0, math.sin(angle / 2)]


def rod(name: str, m: float, L: float, start: Sequence[float], angle: float, thin: float = THIN) -> dict:
    """A uniform slender rod of mass m [kg] and length L [m] from ``start`` along angle
    [rad] in the x-y plane; its own x axis runs along the rod (J = m L^2 / 12 transverse)."""
    c, s = math.cos(angle), math.sin(angle)
    J = m * L * L / 12
    return {
        "name": name,
        "mass": m,
        "inertia": [thin, J, J],
        "position": [start[0] + 0.5 * L * c, start[1] + 0.5 * L * s, 0.0],
        "orientation": rot_z(angle),
    }


def revolute_z(name: str, bi: str, bj: str, origin: Sequence[float]) -> dict:
    """A revolute about global z at ``origin`` ((x, y) or (x, y, z)) [m]."""
    return {
        "name": name,
        "type": "revolute",
        "body_i": bi,
        "body_j": bj,
        "frame": {
            "origin": [origin[0], origin[1], origin[2] if len(origin) > 2 else 0.0],
            "z_axis": [0, 0, 1],
            "x_axis": [1, 0, 0],
        },
    }
