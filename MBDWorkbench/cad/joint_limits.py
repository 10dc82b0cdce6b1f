"""Joint limits, end stops and joint damping as properties of a Joint document object (group
"Limits"; docs/joint-limits.md): FreeCAD units (deg, mm) in, the model's joint fields (SI) out.
Used by :class:`.objects.JointProxy` (the properties), :mod:`.document_model` (reading them) and
:mod:`.assembly_import` (FreeCAD 1.x Assembly limits). Imports no FreeCAD.
"""

from __future__ import annotations

import math

from ..solver.model.catalog import JOINTS
from ..solver.model.joint_stops import DEFAULT_RESTITUTION, DEFAULT_STOP_MODEL, STOP_MODELS
from ..solver.model.schema import Stop

GROUP = "Limits"
ANGLE, LENGTH = "App::PropertyQuantity@deg", "App::PropertyQuantity@mm"
# (model field, Enable switch, value property, property type) of each limit
LIMITS = (
    ("angle_min", "EnableAngleMin", "AngleMin", ANGLE),
    ("angle_max", "EnableAngleMax", "AngleMax", ANGLE),
    ("travel_min", "EnableTravelMin", "TravelMin", LENGTH),
    ("travel_max", "EnableTravelMax", "TravelMax", LENGTH),
)
COORDINATE_OF = {"angle_min": "angle", "angle_max": "angle", "travel_min": "displacement", "travel_max": "displacement"}


def limit_properties() -> list[tuple]:
    """Property specs (objects._add) of the limits, stops and damping of a Joint."""
    specs = []
    for field, switch, prop, ptype in LIMITS:
        what = "angle [deg] of Body2 about the frame z axis" if ptype == ANGLE else "travel [mm] along the frame z axis"
        specs.append(("App::PropertyBool", switch, GROUP, f"Limit the {what} ({field})", False))
        specs.append((ptype, prop, GROUP, f"{field}: the {what} at which the end stop starts", 0.0))
    return specs + [
        ("App::PropertyFloat", "AngleDamping", GROUP, "Viscous joint damping of the angle [N m s/rad]", 0.0),
        ("App::PropertyFloat", "TravelDamping", GROUP, "Viscous joint damping of the travel [N s/m]", 0.0),
        (
            "App::PropertyEnumeration",
            "StopModel",
            GROUP,
            "End stop model: rigid (the default: Newton's impact law with StopRestitution at the located impact, "
            "then held while it pushes) or compliant (a spring-damper whose contact lasts StopContactTime)",
            DEFAULT_STOP_MODEL,
            None,
            STOP_MODELS,
        ),
        (
            "App::PropertyFloat",
            "StopContactTime",
            GROUP,
            "Contact time [s] of compliant end stops, from which their stiffness follows (0: 10 ms)",
            0.0,
        ),
        (
            "App::PropertyFloat",
            "StopRestitution",
            GROUP,
            "Restitution e in [0, 1] of rigid end stops",
            DEFAULT_RESTITUTION,
        ),
    ]


def migrate_stop_model(obj) -> None:
    """Give a Joint restored from an older document (without StopModel, read before its properties
    are completed) the stop model it ran with: compliant where a limit is enabled and RigidStops
    (the former switch, removed here) is off or absent, else the default."""
    if "StopModel" in obj.PropertiesList:
        return
    rigid = bool(getattr(obj, "RigidStops", False))
    if "RigidStops" in obj.PropertiesList:
        obj.removeProperty("RigidStops")
    limited = any(getattr(obj, switch, False) for _, switch, _, _ in LIMITS)
    ptype, name, group, tooltip = next(spec for spec in limit_properties() if spec[1] == "StopModel")[:4]
    obj.addProperty(ptype, name, group, tooltip)
    obj.StopModel = list(STOP_MODELS)
    obj.StopModel = "compliant" if limited and not rigid else DEFAULT_STOP_MODEL


