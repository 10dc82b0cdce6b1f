"""The catalogue of element types: one record per joint, driver and force type.

Every list of joint, driver or force types in the project (model validation, the system
assembly, the mobility analysis, the FreeCAD document objects and commands, the FreeCAD
Assembly import, the docs) is derived from these records. To add a joint type built from
existing primitive rows, add one :class:`JointType` here and an icon
``resources/icons/joint_<name>.svg`` (see CONTRIBUTING.md).

Primitive rows are written once, in :mod:`.joints` (value, Jacobian and gamma).
A row is ``(kind, *args)``: ``(POINT, axis)`` with axis 0, 1, 2 a global direction;
``(DP1, a_i, a_j)`` two joint-frame axes kept perpendicular
(``(DP1, a_i, a_j, "cos_angle")``: at the joint's angle); ``(DP2, a_i)`` the frame
origin on body j kept in the plane of body i normal to a_i; ``(DISTANCE,)`` the two anchor
points kept at the joint's length (:func:`.model.distance_anchors`); ``(DISTXY, a_i)`` the frame
origin on body j kept at the joint's length from the axis along a_i through the origin on body i;
the coupler rows ``(GEAR,)`` (orbit angles of the two frames, ratio of pitch radii) and
``(LEAD, a_i)`` (translation along a_i against the rotation about z_i) take the joint's
``parameters`` (:func:`.model.coupler_coefficients`).
Axis names: ``xi``, ``yi``, ``zi`` (frame axes carried by body i), ``xj``, ``yj``, ``zj`` (carried
by body j).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..numerics.joints import ANGLE, DISTANCE, DISTXY, DP1, DP2, GEAR, LEAD, POINT

Row = tuple

_POINT3: tuple[Row, ...] = ((POINT, 0), (POINT, 1), (POINT, 2))
_AXES_PARALLEL: tuple[Row, ...] = ((DP1, "zi", "xj"), (DP1, "zi", "yj"))


@dataclass(frozen=True)
class Relaxation:
    """A weaker joint that may replace a redundant one: ``frame`` names a frame
    transform of :mod:`.analyses.mobility` (``None``: the frame is kept)."""

    type: str
    frame: str | None = None


@dataclass(frozen=True)
class JointType:
    """One kind of kinematic joint.

    name: the model-file and API name; rows: its primitive constraint rows;
    label / tooltip: GUI text; needs_axis: the joint frame needs an axis picked from the
    geometry (its z axis); drivers: driver types (:data:`DRIVER_TYPES`) it accepts, also
    the joints that take a rotational spring-damper; relaxations: weaker joints tried,
    in order, when its equations are redundant; assembly_names: FreeCAD 1.x Assembly
    ``JointType`` values mapped directly onto it; frees: the relative motion it allows
    (docs); coordinates: its relative coordinates (keys of :data:`COORDINATES`) written as
    results in joints.csv with their rates; parameters: the model-file fields [m] it requires
    (coupler joints: pitch radii, pitch)."""

    name: str
    rows: tuple[Row, ...]
    label: str
    tooltip: str
    needs_axis: bool = True
    drivers: tuple[str, ...] = ()
    relaxations: tuple[Relaxation, ...] = ()
    assembly_names: tuple[str, ...] = ()
    frees: str = ""
    coordinates: tuple[str, ...] = ()
    parameters: tuple[str, ...] = ()

    @property
    def equations(self) -> int:
        """Number of scalar constraint equations."""
        return len(self.rows)

    @property
    def icon(self) -> str:
        """Icon name under resources/icons (without .svg)."""
        return "joint_" + self.name

    @property
    def takes_angle(self) -> bool:
        """Whether it keeps an angle [rad] between two axes (a DP1 row with the constant
        ``cos_angle``): the joint's ``angle``."""
        return any(row[0] == DP1 and row[3:] == ("cos_angle",) for row in self.rows)

    @property
    def takes_length(self) -> bool:
        """Whether it keeps a length [m] (DISTANCE or DISTXY rows): the joint's ``length``."""
        return any(row[0] in (DISTANCE, DISTXY) for row in self.rows)


