"""Functions that create the workbench's document objects (as FEM's ObjectsFem).

Each maker checks its input before it creates anything, so on :class:`CadError` the
document is unchanged. Units are FreeCAD's (mm, deg, kg, s; see :mod:`.objects`). In the GUI
the new object gets its view provider through the ``"created"`` hook of :mod:`.gui_hooks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..solver.model.catalog import (
    BODY_KINDS,
    DRIVER_TYPES,
    FORCES,
    JOINT_KINDS,
    JOINT_TYPES,
    joint_types_for,
    joints_driven_by,
)
from . import gui_hooks
from .contact_objects import ContactProxy
from .errors import CadError
from .force_fields import generic_force_types, set_field
from .mass_properties import mass_properties
from .objects import MATERIALS, PROXIES, body_of_part, find_simulation, mbd_type, set_density
from .placement import app_vector, placement_from_axes

if TYPE_CHECKING:
    import FreeCAD as App


def _new(
    doc: App.Document,
    kind: str,
    name: str,
    simulation: App.DocumentObject | None = None,
    group_type: str = "App::FeaturePython",
) -> App.DocumentObject:
    """A new object of MbdType ``kind`` with its proxy, in ``simulation`` (default: the document's)."""
    obj = doc.addObject(group_type, name)
    (ContactProxy if kind == "Contact" else PROXIES[kind])(obj)
    gui_hooks.call_hook("created", obj)
    if kind != "Simulation":
        sim = simulation if simulation is not None else find_simulation(doc)
        if sim is not None:
            sim.addObject(obj)
    return obj


def make_simulation(doc: App.Document, name: str = "Simulation", **settings: Any) -> App.DocumentObject:
    """A new Simulation container (settings from the user's preferences); ``settings`` set its
    properties (EndTimeMilliseconds=2000, AbsoluteTolerance="1e-8", GravityZ=... [mm/s^2], ...);
    ``Gravity`` (a vector [mm/s^2], the property of older versions) sets GravityX, GravityY and GravityZ."""
    obj = _new(doc, "Simulation", name, group_type="App::DocumentObjectGroupPython")
    gravity = settings.pop("Gravity", None)
    if gravity is not None:
        obj.GravityX, obj.GravityY, obj.GravityZ = (float(c) for c in gravity)
    for key, value in settings.items():
        setattr(obj, key, value)
    return obj


def check_part(part: App.DocumentObject, what: str = "part") -> None:
    """Raise CadError unless ``part`` has a usable solid (checked by computing its mass properties)."""
    if part is None:
        raise CadError("no %s given" % what)
    mass_properties(part)


def make_body(
    doc: App.Document,
    part: App.DocumentObject,
    density: float | None = None,
    mass: float = 0.0,
    grounded: bool = False,
    label: str | None = None,
    material: str | None = None,
    simulation: App.DocumentObject | None = None,
) -> App.DocumentObject:
    """A Body made of ``part``. ``density`` [kg/m^3] (default: steel 7850), ``mass`` [kg]
    (0: from density), ``material`` a name of MATERIALS. Raises CadError (document
    unchanged) when the part has no solid, zero volume or already is a body."""
    existing = body_of_part(doc, part)
    if existing is not None:
        raise CadError("part '%s' already is body '%s'" % (part.Label, existing.Label))
    check_part(part)
    if material is not None and material not in MATERIALS:
        raise CadError("unknown material %r (one of %s)" % (material, ", ".join(MATERIALS)))
    obj = _new(doc, "Body", "Body", simulation)
    obj.Label = label or "%s_body" % part.Label
    obj.Part = part
    if material is not None:
        obj.Material = material
    if density is not None:
        set_density(obj, density)
    obj.Mass = float(mass)
    obj.Grounded = bool(grounded)
    obj.recompute()
    return obj


def _placement(frame: App.Placement | Sequence) -> App.Placement:
    """App.Placement from a Placement or (origin [mm], z axis, x axis or None)."""
    import FreeCAD as App

    if isinstance(frame, App.Placement):
        return App.Placement(frame)
    origin, z, x = (list(frame) + [None])[:3]
    return placement_from_axes(origin, z, x)


def check_joint_bodies(jtype: str, body1: App.DocumentObject, body2: App.DocumentObject, label: str = "joint") -> None:
    """Raise CadError for an unknown type, a joint on one body twice or between two fixed sides."""
    if jtype not in JOINT_TYPES:
        raise CadError("%s: unknown joint type %r (one of %s)" % (label, jtype, ", ".join(JOINT_TYPES)))
    _check_sides(body1, body2, label)


def _check_sides(body1: App.DocumentObject, body2: App.DocumentObject, label: str) -> None:
    """Raise CadError unless the two sides are two different bodies (None: the ground)."""
    for b in (body1, body2):
        if b is not None and mbd_type(b) != "Body":
            raise CadError("%s: '%s' is not a Multibody Dynamics body" % (label, b.Label))
    if body1 is not None and body1 == body2:
        raise CadError(
            "%s: both sides are the same part '%s' (a joint needs two different parts)"
            % (label, body1.Part.Label if body1.Part else body1.Label)
        )
    if body1 is None and body2 is None:
        raise CadError("%s: both sides are the ground; pick geometry on at least one part" % label)


def make_joint(
    doc: App.Document,
    jtype: str,
    body1: App.DocumentObject,
    body2: App.DocumentObject,
    frame: App.Placement | Sequence,
    label: str | None = None,
    references: tuple[str, str] = ("", ""),
    simulation: App.DocumentObject | None = None,
) -> App.DocumentObject:
    """A joint of type ``jtype`` between Body objects ``body1`` and ``body2`` (None: ground)
    with ``frame`` (App.Placement, or (origin [mm], z axis, x axis)) global at the initial
    configuration. Raises CadError (document unchanged) on bad input."""
    check_joint_bodies(jtype, body1, body2, "joint '%s'" % (label or jtype))
    placement = _placement(frame)
    obj = _new(doc, "Joint", "Joint", simulation)
    obj.Label = label or jtype.capitalize()
    obj.JointType = jtype
    obj.Body1, obj.Body2 = body1, body2
    obj.Frame = placement
    obj.Reference1, obj.Reference2 = references
    return obj


def or_list(names: Sequence[str]) -> str:
    """'a, b or c' (for messages)."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def driven_joint_types() -> tuple[str, ...]:
    """The joint types that accept some driver, in catalogue order."""
    return tuple(j for j in JOINT_TYPES if any(j in joints_driven_by(d) for d in DRIVER_TYPES))


def _default_driver_type(jtype: str) -> str:
    """The first driver type ``jtype`` accepts (rotational when it accepts none: reported later)."""
    accepted = [d for d in DRIVER_TYPES if jtype in joints_driven_by(d)]
    return accepted[0] if accepted else DRIVER_TYPES[0]


def make_driver(
    doc: App.Document,
    joint: App.DocumentObject,
    profile: str = "constant_speed",
    driver_type: str | None = None,
    label: str | None = None,
    simulation: App.DocumentObject | None = None,
    **values: Any,
) -> App.DocumentObject:
    """A driver on ``joint``; ``values`` set Rate, Amplitude, Frequency, Phase, Expression."""
    if joint is None or mbd_type(joint) != "Joint":
        raise CadError("a driver needs a joint (select a %s joint)" % or_list(driven_joint_types()))
    jt = joint.JointType
    if driver_type is None:
        driver_type = _default_driver_type(jt)
    if driver_type not in DRIVER_TYPES:
        raise CadError("driver type must be %s, got %r" % (" or ".join("'%s'" % d for d in DRIVER_TYPES), driver_type))
    allowed = joints_driven_by(driver_type)
    if jt not in allowed:
        raise CadError(
            "joint '%s' is %s: a %s driver needs a %s joint" % (joint.Label, jt, driver_type, " or ".join(allowed))
        )
    obj = _new(doc, "Driver", "Driver", simulation)
    obj.Label = label or "Motor"
    obj.Joint = joint
    obj.DriverType = driver_type
    obj.Profile = profile
    for key, value in values.items():
        setattr(obj, key, value)
    return obj


def make_spring_damper(
    doc: App.Document,
    body1: App.DocumentObject,
    point1: Sequence[float] | None,
    body2: App.DocumentObject,
    point2: Sequence[float] | None,
    stiffness: float = 1.0,
    damping: float = 0.0,
    label: str | None = None,
    simulation: App.DocumentObject | None = None,
    joint: App.DocumentObject | None = None,
) -> App.DocumentObject:
    """A translational spring-damper [N/mm, N s/mm] between two global points [mm], or a
    rotational one [N mm/deg, N mm s/deg] on ``joint`` (then bodies and points are ignored)."""
    if joint is not None:
        rotational = joints_driven_by("rotational")
        if mbd_type(joint) != "Joint" or joint.JointType not in rotational:
            raise CadError("a rotational spring needs a %s joint" % " or ".join(rotational))
    else:
        _check_sides(body1, body2, "spring '%s'" % (label or "Spring"))
    obj = _new(doc, "SpringDamper", "Spring", simulation)
    obj.Label = label or "Spring"
    if joint is not None:
        obj.Kind, obj.Joint = "rotational", joint
    else:
        obj.Body1, obj.Body2 = body1, body2
        obj.Point1, obj.Point2 = app_vector(*point1), app_vector(*point2)
    obj.Stiffness, obj.Damping = float(stiffness), float(damping)
    return obj


def make_force(
    doc: App.Document,
    body: App.DocumentObject,
    components: Sequence = ("0", "0", "0"),
    point: Sequence[float] | None = None,
    kind: str = "point_force",
    axes: str = "global",
    label: str | None = None,
    simulation: App.DocumentObject | None = None,
) -> App.DocumentObject:
    """A point force [N] at a global point [mm] (default: the CoG) or a torque [N mm] on ``body``;
    components are numbers or expressions in t [s]."""
    if body is None or mbd_type(body) != "Body":
        raise CadError("a force needs a body")
    obj = _new(doc, "Force", "Force", simulation)
    obj.Label = label or ("Force" if kind == "point_force" else "Torque")
    obj.Kind, obj.Body, obj.Axes = kind, body, axes
    if point is None:
        body.recompute()
        point = tuple(body.CenterOfGravity)
    obj.Point = app_vector(*point)
    obj.X, obj.Y, obj.Z = (str(c) for c in components)
    return obj


def _check_force_field(spec, value, what: str) -> None:
    """CadError unless a body/joint field holds an object of the right kind."""
    if spec.kind in BODY_KINDS:
        if value is None and spec.kind == "moving_body":
            raise CadError("%s: %s needs a moving body" % (what, spec.name))
        if value is not None and mbd_type(value) != "Body":
            raise CadError("%s: %s '%s' is not a Multibody Dynamics body" % (what, spec.name, value.Label))
    if spec.kind in JOINT_KINDS:
        allowed = joint_types_for(spec.kind)
        if value is None or mbd_type(value) != "Joint" or value.JointType not in allowed:
            raise CadError("%s: %s needs a %s joint" % (what, spec.name, or_list(allowed)))


def make_force_element(
    doc: App.Document,
    ftype: str,
    label: str | None = None,
    simulation: App.DocumentObject | None = None,
    **values: Any,
) -> App.DocumentObject:
    """A force element of catalogue type ``ftype`` (one without a dedicated object, see
    force_fields.generic_force_types); ``values`` by field name in FreeCAD's units (bodies and
    joints as objects, points [mm], lengths [mm], angles [deg], other numbers and profiles in
    their SI unit; see force_fields.field_unit). Raises CadError (document unchanged) on bad input."""
    if ftype not in generic_force_types():
        raise CadError("force type %r has no generic object (one of %s)" % (ftype, or_list(generic_force_types())))
    record = FORCES[ftype]
    what = "%s '%s'" % (record.label or ftype, label or record.label)
    unknown = set(values) - set(record.field_names)
    if unknown:
        raise CadError(
            "%s: unknown field(s) %s (fields: %s)" % (what, ", ".join(sorted(unknown)), ", ".join(record.field_names))
        )
    for spec in record.fields:
        if spec.kind in BODY_KINDS + JOINT_KINDS:
            _check_force_field(spec, values.get(spec.name), what)
    obj = _new(doc, "ForceElement", "Force", simulation)
    obj.ForceType = ftype
    obj.Proxy.setup(obj)
    obj.Label = label or record.label or ftype
    for spec in record.fields:
        if spec.name in values:
            set_field(obj, spec, values[spec.name])
    return obj


def _contact_side(body: App.DocumentObject | None, face: str, what: str) -> None:
    if body is None or mbd_type(body) != "Body":
        raise CadError("%s: each side needs a Multibody Dynamics body, got %s" % (what, body.Label if body else "none"))
    if face and not (face.startswith("Face") and face[4:].isdigit()):
        raise CadError("%s: '%s' is not a face name (Face1, Face2, ...)" % (what, face))


def make_contact(
    doc: App.Document,
    body1: App.DocumentObject | None = None,
    body2: App.DocumentObject | None = None,
    face1: str = "",
    face2: str = "",
    bodies: Sequence[App.DocumentObject] = (),
    label: str | None = None,
    simulation: App.DocumentObject | None = None,
    **law: Any,
) -> App.DocumentObject:
    """A Contact between ``body1`` and ``body2`` (faces ``face1``/``face2`` of their parts, e.g.
    "Face6"; "": the whole solid), or with ``bodies`` every pair among them not joined directly
    by a joint. ``law`` sets the law's properties (Restitution=0.8, StaticFriction=0.3, ...).
    Raises CadError (document unchanged) on bad input."""
    what = "contact '%s'" % (label or "Contact")
    if bodies:
        if len(bodies) < 2:
            raise CadError("%s: 'all pairs' needs at least two bodies" % what)
        for body in bodies:
            _contact_side(body, "", what)
    else:
        _contact_side(body1, face1, what)
        _contact_side(body2, face2, what)
        if body1 == body2:
            raise CadError("%s: both sides are body '%s'" % (what, body1.Label))
    unknown = sorted(set(law) - {spec[1] for spec in ContactProxy.properties(None)})
    if unknown:
        raise CadError("%s: unknown propert%s %s" % (what, "ies" if len(unknown) > 1 else "y", ", ".join(unknown)))
    obj = _new(doc, "Contact", "Contact", simulation)
    obj.Label = label or "Contact"
    if bodies:
        obj.AllPairs, obj.Bodies = True, list(bodies)
    else:
        obj.Body1, obj.Body2, obj.Face1, obj.Face2 = body1, body2, face1, face2
    for key, value in law.items():
        setattr(obj, key, value)
    return obj
