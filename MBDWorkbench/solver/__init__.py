"""Pure-numerics multibody solver (no FreeCAD): model, joints, kernels, integrators."""

from ._cache import configure as _configure_cache

_configure_cache()
from .errors import AssemblyError, Cancelled, ModelError, SimulationError
from .model.parse import from_dict, load
from .model.schema import GROUND, Body, Driver, Force, Frame, Joint, Model, Settings
from .results.results import Results
from .simulate import simulate
from .system.system import System

__all__ = [
    "Model",
    "Body",
    "Joint",
    "Frame",
    "Force",
    "Driver",
    "Settings",
    "load",
    "from_dict",
    "simulate",
    "System",
    "Results",
    "ModelError",
    "AssemblyError",
    "SimulationError",
    "Cancelled",
    "GROUND",
]