# What a force element or a driver applies, and its SI unit (the reports' effort unit).
EFFORT_UNITS: dict[str, str] = {"force": "N", "torque": "N m"}


@dataclass(frozen=True)
class DriverType:
    """A rheonomic constraint on a joint coordinate: ``row`` measures the coordinate
    (zero at the initial configuration), ``unit`` its SI unit; ``effort`` what it applies to
    body_j to impose it (a key of :data:`EFFORT_UNITS`: torque or force)."""

    name: str
    row: Row
    unit: str
    label: str
    coordinate: str
    effort: str = "force"

    @property
    def effort_unit(self) -> str:
        """SI unit of its effort (drivers.csv, reports, plots): N m or N."""
        return EFFORT_UNITS[self.effort]


# Kinds of force-element fields: model.py reads and checks each kind the same way for every
# force type (same JSON paths and messages), reading a force's fields kind by kind in this order.
FIELD_KINDS: dict[str, str] = {
    "moving_body": "name of a moving body (not ground, not grounded)",
    "body": "name of a body, or ground",
    "other_body": "name of a body, or ground, other than the force's previous body field",
    "rotational_joint": "name of a joint that takes a rotational driver (revolute, cylindrical)",
    "frame": "'global' or 'body'",
    "profiles3": "3 profiles of t (numbers, expressions in t or profile objects)",
    "point": "global point at the initial configuration [m]",
    "nonneg": "number >= 0",
    "number": "finite number",
}
REQUIRED = "required"  # default of a field that must be given
# Field kinds by role (reports, FreeCAD objects and panels treat each group alike).
BODY_KINDS: tuple[str, ...] = ("moving_body", "body", "other_body")
JOINT_KINDS: tuple[str, ...] = ("rotational_joint",)
NUMBER_KINDS: tuple[str, ...] = ("nonneg", "number")
JOINT_KIND_DRIVERS: dict[str, str] = {"rotational_joint": "rotational"}  # joints that accept this driver


@dataclass(frozen=True)
class ForceField:
    """One model-file field of a force type: ``kind`` is a key of :data:`FIELD_KINDS`;
    ``default`` the value when the field is absent (:data:`REQUIRED`: it must be given;
    ``None`` for a number: it may also be null); ``doc`` its meaning and unit (the docs
    table of tools/catalog_docs.py and the ``model.Force`` docstring); ``range`` the key of
    ``limits.RANGES`` its numbers must lie in (fields of kind point, nonneg and number). A
    field name shared by several force types has one kind, one default and one range.

    Reports and the FreeCAD object read these too: ``unit`` the SI unit of a number or of
    the profiles (points are in m); ``symbol`` its name in the report (default: the field
    name); ``absent`` what an unset optional field means ("the CoG")."""

    name: str
    kind: str
    default: object = REQUIRED
    doc: str = ""
    range: str = "number"
    unit: str = ""
    symbol: str = ""
    absent: str = ""

    @property
    def shown_as(self) -> str:
        """Its name in reports: ``symbol`` or the field name with spaces."""
        return self.symbol or self.name.replace("_", " ")

    @property
    def value_when_absent(self) -> object:
        """The attribute value of ``model.Force`` when the field is not given."""
        return None if self.default == REQUIRED else self.default


@dataclass(frozen=True)
class ForceType:
    """One kind of force element: ``fields`` are its model-file fields besides name and
    type, in the order model files list them; ``label`` / ``tooltip`` the GUI text;
    ``conservative``: it only stores energy (its potential is in the energy balance) unless
    one of its ``dissipative`` fields is non-zero (the quality gate checks the energy of
    models whose elements all keep it; applied loads are not conservative); ``effort``
    what it applies (a key of :data:`EFFORT_UNITS`: force or torque). Its
    formula is one element kernel in :mod:`.kernels` (generic over real and complex
    arguments: the ODE form and the complex-step Jacobians of :mod:`.integrators.jacobians`
    both call it), its parameters are packed by :mod:`.system`. The report's description,
    the FreeCAD document object, its task panel and toolbar command are built from the
    record (icon ``resources/icons/force_<name>.svg``, else a generic one)."""

    name: str
    fields: tuple[ForceField, ...]
    label: str = ""
    tooltip: str = ""
    conservative: bool = False
    dissipative: tuple[str, ...] = ()
    effort: str = "force"

    @property
    def field_names(self) -> tuple[str, ...]:
        """Names of its fields besides name and type."""
        return tuple(f.name for f in self.fields)

    @property
    def effort_unit(self) -> str:
        """SI unit of what it applies: N or N m."""
        return EFFORT_UNITS[self.effort]

    @property
    def icon(self) -> str:
        """Icon name under resources/icons (without .svg)."""
        return "force_" + self.name


