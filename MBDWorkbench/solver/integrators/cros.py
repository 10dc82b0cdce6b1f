"""The one-stage complex Rosenbrock scheme CROS ([CROS]; [R3] section 3) on the index-3 DAE,
fixed step; the shared set-up is :class:`.dae.Index3Stepper`. The step exists once, compiled, in
:mod:`.cros_kernel`: whole output intervals run in its loop (:func:`.cros_kernel.advance`); where the
rank monitor is due, rows of a singular position are out of the solve, or the step cannot go on
(singular matrix, non-finite solution, divergence), :meth:`CROSStepper.step` takes the step by calling
the same kernel step (:func:`.cros_kernel.step`) and handles the rare paths around it: the rank probe,
error messages."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from .. import kernels
from . import cros_kernel as ck
from .base import equal_steps, own_settings
from .dae import Index3Stepper
from .linalg import band_layout, band_pivots

if TYPE_CHECKING:
    from ..model.schema import Settings
    from ..system.system import System


class CROSStepper(Index3Stepper):
    """One-stage complex Rosenbrock scheme CROS ([R3] section 3), fixed step:
    (M_aug - (1+i)/2 h J) zeta = F + (1+i)/2 h F_t, z_{k+1} = z_k + h Re(zeta), with
    z = (x, v, lam), the constraint row's target carrying the curvature term
    (:func:`.cros_kernel.solve`); J = dF/dz exact (complex step) and sparse; a complex band LU of the
    reduced matrix (:mod:`.cros_kernel`).

    Scaled unknowns: the multiplier part is solved as a h zeta_lam and the constraint
    rows are divided by -a h, so the matrix [[I - a h Jxx, -a h I, 0],
    [-a h K, M - a h D, Phi_q^T], [Phi_q, 0, 0]] stays well conditioned as h -> 0."""

    name = "cros"
    entry_kernel = ck.advance  # compiled entry point (solver/numerics/cold_start.py probes its cache)
    A_CROS = ck.A_CROS  # (1 + i)/2
    PHI_MAX = 0.1  # m or rad: a larger violation means the scheme has diverged
    CURVATURE = 0.5  # the constraint row's curvature term (cros_kernel.solve); 0: seed 003's row
    RESTART_ON_RESTORE = False
    PROJECT_OUTPUT = True  # publish the state closed onto the constraints (the integration goes on from its own)

    def __init__(self, system: System, settings: Settings, t0: float, Y0: np.ndarray) -> None:
        settings = own_settings(settings, self.name)
        super().__init__(system, settings, t0, Y0)
        self.h = float(settings.step)

    def _build_pattern(self):
        """The compiled step's band layout and arrays for the rows in the solve."""
        self.n = 2 * self.n6 + self.ma
        self._band_setup()

    def _band_setup(self):
        """Band layout of the reduced CROS matrix (:mod:`.cros_kernel`: the pattern of D, K B, Phi_q^T and
        Phi_q B, B the block-diagonal chart inverse), LU storage, the compiled loop's cached solve and
        its argument tuples for the current rows."""
        n6, n = self.n6, self.n6 + self.ma
        Ki, Kj = self.Kb[0][: self.nK], self.Kb[1][: self.nK]
        Di, Dj = self.Db[0][: self.nD], self.Db[1][: self.nD]

        def chart_cols(rows, cols):  # the columns of (. B): a rotation column fills its body's three
            rot = cols % 6 >= 3
            base = cols[rot] - cols[rot] % 6 + 3
            return np.concatenate([rows, *[rows[rot]] * 3]), np.concatenate([cols, base, base + 1, base + 2])

        Kr, Kc = chart_cols(Ki, Kj)
        Gr, Gc = chart_cols(n6 + self.jq_r, self.jq_c)
        rows = np.concatenate([self.diag6, Di, Kr, self.jq_c, Gr])
        cols = np.concatenate([self.diag6, Dj, Kc, n6 + self.jq_r, Gc])
        position, kl, ku = band_layout(rows, cols, n)
        AB = np.zeros((n, 2 * kl + ku + 1), np.complex128)
        self._prep = (self.lam_rows, self.active, self.jq_g, self.jq, self.Qt, *self.Kb, *self.Db, *self.Lb)
        band = np.array([kl, ku], np.int64)
        self._lay = (self.active_rows.astype(np.int64), self.jq_r, self.jq_c, self.is_driver, self.M, position)
        self._lay += (AB, band_pivots(n), band, np.zeros((self.nb, 3, 3), np.complex128))
        self._kfs = np.zeros(ck.F_SIZE)
        self._kcnt = np.zeros(ck.C_SIZE, np.int64)
        self._kzeta = np.zeros(self.n, np.complex128)
        self._kY = np.zeros(13 * self.nb)
        self._ws = ck.work_arrays(self.n6, self.ma, self.nb)

    def step(self, t: float, Y: np.ndarray, h: float, acc: np.ndarray, monitored: bool = False) -> None:
        """One CROS step of size h [s] from (t, Y, self.lam) by the compiled step (:func:`.cros_kernel.step`),
        Y updated in place; where the matrix is singular or the solution not finite, the rank is probed at
        (t, Y) and the step retried with the new rows. ``lam_hat`` (:meth:`multipliers_at`): the step's
        multipliers. The rank monitor runs first unless ``monitored`` (it has just run at t)."""
        if not monitored:
            self._monitor_rank(t, Y, h)
        lam = self.lam
        code = self._kernel_step(t, h, Y, acc)
        if code in (ck.STEP_SINGULAR, ck.STEP_NOT_FINITE) and self._monitor_rank(t, Y, h, probe=(t, Y)):
            lam = self.lam  # rank lost here: the rows changed, retry
            code = self._kernel_step(t, h, Y, acc)
        if code == ck.STEP_DIVERGED:
            self._singular(
                t,
                Y,
                f"the constraint violation exceeds {self.PHI_MAX:g}: CROS diverges "
                f"(singular configuration or step too large)",
            )
        self._solve_failed(t, Y, code)
        self.lam_hat = self.multipliers_at(self._kzeta, lam)

    def _solve_failed(self, t: float, Y: np.ndarray, code: int) -> None:
        """Raise the SimulationError of a solve's code (:func:`.cros_kernel.solve`) other than STEP_OK."""
        if code == ck.STEP_SINGULAR:
            self._singular(t, Y, "singular CROS iteration matrix")
        if code == ck.STEP_NOT_FINITE:
            self._singular(t, Y, "the CROS step produced NaN/infinite values")

    def multipliers_at(self, zeta: np.ndarray, lam: np.ndarray | None = None) -> np.ndarray:
        """Multipliers at t_k from the step's solve zeta from the multipliers lam (default self.lam):
        Re(lam_k + a h zeta_lam), first order (see docs/index3.md; the scheme's own update
        lam_k + h Re(zeta_lam) carries an O(1) error and is kept only as the scheme's state). They give
        the driver power of each step; the output times report
        :meth:`.dae.Index3Stepper.state_multipliers` (these only where its matrix is singular)."""
        return (self.lam if lam is None else lam) + zeta[2 * self.n6 :].real

    def driver_power_at(self, t: float, Y: np.ndarray, h: float) -> float:
        """Driver power [W] at (t, Y) with the multipliers of the solve of a step h [s] from there
        (as the next step accounts it)."""
        code = kernels.fast_call(ck.solve_ahead, float(t), Y, float(h), *self._solve_args())
        self._solve_failed(t, Y, code)
        return float(self._kfs[ck.F_PDRV])

    def _solve_args(self) -> tuple:
        """(curvature, lam, S, W, prep, lay, fs, cnt, zeta, Yc, ws) of :func:`.cros_kernel.solve_ahead`."""
        self.lam = np.ascontiguousarray(self.lam, float)
        kargs = (self._prep, self._lay, self._kfs, self._kcnt, self._kzeta, self._kY, self._ws)
        return (float(self.CURVATURE), self.lam, self.S, self.W, *kargs)

    def _kernel_step(self, t: float, h: float, Y: np.ndarray, acc: np.ndarray) -> int:
        """:func:`.cros_kernel.step` from (t, Y, self.lam); returns its code."""
        self.lam = lam = np.ascontiguousarray(self.lam, float).copy()
        args = (self.S, self.W, self._prep, self._lay, self._kfs, self._kcnt, lam, self._kzeta, self._kY, acc, self._ws)
        return int(kernels.fast_call(ck.step, float(t), float(h), float(self.CURVATURE), self.PHI_MAX, Y, *args))

    def advance(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray) -> tuple[float, int]:
        """Integrate Y in place from t to t_next [s] with the fixed step (shortened to hit
        t_next); returns (t_next, OK) or raises SimulationError."""
        n, h = equal_steps(t_next - t, self.h)
        self._output_check(t)
        k = 0
        while k < n:
            tk = t + k * h
            run = functools.partial(self._run_compiled, t, k, n, h, t_next, Y, acc)
            monitored, reached = self._compiled_turn(tk, Y, h, run)
            if reached is not None and reached != k:  # progress: monitor again if due, then go on compiled
                k = reached
                continue
            self.step(tk, Y, h, acc, monitored)  # one step with the rare paths around it
            self.steps += 1
            k += 1
        if not kernels.fast_call(ck.cached, float(t_next), float(h), Y, self._kfs, self._kcnt, self._kY):
            self._solve_failed(
                t_next, Y, kernels.fast_call(ck.solve_ahead, float(t_next), Y, float(h), *self._solve_args())
            )
        # the next step's solve (kept for it): its multipliers are the fallback
        self._finish_output(t_next, Y, fallback=self.multipliers_at(self._kzeta))
        return t_next, kernels.OK

    def _run_compiled(self, t0, k, n, h, t_next, Y, acc, checked) -> int:
        """Steps k, ... of the interval from t0 [s] in the compiled loop (see
        :func:`.cros_kernel.advance`); returns the index of the next step. The multipliers are
        copied in and out."""
        t_check = self._next_check if self.m else np.inf
        lam = np.ascontiguousarray(self.lam, float).copy()
        times = (float(t0), int(k), int(n), float(h), float(t_next), float(t_check), bool(checked), self.PHI_MAX)
        times += (float(self.CURVATURE),)
        args = (
            *times,
            Y,
            self.S,
            self.W,
            self._prep,
            self._lay,
            self._kfs,
            self._kcnt,
            lam,
            self._kzeta,
            self._kY,
            acc,
        )
        args += (self._ws,)
        steps = int(self._kcnt[ck.C_STEPS])
        reached, _ = kernels.fast_call(ck.advance, *args)
        self.lam = lam
        self.steps += int(self._kcnt[ck.C_STEPS]) - steps
        return int(reached)
