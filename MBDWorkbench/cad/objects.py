"""Document objects of the workbench (App side; work headless and in the GUI).

Every object is an ``App::FeaturePython`` (the Simulation an ``App::DocumentObjectGroupPython``)
whose proxy is one of the classes below. Proxies keep no state: ``__getstate__``/``dumps``
return only the type name, so nothing but the class path is written into the file (FreeCAD
0.20 calls ``__getstate__``/``__setstate__``, 1.0 ``dumps``/``loads``). A hidden
``MbdType`` property names the kind, so the document is readable even where the proxy
classes cannot be imported.

Units (FreeCAD's: mm, kg, s, deg). Dimensional values are typed, unit-aware properties shown in
the user's unit schema: lengths, angles, gravity (``App::PropertyAcceleration``), volume,
frequency, and ``App::PropertyQuantity`` with a unit for mass [kg], density [kg/m^3]
and inertia [kg mm^2] (FreeCAD 0.20 has no PropertyMass; a PropertyQuantity's unit is not
saved with the document, so :func:`_add` sets it again on every load). Spring stiffness and
damping (unit set by the spring's Kind) are ``App::PropertyPrecision`` (16 decimals; a
PropertyFloat rounds to the Decimals preference). A spec's type ``"App::PropertyQuantity@kg/m^3"``
names the unit; older documents get the typed properties on restore, keeping their values
(:func:`_add`). The Simulation's times are whole ms and µs (:mod:`.time_steps`), its tolerances
text ("1e-8", :mod:`.tolerance_texts`). Conversion to SI happens in ``document_model`` only.
``addProperty`` takes positional arguments only (FreeCAD 0.20).

The enumerations (joint, driver types, integrators) come from the solver's registries
(:mod:`MBDWorkbench.solver.model.catalog`, :func:`MBDWorkbench.solver.integrators.names`); a stored
value is kept by name when an enumeration changes (:func:`_add`). The functions that create
objects are in :mod:`.makers`; this module imports nothing of the GUI (view providers are
attached through :mod:`.gui_hooks`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..solver import integrators
from ..solver.model.catalog import DRIVER_TYPES, DRIVERS, FORCES, JOINT_TYPES, joints_driven_by
from . import gui_hooks
from .errors import CadError, concise_errors
from .force_fields import PRECISION, force_properties
from .joint_friction import friction_properties
from .joint_limits import limit_properties, migrate_stop_model
from .joint_references import is_parametric, update_joint_frames
from .mass_properties import DEFAULT_DENSITY_KG_M3, MassProperties, mass_properties
from .placement import app_vector
from .time_steps import OLD_NAMES, migrated_steps, step_properties
from .tolerance_texts import old_tolerance_texts, tolerance_properties

if TYPE_CHECKING:
    import FreeCAD as App

MBD_TYPES = ("Simulation", "Body", "Joint", "Driver", "SpringDamper", "Force", "ForceElement", "Contact")
DEFAULT_INTEGRATOR = "rk4"

# Densities [kg/m^3] offered by the Body's material picker ("Custom": keep Density).
MATERIALS = {
    "Steel": 7850.0,
    "Stainless steel": 8000.0,
    "Cast iron": 7200.0,
    "Aluminium": 2700.0,
    "Titanium": 4430.0,
    "Brass": 8500.0,
    "Copper": 8960.0,
    "ABS": 1040.0,
    "PLA": 1240.0,
    "Nylon": 1150.0,
    "Oak": 750.0,
    "Custom": None,
}

HIDDEN, READ_ONLY = 2, 1
DENSITY_UNIT, INERTIA_UNIT = "kg/m^3", "kg*mm^2"
INERTIA_NAMES = ("Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz")
# Simulation settings new Simulation objects take from the preferences (Edit > Preferences >
# Multibody Dynamics; commands/preferences.py), with these defaults: name -> (kind, default)
SIMULATION_PREFERENCES = {
    "Integrator": ("string", DEFAULT_INTEGRATOR),
    "EndTime": ("float", 2.0),
    "OutputStep": ("float", 0.01),
    "Step": ("float", 0.0),  # 0: the integrator's own default step (docs/solver.md)
    "RelativeTolerance": ("float", 0.0),  # 0: the integrator's own default rtol
    "AbsoluteTolerance": ("float", 1e-8),
}
QUANTITY = "App::PropertyQuantity"
PREFERENCES = "User parameter:BaseApp/Preferences/Mod/MultibodyDynamics"


def quantity(unit: str) -> str:
    """Property type of a PropertyQuantity in ``unit`` (e.g. "kg/m^3"), for property specs."""
    return "%s@%s" % (QUANTITY, unit)


def unit_scale(unit: str) -> float:
    """FreeCAD's internal value (mm, kg, s based) of 1 ``unit``: 1e-9 for kg/m^3."""
    import FreeCAD as App

    return float(App.Units.Quantity("1 " + unit).Value)


