"""Geometry of a model at its initial configuration, in one place for validation and for
:class:`..system.system.System`: joint frames and anchors, axis angles and distances, coupler
coefficients, initial poses, point masses and the constraint rows of a joint.

All quantities are SI (m, rad).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ModelError
from ..numerics import quaternion
from ..numerics.joints import DP2, ROW_ROTATION_ONLY, ROW_TURNS
from .catalog import JOINTS
from .limits import MIN_AXIS_NORM
from .schema import GROUND, Body, Frame, Joint, Model


def axis_angle(model: Model, j: Joint) -> float:
    """Angle [rad] between the z axes of joint j's two frames at the initial configuration."""
    z_i, z_j = _global_frame(model, j, "i")[1], _global_frame(model, j, "j")[1]
    return float(np.arccos(np.clip(np.dot(z_i, z_j), -1.0, 1.0)))


def _global_frame(model: Model, j: Joint, side: str) -> tuple[np.ndarray, np.ndarray]:
    """(origin [m], unit z axis) of joint j's frame on ``side`` at the initial configuration."""
    if j.frame is not None:
        return np.asarray(j.frame.origin, float), frame_axes(j.frame)[2]
    fr, body = getattr(j, "frame_" + side), getattr(j, "body_" + side)
    r, A = initial_pose(model, body)
    return r + A @ np.asarray(fr.origin, float), A @ frame_axes(fr)[2]


def axis_distance(model: Model, j: Joint) -> float:
    """Distance [m] of the frame origin on body_j from the z axis of the frame on body_i at the
    initial configuration."""
    o_i, z_i = _global_frame(model, j, "i")
    d = _global_frame(model, j, "j")[0] - o_i
    return float(np.linalg.norm(d - np.dot(d, z_i) * z_i))


def coupler_coefficients(j: Joint) -> tuple[float, float]:
    """(k_1, k_2) of a coupler joint's row (joints.GEAR, joints.LEAD): k_1 s_1 + k_2 s_2 = const
    in metres, s the orbit angles (gear, belt) or the translation and the rotation (rack, screw)."""
    if j.type == "gear":
        return j.radius_i, j.radius_j
    if j.type == "belt":
        return j.radius_i, -j.radius_j
    if j.type == "rack_pinion":
        return 1.0, j.radius
    return 1.0, -j.pitch / (2.0 * math.pi)


def initial_pose(model: Model, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(position [m], rotation matrix of its own frame) of a body, or the ground, at the
    initial configuration."""
    if name == GROUND:
        return np.zeros(3), np.eye(3)
    b = model.body(name)
    return np.asarray(b.position, float), quaternion.matrices(np.asarray(b.orientation, float))


def distance_anchors(model: Model, j: Joint) -> tuple[np.ndarray, np.ndarray]:
    """Global anchor points (p_i, p_j) [m] of a distance joint at the initial configuration:
    the origins of frame_i and frame_j, or the origin of the global frame (on body_i) and
    point_j (on body_j; default: body_j's centre of gravity)."""
    if j.frame is None:
        return tuple(_local_to_global(model, b, fr.origin) for b, fr in ((j.body_i, j.frame_i), (j.body_j, j.frame_j)))
    p_j = initial_pose(model, j.body_j)[0] if j.point_j is None else np.asarray(j.point_j, float)
    return np.asarray(j.frame.origin, float), p_j


def _local_to_global(model: Model, name: str, local) -> np.ndarray:
    r, A = initial_pose(model, name)
    return r + A @ np.asarray(local, float)


def joint_anchor(model: Model, j: Joint, side: str) -> np.ndarray:
    """Global point [m] at which joint j attaches to its body on ``side`` ('i' or 'j') at the
    initial configuration: its frame origin (distance joints: :func:`distance_anchors`)."""
    if j.type == "distance":
        return distance_anchors(model, j)[side == "j"]
    if j.frame is not None:
        return np.asarray(j.frame.origin, float)
    return _local_to_global(model, getattr(j, "body_" + side), getattr(j, "frame_" + side).origin)


# ----------------------------------------------------------------------------- point masses
def is_point_mass(model: Model, name: str) -> bool:
    """Whether ``name`` is a moving point mass (a grounded one is as fixed as the ground)."""
    if name == GROUND:
        return False
    b = model.body(name)
    return b.point_mass and not b.grounded


def _never_turns(model: Model, name: str) -> bool:
    """The ground, a grounded body or a point mass: its orientation is constant."""
    return name == GROUND or model.body(name).grounded or model.body(name).point_mass


def body_dofs(body: Body) -> int:
    """Degrees of freedom of a moving body: 6, or 3 for a point mass."""
    return 3 if body.point_mass else 6


def turned_point_masses(model: Model, j: Joint, spec: tuple) -> list[str]:
    """The point masses of joint j whose rotation the row ``spec`` depends on."""
    sides = ROW_TURNS[spec[0]]
    return [getattr(j, "body_" + s) for s in sides if is_point_mass(model, getattr(j, "body_" + s))]


def joint_rows(model: Model, j: Joint, path: str = "joint") -> tuple[int, ...]:
    """Indices (into its type's rows) of the equations of joint j that the solver keeps: all of
    them, except equations between the orientations of two bodies that never turn (ground,
    grounded bodies, point masses) when a point mass is involved: those hold for all time.
    Raises ModelError if an equation would turn a point mass."""
    rows = JOINTS[j.type].rows
    both_fixed = _never_turns(model, j.body_i) and _never_turns(model, j.body_j)
    kept = []
    for k, spec in enumerate(rows):
        turned = turned_point_masses(model, j, spec)
        if not turned:
            kept.append(k)
        elif not (both_fixed and spec[0] in ROW_ROTATION_ONLY):
            raise ModelError(path, f"joint '{j.name}' ({j.type}) {_turn_message(j, spec, turned[0])}")
    return tuple(kept)


def _turn_message(j: Joint, spec: tuple, body: str) -> str:
    hint = (
        "make the point mass body_j: the plane or axis of the joint is carried by body_i"
        if spec[0] == DP2 and body == j.body_i
        else "a point mass takes spherical and distance joints, and joints to bodies that never turn "
        "(ground, grounded bodies, point masses)"
    )
    return f"would turn point mass '{body}', which has no rotation; {hint}"


def frame_axes(fr: Frame, path: str = "frame", what: str = "joint") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Orthonormal (x, y, z) of a Frame; x defaults to a vector perpendicular to z."""
    z = np.asarray(fr.z_axis, dtype=float)
    nz = np.linalg.norm(z)
    if not np.isfinite(nz) or nz < MIN_AXIS_NORM:
        raise ModelError(f"{path}.z_axis", f"{what}: degenerate (zero-length) z axis")
    z = z / nz
    if fr.x_axis is None:
        x = np.cross(z, [1.0, 0.0, 0.0] if abs(z[0]) < 0.9 else [0.0, 1.0, 0.0])
    else:
        x = np.asarray(fr.x_axis, dtype=float)
        x = x - np.dot(x, z) * z
    nx = np.linalg.norm(x)
    if nx < 1e-9:
        raise ModelError(f"{path}.x_axis", f"{what}: x axis is zero or parallel to the z axis")
    x = x / nx
    return x, np.cross(z, x), z
