"""Contact objects -> the model's contact pairs (docs/contact.md, "Contact in FreeCAD"), in SI.

Each side of a pair is a body's whole solid or one face of its part, read in the body's own
frame (about its centre of gravity, axes of the part's placement):

* a picked plane face -> ``plane`` (a point of the face, its outward normal); with the object's
  BoundedFaces, a rectangular plane face -> ``face`` (:mod:`.bounded_faces`);
* a picked sphere face, or a solid that is a whole sphere -> ``sphere``;
* a solid of six plane faces forming a box with edges along the body's axes -> ``box``;
* a picked (convex, full) cylinder face, or a solid cylinder -> ``cylinder`` (center of its
  axis segment [m], unit axis, radius [m], length [m]);
* a picked (convex, full) cone face, or a solid cone (its base and top discs, or an apex) ->
  ``cone`` (center of its axis segment [m], unit axis, radius1 and radius2 [m] at its two ends
  along the axis, length [m]);
* a picked full torus face, or a solid torus -> ``torus`` (center [m], unit axis, major_radius
  and minor_radius [m]);
* anything else (partial cones or tori, holes, freeform faces, other solids) -> ``mesh``: the
  part's closed solid tessellated with the object's Deflection (vertices [m] in the body frame,
  triangles as vertex indices).

A pair of shapes that no exact kind handles (a box against a cylinder, a torus against a box, ...)
gets the object's Deflection as its ``deflection``: the solver tessellates its analytic shapes
(solver/model/tessellation.py) and warns.

mm -> m happens here. Errors (:class:`CadError`) name the contact object and the part or
face: a shape that is not a closed solid, a tessellation beyond the memory bound, a face the
part does not have, a body that is not in the model, a shape kind the solver does not handle.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import numpy as np

from ..solver.errors import ModelError
from ..solver.model.contacts import PAIRS, SHAPE_FIELDS, parse_contacts
from ..solver.numerics import quaternion
from .bounded_faces import bounded_face
from .contact_objects import contact_sides
from .contact_shapes import classify_faces, contact_mesh, require_closed_solid
from .errors import CadError
from .mass_properties import global_shape

if TYPE_CHECKING:
    import FreeCAD as App

    from ..solver.model import Body
    from ..solver.model.contacts import Contact

MM = 1e-3
ALIGNED = 1e-9  # |1 - |n . e_i|| below this: a face normal along a body axis
SAME = 1e-7  # relative agreement of volumes, areas and radii that identifies a box, sphere, cylinder
# contact-pair field -> the Contact object's property, for messages
FIELD_PROPERTIES = {
    "shape_a": "Body1/Face1",
    "shape_b": "Body2/Face2",
    "body_b": "Body2",
    "stiffness": "Stiffness",
    "exponent": "Exponent",
    "restitution": "Restitution",
    "law": "Law",
    "mu_s": "StaticFriction",
    "mu_k": "KineticFriction",
    "slip_speed": "SlipSpeed",
    "friction_law": "FrictionLaw",
    "material_a": "Material1",
    "material_b": "Material2",
    "penetration_tol": "PenetrationTolerance",
}


class BodyFrame:
    """A model body's own frame: origin [mm, global] and rotation (its axes as columns)."""

    def __init__(self, body: Body) -> None:
        self.origin_mm = np.asarray(body.position, float) / MM
        self.rotation = quaternion.matrix(np.asarray(body.orientation, float))

    def point(self, v) -> np.ndarray:
        """A global point [mm] (App.Vector) in the body frame [m]."""
        return self.rotation.T @ (np.array([v.x, v.y, v.z]) - self.origin_mm) * MM


# ----------------------------------------------------------------------------- shapes
def _sphere(faces: list, shape) -> dict | None:
    """A solid made of sphere faces of one centre and radius covering the whole sphere."""
    if not faces or any(f.kind != "sphere" for f in faces):
        return None
    c, r = faces[0].params["center"], faces[0].params["radius"]
    same = all(
        np.allclose(f.params["center"], c, atol=SAME * r) and abs(f.params["radius"] - r) <= SAME * r for f in faces
    )
    if not same or abs(shape.Volume * MM**3 - 4.0 / 3.0 * math.pi * r**3) > 1e-6 * r**3:
        return None
    return {"type": "sphere", "center": c.tolist(), "radius": r}


