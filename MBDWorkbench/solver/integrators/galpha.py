"""The adaptive Lie-group generalized-alpha scheme ([GA]) on the index-3 DAE with Newton
iterations; the shared set-up is :class:`.dae.Index3Stepper`. The step exists once, compiled, in
:mod:`.galpha_kernel`: whole output intervals run in its loop (:func:`.galpha_kernel.advance`);
where the rank monitor is due, rows of a singular position are out of the solve, or Newton fails
with a fresh factorisation, :meth:`GAlphaStepper.step` takes the step by calling the same kernel
step (:func:`.galpha_kernel.step`) and handles the rare paths around it: rank probes, shorter
steps, error messages."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from .. import kernels
from ..numerics.forces import CONTACT
from . import galpha_kernel as gk
from .base import equal_steps, own_settings
from .dae import Index3Stepper, SparsePattern
from .linalg import BandLU, band_layout
from .power import account_power

if TYPE_CHECKING:
    from ..model.schema import Settings
    from ..system.system import System


class GAlphaStepper(Index3Stepper):
    """Index-3 Lie-group generalized-alpha (Arnold & Bruls 2007, Bruls, Cardona & Arnold
    2012) with rho_inf as its one parameter, Newton iterations reusing the band LU of
    the iteration matrix [[M - gamma' h D - beta' h^2 K, Phi_q^T], [Phi_q, 0]] (constraint
    rows scaled by 1/(beta' h^2)), and step-size control from the local error estimate
    h^2 |beta - 1/6| |a_{n+1} - a_n| of the positions (Zienkiewicz-Xie). The rows in the solve
    are re-decided by the rank monitor of :class:`.dae.Index3Stepper` at the step start and after a
    failed step; iterations that stall at the rounding floor of the accelerations (near a singular
    position) are accepted once Phi and the positions have converged. A step that needed
    more residual evaluations than the average of the factorisation's reuse cycle (FACTOR_COST
    evaluations for the factorisation included; :func:`.galpha_kernel.costly_step`), or SLOW_NEWTON
    corrections or more, makes the next one refactorise (modified Newton).

    ``adaptive=False``: fixed steps of ``settings.step``."""

    name = "galpha"
    entry_kernel = gk.advance  # compiled entry point (solver/numerics/cold_start.py probes its cache)
    MAX_NEWTON = 10
    SLOW_NEWTON = 7
    FACTOR_COST = 4.0  # a factorisation's cost in residual evaluations (docs/index3.md, "Where the step lives")
    NEWTON_TOL = 1e-8

    def __init__(
        self,
        system: System,
        settings: Settings,
        t0: float,
        Y0: np.ndarray,
        adaptive: bool = True,
    ) -> None:
        settings = own_settings(settings, self.name)
        super().__init__(system, settings, t0, Y0)
        rho = float(settings.rho_inf)
        self.am = (2 * rho - 1) / (rho + 1)
        self.af = rho / (rho + 1)
        self.gamma = 0.5 + self.af - self.am
        self.beta = 0.25 * (self.gamma + 0.5) ** 2
        self.adaptive = adaptive
        self.h = self.h_min_ref = float(settings.step)
        self._fail_phi = None
        self.h_max = float(settings.output_step) if adaptive else float(settings.step)
        self.rtol, self.atol = float(settings.rtol), float(settings.atol)
        self.tol_phi = max(1e-3 * self.atol, 1e-13)
        self.rejected = 0
        self.newton_failures = 0
        self.stalled = 0  # steps accepted at the rounding floor of the accelerations
        self.factorizations = 0
        self.newton_evaluations = 0  # residual evaluations in the Newton loops
        self._slow = False  # the last step converged slowly: refactorise before the next
        self._rejecting = False  # the step being taken had a rejected error estimate
        self._cycle = np.array([self.FACTOR_COST, 0.0])  # reuse cycle of the factorisation (gk.costly_step)
        self._reset_history()
        self._par = self._kernel_parameters()

    def _kernel_parameters(self) -> np.ndarray:
        """The parameter array of :func:`.galpha_kernel.advance`."""
        par = np.zeros(gk.P_SIZE)
        par[gk.P_AM], par[gk.P_AF], par[gk.P_GAMMA], par[gk.P_BETA] = self.am, self.af, self.gamma, self.beta
        par[gk.P_RTOL], par[gk.P_ATOL], par[gk.P_TOL_PHI] = self.rtol, self.atol, self.tol_phi
        par[gk.P_H_MAX], par[gk.P_H_MIN_REF], par[gk.P_NEWTON_TOL] = self.h_max, self.h_min_ref, self.NEWTON_TOL
        par[gk.P_ADAPTIVE], par[gk.P_MAX_NEWTON] = self.adaptive, self.MAX_NEWTON
        par[gk.P_SLOW_NEWTON], par[gk.P_FACTOR_COST] = self.SLOW_NEWTON, self.FACTOR_COST
        return par

    def _build_pattern(self):
        """Sparsity pattern of the iteration matrix for the rows in the solve."""
        n6, ma = self.n6, self.ma
        Ki, Kj, _ = self.Kb
        Di, Dj, _ = self.Db
        d = self.diag6
        self.pattern = SparsePattern(
            n6 + ma,
            [
                [(d, d), (self.jq_c, n6 + self.jq_r), (n6 + self.jq_r, self.jq_c)],
                [(Di[: self.nD], Dj[: self.nD])],
                [(Ki[: self.nK], Kj[: self.nK])],
            ],
        )
        self.lu_valid, self.lu_h = False, None
        self._band_setup()

    @property
    def _contacts(self) -> int:
        """The number of contact elements (numerics.contact_forces)."""
        start = self.S.force_start
        return int(start[CONTACT + 1] - start[CONTACT])

    def _band_setup(self):
        """Band layout, LU storage and the argument tuples of the compiled loop for the current rows."""
        p = self.pattern
        indices, indptr = p.struct
        cols = np.repeat(np.arange(p.n), np.diff(indptr))
        position, kl, ku = band_layout(indices, cols, p.n)
        self.band = BandLU(p.n, position, kl, ku)
        self._prep = (self.lam_rows, self.active, self.jq_g, self.jq, self.Qt, *self.Kb, *self.Db, *self.Lb)
        b = self.band
        self._lay = (self.active_rows.astype(np.int64), self.jq_r, self.jq_c, self.is_driver, self.M, position)
        self._lay += (b.AB, b.piv, b.band)
        self._ws = gk.work_arrays(np.zeros(13 * self.nb), self.n6, self.ma, self._contacts)

    def _reset_history(self):
        """Start the pseudo-acceleration from the consistent v' (as at t0)."""
        self.a = self.vdot.copy()
        self.vdot_prev, self.h_prev, self.err_prev = None, None, 0.0
        self.lu_valid = False

    # ------------------------------------------------------------------ the rare paths
    def step(self, t: float, Y: np.ndarray, h_limit: float, acc: np.ndarray, monitored: bool = False) -> float:
        """One accepted step of at most h_limit [s] by the compiled step (:func:`.galpha_kernel.step`):
        after a Newton failure with a fresh factorisation the rank is probed at the predicted state
        (up to 3 times: rows lost at the end of the step) or the step shortened to a quarter. Returns the
        step taken. The rank monitor runs first unless ``monitored`` (it has just run at t)."""
        if not monitored:
            self._monitor_rank(t, Y, h_limit)
        h = h_limit
        probes = 0
        self._rejecting = False
        while True:
            code, h = self._kernel_call(gk.step, t, h, Y, acc)
            if code == gk.STEP_OK:
                return h
            if code == gk.STEP_TOO_SMALL:
                self._singular(
                    t,
                    Y,
                    f"Newton iterations do not converge even with a step of {h:.3g} s "
                    f"(locked or singular configuration?)",
                    phi=self._fail_phi,
                )
            if code == gk.STEP_SINGULAR:
                self._singular(t + h, self._ws[0].copy(), "singular generalized-alpha iteration matrix")
            self._fail_phi = self.W.phi.copy()  # of the last Newton iteration
            probes += 1
            kept = self._ws[12].copy()  # the contact memory at t (the kernel put it back)
            lost = probes <= 3 and self._monitor_rank(t, Y, h, probe=(t + h, self._ws[0].copy()))
            gk.contact_memory(self.S.force_vecs, self.S.force_start, kept, True)
            if lost:
                continue  # rank lost at the end of the step: retry with the new rows
            self.newton_failures += 1
            h *= 0.25

    def advance(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray) -> tuple[float, int]:
        """Integrate Y in place from t to t_next [s]; returns (t_next, OK) or raises
        SimulationError (simulate keeps the results so far)."""
        if self.steps == 0:
            ev = self._evaluate(t, Y)
            account_power(acc, t, self._driver_power(ev, Y[self.vel_slice], self.lam), ev["Pnc"])
        eps = 1e-12 * max(1.0, abs(t_next))
        self._output_check(t)
        while t < t_next - eps:  # equal steps of at most self.h up to the output time
            rest = t_next - t
            h_limit = equal_steps(rest, self.h)[1]
            run = functools.partial(self._run_compiled, t, Y, t_next, acc)
            monitored, t_reached = self._compiled_turn(t, Y, h_limit, run)
            if t_reached is not None and t_reached != t:  # progress: monitor again if due, then go on compiled
                t = t_reached
                continue
            h = self.step(t, Y, h_limit, acc, monitored)  # one step with the rare paths around it
            t = t_next if abs(t_next - (t + h)) <= eps else t + h
            self.steps += 1
        self._finish_output(t_next, Y)
        return t_next, kernels.OK

    def _run_compiled(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray, checked: bool) -> float:
        """Steps of the compiled loop from t towards t_next [s] (see :func:`.galpha_kernel.advance`);
        returns the time reached."""
        t_check = self._next_check if self.m else np.inf
        fs, cnt, state = self._kernel_state()
        args = (self.S, self.W, self._prep, self._lay, self._par, fs, cnt, state, acc, self._ws)
        t, _ = kernels.fast_call(gk.advance, t, t_next, t_check, checked, Y, *args)
        self._take_kernel_state(fs, cnt, state)
        return float(t)

    def _kernel_call(self, kernel, t: float, h: float, Y: np.ndarray, acc: np.ndarray):
        """``kernel(t, h, Y, ...)`` (:func:`.galpha_kernel.step`) on the stepper's state; returns its result."""
        fs, cnt, state = self._kernel_state()
        cnt[gk.C_REJECTING] = self._rejecting
        args = (self.S, self.W, self._prep, self._lay, self._par, fs, cnt, state, acc, self._ws)
        out = kernels.fast_call(kernel, float(t), float(h), Y, *args)
        self._rejecting = bool(cnt[gk.C_REJECTING])
        self._take_kernel_state(fs, cnt, state)
        return out

    def _kernel_state(self) -> tuple:
        """(fs, cnt, state): copies of the stepper's state in the kernels' arrays (see :mod:`.galpha_kernel`)."""
        h_prev = -1.0 if self.h_prev is None else self.h_prev
        fs = np.array([self.h, h_prev, self.err_prev, self.lu_h or 0.0, *self._cycle])
        cnt = np.zeros(gk.C_SIZE, np.int64)
        cnt[gk.C_LU_VALID], cnt[gk.C_SLOW] = self.lu_valid, self._slow
        vdot_prev = np.zeros(self.n6) if self.vdot_prev is None else self.vdot_prev.copy()
        return fs, cnt, (self.vdot.copy(), self.a.copy(), np.ascontiguousarray(self.lam, float).copy(), vdot_prev)

    def _take_kernel_state(self, fs: np.ndarray, cnt: np.ndarray, state: tuple) -> None:
        """The stepper's state and counters from the kernels' arrays after a call."""
        self.vdot, self.a, self.lam = state[:3]
        if fs[gk.F_H_PREV] >= 0.0:
            self.vdot_prev, self.h_prev = state[3], float(fs[gk.F_H_PREV])
        self.h, self.err_prev, self.lu_h = float(fs[gk.F_H]), float(fs[gk.F_ERR_PREV]), float(fs[gk.F_LU_H])
        self.lu_valid = bool(cnt[gk.C_LU_VALID])
        self._slow = bool(cnt[gk.C_SLOW])
        self._cycle[:] = fs[gk.F_CYCLE : gk.F_CYCLE + 2]
        self.steps += int(cnt[gk.C_STEPS])
        self.rejected += int(cnt[gk.C_REJECTED])
        self.stalled += int(cnt[gk.C_STALLED])
        self.factorizations += int(cnt[gk.C_FACTORIZATIONS])
        self.newton_evaluations += int(cnt[gk.C_ITERATIONS])
