"""Coulomb joint friction as properties of a Joint document object (group "Friction";
docs/joint-friction.md): coefficients and lengths in FreeCAD units (mm) in, the model's
``friction`` field (SI) out. Used by :class:`.objects.JointProxy` (the properties) and
:mod:`.document_model` (reading them). Imports no FreeCAD.
"""

from __future__ import annotations

from ..solver.model.joint_friction import GEOMETRY
from ..solver.model.schema import Friction

GROUP = "Friction"
LENGTH = "App::PropertyQuantity@mm"
# (model field, property, tooltip) of the friction's lengths
LENGTHS = (
    ("pin_radius", "PinRadius", "revolute, cylindrical: radius of the pin [mm]"),
    ("pin_length", "PinLength", "revolute, cylindrical: length of the bearing [mm] (0: no bending term)"),
    ("ball_radius", "BallRadius", "spherical: radius of the ball [mm]"),
    ("contact_length", "ContactLength", "prismatic: length of the slide's contact [mm] (0: no moment term)"),
)


def friction_properties() -> list[tuple]:
    """Property specs (objects._add) of a Joint's friction."""
    return [
        ("App::PropertyBool", "EnableFriction", GROUP, "Coulomb friction with stiction in this joint", False),
        ("App::PropertyFloat", "StaticFriction", GROUP, "Static friction coefficient mu_s", 0.0),
        ("App::PropertyFloat", "KineticFriction", GROUP, "Kinetic friction coefficient mu_k (<= mu_s)", 0.0),
    ] + [(LENGTH, prop, GROUP, tip, 0.0) for _, prop, tip in LENGTHS]


def friction_fields(obj, jtype: str) -> dict:
    """{"friction": Friction} (SI) of a Joint object with friction enabled on a type that has it,
    else {}; lengths of 0 are left out (the model's checks name a missing radius)."""
    if not getattr(obj, "EnableFriction", False) or jtype not in GEOMETRY:
        return {}
    geometry = GEOMETRY[jtype]
    lengths = {}
    for field, prop, _ in LENGTHS:
        value = float(getattr(getattr(obj, prop, 0.0), "Value", getattr(obj, prop, 0.0)) or 0.0)
        if field in (geometry.radius, geometry.length) and (value != 0.0 or field == geometry.radius):
            lengths[field] = value * 1e-3
    mu_s, mu_k = float(getattr(obj, "StaticFriction", 0.0)), float(getattr(obj, "KineticFriction", 0.0))
    return {"friction": Friction(mu_s=mu_s, mu_k=mu_k, **lengths)}


# the panel's rows: (property, unit shown); EnableFriction is its switch
PANEL = (("StaticFriction", ""), ("KineticFriction", "")) + tuple((prop, "mm") for _, prop, _ in LENGTHS)


def friction_values(obj) -> dict:
    """{property: value} of a Joint's Friction group (mm; the switch as a boolean), for the task panel."""
    out = {"EnableFriction": bool(getattr(obj, "EnableFriction", False))}
    for prop, _ in PANEL:
        value = getattr(obj, prop, 0.0)
        out[prop] = float(getattr(value, "Value", value) or 0.0)
    return out


def write_friction_values(obj, values: dict) -> None:
    """Set a Joint's Friction group from {property: value} (mm); a negative number is refused
    naming the joint and the property."""
    from .errors import CadError

    for prop, unit in PANEL:
        if values.get(prop, 0.0) < 0:
            raise CadError("joint '%s': %s must not be negative%s" % (obj.Label, prop, f" ({unit})" if unit else ""))
    for name, value in values.items():
        setattr(obj, name, value)
