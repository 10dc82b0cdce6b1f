"""The model description shared by the JSON files, the CAD importer and the Python API.

All quantities are SI (m, kg, s, rad, N). Positions, joint frames and attachment points
are given in global coordinates at the initial configuration unless a field says
``local`` (then they are in the body's own frame, relative to its centre of gravity).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, make_dataclass

import numpy as np

from .catalog import (
    DRIVER_TYPES,
    FIELD_KINDS,
    FORCE_TYPES,
    FORCES,
    INTEGRATOR_TYPES,
    JOINT_TYPES,
    REQUIRED,
    ForceField,
    joints_driven_by,
)
from .errors import ModelError
from .tolerances import ENERGY_TOL, VIOLATION_ANGLE_TOL, VIOLATION_TOL

GROUND = "ground"


@dataclass
class Body:
    """A rigid body; ``position`` is its centre of gravity, ``orientation`` the quaternion
    [qw, qx, qy, qz] of its own frame; ``inertia`` is the 3x3 tensor about the CoG in that
    frame [kg m^2]; ``velocity`` [m/s] and ``angular_velocity`` [rad/s] are global."""

    name: str
    mass: float
    inertia: list
    position: list = field(default_factory=lambda: [0.0, 0.0, 0.0])
    orientation: list = field(default_factory=lambda: [1.0, 0.0, 0.0, 0.0])
    velocity: list = field(default_factory=lambda: [0.0, 0.0, 0.0])
    angular_velocity: list = field(default_factory=lambda: [0.0, 0.0, 0.0])
    grounded: bool = False
    source: str = ""


@dataclass
class Frame:
    """A joint frame: origin [m] and z/x axes; global unless attached to a body locally."""

    origin: list
    z_axis: list = field(default_factory=lambda: [0.0, 0.0, 1.0])
    x_axis: list = None


@dataclass
class Joint:
    """A kinematic joint between body_i and body_j (either may be ``ground``).

    Give ``frame`` (global, initial configuration) or both ``frame_i`` and ``frame_j``
    (local to each body). Universal joints: the first cross axis is the frame's x axis on
    body_i, the second the frame's y axis on body_j."""

    name: str
    type: str
    body_i: str
    body_j: str
    frame: Frame = None
    frame_i: Frame = None
    frame_j: Frame = None


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
    (relative to the unit-diagonal Schur complement). Quality gate (docs/solver.md):
    ``violation_tol`` (position violation / model length scale, dimensionless),
    ``violation_angle_tol`` [rad], ``energy_tol`` (energy error / energy exchanged, conservative
    models); ``allow_overdriven`` runs an over-driven model instead of refusing it."""

    t_end: float = 1.0
    step: float = 1e-3
    output_step: float = 1e-2
    integrator: str = "rk4"
    rtol: float = 1e-6
    atol: float = 1e-8
    baumgarte_alpha: float = 10.0
    baumgarte_beta: float = 10.0
    tikhonov_eps: float = 1e-10
    assemble: bool = True
    rho_inf: float = 0.8
    projection: bool = False
    violation_tol: float = VIOLATION_TOL
    violation_angle_tol: float = VIOLATION_ANGLE_TOL
    energy_tol: float = ENERGY_TOL
    allow_overdriven: bool = False


@dataclass
class Model:
    """A complete mechanism: bodies, joints, forces, drivers, gravity [m/s^2], settings."""

    name: str = "model"
    bodies: list = field(default_factory=list)
    joints: list = field(default_factory=list)
    forces: list = field(default_factory=list)
    drivers: list = field(default_factory=list)
    gravity: list = field(default_factory=lambda: [0.0, 0.0, -9.81])
    settings: Settings = field(default_factory=Settings)
    description: str = ""

    def body(self, name: str) -> Body:
        """The body called ``name`` (KeyError if absent)."""
        for b in self.bodies:
            if b.name == name:
                return b
        raise KeyError(name)

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
        d["forces"] = [_force_dict(f) for f in d["forces"]]
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


# ----------------------------------------------------------------------------- loading
def load(path: str) -> Model:
    """Load and validate a JSON model file."""
    try:
        with open(path) as f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise ModelError(str(path), f"not valid JSON: {e}") from None
    return from_dict(data)


def from_dict(data: dict) -> Model:
    """Build and validate a Model from a dict (the JSON format)."""
    if not isinstance(data, dict):
        raise ModelError("$", "the model must be a JSON object")
    _reject_unknown(
        data, "$", {"name", "bodies", "joints", "forces", "drivers", "gravity", "settings", "description", "units"}
    )
    if data.get("units", "SI") != "SI":
        raise ModelError("units", "only SI units are supported in model files")
    model = Model(
        name=str(data.get("name", "model")),
        description=str(data.get("description", "")),
        gravity=list(_vector(data.get("gravity", [0.0, 0.0, -9.81]), "gravity")),
        bodies=[_body(b, f"bodies[{k}]") for k, b in enumerate(_list(data, "bodies"))],
        joints=[_joint(j, f"joints[{k}]") for k, j in enumerate(_list(data, "joints"))],
        forces=[_force(f, f"forces[{k}]") for k, f in enumerate(_list(data, "forces"))],
        drivers=[_driver(d, f"drivers[{k}]") for k, d in enumerate(_list(data, "drivers"))],
        settings=_settings(data.get("settings", {}), "settings"),
    )
    validate(model)
    return model


def _list(data, key):
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ModelError(key, "must be a list")
    return value


def _reject_unknown(d, path, allowed):
    if not isinstance(d, dict):
        raise ModelError(path, "must be an object")
    unknown = sorted(set(d) - set(allowed))
    if unknown:
        raise ModelError(f"{path}.{unknown[0]}", f"unknown field (allowed: {', '.join(sorted(allowed))})")


def _number(value, path, positive=False, nonnegative=False):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ModelError(path, f"must be a finite number, got {value!r}")
    if positive and value <= 0:
        raise ModelError(path, f"must be positive, got {value!r}")
    if nonnegative and value < 0:
        raise ModelError(path, f"must not be negative, got {value!r}")
    return float(value)


def _vector(value, path, n=3):
    if not isinstance(value, (list, tuple, np.ndarray)) or len(value) != n:
        raise ModelError(path, f"must be a list of {n} numbers, got {value!r}")
    return [_number(v, f"{path}[{k}]") for k, v in enumerate(value)]


def _name(d, path, key="name"):
    value = d.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ModelError(f"{path}.{key}", "must be a non-empty string")
    return value


def _inertia(value, path):
    """Accept [Ixx, Iyy, Izz], [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (tensor entries) or 3x3."""
    if isinstance(value, (list, tuple)) and len(value) == 3 and all(isinstance(r, (list, tuple)) for r in value):
        return [_vector(r, f"{path}[{k}]") for k, r in enumerate(value)]
    if isinstance(value, (list, tuple)) and len(value) in (3, 6):
        v = [_number(x, f"{path}[{k}]") for k, x in enumerate(value)]
        if len(v) == 3:
            return [[v[0], 0.0, 0.0], [0.0, v[1], 0.0], [0.0, 0.0, v[2]]]
        return [[v[0], v[3], v[4]], [v[3], v[1], v[5]], [v[4], v[5], v[2]]]
    raise ModelError(path, "must be [Ixx, Iyy, Izz], [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] or a 3x3 list")


def _body(d, path):
    _reject_unknown(
        d,
        path,
        {"name", "mass", "inertia", "position", "orientation", "velocity", "angular_velocity", "grounded", "source"},
    )
    name = _name(d, path)
    if name == GROUND:
        raise ModelError(f"{path}.name", f"'{GROUND}' is reserved for the fixed ground")
    if "mass" not in d:
        raise ModelError(f"{path}.mass", f"missing (body '{name}')")
    if "inertia" not in d:
        raise ModelError(f"{path}.inertia", f"missing (body '{name}')")
    return Body(
        name=name,
        mass=_number(d["mass"], f"{path}.mass"),
        inertia=_inertia(d["inertia"], f"{path}.inertia"),
        position=_vector(d.get("position", [0, 0, 0]), f"{path}.position"),
        orientation=_vector(d.get("orientation", [1, 0, 0, 0]), f"{path}.orientation", 4),
        velocity=_vector(d.get("velocity", [0, 0, 0]), f"{path}.velocity"),
        angular_velocity=_vector(d.get("angular_velocity", [0, 0, 0]), f"{path}.angular_velocity"),
        grounded=bool(d.get("grounded", False)),
        source=str(d.get("source", "")),
    )


def _frame(d, path):
    _reject_unknown(d, path, {"origin", "z_axis", "x_axis"})
    if "origin" not in d:
        raise ModelError(f"{path}.origin", "missing")
    x = d.get("x_axis")
    return Frame(
        origin=_vector(d["origin"], f"{path}.origin"),
        z_axis=_vector(d.get("z_axis", [0, 0, 1]), f"{path}.z_axis"),
        x_axis=None if x is None else _vector(x, f"{path}.x_axis"),
    )


def _joint(d, path):
    _reject_unknown(d, path, {"name", "type", "body_i", "body_j", "frame", "frame_i", "frame_j"})
    name = _name(d, path)
    jtype = d.get("type")
    if jtype not in JOINT_TYPES:
        raise ModelError(f"{path}.type", f"joint '{name}': unknown type {jtype!r} (one of {', '.join(JOINT_TYPES)})")
    frames = {k: _frame(d[k], f"{path}.{k}") for k in ("frame", "frame_i", "frame_j") if k in d}
    if "frame" not in frames and not ("frame_i" in frames and "frame_j" in frames):
        raise ModelError(f"{path}.frame", f"joint '{name}': give 'frame' (global) or both 'frame_i' and 'frame_j'")
    return Joint(
        name=name,
        type=jtype,
        body_i=_name(d, path, "body_i"),
        body_j=_name(d, path, "body_j"),
        frame=frames.get("frame"),
        frame_i=frames.get("frame_i"),
        frame_j=frames.get("frame_j"),
    )


_KIND_ORDER = tuple(FIELD_KINDS)  # force fields are read kind by kind: the first error found is reported


def _force(d: dict, path: str) -> Force:
    """Read a force: name, type and the fields its ForceType lists (catalog.FORCES)."""
    name = _name(d, path)
    ftype = d.get("type")
    _check_force_type(ftype, f"{path}.type", f"force '{name}'")
    specs = FORCES[ftype].fields
    _reject_unknown(d, path, {"name", "type", *FORCES[ftype].field_names})
    f = Force(name=name, type=ftype)
    for spec in sorted(specs, key=lambda spec: _KIND_ORDER.index(spec.kind)):
        setattr(f, spec.name, _force_field(d, path, spec))
    return f


def _check_force_type(ftype: str, path: str, what: str) -> None:
    if ftype not in FORCE_TYPES:
        raise ModelError(path, f"{what}: unknown type {ftype!r} (one of {', '.join(FORCE_TYPES)})")


def _force_field(d: dict, path: str, spec: ForceField) -> object:
    """The value of one force field (a ForceField of the catalogue), checked by kind."""
    key, kind, required = spec.name, spec.kind, spec.default == REQUIRED
    where = f"{path}.{key}"
    if kind in ("moving_body", "body", "other_body", "rotational_joint"):
        return _name(d, path, key)
    if kind == "frame":
        value = d.get(key, spec.default)
        if value not in ("global", "body"):
            raise ModelError(where, "must be 'global' or 'body'")
        return value
    if kind == "profiles3":
        comps = d.get(key)
        if not isinstance(comps, list) or len(comps) != 3:
            raise ModelError(where, "must be a list of 3 profiles (numbers, expressions in t or profile objects)")
        _check_profiles(comps, where)
        return comps
    if kind == "point":
        return _vector(d.get(key), where) if required or key in d else spec.default
    value = d.get(key) if required else d.get(key, spec.default)
    if value is None and spec.default is None:
        return None
    return _number(value, where, nonnegative=kind == "nonneg")


def _check_profiles(comps: list, path: str) -> None:
    from .expressions import compile_profile

    for k, c in enumerate(comps):
        compile_profile(c, f"{path}[{k}]")


def _driver(d, path):
    _reject_unknown(d, path, {"name", "type", "joint", "profile"})
    name = _name(d, path)
    dtype = d.get("type")
    if dtype not in DRIVER_TYPES:
        raise ModelError(f"{path}.type", f"driver '{name}': unknown type {dtype!r} (one of {', '.join(DRIVER_TYPES)})")
    if "profile" not in d:
        raise ModelError(f"{path}.profile", f"driver '{name}': missing")
    from .expressions import compile_profile

    compile_profile(d["profile"], f"{path}.profile")
    return Driver(name=name, type=dtype, joint=_name(d, path, "joint"), profile=d["profile"])


def _settings(d, path):
    allowed = set(Settings.__dataclass_fields__)
    _reject_unknown(d, path, allowed)
    s = Settings()
    for key, value in d.items():
        setattr(s, key, value)
    validate_settings(s, path)
    return s


def validate_settings(s: Settings, path: str = "settings") -> None:
    """Check solver settings; raises ModelError naming the field."""
    _number(s.t_end, f"{path}.t_end", positive=True)
    _number(s.step, f"{path}.step", positive=True)
    _number(s.output_step, f"{path}.output_step", positive=True)
    _number(s.rtol, f"{path}.rtol", positive=True)
    _number(s.atol, f"{path}.atol", positive=True)
    _number(s.baumgarte_alpha, f"{path}.baumgarte_alpha", nonnegative=True)
    _number(s.baumgarte_beta, f"{path}.baumgarte_beta", nonnegative=True)
    _number(s.tikhonov_eps, f"{path}.tikhonov_eps", nonnegative=True)
    rho = _number(s.rho_inf, f"{path}.rho_inf")
    if not 0.0 <= rho <= 1.0:
        raise ModelError(f"{path}.rho_inf", f"must lie in [0, 1], got {rho}")
    if s.integrator not in INTEGRATOR_TYPES:
        raise ModelError(
            f"{path}.integrator", f"unknown integrator {s.integrator!r} (one of {', '.join(INTEGRATOR_TYPES)})"
        )
    _validate_quality_settings(s, path)


def _validate_quality_settings(s: Settings, path: str) -> None:
    """The quality-gate settings: positive finite tolerances, a JSON boolean for allow_overdriven."""
    for key in ("violation_tol", "violation_angle_tol", "energy_tol"):
        _number(getattr(s, key), f"{path}.{key}", positive=True)
    if not isinstance(s.allow_overdriven, bool):
        raise ModelError(f"{path}.allow_overdriven", f"must be true or false, got {s.allow_overdriven!r}")


# ----------------------------------------------------------------------------- validation
def validate(model: Model) -> None:
    """Check names, references, masses, inertias and joint axes; raise ModelError."""
    names = {}
    for k, b in enumerate(model.bodies):
        path = f"bodies[{k}]"
        if b.name in names:
            raise ModelError(f"{path}.name", f"duplicate body name '{b.name}'")
        names[b.name] = b
        _check_body(b, path)
    _unique([j.name for j in model.joints], "joints")
    _unique([f.name for f in model.forces], "forces")
    _unique([d.name for d in model.drivers], "drivers")
    for k, j in enumerate(model.joints):
        _check_joint(model, j, names, f"joints[{k}]")
    for k, f in enumerate(model.forces):
        _check_force_refs(model, f, names, f"forces[{k}]")
    for k, d in enumerate(model.drivers):
        path = f"drivers[{k}]"
        joint = _find_joint(model, d.joint, f"{path}.joint", f"driver '{d.name}'")
        driven = joints_driven_by(d.type)
        if joint.type not in driven:
            raise ModelError(
                f"{path}.joint",
                f"driver '{d.name}': a {d.type} driver needs a "
                f"{' or '.join(driven)} joint, '{joint.name}' is {joint.type}",
            )
    if not any(not b.grounded for b in model.bodies):
        raise ModelError("bodies", "the model has no moving body")
    validate_settings(model.settings)


def _unique(names, path):
    seen = set()
    for k, n in enumerate(names):
        if n in seen:
            raise ModelError(f"{path}[{k}].name", f"duplicate name '{n}'")
        seen.add(n)


def _check_body(b, path):
    if not (isinstance(b.mass, (int, float)) and math.isfinite(b.mass) and b.mass > 0):
        raise ModelError(f"{path}.mass", f"body '{b.name}': mass must be positive, got {b.mass!r}")
    I = np.asarray(b.inertia, dtype=float)
    if I.shape != (3, 3) or not np.all(np.isfinite(I)):
        raise ModelError(f"{path}.inertia", f"body '{b.name}': inertia must be a finite 3x3 tensor")
    if not np.allclose(I, I.T, rtol=1e-9, atol=1e-12 * max(1.0, np.abs(I).max())):
        raise ModelError(f"{path}.inertia", f"body '{b.name}': inertia tensor is not symmetric")
    p = np.linalg.eigvalsh(0.5 * (I + I.T))
    if p[0] <= 0:
        raise ModelError(
            f"{path}.inertia",
            f"body '{b.name}': inertia tensor is not positive definite (principal moments {p.tolist()})",
        )
    if p[0] + p[1] < p[2] * (1 - 1e-9):
        raise ModelError(
            f"{path}.inertia",
            f"body '{b.name}': principal moments {p.tolist()} violate the "
            "triangle inequality (I1 + I2 >= I3): no real mass distribution has them",
        )
    q = np.asarray(b.orientation, dtype=float)
    if not np.isfinite(q).all() or np.linalg.norm(q) < 1e-9:
        raise ModelError(f"{path}.orientation", f"body '{b.name}': quaternion must be non-zero")


def _body_ref(name, names, path, what):
    if name != GROUND and name not in names:
        raise ModelError(
            path, f"{what}: unknown body '{name}' (bodies: {', '.join(sorted(names)) or 'none'}, or '{GROUND}')"
        )


def _is_fixed(name, names):
    return name == GROUND or names[name].grounded


def _check_joint(model, j, names, path):
    what = f"joint '{j.name}'"
    _body_ref(j.body_i, names, f"{path}.body_i", what)
    _body_ref(j.body_j, names, f"{path}.body_j", what)
    if j.body_i == j.body_j:
        raise ModelError(f"{path}.body_j", f"{what}: connects body '{j.body_i}' to itself")
    if _is_fixed(j.body_i, names) and _is_fixed(j.body_j, names):
        raise ModelError(f"{path}.body_j", f"{what}: both sides ('{j.body_i}', '{j.body_j}') are ground or grounded")
    for key in ("frame", "frame_i", "frame_j"):
        fr = getattr(j, key)
        if fr is not None:
            frame_axes(fr, f"{path}.{key}", what)


def frame_axes(fr: Frame, path: str = "frame", what: str = "joint") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Orthonormal (x, y, z) of a Frame; x defaults to a vector perpendicular to z."""
    z = np.asarray(fr.z_axis, dtype=float)
    nz = np.linalg.norm(z)
    if not np.isfinite(nz) or nz < 1e-12:
        raise ModelError(f"{path}.z_axis", f"{what}: degenerate (zero-length) z axis")
    z = z / nz
    if fr.x_axis is None:
        x = np.cross(z, [1.0, 0.0, 0.0] if abs(z[0]) < 0.9 else [0.0, 1.0, 0.0])
    else:
        x = np.asarray(fr.x_axis, dtype=float)
        x = x - np.dot(x, z) * z
    nx = np.linalg.norm(x)
    if nx < 1e-9:
        raise ModelError(f"{path}.x_axis", f"{what}: x axis is zero or parallel to the z axis")
    x = x / nx
    return x, np.cross(z, x), z


def _find_joint(model, name, path, what):
    for j in model.joints:
        if j.name == name:
            return j
    raise ModelError(path, f"{what}: unknown joint '{name}'")


def _check_force_refs(model, f, names: dict, path: str) -> None:
    """Check the bodies and joints a force names, field by field in catalogue order."""
    what = f"force '{f.name}'"
    _check_force_type(f.type, f"{path}.type", what)
    previous_body = None
    for spec in FORCES[f.type].fields:
        value, where = getattr(f, spec.name), f"{path}.{spec.name}"
        if spec.kind in ("moving_body", "body", "other_body"):
            _body_ref(value, names, where, what)
        if spec.kind == "moving_body" and _is_fixed(value, names):
            raise ModelError(where, f"{what}: acts on the fixed body '{value}'")
        if spec.kind == "other_body" and value == previous_body:
            raise ModelError(where, f"{what}: connects body '{value}' to itself")
        if spec.kind in ("body", "other_body"):
            previous_body = value
        if spec.kind == "rotational_joint":
            _check_rotational_joint(model, value, where, what)


def _check_rotational_joint(model, name: str, path: str, what: str) -> None:
    joint = _find_joint(model, name, path, what)
    driven = joints_driven_by("rotational")
    if joint.type not in driven:
        raise ModelError(path, f"{what}: needs a {' or '.join(driven)} joint, '{joint.name}' is {joint.type}")