def _box(faces: list, shape) -> dict | None:
    """A solid of six plane faces whose normals lie along the body's axes, two per axis."""
    if len(faces) != 6 or any(f.kind != "plane" for f in faces):
        return None
    lo, hi = np.full(3, np.nan), np.full(3, np.nan)
    for f in faces:
        n = f.params["normal"]
        axis = int(np.argmax(np.abs(n)))
        if abs(1.0 - abs(n[axis])) > ALIGNED:
            return None
        (hi if n[axis] > 0 else lo)[axis] = f.params["point"][axis]
    size = hi - lo
    if np.isnan(size).any() or min(size) <= 0 or abs(shape.Volume * MM**3 - np.prod(size)) > SAME * np.prod(size):
        return None
    return {"type": "box", "center": (0.5 * (lo + hi)).tolist(), "size": size.tolist()}


def _cylinder_face(face, record, frame: BodyFrame) -> dict | None:
    """The cylinder of a convex cylinder face going all the way round: its axis segment."""
    u0, u1, v0, v1 = face.ParameterRange
    if not record.convex or abs(u1 - u0 - 2.0 * math.pi) > 1e-9:
        return None
    axis = record.params["axis"]
    ends = [frame.point(face.valueAt(u0, v)) for v in (v0, v1)]
    along = [float(np.dot(p - record.params["point"], axis)) for p in ends]
    center = record.params["point"] + axis * 0.5 * sum(along)
    return {
        "type": "cylinder",
        "center": center.tolist(),
        "axis": axis.tolist(),
        "radius": record.params["radius"],
        "length": abs(along[1] - along[0]),
    }


def _capped_side(faces: list, kind: str, caps_allowed: tuple[int, ...]):
    """The one face of ``kind`` (a cylinder or a cone) of a solid made of it and plane caps across
    its axis (their number in ``caps_allowed``); None for any other solid."""
    sides = [f for f in faces if f.kind == kind]
    caps = [f for f in faces if f.kind == "plane"]
    if len(sides) != 1 or len(caps) not in caps_allowed or len(faces) != 1 + len(caps):
        return None
    axis = sides[0].params["axis"]
    if any(abs(1.0 - abs(np.dot(c.params["normal"], axis))) > ALIGNED for c in caps):
        return None
    return sides[0]


def _cylinder(faces: list, shape, frame: BodyFrame) -> dict | None:
    """A solid cylinder: one full cylinder face and two plane faces across its axis."""
    side = _capped_side(faces, "cylinder", (2,))
    if side is None:
        return None
    cylinder = _cylinder_face(shape.Faces[side.index], side, frame)
    if cylinder is None:
        return None
    volume = math.pi * cylinder["radius"] ** 2 * cylinder["length"]
    return cylinder if abs(shape.Volume * MM**3 - volume) <= SAME * volume else None


def _full_turn(span: float) -> bool:
    return abs(span - 2.0 * math.pi) <= 1e-9


def _torus_face(face, record) -> dict | None:
    """The torus of a torus face going all the way round both ways (a whole ring)."""
    u0, u1, v0, v1 = face.ParameterRange
    if not (_full_turn(u1 - u0) and _full_turn(v1 - v0)):
        return None
    p = record.params
    return {
        "type": "torus",
        "center": p["center"].tolist(),
        "axis": p["axis"].tolist(),
        "major_radius": p["major_radius"],
        "minor_radius": p["minor_radius"],
    }


