"""Time profiles of drivers and loads: a number, an expression string or a dict (constant,
constant_speed, harmonic, polynomial, step, expression, table), compiled by :func:`compile_profile`
into a :class:`.expressions.Program` (dict forms are written out as expressions, tables kept as
tables).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .expressions import ExpressionError, Program, compile_expression, compile_node, number_text
from .limits import MAX_POLYNOMIAL_COEFFICIENTS, MAX_TABLE_POINTS, MAX_TEXT_LENGTH, RANGES


# ------------------------------------------------------------ dict profiles
def _num(spec, key, path, default=None):
    """Finite float field ``key`` of ``spec`` (``default`` when absent and not None)."""
    if key not in spec:
        if default is None:
            raise ExpressionError("%s.%s" % (path, key), "required field is missing")
        return float(default)
    return _finite(spec[key], "%s.%s" % (path, key))


def _finite(value, path):
    """A number of a profile object as a float within limits.RANGES['profile_number']."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ExpressionError(path, "must be a finite number, got %s" % _show(value))
    try:
        x = float(value)
    except OverflowError:
        raise ExpressionError(path, "must be a finite number, got an integer of about 10^%d" % _log10(value)) from None
    bound = RANGES["profile_number"]
    if not math.isfinite(x) or not bound.contains(x):
        raise ExpressionError(path, "must be a finite number in [%g, %g], got %r" % (bound.low, bound.high, x))
    return x


def _log10(n: int) -> int:
    """Decimal exponent of a huge integer (no str(): it may exceed Python's digit limit)."""
    return int(abs(n).bit_length() * 0.30103)


def _show(value: object) -> str:
    """repr of a value for messages, cut to 60 characters."""
    text = repr(value) if not isinstance(value, (list, dict)) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _num_list(spec, key, path, min_len, max_len):
    """List of finite floats (``min_len`` to ``max_len`` of them)."""
    p = "%s.%s" % (path, key)
    if key not in spec:
        raise ExpressionError(p, "required field is missing")
    values = spec[key]
    if not isinstance(values, (list, tuple, np.ndarray)) or len(values) < min_len:
        raise ExpressionError(p, "must be a list of at least %d numbers" % min_len)
    if len(values) > max_len:
        raise ExpressionError(p, "has %d entries, at most %d are allowed (limits)" % (len(values), max_len))
    return [_finite(v, "%s[%d]" % (p, i)) for i, v in enumerate(values)]


def _join(terms):
    """Join signed term strings ('-…' allowed) into 'a + b - c'."""
    out = ""
    for term in terms:
        if not out:
            out = term
        elif term.startswith("-"):
            out += " - " + term[1:]
        else:
            out += " + " + term
    return out or "0"


def _scaled(c, text):
    """'c*text' with c = 1 and -1 simplified."""
    return text if c == 1.0 else "-" + text if c == -1.0 else "%s*%s" % (number_text(c), text)


def _src_constant(spec, path):
    return number_text(_num(spec, "value", path))


def _src_constant_speed(spec, path):
    w, x0 = _num(spec, "speed", path), _num(spec, "initial", path, 0.0)
    return _join([number_text(x0)] * (x0 != 0.0) + [_scaled(w, "t")] * (w != 0.0))


def _src_harmonic(spec, path):
    a = _num(spec, "amplitude", path)
    if ("omega" in spec) == ("frequency" in spec):
        raise ExpressionError("%s.omega" % path, "give exactly one of 'omega' [rad/s] or 'frequency' [Hz]")
    w = _num(spec, "omega", path) if "omega" in spec else 2.0 * math.pi * _num(spec, "frequency", path)
    p, c = _num(spec, "phase", path, 0.0), _num(spec, "offset", path, 0.0)
    arg = _join([_scaled(w, "t"), number_text(p)] if p != 0.0 else [_scaled(w, "t")])
    return _join([number_text(c)] * (c != 0.0) + [_scaled(a, "sin(%s)" % arg)] * (a != 0.0))


def _src_polynomial(spec, path):
    coeffs = _num_list(spec, "coefficients", path, 1, MAX_POLYNOMIAL_COEFFICIENTS)
    powers = ["1", "t"] + ["t^%d" % k for k in range(2, len(coeffs))]
    terms = [number_text(c) if k == 0 else _scaled(c, powers[k]) for k, c in enumerate(coeffs) if c != 0.0]
    return _join(terms)


