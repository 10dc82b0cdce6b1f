"""The Simulation's tolerances and regularisation as text in scientific notation.

A number property shows 1e-8 as ``0.0000000100000000`` (PropertyPrecision, 16 decimals) or
``0.00`` (PropertyFloat and quantities at the Decimals preference, 2), in FreeCAD 0.20 and 1.0;
FreeCAD has no per-property decimals and no scientific display. A string property reads at a
glance (``1e-8``) and is exact: the text is the number (:func:`float`). ``RelativeTolerance``
``default`` (or empty, or 0) is the integrator's own rtol. Text that is not a number > 0 is
refused at Check and Solve, naming the simulation and the property (:func:`tolerance_value`).
Documents written before hold numbers; they become text when such a document is opened
(:func:`old_tolerance_texts`), quietly (the document is not marked modified).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .errors import CadError

if TYPE_CHECKING:
    import FreeCAD as App

STRING = "App::PropertyString"
RELATIVE, ABSOLUTE, TIKHONOV = "RelativeTolerance", "AbsoluteTolerance", "TikhonovEps"
DEFAULT = "default"  # RelativeTolerance: the integrator's own rtol
DEFAULT_WORDS = ("", DEFAULT, "0")
TOOLTIPS = {
    RELATIVE: "Relative tolerance of adaptive methods, e.g. 1e-6; 'default': the integrator's own",
    ABSOLUTE: "Absolute tolerance of adaptive methods, e.g. 1e-8",
    TIKHONOV: "Regularisation of redundant constraints (dimensionless), e.g. 1e-10",
}


def tolerance_properties(group: str, defaults: dict) -> list[tuple]:
    """Property specs (objects._add) of the three; ``defaults`` numbers (simulation_defaults)."""
    values = {RELATIVE: defaults[RELATIVE], ABSOLUTE: defaults[ABSOLUTE], TIKHONOV: 1e-10}
    return [(STRING, name, group, TOOLTIPS[name], tolerance_text(value)) for name, value in values.items()]


def tolerance_text(value: float | None) -> str:
    """``value`` as the shortest text that reads back exactly, with a short exponent ("1e-8",
    "2.5e-7", "0.001"); ``default`` for None or 0 (the integrator's own)."""
    if value is None or float(value) == 0:
        return DEFAULT
    mantissa, e, exponent = repr(float(value)).partition("e")
    return "%se%d" % (mantissa, int(exponent)) if e else mantissa


def parse_tolerance(text: str, what: str, may_default: bool = False) -> float | None:
    """The number in ``text`` ("1e-8"; a decimal comma is read as a point); None for
    ``default``, empty or 0 when ``may_default``. CadError naming ``what`` unless it is finite
    and > 0."""
    text = str(text).strip()
    if may_default and text.lower() in DEFAULT_WORDS:
        return None
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        default = " or 'default' (the integrator's own)" if may_default else ""
        raise CadError("%s: must be a number > 0 such as 1e-8%s, got %r" % (what, default, text))
    return value


def tolerance_value(sim: App.DocumentObject, name: str) -> float | None:
    """``sim.name`` as a number, None for RelativeTolerance's ``default``; CadError naming the
    simulation and the property."""
    what = "simulation '%s' (%s)" % (sim.Label, name)
    return parse_tolerance(getattr(sim, name), what, may_default=name == RELATIVE)


def old_tolerance_texts(sim: App.DocumentObject) -> dict[str, str]:
    """{property: text} for an older document's tolerances held as numbers; removes those
    properties, so that objects._add makes them text again (the caller sets the values quietly)."""
    texts = {}
    for name in TOOLTIPS:
        if name in sim.PropertiesList and sim.getTypeIdOfProperty(name) != STRING:
            old = getattr(sim, name)
            value = float(getattr(old, "Value", old))
            texts[name] = tolerance_text(value if math.isfinite(value) else None)
            sim.removeProperty(name)
    return texts
