"""Time integrators: one registry, :data:`METHODS` (name -> Stepper class), and one
:func:`make_stepper`. Adding an integrator: its record in ``catalog.INTEGRATORS`` (name,
label, index, description), a Stepper subclass with that ``name`` in a module of this folder
(contract in :mod:`.base`) and one entry in ``_CLASSES`` below.

Modules: :mod:`.explicit` (euler, symplectic_euler, rk4), :mod:`.scipy_ivp` (bdf, radau,
lsoda), :mod:`.dae` (the shared index-3 part), :mod:`.cros` and :mod:`.galpha` (the rare paths:
rank probes, retries, messages) around their one compiled step in :mod:`.cros_kernel` and
:mod:`.galpha_kernel`, :mod:`.jacobians` (their exact sparse Jacobians), :mod:`.linalg` (their band
LU), :mod:`.power` (the work accounting of every integrator), :mod:`.projection`, :mod:`.tree`
(rk4_tree, joint coordinates of open trees).
"""

from __future__ import annotations

import numpy as np

from ..errors import ModelError
from ..model.catalog import INTEGRATOR_TYPES
from .base import Stepper
from .cros import CROSStepper
from .explicit import EulerStepper, RK4Stepper, SymplecticEulerStepper
from .friction import friction_stepper
from .galpha import GAlphaStepper
from .scipy_ivp import BDFStepper, LSODAStepper, RadauStepper
from .tree import TreeRK4Stepper

__all__ = ["METHODS", "Stepper", "make_stepper", "names"]

_CLASSES = (
    EulerStepper,
    SymplecticEulerStepper,
    RK4Stepper,
    BDFStepper,
    RadauStepper,
    LSODAStepper,
    CROSStepper,
    GAlphaStepper,
    TreeRK4Stepper,
)
METHODS: dict[str, type[Stepper]] = {name: cls for name in INTEGRATOR_TYPES for cls in _CLASSES if cls.name == name}
if len(METHODS) != len(_CLASSES) or len(METHODS) != len(INTEGRATOR_TYPES):
    raise ImportError("integrators: catalog.INTEGRATORS and the Stepper classes do not match one to one")


def names() -> tuple[str, ...]:
    """The integrator names, in the order shown to users (the catalogue's)."""
    return INTEGRATOR_TYPES


def make_stepper(system, settings, t0: float, Y0: np.ndarray) -> Stepper:
    """The stepper for ``settings.integrator`` started at time t0 [s] from state Y0."""
    cls = METHODS.get(settings.integrator)
    if cls is None:
        raise ModelError(
            "settings.integrator", f"unknown integrator {settings.integrator!r} (one of {', '.join(METHODS)})"
        )
    if getattr(system, "friction", None) is not None:
        cls = friction_stepper(system, settings.integrator)
    return cls(system, settings, t0, Y0)