def value_in(quantity_value: App.Units.Quantity | float, unit: str) -> float:
    """A quantity property's value as a float in ``unit`` (a plain float is taken as internal)."""
    return float(getattr(quantity_value, "Value", quantity_value)) / unit_scale(unit)


def set_quietly(obj, name: str, value) -> None:
    """Set property ``name`` without marking the document modified (FreeCAD's NoModify status):
    for what :func:`_add` restores or upgrades while a document is opened."""
    quiet = hasattr(obj, "setPropertyStatus")
    if quiet:
        obj.setPropertyStatus(name, "NoModify")
    try:
        setattr(obj, name, value)
    finally:
        if quiet:
            obj.setPropertyStatus(name, "-NoModify")


def _set_unit(obj, name: str, unit: str) -> None:
    """Give the PropertyQuantity ``name`` its unit (it is not saved with the document)."""
    import FreeCAD as App

    target = App.Units.Quantity("1 " + unit).Unit
    if getattr(obj, name).Unit != target:
        set_quietly(obj, name, target)


def _migrate(obj, name: str, ptype: str):
    """Remove property ``name`` when a document written by an older version has it with another
    type; return its old value (a float in the unit the property had; a link's (object, [subs])
    as it is), else None."""
    if name not in obj.PropertiesList or obj.getTypeIdOfProperty(name) == ptype:
        return None
    old = getattr(obj, name)
    obj.removeProperty(name)
    if "Link" in ptype:  # an XLinkSub of the first parametric joints, now a LinkSubGlobal
        return old
    return float(getattr(old, "Value", old))


def _add(obj, ptype, name, group, tooltip, default=None, mode=None, enum=None):
    """Add property ``name`` if missing (positional addProperty), set its default once.

    ``ptype`` "App::PropertyQuantity@<unit>" adds a PropertyQuantity in that unit (``default``
    in it too). A property of another type (an older document's PropertyFloat) is replaced by
    the typed one keeping its value."""
    ptype, _, unit = ptype.partition("@")
    old = _migrate(obj, name, ptype)
    if name not in obj.PropertiesList:
        obj.addProperty(ptype, name, group, tooltip)
        if unit:
            _set_unit(obj, name, unit)
        if enum is not None:
            setattr(obj, name, list(enum))
        value = old if old is not None else default
        if value is not None:
            set_quietly(obj, name, value * unit_scale(unit) if unit else value)
    elif unit:
        _set_unit(obj, name, unit)
    if enum is not None and list(obj.getEnumerationsOfProperty(name)) != list(enum):
        value = getattr(obj, name)
        setattr(obj, name, list(enum))
        if value in enum:
            setattr(obj, name, value)
    if mode is not None:
        obj.setEditorMode(name, mode)


def simulation_defaults() -> dict:
    """Settings of a new Simulation: the user's preferences, else SIMULATION_PREFERENCES."""
    values = {name: default for name, (_, default) in SIMULATION_PREFERENCES.items()}
    try:
        import FreeCAD as App

        params = App.ParamGet(PREFERENCES)
    except Exception:
        return values
    for name, (kind, default) in SIMULATION_PREFERENCES.items():
        value = params.GetString(name, default) if kind == "string" else params.GetFloat(name, default)
        if kind == "string" and value not in integrators.names():
            value = default
        if kind == "float" and not (math.isfinite(value) and value > 0):
            value = default
        values[name] = value
    return values


