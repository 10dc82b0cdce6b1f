"""Joint frames from picked geometry (sub-elements of parts), in global mm.

A pick is ``(root, subname)`` as FreeCAD's selection reports it with full paths
(``Gui.Selection.getSelectionEx("", 0)``): ``root`` a top-level object, ``subname`` the path
to an element, e.g. ``"Face3"`` or ``"Part.Cylinder.Edge2"``. Each element gives:

* circular edge (circle or arc): origin = centre, axis = circle axis;
* straight edge: origin = midpoint, axis = edge direction;
* cylindrical or conical face: axis = cylinder axis, origin = face centroid projected on it;
* planar face: axis = outward normal, origin = face centroid;
* spherical face: origin = sphere centre (no axis);
* vertex: origin = the point (no axis).

A joint's frame: origin from the first pick, z from the first pick having an axis; for a
universal joint the two picks' axes are the cross axes (frame x on body 1, y on body 2).
Joint types whose catalogue record says ``needs_axis`` need an axis: otherwise :class:`CadError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..solver.catalog import JOINT_TYPES, JOINTS
from .errors import CadError
from .makers import check_part, make_body, make_joint
from .objects import body_of_part, find_objects
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


# ----------------------------------------------------------------------------- picks
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


def pick_part(
    root: App.DocumentObject, subname: str, known_parts: Sequence[App.DocumentObject] = ()
) -> App.DocumentObject:
    """The object a pick belongs to as a part: one of ``known_parts`` on its path if any
    (outermost first), else the PartDesign Body holding the leaf feature, else the leaf."""
    path = [o for o in root.getSubObjectList(subname) if o is not None]
    for obj in path:
        if obj in known_parts:
            return obj
    leaf = path[-1] if path else root
    parent = path[-2] if len(path) >= 2 else None
    if parent is not None and parent.TypeId == "PartDesign::Body":
        return parent
    for body in getattr(leaf, "InList", []):
        if body.TypeId == "PartDesign::Body" and leaf in getattr(body, "Group", []):
            return body
    return leaf


def element_name(subname: str) -> str:
    """'Face3' from 'Part.Box.Face3'."""
    return subname.rsplit(".", 1)[-1]


def describe_pick(part: App.DocumentObject, subname: str) -> str:
    return "%s of %s" % (element_name(subname) or "shape", part.Label)


def pick_frame(
    root: App.DocumentObject, subname: str, known_parts: Sequence[App.DocumentObject] = ()
) -> tuple[App.DocumentObject, ElementFrame]:
    """(part object, ElementFrame) of one pick."""
    part = pick_part(root, subname, known_parts)
    if not element_name(subname):
        raise CadError("%s: pick a vertex, an edge or a face, not the whole object" % part.Label)
    return part, element_frame(pick_shape(root, subname), describe_pick(part, subname))


def make_joint_from_picks(
    doc: App.Document,
    jtype: str,
    picks: Sequence[tuple[App.DocumentObject, str]],
    label: str | None = None,
    simulation: App.DocumentObject | None = None,
) -> App.DocumentObject:
    """A joint of type ``jtype`` from one pick (joint to the ground) or two picks on two
    parts; parts without a Body get one (steel). Everything is checked before anything is
    created, so on CadError the document is unchanged."""
    name = label or jtype.capitalize()
    if not 1 <= len(picks) <= 2:
        raise CadError(
            "joint '%s': select one element (joint to the ground) or two elements on two "
            "different parts, got %d" % (name, len(picks))
        )
    known = [b.Part for b in find_objects(doc, "Body") if b.Part is not None]
    resolved = [pick_frame(root, sub, known) for root, sub in picks]
    parts = [p for p, _ in resolved]
    if len(parts) == 2 and parts[0] == parts[1]:
        raise CadError(
            "joint '%s': both picked elements are on the same part '%s' (a joint needs two "
            "different parts)" % (name, parts[0].Label)
        )
    frame = frame_from_elements(jtype, [f for _, f in resolved], "joint '%s'" % name)
    bodies = [body_of_part(doc, p) for p in parts]
    for part, body in zip(parts, bodies):
        if body is None:
            check_part(part)
    if jtype not in JOINT_TYPES:
        raise CadError("joint '%s': unknown joint type %r (one of %s)" % (name, jtype, ", ".join(JOINT_TYPES)))
    bodies = [b if b is not None else make_body(doc, p, simulation=simulation) for b, p in zip(bodies, parts)]
    body1, body2 = (None, bodies[0]) if len(bodies) == 1 else bodies
    refs = [f.description for _, f in resolved]
    refs = ["ground"] + refs if len(refs) == 1 else refs
    obj = make_joint(doc, jtype, body1, body2, frame, label=label, references=tuple(refs), simulation=simulation)
    if JOINTS[jtype].parameters:  # a coupler: each pick's own frame (radii or pitch: set by the user)
        obj.Frame2 = frame_from_elements(jtype, [f for _, f in resolved][-1:], "joint '%s'" % name)
    return obj