def _torus(faces: list, shape) -> dict | None:
    """A solid torus: one whole torus face, of volume 2 pi^2 R r^2."""
    if len(faces) != 1 or faces[0].kind != "torus":
        return None
    torus = _torus_face(shape.Faces[faces[0].index], faces[0])
    if torus is None:
        return None
    volume = 2.0 * math.pi**2 * torus["major_radius"] * torus["minor_radius"] ** 2
    return torus if abs(shape.Volume * MM**3 - volume) <= SAME * volume else None


def _cone_face(face, record, frame: BodyFrame) -> dict | None:
    """The cone of a convex cone face going all the way round: its axis segment and end radii."""
    u0, u1, v0, v1 = face.ParameterRange
    if not record.convex or not _full_turn(u1 - u0):
        return None
    apex, axis = record.params["apex"], record.params["axis"]
    ends = [frame.point(face.valueAt(u0, v)) for v in (v0, v1)]
    along = [float(np.dot(p - apex, axis)) for p in ends]
    radii = [float(np.linalg.norm(p - apex - a * axis)) for p, a in zip(ends, along)]
    if along[0] > along[1]:
        along, radii = along[::-1], radii[::-1]
    length = along[1] - along[0]
    radii = [0.0 if r <= SAME * length else r for r in radii]  # an apex
    return {
        "type": "cone",
        "center": (apex + axis * 0.5 * sum(along)).tolist(),
        "axis": axis.tolist(),
        "radius1": radii[0],
        "radius2": radii[1],
        "length": length,
    }


def _cone(faces: list, shape, frame: BodyFrame) -> dict | None:
    """A solid cone: one full cone face and one or two plane faces across its axis."""
    side = _capped_side(faces, "cone", (1, 2))
    if side is None:
        return None
    cone = _cone_face(shape.Faces[side.index], side, frame)
    if cone is None:
        return None
    r1, r2 = cone["radius1"], cone["radius2"]
    volume = math.pi * cone["length"] * (r1 * r1 + r1 * r2 + r2 * r2) / 3.0
    return cone if abs(shape.Volume * MM**3 - volume) <= SAME * volume else None


def _mesh(shape, part: str, frame: BodyFrame, deflection_mm: float) -> dict:
    vertices, triangles = contact_mesh(shape, deflection_mm, part, frame.origin_mm, frame.rotation)
    return {"type": "mesh", "vertices": vertices.tolist(), "triangles": triangles.tolist()}


def solid_shape(shape, part: str, frame: BodyFrame, deflection_mm: float) -> tuple[dict, str]:
    """(shape dict, what it is made of) of a whole closed solid in the body frame."""
    analytic, others = classify_faces(shape, part, frame.origin_mm, frame.rotation)
    if not others:
        found = _sphere(analytic, shape) or _box(analytic, shape) or _cylinder(analytic, shape, frame)
        found = found or _torus(analytic, shape) or _cone(analytic, shape, frame)
        if found is not None:
            return found, "the whole solid of part '%s'" % part
    why = "%d faces, %d of them not planes, spheres, cylinders, cones or tori" % (len(shape.Faces), len(others))
    return _mesh(shape, part, frame, deflection_mm), "the whole solid of part '%s' (%s)" % (part, why)


def face_index(shape, face: str, part: str, what: str) -> int:
    """Index into shape.Faces of a face name 'Face<n>'; CadError naming the part otherwise."""
    m = re.fullmatch(r"Face(\d+)", face)
    if m is None or not 1 <= int(m.group(1)) <= len(shape.Faces):
        raise CadError("%s: part '%s' has no face '%s' (it has Face1 to Face%d)" % (what, part, face, len(shape.Faces)))
    return int(m.group(1)) - 1