def _src_step(spec, path):
    t0, t1 = _num(spec, "t0", path), _num(spec, "t1", path)
    if not t0 < t1:
        raise ExpressionError("%s.t1" % path, "must be greater than t0 (%s)" % number_text(t0))
    return "step(t, %s, %s, %s, %s)" % (
        number_text(t0),
        number_text(_num(spec, "value0", path)),
        number_text(t1),
        number_text(_num(spec, "value1", path)),
    )


def _compile_table(spec, path):
    tx, ty = _num_list(spec, "t", path, 2, MAX_TABLE_POINTS), _num_list(spec, "value", path, 2, MAX_TABLE_POINTS)
    if len(tx) != len(ty):
        raise ExpressionError("%s.value" % path, "has %d entries but t has %d" % (len(ty), len(tx)))
    for i in range(1, len(tx)):
        if not tx[i] > tx[i - 1]:
            raise ExpressionError(
                "%s.t" % path,
                "must be strictly increasing (t[%d]=%s after t[%d]=%s)"
                % (i, number_text(tx[i]), i - 1, number_text(tx[i - 1])),
            )
    source = "table(t; %d points, t in [%s, %s])" % (len(tx), number_text(tx[0]), number_text(tx[-1]))
    return compile_node(("table", 0, ("t",)), [(tx, ty)], source)


_SOURCES = {
    "constant": (_src_constant, {"value"}),
    "constant_speed": (_src_constant_speed, {"speed", "initial"}),
    "harmonic": (_src_harmonic, {"amplitude", "omega", "frequency", "phase", "offset"}),
    "polynomial": (_src_polynomial, {"coefficients"}),
    "step": (_src_step, {"t0", "value0", "t1", "value1"}),
}
_TYPES = sorted(list(_SOURCES) + ["expression", "table"])
_FIELDS = dict({k: v[1] for k, v in _SOURCES.items()}, expression={"expr", "scale"}, table={"t", "value"})
_IGNORED = {"type", "comment", "description", "name"}


def _check_dict(spec, path):
    """Validate 'type' and reject unknown fields; returns the type."""
    kind = spec.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        raise ExpressionError("%s.type" % path, "must be one of %s, got %s" % (", ".join(_TYPES), _show(kind)))
    for key in spec:
        if key not in _FIELDS[kind] and key not in _IGNORED:
            raise ExpressionError(
                "%s.%s" % (path, key),
                "unknown field for type %r (allowed: %s)" % (kind, ", ".join(sorted(_FIELDS[kind]))),
            )
        if key in _IGNORED and key != "type" and not (isinstance(spec[key], str) and len(spec[key]) <= MAX_TEXT_LENGTH):
            raise ExpressionError("%s.%s" % (path, key), "must be a string of at most %d characters" % MAX_TEXT_LENGTH)
    return kind


def compile_profile(spec: str | float | dict, path: str = "profile") -> Program:
    """Compile a profile spec (expression string, number or dict) into a Program.

    Dict types: expression{expr, scale=1} (expr times scale, e.g. a unit conversion),
    constant{value}, constant_speed{speed, initial=0},
    harmonic{amplitude, omega | frequency [Hz], phase=0, offset=0},
    polynomial{coefficients}, table{t, value}, step{t0, value0, t1, value1}.
    Raises ExpressionError whose message starts with ``path`` (or ``path.field``).
    """
    if isinstance(spec, str):
        return compile_expression(spec, path)
    if isinstance(spec, numbers.Real) and not isinstance(spec, bool):
        return compile_expression(number_text(_finite(spec, path)), path)
    if not isinstance(spec, dict):
        raise ExpressionError(
            path, "expected an expression string or an object with a 'type' field, got %s" % type(spec).__name__
        )
    kind = _check_dict(spec, path)
    if kind == "expression":
        if "expr" not in spec:
            raise ExpressionError("%s.expr" % path, "required field is missing")
        scale = _num(spec, "scale", path, 1.0)
        return compile_expression(spec["expr"], "%s.expr" % path, scale=scale)
    if kind == "table":
        return _compile_table(spec, path)
    return compile_expression(_SOURCES[kind][0](spec, path), path, max_length=None)
