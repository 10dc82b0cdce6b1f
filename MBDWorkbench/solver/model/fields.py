"""Checks of single model fields, shared by reading a model (:mod:`.parse`) and validating one
(:mod:`.validate`): texts, numbers and their ranges, vectors, flags, inertia tensors, force types.
Each raises :class:`..errors.ModelError` with the path of the field.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..errors import ModelError
from .catalog import FORCE_TYPES
from .limits import RANGES


def check_text(value: object, path: str, max_length: int) -> str:
    """A string of at most ``max_length`` characters."""
    if not isinstance(value, str):
        raise ModelError(path, f"must be a string, got {shown(value)}")
    if len(value) > max_length:
        raise ModelError(path, f"has {len(value)} characters, at most {max_length} are allowed (limits)")
    return value


def shown(value: object) -> str:
    """repr of a value for messages: containers by their type and size, cut to 60 characters."""
    if isinstance(value, (list, tuple, dict)):
        return f"a {type(value).__name__} of {len(value)} items"
    if isinstance(value, HugeInteger):
        return f"an integer of {value.digits} digits"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return f"an integer of about 10^{int(abs(value).bit_length() * 0.30103)}"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_number(value, path, positive=False, nonnegative=False, kind=None):
    """``value`` as a float: a finite number (not a boolean), within limits.RANGES[kind] if given."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ModelError(path, f"must be a finite number, got {shown(value)}")
    try:
        x = float(value)
    except OverflowError:
        x = math.inf
    if not math.isfinite(x):
        raise ModelError(path, f"must be a finite number, got {shown(value)}")
    if positive and x <= 0:
        raise ModelError(path, f"must be positive, got {shown(value)}")
    if nonnegative and x < 0:
        raise ModelError(path, f"must not be negative, got {shown(value)}")
    if kind is not None and not RANGES[kind].contains(x):
        r = RANGES[kind]
        raise ModelError(path, f"must lie in [{r.low:g}, {r.high:g}] {r.unit} (limits, {kind}), got {x:g}")
    return x


def check_vector(value, path, n=3, kind=None):
    if not isinstance(value, (list, tuple, np.ndarray)) or len(value) != n:
        raise ModelError(path, f"must be a list of {n} numbers, got {shown(value)}")
    return [check_number(v, f"{path}[{k}]", kind=kind) for k, v in enumerate(value)]


def check_flag(value, path):
    """A JSON boolean (true/false): strings, numbers and lists are refused, not cast."""
    if not isinstance(value, (bool, np.bool_)):
        raise ModelError(path, f"must be true or false (a JSON boolean), got {shown(value)}")
    return bool(value)


def check_inertia(value, path):
    """Accept [Ixx, Iyy, Izz], [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (tensor entries) or 3x3."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)) and len(value) == 3 and all(isinstance(r, (list, tuple)) for r in value):
        return [check_vector(r, f"{path}[{k}]", kind="inertia") for k, r in enumerate(value)]
    if isinstance(value, (list, tuple)) and len(value) in (3, 6):
        v = [check_number(x, f"{path}[{k}]", kind="inertia") for k, x in enumerate(value)]
        if len(v) == 3:
            return [[v[0], 0.0, 0.0], [0.0, v[1], 0.0], [0.0, 0.0, v[2]]]
        return [[v[0], v[3], v[4]], [v[3], v[1], v[5]], [v[4], v[5], v[2]]]
    raise ModelError(path, "must be [Ixx, Iyy, Izz], [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] or a 3x3 list")


DISTANCE_FIELDS = ("point_j", "length")  # joint fields of the distance type only


def check_force_type(ftype: str, path: str, what: str) -> None:
    if not isinstance(ftype, str) or ftype not in FORCE_TYPES:
        raise ModelError(path, f"{what}: unknown type {shown(ftype)} (one of {', '.join(FORCE_TYPES)})")


class HugeInteger(float):
    """A JSON integer with more digits than Python converts (sys.get_int_max_str_digits()):
    +-inf, which every check refuses, named in messages by its number of ``digits``."""

    digits = 0
