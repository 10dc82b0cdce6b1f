"""The catalogue of element types: one record per joint, driver and force type.

Every list of joint, driver or force types in the project (model validation, the system
assembly, the mobility analysis, the FreeCAD document objects and commands, the FreeCAD
Assembly import, the docs) is derived from these records. To add a joint type built from
existing primitive rows, add one :class:`JointType` here and an icon
``resources/icons/joint_<name>.svg`` (see CONTRIBUTING.md).

Primitive rows are written once, in :mod:`.joints` (value, Jacobian and gamma).
A row is ``(kind, *args)``: ``(POINT, axis)`` with axis 0, 1, 2 a global direction;
``(DP1, a_i, a_j)`` two joint-frame axes kept perpendicular; ``(DP2, a_i)`` the frame
origin on body j kept in the plane of body i normal to a_i. Axis names: ``xi``, ``yi``,
``zi`` (frame axes carried by body i), ``xj``, ``yj`` (carried by body j).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .joints import ANGLE, DP1, DP2, POINT

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
    ``JointType`` values mapped directly onto it."""

    name: str
    rows: tuple[Row, ...]
    label: str
    tooltip: str
    needs_axis: bool = True
    drivers: tuple[str, ...] = ()
    relaxations: tuple[Relaxation, ...] = ()
    assembly_names: tuple[str, ...] = ()

    @property
    def equations(self) -> int:
        """Number of scalar constraint equations."""
        return len(self.rows)

    @property
    def icon(self) -> str:
        """Icon name under resources/icons (without .svg)."""
        return "joint_" + self.name


@dataclass(frozen=True)
class DriverType:
    """A rheonomic constraint on a joint coordinate: ``row`` measures the coordinate
    (zero at the initial configuration), ``unit`` its SI unit."""

    name: str
    row: Row
    unit: str
    label: str
    coordinate: str


@dataclass(frozen=True)
class ForceType:
    """One kind of force element: ``fields`` are its model-file fields besides name and
    type; ``label`` / ``tooltip`` the GUI text. Its formula is one element kernel in
    :mod:`.kernels`, generic over real and complex arguments (the ODE form and the
    complex-step Jacobians of :mod:`.integrators.jacobians` both call it)."""

    name: str
    fields: frozenset = field(default_factory=frozenset)
    label: str = ""
    tooltip: str = ""


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
        ),
        JointType(
            "prismatic",
            _AXES_PARALLEL + ((DP2, "xi"), (DP2, "yi"), (DP1, "xi", "yj")),
            "Prismatic joint",
            "Translation along one axis",
            drivers=("linear",),
            relaxations=(Relaxation("cylindrical"),),
            assembly_names=("Slider",),
        ),
        JointType(
            "cylindrical",
            _AXES_PARALLEL + ((DP2, "xi"), (DP2, "yi")),
            "Cylindrical joint",
            "Rotation about and translation along one axis",
            drivers=("rotational", "linear"),
            assembly_names=("Cylindrical",),
        ),
        JointType(
            "spherical",
            _POINT3,
            "Spherical joint",
            "Ball joint at a point (pick a vertex, circle or sphere)",
            needs_axis=False,
            assembly_names=("Ball",),
        ),
        JointType(
            "planar",
            _AXES_PARALLEL + ((DP2, "zi"),),
            "Planar joint",
            "Motion in a plane (pick a planar face: its normal)",
        ),
        JointType(
            "fixed",
            _POINT3 + _AXES_PARALLEL + ((DP1, "xi", "yj"),),
            "Fixed joint",
            "Glues two parts together",
            needs_axis=False,
            relaxations=(Relaxation("spherical"), Relaxation("cylindrical"), Relaxation("revolute")),
            assembly_names=("Fixed",),
        ),
        JointType(
            "universal",
            _POINT3 + ((DP1, "xi", "yj"),),
            "Universal joint",
            "Cardan joint: pick one axis on each part (the cross axes)",
            relaxations=(Relaxation("spherical"),),
        ),
    )
}

DRIVERS: dict[str, DriverType] = {
    d.name: d
    for d in (
        DriverType("rotational", (ANGLE,), "rad", "Rotational driver", "joint angle about the frame z axis"),
        DriverType("linear", (DP2, "zi"), "m", "Linear driver", "displacement along the frame z axis"),
    )
}

FORCES: dict[str, ForceType] = {
    f.name: f
    for f in (
        ForceType(
            "point_force",
            frozenset({"body", "point", "force", "frame"}),
            "Force",
            "A force [N] at a body point, profiles of t, global or body frame",
        ),
        ForceType(
            "torque",
            frozenset({"body", "torque", "frame"}),
            "Torque",
            "A torque [N m] on a body, profiles of t, global or body frame",
        ),
        ForceType(
            "spring_damper",
            frozenset({"body_i", "point_i", "body_j", "point_j", "stiffness", "damping", "free_length"}),
            "Spring-damper",
            "Translational spring-damper between two body points",
        ),
        ForceType(
            "rotational_spring_damper",
            frozenset({"joint", "stiffness", "damping", "free_angle"}),
            "Torsion spring-damper",
            "Rotational spring-damper on a revolute or cylindrical joint",
        ),
    )
}

JOINT_TYPES: tuple[str, ...] = tuple(JOINTS)
DRIVER_TYPES: tuple[str, ...] = tuple(DRIVERS)
FORCE_TYPES: tuple[str, ...] = tuple(FORCES)


def joints_driven_by(driver_type: str) -> tuple[str, ...]:
    """Joint types that accept a driver of ``driver_type``."""
    return tuple(j.name for j in JOINTS.values() if driver_type in j.drivers)


def joint_for_assembly(assembly_name: str) -> str | None:
    """Our joint type for a FreeCAD Assembly ``JointType`` value mapped directly, or None."""
    for j in JOINTS.values():
        if assembly_name in j.assembly_names:
            return j.name
    return None