def _same(a: float | None, b: float | None) -> bool:
    """Equal to 1e-9 relative (densities after a round trip through FreeCAD's units)."""
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def density_kg_m3(body: App.DocumentObject) -> float:
    """A Body's Density in kg/m^3."""
    return value_in(body.Density, DENSITY_UNIT)


def set_density(body: App.DocumentObject, rho: float) -> None:
    """Set a Body's Density to ``rho`` [kg/m^3]."""
    body.Density = float(rho) * unit_scale(DENSITY_UNIT)


def mbd_type(obj: App.DocumentObject) -> str | None:
    """'Body', 'Joint', ... for objects of this workbench, else None."""
    try:
        value = getattr(obj, "MbdType", None)
    except Exception:
        return None
    return value if value in MBD_TYPES else None


def is_restoring(obj: App.DocumentObject) -> bool:
    """True while the document is being loaded (no derived updates then)."""
    try:
        return "Restore" in obj.State or bool(getattr(obj.Document, "Restoring", False))
    except Exception:
        return False


class _Proxy:
    """Common proxy behaviour: typed properties, stateless pickling."""

    Type = ""

    def __init__(self, obj: App.DocumentObject) -> None:
        obj.Proxy = self
        self.setup(obj)

    def properties(self) -> list[tuple]:
        """(type, name, group, tooltip, default, editor mode, enumeration) tuples."""
        return []

    def setup(self, obj: App.DocumentObject) -> None:
        _add(obj, "App::PropertyString", "MbdType", "Base", "Kind of Multibody Dynamics object", self.Type, HIDDEN)
        for spec in self.properties():
            _add(obj, *spec)

    def onDocumentRestored(self, obj: App.DocumentObject) -> None:
        self.setup(obj)  # adds properties introduced by newer versions
        gui_hooks.call_hook("restored", obj)  # documents made headless have no view provider

    def execute(self, obj: App.DocumentObject) -> None:
        pass

    def onChanged(self, obj: App.DocumentObject, prop: str) -> None:
        pass

    def __getstate__(self) -> dict[str, str]:
        return {"Type": self.Type}

    def __setstate__(self, state: dict[str, str] | None) -> None:
        return None

    def dumps(self) -> dict[str, str]:
        return self.__getstate__()

    def loads(self, state: dict[str, str] | None) -> None:
        return self.__setstate__(state)


class SimulationProxy(_Proxy):
    """The simulation container: solver settings, gravity, stored results."""

    Type = "Simulation"

    def properties(self) -> list[tuple]:
        g, d = "Simulation", simulation_defaults()
        return [
            *step_properties(g, d),  # whole ms and µs: a 1 ms quantity reads "0.00 s" at the Decimals preference (2)
            (
                "App::PropertyEnumeration",
                "Integrator",
                g,
                "Integration method",
                d["Integrator"],
                None,
                integrators.names(),
            ),
            *tolerance_properties(g, d),  # text, "1e-8": a number property reads 0.0000000100000000
            ("App::PropertyFloat", "BaumgarteAlpha", g, "Baumgarte stabilisation alpha [1/s]", 10.0),
            ("App::PropertyFloat", "BaumgarteBeta", g, "Baumgarte stabilisation beta [1/s]", 10.0),
            ("App::PropertyBool", "Assemble", g, "Close the joints before the run (initial assembly)", True),
            ("App::PropertyBool", "EstimateAccuracy", g, "Estimate the run's accuracy (docs/solver.md)", True),
            ("App::PropertyAcceleration", "GravityX", g, "Gravity, global x component", 0.0),
            ("App::PropertyAcceleration", "GravityY", g, "Gravity, global y component", 0.0),
            ("App::PropertyAcceleration", "GravityZ", g, "Gravity, global z component", -9810.0),
            (
                "App::PropertyBool",
                "AllowFreeFlight",
                g,
                "Allow a model with nothing grounded (bodies fly freely)",
                False,
            ),
            ("App::PropertyBool", "MakeDeterminate", g, "Relax redundant joints before each run", False),
            (
                "App::PropertyFileIncluded",
                "ResultsArchive",
                "Results",
                "Results of the last run (zip of the results directory), saved with the document",
                None,
                READ_ONLY,
            ),
            ("App::PropertyStringList", "ResultsSummary", "Results", "Summary of the last run", None, READ_ONLY),
        ]

    def setup(self, obj: App.DocumentObject) -> None:
        old_gravity = obj.Gravity if "Gravity" in obj.PropertiesList else None  # older documents: one vector [mm/s^2]
        old_texts = old_tolerance_texts(obj)  # older documents: numbers
        super().setup(obj)
        for name, value in {**migrated_steps(obj), **old_texts}.items():  # older documents: times [s], numbers
            set_quietly(obj, name, value)
            if name in OLD_NAMES:
                obj.removeProperty(OLD_NAMES[name])
        if old_gravity is not None:
            for name, value in zip(("GravityX", "GravityY", "GravityZ"), old_gravity):
                set_quietly(obj, name, value)
            obj.removeProperty("Gravity")


