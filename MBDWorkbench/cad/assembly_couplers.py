"""Import of FreeCAD 1.x Assembly coupler joints: Gears, Belt, RackPinion, Screw.

What the Assembly's own solver (FreeCAD's AssemblyObject::makeMbdJoint with OndselSolver) does,
and so what is imported (our rows enforce the same relations, solver/numerics/joints.py GEAR, LEAD):

- Gears / Belt: GearJoint between JCS1 (Reference1/Placement1, marker I) and JCS2 (marker J)
  with radiusI = Distance, radiusJ = Distance2 (Belt: -Distance2) -> our ``gear`` / ``belt``
  with ``frame`` = JCS1 on part 1, ``Frame2`` = JCS2 on part 2, Radius1 = Distance,
  Radius2 = Distance2.
- Screw: the part that also has a Slider joint whose JCS has the same pitch and roll as the
  coupler's JCS on it (AssemblyObject::slidingPartIndex) must be marker I (the JCSs are swapped
  otherwise); ScrewJoint pitch = Distance -> our ``screw`` (body_i: the sliding part).
- RackPinion: the same sliding part first (the rack, marker I); the rack's marker takes the
  pinion JCS's rotation (relative to the rack's object) turned about its z axis so that its x
  axis follows the rack JCS's z axis, the slide direction, at the rack JCS's position
  (AssemblyObject::getRackPinionMarkers); RackPinJoint pitchRadius = Distance -> our
  ``rack_pinion`` with that marker as ``frame``.

A RackPinion or Screw without such a Slider is not solved by the Assembly either: reported as
unsupported. Offset1/Offset2 are already part of Placement1/Placement2 (the JCS).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..solver.model.catalog import JOINTS

if TYPE_CHECKING:
    from collections.abc import Callable

    import FreeCAD as App

# Assembly JointType -> our coupler joint type (from the catalogue's assembly_names).
COUPLER_TYPES: dict[str, str] = {a: j.name for j in JOINTS.values() if j.parameters for a in j.assembly_names}
_SLIDERS = ("Slider",)  # Assembly joints that make a part the sliding one (slidingPartIndex)
_CONFUSION = 1e-7  # Precision::Confusion(), the tolerance of slidingPartIndex's angle comparison [deg]


class CouplerUnsupported(Exception):
    """A coupler joint the Assembly's solver would not solve either (the message says why)."""


@dataclass
class CouplerJoint:
    """An Assembly coupler as our joint: type, parts, the frame on each part (global
    App.Placement, mm), the Joint object's Radius1 / Radius2 / Pitch [mm], the source joint's
    Name (re-import matches it)."""

    label: str
    type: str
    part1: object
    part2: object
    frame: object
    frame2: object
    values: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    source: str = ""


def _distance_mm(joint, name: str) -> float:
    return float(getattr(getattr(joint, name, 0.0), "Value", getattr(joint, name, 0.0)))


def _same_pitch_roll(plc_a: App.Placement, plc_b: App.Placement) -> bool:
    """Whether two placements' rotations have the same pitch and roll (as slidingPartIndex)."""
    _, pa, ra = plc_a.Rotation.getYawPitchRoll()
    _, pb, rb = plc_b.Rotation.getYawPitchRoll()
    return abs(pa - pb) < _CONFUSION and abs(ra - rb) < _CONFUSION


def sliding_side(joint, sides: list[tuple], others: list, resolve: Callable) -> int:
    """1 or 2: the side of ``joint`` whose part a Slider joint of ``others`` also moves, with
    the same pitch and roll of the JCS (the last such Slider wins, as in FreeCAD); 0: none.
    ``sides`` are [(part, local JCS Placement)] of the coupler."""
    found = 0
    for other in others:
        if other is joint or str(getattr(other, "JointType", "")) not in _SLIDERS:
            continue
        for ref_name, plc_name in (("Reference1", "Placement1"), ("Reference2", "Placement2")):
            part = resolve(getattr(other, ref_name), getattr(other, plc_name))[0]
            hit = [k for k, (p, _) in enumerate(sides, 1) if p == part]
            if hit:
                k = hit[0]
                if _same_pitch_roll(getattr(other, plc_name), sides[k - 1][1]):
                    found = k
                break
    return found


