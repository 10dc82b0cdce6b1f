"""SciPy's adaptive BDF, Radau and LSODA on the ODE form, stepped one accepted step at a
time so that the work integrals are accounted at every step."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from scipy.integrate import BDF, LSODA, OdeSolver, Radau

from .. import kernels
from .base import Stepper
from .explicit import account_power

if TYPE_CHECKING:
    from ..model import Settings
    from ..system import System


class SciPyStepper(Stepper):
    """A scipy.integrate OdeSolver (``solver_class``) with settings.rtol, settings.atol and
    max_step = settings.step [s], run to settings.t_end [s]."""

    solver_class: type[OdeSolver]

    def __init__(self, system: System, settings: Settings, t0: float, Y0: np.ndarray) -> None:
        super().__init__(system, settings, t0, Y0)
        self.solver = self.solver_class(
            self._fun, t0, Y0.copy(), settings.t_end, rtol=settings.rtol, atol=settings.atol, max_step=settings.step
        )
        self._failed = False

    def _fun(self, t: float, Y: np.ndarray) -> np.ndarray:
        try:
            Ydot = self.system.derivative(t, Y)
        except FloatingPointError:
            self._failed = True
            return np.full_like(Y, np.nan)
        if not np.all(np.isfinite(Ydot)):
            self._failed = True
        return Ydot

    def advance(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray) -> tuple[float, int]:
        """Step until t_next [s] is passed, then interpolate Y at t_next; returns (time [s], status)."""
        s = self.solver
        while s.t < t_next - 1e-12 * max(1.0, abs(t_next)):
            if s.status != "running":
                return s.t, kernels.NOT_FINITE
            s.step()
            self.steps += 1
            if s.status == "failed" or self._failed or not np.all(np.isfinite(s.y)):
                Y[:] = s.y if np.all(np.isfinite(s.y)) else Y
                return s.t_old if s.t_old is not None else t, kernels.NOT_FINITE
            ev = self.system.evaluate(s.t, s.y)
            account_power(acc, s.t, ev["Pdrv"], ev["Pnc"])
        Y[:] = s.dense_output()(t_next) if s.t != t_next and s.t_old is not None else s.y
        kernels.normalize_quaternions(self.system.static, Y)
        return t_next, kernels.OK

    def restart(self, t: float, Y: np.ndarray) -> SciPyStepper:
        """A fresh solver started from (t, Y) that keeps this one's step count."""
        fresh = type(self)(self.system, self.settings, t, Y)
        fresh.steps, fresh.warnings = self.steps, self.warnings
        return fresh


class BDFStepper(SciPyStepper):
    """Variable-order backward differentiation formulas (SciPy's BDF)."""

    name, solver_class = "bdf", BDF


class RadauStepper(SciPyStepper):
    """Implicit Runge-Kutta Radau IIA of order 5 (SciPy's Radau)."""

    name, solver_class = "radau", Radau


class LSODAStepper(SciPyStepper):
    """Adams/BDF with automatic stiffness detection (SciPy's LSODA)."""

    name, solver_class = "lsoda", LSODA