class BodyProxy(_Proxy):
    """A rigid body made of a part's solids; mass properties computed on recompute."""

    Type = "Body"

    def properties(self) -> list[tuple]:
        g, c = "Body", "Mass properties (computed)"
        return (
            [
                (
                    "App::PropertyLink",
                    "Part",
                    g,
                    "The part (solid, App::Part, Link, PartDesign Body) this body is made of",
                ),
                (
                    "App::PropertyEnumeration",
                    "Material",
                    g,
                    "Material (sets the density)",
                    "Steel",
                    None,
                    list(MATERIALS),
                ),
                (quantity(DENSITY_UNIT), "Density", g, "Density (used unless Mass is given)", DEFAULT_DENSITY_KG_M3),
                (quantity("kg"), "Mass", g, "Explicit mass; 0 = from density and volume", 0.0),
                ("App::PropertyBool", "Grounded", g, "Fixed to the ground", False),
                (quantity("kg"), "ComputedMass", c, "Mass", 0.0, READ_ONLY),
                ("App::PropertyVectorDistance", "CenterOfGravity", c, "Centre of gravity, global", None, READ_ONLY),
                (
                    "App::PropertyFloatList",
                    "Inertia",
                    c,
                    "Inertia about the CoG, global axes [kg mm^2]: Ixx, Iyy, Izz, Ixy, Ixz, Iyz (for scripts; "
                    "shown with units as Ixx ... Iyz)",
                    None,
                    HIDDEN | READ_ONLY,
                ),
            ]
            + [
                (quantity(INERTIA_UNIT), name, c, "Inertia about the CoG, global axes: %s" % name, 0.0, READ_ONLY)
                for name in INERTIA_NAMES
            ]
            + [
                ("App::PropertyVolume", "Volume", c, "Volume", 0.0, READ_ONLY),
                ("App::PropertyString", "MassSource", c, "Where the mass properties come from", "", READ_ONLY),
            ]
        )

    def setup(self, obj: App.DocumentObject) -> None:
        super().setup(obj)
        if len(obj.Inertia) == len(INERTIA_NAMES):  # an older document: show its inertia with units
            for name, value in zip(INERTIA_NAMES, obj.Inertia):
                if float(getattr(obj, name)) != value:
                    set_quietly(obj, name, value)

    def onChanged(self, obj: App.DocumentObject, prop: str) -> None:
        if is_restoring(obj) or getattr(self, "_updating", False):
            return
        if not {"Material", "Density"} <= set(obj.PropertiesList):
            return  # still being set up
        self._updating = True
        try:
            if prop == "Material" and MATERIALS.get(obj.Material) is not None:
                if not _same(density_kg_m3(obj), MATERIALS[obj.Material]):
                    set_density(obj, MATERIALS[obj.Material])
            elif prop == "Density":
                if float(obj.Density) > 1.0:  # a bare number set by a script: kg/m^3, not kg/mm^3
                    set_density(obj, float(obj.Density))
                rho = density_kg_m3(obj)
                if not _same(MATERIALS.get(obj.Material), rho):
                    match = [k for k, v in MATERIALS.items() if _same(v, rho)]
                    obj.Material = match[0] if match else "Custom"
        finally:
            self._updating = False

    @concise_errors
    def execute(self, obj: App.DocumentObject) -> None:
        mp = body_mass_properties(obj)
        obj.ComputedMass = mp.mass
        obj.CenterOfGravity = app_vector(*(mp.cog * 1e3))
        I = mp.inertia * 1e6
        obj.Inertia = [I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]]
        for name, value in zip(INERTIA_NAMES, obj.Inertia):
            setattr(obj, name, value)  # kg mm^2 is FreeCAD's internal unit
        obj.Volume = mp.volume * 1e9
        obj.MassSource = mp.source


