"""Force fields of the catalogue as FreeCAD properties: the ``ForceElement`` document object
(:class:`.objects.ForceElementProxy`) of every force type without a dedicated object gets one
property (or a few) per field of its record (catalog.FORCES), by the field's kind and SI unit.
FreeCAD's units: points and lengths in mm, angles in deg, other numbers and profiles in their SI
unit (stated in the tooltip and the task panel). Conversion to SI: :mod:`.document_model`.
Also the units of drivers' values (deg for rad, mm for m).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..solver.model.catalog import BODY_KINDS, DRIVERS, FORCES, JOINT_KINDS, NUMBER_KINDS, ForceField, ForceType
from .placement import app_vector

if TYPE_CHECKING:
    import FreeCAD as App

PRECISION = "App::PropertyPrecision"  # a float the property editor shows with 16 decimals
# Force types with a dedicated document object (picking panels, 3D symbols; documents saved
# with them keep opening). Every other record of catalog.FORCES is a ForceElement.
DEDICATED_FORCE_OBJECTS = {
    "point_force": "Force",
    "torque": "Force",
    "spring_damper": "SpringDamper",
    "rotational_spring_damper": "SpringDamper",
}
# Field kinds -> FreeCAD property type of a ForceElement (numbers: NUMBER_PROPERTIES)
KIND_PROPERTIES = {
    **{kind: "App::PropertyLink" for kind in BODY_KINDS + JOINT_KINDS},
    "point": "App::PropertyVectorDistance",
    "frame": "App::PropertyEnumeration",
    "profiles3": "App::PropertyString",
}
# SI unit of a number field -> (property type, the property's unit, SI value of 1 of it);
# other units: a PropertyPrecision in the SI unit.
NUMBER_PROPERTIES = {
    "m": ("App::PropertyLength", "mm", 1e-3),
    "rad": ("App::PropertyAngle", "deg", math.pi / 180.0),
}
FRAMES = ("global", "body")
COMPONENTS = "XYZ"


def driver_unit(driver_type: str) -> tuple[str, float]:
    """(unit of a driver's value in FreeCAD, SI value of 1 of it): deg for rotational drivers
    (rad), mm for linear ones (m), from the record's SI unit (catalog.DRIVERS)."""
    unit = DRIVERS[driver_type].unit
    return NUMBER_PROPERTIES[unit][1:] if unit in NUMBER_PROPERTIES else (unit, 1.0)


def generic_force_types() -> tuple[str, ...]:
    """Force types made as a ForceElement (catalog.FORCES without a dedicated object)."""
    return tuple(name for name in FORCES if name not in DEDICATED_FORCE_OBJECTS)


def property_name(field: str) -> str:
    """A field's property name: 'free_length' -> 'FreeLength'."""
    return "".join(word.capitalize() for word in field.split("_"))


def optional(spec: ForceField) -> bool:
    """Whether an absent value is allowed (default None): a 'Set<Name>' switch then chooses."""
    return spec.default is None


def field_unit(spec: ForceField) -> tuple[str, float]:
    """(unit shown in FreeCAD, SI value of 1 of it) of a ForceElement field: points in mm, lengths
    in mm, angles in deg, other numbers and profiles in their SI unit."""
    if spec.kind == "point":
        return "mm", 1e-3
    if spec.kind in NUMBER_KINDS and spec.unit in NUMBER_PROPERTIES:
        return NUMBER_PROPERTIES[spec.unit][1:]
    return spec.unit, 1.0


def field_properties(spec: ForceField, group: str) -> list[tuple]:
    """Property specs (see ``objects._add``) of one force field."""
    name, tip = property_name(spec.name), spec.doc or spec.name
    unit = field_unit(spec)[0]
    if spec.kind == "profiles3":
        return [
            (
                KIND_PROPERTIES["profiles3"],
                name + c,
                group,
                "%s, %s component [%s]: number or expression in t [s]" % (spec.name, c.lower(), spec.unit),
                "0",
            )
            for c in COMPONENTS
        ]
    if spec.kind == "frame":
        return [(KIND_PROPERTIES["frame"], name, group, tip, spec.value_when_absent or "global", None, FRAMES)]
    if spec.kind in NUMBER_KINDS:
        ptype = NUMBER_PROPERTIES.get(spec.unit, (PRECISION,))[0]
        default = spec.value_when_absent or 0.0
        specs = [(ptype, name, group, "%s [%s]" % (tip, unit) if unit else tip, default / field_unit(spec)[1])]
    else:
        specs = [(KIND_PROPERTIES[spec.kind], name, group, "%s [%s]" % (tip, unit) if unit else tip)]
    if optional(spec):
        absent = spec.absent or "the default"
        specs.append(("App::PropertyBool", "Set" + name, group, "Use %s (false: %s)" % (name, absent), False))
    return specs


def force_properties(record: ForceType) -> list[tuple]:
    """Property specs of a ForceElement of ``record``, one group named after its label."""
    return [p for spec in record.fields for p in field_properties(spec, record.label or record.name)]


def set_field(obj: App.DocumentObject, spec: ForceField, value) -> None:
    """Set a ForceElement's field ``spec`` to ``value`` in the units FreeCAD shows
    (:func:`field_unit`): a Body/Joint or None, a point [mm], a number, 3 profiles (numbers
    or expressions in t), a frame name; None for an optional field: its default."""
    name = property_name(spec.name)
    if spec.kind == "profiles3":
        for c, text in zip(COMPONENTS, value):
            setattr(obj, name + c, str(text).strip() or "0")
        return
    if optional(spec):
        setattr(obj, "Set" + name, value is not None)
        if value is None:
            return
    if spec.kind == "point":
        value = app_vector(*(float(c) for c in value))
    elif spec.kind in NUMBER_KINDS:
        value = float(value)  # mm and deg are FreeCAD's internal units
    setattr(obj, name, value)


def read_field(obj: App.DocumentObject, spec: ForceField):
    """A ForceElement's field ``spec`` in the units FreeCAD shows (the inverse of :func:`set_field`)."""
    name = property_name(spec.name)
    if spec.kind == "profiles3":
        return [str(getattr(obj, name + c)) for c in COMPONENTS]
    if optional(spec) and not getattr(obj, "Set" + name):
        return None
    value = getattr(obj, name)
    if spec.kind == "point":
        return [float(c) for c in value]
    if spec.kind in NUMBER_KINDS:
        return float(getattr(value, "Value", value))
    return value
