"""The model: its description (schema), reading (parse) and checks (validate), its geometry at the
initial configuration, the element catalogue, time profiles and the input limits.
``MBDWorkbench.solver.model`` hands on the names users import."""

from .contacts import Contact, Shape
from .parse import from_dict, load, parse_json, read_model_text
from .schema import GROUND, Body, Driver, Force, Frame, Joint, Model, Settings
from .validate import run_size, validate, validate_run, validate_settings

__all__ = [
    "GROUND",
    "Body",
    "Contact",
    "Driver",
    "Force",
    "Frame",
    "Joint",
    "Model",
    "Settings",
    "Shape",
    "from_dict",
    "load",
    "parse_json",
    "read_model_text",
    "run_size",
    "validate",
    "validate_run",
    "validate_settings",
]
