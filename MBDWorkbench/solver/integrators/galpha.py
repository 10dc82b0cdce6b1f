"""The adaptive Lie-group generalized-alpha scheme ([GA]) on the index-3 DAE with Newton
iterations; the shared set-up is :class:`.dae.Index3Stepper`. The steps run in the compiled loop
of :mod:`.galpha_kernel` (whole output intervals per call); :meth:`GAlphaStepper.step` is the
same step in Python, taken where the rank monitor is due or Newton fails (and for every step
with ``compiled=False``)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np
from scipy.sparse.linalg import splu

from .. import kernels
from . import galpha_kernel as gk
from . import jacobians as ik
from .base import equal_steps
from .dae import Index3Stepper, SparsePattern
from .explicit import account_power

if TYPE_CHECKING:
    from ..model.schema import Settings
    from ..system.system import System


class GAlphaStepper(Index3Stepper):
    """Index-3 Lie-group generalized-alpha (Arnold & Bruls 2007, Bruls, Cardona & Arnold
    2012) with rho_inf as its one parameter, Newton iterations reusing the sparse LU of
    the iteration matrix [[M - gamma' h D - beta' h^2 K, Phi_q^T], [Phi_q, 0]] (constraint
    rows scaled by 1/(beta' h^2)), and step-size control from the local error estimate
    h^2 |beta - 1/6| |a_{n+1} - a_n| of the positions (Zienkiewicz-Xie). The rows in the solve
    are re-decided by the rank monitor of :class:`.dae.Index3Stepper` at the step start and after a
    failed step; iterations that stall at the rounding floor of the accelerations (near a singular
    position) are accepted once Phi and the positions have converged. A step that needed
    more residual evaluations than the average of the factorisation's reuse cycle (FACTOR_COST
    evaluations for the factorisation included; :func:`.galpha_kernel.costly_step`), or SLOW_NEWTON
    corrections or more, makes the next one refactorise (modified Newton).

    ``adaptive=False``: fixed steps of ``settings.step``. ``compiled=False``: every step in Python
    with SciPy's sparse LU (the reference the compiled loop is tested against)."""

    name = "galpha"
    entry_kernel = gk.advance  # compiled entry point (solver/cold_start.py probes its cache)
    MAX_NEWTON = 10
    SLOW_NEWTON = 7
    FACTOR_COST = 4.0  # a factorisation's cost in residual evaluations (docs/index3.md, "Compiled step loop")
    NEWTON_TOL = 1e-8

    def __init__(
        self,
        system: System,
        settings: Settings,
        t0: float,
        Y0: np.ndarray,
        adaptive: bool = True,
        compiled: bool = True,
    ) -> None:
        self.compiled = compiled
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
        self.lu = None
        self.lu_h = None
        if self.compiled:
            self._band_setup()

    def _band_setup(self):
        """Band layout, LU storage and the argument tuples of the compiled loop for the current rows."""
        p = self.pattern
        indices, indptr = p._struct
        cols = np.repeat(np.arange(p.n), np.diff(indptr))
        position, kl, ku = gk.band_layout(indices, cols, p.n)
        self.band = gk.BandLU(p.n, position, kl, ku)
        self._prep = (self.lam_rows, self.active, self.jq_g, self.jq, self.Qt, *self.Kb, *self.Db, *self.Lb)
        b = self.band
        self._lay = (self.active_rows.astype(np.int64), self.jq_r, self.jq_c, self.is_driver, self.M, position)
        self._lay += (b.AB, b.piv, b.band)

    def _reset_history(self):
        """Start the pseudo-acceleration from the consistent v' (as at t0)."""
        self.a = self.vdot.copy()
        self.vdot_prev, self.h_prev, self.err_prev = None, None, 0.0
        self.lu = None

    # ------------------------------------------------------------------ Newton
    def _factorize(self, t, Y, h):
        """Sparse LU of the iteration matrix at (t, Y, self.lam_new) for step h."""
        bp = self.beta * (1 - self.af) / (1 - self.am)
        gp = self.gamma * (1 - self.af) / (1 - self.am)
        self._set_lam(self.lam_new)
        ev = self._evaluate(t, Y, blocks=True)
        nK, nD = self._counts
        jq = ev["jq"]
        if self.compiled:
            self.lu = None
            b = self.band
            args = (b.AB, b.piv, b.position, b.kl, b.ku, self.n6, self.M, jq, self.jq_r, self.jq_c)
            if not kernels.fast_call(gk.assemble_and_factor, *args, *self.Db, nD, *self.Kb, nK, -gp * h, -bp * h * h):
                self._singular(t, Y, "singular generalized-alpha iteration matrix")
            self.lu = b
        else:
            groups = [[self.M, jq, jq], [self.Db[2][:nD]], [self.Kb[2][:nK]]]
            data = self.pattern.data(groups, [1.0, -gp * h, -bp * h * h])
            try:
                self.lu = splu(self.pattern.matrix(data))
            except RuntimeError:
                self._singular(t, Y, "singular generalized-alpha iteration matrix")
        self.lu_h = h
        self._cycle[:] = (self.FACTOR_COST, 0.0)
        self.factorizations += 1

    def _scale(self, Y):
        """Error weights of the position increments: atol + rtol |r| (m), atol + rtol (rad)."""
        r = np.abs(Y[: 7 * self.nb].reshape(self.nb, 7)[:, :3])
        sc = np.ones((self.nb, 6))
        sc[:, :3] = r
        return self.atol + self.rtol * sc.reshape(-1)

    def _try_step(self, t, Y, h):
        """Newton solve of one step of size h; returns (Y_new, v'_new, a_n used, a_new,
        lam_new, evaluation at Y_new), or None if the iterations fail (self._fresh tells whether
        the factorisation was new)."""
        am, af, g, b = self.am, self.af, self.gamma, self.beta
        n6, nb = self.n6, self.nb
        cfac = (1 - af) / (1 - am)
        bp, gp = b * cfac, g * cfac
        v0 = Y[self.vel_slice].copy()
        vdot = self.vdot.copy()
        a0 = self._a_start(h)
        a_new = (af * self.vdot - am * a0 + (1 - af) * vdot) / (1 - am)
        v = v0 + h * (1 - g) * a0 + h * g * a_new
        dq = v0 + h * (0.5 - b) * a0 + h * b * a_new
        self.lam_new = self.lam.copy()
        Yn = np.empty_like(Y)
        sc = self._scale(Y)
        t1 = t + h
        self._fresh = False
        ik.apply_increment(self.S.nb, Y, h * dq, Yn)
        Yn[self.vel_slice] = v
        self._predicted = (t1, Yn.copy())
        if self._slow:
            self.lu, self._slow = None, False
        if self.lu is None or not 0.7 < h / self.lu_h < 1.4:
            self._factorize(t1, Yn, h)
            self._fresh = True
        prev = np.inf
        corr = np.inf
        # rounding of Phi (~eps |q|) is amplified by the 1/(beta' h^2) row scaling
        floor = 100 * np.finfo(float).eps * (1.0 + np.max(np.abs(Y[: 7 * nb]))) / (bp * h * h)
        for it in range(self.MAX_NEWTON):
            ik.apply_increment(self.S.nb, Y, h * dq, Yn)
            Yn[self.vel_slice] = v
            ev = self._evaluate(t1, Yn)
            self.newton_evaluations += 1
            self._fail_phi = self.W.phi.copy()
            if not (np.all(np.isfinite(ev["Q"])) and np.all(np.isfinite(ev["phi"]))):
                return None
            if it > 0 and corr < 1.0 and (self.ma == 0 or np.max(np.abs(ev["phi"])) <= self.tol_phi):
                self._slow = bool(gk.costly_step(it + 1, self._cycle)) or it >= self.SLOW_NEWTON
                return Yn, vdot, a0, a_new, self.lam_new.copy(), ev
            rq = self.M * vdot - ev["Q"] + self._jqT_matvec(ev["jq"], self.lam_new)
            rhs = -np.concatenate([rq, ev["phi"] / (bp * h * h)])
            sol = self.lu.solve(rhs)
            dv = sol[:n6]
            # converged when the acceleration correction is below NEWTON_TOL relative
            # (so the multipliers are accurate too) and the implied position change is
            # far below the error tolerance
            corr_pos = 1e3 * np.sqrt(np.mean((bp * h * h * dv / sc) ** 2))
            corr = max(np.max(np.abs(dv)) / (self.NEWTON_TOL * (1.0 + np.max(np.abs(vdot))) + floor), corr_pos)
            if not np.isfinite(corr):
                break
            if it > 1 and corr > 0.9 * prev:
                # stalled: near a singular position the rounding floor of the accelerations is
                # amplified by the conditioning of Phi_q; accept if the positions have converged
                if corr_pos < 1.0 and np.max(np.abs(ev["phi"])) <= self.tol_phi:
                    self.stalled += 1
                    return Yn, vdot, a0, a_new, self.lam_new.copy(), ev
                break
            prev = corr
            vdot += dv
            a_new += cfac * dv
            v += h * gp * dv
            dq += h * bp * dv
            self.lam_new += sol[n6:]
        return None

    def step(self, t: float, Y: np.ndarray, h_limit: float, acc: np.ndarray, monitored: bool = False) -> float:
        """One accepted step of at most h_limit (retrying with smaller h after a Newton
        failure or a rejected error estimate); returns the step taken. The rank monitor runs
        first unless ``monitored`` (it has just run at t)."""
        if not monitored:
            self._monitor_rank(t, Y, h_limit)
        h = h_limit
        rejected = False
        probes = 0
        while True:
            if h < 1e-14 * max(1.0, abs(t)) or h < 1e-6 * self.h_min_ref:
                self._singular(
                    t,
                    Y,
                    f"Newton iterations do not converge even with a step of {h:.3g} s "
                    f"(locked or singular configuration?)",
                    phi=self._fail_phi,
                )
            out = self._try_step(t, Y, h)
            if out is None:
                if not self._fresh:  # stale factorisation: refactor and retry
                    self.lu = None
                    continue
                probes += 1
                if probes <= 3 and self._monitor_rank(t, Y, h, probe=self._predicted):
                    continue  # rank lost at the end of the step: retry with the new rows
                self.lu = None
                self.newton_failures += 1
                h *= 0.25
                continue
            Yn, vdot, a0, a_new, lam, ev = out
            err = self._error(Y, a0, a_new, h)
            if self.adaptive and err > 1.0:
                self.rejected += 1
                rejected = True
                h *= max(0.2, 0.8 * err ** (-1.0 / 3.0))
                continue
            break
        Y[:] = Yn
        self.vdot_prev, self.h_prev = self.vdot, h
        self.vdot, self.a, self.lam = vdot, a_new, lam
        account_power(acc, t + h, self._driver_power(ev, Y[self.vel_slice], lam), ev["Pnc"])
        if self.adaptive:
            self._control(h, err, rejected)
        return h

    def _control(self, h, err, rejected):
        """New desired step from the error estimate. The larger of the last two
        estimates damps the step-to-step zig-zag of the pseudo-accelerations, and changes
        below 25 % are not made: every change of step excites the spurious
        (-rho_inf)^n mode of the index-3 multipliers."""
        fac = min(2.0, max(0.2, 0.85 * max(err, self.err_prev, 1e-12) ** (-1.0 / 3.0)))
        self.err_prev = err
        if rejected:
            fac = min(fac, 1.0)
        if fac < 0.8 or rejected:
            self.h = h * fac
        elif fac > 1.25:
            self.h = min(max(self.h, h) * fac, self.h_max)

    def _a_start(self, h):
        """a_n for a step of size h: a_n approximates v'(t_n + (alpha_m - alpha_f) h), so
        after a change of step it is shifted by (alpha_m - alpha_f) (h - h_prev) v''."""
        if self.h_prev is None or h == self.h_prev:
            return self.a
        jerk = (self.vdot - self.vdot_prev) / self.h_prev
        return self.a + (self.am - self.af) * (h - self.h_prev) * jerk

    def _error(self, Y, a0, a_new, h):
        """Weighted RMS of the local position error estimate (<= 1: accept)."""
        e = h * h * abs(self.beta - 1.0 / 6.0) * (a_new - a0)
        return float(np.sqrt(np.mean((e / self._scale(Y)) ** 2))) if len(e) else 0.0

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
            monitored, t_reached = False, None
            if self.compiled:
                run = functools.partial(self._run_compiled, t, Y, t_next, acc)
                monitored, t_reached = self._compiled_turn(t, Y, h_limit, run)
            if t_reached is not None and t_reached != t:  # progress: monitor again if due, then go on compiled
                t = t_reached
                continue
            h = self.step(t, Y, h_limit, acc, monitored)  # the Python step takes this one
            t = t_next if abs(t_next - (t + h)) <= eps else t + h
            self.steps += 1
        self._finish_output(t_next, Y)
        return t_next, kernels.OK

    def _run_compiled(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray, checked: bool) -> float:
        """Steps of the compiled loop from t towards t_next [s] (see :func:`.galpha_kernel.advance`);
        returns the time reached. The stepper's state is copied in and out."""
        t_check = self._next_check if self.m else np.inf
        h_prev = -1.0 if self.h_prev is None else self.h_prev
        fs = np.array([self.h, h_prev, self.err_prev, self.lu_h or 0.0, *self._cycle])
        cnt = np.zeros(gk.C_SIZE, np.int64)
        cnt[gk.C_LU_VALID], cnt[gk.C_SLOW] = self.lu is not None, self._slow
        vdot_prev = np.zeros(self.n6) if self.vdot_prev is None else self.vdot_prev.copy()
        state = (self.vdot.copy(), self.a.copy(), np.ascontiguousarray(self.lam, float).copy(), vdot_prev)
        args = (t, t_next, t_check, checked, Y, self.S, self.W, self._prep, self._lay, self._par, fs, cnt, state, acc)
        t, _ = kernels.fast_call(gk.advance, *args)
        self.vdot, self.a, self.lam = state[:3]
        if fs[gk.F_H_PREV] >= 0.0:
            self.vdot_prev, self.h_prev = state[3], float(fs[gk.F_H_PREV])
        self.h, self.err_prev, self.lu_h = float(fs[gk.F_H]), float(fs[gk.F_ERR_PREV]), float(fs[gk.F_LU_H])
        self.lu = self.band if cnt[gk.C_LU_VALID] else None
        self._slow = bool(cnt[gk.C_SLOW])
        self._cycle[:] = fs[gk.F_CYCLE : gk.F_CYCLE + 2]
        self.steps += int(cnt[gk.C_STEPS])
        self.rejected += int(cnt[gk.C_REJECTED])
        self.stalled += int(cnt[gk.C_STALLED])
        self.factorizations += int(cnt[gk.C_FACTORIZATIONS])
        self.newton_evaluations += int(cnt[gk.C_ITERATIONS])
        return float(t)
