"""Document objects of the workbench (App side; work headless and in the GUI).

Every object is an ``App::FeaturePython`` (the Simulation an ``App::DocumentObjectGroupPython``)
whose proxy is one of the classes below. Proxies keep no state: ``__getstate__``/``dumps``
return only the type name, so nothing but the class path is written into the file (FreeCAD
0.20 calls ``__getstate__``/``__setstate__``, 1.0 ``dumps``/``loads``). A hidden
``MbdType`` property names the kind, so the document is readable even where the proxy
classes cannot be imported.

Units (FreeCAD's: mm, kg, s, deg). Lengths, positions, angles and speeds use FreeCAD's unit
properties; quantities FreeCAD 0.20 has no property type for are floats whose unit is in the
property name's tooltip: density [kg/m^3], mass [kg], time [s], stiffness [N/mm] or
[N mm/deg], damping [N s/mm] or [N mm s/deg], gravity [mm/s^2]. Conversion to SI happens in
``document_model`` only.

``addProperty`` is called with positional arguments only (FreeCAD 0.20).

The enumerations (joint, driver types, integrators) come from the solver's registries
(:mod:`MBDWorkbench.solver.catalog`, :func:`MBDWorkbench.solver.integrators.names`); a stored
value is kept by name when an enumeration changes (:func:`_add`). The functions that create
objects are in :mod:`.makers`; this module imports nothing of the GUI (view providers are
attached through :mod:`.gui_hooks`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..solver import integrators
from ..solver.catalog import DRIVER_TYPES, JOINT_TYPES, joints_driven_by
from . import gui_hooks
from .errors import CadError
from .mass_properties import DEFAULT_DENSITY_KG_M3, MassProperties, mass_properties
from .placement import app_vector

if TYPE_CHECKING:
    import FreeCAD as App

MBD_TYPES = ("Simulation", "Body", "Joint", "Driver", "SpringDamper", "Force")
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


def _add(obj, ptype, name, group, tooltip, default=None, mode=None, enum=None):
    """Add property ``name`` if missing (positional addProperty), set its default once."""
    if name not in obj.PropertiesList:
        obj.addProperty(ptype, name, group, tooltip)
        if enum is not None:
            setattr(obj, name, list(enum))
        if default is not None:
            setattr(obj, name, default)
    elif enum is not None and list(obj.getEnumerationsOfProperty(name)) != list(enum):
        value = getattr(obj, name)
        setattr(obj, name, list(enum))
        if value in enum:
            setattr(obj, name, value)
    if mode is not None:
        obj.setEditorMode(name, mode)


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
        g = "Simulation"
        return [
            ("App::PropertyFloat", "EndTime", g, "End time [s]", 2.0),
            ("App::PropertyFloat", "OutputStep", g, "Interval between output samples [s]", 0.01),
            (
                "App::PropertyEnumeration",
                "Integrator",
                g,
                "Integration method",
                DEFAULT_INTEGRATOR,
                None,
                integrators.names(),
            ),
            ("App::PropertyFloat", "Step", g, "Integration step [s] (maximum step for adaptive methods)", 1e-3),
            ("App::PropertyFloat", "RelativeTolerance", g, "Relative tolerance of adaptive methods", 1e-6),
            ("App::PropertyFloat", "AbsoluteTolerance", g, "Absolute tolerance of adaptive methods", 1e-8),
            ("App::PropertyFloat", "BaumgarteAlpha", g, "Baumgarte stabilisation alpha [1/s]", 10.0),
            ("App::PropertyFloat", "BaumgarteBeta", g, "Baumgarte stabilisation beta [1/s]", 10.0),
            ("App::PropertyFloat", "TikhonovEps", g, "Regularisation of redundant constraints (dimensionless)", 1e-10),
            ("App::PropertyBool", "Assemble", g, "Close the joints before the run (initial assembly)", True),
            ("App::PropertyVector", "Gravity", g, "Gravity [mm/s^2]", app_vector(0.0, 0.0, -9810.0)),
            (
                "App::PropertyBool",
                "AllowFreeFlight",
                g,
                "Allow a model with nothing grounded (bodies fly freely)",
                False,
            ),
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


class BodyProxy(_Proxy):
    """A rigid body made of a part's solids; mass properties computed on recompute."""

    Type = "Body"

    def properties(self) -> list[tuple]:
        g, c = "Body", "Mass properties (computed)"
        return [
            ("App::PropertyLink", "Part", g, "The part (solid, App::Part, Link, PartDesign Body) this body is made of"),
            ("App::PropertyEnumeration", "Material", g, "Material (sets the density)", "Steel", None, list(MATERIALS)),
            ("App::PropertyFloat", "Density", g, "Density [kg/m^3] (used unless Mass is given)", DEFAULT_DENSITY_KG_M3),
            ("App::PropertyFloat", "Mass", g, "Explicit mass [kg]; 0 = from density and volume", 0.0),
            ("App::PropertyBool", "Grounded", g, "Fixed to the ground", False),
            ("App::PropertyFloat", "ComputedMass", c, "Mass [kg]", 0.0, READ_ONLY),
            ("App::PropertyVectorDistance", "CenterOfGravity", c, "Centre of gravity, global [mm]", None, READ_ONLY),
            (
                "App::PropertyFloatList",
                "Inertia",
                c,
                "Inertia about the CoG, global axes [kg mm^2]: Ixx, Iyy, Izz, Ixy, Ixz, Iyz",
                None,
                READ_ONLY,
            ),
            ("App::PropertyFloat", "Volume", c, "Volume [mm^3]", 0.0, READ_ONLY),
            ("App::PropertyString", "MassSource", c, "Where the mass properties come from", "", READ_ONLY),
        ]

    def onChanged(self, obj: App.DocumentObject, prop: str) -> None:
        if is_restoring(obj) or getattr(self, "_updating", False):
            return
        if not {"Material", "Density"} <= set(obj.PropertiesList):
            return  # still being set up
        self._updating = True
        try:
            if prop == "Material" and MATERIALS.get(obj.Material) is not None:
                if obj.Density != MATERIALS[obj.Material]:
                    obj.Density = MATERIALS[obj.Material]
            elif prop == "Density":
                if MATERIALS.get(obj.Material) != obj.Density:
                    match = [k for k, v in MATERIALS.items() if v == obj.Density]
                    obj.Material = match[0] if match else "Custom"
        finally:
            self._updating = False

    def execute(self, obj: App.DocumentObject) -> None:
        mp = body_mass_properties(obj)
        obj.ComputedMass = mp.mass
        obj.CenterOfGravity = app_vector(*(mp.cog * 1e3))
        I = mp.inertia * 1e6
        obj.Inertia = [I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]]
        obj.Volume = mp.volume * 1e9
        obj.MassSource = mp.source