class JointProxy(_Proxy):
    """A joint between two bodies (an empty side is the ground); frame global, in mm. A joint made
    from picks is parametric: its frames follow the picked elements (:mod:`.joint_references`)."""

    Type = "Joint"

    def onDocumentRestored(self, obj: App.DocumentObject) -> None:
        migrate_stop_model(obj)  # before the newer properties get their defaults
        super().onDocumentRestored(obj)

    def properties(self) -> list[tuple]:
        g, extra = "Joint", limit_properties() + friction_properties()
        return [
            ("App::PropertyEnumeration", "JointType", g, "Kind of joint", JOINT_TYPES[0], None, JOINT_TYPES),
            ("App::PropertyLink", "Body1", g, "First body (empty: the ground); the joint frame is carried by it"),
            ("App::PropertyLink", "Body2", g, "Second body (empty: the ground)"),
            (
                "App::PropertyPlacement",
                "Frame",
                g,
                "Joint frame, global, at the initial configuration: z = joint axis (universal: x = cross "
                "axis on Body1, y = cross axis on Body2); computed from References1/2 and Offset1 when Parametric",
            ),
            ("App::PropertyString", "Reference1", g, "Geometry picked on the first part", "", READ_ONLY),
            ("App::PropertyString", "Reference2", g, "Geometry picked on the second part", "", READ_ONLY),
            (
                "App::PropertyBool",
                "Parametric",
                g,
                "Frame (and Frame2) follow References1/2 and Offset1/2 on recompute, so CAD edits move the joint; "
                "false: Frame is kept as stored",
                False,
            ),
            ("App::PropertyLinkSubGlobal", "References1", g, "Element (vertex, edge, face) on the first part"),
            (
                "App::PropertyLinkSubGlobal",
                "References2",
                g,
                "Element on the second part (a joint to the ground: this one)",
            ),
            ("App::PropertyPlacement", "Offset1", g, "Parametric: Frame relative to the frame the references give"),
            ("App::PropertyPlacement", "Offset2", g, "Parametric: Frame2 relative to the frame References2 gives"),
            (
                "App::PropertyBool",
                "SeparateFrames",
                g,
                "Frame is carried by Body1 and Frame2 by Body2 (both global, at the initial configuration); "
                "they need not coincide there (joints imported from a FreeCAD Assembly)",
                False,
            ),
            (
                "App::PropertyPlacement",
                "Frame2",
                g,
                "With SeparateFrames, and always for coupler joints (gear, belt, rack_pinion, screw): the frame "
                "carried by Body2, global",
            ),
            ("App::PropertyFloat", "Length", g, "Distance joints with SeparateFrames: length [mm] (0: initial)", 0.0),
            (
                "App::PropertyFloat",
                "Angle",
                g,
                "Angle joints with SeparateFrames: angle [deg] of the z axes (0: initial)",
                0.0,
            ),
            (
                "App::PropertyFloat",
                "Radius1",
                "Coupler",
                "gear, belt: pitch radius on Body1 [mm]; rack_pinion: pinion radius [mm]",
            ),
            ("App::PropertyFloat", "Radius2", "Coupler", "gear, belt: pitch radius on Body2 [mm]"),
            ("App::PropertyFloat", "Pitch", "Coupler", "screw: advance per turn [mm] (negative: left-handed)"),
        ] + extra

    def setup(self, obj: App.DocumentObject) -> None:
        super().setup(obj)
        self._frame_modes(obj)

    @staticmethod
    def _frame_modes(obj: App.DocumentObject) -> None:
        """Frame and Frame2 are read-only outputs of a parametric joint."""
        mode = READ_ONLY if is_parametric(obj) else 0
        for name in ("Frame", "Frame2"):
            obj.setEditorMode(name, mode)

    def onChanged(self, obj: App.DocumentObject, prop: str) -> None:
        if prop == "Parametric" and "Frame2" in obj.PropertiesList:
            self._frame_modes(obj)

    @concise_errors
    def execute(self, obj: App.DocumentObject) -> None:
        update_joint_frames(obj)  # CadError naming the joint and a broken reference


