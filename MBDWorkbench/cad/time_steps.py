"""The Simulation's integration and output steps, as whole numbers of microseconds.

FreeCAD 0.20 has no ms or µs unit, shows a time quantity at the user's Decimals preference
(0.0005 s reads "0.00 s"), rounds a float property to those decimals when it is edited, and a
PropertyPrecision reads 0.0005000000000000. An integer number of microseconds reads at a
glance ("500") and is exact on edit, in FreeCAD 0.20 and 1.0: ``StepMicroseconds`` (0: the
integrator's own default step) and ``OutputStepMicroseconds``. Documents written before them
have ``Step`` and ``OutputStep`` in seconds; they are converted when such a document is
opened (:func:`migrated_steps`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .errors import CadError

if TYPE_CHECKING:
    import FreeCAD as App

MICROSECONDS_PER_SECOND = 1e6  # divide by it: 1000 µs gives exactly the double nearest 0.001 s
STEP = "StepMicroseconds"
OUTPUT_STEP = "OutputStepMicroseconds"
OLD_NAMES = {STEP: "Step", OUTPUT_STEP: "OutputStep"}  # [s], documents written before
INTEGER = "App::PropertyInteger"


def step_properties(group: str, defaults: dict) -> list[tuple]:
    """Property specs (objects._add) of the two steps; ``defaults`` in seconds (simulation_defaults)."""
    return [
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


def nearest_microseconds(seconds: float) -> int:
    """``seconds`` rounded to whole microseconds; a positive time below 0.5 µs gives 1 µs (never
    the 0 that means "the integrator's default")."""
    us = int(round(float(seconds) * MICROSECONDS_PER_SECOND))
    return 1 if us == 0 and seconds > 0 else us


def microseconds(seconds: float, what: str) -> int:
    """``seconds`` [s] as a whole number of microseconds (:func:`whole_microseconds`)."""
    return whole_microseconds(float(seconds) * MICROSECONDS_PER_SECOND, what)


def whole_microseconds(us: float, what: str) -> int:
    """``us`` [µs] as an int; CadError naming ``what`` when it is not finite, negative or not a
    whole number (to 1e-9 relative)."""
    us = float(us)
    if not math.isfinite(us) or us < 0:
        raise CadError("%s must be a finite time >= 0 µs, got %.10g µs" % (what, us))
    whole = round(us)
    if abs(us - whole) > 1e-9 * max(1.0, us):
        raise CadError("%s must be a whole number of microseconds (1000 µs = 1 ms), got %.10g µs" % (what, us))
    return int(whole)


def step_seconds(sim: App.DocumentObject) -> float | None:
    """The integration step [s] of a Simulation, None for 0 (the integrator's own default)."""
    return _checked(sim, STEP, 0) / MICROSECONDS_PER_SECOND or None


def output_step_seconds(sim: App.DocumentObject) -> float:
    """The output step [s] of a Simulation."""
    return _checked(sim, OUTPUT_STEP, 1) / MICROSECONDS_PER_SECOND


def _checked(sim: App.DocumentObject, name: str, least: int) -> int:
    """``sim.name`` [µs]; CadError naming the simulation and the property below ``least``."""
    value = int(getattr(sim, name))
    if value < least:
        zero = " (0: the integrator's default)" if least == 0 else ""
        raise CadError("simulation '%s' (%s): must be >= %d µs%s, got %d" % (sim.Label, name, least, zero, value))
    return value


def migrated_steps(sim: App.DocumentObject) -> dict[str, int]:
    """{new property: value [µs]} for an older document's ``Step`` and ``OutputStep`` [s]
    (rounded to whole µs, with a warning when that changes the value); the caller sets them
    quietly (not touched) and removes the old properties (SimulationProxy.setup)."""
    values = {}
    for name, old_name in OLD_NAMES.items():
        if old_name not in sim.PropertiesList:
            continue
        old = getattr(sim, old_name)
        seconds = float(getattr(old, "Value", old))  # a PropertyFloat, PropertyPrecision or time quantity
        us = nearest_microseconds(seconds) if math.isfinite(seconds) and seconds >= 0 else 0
        if not math.isclose(us / MICROSECONDS_PER_SECOND, seconds, rel_tol=1e-9):
            _warn(
                "simulation '%s': %s = %r s is now %s = %d µs (whole microseconds)\n"
                % (sim.Label, old_name, seconds, name, us)
            )
        values[name] = us
    return values


def _warn(text: str) -> None:
    import FreeCAD as App

    App.Console.PrintWarning(text)
