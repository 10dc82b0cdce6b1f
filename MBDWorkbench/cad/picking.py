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
Joint types other than spherical and fixed need an axis: otherwise :class:`CadError`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from .mass_properties import CadError

NEEDS_AXIS = ("revolute", "prismatic", "cylindrical", "planar", "universal")
_PARALLEL_TOL = 1e-6


@dataclass
class ElementFrame:
    """What one picked element gives: origin [mm], unit axis or None, a description."""
    kind: str
    origin: np.ndarray
    axis: Optional[np.ndarray]
    description: str


def _vec(v):
    return np.array([v.x, v.y, v.z], dtype=float)


def _unit(v, what):
    v = np.asarray(v, float)
    n = np.linalg.norm(v)
    if not np.isfinite(n) or n < 1e-12:
        raise CadError("%s: degenerate (zero-length) axis" % what)
    return v / n


def element_frame(shape, description="element"):
    """ElementFrame of a global sub-shape (Vertex, Edge or Face); CadError if unusable."""
    stype = shape.ShapeType
    if stype == "Vertex":
        return ElementFrame("vertex", _vec(shape.Point), None, description)
    if stype == "Edge":
        return _edge_frame(shape, description)
    if stype == "Face":
        return _face_frame(shape, description)
    raise CadError("%s: a %s cannot define a joint frame; pick a vertex, an edge or a face"
                   % (description, stype))


def _edge_frame(edge, description):
    curve = edge.Curve
    name = type(curve).__name__
    if name in ("Circle", "ArcOfCircle"):
        return ElementFrame("circular edge", _vec(curve.Center), _unit(_vec(curve.Axis), description), description)
    if name in ("Line", "LineSegment"):
        a, b = edge.Vertexes[0].Point, edge.Vertexes[-1].Point
        return ElementFrame("straight edge", (_vec(a) + _vec(b)) / 2, _unit(_vec(b) - _vec(a), description),
                            description)
    raise CadError("%s: a %s edge has no joint axis; pick a circular or straight edge" % (description, name))


def _face_frame(face, description):
    surf = face.Surface
    name = type(surf).__name__
    centroid = _vec(face.CenterOfMass)
    if name == "Plane":
        u0, u1, v0, v1 = face.ParameterRange
        n = face.normalAt((u0 + u1) / 2, (v0 + v1) / 2)
        return ElementFrame("planar face", centroid, _unit(_vec(n), description), description)
    if name in ("Cylinder", "Cone"):
        axis = _unit(_vec(surf.Axis), description)
        base = _vec(surf.Apex if name == "Cone" else surf.Center)
        origin = base + np.dot(centroid - base, axis) * axis
        return ElementFrame("%s face" % ("cylindrical" if name == "Cylinder" else "conical"), origin, axis,
                            description)
    if name == "Sphere":
        return ElementFrame("spherical face", _vec(surf.Center), None, description)
    raise CadError("%s: a %s face has no joint axis; pick a planar, cylindrical or spherical face, "
                   "a circular edge or a vertex" % (description, name))


def placement_from_axes(origin, z, x=None):
    """App.Placement at ``origin`` [mm] whose z axis is ``z`` and x axis ``x`` (made
    orthogonal to z; default: a vector perpendicular to z)."""
    import FreeCAD as App
    z = _unit(z, "joint frame")
    if x is None:
        x = np.cross(z, [1.0, 0.0, 0.0] if abs(z[0]) < 0.9 else [0.0, 1.0, 0.0])
    x = np.asarray(x, float) - np.dot(x, z) * z
    x = _unit(x, "joint frame x axis")
    y = np.cross(z, x)
    m = App.Matrix()
    for col, v in enumerate((x, y, z)):
        m.setCol(col, App.Vector(*v))
    m.setCol(3, App.Vector(*[float(c) for c in origin]))
    return App.Placement(m)


