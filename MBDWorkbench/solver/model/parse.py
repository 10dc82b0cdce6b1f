"""Reading a model: a JSON file or text (bounded in size, depth and number magnitude) or a dict,
into the dataclasses of :mod:`.schema`, every field checked for type and range on the way.
"""

from __future__ import annotations

import json
import math
import os

from ..errors import ModelError
from .catalog import COUPLER_PARAMETERS, DRIVER_TYPES, FIELD_KINDS, FORCES, JOINT_TYPES, REQUIRED, ForceField
from .contact_groups import expand_groups
from .contacts import parse_contacts
from .fields import (
    DISTANCE_FIELDS,
    HugeInteger,
    check_flag,
    check_force_type,
    check_inertia,
    check_number,
    check_text,
    check_vector,
    shown,
)
from .joint_friction import parse_friction
from .joint_stops import LIMIT_FIELDS, parse_limit_fields
from .limits import MAX_JSON_DEPTH, MAX_MODEL_FILE_BYTES, MAX_NAME_LENGTH, MAX_TEXT_LENGTH
from .schema import GROUND, Body, Driver, Force, Frame, Joint, Model, Settings
from .validate import validate, validate_settings


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


def _json_int(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:  # more digits than sys.get_int_max_str_digits()
        value = HugeInteger(math.inf if not text.startswith("-") else -math.inf)
        value.digits = len(text.lstrip("-"))
        return value


def from_dict(data: dict) -> Model:
    """Build and validate a Model from a dict (the JSON format)."""
    if not isinstance(data, dict):
        raise ModelError("$", "the model must be a JSON object")
    _check_depth(data)
    _reject_unknown(
        data,
        "$",
        {"name", "bodies", "joints", "forces", "drivers", "contacts", "gravity", "settings", "description", "units"},
    )
    if data.get("units", "SI") != "SI":
        raise ModelError("units", "only SI units are supported in model files")
    bodies = [_body(b, f"bodies[{k}]") for k, b in enumerate(_list(data, "bodies"))]
    fixed = {GROUND} | {b.name for b in bodies if b.grounded}
    model = Model(
        name=check_text(data.get("name", "model"), "name", MAX_NAME_LENGTH),
        description=check_text(data.get("description", ""), "description", MAX_TEXT_LENGTH),
        gravity=list(check_vector(data.get("gravity", [0.0, 0.0, -9.81]), "gravity")),
        bodies=bodies,
        joints=[_joint(j, f"joints[{k}]") for k, j in enumerate(_list(data, "joints"))],
        forces=[_force(f, f"forces[{k}]") for k, f in enumerate(_list(data, "forces"))],
        drivers=[_driver(d, f"drivers[{k}]") for k, d in enumerate(_list(data, "drivers"))],
        contacts=parse_contacts(expand_groups(data.get("contacts", []), data.get("joints"), fixed), "contacts"),
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


def _reject_unknown(d, path, allowed):
    if not isinstance(d, dict):
        raise ModelError(path, "must be an object")
    unknown = sorted(str(k) for k in set(d) - set(allowed))
    if unknown:
        raise ModelError(f"{path}.{unknown[0]}", f"unknown field (allowed: {', '.join(sorted(allowed))})")


def _name(d, path, key="name"):
    value = d.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ModelError(f"{path}.{key}", "must be a non-empty string")
    return check_text(value, f"{path}.{key}", MAX_NAME_LENGTH)


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
        mass=check_number(d["mass"], f"{path}.mass"),
        inertia=check_inertia(d["inertia"], f"{path}.inertia") if "inertia" in d else None,
        point_mass=point_mass,
        position=check_vector(d.get("position", [0, 0, 0]), f"{path}.position"),
        orientation=check_vector(d.get("orientation", [1, 0, 0, 0]), f"{path}.orientation", 4),
        velocity=check_vector(d.get("velocity", [0, 0, 0]), f"{path}.velocity"),
        angular_velocity=check_vector(d.get("angular_velocity", [0, 0, 0]), f"{path}.angular_velocity"),
        grounded=check_flag(d.get("grounded", False), f"{path}.grounded"),
        source=check_text(d.get("source", ""), f"{path}.source", MAX_TEXT_LENGTH),
    )


def _frame(d, path):
    _reject_unknown(d, path, {"origin", "z_axis", "x_axis"})
    if "origin" not in d:
        raise ModelError(f"{path}.origin", "missing")
    x = d.get("x_axis")
    return Frame(
        origin=check_vector(d["origin"], f"{path}.origin"),
        z_axis=check_vector(d.get("z_axis", [0, 0, 1]), f"{path}.z_axis"),
        x_axis=None if x is None else check_vector(x, f"{path}.x_axis"),
    )


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
            *LIMIT_FIELDS,
            "friction",
        },
    )
    name = _name(d, path)
    jtype = d.get("type")
    if jtype not in JOINT_TYPES:
        raise ModelError(
            f"{path}.type", f"joint '{name}': unknown type {shown(jtype)} (one of {', '.join(JOINT_TYPES)})"
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
        point_j=check_vector(d["point_j"], f"{path}.point_j") if "point_j" in d else None,
        length=check_number(d["length"], f"{path}.length") if "length" in d else None,
        angle=check_number(d["angle"], f"{path}.angle") if "angle" in d else None,
        **{k: check_number(d[k], f"{path}.{k}", kind="length") for k in COUPLER_PARAMETERS if k in d},
        **parse_limit_fields(d, path, name),
        friction=parse_friction(d["friction"], f"{path}.friction", name) if "friction" in d else None,
    )


_KIND_ORDER = tuple(FIELD_KINDS)  # force fields are read kind by kind: the first error found is reported


def _force(d: dict, path: str) -> Force:
    """Read a force: name, type and the fields its ForceType lists (catalog.FORCES)."""
    if not isinstance(d, dict):
        raise ModelError(path, f"must be an object, got {shown(d)}")
    name = _name(d, path)
    ftype = d.get("type")
    check_force_type(ftype, f"{path}.type", f"force '{name}'")
    specs = FORCES[ftype].fields
    _reject_unknown(d, path, {"name", "type", *FORCES[ftype].field_names})
    f = Force(name=name, type=ftype)
    for spec in sorted(specs, key=lambda spec: _KIND_ORDER.index(spec.kind)):
        setattr(f, spec.name, _force_field(d, path, spec))
    return f


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
        return check_vector(d.get(key), where) if required or key in d else spec.default
    value = d.get(key) if required else d.get(key, spec.default)
    if value is None and spec.default is None:
        return None
    return check_number(value, where, nonnegative=kind == "nonneg")


def _check_profiles(comps: list, path: str) -> None:
    from .profiles import compile_profile

    for k, c in enumerate(comps):
        compile_profile(c, f"{path}[{k}]")


def _driver(d, path):
    _reject_unknown(d, path, {"name", "type", "joint", "profile"})
    name = _name(d, path)
    dtype = d.get("type")
    if not isinstance(dtype, str) or dtype not in DRIVER_TYPES:
        raise ModelError(
            f"{path}.type", f"driver '{name}': unknown type {shown(dtype)} (one of {', '.join(DRIVER_TYPES)})"
        )
    if "profile" not in d:
        raise ModelError(f"{path}.profile", f"driver '{name}': missing")
    from .profiles import compile_profile

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