class JointProxy(_Proxy):
    """A joint between two bodies (an empty side is the ground); frame global, in mm."""

    Type = "Joint"

    def properties(self) -> list[tuple]:
        g = "Joint"
        return [
            ("App::PropertyEnumeration", "JointType", g, "Kind of joint", JOINT_TYPES[0], None, JOINT_TYPES),
            ("App::PropertyLink", "Body1", g, "First body (empty: the ground); the joint frame is carried by it"),
            ("App::PropertyLink", "Body2", g, "Second body (empty: the ground)"),
            (
                "App::PropertyPlacement",
                "Frame",
                g,
                "Joint frame, global, at the initial configuration: z = joint axis (universal: x = cross "
                "axis on Body1, y = cross axis on Body2)",
            ),
            ("App::PropertyString", "Reference1", g, "Geometry picked on the first part", "", READ_ONLY),
            ("App::PropertyString", "Reference2", g, "Geometry picked on the second part", "", READ_ONLY),
            (
                "App::PropertyPlacement",
                "Frame2",
                "Coupler",
                "Coupler joints (gear, belt, rack_pinion, screw): the frame carried by Body2, global at the "
                "initial configuration (Frame is carried by Body1)",
            ),
            (
                "App::PropertyFloat",
                "Radius1",
                "Coupler",
                "gear, belt: pitch radius on Body1 [mm]; rack_pinion: pinion radius [mm]",
            ),
            ("App::PropertyFloat", "Radius2", "Coupler", "gear, belt: pitch radius on Body2 [mm]"),
            ("App::PropertyFloat", "Pitch", "Coupler", "screw: advance per turn [mm] (negative: left-handed)"),
        ]


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
                "rotational: angle about the joint z axis; linear: displacement along it",
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
            ("App::PropertyFloat", "Frequency", g, "harmonic: frequency [Hz]", 1.0),
            ("App::PropertyAngle", "Phase", g, "harmonic: phase", 0.0),
            (
                "App::PropertyString",
                "Expression",
                g,
                "expression: value [deg] or [mm] as a function of the time t [s], e.g. 90*sin(2*pi*t)",
                "0",
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
            ("App::PropertyFloat", "Stiffness", g, "Stiffness [N/mm] (rotational: [N mm/deg])", 1.0),
            ("App::PropertyFloat", "Damping", g, "Damping [N s/mm] (rotational: [N mm s/deg])", 0.0),
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


PROXIES = {
    cls.Type: cls for cls in (SimulationProxy, BodyProxy, JointProxy, DriverProxy, SpringDamperProxy, ForceProxy)
}


# ----------------------------------------------------------------------------- queries
def body_mass_properties(body: App.DocumentObject) -> MassProperties:
    """MassProperties of a Body object: from its part with its Density, scaled to Mass when
    an explicit mass [kg] is given. Raises CadError naming the body."""
    part = body.Part
    if part is None:
        raise CadError("body '%s' has no part (set its Part property)" % body.Label)
    mp = mass_properties(part, body.Density)
    if body.Mass < 0 or not math.isfinite(body.Mass):
        raise CadError("body '%s': Mass must be positive or 0 (= from density), got %r kg" % (body.Label, body.Mass))
    if body.Mass > 0:
        k = body.Mass / mp.mass
        mp = MassProperties(
            mass=body.Mass,
            cog=mp.cog,
            inertia=mp.inertia * k,
            volume=mp.volume,
            density=body.Mass / mp.volume,
            source=mp.source + "; explicit mass %g kg" % body.Mass,
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