class DriverProxy(_Proxy):
    """Imposes a joint's angle [deg] or displacement [mm] as a function of time."""

    Type = "Driver"

    def properties(self) -> list[tuple]:
        g = "Driver"
        return [
            (
                "App::PropertyLink",
                "Joint",
                g,
                "Driven joint (%s)" % "; ".join("%s: %s" % ("/".join(joints_driven_by(d)), d) for d in DRIVER_TYPES),
            ),
            (
                "App::PropertyEnumeration",
                "DriverType",
                g,
                "; ".join("%s: %s" % (d.name, d.coordinate) for d in DRIVERS.values()),
                "rotational",
                None,
                DRIVER_TYPES,
            ),
            (
                "App::PropertyEnumeration",
                "Profile",
                g,
                "Motion profile (value is 0 at the start)",
                "constant_speed",
                None,
                ("constant_speed", "harmonic", "expression"),
            ),
            ("App::PropertyFloat", "Rate", g, "constant_speed: speed [deg/s] or [mm/s]", 360.0),
            ("App::PropertyFloat", "Amplitude", g, "harmonic: amplitude [deg] or [mm]", 30.0),
            ("App::PropertyFrequency", "Frequency", g, "harmonic: frequency", 1.0),
            ("App::PropertyAngle", "Phase", g, "harmonic: phase", 0.0),
            (
                "App::PropertyString",
                "Expression",
                g,
                "expression: value [deg] or [mm] as a function of the time t [s], e.g. 90*sin(2*pi*t)",
                "0",
            ),
            (
                "App::PropertyString",
                "AssemblyMotion",
                g,
                "Name of the FreeCAD Assembly motion this driver was imported from (empty: made here)",
                "",
                READ_ONLY,
            ),
        ]


class SpringDamperProxy(_Proxy):
    """A translational spring-damper between two points, or a rotational one on a joint."""

    Type = "SpringDamper"

    def properties(self) -> list[tuple]:
        g = "Spring damper"
        return [
            (
                "App::PropertyEnumeration",
                "Kind",
                g,
                "translational: between Point1 and Point2; rotational: about the axis of Joint",
                "translational",
                None,
                ("translational", "rotational"),
            ),
            ("App::PropertyLink", "Body1", g, "First body (empty: the ground)"),
            ("App::PropertyVectorDistance", "Point1", g, "Attachment on Body1, global, initial [mm]"),
            ("App::PropertyLink", "Body2", g, "Second body (empty: the ground)"),
            ("App::PropertyVectorDistance", "Point2", g, "Attachment on Body2, global, initial [mm]"),
            ("App::PropertyLink", "Joint", g, "rotational: %s joint" % " or ".join(joints_driven_by("rotational"))),
            (PRECISION, "Stiffness", g, "Stiffness [N/mm] (rotational: [N mm/deg])", 1.0),
            (PRECISION, "Damping", g, "Damping [N s/mm] (rotational: [N mm s/deg])", 0.0),
            ("App::PropertyBool", "UseInitialLength", g, "Free length = initial distance (translational)", True),
            ("App::PropertyLength", "FreeLength", g, "Free length (when UseInitialLength is false)", 0.0),
            ("App::PropertyAngle", "FreeAngle", g, "rotational: joint angle of zero torque (0 = initial)", 0.0),
        ]