# The order is the GUI order (toolbar, property enumeration): keep existing entries in place.
JOINTS: dict[str, JointType] = {
    j.name: j
    for j in (
        JointType(
            "revolute",
            _POINT3 + _AXES_PARALLEL,
            "Revolute joint",
            "Rotation about one axis (pick a circular edge, cylindrical face, ...)",
            drivers=("rotational",),
            relaxations=(Relaxation("spherical"), Relaxation("universal", "swap_xz"), Relaxation("cylindrical")),
            assembly_names=("Revolute",),
            frees="rotation about z",
            coordinates=("angle",),
        ),
        JointType(
            "prismatic",
            _AXES_PARALLEL + ((DP2, "xi"), (DP2, "yi"), (DP1, "xi", "yj")),
            "Prismatic joint",
            "Translation along one axis",
            drivers=("linear",),
            relaxations=(Relaxation("cylindrical"),),
            assembly_names=("Slider",),
            frees="translation along z",
            coordinates=("displacement",),
        ),
        JointType(
            "cylindrical",
            _AXES_PARALLEL + ((DP2, "xi"), (DP2, "yi")),
            "Cylindrical joint",
            "Rotation about and translation along one axis",
            drivers=("rotational", "linear"),
            assembly_names=("Cylindrical",),
            frees="rotation about and translation along z",
            coordinates=("angle", "displacement"),
        ),
        JointType(
            "spherical",
            _POINT3,
            "Spherical joint",
            "Ball joint at a point (pick a vertex, circle or sphere)",
            needs_axis=False,
            assembly_names=("Ball",),
            frees="3 rotations",
        ),
        JointType(
            "planar",
            _AXES_PARALLEL + ((DP2, "zi"),),
            "Planar joint",
            "Motion in a plane (pick a planar face: its normal)",
            frees="translation in the x-y plane, rotation about z",
        ),
        JointType(
            "fixed",
            _POINT3 + _AXES_PARALLEL + ((DP1, "xi", "yj"),),
            "Fixed joint",
            "Glues two parts together",
            needs_axis=False,
            relaxations=(Relaxation("spherical"), Relaxation("cylindrical"), Relaxation("revolute")),
            assembly_names=("Fixed",),
            frees="nothing",
        ),
        JointType(
            "universal",
            _POINT3 + ((DP1, "xi", "yj"),),
            "Universal joint",
            "Cardan joint: pick one axis on each part (the cross axes)",
            relaxations=(Relaxation("spherical"),),
            frees="rotation about x (carried by body_i) and y (carried by body_j)",
        ),
        # FreeCAD's Assembly "Distance" joint is not mapped by name: it becomes a different
        # constraint for each pair of picked geometries (point-point, sphere-sphere: a distance;
        # plane-plane: planar; ...; cad/assembly_distances.py).
        JointType(
            "distance",
            ((DISTANCE,),),
            "Distance joint (rod)",
            "Massless rod: keeps two points at a fixed distance (picked point on the first part, "
            "centre of gravity of the second)",
            needs_axis=False,
            frees="all but the distance of the two points",
        ),
        # Orientation-only and point/line/plane primitives of FreeCAD's Assembly (Parallel,
        # Perpendicular, Angle 0/90/180 deg, and the Distance variants; cad/assembly_import.py).
        JointType(
            "parallel",
            _AXES_PARALLEL,
            "Parallel axes",
            "Keeps the z axes of the two frames parallel (orientation only)",
            assembly_names=("Parallel",),
            frees="translations, rotation about z",
        ),
        JointType(
            "perpendicular",
            ((DP1, "zi", "zj"),),
            "Perpendicular axes",
            "Keeps the z axes of the two frames perpendicular (orientation only)",
            assembly_names=("Perpendicular",),
            frees="all but the angle of the two z axes",
        ),
        JointType(
            "angle",
            ((DP1, "zi", "zj", "cos_angle"),),
            "Angle between axes",
            "Keeps the z axes of the two frames at the joint's angle (orientation only)",
            frees="all but the angle of the two z axes",
        ),
        JointType(
            "point_in_plane",
            ((DP2, "zi"),),
            "Point in plane",
            "The frame origin on the second part stays in the x-y plane of the first frame",
            frees="all but the distance from the plane",
        ),
        JointType(
            "point_on_line",
            ((DP2, "xi"), (DP2, "yi")),
            "Point on line",
            "The frame origin on the second part stays on the z axis of the first frame",
            frees="translation along z, 3 rotations",
        ),
        JointType(
            "point_line_distance",
            ((DISTXY, "zi"),),
            "Point at a distance from a line",
            "The frame origin on the second part stays at the joint's length from the z axis of the first frame",
            frees="all but the distance from the axis",
        ),
        JointType(
            "line_line_distance",
            _AXES_PARALLEL + ((DISTXY, "zi"),),
            "Parallel lines at a distance",
            "The z axes of the two frames stay parallel, at the joint's length from each other",
            frees="translation along z and about the first axis, rotation about z",
        ),
        JointType(
            "line_in_plane",
            ((DP2, "zi"), (DP1, "zi", "zj")),
            "Line in plane",
            "The z axis of the second frame stays in the x-y plane of the first frame",
            frees="translation in the x-y plane, rotation about z and about the line",
        ),
        # Coupler joints (FreeCAD Assembly's Gears, Belt, RackPinion, Screw): one equation between
        # two frames, each on its own body (frame_i, frame_j); the bodies' other joints (revolute,
        # prismatic, cylindrical) hold the axes. Multiplier: the coupling force [N].
        JointType(
            "gear",
            ((GEAR,),),
            "Gear pair",
            "Couples the rotations of two gears about their frames' z axes (radius_i theta_i = "
            "-radius_j theta_j, angles of the line of centres in each frame): opposite turning",
            assembly_names=("Gears",),
            frees="all but the rolling of the pitch circles",
            parameters=("radius_i", "radius_j"),
        ),
        JointType(
            "belt",
            ((GEAR,),),
            "Belt drive",
            "Couples the rotations of two pulleys about their frames' z axes (radius_i theta_i = "
            "radius_j theta_j): same turning",
            assembly_names=("Belt",),
            frees="all but the rolling of the belt on the pulleys",
            parameters=("radius_i", "radius_j"),
        ),
        JointType(
            "rack_pinion",
            ((LEAD, "xi"),),
            "Rack and pinion",
            "Couples the translation of the rack (body_i, along its frame's x axis) and the rotation "
            "of the pinion (body_j, about the frame's z axis): x + radius theta = const",
            assembly_names=("RackPinion",),
            frees="all but the rolling of the pinion on the rack",
            parameters=("radius",),
        ),
        JointType(
            "screw",
            ((LEAD, "zi"),),
            "Screw",
            "Couples the translation of the nut (body_i, along its frame's z axis) and the rotation "
            "of the screw (body_j, about it): z = pitch theta / 2 pi + const",
            assembly_names=("Screw",),
            frees="all but the advance of the nut per turn",
            parameters=("pitch",),
        ),
    )
}

