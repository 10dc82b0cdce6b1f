"""SI units of the numbers a study varies (parameter paths, :mod:`.paths`), for the axis labels
of its plots: "" where a number has no unit or its unit is not known here."""

from __future__ import annotations

from ..solver.model.catalog import DRIVERS, FORCES
from . import paths

BODY_UNITS = {"mass": "kg", "inertia": "kg m^2", "position": "m", "velocity": "m/s", "angular_velocity": "rad/s"}
JOINT_UNITS = {"length": "m", "angle": "rad", "radius": "m", "radius_i": "m", "radius_j": "m", "pitch": "m"}
SETTING_UNITS = {"t_end": "s", "step": "s", "output_step": "s", "baumgarte_alpha": "1/s", "baumgarte_beta": "1/s"}
# a driver profile's fields, in the unit U of the driven coordinate (rad or m); None: U itself
PROFILE_UNITS = {
    "value": None,
    "initial": None,
    "amplitude": None,
    "offset": None,
    "value0": None,
    "value1": None,
    "speed": "{u}/s",
    "omega": "rad/s",
    "frequency": "Hz",
    "phase": "rad",
    "t0": "s",
    "t1": "s",
}


def parameter_unit(model: dict, path: str) -> str:
    """The SI unit of the number at ``path`` in the model dict ``model`` ("" when unknown)."""
    steps = paths.parse(path, "path")
    keys = [s for s in steps if isinstance(s, str)]
    section = keys[0]
    if section == "gravity":
        return "m/s^2"
    if section == "settings" and len(keys) == 2:
        return SETTING_UNITS.get(keys[1], "")
    if len(steps) < 3 or not isinstance(steps[1], tuple):
        return ""
    field, element = keys[1], paths.get(model, f"{section}[{steps[1][0]}]")
    if section == "bodies":
        return BODY_UNITS.get(field, "")
    if section == "joints":
        return JOINT_UNITS.get(field, "")
    if section == "forces":
        return _force_unit(element.get("type"), field)
    if section == "drivers" and field == "profile" and len(keys) == 3:
        return _profile_unit(element.get("type"), keys[2])
    return ""


def _force_unit(force_type: str, field: str) -> str:
    kind = FORCES.get(force_type)
    units = {f.name: f.unit for f in kind.fields} if kind else {}
    return "m" if field.startswith("point") else units.get(field, "")


def _profile_unit(driver_type: str, field: str) -> str:
    driver = DRIVERS.get(driver_type)
    if driver is None or field not in PROFILE_UNITS:
        return ""
    unit = PROFILE_UNITS[field]
    return driver.unit if unit is None else unit.format(u=driver.unit)


def axis_label(model: dict, path: str) -> str:
    """``path [unit]``, or the path alone when its unit is not known."""
    unit = parameter_unit(model, path)
    return f"{path} [{unit}]" if unit else path