class ForceProxy(_Proxy):
    """An applied force at a point or a torque on a body; components may depend on time t."""

    Type = "Force"

    def properties(self) -> list[tuple]:
        g = "Force"
        return [
            (
                "App::PropertyEnumeration",
                "Kind",
                g,
                "point_force [N] or torque [N mm]",
                "point_force",
                None,
                ("point_force", "torque"),
            ),
            ("App::PropertyLink", "Body", g, "Body the load acts on"),
            ("App::PropertyVectorDistance", "Point", g, "Point of application, global, initial [mm]"),
            (
                "App::PropertyEnumeration",
                "Axes",
                g,
                "Components in global axes or in the body's axes",
                "global",
                None,
                ("global", "body"),
            ),
            ("App::PropertyString", "X", g, "x component [N] or [N mm]: number or expression in t [s]", "0"),
            ("App::PropertyString", "Y", g, "y component [N] or [N mm]", "0"),
            ("App::PropertyString", "Z", g, "z component [N] or [N mm]", "0"),
        ]


class ForceElementProxy(_Proxy):
    """A force element of any catalogue type (catalog.FORCES) without a dedicated object: its
    properties are built from the record's fields (bodies and joints: links, points: vectors
    [mm], lengths [mm], angles [deg], other numbers and profiles in their SI unit). The
    hidden ``ForceType`` names the record."""

    Type = "ForceElement"

    def properties(self) -> list[tuple]:
        return [("App::PropertyString", "ForceType", "Base", "Force type (catalog.FORCES)", "", READ_ONLY)]

    def setup(self, obj: App.DocumentObject) -> None:
        super().setup(obj)
        record = FORCES.get(obj.ForceType)
        if record is not None:
            for spec in force_properties(record):
                _add(obj, *spec)


BaseProxy = _Proxy  # the base of proxies defined in other modules (contact_objects.ContactProxy)
PROXIES = {
    cls.Type: cls
    for cls in (SimulationProxy, BodyProxy, JointProxy, DriverProxy, SpringDamperProxy, ForceProxy, ForceElementProxy)
}


# ----------------------------------------------------------------------------- queries
def body_mass_properties(body: App.DocumentObject) -> MassProperties:
    """MassProperties of a Body object: from its part with its Density, scaled to Mass when
    an explicit mass [kg] is given. Raises CadError naming the body."""
    part = body.Part
    if part is None:
        raise CadError("body '%s' has no part (set its Part property)" % body.Label)
    mp = mass_properties(part, density_kg_m3(body))
    mass = float(body.Mass)  # kg
    if mass < 0 or not math.isfinite(mass):
        raise CadError("body '%s': Mass must be positive or 0 (= from density), got %r kg" % (body.Label, mass))
    if mass > 0:
        k = mass / mp.mass
        mp = MassProperties(
            mass=mass,
            cog=mp.cog,
            inertia=mp.inertia * k,
            volume=mp.volume,
            density=mass / mp.volume,
            source=mp.source + "; explicit mass %g kg" % mass,
            label=mp.label,
            n_solids=mp.n_solids,
            density_source="explicit mass",
            notes=mp.notes,
        )
    return mp


def find_objects(doc: App.Document, kind: str | None = None) -> list:
    """Objects of this workbench in ``doc`` (of one MbdType when ``kind`` is given)."""
    return [o for o in doc.Objects if mbd_type(o) and (kind is None or mbd_type(o) == kind)]


def find_simulation(doc: App.Document) -> App.DocumentObject | None:
    """The document's Simulation (the first one), or None."""
    sims = find_objects(doc, "Simulation")
    return sims[0] if sims else None


def simulation_members(sim: App.DocumentObject) -> list:
    """MBD objects in a Simulation's group (recursively)."""
    out, todo = [], list(sim.Group)
    while todo:
        o = todo.pop(0)
        if mbd_type(o):
            out.append(o)
        todo += list(getattr(o, "Group", []) or [])
    return out


def body_of_part(doc: App.Document, part: App.DocumentObject) -> App.DocumentObject | None:
    """The Body object whose Part is ``part``, or None."""
    for b in find_objects(doc, "Body"):
        if b.Part == part:
            return b
    return None