def face_in_part(root: App.DocumentObject, sub: str, part: App.DocumentObject) -> str:
    """The name in ``part``'s global shape of the face picked as (``root``, ``sub``) ('' when the
    pick is not a face): a face of a child of a container (App::Part, PartDesign Body) is found in
    the container's shape by its centre of mass and area. CadError when it is not there."""
    face = sub.rsplit(".", 1)[-1]
    if not re.fullmatch(r"Face\d+", face):
        return ""
    import Part

    parents = list(getattr(root, "Parents", None) or [])  # root inside a container: picked in the tree
    top, path = parents[0] if parents else (root, "")
    picked = Part.getShape(top, path + sub, needSubElement=True)  # global placement applied
    shape = global_shape(part)[0]
    scale = max(shape.BoundBox.DiagonalLength, 1.0)
    for k, candidate in enumerate(shape.Faces):
        near = (candidate.CenterOfMass - picked.CenterOfMass).Length <= 1e-9 * scale
        if near and abs(candidate.Area - picked.Area) <= 1e-9 * max(picked.Area, 1.0):
            return "Face%d" % (k + 1)
    raise CadError("the picked %s is not a face of part '%s'" % (face, part.Label))


def face_shape(
    shape, face: str, part: str, frame: BodyFrame, deflection_mm: float, what: str, bounded: bool = False
) -> tuple[dict, str]:
    """(shape dict, what it is made of) of one picked face: its plane (``bounded``: a rectangle
    of it), sphere, cylinder, cone or torus, else the part's whole solid as a mesh."""
    index = face_index(shape, face, part, what)
    analytic, _ = classify_faces(shape, part, frame.origin_mm, frame.rotation)
    record = next((f for f in analytic if f.index == index), None)
    where = "%s of part '%s'" % (face, part)
    if record is not None and record.kind == "plane" and bounded:
        return bounded_face(shape, index, record.params["normal"], frame, where), where
    if record is not None and record.kind == "plane":
        return {
            "type": "plane",
            "point": record.params["point"].tolist(),
            "normal": record.params["normal"].tolist(),
        }, where
    if record is not None and record.kind == "sphere" and record.convex:
        return {"type": "sphere", "center": record.params["center"].tolist(), "radius": record.params["radius"]}, where
    exact = None
    if record is not None and record.kind == "cylinder":
        exact = _cylinder_face(shape.Faces[index], record, frame)
    elif record is not None and record.kind == "cone":
        exact = _cone_face(shape.Faces[index], record, frame)
    elif record is not None and record.kind == "torus":
        exact = _torus_face(shape.Faces[index], record)
    if exact is not None:
        return exact, where
    kind = type(shape.Faces[index].Surface).__name__
    mesh = _mesh(shape, part, frame, deflection_mm)
    return mesh, "%s (a %s face: the part's solid tessellated)" % (where, kind)


def side_shape(
    body_obj, face: str, model_body: Body, deflection_mm: float, what: str, bounded: bool = False
) -> tuple[dict, str]:
    """(shape dict, description) of one side of a pair: a Body object and a face name or ''
    (``bounded``: a plane face as a bounded ``face``)."""
    part = body_obj.Part
    if part is None:
        raise CadError("%s: body '%s' has no part" % (what, body_obj.Label))
    try:
        shape = global_shape(part)[0]
    except ValueError as exc:
        raise CadError("%s: %s" % (what, exc)) from None
    try:
        require_closed_solid(shape, part.Label)
        frame = BodyFrame(model_body)
        if face:
            return face_shape(shape, face, part.Label, frame, deflection_mm, what, bounded)
        return solid_shape(shape, part.Label, frame, deflection_mm)
    except CadError as exc:
        raise CadError("%s: %s" % (what, exc)) from None


def _handled(shapes: list) -> bool:
    kinds = (shapes[0]["type"], shapes[1]["type"])
    return kinds in PAIRS or kinds[::-1] in PAIRS


def check_supported(shape: dict, where: str, what: str) -> None:
    """CadError naming the part and face when the solver does not handle ``shape``'s kind."""
    if shape["type"] not in SHAPE_FIELDS:
        handled = ", ".join(SHAPE_FIELDS)
        raise CadError(
            "%s: %s gives a %s contact shape, which this version of the solver does not handle yet (it handles "
            "%s): pick a plane or sphere face, or a box-shaped part" % (what, where, shape["type"], handled)
        )