COUPLER_PARAMETERS: tuple[str, ...] = tuple(dict.fromkeys(p for j in JOINTS.values() for p in j.parameters))

DRIVERS: dict[str, DriverType] = {
    d.name: d
    for d in (
        DriverType("rotational", (ANGLE,), "rad", "Rotational driver", "joint angle about the frame z axis", "torque"),
        DriverType("linear", (DP2, "zi"), "m", "Linear driver", "displacement along the frame z axis", "force"),
    )
}


@dataclass(frozen=True)
class CoordinateType:
    """A relative joint coordinate written as a result (joints.csv): measured by the row
    of the driver type ``driver`` (so a driven joint's coordinate is its driver profile),
    ``unit`` and ``rate_unit`` its SI units; angles are unwrapped over time."""

    name: str
    driver: str
    unit: str
    rate_unit: str
    doc: str

    @property
    def row(self) -> Row:
        """The primitive row measuring the coordinate."""
        return DRIVERS[self.driver].row


# The order is the column order in joints.csv.
COORDINATES: dict[str, CoordinateType] = {
    c.name: c
    for c in (
        CoordinateType("angle", "rotational", "rad", "rad/s", "rotation of body_j about the frame z axis, unwrapped"),
        CoordinateType("displacement", "linear", "m", "m/s", "translation of body_j along the frame z axis"),
    )
}

