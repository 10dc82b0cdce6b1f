"""Joint frames of CAD elements (vertices, edges, faces), in global mm: the geometry rules of
joint frames, used by the picking commands (:mod:`.picking`) and by parametric joints, which
recompute their frames from their referenced elements (:mod:`.joint_references`).

Each element gives:

* circular edge (circle or arc): origin = centre, axis = circle axis;
* straight edge: origin = midpoint, axis = edge direction;
* cylindrical or conical face: axis = cylinder axis, origin = face centroid projected on it;
* planar face: axis = outward normal, origin = face centroid;
* spherical face: origin = sphere centre (no axis);
* vertex: origin = the point (no axis).

A joint's frame: origin from the first element, z from the first element having an axis; for a
universal joint the two elements' axes are the cross axes (frame x on body 1, y on body 2).
Joint types whose catalogue record says ``needs_axis`` need an axis: otherwise :class:`CadError`.
A leaf module: it imports nothing of the document objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..solver.model.catalog import JOINTS
from .errors import CadError
from .placement import as_array, placement_from_axes, unit

if TYPE_CHECKING:
    import FreeCAD as App
    import Part

_PARALLEL_TOL = 1e-6


@dataclass
class ElementFrame:
    """What one picked element gives: origin [mm], unit axis or None, a description."""

    kind: str
    origin: np.ndarray
    axis: np.ndarray | None
    description: str


def element_frame(shape: Part.Shape, description: str = "element") -> ElementFrame:
    """ElementFrame of a global sub-shape (Vertex, Edge or Face); CadError if unusable."""
    stype = shape.ShapeType
    if stype == "Vertex":
        return ElementFrame("vertex", as_array(shape.Point), None, description)
    if stype == "Edge":
        return _edge_frame(shape, description)
    if stype == "Face":
        return _face_frame(shape, description)
    raise CadError("%s: a %s cannot define a joint frame; pick a vertex, an edge or a face" % (description, stype))


def _edge_frame(edge, description):
    curve = edge.Curve
    name = type(curve).__name__
    if name in ("Circle", "ArcOfCircle"):
        axis = unit(as_array(curve.Axis), description)
        return ElementFrame("circular edge", as_array(curve.Center), axis, description)
    if name in ("Line", "LineSegment"):
        a, b = edge.Vertexes[0].Point, edge.Vertexes[-1].Point
        axis = unit(as_array(b) - as_array(a), description)
        return ElementFrame("straight edge", (as_array(a) + as_array(b)) / 2, axis, description)
    raise CadError("%s: a %s edge has no joint axis; pick a circular or straight edge" % (description, name))


def _face_frame(face, description):
    surf = face.Surface
    name = type(surf).__name__
    centroid = as_array(face.CenterOfMass)
    if name == "Plane":
        u0, u1, v0, v1 = face.ParameterRange
        n = face.normalAt((u0 + u1) / 2, (v0 + v1) / 2)
        return ElementFrame("planar face", centroid, unit(as_array(n), description), description)
    if name in ("Cylinder", "Cone"):
        axis = unit(as_array(surf.Axis), description)
        base = as_array(surf.Apex if name == "Cone" else surf.Center)
        origin = base + np.dot(centroid - base, axis) * axis
        return ElementFrame("%s face" % ("cylindrical" if name == "Cylinder" else "conical"), origin, axis, description)
    if name == "Sphere":
        return ElementFrame("spherical face", as_array(surf.Center), None, description)
    raise CadError(
        "%s: a %s face has no joint axis; pick a planar, cylindrical or spherical face, "
        "a circular edge or a vertex" % (description, name)
    )


def frame_from_elements(jtype: str, frames: Sequence[ElementFrame], label: str = "joint") -> App.Placement:
    """App.Placement of a joint of type ``jtype`` from one or two ElementFrames."""
    if not frames:
        raise CadError("%s: no geometry picked" % label)
    origin = frames[0].origin
    axes = [f for f in frames if f.axis is not None]
    picked = ", ".join("%s (%s)" % (f.description, f.kind) for f in frames)
    if jtype == "universal":
        if len(axes) < 2:
            raise CadError(
                "%s (universal): needs an axis on each part (the two cross axes); "
                "the picked geometry %s has %d" % (label, picked, len(axes))
            )
        x, y = axes[0].axis, axes[1].axis
        z = np.cross(x, y)
        if np.linalg.norm(z) < _PARALLEL_TOL:
            raise CadError("%s (universal): the two cross axes are parallel (%s)" % (label, picked))
        return placement_from_axes(origin, z, x)
    if not axes:
        if jtype in JOINTS and JOINTS[jtype].needs_axis:
            raise CadError(
                "%s (%s): the picked geometry %s has no axis; pick a circular edge, a "
                "straight edge, a cylindrical face or a planar face" % (label, jtype, picked)
            )
        return placement_from_axes(origin, [0.0, 0.0, 1.0])
    return placement_from_axes(origin, axes[0].axis)


def pick_shape(root: App.DocumentObject, subname: str) -> Part.Shape:
    """The picked element as a global shape (container placements applied)."""
    import Part

    try:
        shape = Part.getShape(root, subname, needSubElement=True)
    except Exception as exc:
        raise CadError("%s: cannot read the picked element %r: %s" % (root.Label, subname, exc)) from exc
    if shape is None or shape.isNull():
        raise CadError("%s: the picked element %r has no geometry" % (root.Label, subname))
    return shape


def element_name(subname: str) -> str:
    """'Face3' from 'Part.Box.Face3'."""
    return subname.rsplit(".", 1)[-1]
