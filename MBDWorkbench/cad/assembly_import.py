"""Import of FreeCAD 1.0 Assembly joints (the Assembly workbench; absent on 0.20).

Assembly joints are App::FeaturePython objects in an ``Assembly::JointGroup`` with
``JointType``, ``Reference1/2`` (XLinkSub: (root, [element path, ...])), ``Placement1/2``
(the joint coordinate system, JCS, local to the object holding the referenced element) and
``Activated``. A grounded part is a joint object with ``ObjectToGround``. The global JCS is
the global placement of the element's object times ``Placement1`` (as
``UtilsAssembly.getJcsGlobalPlc``); its z axis is the joint axis.

Mapping: an Assembly joint type named in a joint record's ``assembly_names`` becomes that
joint (:func:`MBDWorkbench.solver.catalog.joint_for_assembly`, e.g. Revolute -> revolute,
Slider -> prismatic), Distance 0 between two planar faces -> planar, Grounded -> the body's
Grounded flag, RackPinion, Screw, Gears, Belt -> coupler joints (:mod:`.assembly_couplers`).
Everything else (Parallel, Perpendicular, Angle, Distance other than 0 or not between planes,
deactivated joints) is reported as
unsupported, never dropped silently. Joint limits are ignored (reported).
Masses never come from the Assembly (its solver uses dummy masses): bodies get their mass
properties from their solids like any Body.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..solver.catalog import joint_for_assembly
from .assembly_couplers import COUPLER_TYPES, CouplerJoint, CouplerUnsupported, map_coupler, set_coupler_properties
from .errors import CadError
from .makers import check_part, make_body, make_joint, make_simulation
from .objects import body_of_part, find_simulation
from .picking import element_frame

if TYPE_CHECKING:
    import FreeCAD as App

LIMITS = ("EnableLengthMin", "EnableLengthMax", "EnableAngleMin", "EnableAngleMax")
_ZERO_MM = 1e-9


class Unsupported(Exception):
    """An assembly joint this workbench cannot represent (the message says why)."""


@dataclass
class MappedJoint:
    """An assembly joint as our joint: type, the two parts, global frame (App.Placement)."""

    label: str
    type: str
    part1: object
    part2: object
    frame: object
    notes: list[str] = field(default_factory=list)


@dataclass
class ImportReport:
    """What an import created and what it could not represent."""

    assembly: str
    joints: list[str] = field(default_factory=list)
    bodies: list[str] = field(default_factory=list)
    grounded: list[str] = field(default_factory=list)
    unsupported: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        lines = [
            "Assembly '%s': %d joints imported (%s), %d bodies, grounded: %s"
            % (
                self.assembly,
                len(self.joints),
                ", ".join(self.joints) or "none",
                len(self.bodies),
                ", ".join(self.grounded) or "none",
            )
        ]
        if self.unsupported:
            lines.append("Not imported (%d):" % len(self.unsupported))
            lines += ["  - %s: %s" % (label, why) for label, why in self.unsupported]
        lines += ["Note: %s" % n for n in self.notes]
        return "\n".join(lines)


def _prop(obj, *names, default=None):
    for name in names:
        if hasattr(obj, name):
            return getattr(obj, name)
    return default


def _length_mm(value):
    return float(getattr(value, "Value", value))


def _our_joint_type(joint, jtype: str, kind1: str, kind2: str) -> str:
    """Our joint type for an Assembly joint of type ``jtype`` between elements of kinds
    ``kind1``, ``kind2``; raise Unsupported when there is none."""
    mapped = joint_for_assembly(jtype)
    if mapped is not None:
        return mapped
    if jtype != "Distance":
        raise Unsupported("%s joints have no equivalent here" % (jtype or "untyped"))
    distance = _length_mm(_prop(joint, "Distance", default=0.0))
    if abs(distance) > _ZERO_MM:
        raise Unsupported("Distance of %g mm (only 0 between two planes is a planar joint)" % distance)
    if not (kind1 == kind2 == "planar face"):
        raise Unsupported(
            "Distance 0 between %s and %s (a planar joint needs two planar faces)"
            % (kind1 or "unknown geometry", kind2 or "unknown geometry")
        )
    return "planar"


def map_joint(joint: App.DocumentObject, resolve: Callable) -> MappedJoint:
    """MappedJoint of one assembly joint, or raise Unsupported. ``resolve(reference,
    placement)`` returns (part, global JCS App.Placement, element kind) where the element
    kind is 'planar face', 'cylindrical face', ..., or '' when unknown."""
    label = _prop(joint, "Label", "Name", default="joint")
    if not _prop(joint, "Activated", default=True):
        raise Unsupported("deactivated")
    jtype = str(_prop(joint, "JointType", default=""))
    ref1, ref2 = _prop(joint, "Reference1"), _prop(joint, "Reference2")
    if ref1 is None or ref2 is None:
        raise Unsupported("%s joint without two references" % (jtype or "untyped"))
    plc1 = _prop(joint, "Placement1", "JCS1")
    plc2 = _prop(joint, "Placement2", "JCS2")
    part1, jcs1, kind1 = resolve(ref1, plc1)
    part2, _, kind2 = resolve(ref2, plc2)
    mapped = _our_joint_type(joint, jtype, kind1, kind2)
    if part1 is None or part2 is None or part1 == part2:
        raise Unsupported("%s joint does not connect two different parts" % jtype)
    notes = ["limits ignored"] if any(_prop(joint, k, default=False) for k in LIMITS) else []
    offset = _prop(joint, "Offset1", "Offset")
    if offset is not None and hasattr(offset, "isIdentity") and not offset.isIdentity():
        notes.append("Offset1 applied to the frame")
        jcs1 = jcs1.multiply(offset)
    return MappedJoint(label=label, type=mapped, part1=part1, part2=part2, frame=jcs1, notes=notes)


# ----------------------------------------------------------------------------- FreeCAD 1.0
def find_assemblies(doc: App.Document) -> list[App.DocumentObject]:
    """Assembly objects of a document (none on FreeCAD 0.20)."""
    return [o for o in doc.Objects if o.TypeId == "Assembly::AssemblyObject"]


def assembly_joints(assembly: App.DocumentObject) -> tuple[list[App.DocumentObject], list[App.DocumentObject]]:
    """(joints, grounding objects) inside an assembly's joint groups."""
    joints, grounds = [], []
    for obj in getattr(assembly, "OutListRecursive", []) or []:
        if hasattr(obj, "ObjectToGround"):
            grounds.append(obj)
        elif hasattr(obj, "JointType") and hasattr(obj, "Reference1"):
            joints.append(obj)
    return joints, grounds