FORCES: dict[str, ForceType] = {
    f.name: f
    for f in (
        ForceType(
            "point_force",
            (
                ForceField("body", "moving_body"),
                ForceField("point", "point", None, "global, default: the CoG", "length", absent="the CoG"),
                ForceField("force", "profiles3", doc="3 profiles, N", unit="N", symbol="F"),
                ForceField("frame", "frame", "global", "`global`/`body`, default `global`"),
            ),
            "Force",
            "A force [N] at a body point, profiles of t, global or body frame",
        ),
        ForceType(
            "torque",
            (
                ForceField("body", "moving_body"),
                ForceField("torque", "profiles3", doc="3 profiles, N m", unit="N m", symbol="T"),
                ForceField("frame", "frame", "global", "`global`/`body`, default `global`"),
            ),
            "Torque",
            "A torque [N m] on a body, profiles of t, global or body frame",
            effort="torque",
        ),
        ForceType(
            "spring_damper",
            (
                ForceField("body_i", "body"),
                ForceField("point_i", "point", doc="global", range="length"),
                ForceField("body_j", "other_body"),
                ForceField("point_j", "point", doc="global", range="length"),
                ForceField("stiffness", "nonneg", 0.0, "N/m", "stiffness", "N/m", "k"),
                ForceField("damping", "nonneg", 0.0, "N s/m", "damping", "N s/m", "c"),
                ForceField(
                    "free_length",
                    "nonneg",
                    None,
                    "m, default: the initial distance",
                    "nonneg_length",
                    "m",
                    absent="the initial distance",
                ),
            ),
            "Spring-damper",
            "Translational spring-damper between two body points",
            conservative=True,
            dissipative=("damping",),
        ),
        ForceType(
            "rotational_spring_damper",
            (
                ForceField("joint", "rotational_joint", doc="revolute/cylindrical"),
                ForceField("stiffness", "nonneg", 0.0, "N m/rad", "stiffness", "N m/rad", "k"),
                ForceField("damping", "nonneg", 0.0, "N m s/rad", "damping", "N m s/rad", "c"),
                ForceField(
                    "free_angle",
                    "number",
                    0.0,
                    "rad, joint angle, 0 at the initial configuration, measured in (-pi, pi] around it",
                    "angle",
                    "rad",
                ),
            ),
            "Torsion spring-damper",
            "Rotational spring-damper on a revolute or cylindrical joint",
            conservative=True,
            dissipative=("damping",),
            effort="torque",
        ),
    )
}

JOINT_TYPES: tuple[str, ...] = tuple(JOINTS)
DRIVER_TYPES: tuple[str, ...] = tuple(DRIVERS)
FORCE_TYPES: tuple[str, ...] = tuple(FORCES)


def joints_driven_by(driver_type: str) -> tuple[str, ...]:
    """Joint types that accept a driver of ``driver_type``."""
    return tuple(j.name for j in JOINTS.values() if driver_type in j.drivers)