# ----------------------------------------------------------------------------- pairs
def law_fields(obj: App.DocumentObject) -> dict:
    """The contact law's model fields (SI) from a Contact object's properties."""
    fields = {
        "restitution": float(obj.Restitution),
        "law": str(obj.Law),
        "mu_s": float(obj.StaticFriction),
        "slip_speed": float(obj.SlipSpeed.Value) * MM,
        "friction_law": str(getattr(obj, "FrictionLaw", "regularised")),
        "penetration_tol": float(obj.PenetrationTolerance.Value) * MM,
        "material_a": str(obj.Material1),
        "material_b": str(obj.Material2),
    }
    if float(obj.Stiffness) != 0:  # 0: Hertz (a PropertyPrecision: FreeCAD keeps it >= 0)
        fields["stiffness"] = float(obj.Stiffness)
        fields["exponent"] = float(obj.Exponent)
    if not float(obj.KineticFriction) < 0:  # negative: mu_s; NaN is refused by the model check
        fields["mu_k"] = float(obj.KineticFriction)
    return fields


def _side_name(side, key: str, names: dict, body_names: set, what: str) -> str:
    body = side[0]
    if body is None:
        raise CadError("%s: %s is empty (pick two bodies or two faces of their parts)" % (what, key))
    if getattr(body, "MbdType", None) != "Body":
        raise CadError("%s: %s '%s' is not a Multibody Dynamics body" % (what, key, body.Label))
    if body.Name not in body_names:
        raise CadError("%s: body '%s' is not part of this simulation" % (what, body.Label))
    return names[body.Name]


def contact_pairs(objs: list, names: dict, body_names: set, bodies: dict) -> list[Contact]:
    """The model's contact pairs of the enabled Contact objects ``objs``; ``names``: object name ->
    model name, ``body_names``: object names of the model's bodies, ``bodies``: model name -> Body."""
    pairs = []
    for obj in objs:
        if not obj.Enabled:
            continue
        what = "contact '%s'" % obj.Label
        if obj.AllPairs and len([b for b in obj.Bodies if b is not None]) < 2:
            raise CadError("%s: AllPairs needs at least two bodies in Bodies" % what)
        law = law_fields(obj)
        for side_a, side_b in contact_sides(obj):
            pairs.append(_pair(obj, side_a, side_b, names, body_names, bodies, law, what))
    return pairs


def _pair(obj, side_a, side_b, names, body_names, bodies, law, what) -> Contact:
    name_a = _side_name(side_a, "Body1", names, body_names, what)
    name_b = _side_name(side_b, "Body2", names, body_names, what)
    deflection, bounded = float(obj.Deflection.Value), bool(getattr(obj, "BoundedFaces", False))
    shapes = []
    sides = ((side_a, name_a), (side_b, name_b))
    for (body_obj, face), name in sides:
        shape, where = side_shape(body_obj, face, bodies[name], deflection, what, bounded)
        check_supported(shape, where, what)
        shapes.append(shape)
    pair_name = names[obj.Name] if not obj.AllPairs else "%s: %s-%s" % (names[obj.Name], name_a, name_b)
    d = {"name": pair_name, "body_a": name_a, "body_b": name_b, "shape_a": shapes[0], "shape_b": shapes[1], **law}
    if not _handled(shapes) or shapes[0]["type"] == shapes[1]["type"] == "cylinder":  # (crossed: tessellated)
        d["deflection"] = deflection * MM  # no exact kind: the solver tessellates the shapes with it
    try:
        return parse_contacts([d])[0]
    except ModelError as exc:
        raise CadError(contact_message(pair_name, exc)) from None


def contact_message(pair_name: str, exc: ModelError) -> str:
    """A model error on a contact pair restated for the document: the object's property."""
    field = re.sub(r"^contacts\[\d+\]\.?", "", exc.path or "").split(".")[0]
    text = exc.message.removeprefix("contact '%s': " % pair_name)
    return "contact '%s' (%s): %s" % (pair_name, FIELD_PROPERTIES.get(field, field or "object"), text)