def _element_kind(shape):
    try:
        return element_frame(shape).kind
    except CadError:
        return ""


def make_resolver(assembly: App.DocumentObject) -> Callable:
    """resolve(reference, placement) for real FreeCAD 1.0 objects."""
    import FreeCAD as App
    import Part

    try:
        import UtilsAssembly  # FreeCAD 1.0
    except ImportError:
        UtilsAssembly = None

    def moving_part(root: App.DocumentObject, sub: str, ref: tuple) -> App.DocumentObject:
        if UtilsAssembly is not None and hasattr(UtilsAssembly, "getMovingPart"):
            try:
                return UtilsAssembly.getMovingPart(assembly, ref)
            except Exception:
                pass  # signature differs between 1.x versions: use the path below
        path = [o for o in root.getSubObjectList(sub) if o is not None]
        k = path.index(assembly) if assembly in path else 0
        return path[k + 1] if len(path) > k + 1 else path[-1]

    def global_jcs(root: App.DocumentObject, sub: str, ref: tuple, placement: App.Placement) -> App.Placement:
        if UtilsAssembly is not None and hasattr(UtilsAssembly, "getJcsGlobalPlc"):
            try:
                return UtilsAssembly.getJcsGlobalPlc(placement, ref)
            except Exception:
                pass
        obj_path = sub.rsplit(".", 1)[0] + "." if "." in sub else ""
        return App.Placement(root.getSubObject(obj_path, retType=2)[1]).multiply(placement)

    def resolve(ref: tuple, placement: App.Placement) -> tuple[App.DocumentObject, App.Placement, str]:
        root, subs = ref[0], list(ref[1]) if len(ref) > 1 else [""]
        sub = subs[0] if subs else ""
        part = moving_part(root, sub, ref)
        jcs = global_jcs(root, sub, ref, placement)
        kind = ""
        if sub and not sub.endswith("."):
            try:
                kind = _element_kind(Part.getShape(root, sub, needSubElement=True))
            except Exception:
                kind = ""
        return part, jcs, kind

    return resolve


def import_assembly(
    doc: App.Document,
    assembly: App.DocumentObject,
    resolve: Callable | None = None,
    simulation: App.DocumentObject | None = None,
) -> ImportReport:
    """Create Bodies and Joints for an Assembly's supported joints; return an ImportReport
    listing the unsupported ones. Parts are checked before anything is created."""
    resolve = resolve or make_resolver(assembly)
    joints, grounds = assembly_joints(assembly)
    report = ImportReport(assembly=assembly.Label)
    mapped: list[MappedJoint] = []
    for j in joints:
        try:
            if str(_prop(j, "JointType", default="")) in COUPLER_TYPES and _prop(j, "Activated", default=True):
                mapped.append(map_coupler(j, resolve, joints))
            else:
                mapped.append(map_joint(j, resolve))
        except (Unsupported, CouplerUnsupported) as why:
            report.unsupported.append((_prop(j, "Label", default="joint"), str(why)))
    grounded = [g.ObjectToGround for g in grounds if getattr(g, "ObjectToGround", None) is not None]
    parts = []
    for p in [p for m in mapped for p in (m.part1, m.part2)] + grounded:
        if p not in parts:
            parts.append(p)
    for p in parts:
        if body_of_part(doc, p) is None:
            check_part(p)
    if simulation is None and find_simulation(doc) is None:
        make_simulation(doc)
    for p in parts:
        body = body_of_part(doc, p)
        if body is None:
            body = make_body(doc, p, simulation=simulation)
            report.bodies.append(body.Label)
        if p in grounded:
            body.Grounded = True
            report.grounded.append(p.Label)
    for m in mapped:
        obj = make_joint(
            doc,
            m.type,
            body_of_part(doc, m.part1),
            body_of_part(doc, m.part2),
            m.frame,
            label=m.label,
            references=("assembly", "assembly"),
            simulation=simulation,
        )
        if isinstance(m, CouplerJoint):
            set_coupler_properties(obj, m)
        report.joints.append(obj.Label)
        report.notes += ["%s: %s" % (m.label, n) for n in m.notes]
    return report
