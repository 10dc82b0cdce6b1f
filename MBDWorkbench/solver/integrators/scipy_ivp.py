"""SciPy's adaptive BDF, Radau and LSODA on the ODE form, stepped one accepted step at a
time so that the work integrals are accounted at every step. After each accepted step the
kernels decide the kept constraint rows again where needed and, near a singular position,
project the state onto the constraints (``kernels.end_of_step``); the projected state is
written back into the solver (:meth:`SciPyStepper._write_back`).

bdf runs SciPy's BDF with one change (:class:`QuietBDF`): its Newton iteration also stops, converged,
when its correction has fallen below NEWTON_NOISE of its tolerance. SciPy's declares divergence
whenever a correction is not smaller than the previous one; at a resting contact (stiff
regularised friction, docs/contact.md) the corrections are round-off, about 1e-9 of the error
scale, which does not shrink, so SciPy halved the step down to 1e-15 s and stopped.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np
from scipy.integrate import BDF, LSODA, OdeSolver, Radau
from scipy.integrate._ivp import bdf as scipy_bdf

from .. import kernels
from ..results.contacts import evaluated_peaks
from .base import Stepper, own_settings
from .power import account_power
from .projection import RankEvents, singular_stop

if TYPE_CHECKING:
    from ..model.schema import Settings
    from ..system.system import System


class SciPyStepper(Stepper):
    """A scipy.integrate OdeSolver (``solver_class``) with settings.rtol, settings.atol and
    max_step = settings.step [s], run to settings.t_end [s]."""

    solver_class: type[OdeSolver]

    def __init__(self, system: System, settings: Settings, t0: float, Y0: np.ndarray) -> None:
        settings = own_settings(settings, self.name)
        super().__init__(system, settings, t0, Y0)
        self.solver = self._new_solver(t0, Y0)
        self._failed = False
        self._singular: tuple[float, np.ndarray] | None = None  # (t [s], Y) of a singular evaluation
        self.failure = ""  # why SciPy stopped at a finite state (simulate's error message), else ""
        self.events = RankEvents(system)

    def _fun(self, t: float, Y: np.ndarray) -> np.ndarray:
        try:
            Ydot = self.system.derivative(t, Y)
        except FloatingPointError:  # the kept rows could not be factorised even after a fresh decision
            self._failed, self._singular = True, (float(t), np.array(Y, dtype=float))
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
            changes = self.system.work.ctl[kernels.CTL_CHANGES]
            if not self._step(s):  # stopped at the last accepted state, if finite
                if self._singular is not None:
                    raise singular_stop(self.system, *self._singular, "the kept constraint equations became dependent")
                finite = bool(np.all(np.isfinite(s.y)))
                Y[:] = s.y if finite else Y
                return (s.t if finite else t), kernels.NOT_FINITE
            self.steps += 1
            if s.status == "failed" or self._failed or not np.all(np.isfinite(s.y)):
                Y[:] = s.y if np.all(np.isfinite(s.y)) else Y
                self.events.read(self)
                if self._singular is not None:
                    raise singular_stop(self.system, *self._singular, "the kept constraint equations became dependent")
                return s.t_old if s.t_old is not None else t, kernels.NOT_FINITE
            s = self._accepted(s, changes)
            ev = self.system.evaluate(s.t, s.y)
            account_power(acc, s.t, ev["Pdrv"], ev["Pnc"])
        self.events.read(self)
        Y[:] = s.dense_output()(t_next) if s.t != t_next and s.t_old is not None else s.y
        kernels.normalize_quaternions(self.system.static, Y)
        return t_next, kernels.OK

    def _step(self, s: OdeSolver) -> bool:
        """One step of the SciPy solver; False if it refused the state (SciPy's BDF and Radau
        raise ValueError on a NaN/inf state or derivative after a blow-up). SciPy's reason for
        stopping at a finite state (its step too small) goes to ``failure``. The contact peaks are
        kept as they were (:meth:`_peaks_kept`): :meth:`advance` evaluates the accepted state, the
        one state of the step that they take."""
        try:
            with self._peaks_kept():
                message = s.step()
        except ValueError:
            return False
        if s.status == "failed" and not self._failed and np.all(np.isfinite(s.y)):
            self.failure = f"{self.name} gave up at a finite state: {message}"
        return True

    def _accepted(self, s: OdeSolver, changes: float) -> OdeSolver:
        """Decide the kept rows at the accepted state and project it where the kernels ask for it
        (near a singular position, after a rank change); returns the solver to continue with."""
        y = np.array(s.y, dtype=float)
        status, projected = kernels.fast_call(
            kernels.accepted_state, float(s.t), y, self.system.static, self.system.work, changes
        )
        if status != kernels.OK:
            self.events.read(self)
            raise singular_stop(self.system, s.t, y, "the projection onto the constraints failed")
        if projected:
            s = self._write_back(s, y)
        return s

    def _write_back(self, s: OdeSolver, y: np.ndarray) -> OdeSolver:
        """Continue from the projected state y: a fresh solver (LSODA keeps its state in Fortran)."""
        self.solver = self._new_solver(s.t, y)
        return self.solver

    def _new_solver(self, t: float, y: np.ndarray) -> OdeSolver:
        """A ``solver_class`` started at (t [s], y), to settings.t_end; its start (the initial step's
        trial state, the Jacobian's perturbations) leaves the contact peaks as they were."""
        st = self.settings
        with self._peaks_kept():
            return self.solver_class(self._fun, t, y.copy(), st.t_end, rtol=st.rtol, atol=st.atol, max_step=st.step)

    @contextmanager
    def _peaks_kept(self) -> Iterator[None]:
        """Restore the contact elements' running peaks (contacts.csv's ``peak_normal_force``) after
        SciPy's evaluations, which include states off the solution: rejected steps, Newton iterates,
        Jacobian perturbations (radau and bdf peaked at 55 x Hertz's force on an impact)."""
        peaks = evaluated_peaks(self.system)
        saved = peaks.copy()
        try:
            yield
        finally:
            peaks[:] = saved

    def restart(self, t: float, Y: np.ndarray) -> SciPyStepper:
        """A fresh solver started from (t, Y) that keeps this one's step count."""
        fresh = type(self)(self.system, self.settings, t, Y)
        fresh.steps, fresh.warnings, fresh.events = self.steps, self.warnings, self.events
        return fresh


NEWTON_NOISE = 1e-3  # bdf: a Newton correction below this fraction of the Newton tolerance is converged


def quiet_newton(fun, t_new, y_predict, c, psi, LU, solve_lu, scale, tol):
    """SciPy's ``solve_bdf_system`` (scipy/integrate/_ivp/bdf.py, BSD licence), its Newton iteration
    also converged when a correction's norm is below NEWTON_NOISE * tol (round-off that does not
    shrink, which SciPy's rate test takes for divergence); returns (converged, iterations, y, d)."""
    d, y, dy_norm_old, converged = 0, y_predict.copy(), None, False
    for k in range(scipy_bdf.NEWTON_MAXITER):
        f = fun(t_new, y)
        if not np.all(np.isfinite(f)):
            break
        dy = solve_lu(LU, c * f - psi - d)
        dy_norm = scipy_bdf.norm(dy / scale)
        rate = None if dy_norm_old is None else dy_norm / dy_norm_old
        noise = dy_norm < NEWTON_NOISE * tol
        if (
            not noise
            and rate is not None
            and (rate >= 1 or rate ** (scipy_bdf.NEWTON_MAXITER - k) / (1 - rate) * dy_norm > tol)
        ):
            break
        y += dy
        d += dy
        if dy_norm == 0 or noise and rate is not None or rate is not None and rate / (1 - rate) * dy_norm < tol:
            converged = True
            break
        dy_norm_old = dy_norm
    return converged, k + 1, y, d


SCIPY_NEWTON = getattr(scipy_bdf, "solve_bdf_system", None)  # None: another SciPy, its BDF as it is


class QuietBDF(BDF):
    """SciPy's BDF with :func:`quiet_newton` as its Newton iteration (SciPy's step looks up the
    module's ``solve_bdf_system`` at each call: it is swapped in for this step only)."""

    def _step_impl(self):
        if SCIPY_NEWTON is None:
            return super()._step_impl()
        scipy_bdf.solve_bdf_system = quiet_newton
        try:
            return super()._step_impl()
        finally:
            scipy_bdf.solve_bdf_system = SCIPY_NEWTON


class BDFStepper(SciPyStepper):
    """Variable-order backward differentiation formulas (SciPy's BDF, :class:`QuietBDF`)."""

    name, solver_class = "bdf", QuietBDF

    def _write_back(self, s: OdeSolver, y: np.ndarray) -> OdeSolver:
        """The projection moves the newest point of the backward differences (D[0] = y_n); the
        differences themselves are kept, as the correction is of the order of the local error."""
        s.D[0] = y
        s.y = y.copy()
        return s


class RadauStepper(SciPyStepper):
    """Implicit Runge-Kutta Radau IIA of order 5 (SciPy's Radau)."""

    name, solver_class = "radau", Radau

    def _write_back(self, s: OdeSolver, y: np.ndarray) -> OdeSolver:
        """A one-step method: the new start point and its derivative."""
        s.y = y.copy()
        s.f = self._fun(s.t, s.y)
        return s


class LSODAStepper(SciPyStepper):
    """Adams/BDF with automatic stiffness detection (SciPy's LSODA)."""

    name, solver_class = "lsoda", LSODA

    def _write_back(self, s: OdeSolver, y: np.ndarray) -> OdeSolver:
        """LSODA keeps its history in the Fortran work array: the projection moves the first
        column of its Nordsieck array (y_n, RWORK(21:20+n) in the ODEPACK layout); the higher
        columns are kept, as the correction is of the order of the local error. Without that
        array (another SciPy), a fresh solver."""
        integrator = getattr(getattr(s, "_lsoda_solver", None), "_integrator", None)
        rwork = getattr(integrator, "rwork", None)
        if rwork is None or rwork.shape[0] < 20 + y.shape[0]:
            return super()._write_back(s, y)
        rwork[20 : 20 + y.shape[0]] = y
        s._lsoda_solver._y = y.copy()
        s.y = y.copy()
        return s
