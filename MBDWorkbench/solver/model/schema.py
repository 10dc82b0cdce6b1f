"""The model description shared by the JSON files, the CAD importer and the Python API.

All quantities are SI (m, kg, s, rad, N). Positions, joint frames and attachment points
are given in global coordinates at the initial configuration unless a field says
``local`` (then they are in the body's own frame, relative to its centre of gravity).
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, field, make_dataclass

import numpy as np

from ..tolerances import ENERGY_TOL, VIOLATION_ANGLE_TOL, VIOLATION_TOL
from .catalog import (
    FORCES,
    default_rtol,
    default_step,
)
from .contacts import contact_dict

GROUND = "ground"


@dataclass
class Body:
    """A rigid body; ``position`` is its centre of gravity, ``orientation`` the quaternion
    [qw, qx, qy, qz] of its own frame; ``inertia`` is the 3x3 tensor about the CoG in that
    frame [kg m^2]; ``velocity`` [m/s] and ``angular_velocity`` [rad/s] are global.

    A ``point_mass`` has no inertia (None or zeros; stored as zeros) and no rotation: its
    orientation stays as given, its angular velocity is zero, and joints and forces attach to it
    at its centre and must not turn it (see :func:`joint_rows`)."""

    name: str
    mass: float
    inertia: list = None
    position: list = field(default_factory=lambda: [0.0, 0.0, 0.0])
    orientation: list = field(default_factory=lambda: [1.0, 0.0, 0.0, 0.0])
    velocity: list = field(default_factory=lambda: [0.0, 0.0, 0.0])
    angular_velocity: list = field(default_factory=lambda: [0.0, 0.0, 0.0])
    grounded: bool = False
    source: str = ""
    point_mass: bool = False

    def __post_init__(self) -> None:
        if self.point_mass and self.inertia is None:
            self.inertia = [[0.0] * 3 for _ in range(3)]


@dataclass
class Frame:
    """A joint frame: origin [m] and z/x axes; global unless attached to a body locally."""

    origin: list
    z_axis: list = field(default_factory=lambda: [0.0, 0.0, 1.0])
    x_axis: list = None


@dataclass
class Stop:
    """The end stop of a joint coordinate (docs/joint-limits.md). ``model`` "rigid" (the default,
    None: model.joint_stops.stop_model): Newton's impact law with ``restitution`` e in [0, 1]
    (default 0.5) at the located impact, then held while it pushes (solver/events.py).
    "compliant" (also when a compliant field is given without a model): Adams' IMPACT law,
    beyond a limit by d > 0 it applies k d^e + c(d) d', never pulling, c(d) ramping from 0 to
    ``damping`` c_max as d grows to ``penetration``. Units per coordinate (angle: rad, N m;
    travel: m, N). Absent fields are derived (model.joint_stops): ``stiffness`` from
    ``contact_time`` [s] (a linear stop, e = 1, only) and the coordinate's inertia, ``damping``
    at a damping ratio of 0.2, ``penetration`` from them."""

    model: str = None
    restitution: float = None
    stiffness: float = None
    exponent: float = 1.0
    damping: float = None
    penetration: float = None
    contact_time: float = None


@dataclass
class Friction:
    """Coulomb friction of a joint (docs/joint-friction.md): static and kinetic coefficients
    ``mu_s`` >= ``mu_k`` >= 0 and the joint's geometry [m]: ``pin_radius`` and ``pin_length``
    (revolute, cylindrical), ``ball_radius`` (spherical), ``contact_length`` (prismatic,
    cylindrical translation uses the pin length)."""

    mu_s: float = None
    mu_k: float = None
    pin_radius: float = None
    pin_length: float = None
    ball_radius: float = None
    contact_length: float = None


@dataclass
class Joint:
    """A kinematic joint between body_i and body_j (either may be ``ground``).

    Give ``frame`` (global, initial configuration) or both ``frame_i`` and ``frame_j``
    (local to each body). Universal joints: the first cross axis is the frame's x axis on
    body_i, the second the frame's y axis on body_j. Distance joints keep two anchor points
    (:func:`distance_anchors`) at ``length`` [m] (default: their initial distance): the origins
    of ``frame_i`` and ``frame_j``, or the origin of ``frame`` on body_i and ``point_j`` on body_j
    (global, initial configuration; default: body_j's centre of gravity). Angle joints keep
    the z axes of frame_i and frame_j at ``angle`` [rad] (default: their initial angle). Coupler
    joints take the fields their type lists in ``catalog.JOINTS[type].parameters``: pitch radii
    ``radius_i``, ``radius_j`` [m] (gear, belt), the pinion's pitch radius ``radius`` [m]
    (rack_pinion), the ``pitch`` [m per turn] of a screw (negative: left-handed).

    Limits (docs/joint-limits.md) on the joint coordinates of joints.csv: ``angle_min``,
    ``angle_max`` [rad] (revolute, cylindrical), ``travel_min``, ``travel_max`` [m] (prismatic,
    cylindrical), each enforced by a :class:`Stop` (``angle_stop``, ``travel_stop``; rigid by default);
    ``angle_damping`` [N m s/rad] and ``travel_damping`` [N s/m]: viscous joint damping.
    ``friction``: Coulomb friction with stiction (:class:`Friction`, docs/joint-friction.md)."""

    name: str
    type: str
    body_i: str
    body_j: str
    frame: Frame = None
    frame_i: Frame = None
    frame_j: Frame = None
    point_j: list = None
    length: float = None
    angle: float = None
    radius_i: float = None
    radius_j: float = None
    radius: float = None
    pitch: float = None
    angle_min: float = None
    angle_max: float = None
    travel_min: float = None
    travel_max: float = None
    angle_stop: Stop = None
    travel_stop: Stop = None
    angle_damping: float = None
    travel_damping: float = None
    friction: Friction = None


def _force_class() -> type:
    """The Force dataclass: name, type and one attribute per field of the force types of
    catalog.FORCES, equal to the field's default when absent (None for required fields)."""
    defaults = {}
    for ftype in FORCES.values():
        for spec in ftype.fields:
            defaults.setdefault(spec.name, spec.value_when_absent)
    attributes = [("name", str), ("type", str)] + [(k, object, field(default=v)) for k, v in defaults.items()]
    cls = make_dataclass("Force", attributes, namespace={"__module__": __name__})
    cls.__doc__ = "A force element; ``type`` is one of FORCE_TYPES, its fields are (catalog.FORCES):\n\n" + "\n".join(
        f"{t.name}: " + ", ".join(f"{f.name} [{f.doc}]" if f.doc else f.name for f in t.fields) for t in FORCES.values()
    )
    return cls


Force = _force_class()


@dataclass
class Driver:
    """A rheonomic constraint: joint angle [rad] (rotational) or displacement along the
    joint z axis [m] (linear), zero at the initial configuration, equal to profile(t)."""

    name: str
    type: str
    joint: str
    profile: object


@dataclass
class Settings:
    """Solver settings; Baumgarte alpha, beta [1/s]; Tikhonov eps is dimensionless
    (relative to the unit-diagonal Schur complement); ``check_limits``: refuse runs whose
    estimated size exceeds the limits of :mod:`.limits` (False: run anyway). Quality gate
    (docs/solver.md): ``violation_tol`` (position violation / model length scale,
    dimensionless), ``violation_angle_tol`` [rad], ``energy_tol`` (energy error / energy
    exchanged, conservative models); ``allow_overdriven`` runs an over-driven model instead of
    refusing it. Accuracy estimate (docs/solver.md): ``accuracy`` (False: none), its tolerances
    ``accuracy_position_tol`` (CoG error / model length scale, dimensionless),
    ``accuracy_angle_tol`` [rad] and ``accuracy_load_tol`` (fraction of the peak load).

    ``step`` [s] and ``rtol`` None: the integrator's own defaults
    (:func:`.catalog.default_step`, :func:`.catalog.default_rtol`), set by :meth:`resolved` when a run starts."""

    t_end: float = 1.0
    step: float | None = None
    output_step: float = 1e-2
    integrator: str = "rk4"
    rtol: float | None = None
    atol: float = 1e-8
    baumgarte_alpha: float = 10.0
    baumgarte_beta: float = 10.0
    tikhonov_eps: float = 1e-10
    assemble: bool = True
    rho_inf: float = 0.8
    projection: bool = False
    check_limits: bool = True
    violation_tol: float = VIOLATION_TOL
    violation_angle_tol: float = VIOLATION_ANGLE_TOL
    energy_tol: float = ENERGY_TOL
    allow_overdriven: bool = False
    accuracy: bool = True
    accuracy_position_tol: float = 1e-3
    accuracy_angle_tol: float = 1e-3
    accuracy_load_tol: float = 0.01

    def resolved(self) -> Settings:
        """A copy whose step and rtol are set: the integrator's own defaults where they are None
        (the one place they are chosen; a run's summary.json and report show the values used)."""
        out = copy.copy(self)
        if out.step is None:
            out.step = default_step(out.integrator, out.t_end)
        if out.rtol is None:
            out.rtol = default_rtol(out.integrator)
        return out


@dataclass
class Model:
    """A complete mechanism: bodies, joints, forces, drivers, gravity [m/s^2], settings."""

    name: str = "model"
    bodies: list = field(default_factory=list)
    joints: list = field(default_factory=list)
    forces: list = field(default_factory=list)
    drivers: list = field(default_factory=list)
    contacts: list = field(default_factory=list)  # model.contacts.Contact pairs (docs/contact.md)
    gravity: list = field(default_factory=lambda: [0.0, 0.0, -9.81])
    settings: Settings = field(default_factory=Settings)
    description: str = ""
    warnings: list = field(default_factory=list, compare=False)  # RunWarning found building it (not saved)
    sources: dict = field(
        default_factory=dict, compare=False
    )  # joint name -> the CAD geometry it came from (not saved)

    def body(self, name: str) -> Body:
        """The body called ``name`` (KeyError if absent); an index by name kept and checked at
        each look-up (a model's pairs look their bodies up: a pile of N bodies, N^2 times)."""
        index = self.__dict__.get("_body_index") or {}
        k = index.get(name)
        if k is None or k >= len(self.bodies) or self.bodies[k].name != name:
            index = self.__dict__["_body_index"] = {b.name: i for i, b in reversed(list(enumerate(self.bodies)))}
            k = index.get(name)
            if k is None:
                raise KeyError(name)
        return self.bodies[k]

    def joint(self, name: str) -> Joint:
        """The joint called ``name`` (KeyError if absent)."""
        for j in self.joints:
            if j.name == name:
                return j
        raise KeyError(name)

    def to_dict(self) -> dict:
        """A JSON-ready dict (the format of docs/model-format.md) that ``from_dict`` reads
        back: each force keeps only the fields of its type."""
        d = _strip_none(asdict(self))
        d.pop("warnings", None)  # they go into the run's summary.json, not the model file
        d.pop("sources", None)
        d.pop("relaxations", None)  # summary.json lists them; the model file holds the relaxed types
        d["forces"] = [_force_dict(f) for f in d["forces"]]
        d["contacts"] = [contact_dict(c) for c in self.contacts]
        if not d["contacts"]:
            d.pop("contacts")
        for b in d["bodies"]:  # a point mass has no inertia; a rigid body does not say it is one
            b.pop("inertia" if b["point_mass"] else "point_mass", None)
        return d

    def save(self, path: str) -> None:
        """Write the model as JSON."""
        with open(path, "w") as f:
            json.dump(self.to_dict(), f, indent=2)


def _force_dict(f: dict) -> dict:
    """Name, type and the fields of the force's type, in the catalogue order."""
    ftype = FORCES.get(f.get("type"))
    keys = ("name", "type") + (ftype.field_names if ftype else ())
    return {k: f[k] for k in keys if k in f}


def _strip_none(obj):
    if isinstance(obj, dict):
        return {k: _strip_none(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, list):
        return [_strip_none(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    return obj
