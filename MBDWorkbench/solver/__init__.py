"""Pure-numerics multibody solver (no FreeCAD): model, joints, kernels, integrators."""
from ._cache import configure as _configure_cache

_configure_cache()
from .errors import ModelError, AssemblyError, SimulationError, Cancelled
from .model import Model, Body, Joint, Frame, Force, Driver, Settings, load, from_dict, GROUND
from .simulate import simulate
from .system import System
from .results import Results

__all__ = ["Model", "Body", "Joint", "Frame", "Force", "Driver", "Settings", "load", "from_dict",
           "simulate", "System", "Results", "ModelError", "AssemblyError", "SimulationError",
           "Cancelled", "GROUND"]