def rack_marker(rack_jcs: App.Placement, rack_plc: App.Placement, pinion_jcs: App.Placement) -> App.Placement:
    """Global rack marker of a RackPinion (AssemblyObject::getRackPinionMarkers): the pinion
    JCS's rotation relative to the rack's object, turned about its z axis so that its x axis
    follows the rack JCS's z axis, at the rack JCS's position. ``rack_jcs``, ``pinion_jcs``:
    global JCSs; ``rack_plc``: the rack's Placement1/2 (local to its object)."""
    import FreeCAD as App

    rack_object = rack_jcs.multiply(rack_plc.inverse())
    rot = rack_object.inverse().multiply(pinion_jcs).Rotation
    z_now, x_now = rot.multVec(App.Vector(0, 0, 1)), rot.multVec(App.Vector(1, 0, 0))
    x_target = rack_plc.Rotation.multVec(App.Vector(0, 0, 1))
    yaw = x_now.getAngle(x_target)
    if z_now.dot(x_now.cross(x_target)) < 0:
        yaw = -yaw
    adjusted = rot.multiply(App.Rotation(z_now, math.degrees(yaw)))
    return rack_object.multiply(App.Placement(rack_plc.Base, adjusted))


def map_coupler(joint, resolve: Callable, others: list) -> CouplerJoint:
    """CouplerJoint of an Assembly Gears, Belt, RackPinion or Screw joint (``others``: all the
    assembly's joints, for the Slider of a RackPinion or Screw); CouplerUnsupported when the
    Assembly's solver would not solve it either. ``resolve`` as in assembly_import.map_joint."""
    label = getattr(joint, "Label", "joint")
    atype = str(joint.JointType)
    plc1, plc2 = joint.Placement1, joint.Placement2
    (part1, jcs1), (part2, jcs2) = resolve(joint.Reference1, plc1)[:2], resolve(joint.Reference2, plc2)[:2]
    if part1 is None or part2 is None or part1 == part2:
        raise CouplerUnsupported("%s joint does not connect two different parts" % atype)
    jtype = COUPLER_TYPES[atype]
    notes = []
    if atype in ("RackPinion", "Screw"):
        side = sliding_side(joint, [(part1, plc1), (part2, plc2)], others, resolve)
        if side == 0:
            raise CouplerUnsupported(
                "%s needs a Slider joint on one of its parts with the same JCS direction (as the Assembly's solver)"
                % atype
            )
        if side == 2:  # the sliding part first, as the Assembly's swapJCS
            part1, part2, jcs1, jcs2, plc1, plc2 = part2, part1, jcs2, jcs1, plc2, plc1
            notes.append("sides swapped: the sliding part is body 1")
        if atype == "RackPinion":
            jcs1 = rack_marker(jcs1, plc1, jcs2)
    distance = _distance_mm(joint, "Distance")
    if atype in ("Gears", "Belt"):
        values = {"Radius1": distance, "Radius2": _distance_mm(joint, "Distance2")}
    elif atype == "RackPinion":
        values = {"Radius1": distance}
    else:
        values = {"Pitch": distance}
    for name, value in values.items():
        if value <= 0 and name != "Pitch" or value == 0:
            what = {"Radius1": "Distance", "Radius2": "Distance2", "Pitch": "Distance"}[name]
            raise CouplerUnsupported("%s joint with %s = %g mm (the Assembly needs it > 0)" % (atype, what, value))
    source = str(getattr(joint, "Name", label))
    return CouplerJoint(label, jtype, part1, part2, jcs1, jcs2, values, notes, source)


def set_coupler_properties(obj: App.DocumentObject, mapped: CouplerJoint) -> None:
    """SeparateFrames, Frame2 and the radii or pitch of the Joint object made for a coupler."""
    obj.SeparateFrames = True
    obj.Frame2 = mapped.frame2
    for name, value in mapped.values.items():
        setattr(obj, name, value)
