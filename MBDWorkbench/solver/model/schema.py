"""The model description shared by the JSON files, the CAD importer and the Python API.

All quantities are SI (m, kg, s, rad, N). Positions, joint frames and attachment points
are given in global coordinates at the initial configuration unless a field says
``local`` (then they are in the body's own frame, relative to its centre of gravity).
"""

from __future__ import annotations

import json
import math
import numbers
import os
from dataclasses import asdict, dataclass, field, make_dataclass

import numpy as np

from ..errors import ModelError
from ..numerics import quaternion
from ..numerics.joints import DP2, ROW_ROTATION_ONLY, ROW_TURNS
from ..tolerances import COINCIDENT_TOL, ENERGY_TOL, VIOLATION_ANGLE_TOL, VIOLATION_TOL
from .catalog import (
    COUPLER_PARAMETERS,
    DRIVER_TYPES,
    DRIVERS,
    FIELD_KINDS,
    FORCE_TYPES,
    FORCES,
    INTEGRATOR_TYPES,
    JOINT_TYPES,
    JOINTS,
    REQUIRED,
    ForceField,
    joints_driven_by,
)
from .limits import (
    MAX_JSON_DEPTH,
    MAX_MODEL_FILE_BYTES,
    MAX_NAME_LENGTH,
    MAX_SAMPLES,
    MAX_TEXT_LENGTH,
    MIN_AXIS_ANGLE,
    MIN_AXIS_NORM,
    MIN_PRINCIPAL_INERTIA,
    MIN_QUATERNION_NORM,
    PROFILE_CHECK_POINTS,
    PROFILE_MAGNITUDE,
    RANGES,
    RunSize,
    estimate_run,
    sample_count,
)

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
    (rack_pinion), the ``pitch`` [m per turn] of a screw (negative: left-handed)."""

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
    refusing it."""

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
    check_limits: bool = True
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


# ----------------------------------------------------------------------------- loading
def load(path: str) -> Model:
    """Load and validate a JSON model file (UTF-8 text of at most limits.MAX_MODEL_FILE_BYTES)."""
    return from_dict(parse_json(read_model_text(path), str(path)))


def read_model_text(path: str) -> str:
    """The text of a model file; ModelError naming the file when it is a directory, cannot be
    read, is too large or is not UTF-8 text."""
    if os.path.isdir(path):
        raise ModelError(str(path), "is a directory, not a model file")
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_MODEL_FILE_BYTES + 1)
    except OSError as e:
        raise ModelError(str(path), f"cannot be read: {e.strerror or e}") from None
    if len(raw) > MAX_MODEL_FILE_BYTES:
        raise ModelError(str(path), f"is larger than {MAX_MODEL_FILE_BYTES // 2**20} MiB (limits.MAX_MODEL_FILE_BYTES)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ModelError(
            str(path), f"is not UTF-8 text (byte 0x{raw[e.start]:02x} at offset {e.start}): a model file is JSON"
        ) from None


def parse_json(text: str, source: str = "$") -> object:
    """JSON text -> Python objects; ModelError naming ``source`` when it is not valid JSON.
    Integers too long for Python's int conversion become inf (the field's check reports them)."""
    try:
        return json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as e:
        raise ModelError(source, f"not valid JSON: {e}") from None
    except RecursionError:
        raise ModelError(
            source, f"not valid JSON for a model: nested far deeper than {MAX_JSON_DEPTH} levels"
        ) from None


class _HugeInteger(float):
    """A JSON integer with more digits than Python converts (sys.get_int_max_str_digits()):
    +-inf, which every check refuses, named in messages by its number of ``digits``."""

    digits = 0


