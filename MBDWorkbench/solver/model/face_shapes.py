"""Bounded plane faces as contact shapes (docs/contact.md, "Bounded faces"): a rectangle of a
plane (a slot's wall, a step's tread) against a sphere or a cylinder's side. Unlike a ``plane``
(an unbounded half-space), a point of the other shape counts only while its deepest point
projects into the rectangle and lies at most ``depth`` [m] behind it, so a pin in a slot pushes
on the wall it touches and nothing pushes from beyond the wall's ends or from its far side.

A ``face``: ``center`` [m] (the rectangle's centre), ``normal`` (outward unit normal: the solid
is behind it), ``axis`` (unit, in the plane: the direction of the edges of ``length``),
``length`` and ``width`` [m] (edges along ``axis`` and along normal x axis), ``depth`` [m] (the
deepest penetration counted; half the solid's thickness behind the face is a natural choice).
"""

from __future__ import annotations

import numpy as np

from ..errors import ModelError

FACE_FIELDS = {"type", "center", "normal", "axis", "length", "width", "depth"}
FACE_LENGTHS = ("length", "width", "depth")
IN_PLANE_TOL = 1e-6  # |axis . normal| above this: the axis is not in the face's plane


def check_face(s, path: str, pair: str) -> None:
    """ModelError naming the field: positive sizes, an axis in the face's plane."""
    for key in FACE_LENGTHS:
        if getattr(s, key) <= 0.0:
            raise ModelError(f"{path}.{key}", f"contact '{pair}': a face's {key} must be positive")
    n, u = _unit(s.normal), _unit(s.axis)
    if abs(float(n @ u)) > IN_PLANE_TOL:
        raise ModelError(
            f"{path}.axis", f"contact '{pair}': a face's axis must lie in its plane (axis . normal = {n @ u:.3g})"
        )


def _unit(v) -> np.ndarray:
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def face_frame(face, pose: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(centre [m], outward normal, half edge along the axis [m], half edge along normal x axis
    [m]), global, of a face shape on a body at ``pose`` (position [m], rotation)."""
    r, A = pose
    n, u = A @ _unit(face.normal), A @ _unit(face.axis)
    u = u - float(u @ n) * n
    u /= np.linalg.norm(u)
    centre = r + A @ np.asarray(face.center, float)
    return centre, n, 0.5 * face.length * u, 0.5 * face.width * np.cross(n, u)


def face_penetration(centre, radius: float, axis, face: tuple, depth: float) -> float:
    """The penetration [m] of a sphere (``axis`` None) or a cylinder's slice (centre [m], radius
    [m], unit axis) into a face (:func:`face_frame`), -|d| where it does not count (as
    numerics.contact_forces' FACE element)."""
    c_f, n, half_u, half_v = face
    centre = np.asarray(centre, float)
    rim = n if axis is None else n - float(n @ axis) * np.asarray(axis, float)
    rim_length = float(np.linalg.norm(rim))
    height = float(n @ (centre - c_f))
    if rim_length < 1e-12:
        low, d = centre, -height
    else:
        low, d = centre - radius / rim_length * rim, radius * rim_length - height
    inside = d <= depth and all(abs(float((low - c_f) @ h)) <= float(h @ h) for h in (half_u, half_v))
    return d if inside else -abs(d)