def joint_types_for(kind: str) -> tuple[str, ...]:
    """Joint types a force field of joint ``kind`` (:data:`JOINT_KINDS`) may name."""
    return joints_driven_by(JOINT_KIND_DRIVERS[kind])


def joint_for_assembly(assembly_name: str) -> str | None:
    """Our joint type for a FreeCAD Assembly ``JointType`` value mapped directly, or None (also for
    the couplers, whose parameters and second frame are mapped by cad/assembly_couplers.py)."""
    for j in JOINTS.values():
        if assembly_name in j.assembly_names and not j.parameters:
            return j.name
    return None


INDEX1_FORMULATION = (
    "the index-1 DAE (acceleration-level constraints) with Baumgarte stabilisation and Tikhonov-regularised multipliers"
)
INDEX3_FORMULATION = "the index-3 DAE (position-level constraints) directly, no stabilisation"
TREE_FORMULATION = (
    "the equations of motion in joint coordinates (open tree, no constraint equations), "
    "articulated-body algorithm; multipliers from the index-1 KKT system at the output times"
)


@dataclass(frozen=True)
class IntegratorType:
    """One time integrator: ``name`` in settings and the CLI, ``label`` for reports and
    messages, ``index`` 1 (acceleration-level constraints, Baumgarte feedback), 3
    (position-level constraints) or 0 (no constraint equations: joint coordinates of an open
    tree), ``description`` for help texts. Its Stepper class (same
    ``name``) is registered in ``integrators.METHODS``."""

    name: str
    label: str
    index: int
    description: str
    step: float = 1e-3  # its default step [s] (adaptive: the largest step); Settings.step None takes it
    rtol: float = 1e-6  # its default relative tolerance (adaptive ones); Settings.rtol None takes it

    @property
    def formulation(self) -> str:
        """Which equations it integrates (for reports)."""
        return {0: TREE_FORMULATION, 1: INDEX1_FORMULATION}.get(self.index, INDEX3_FORMULATION)


# The order is the one users see (CLI help, FreeCAD's Integrator enumeration).
INTEGRATORS: dict[str, IntegratorType] = {
    i.name: i
    for i in (
        IntegratorType("euler", "explicit Euler", 1, "explicit Euler, fixed step"),
        IntegratorType("symplectic_euler", "symplectic Euler", 1, "symplectic Euler, fixed step"),
        IntegratorType("rk4", "RK4", 1, "classical Runge-Kutta of order 4, fixed step"),
        IntegratorType("bdf", "BDF", 1, "SciPy's BDF, adaptive step"),
        IntegratorType("radau", "Radau", 1, "SciPy's Radau IIA, adaptive step"),
        IntegratorType("lsoda", "LSODA", 1, "SciPy's LSODA, adaptive step"),
        IntegratorType(
            "cros", "CROS", 3, "one-stage complex Rosenbrock scheme on the index-3 DAE, fixed step", step=1e-4
        ),
        IntegratorType(
            "galpha", "generalized-alpha", 3, "Lie-group generalized-alpha on the index-3 DAE, adaptive", rtol=1e-8
        ),
        IntegratorType(
            "rk4_tree",
            "RK4 (joint coordinates)",
            0,
            "classical Runge-Kutta of order 4 in joint coordinates, fixed step: open trees of revolute, "
            "prismatic and fixed joints, driven or not",
        ),
    )
}

INTEGRATOR_TYPES: tuple[str, ...] = tuple(INTEGRATORS)

# Defaults of the step and rtol (issue 31, measured in bench/results/accuracy.md): each integrator's own, and a
# run's default step is at most t_end / MIN_DEFAULT_STEPS, so a short run (IFToMM A03: 0.03 s) is resolved too
MIN_DEFAULT_STEPS = 1000


def default_step(integrator: str, t_end: float) -> float:
    """The step [s] a run of ``integrator`` over ``t_end`` [s] takes when settings.step is None."""
    return min(INTEGRATORS[integrator].step, t_end / MIN_DEFAULT_STEPS)


def default_rtol(integrator: str) -> float:
    """The relative tolerance a run of ``integrator`` takes when settings.rtol is None."""
    return INTEGRATORS[integrator].rtol