def _json_int(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:  # more digits than sys.get_int_max_str_digits()
        value = _HugeInteger(math.inf if not text.startswith("-") else -math.inf)
        value.digits = len(text.lstrip("-"))
        return value


def from_dict(data: dict) -> Model:
    """Build and validate a Model from a dict (the JSON format)."""
    if not isinstance(data, dict):
        raise ModelError("$", "the model must be a JSON object")
    _check_depth(data)
    _reject_unknown(
        data, "$", {"name", "bodies", "joints", "forces", "drivers", "gravity", "settings", "description", "units"}
    )
    if data.get("units", "SI") != "SI":
        raise ModelError("units", "only SI units are supported in model files")
    model = Model(
        name=_text(data.get("name", "model"), "name", MAX_NAME_LENGTH),
        description=_text(data.get("description", ""), "description", MAX_TEXT_LENGTH),
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


def _check_depth(data: object) -> None:
    """ModelError at the first value nested deeper than limits.MAX_JSON_DEPTH (no recursion)."""
    todo = [(data, "$", 0)]
    while todo:
        value, path, depth = todo.pop()
        if depth > MAX_JSON_DEPTH:
            raise ModelError(path, f"nested deeper than {MAX_JSON_DEPTH} levels (limits.MAX_JSON_DEPTH)")
        short = depth >= 8  # the path names the first 8 levels: enough to find the place
        if isinstance(value, dict):
            todo += [
                (v, path if short else f"{path}.{k}" if path != "$" else str(k), depth + 1) for k, v in value.items()
            ]
        elif isinstance(value, (list, tuple)):
            todo += [(v, path if short else f"{path}[{k}]", depth + 1) for k, v in enumerate(value)]


def _text(value: object, path: str, max_length: int) -> str:
    """A string of at most ``max_length`` characters."""
    if not isinstance(value, str):
        raise ModelError(path, f"must be a string, got {_show(value)}")
    if len(value) > max_length:
        raise ModelError(path, f"has {len(value)} characters, at most {max_length} are allowed (limits)")
    return value


def _show(value: object) -> str:
    """repr of a value for messages: containers by their type and size, cut to 60 characters."""
    if isinstance(value, (list, tuple, dict)):
        return f"a {type(value).__name__} of {len(value)} items"
    if isinstance(value, _HugeInteger):
        return f"an integer of {value.digits} digits"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return f"an integer of about 10^{int(abs(value).bit_length() * 0.30103)}"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _reject_unknown(d, path, allowed):
    if not isinstance(d, dict):
        raise ModelError(path, "must be an object")
    unknown = sorted(str(k) for k in set(d) - set(allowed))
    if unknown:
        raise ModelError(f"{path}.{unknown[0]}", f"unknown field (allowed: {', '.join(sorted(allowed))})")


def _number(value, path, positive=False, nonnegative=False, kind=None):
    """``value`` as a float: a finite number (not a boolean), within limits.RANGES[kind] if given."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ModelError(path, f"must be a finite number, got {_show(value)}")
    try:
        x = float(value)
    except OverflowError:
        x = math.inf
    if not math.isfinite(x):
        raise ModelError(path, f"must be a finite number, got {_show(value)}")
    if positive and x <= 0:
        raise ModelError(path, f"must be positive, got {_show(value)}")
    if nonnegative and x < 0:
        raise ModelError(path, f"must not be negative, got {_show(value)}")
    if kind is not None and not RANGES[kind].contains(x):
        r = RANGES[kind]
        raise ModelError(path, f"must lie in [{r.low:g}, {r.high:g}] {r.unit} (limits, {kind}), got {x:g}")
    return x


def _vector(value, path, n=3, kind=None):
    if not isinstance(value, (list, tuple, np.ndarray)) or len(value) != n:
        raise ModelError(path, f"must be a list of {n} numbers, got {_show(value)}")
    return [_number(v, f"{path}[{k}]", kind=kind) for k, v in enumerate(value)]


def _flag(value, path):
    """A JSON boolean (true/false): strings, numbers and lists are refused, not cast."""
    if not isinstance(value, (bool, np.bool_)):
        raise ModelError(path, f"must be true or false (a JSON boolean), got {_show(value)}")
    return bool(value)


def _name(d, path, key="name"):
    value = d.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ModelError(f"{path}.{key}", "must be a non-empty string")
    return _text(value, f"{path}.{key}", MAX_NAME_LENGTH)


def _inertia(value, path):
    """Accept [Ixx, Iyy, Izz], [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (tensor entries) or 3x3."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)) and len(value) == 3 and all(isinstance(r, (list, tuple)) for r in value):
        return [_vector(r, f"{path}[{k}]", kind="inertia") for k, r in enumerate(value)]
    if isinstance(value, (list, tuple)) and len(value) in (3, 6):
        v = [_number(x, f"{path}[{k}]", kind="inertia") for k, x in enumerate(value)]
        if len(v) == 3:
            return [[v[0], 0.0, 0.0], [0.0, v[1], 0.0], [0.0, 0.0, v[2]]]
        return [[v[0], v[3], v[4]], [v[3], v[1], v[5]], [v[4], v[5], v[2]]]
    raise ModelError(path, "must be [Ixx, Iyy, Izz], [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] or a 3x3 list")


def _body(d, path):
    _reject_unknown(
        d,
        path,
        {
            "name",
            "mass",
            "inertia",
            "position",
            "orientation",
            "velocity",
            "angular_velocity",
            "grounded",
            "source",
            "point_mass",
        },
    )
    name = _name(d, path)
    if name == GROUND:
        raise ModelError(f"{path}.name", f"'{GROUND}' is reserved for the fixed ground")
    if "mass" not in d:
        raise ModelError(f"{path}.mass", f"missing (body '{name}')")
    point_mass = d.get("point_mass", False)
    if not isinstance(point_mass, bool):
        raise ModelError(f"{path}.point_mass", f"body '{name}': must be true or false, got {point_mass!r}")
    if "inertia" not in d and not point_mass:
        raise ModelError(f"{path}.inertia", f"missing (body '{name}')")
    return Body(
        name=name,
        mass=_number(d["mass"], f"{path}.mass"),
        inertia=_inertia(d["inertia"], f"{path}.inertia") if "inertia" in d else None,
        point_mass=point_mass,
        position=_vector(d.get("position", [0, 0, 0]), f"{path}.position"),
        orientation=_vector(d.get("orientation", [1, 0, 0, 0]), f"{path}.orientation", 4),
        velocity=_vector(d.get("velocity", [0, 0, 0]), f"{path}.velocity"),
        angular_velocity=_vector(d.get("angular_velocity", [0, 0, 0]), f"{path}.angular_velocity"),
        grounded=_flag(d.get("grounded", False), f"{path}.grounded"),
        source=_text(d.get("source", ""), f"{path}.source", MAX_TEXT_LENGTH),
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


DISTANCE_FIELDS = ("point_j", "length")  # joint fields of the distance type only


def _joint(d, path):
    _reject_unknown(
        d,
        path,
        {
            "name",
            "type",
            "body_i",
            "body_j",
            "frame",
            "frame_i",
            "frame_j",
            "angle",
            *DISTANCE_FIELDS,
            *COUPLER_PARAMETERS,
        },
    )
    name = _name(d, path)
    jtype = d.get("type")
    if jtype not in JOINT_TYPES:
        raise ModelError(
            f"{path}.type", f"joint '{name}': unknown type {_show(jtype)} (one of {', '.join(JOINT_TYPES)})"
        )
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
        point_j=_vector(d["point_j"], f"{path}.point_j") if "point_j" in d else None,
        length=_number(d["length"], f"{path}.length") if "length" in d else None,
        angle=_number(d["angle"], f"{path}.angle") if "angle" in d else None,
        **{k: _number(d[k], f"{path}.{k}", kind="length") for k in COUPLER_PARAMETERS if k in d},
    )


_KIND_ORDER = tuple(FIELD_KINDS)  # force fields are read kind by kind: the first error found is reported


def _force(d: dict, path: str) -> Force:
    """Read a force: name, type and the fields its ForceType lists (catalog.FORCES)."""
    if not isinstance(d, dict):
        raise ModelError(path, f"must be an object, got {_show(d)}")
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
    if not isinstance(ftype, str) or ftype not in FORCE_TYPES:
        raise ModelError(path, f"{what}: unknown type {_show(ftype)} (one of {', '.join(FORCE_TYPES)})")


def _force_field(d: dict, path: str, spec: ForceField) -> object:
    """The value of one force field (a ForceField of the catalogue), checked by kind."""
    key, kind, required = spec.name, spec.kind, spec.default == REQUIRED
    where = f"{path}.{key}"
    if kind in ("moving_body", "body", "other_body", "rotational_joint"):
        return _name(d, path, key)
    if kind == "frame":
        value = d.get(key, spec.default)
        if not isinstance(value, str) or value not in ("global", "body"):
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
    if not isinstance(dtype, str) or dtype not in DRIVER_TYPES:
        raise ModelError(
            f"{path}.type", f"driver '{name}': unknown type {_show(dtype)} (one of {', '.join(DRIVER_TYPES)})"
        )
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


_SETTING_RANGES = {  # setting -> kind of limits.RANGES
    "t_end": "time",
    "step": "time",
    "output_step": "time",
    "rtol": "rtol",
    "atol": "atol",
    "baumgarte_alpha": "rate",
    "baumgarte_beta": "rate",
    "tikhonov_eps": "fraction",
    "rho_inf": "fraction",
}
_SETTING_FLAGS = ("assemble", "projection", "check_limits")


def validate_settings(s: Settings, path: str = "settings") -> None:
    """Check solver settings (numbers within limits.RANGES, flags JSON booleans, a known
    integrator); raises ModelError naming the field."""
    for key in ("t_end", "step", "output_step"):
        _number(getattr(s, key), f"{path}.{key}", positive=True)
    for key, kind in _SETTING_RANGES.items():
        _number(getattr(s, key), f"{path}.{key}", nonnegative=True, kind=kind)
    for key in _SETTING_FLAGS:
        _flag(getattr(s, key), f"{path}.{key}")
    if not isinstance(s.integrator, str) or s.integrator not in INTEGRATOR_TYPES:
        raise ModelError(
            f"{path}.integrator", f"unknown integrator {_show(s.integrator)} (one of {', '.join(INTEGRATOR_TYPES)})"
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
    """Check settings, names, references, every number against its range (limits.RANGES),
    masses, inertias, joint axes and every profile over [0, t_end]; raise ModelError."""
    validate_settings(model.settings)
    _vector(model.gravity, "gravity", kind="acceleration")
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
        _check_force_values(f, f"forces[{k}]")
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
        turned = _turned_point_masses(model, joint, DRIVERS[d.type].row)
        if turned:
            raise ModelError(
                f"{path}.joint",
                f"driver '{d.name}': a {d.type} driver on joint '{joint.name}' would turn point mass "
                f"'{turned[0]}', which has no rotation",
            )
    if not any(not b.grounded for b in model.bodies):
        raise ModelError("bodies", "the model has no moving body")
    _check_model_profiles(model, _output_times(model.settings, PROFILE_CHECK_POINTS - 1))


def run_size(model: Model, analysis: str = "simulate") -> RunSize:
    """Estimated size of a run of ``model`` with its settings: ``simulate`` integrates with
    settings.step, ``kinematics`` solves at the output times only."""
    s = model.settings
    rows = sum(JOINTS[j.type].equations for j in model.joints) + len(model.drivers)
    moving = sum(1 for b in model.bodies if not b.grounded)
    step = s.step if analysis == "simulate" else None
    return estimate_run(s.t_end, step, s.output_step, moving, rows, len(model.joints), len(model.drivers))


def validate_run(model: Model, analysis: str = "simulate", t: float | None = None) -> None:
    """Check a run before it starts (``simulate`` or ``kinematics``, settings overrides
    applied): its estimated size (:func:`run_size`) against the limits of :mod:`.limits`
    unless settings.check_limits is false, then every profile at the output times. With a
    time ``t`` [s] (``analyze``, ``statics``: one configuration), ``t`` and the profiles at
    ``t`` only. Raises ModelError naming the settings, the time or the profile."""
    if t is not None:
        _number(t, "t", kind="instant")
        _check_model_profiles(model, np.array([float(t)]))
        return
    s = model.settings
    excess = run_size(model, analysis).excess()
    if s.check_limits and excess:
        steps = f", step = {s.step:g} s" if analysis == "simulate" else ""
        raise ModelError(
            "settings",
            f"the {analysis} run is too large: {excess}, estimated from t_end = {s.t_end:g} s{steps}, "
            f"output_step = {s.output_step:g} s; shorten t_end, lengthen the steps, or switch the limits off "
            "(setting check_limits: false, CLI --no-limits)",
        )
    _check_model_profiles(model, _output_times(s, MAX_SAMPLES))


def _output_times(s: Settings, most: int) -> np.ndarray:
    """The output times of a run over [0, t_end] [s]; at most ``most`` + 1 of them evenly
    spread when the run has more."""
    n = sample_count(s.t_end, s.output_step) - 1
    return np.linspace(0.0, s.t_end, min(n, most) + 1)


def _check_model_profiles(model: Model, times: np.ndarray) -> None:
    """Compile every profile (drivers, force components) and check it at ``times`` [s]:
    drivers' f, f', f'' and loads' f finite and within limits.PROFILE_MAGNITUDE."""
    for k, d in enumerate(model.drivers):
        _check_profile(d.profile, f"drivers[{k}].profile", times, 3)
    for k, f in enumerate(model.forces):
        for spec in FORCES[f.type].fields:
            if spec.kind == "profiles3":
                where = f"forces[{k}].{spec.name}"
                comps = getattr(f, spec.name)
                if not isinstance(comps, (list, tuple)) or len(comps) != 3:
                    raise ModelError(where, "must be a list of 3 profiles")
                for c, comp in enumerate(comps):
                    _check_profile(comp, f"{where}[{c}]", times, 1)


def _check_profile(spec: object, path: str, times: np.ndarray, derivatives: int) -> None:
    from .expressions import compile_profile

    jet = compile_profile(spec, path).series(times)[:, :derivatives]
    bad = np.argwhere(~(np.abs(jet) <= PROFILE_MAGNITUDE))
    if len(bad):
        i, c = bad[0]
        what = ("value", "first derivative", "second derivative")[c]
        raise ModelError(
            path,
            f"its {what} is {jet[i, c]:.6g} at t = {times[i]:.6g} s: a profile must stay finite, within "
            f"+-{PROFILE_MAGNITUDE:g}, over the run",
        )


def _unique(names, path):
    seen = set()
    for k, n in enumerate(names):
        if n in seen:
            raise ModelError(f"{path}[{k}].name", f"duplicate name '{n}'")
        seen.add(n)


def _check_body(b, path):
    _text(b.name, f"{path}.name", MAX_NAME_LENGTH)
    mass = _number(b.mass, f"{path}.mass")
    if mass <= 0:
        raise ModelError(f"{path}.mass", f"body '{b.name}': mass must be positive, got {b.mass!r}")
    _number(mass, f"{path}.mass", kind="mass")
    if b.point_mass:
        _check_point_mass(b, path)
    else:
        _check_inertia(b, path)
    _vector(b.position, f"{path}.position", kind="length")
    _vector(b.velocity, f"{path}.velocity", kind="velocity")
    _vector(b.angular_velocity, f"{path}.angular_velocity", kind="angular_velocity")
    q = np.asarray(_vector(b.orientation, f"{path}.orientation", 4, kind="direction"))
    if np.linalg.norm(q) < MIN_QUATERNION_NORM:
        raise ModelError(f"{path}.orientation", f"body '{b.name}': quaternion must be non-zero")
    _flag(b.grounded, f"{path}.grounded")
    _flag(b.point_mass, f"{path}.point_mass")


def _check_point_mass(b: Body, path: str) -> None:
    """A point mass: no inertia (zeros) and no angular velocity."""
    I = np.asarray(_inertia(b.inertia, f"{path}.inertia"), dtype=float)
    if I.shape != (3, 3) or np.any(I != 0.0):
        raise ModelError(f"{path}.inertia", f"body '{b.name}': a point mass has no inertia (leave 'inertia' out)")
    w = np.asarray(_vector(b.angular_velocity, f"{path}.angular_velocity", kind="angular_velocity"), dtype=float)
    if np.any(w != 0.0):
        raise ModelError(
            f"{path}.angular_velocity", f"body '{b.name}': a point mass does not rotate (angular velocity must be 0)"
        )


def _check_inertia(b: Body, path: str) -> None:
    """A rigid body's inertia: finite, symmetric, positive definite, triangle inequality."""
    if b.inertia is None:
        raise ModelError(f"{path}.inertia", f"missing (body '{b.name}')")
    I = np.asarray(_inertia(b.inertia, f"{path}.inertia"), dtype=float)
    if I.shape != (3, 3):
        raise ModelError(f"{path}.inertia", f"body '{b.name}': inertia must be a finite 3x3 tensor")
    if not np.allclose(I, I.T, rtol=1e-9, atol=1e-12 * max(1.0, np.abs(I).max())):
        raise ModelError(f"{path}.inertia", f"body '{b.name}': inertia tensor is not symmetric")
    p = np.linalg.eigvalsh(0.5 * (I + I.T))
    if p[0] <= 0:
        raise ModelError(
            f"{path}.inertia",
            f"body '{b.name}': inertia tensor is not positive definite (principal moments {p.tolist()})",
        )
    if p[0] < MIN_PRINCIPAL_INERTIA:
        raise ModelError(
            f"{path}.inertia",
            f"body '{b.name}': smallest principal moment {p[0]:g} kg m^2 is below {MIN_PRINCIPAL_INERTIA:g} kg m^2 "
            "(limits.MIN_PRINCIPAL_INERTIA)",
        )
    if p[0] + p[1] < p[2] * (1 - 1e-9):
        raise ModelError(
            f"{path}.inertia",
            f"body '{b.name}': principal moments {p.tolist()} violate the "
            "triangle inequality (I1 + I2 >= I3): no real mass distribution has them",
        )


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
    if j.type not in JOINT_TYPES:
        raise ModelError(f"{path}.type", f"{what}: unknown type {_show(j.type)} (one of {', '.join(JOINT_TYPES)})")
    if j.frame is None and (j.frame_i is None or j.frame_j is None):
        raise ModelError(f"{path}.frame", f"{what}: give 'frame' (global) or both 'frame_i' and 'frame_j'")
    for key in ("frame", "frame_i", "frame_j"):
        fr = getattr(j, key)
        if fr is not None:
            _vector(fr.origin, f"{path}.{key}.origin", kind="length")
            _vector(fr.z_axis, f"{path}.{key}.z_axis", kind="direction")
            if fr.x_axis is not None:
                _vector(fr.x_axis, f"{path}.{key}.x_axis", kind="direction")
            frame_axes(fr, f"{path}.{key}", what)
    if j.type == "distance":
        _check_distance(model, j, path)
    elif JOINTS[j.type].takes_length:
        _check_axis_distance(model, j, path)
    else:
        for key in DISTANCE_FIELDS:
            if getattr(j, key) is not None:
                raise ModelError(f"{path}.{key}", f"{what}: only distance joints take '{key}'")
    _check_angle(model, j, path)
    _check_coupler(model, j, path)
    _check_point_mass_anchors(model, j, path)
    joint_rows(model, j, path)


def _check_distance(model: Model, j: Joint, path: str) -> None:
    """Anchors of a distance joint apart at the initial configuration, its length positive."""
    what = f"joint '{j.name}'"
    if j.frame is None and j.point_j is not None:
        raise ModelError(f"{path}.point_j", f"{what}: 'point_j' goes with a global 'frame', not 'frame_i'/'frame_j'")
    if j.frame is not None and j.point_j is None and j.body_j == GROUND:
        raise ModelError(f"{path}.point_j", f"{what}: give 'point_j' (the rod's end on the ground)")
    p_i, p_j = distance_anchors(model, j)
    if np.linalg.norm(p_j - p_i) <= COINCIDENT_TOL:  # the equation has no direction there
        raise ModelError(path, f"{what}: its two points coincide at the initial configuration")
    if j.length is not None and not (isinstance(j.length, (int, float)) and math.isfinite(j.length) and j.length > 0):
        raise ModelError(f"{path}.length", f"{what}: length must be a positive number of metres, got {j.length!r}")


def _check_axis_distance(model: Model, j: Joint, path: str) -> None:
    """A joint keeping a point at a distance from an axis: no point_j, a positive length (by
    default its initial distance, which must then be positive: the equation has no direction
    on the axis)."""
    what = f"joint '{j.name}'"
    if j.point_j is not None:
        raise ModelError(f"{path}.point_j", f"{what}: only distance joints take 'point_j'")
    if j.length is not None and not (isinstance(j.length, (int, float)) and math.isfinite(j.length) and j.length > 0):
        raise ModelError(f"{path}.length", f"{what}: length must be a positive number of metres, got {j.length!r}")
    if j.length is None and axis_distance(model, j) <= COINCIDENT_TOL:
        raise ModelError(path, f"{what}: the point lies on the axis at the initial configuration; give 'length'")


def _check_angle(model: Model, j: Joint, path: str) -> None:
    """The angle of an angle joint strictly between 0 and pi (at 0 or pi its one equation has
    no gradient: use a parallel joint); other joints take none."""
    what = f"joint '{j.name}'"
    if not JOINTS[j.type].takes_angle:
        if j.angle is not None:
            raise ModelError(f"{path}.angle", f"{what}: only angle joints take 'angle'")
        return
    angle = axis_angle(model, j) if j.angle is None else j.angle
    if not (
        isinstance(angle, (int, float)) and math.isfinite(angle) and MIN_AXIS_ANGLE <= angle <= math.pi - MIN_AXIS_ANGLE
    ):
        where = f"{path}.angle" if j.angle is not None else path
        raise ModelError(where, f"{what}: angle must lie in (0, pi) rad (0 or pi: a parallel joint), got {angle!r}")


def axis_angle(model: Model, j: Joint) -> float:
    """Angle [rad] between the z axes of joint j's two frames at the initial configuration."""
    z_i, z_j = _global_frame(model, j, "i")[1], _global_frame(model, j, "j")[1]
    return float(np.arccos(np.clip(np.dot(z_i, z_j), -1.0, 1.0)))


def _global_frame(model: Model, j: Joint, side: str) -> tuple[np.ndarray, np.ndarray]:
    """(origin [m], unit z axis) of joint j's frame on ``side`` at the initial configuration."""
    if j.frame is not None:
        return np.asarray(j.frame.origin, float), frame_axes(j.frame)[2]
    fr, body = getattr(j, "frame_" + side), getattr(j, "body_" + side)
    r, A = initial_pose(model, body)
    return r + A @ np.asarray(fr.origin, float), A @ frame_axes(fr)[2]


def axis_distance(model: Model, j: Joint) -> float:
    """Distance [m] of the frame origin on body_j from the z axis of the frame on body_i at the
    initial configuration."""
    o_i, z_i = _global_frame(model, j, "i")
    d = _global_frame(model, j, "j")[0] - o_i
    return float(np.linalg.norm(d - np.dot(d, z_i) * z_i))


def _check_coupler(model: Model, j: Joint, path: str) -> None:
    """The parameters of a coupler joint given (radii positive, pitch non-zero), no others; a
    gear or belt's frame origins apart across both z axes (its angles are those of the line
    of centres)."""
    what = f"joint '{j.name}' ({j.type})"
    wanted = JOINTS[j.type].parameters
    for key in COUPLER_PARAMETERS:
        value = getattr(j, key)
        if key not in wanted:
            if value is not None:
                takers = ", ".join(t.name for t in JOINTS.values() if key in t.parameters)
                raise ModelError(f"{path}.{key}", f"{what}: only {takers} joints take '{key}'")
        elif value is None:
            raise ModelError(f"{path}.{key}", f"{what}: give '{key}' [m]")
        elif not (isinstance(value, (int, float)) and math.isfinite(value)) or (value <= 0 and key != "pitch"):
            raise ModelError(f"{path}.{key}", f"{what}: '{key}' must be a positive number of metres, got {value!r}")
        elif value == 0:
            raise ModelError(f"{path}.{key}", f"{what}: the pitch must not be 0")
    if "radius_i" in wanted:
        _check_centres_apart(model, j, path, what)


def _check_centres_apart(model: Model, j: Joint, path: str, what: str) -> None:
    """The origin of each frame of a gear or belt lies off the other frame's z axis."""
    frames = []
    for side in ("i", "j"):
        fr = j.frame if j.frame is not None else getattr(j, "frame_" + side)
        x, y, _ = frame_axes(fr, f"{path}.frame_{side}", what)
        r, A = (np.zeros(3), np.eye(3)) if j.frame is not None else initial_pose(model, getattr(j, "body_" + side))
        frames.append((r + A @ np.asarray(fr.origin, float), A @ x, A @ y))
    for (o, x, y), (o_other, _, _) in zip(frames, frames[::-1]):
        d = o_other - o
        if math.hypot(float(x @ d), float(y @ d)) <= COINCIDENT_TOL:
            raise ModelError(
                f"{path}.frame_j" if j.frame is None else f"{path}.frame",
                f"{what}: the frame origins must be apart across the z axes (the line of centres sets the angles)",
            )


def coupler_coefficients(j: Joint) -> tuple[float, float]:
    """(k_1, k_2) of a coupler joint's row (joints.GEAR, joints.LEAD): k_1 s_1 + k_2 s_2 = const
    in metres, s the orbit angles (gear, belt) or the translation and the rotation (rack, screw)."""
    if j.type == "gear":
        return j.radius_i, j.radius_j
    if j.type == "belt":
        return j.radius_i, -j.radius_j
    if j.type == "rack_pinion":
        return 1.0, j.radius
    return 1.0, -j.pitch / (2.0 * math.pi)


def initial_pose(model: Model, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(position [m], rotation matrix of its own frame) of a body, or the ground, at the
    initial configuration."""
    if name == GROUND:
        return np.zeros(3), np.eye(3)
    b = model.body(name)
    return np.asarray(b.position, float), quaternion.matrices(np.asarray(b.orientation, float))


def distance_anchors(model: Model, j: Joint) -> tuple[np.ndarray, np.ndarray]:
    """Global anchor points (p_i, p_j) [m] of a distance joint at the initial configuration:
    the origins of frame_i and frame_j, or the origin of the global frame (on body_i) and
    point_j (on body_j; default: body_j's centre of gravity)."""
    if j.frame is None:
        return tuple(_local_to_global(model, b, fr.origin) for b, fr in ((j.body_i, j.frame_i), (j.body_j, j.frame_j)))
    p_j = initial_pose(model, j.body_j)[0] if j.point_j is None else np.asarray(j.point_j, float)
    return np.asarray(j.frame.origin, float), p_j


def _local_to_global(model: Model, name: str, local) -> np.ndarray:
    r, A = initial_pose(model, name)
    return r + A @ np.asarray(local, float)


def joint_anchor(model: Model, j: Joint, side: str) -> np.ndarray:
    """Global point [m] at which joint j attaches to its body on ``side`` ('i' or 'j') at the
    initial configuration: its frame origin (distance joints: :func:`distance_anchors`)."""
    if j.type == "distance":
        return distance_anchors(model, j)[side == "j"]
    if j.frame is not None:
        return np.asarray(j.frame.origin, float)
    return _local_to_global(model, getattr(j, "body_" + side), getattr(j, "frame_" + side).origin)


# ----------------------------------------------------------------------------- point masses
def is_point_mass(model: Model, name: str) -> bool:
    """Whether ``name`` is a moving point mass (a grounded one is as fixed as the ground)."""
    if name == GROUND:
        return False
    b = model.body(name)
    return b.point_mass and not b.grounded


def _never_turns(model: Model, name: str) -> bool:
    """The ground, a grounded body or a point mass: its orientation is constant."""
    return name == GROUND or model.body(name).grounded or model.body(name).point_mass


def body_dofs(body: Body) -> int:
    """Degrees of freedom of a moving body: 6, or 3 for a point mass."""
    return 3 if body.point_mass else 6


def _turned_point_masses(model: Model, j: Joint, spec: tuple) -> list[str]:
    """The point masses of joint j whose rotation the row ``spec`` depends on."""
    sides = ROW_TURNS[spec[0]]
    return [getattr(j, "body_" + s) for s in sides if is_point_mass(model, getattr(j, "body_" + s))]


def joint_rows(model: Model, j: Joint, path: str = "joint") -> tuple[int, ...]:
    """Indices (into its type's rows) of the equations of joint j that the solver keeps: all of
    them, except equations between the orientations of two bodies that never turn (ground,
    grounded bodies, point masses) when a point mass is involved: those hold for all time.
    Raises ModelError if an equation would turn a point mass."""
    rows = JOINTS[j.type].rows
    both_fixed = _never_turns(model, j.body_i) and _never_turns(model, j.body_j)
    kept = []
    for k, spec in enumerate(rows):
        turned = _turned_point_masses(model, j, spec)
        if not turned:
            kept.append(k)
        elif not (both_fixed and spec[0] in ROW_ROTATION_ONLY):
            raise ModelError(path, f"joint '{j.name}' ({j.type}) {_turn_message(j, spec, turned[0])}")
    return tuple(kept)


def _turn_message(j: Joint, spec: tuple, body: str) -> str:
    hint = (
        "make the point mass body_j: the plane or axis of the joint is carried by body_i"
        if spec[0] == DP2 and body == j.body_i
        else "a point mass takes spherical and distance joints, and joints to bodies that never turn "
        "(ground, grounded bodies, point masses)"
    )
    return f"would turn point mass '{body}', which has no rotation; {hint}"


def _check_point_mass_anchors(model: Model, j: Joint, path: str) -> None:
    """Joint j attaches to each of its point masses at the point mass's centre."""
    for side in ("i", "j"):
        name = getattr(j, "body_" + side)
        if is_point_mass(model, name):
            _check_at_centre(model, name, joint_anchor(model, j, side), path, f"joint '{j.name}'")


def _check_at_centre(model: Model, name: str, point, path: str, what: str) -> None:
    """A global point [m] at the initial configuration lies at point mass ``name``'s centre."""
    off = float(np.linalg.norm(np.asarray(point, float) - np.asarray(model.body(name).position, float)))
    if off > COINCIDENT_TOL:
        raise ModelError(
            path,
            f"{what}: attaches to point mass '{name}' {off:.3g} m from its centre (a point mass has only its centre)",
        )


def frame_axes(fr: Frame, path: str = "frame", what: str = "joint") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Orthonormal (x, y, z) of a Frame; x defaults to a vector perpendicular to z."""
    z = np.asarray(fr.z_axis, dtype=float)
    nz = np.linalg.norm(z)
    if not np.isfinite(nz) or nz < MIN_AXIS_NORM:
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
    _check_point_mass_force(model, f, path)


def _check_point_mass_force(model: Model, f, path: str) -> None:
    """Forces on point masses act at their centre and carry no torque."""
    what = f"force '{f.name}'"
    for spec in FORCES[f.type].fields:
        if spec.kind == "point":  # the point of the body field with the same suffix (point_i: body_i)
            body = getattr(f, "body" + spec.name[len("point") :])
            point = getattr(f, spec.name)
            if point is not None and is_point_mass(model, body):
                _check_at_centre(model, body, point, f"{path}.{spec.name}", what)
        if spec.name == "torque" and is_point_mass(model, f.body):
            raise ModelError(
                f"{path}.body", f"{what}: a torque cannot act on point mass '{f.body}' (it has no rotation)"
            )
        if spec.kind == "rotational_joint":
            joint = model.joint(getattr(f, spec.name))
            for name in (joint.body_i, joint.body_j):
                if is_point_mass(model, name):
                    raise ModelError(
                        f"{path}.{spec.name}", f"{what}: joint '{joint.name}' cannot turn point mass '{name}'"
                    )


def _check_force_values(f, path: str) -> None:
    """Check the numbers of a force (fields of kind point, nonneg, number) against the
    range their ForceField names (limits.RANGES)."""
    for spec in FORCES[f.type].fields:
        value, where = getattr(f, spec.name), f"{path}.{spec.name}"
        if value is None and spec.default is None:
            continue
        if spec.kind == "point":
            _vector(value, where, kind=spec.range)
        elif spec.kind in ("nonneg", "number"):
            _number(value, where, nonnegative=spec.kind == "nonneg", kind=spec.range)
        elif spec.kind == "frame" and (not isinstance(value, str) or value not in ("global", "body")):
            raise ModelError(where, "must be 'global' or 'body'")


def _check_rotational_joint(model, name: str, path: str, what: str) -> None:
    joint = _find_joint(model, name, path, what)
    driven = joints_driven_by("rotational")
    if joint.type not in driven:
        raise ModelError(path, f"{what}: needs a {' or '.join(driven)} joint, '{joint.name}' is {joint.type}")
