"""The settings.projection option of the ODE-form integrators: after each output time the
state is projected back onto the position and velocity constraints."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..assembly import assemble, project_velocities
from ..errors import AssemblyError, SimulationError
from ..tolerances import PROJECTION_TOL
from .base import Stepper

if TYPE_CHECKING:
    from ..model import Settings
    from ..system import System


def project_state(system: System, Y: np.ndarray, t: float) -> None:
    """Project positions onto Phi = 0 (minimum-norm steps in raw coordinates, m and rad) and
    velocities onto Phi_q v = -Phi_t (mass-weighted) at time t [s]; Y is modified in place."""
    try:
        Yp = assemble(system, Y, t, tol=PROJECTION_TOL, scaled=False)
    except AssemblyError as e:
        raise SimulationError(f"projection failed at t = {t:.6g} s: {e}", time=t, worst_joints=e.worst) from None
    Y[:] = project_velocities(system, Yp, t)


def project_after_output(system: System, settings: Settings, stepper: Stepper, t: float, Y: np.ndarray) -> Stepper:
    """Project Y at the output time t [s] if settings.projection is set and the stepper
    integrates the index-1 form (index-3 steppers keep Phi = 0 themselves and are left
    alone). Returns the stepper to continue with (``stepper.restart``)."""
    if not settings.projection or stepper.index == 3:
        return stepper
    project_state(system, Y, t)
    return stepper.restart(t, Y)
