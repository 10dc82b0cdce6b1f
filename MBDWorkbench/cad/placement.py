"""Placement and frame maths between FreeCAD (App.Placement, App.Rotation, mm) and numpy.

A leaf module: it imports nothing of the workbench but its error class, and FreeCAD only
when called. Lengths in mm (FreeCAD's unit), quaternions as [qw, qx, qy, qz].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .errors import CadError

if TYPE_CHECKING:
    import FreeCAD as App


def as_array(v: App.Vector) -> np.ndarray:
    """numpy (3,) array of an App.Vector (or anything with x, y, z)."""
    return np.array([v.x, v.y, v.z], dtype=float)


def app_vector(x: float, y: float, z: float) -> App.Vector:
    """App.Vector of three floats."""
    import FreeCAD as App

    return App.Vector(float(x), float(y), float(z))


def unit(v: Sequence[float], what: str) -> np.ndarray:
    """``v`` normalised; CadError naming ``what`` when it is zero or not finite."""
    v = np.asarray(v, float)
    n = np.linalg.norm(v)
    if not np.isfinite(n) or n < 1e-12:
        raise CadError("%s: degenerate (zero-length) axis" % what)
    return v / n


def placement_from_axes(origin: Sequence[float], z: Sequence[float], x: Sequence[float] | None = None) -> App.Placement:
    """App.Placement at ``origin`` [mm] whose z axis is ``z`` and x axis ``x`` (made
    orthogonal to z; default: a vector perpendicular to z)."""
    import FreeCAD as App

    z = unit(z, "joint frame")
    if x is None:
        x = np.cross(z, [1.0, 0.0, 0.0] if abs(z[0]) < 0.9 else [0.0, 1.0, 0.0])
    x = np.asarray(x, float) - np.dot(x, z) * z
    x = unit(x, "joint frame x axis")
    y = np.cross(z, x)
    m = App.Matrix()
    for col, v in enumerate((x, y, z)):
        m.setCol(col, App.Vector(*v))
    m.setCol(3, App.Vector(*[float(c) for c in origin]))
    return App.Placement(m)


def adjusted_frame(
    base: App.Placement, flip: bool = False, offset_mm: float = 0.0, rotation_deg: float = 0.0
) -> App.Placement:
    """``base`` (App.Placement) flipped about its x axis (z reversed), moved ``offset_mm``
    along its (new) z axis and turned ``rotation_deg`` about it."""
    import FreeCAD as App

    local = App.Placement()
    if flip:
        local = local.multiply(App.Placement(App.Vector(), App.Rotation(App.Vector(1, 0, 0), 180)))
    local = local.multiply(
        App.Placement(App.Vector(0, 0, float(offset_mm)), App.Rotation(App.Vector(0, 0, 1), float(rotation_deg)))
    )
    return App.Placement(base).multiply(local)


def placement_axes(placement: App.Placement) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(origin [mm], x, y, z) numpy arrays of an App.Placement."""
    import FreeCAD as App

    r = placement.Rotation
    axes = [as_array(r.multVec(App.Vector(*e))) for e in np.eye(3)]
    return (as_array(placement.Base),) + tuple(axes)


def rotation_matrix(rotation: App.Rotation) -> np.ndarray:
    """3x3 numpy matrix of an App.Rotation."""
    import FreeCAD as App

    cols = [rotation.multVec(App.Vector(*e)) for e in np.eye(3)]
    return np.array([[c.x, c.y, c.z] for c in cols]).T


def quaternion_wxyz(rotation: App.Rotation) -> list[float]:
    """[qw, qx, qy, qz] of an App.Rotation (FreeCAD's Q is (x, y, z, w))."""
    x, y, z, w = rotation.Q
    return [float(w), float(x), float(y), float(z)]


def placement_from_pose(position_mm: Sequence[float], quat_wxyz: Sequence[float]) -> App.Placement:
    """App.Placement from a position [mm] and a quaternion [qw, qx, qy, qz]."""
    import FreeCAD as App

    w, x, y, z = (float(v) for v in quat_wxyz)
    return App.Placement(App.Vector(*[float(c) for c in position_mm]), App.Rotation(x, y, z, w))
