"""Import of FreeCAD 1.x Assembly joints (the Assembly workbench; absent on 0.20).

Assembly joints are App::FeaturePython objects in an ``Assembly::JointGroup`` with
``JointType``, ``Reference1/2`` (XLinkSub: (root, [element path, ...])), ``Placement1/2``
(the joint coordinate systems, JCS, local to the object holding the referenced element; they
already include the attachment offsets ``Offset1/2``) and ``Activated`` (1.1: ``Suppressed``).
A grounded part is a joint object with ``ObjectToGround``. The global JCS is the global placement of the element's
object times ``Placement1`` (``UtilsAssembly.getJcsGlobalPlc``); its z axis is the joint axis.

Each imported joint keeps both JCS: JCS1 carried by the first part, JCS2 by the second
(``SeparateFrames``), so the joint holds the Assembly's own equations (those of OndselSolver's
ASMT joints) whether or not the document is assembled. Mapping (docs/freecad.md has the table):
an Assembly joint type named in a joint record's ``assembly_names`` becomes that joint
(:func:`MBDWorkbench.solver.model.catalog.joint_for_assembly`: Fixed, Revolute, Cylindrical,
Slider, Ball, Parallel, Perpendicular); Angle 0/180 deg -> parallel, 90 deg -> perpendicular,
others -> angle;
Distance by the kinds of its two elements and their radii, as FreeCAD's solver
(:mod:`.assembly_distances`); RackPinion, Screw, Gears,
Belt -> coupler joints (:mod:`.assembly_couplers`); Grounded -> the body's Grounded flag.
Everything else is reported with the reason, never dropped silently (a dropped joint becomes a
``joint_dropped`` run warning, :func:`import_warnings`); joint limits (EnableAngleMin/Max,
EnableLengthMin/Max) become our joints' limits with compliant end stops (docs/joint-limits.md),
except on joint types without that coordinate (listed in the report). FreeCAD 1.1's motions become drivers
(:mod:`.assembly_motions`).
Our imported joints keep the Assembly joint's Label as their model name (:func:`assembly_label`),
whatever Label FreeCAD gives our object (Labels are unique in a document), so joints.csv keeps
its columns across re-imports.
Masses never come from the Assembly (its solver uses dummy masses): bodies get their mass
properties from their solids like any Body.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..solver.model.catalog import JOINTS, joint_for_assembly
from ..solver.results.status import RunWarning
from .assembly_couplers import COUPLER_TYPES, CouplerJoint, CouplerUnsupported, map_coupler, set_coupler_properties
from .assembly_distances import DistanceUnsupported, element_kind, map_distance
from .assembly_motions import apply_time_settings, chosen_simulation, current_coordinates, import_motions
from .joint_limits import set_limits
from .makers import check_part, make_body, make_joint, make_simulation
from .mass_properties import BROKEN_LINK, is_broken_link
from .objects import body_of_part, find_objects, find_simulation
from .properties import first_property, quantity_value

if TYPE_CHECKING:
    import FreeCAD as App

LIMITS = (
    ("EnableLengthMin", "LengthMin", "mm"),
    ("EnableLengthMax", "LengthMax", "mm"),
    ("EnableAngleMin", "AngleMin", "deg"),
    ("EnableAngleMax", "AngleMax", "deg"),
)
_COS_TOL = 1e-12  # an Angle whose cosine is this close to 0 or +-1 is perpendicular or parallel
SOURCE_PREFIX = "assembly joint "  # Reference1 of an imported joint: prefix + the Assembly joint's Name
DEACTIVATED = "deactivated"  # the reason of a joint left out on purpose (not a run warning)


class MissingObject(LookupError):
    """A joint reference whose object path names an object no longer in the document."""


class Unsupported(Exception):
    """An assembly joint this workbench cannot represent (the message says why)."""


@dataclass
class MappedJoint:
    """An assembly joint as our joint: type, the two parts, the global frames (App.Placement)
    carried by each part, the length of a distance joint [mm] and the angle of an angle joint
    [deg] (0: none), the source joint, FreeCAD's coordinates where the parts are
    (:func:`.assembly_motions.current_coordinates` of its JCS: rad, mm, mm), its limits as our
    joint fields (SI, :func:`assembly_limits`)."""

    label: str
    type: str
    part1: object
    part2: object
    frame: object
    frame2: object = None
    length: float = 0.0
    angle: float = 0.0
    notes: list[str] = field(default_factory=list)
    source: str = ""
    current: tuple = (0.0, 0.0, 0.0)
    limits: dict = field(default_factory=dict)


@dataclass
class ImportReport:
    """What an import created or updated and what it could not represent."""

    assembly: str
    joints: list[str] = field(default_factory=list)
    bodies: list[str] = field(default_factory=list)
    grounded: list[str] = field(default_factory=list)
    unsupported: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    drivers: list[str] = field(default_factory=list)

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
        if self.drivers:
            lines.append("Drivers from the Assembly's motions: %s" % ", ".join(self.drivers))
        if self.updated:
            lines.append("Updated from the Assembly (already imported): %s" % ", ".join(self.updated))
        if self.unsupported:
            lines.append("Not imported (%d):" % len(self.unsupported))
            lines += ["  - %s: %s" % (label, why) for label, why in self.unsupported]
        lines += ["Note: %s" % n for n in self.notes]
        return "\n".join(lines)

    def warnings(self) -> list[RunWarning]:
        """A ``joint_dropped`` run warning per joint left out for a reason (not deactivated)."""
        return [
            RunWarning(
                "joint_dropped",
                "Assembly '%s': joint '%s' is not in the model: %s" % (self.assembly, label, why),
                None,
                (label,),
            )
            for label, why in self.unsupported
            if why != DEACTIVATED
        ]


def import_warnings(reports: list[ImportReport]) -> list[RunWarning]:
    """The run warnings of Assembly imports (:meth:`ImportReport.warnings`)."""
    return [w for r in reports for w in r.warnings()]


def _active(joint) -> bool:
    """Whether an assembly joint takes part in the solve: ``Activated`` (1.0) is not off and
    ``Suppressed`` (1.1, which AssemblyObject::getJoints reads instead) is not on."""
    return bool(first_property(joint, "Activated", default=True)) and not first_property(
        joint, "Suppressed", default=False
    )


def _shifted(placement, distance_mm: float):
    """The placement moved by ``distance_mm`` along its own z axis."""
    import FreeCAD as App

    return placement.multiply(App.Placement(App.Vector(0, 0, distance_mm), App.Rotation()))


def _distance_joint(joint, side1: tuple, side2: tuple) -> tuple[str, tuple, tuple, float, list[str]]:
    """(our type, side carrying frame 1, side carrying frame 2, rod length [mm], notes) of a
    Distance joint; a side is (part, global JCS, element kind, radius [mm]). Sides in FreeCAD's
    order; JCS1 moved along its z by the offset of the point/line-in-plane and planar rows."""
    distance = quantity_value(first_property(joint, "Distance", default=0.0))
    try:
        jtype, side1, side2, shift, length, notes = map_distance(distance, side1, side2)
    except DistanceUnsupported as why:
        raise Unsupported(str(why)) from None
    if shift:
        side1 = (side1[0], _shifted(side1[1], shift)) + tuple(side1[2:])
    return jtype, side1, side2, length, notes


def _angle_joint(joint) -> tuple[str, float]:
    """(our orientation-only joint, its angle [deg] or 0) for an Angle joint: OndselSolver keeps
    the angle |a| between the z axes of the two JCS (``Distance`` holds a [deg])."""
    angle = abs(quantity_value(first_property(joint, "Distance", "Angle", default=0.0)))
    c = math.cos(math.radians(angle))
    if abs(abs(c) - 1.0) <= _COS_TOL:
        return "parallel", 0.0
    if abs(c) <= _COS_TOL:
        return "perpendicular", 0.0
    return "angle", math.degrees(math.acos(c))


def assembly_limits(joint, jtype: str, current: tuple) -> tuple[dict, list[str]]:
    """The enabled limits of an assembly joint as our joint fields (SI) of type ``jtype``, measured
    from where the parts are (our coordinates are zero there: FreeCAD's limit minus its
    ``current`` coordinates, rad and mm; an angle range is shifted by whole turns to hold the
    start when it can), and notes for the limits our joint type has no coordinate for."""
    coordinates = JOINTS[jtype].coordinates
    out, ignored = {}, []
    for flag, name, unit in LIMITS:
        if not first_property(joint, flag, default=False):
            continue
        value = quantity_value(first_property(joint, name, default=0.0))
        angle = unit == "deg"
        if ("angle" if angle else "displacement") not in coordinates:
            ignored.append("%s = %g %s" % (name, value, unit))
            continue
        field = ("angle_" if angle else "travel_") + ("min" if name.endswith("Min") else "max")
        out[field] = math.radians(value) - current[0] if angle else (value - current[2]) * 1e-3
    _shift_angle_range(out)
    notes = ["limits not simulated on a %s joint (%s)" % (jtype, ", ".join(ignored))] if ignored else []
    return out, notes


def _shift_angle_range(limits: dict) -> None:
    """Move angle limits by whole turns so that they hold 0 (the start) when some shift does."""
    low, high = limits.get("angle_min"), limits.get("angle_max")
    ref = low if low is not None else high
    if ref is None:
        return
    turn = 2 * math.pi
    shift = -turn * math.floor(ref / turn) if low is not None else -turn * math.ceil(ref / turn)
    if (low is None or low + shift <= 1e-12) and (high is None or high + shift >= -1e-12):
        for key in ("angle_min", "angle_max"):
            if key in limits:
                limits[key] += shift


def zero_coordinates(jtype: str, frame1, frame2) -> tuple:
    """The two global frames of a joint of our ``jtype`` moved so that its coordinates (joint
    angle, displacement along z) are zero where they are, as drivers and joints.csv measure
    them from the initial configuration: frame 2 turned about its z axis onto frame 1's x
    (rotational coordinate; the other way when the joint is flipped, z2 opposite to z1),
    frame 1 moved along its z axis to frame 2's origin (linear).
    Neither changes the joint's equations (those of frame 2's x about its z, or of frame 1's
    origin along its z, do not enter them)."""
    import FreeCAD as App

    drivers = JOINTS[jtype].drivers
    if "rotational" in drivers:
        x1, y1 = (frame1.Rotation.multVec(App.Vector(*e)) for e in ((1, 0, 0), (0, 1, 0)))
        x2 = frame2.Rotation.multVec(App.Vector(1, 0, 0))
        angle = math.degrees(math.atan2(y1.dot(x2), x1.dot(x2)))
        z1, z2 = (f.Rotation.multVec(App.Vector(0, 0, 1)) for f in (frame1, frame2))
        turn = -angle if z1.dot(z2) >= 0 else angle  # a flipped joint's z2 is opposite to z1
        frame2 = frame2.multiply(App.Placement(App.Vector(), App.Rotation(App.Vector(0, 0, 1), turn)))
    if "linear" in drivers:
        z1 = frame1.Rotation.multVec(App.Vector(0, 0, 1))
        frame1 = _shifted(frame1, z1.dot(frame2.Base - frame1.Base))
    return frame1, frame2


def _resolve_side(resolve: Callable, joint, k: int) -> tuple:
    """resolve() of side k (1 or 2) of a joint as (part, JCS, kind, radius [mm]; 0 when the
    resolver gives none); Unsupported naming the reference when the document cannot resolve
    it (a damaged or foreign document must not stop the import)."""
    ref = first_property(joint, "Reference%d" % k)
    try:
        side = tuple(resolve(ref, first_property(joint, "Placement%d" % k, "JCS%d" % k)))
        return side + (0.0,) * (4 - len(side))
    except MissingObject as exc:
        raise Unsupported("Reference%d %s" % (k, exc)) from None
    except Exception as exc:  # FreeCAD raises its own types from broken links and placements
        raise Unsupported("Reference%d %r cannot be resolved (%s: %s)" % (k, ref, type(exc).__name__, exc)) from None


def map_joint(joint: App.DocumentObject, resolve: Callable) -> MappedJoint:
    """MappedJoint of one assembly joint, or raise Unsupported. ``resolve(reference,
    placement)`` returns (part, global JCS App.Placement, element kind, radius [mm]) where
    the element kind is one of :mod:`.assembly_distances` ('vertex', 'straight edge',
    'circular edge', 'planar face', 'cylindrical face', ...), or '' when unknown; the radius
    (a circle's, cylinder's or sphere's, else 0) may be left out."""
    label = first_property(joint, "Label", "Name", default="joint")
    if not _active(joint):
        raise Unsupported(DEACTIVATED)
    jtype = str(first_property(joint, "JointType", default=""))
    if first_property(joint, "Reference1") is None or first_property(joint, "Reference2") is None:
        raise Unsupported("%s joint without two references" % (jtype or "untyped"))
    side1, side2 = _resolve_side(resolve, joint, 1), _resolve_side(resolve, joint, 2)
    length = angle = 0.0
    notes = []
    if jtype == "Distance":
        mapped, side1, side2, length, notes = _distance_joint(joint, side1, side2)
    elif jtype == "Angle":
        mapped, angle = _angle_joint(joint)
    else:
        mapped = joint_for_assembly(jtype)
        if mapped is None:
            raise Unsupported("%s joints have no equivalent here" % (jtype or "untyped"))
    if side1[0] is None or side2[0] is None or side1[0] == side2[0]:
        raise Unsupported("%s joint does not connect two different parts" % jtype)
    current = current_coordinates(side1[1], side2[1])
    limits, limit_notes = assembly_limits(joint, mapped, current)
    frame1, frame2 = zero_coordinates(mapped, side1[1], side2[1])
    return MappedJoint(
        label=label,
        type=mapped,
        part1=side1[0],
        part2=side2[0],
        frame=frame1,
        frame2=frame2,
        length=length,
        angle=angle,
        notes=notes + limit_notes,
        limits=limits,
        source=str(first_property(joint, "Name", default=label)),
        current=current,
    )


# ----------------------------------------------------------------------------- FreeCAD 1.0
def find_assemblies(doc: App.Document) -> list[App.DocumentObject]:
    """The top-level Assembly objects of a document (none on FreeCAD 0.20). An Assembly nested
    in another one moves as one rigid part of it, so it is not imported on its own."""
    return [o for o in doc.Objects if _is_assembly(o) and not any(_is_assembly(p) for p in o.InListRecursive)]


def _is_assembly(obj) -> bool:
    return obj.TypeId == "Assembly::AssemblyObject"


def assembly_joints(assembly: App.DocumentObject) -> tuple[list[App.DocumentObject], list[App.DocumentObject]]:
    """(joints, grounding objects) inside an assembly's joint groups, in the document's order."""
    joints, grounds = [], []
    for obj in in_document_order(assembly, getattr(assembly, "OutListRecursive", []) or []):
        if hasattr(obj, "ObjectToGround"):
            grounds.append(obj)
        elif hasattr(obj, "JointType") and hasattr(obj, "Reference1"):
            joints.append(obj)
    return joints, grounds


def assembly_motions(assembly: App.DocumentObject) -> list[App.DocumentObject]:
    """FreeCAD 1.1's motions of the kinematic simulation inside an assembly (objects with
    ``Joint``, ``MotionType`` and ``Formula``; none in 1.0)."""
    return [
        o
        for o in in_document_order(assembly, getattr(assembly, "OutListRecursive", []) or [])
        if all(hasattr(o, k) for k in ("Joint", "MotionType", "Formula"))
    ]


def in_document_order(assembly: App.DocumentObject, objects) -> list:
    """``objects`` in the order of their document (FreeCAD's OutListRecursive comes in no fixed
    order: the joints, hence joints.csv's columns and the equations of a redundant loop that
    tolerant assembly drops, would change from one run to the next)."""
    doc = getattr(assembly, "Document", None)
    rank = {o.Name: k for k, o in enumerate(getattr(doc, "Objects", []))}
    return sorted(objects, key=lambda o: rank.get(getattr(o, "Name", ""), len(rank)))


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

    def resolve(ref: tuple, placement: App.Placement) -> tuple[App.DocumentObject, App.Placement, str, float]:
        root, subs = ref[0], list(ref[1]) if len(ref) > 1 else [""]
        sub = subs[0] if subs else ""
        check_objects_exist(root, sub)
        part = moving_part(root, sub, ref)
        if is_broken_link(part):
            raise LookupError(BROKEN_LINK % part.Label)
        jcs = global_jcs(root, sub, ref, placement)
        kind, radius = "", 0.0
        if sub and not sub.endswith("."):
            try:
                kind, radius = element_kind(Part.getShape(root, sub, needSubElement=True))
            except Exception:
                kind, radius = "", 0.0
        return part, jcs, kind, radius

    return resolve


def check_objects_exist(root, sub: str) -> None:
    """MissingObject naming the reference (e.g. 'B.Edge2') when an object on its path is no
    longer in the document (a part deleted after the joint was made)."""
    path = sub.rsplit(".", 1)[0] if "." in sub else ""
    if root is None or getattr(root, "Document", None) is None:
        raise MissingObject("'%s' points to an object that no longer exists" % sub)
    if path and root.getSubObject(path + ".", retType=1) is None:
        missing = next((n for n in path.split(".") if n and root.Document.getObject(n) is None), path.split(".")[-1])
        raise MissingObject(
            "'%s' points to an object that no longer exists ('%s' is not in the document)" % (sub, missing)
        )


def import_assembly(
    doc: App.Document,
    assembly: App.DocumentObject,
    resolve: Callable | None = None,
    simulation: App.DocumentObject | None = None,
) -> ImportReport:
    """Create Bodies and Joints for an Assembly's supported joints, or update those made by an
    earlier import of the same Assembly joint (matched by its Name: type, bodies, frames and
    label follow the edited joint, nothing is duplicated); return an ImportReport listing the
    unsupported ones. Parts are checked before anything is created."""
    resolve = resolve or make_resolver(assembly)
    joints, grounds = assembly_joints(assembly)
    report = ImportReport(assembly=assembly.Label)
    mapped: list[MappedJoint] = []
    for j in joints:
        try:
            if str(first_property(j, "JointType", default="")) in COUPLER_TYPES and _active(j):
                mapped.append(map_coupler(j, resolve, joints))
            else:
                mapped.append(map_joint(j, resolve))
        except (Unsupported, CouplerUnsupported) as why:
            report.unsupported.append((first_property(j, "Label", default="joint"), str(why)))
    grounded = [g.ObjectToGround for g in grounds if getattr(g, "ObjectToGround", None) is not None]
    parts = _parts(mapped, grounded)
    for p in parts:
        if body_of_part(doc, p) is None:
            check_part(p)
    created = make_simulation(doc) if simulation is None and find_simulation(doc) is None else None
    _make_bodies(doc, parts, grounded, simulation, report)
    existing = imported_joints(doc)
    for m in mapped:
        obj = existing.get(m.source)
        if obj is None:
            obj = _new_joint(doc, m, simulation)
        else:
            _update_joint(obj, m)
            report.updated.append(obj.Label)
        report.joints.append(obj.Label)
        report.notes += ["%s: %s" % (m.label, n) for n in m.notes]
    _import_motions(doc, assembly, mapped, report, simulation, created)
    return report


def _import_motions(doc, assembly, mapped, report, simulation, created) -> None:
    """Drivers from the Assembly's motions on the joints just imported; a Simulation this
    import created takes the time span and output step of the Assembly's simulation."""
    motions = assembly_motions(assembly)
    if not motions:
        return
    sim = chosen_simulation(assembly, motions)
    ours = imported_joints(doc)
    joints = {m.source: (ours[m.source], m.current) for m in mapped if isinstance(m, MappedJoint) and m.source in ours}
    import_motions(doc, motions, sim, joints, report, simulation)
    if created is not None and sim is not None:
        apply_time_settings(created, sim)


def sync_assemblies(doc: App.Document, show: Callable[[str], object] | None = None) -> list[ImportReport]:
    """Import every Assembly of a document, or update what an earlier import made: the one-click
    path of Check, Solve and the command line on a document with an Assembly (nothing on 0.20).
    ``show(text)`` receives the report of each import that left something out or has notes."""
    reports = [import_assembly(doc, asm) for asm in find_assemblies(doc)]
    for report in reports:
        if show is not None and (report.unsupported or report.notes):
            show(report.text())
    return reports


def _parts(mapped: list[MappedJoint], grounded: list) -> list:
    parts = []
    for p in [p for m in mapped for p in (m.part1, m.part2)] + grounded:
        if p not in parts:
            parts.append(p)
    return parts


def _make_bodies(doc, parts, grounded, simulation, report) -> None:
    for p in parts:
        body = body_of_part(doc, p)
        if body is None:
            body = make_body(doc, p, simulation=simulation)
            report.bodies.append(body.Label)
        if p in grounded:
            body.Grounded = True
            report.grounded.append(p.Label)


def imported_joints(doc: App.Document) -> dict[str, App.DocumentObject]:
    """Our Joint objects made by an Assembly import, by the Name of their Assembly joint."""
    out = {}
    for obj in find_objects(doc, "Joint"):
        ref = str(getattr(obj, "Reference1", "") or "")
        if ref.startswith(SOURCE_PREFIX):
            out[ref[len(SOURCE_PREFIX) :]] = obj
    return out


def _new_joint(doc, m: MappedJoint, simulation):
    ref = SOURCE_PREFIX + m.source
    obj = make_joint(
        doc,
        m.type,
        body_of_part(doc, m.part1),
        body_of_part(doc, m.part2),
        m.frame,
        label=m.label,
        references=(ref, ref),
        simulation=simulation,
    )
    _set_second_frame(obj, m)
    set_limits(obj, getattr(m, "limits", {}))
    return obj


def _update_joint(obj, m: MappedJoint) -> None:
    from .makers import check_joint_bodies

    body1, body2 = body_of_part(obj.Document, m.part1), body_of_part(obj.Document, m.part2)
    check_joint_bodies(m.type, body1, body2, "joint '%s'" % m.label)
    obj.JointType = m.type
    obj.Body1, obj.Body2 = body1, body2
    obj.Frame = m.frame
    if _label_stem(obj.Label) != _label_stem(m.label):  # the Assembly joint was renamed
        obj.Label = m.label
    _set_second_frame(obj, m)
    set_limits(obj, getattr(m, "limits", {}))


def _label_stem(label: str) -> str:
    """A Label without the digits FreeCAD appends to make it unique ('Hinge003' -> 'Hinge')."""
    return re.sub(r"\d+$", "", label)


def assembly_label(obj) -> str | None:
    """The Label of the Assembly joint our joint ``obj`` was imported from (its model name),
    or None for a joint not imported or whose Assembly joint is gone."""
    ref = str(getattr(obj, "Reference1", "") or "")
    if not ref.startswith(SOURCE_PREFIX):
        return None
    source = obj.Document.getObject(ref[len(SOURCE_PREFIX) :])
    return source.Label if source is not None else None


def joint_source(obj) -> str | None:
    """The geometry our joint ``obj`` was made from, for messages: "Assembly joint 'Slider' on
    Rail.Face6 and Block.Face3" for an imported joint (its Assembly joint's references), the
    picked references of a joint made in the workbench, or None when it has none."""
    ref = str(getattr(obj, "Reference1", "") or "")
    if ref.startswith(SOURCE_PREFIX):
        source = obj.Document.getObject(ref[len(SOURCE_PREFIX) :])
        if source is None:
            return None
        sides = [_reference_text(first_property(source, "Reference%d" % k)) for k in (1, 2)]
        return "Assembly joint '%s' on %s" % (source.Label, " and ".join(s for s in sides if s) or "?")
    picks = [str(getattr(obj, "Reference%d" % k, "") or "") for k in (1, 2)]
    picks = [p for p in picks if p and p != "ground"]
    return " and ".join(picks) or None


def _reference_text(ref) -> str:
    """An Assembly reference (XLinkSub: (root, [element path, ...])) as its element paths."""
    try:
        paths = [str(p) for p in ref[1] if str(p)]
    except (TypeError, IndexError):
        return str(ref or "")
    return ", ".join(p.rstrip(".") for p in paths[:1]) or ""


def _set_second_frame(obj, m: MappedJoint | CouplerJoint) -> None:
    obj.SeparateFrames = m.frame2 is not None
    if m.frame2 is not None:
        obj.Frame2 = m.frame2
    if isinstance(m, CouplerJoint):
        set_coupler_properties(obj, m)
        return
    obj.Length = float(m.length)
    obj.Angle = float(m.angle)