def adjusted_frame(base, flip=False, offset_mm=0.0, rotation_deg=0.0):
    """``base`` (App.Placement) flipped about its x axis (z reversed), moved ``offset_mm``
    along its (new) z axis and turned ``rotation_deg`` about it."""
    import FreeCAD as App
    local = App.Placement()
    if flip:
        local = local.multiply(App.Placement(App.Vector(), App.Rotation(App.Vector(1, 0, 0), 180)))
    local = local.multiply(App.Placement(App.Vector(0, 0, float(offset_mm)), App.Rotation(App.Vector(0, 0, 1),
                                                                                         float(rotation_deg))))
    return App.Placement(base).multiply(local)


def placement_axes(placement):
    """(origin [mm], x, y, z) numpy arrays of an App.Placement."""
    import FreeCAD as App
    r = placement.Rotation
    axes = [_vec(r.multVec(App.Vector(*e))) for e in np.eye(3)]
    return (_vec(placement.Base),) + tuple(axes)


def frame_from_elements(jtype, frames, label="joint"):
    """App.Placement of a joint of type ``jtype`` from one or two ElementFrames."""
    if not frames:
        raise CadError("%s: no geometry picked" % label)
    origin = frames[0].origin
    axes = [f for f in frames if f.axis is not None]
    picked = ", ".join("%s (%s)" % (f.description, f.kind) for f in frames)
    if jtype == "universal":
        if len(axes) < 2:
            raise CadError("%s (universal): needs an axis on each part (the two cross axes); "
                           "the picked geometry %s has %d" % (label, picked, len(axes)))
        x, y = axes[0].axis, axes[1].axis
        z = np.cross(x, y)
        if np.linalg.norm(z) < _PARALLEL_TOL:
            raise CadError("%s (universal): the two cross axes are parallel (%s)" % (label, picked))
        return placement_from_axes(origin, z, x)
    if not axes:
        if jtype in NEEDS_AXIS:
            raise CadError("%s (%s): the picked geometry %s has no axis; pick a circular edge, a "
                           "straight edge, a cylindrical face or a planar face" % (label, jtype, picked))
        return placement_from_axes(origin, [0.0, 0.0, 1.0])
    return placement_from_axes(origin, axes[0].axis)


# ----------------------------------------------------------------------------- picks
def pick_shape(root, subname):
    """The picked element as a global shape (container placements applied)."""
    import Part
    try:
        shape = Part.getShape(root, subname, needSubElement=True)
    except Exception as exc:
        raise CadError("%s: cannot read the picked element %r: %s" % (root.Label, subname, exc)) from exc
    if shape is None or shape.isNull():
        raise CadError("%s: the picked element %r has no geometry" % (root.Label, subname))
    return shape


def pick_part(root, subname, known_parts=()):
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


def element_name(subname):
    """'Face3' from 'Part.Box.Face3'."""
    return subname.rsplit(".", 1)[-1]


def describe_pick(part, subname):
    return "%s of %s" % (element_name(subname) or "shape", part.Label)


def pick_frame(root, subname, known_parts=()):
    """(part object, ElementFrame) of one pick."""
    part = pick_part(root, subname, known_parts)
    if not element_name(subname):
        raise CadError("%s: pick a vertex, an edge or a face, not the whole object" % part.Label)
    return part, element_frame(pick_shape(root, subname), describe_pick(part, subname))


def make_joint_from_picks(doc, jtype, picks, label=None, simulation=None):
    """A joint of type ``jtype`` from one pick (joint to the ground) or two picks on two
    parts; parts without a Body get one (steel). Everything is checked before anything is
    created, so on CadError the document is unchanged."""
    from .objects import JOINT_TYPES, body_of_part, check_part, find_objects, make_body, make_joint
    name = label or jtype.capitalize()
    if not 1 <= len(picks) <= 2:
        raise CadError("joint '%s': select one element (joint to the ground) or two elements on two "
                       "different parts, got %d" % (name, len(picks)))
    known = [b.Part for b in find_objects(doc, "Body") if b.Part is not None]
    resolved = [pick_frame(root, sub, known) for root, sub in picks]
    parts = [p for p, _ in resolved]
    if len(parts) == 2 and parts[0] == parts[1]:
        raise CadError("joint '%s': both picked elements are on the same part '%s' (a joint needs two "
                       "different parts)" % (name, parts[0].Label))
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
    return make_joint(doc, jtype, body1, body2, frame, label=label, references=tuple(refs), simulation=simulation)