def _internal(value) -> float:
    """A Quantity's (or a float's) value in FreeCAD's internal unit (deg, mm)."""
    return float(getattr(value, "Value", value))


def limit_fields(obj, jtype: str) -> dict:
    """The model Joint fields (SI) of a Joint object's enabled limits, damping and stop contact
    time, for the coordinates its type has (catalog.JOINTS[jtype].coordinates)."""
    coordinates = JOINTS[jtype].coordinates
    out = {}
    for field, switch, prop, ptype in LIMITS:
        if COORDINATE_OF[field] in coordinates and getattr(obj, switch, False):
            value = _internal(getattr(obj, prop))
            out[field] = math.radians(value) if ptype == ANGLE else value * 1e-3
    for field, prop, coordinate in (
        ("angle_damping", "AngleDamping", "angle"),
        ("travel_damping", "TravelDamping", "displacement"),
    ):
        value = float(getattr(obj, prop, 0.0) or 0.0)
        if value and coordinate in coordinates:
            out[field] = value
    for field, low, high in (("angle_stop", "angle_min", "angle_max"), ("travel_stop", "travel_min", "travel_max")):
        if low in out or high in out:
            out[field] = _stop(obj)
    return out


def _stop(obj) -> Stop:
    """The stop law of a Joint object's limits: StopModel compliant with its contact time, else the
    default model (rigid; compliant with a 'stop_model' warning where a rigid stop cannot act)
    with StopRestitution."""
    if getattr(obj, "StopModel", DEFAULT_STOP_MODEL) == "compliant":
        contact = float(getattr(obj, "StopContactTime", 0.0) or 0.0)
        return Stop(model="compliant", contact_time=contact if contact > 0 else None)
    return Stop(restitution=float(getattr(obj, "StopRestitution", DEFAULT_RESTITUTION)))


def set_limits(obj, limits: dict) -> None:
    """Set a Joint object's limits from {model field: SI value} (absent: disabled)."""
    for field, switch, prop, ptype in LIMITS:
        on = field in limits
        setattr(obj, switch, on)
        if on:
            setattr(obj, prop, math.degrees(limits[field]) if ptype == ANGLE else limits[field] * 1e3)


# the panel's numbers besides the limits: (property, unit shown)
EXTRAS = (("AngleDamping", "N m s/rad"), ("TravelDamping", "N s/m"), ("StopContactTime", "s"), ("StopRestitution", "-"))
CHOICES = {"StopModel": STOP_MODELS}  # the panel's choices
DEFAULTS = {"StopRestitution": DEFAULT_RESTITUTION}


def limit_values(obj) -> dict:
    """{property: value} of a Joint's Limits group in the units FreeCAD shows (deg, mm; switches
    as booleans), for the task panel (defaults for an object without them)."""
    out = {}
    for _, switch, prop, _ in LIMITS:
        out[switch] = bool(getattr(obj, switch, False))
        out[prop] = _internal(getattr(obj, prop, 0.0))
    for prop, _ in EXTRAS:
        out[prop] = float(getattr(obj, prop, DEFAULTS.get(prop, 0.0)) or 0.0)
    for prop in CHOICES:
        out[prop] = str(getattr(obj, prop, DEFAULT_STOP_MODEL))
    return out


def write_limit_values(obj, values: dict) -> None:
    """Set a Joint's Limits group from {property: value} (deg, mm, SI; see :func:`limit_values`);
    a negative damping or contact time is refused naming the joint and the property."""
    from .errors import CadError

    for prop, unit in EXTRAS:
        if values.get(prop, 0.0) < 0:
            raise CadError("joint '%s': %s must not be negative (%s)" % (obj.Label, prop, unit))
    if not 0.0 <= values.get("StopRestitution", DEFAULT_RESTITUTION) <= 1.0:
        raise CadError("joint '%s': StopRestitution must lie in [0, 1]" % obj.Label)
    for name, value in values.items():
        setattr(obj, name, value)
