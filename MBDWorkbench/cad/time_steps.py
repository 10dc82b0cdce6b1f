"""The Simulation's times as whole numbers: the end time in milliseconds, the integration and
output steps in microseconds.

FreeCAD 0.20 has no ms or µs unit, shows a time quantity at the user's Decimals preference
(0.0005 s reads "0.00 s", a 5 ms end time "0.01 s"), rounds a float property to those decimals
when it is edited, and a PropertyPrecision reads 0.0005000000000000. An integer reads at a
glance ("500", "2000") and is exact on edit, in FreeCAD 0.20 and 1.0: ``EndTimeMilliseconds``,
``StepMicroseconds`` (0: the integrator's own default step) and ``OutputStepMicroseconds``.
Documents written before them have ``EndTime``, ``Step`` and ``OutputStep`` in seconds; they
are converted when such a document is opened (:func:`migrated_steps`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .errors import CadError

if TYPE_CHECKING:
    import FreeCAD as App

MICROSECONDS_PER_SECOND = 1e6  # divide by it: 1000 µs gives exactly the double nearest 0.001 s
MILLISECONDS_PER_SECOND = 1e3
STEP = "StepMicroseconds"
OUTPUT_STEP = "OutputStepMicroseconds"
END_TIME = "EndTimeMilliseconds"
OLD_NAMES = {STEP: "Step", OUTPUT_STEP: "OutputStep", END_TIME: "EndTime"}  # [s], documents written before
PER_SECOND = {STEP: MICROSECONDS_PER_SECOND, OUTPUT_STEP: MICROSECONDS_PER_SECOND, END_TIME: MILLISECONDS_PER_SECOND}
UNITS = {MICROSECONDS_PER_SECOND: ("µs", "microseconds"), MILLISECONDS_PER_SECOND: ("ms", "milliseconds")}
INTEGER = "App::PropertyInteger"
LARGEST = 2**31 - 1  # the property editor's integer range


def step_properties(group: str, defaults: dict) -> list[tuple]:
    """Property specs (objects._add) of the end time and the two steps; ``defaults`` in seconds
    (simulation_defaults)."""
    return [
        (INTEGER, END_TIME, group, "End time [ms] (1000 ms = 1 s)", nearest_whole(defaults["EndTime"], 1e3)),
        (
            INTEGER,
            OUTPUT_STEP,
            group,
            "Interval between output samples [µs] (1000 µs = 1 ms)",
            nearest_microseconds(defaults["OutputStep"]),
        ),
        (
            INTEGER,
            STEP,
            group,
            "Integration step [µs] (max step if adaptive); 0: the integrator's own default",
            nearest_microseconds(defaults["Step"]),
        ),
    ]


def nearest_whole(seconds: float, per_second: float) -> int:
    """``seconds`` in whole units of 1/``per_second`` s, within the integer property's range; a
    positive time below half a unit gives 1 (never the 0 that means "the integrator's default")."""
    units = min(int(round(float(seconds) * per_second)), LARGEST)
    return 1 if units == 0 and seconds > 0 else units


def nearest_microseconds(seconds: float) -> int:
    """``seconds`` rounded to whole microseconds (:func:`nearest_whole`)."""
    return nearest_whole(seconds, MICROSECONDS_PER_SECOND)


def microseconds(seconds: float, what: str) -> int:
    """``seconds`` [s] as a whole number of microseconds (:func:`whole_microseconds`)."""
    return whole_microseconds(float(seconds) * MICROSECONDS_PER_SECOND, what)


def whole_microseconds(us: float, what: str) -> int:
    """``us`` [µs] as an int (:func:`whole_units`)."""
    return whole_units(us, what, MICROSECONDS_PER_SECOND)


def whole_units(value: float, what: str, per_second: float) -> int:
    """``value`` [µs or ms, by ``per_second``] as an int; CadError naming ``what`` when it is not
    finite, negative, beyond the integer range or not a whole number (to 1e-9 relative)."""
    value, (unit, word) = float(value), UNITS[per_second]
    if not math.isfinite(value) or value < 0 or value > LARGEST:
        raise CadError(
            "%s must be a finite time >= 0 %s and <= %d %s, got %.10g %s" % (what, unit, LARGEST, unit, value, unit)
        )
    whole = round(value)
    if abs(value - whole) > 1e-9 * max(1.0, value):
        raise CadError("%s must be a whole number of %s (1000 %s = 1 %s), got %.10g %s" % (
            what, word, unit, "ms" if unit == "µs" else "s", value, unit))  # fmt: skip
    return int(whole)


def step_seconds(sim: App.DocumentObject) -> float | None:
    """The integration step [s] of a Simulation, None for 0 (the integrator's own default)."""
    return _checked(sim, STEP, 0) / MICROSECONDS_PER_SECOND or None


def output_step_seconds(sim: App.DocumentObject) -> float:
    """The output step [s] of a Simulation."""
    return _checked(sim, OUTPUT_STEP, 1) / MICROSECONDS_PER_SECOND


def end_time_seconds(sim: App.DocumentObject) -> float:
    """The end time [s] of a Simulation."""
    return _checked(sim, END_TIME, 1) / MILLISECONDS_PER_SECOND


def _checked(sim: App.DocumentObject, name: str, least: int) -> int:
    """``sim.name`` [µs or ms]; CadError naming the simulation and the property below ``least``."""
    value, unit = int(getattr(sim, name)), UNITS[PER_SECOND[name]][0]
    if value < least:
        zero = " (0: the integrator's default)" if least == 0 else ""
        raise CadError("simulation '%s' (%s): must be >= %d %s%s, got %d" % (sim.Label, name, least, unit, zero, value))
    return value


def migrated_steps(sim: App.DocumentObject) -> dict[str, int]:
    """{new property: whole µs or ms} for an older document's ``Step``, ``OutputStep`` and
    ``EndTime`` [s] (rounded, with a warning when that changes the value); the caller sets them
    quietly (not touched) and removes the old properties (SimulationProxy.setup)."""
    values = {}
    for name, old_name in OLD_NAMES.items():
        if old_name not in sim.PropertiesList:
            continue
        old, per_second = getattr(sim, old_name), PER_SECOND[name]
        seconds = float(getattr(old, "Value", old))  # a PropertyFloat, PropertyPrecision or time quantity
        whole = nearest_whole(seconds, per_second) if math.isfinite(seconds) and seconds >= 0 else 0
        if not math.isclose(whole / per_second, seconds, rel_tol=1e-9):
            unit, word = UNITS[per_second]
            _warn(
                "simulation '%s': %s = %r s is now %s = %d %s (whole %s)\n"
                % (sim.Label, old_name, seconds, name, whole, unit, word)
            )
        values[name] = whole
    return values


def _warn(text: str) -> None:
    import FreeCAD as App

    App.Console.PrintWarning(text)
