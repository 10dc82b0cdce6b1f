"""The one-stage complex Rosenbrock scheme CROS ([CROS]; [R3] section 3) on the index-3 DAE,
fixed step; the shared set-up is :class:`.dae.Index3Stepper`. The steps run in the compiled loop
of :mod:`.cros_kernel` (whole output intervals per call); :meth:`CROSStepper.step` is the same
step in Python, taken where the rank monitor is due or the compiled step cannot go on (singular
matrix, non-finite solution, divergence), and for every step with ``compiled=False``."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np
from scipy.sparse.linalg import splu

from .. import kernels
from ..errors import SimulationError
from . import cros_kernel as ck
from . import galpha_kernel as gk
from . import jacobians as ik
from .base import equal_steps
from .dae import Index3Stepper, SparsePattern
from .explicit import account_power

if TYPE_CHECKING:
    from ..model.schema import Settings
    from ..system.system import System


def constraint_target(phi: np.ndarray, gamma: np.ndarray, h: float, curvature: float = 0.5) -> np.ndarray:
    """What the step's linearised constraint row removes, Phi - curvature h^2 gamma [m or rad]:
    the residual Phi at the step start and, with curvature = 1/2, the curvature the increment adds
    (Phi(x + dx) - Phi - Phi_q dx - h Phi_t = -h^2/2 gamma + O(h^3), gamma = Phi_q a - Phi''). The
    step then leaves an O(h^3) residual; curvature = 0 is seed 003's row, O(h^2) (docs/index3.md)."""
    return phi - curvature * h * h * gamma


class CROSStepper(Index3Stepper):
    """One-stage complex Rosenbrock scheme CROS ([R3] section 3), fixed step:
    (M_aug - (1+i)/2 h J) zeta = F + (1+i)/2 h F_t, z_{k+1} = z_k + h Re(zeta), with
    z = (x, v, lam), the constraint row's target carrying the curvature term
    (:func:`constraint_target`); J = dF/dz exact (complex step) and sparse; a complex band LU of the
    reduced matrix in the compiled loop (:mod:`.cros_kernel`), SciPy's sparse LU in the Python step.

    Scaled unknowns: the multiplier part is solved as a h zeta_lam and the constraint
    rows are divided by -a h, so the matrix [[I - a h Jxx, -a h I, 0],
    [-a h K, M - a h D, Phi_q^T], [Phi_q, 0, 0]] stays well conditioned as h -> 0.

    ``compiled=False``: every step in Python with SciPy's complex sparse LU (the reference the
    compiled loop is tested against)."""

    name = "cros"
    entry_kernel = ck.advance  # compiled entry point (solver/cold_start.py probes its cache)
    A_CROS = ck.A_CROS  # (1 + i)/2
    PHI_MAX = 0.1  # m or rad: a larger violation means the scheme has diverged
    CURVATURE = 0.5  # the constraint row's curvature term (constraint_target); 0: seed 003's row
    RESTART_ON_RESTORE = False
    PROJECT_OUTPUT = True  # publish the state closed onto the constraints (the integration goes on from its own)

    def __init__(self, system: System, settings: Settings, t0: float, Y0: np.ndarray, compiled: bool = True) -> None:
        self.compiled = compiled
        super().__init__(system, settings, t0, Y0)
        self.h = float(settings.step)

    def _build_pattern(self):
        """Sparsity pattern of the CROS matrix for the rows in the solve."""
        n6, ma = self.n6, self.ma
        self.n = 2 * n6 + ma
        Ki, Kj, _ = self.Kb
        Di, Dj, _ = self.Db
        Li, Lj, _ = self.Lb
        d = self.diag6
        plain = [
            (d, d),  # I (x, x)
            (n6 + d, n6 + d),  # M (v, v)
            (n6 + self.jq_c, 2 * n6 + self.jq_r),  # Phi_q^T (v, lam)
            (2 * n6 + self.jq_r, self.jq_c),
        ]  # Phi_q (lam, x)
        times_ah = [
            (Li, Lj),  # Jxx (x, x)
            (d, n6 + d),  # I (x, v)
            (n6 + Ki[: self.nK], Kj[: self.nK]),  # K (v, x)
            (n6 + Di[: self.nD], n6 + Dj[: self.nD]),
        ]  # D (v, v)
        self.pattern = SparsePattern(self.n, [plain, times_ah])
        self.ones6 = np.ones(n6)
        self._cache = None
        if self.compiled:
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
        position, kl, ku = gk.band_layout(rows, cols, n)
        AB = np.zeros((n, 2 * kl + ku + 1), np.complex128)
        self._prep = (self.lam_rows, self.active, self.jq_g, self.jq, self.Qt, *self.Kb, *self.Db, *self.Lb)
        band = np.array([kl, ku], np.int64)
        self._lay = (self.active_rows.astype(np.int64), self.jq_r, self.jq_c, self.is_driver, self.M, position)
        self._lay += (AB, gk.band_pivots(n), band, np.zeros((self.nb, 3, 3), np.complex128))
        self._kfs = np.zeros(ck.F_SIZE)
        self._kcnt = np.zeros(ck.C_SIZE, np.int64)
        self._kzeta = np.zeros(self.n, np.complex128)
        self._kY = np.zeros(13 * self.nb)

    def _solve(self, t, Y, h):
        """zeta of the CROS step of size h at (t, Y, self.lam) and the evaluation there;
        the multiplier part is returned as a h zeta_lam. Cached for one (t, Y, h)."""
        c = self._cache
        if c is not None and c[0] == t and c[1] == h and np.array_equal(c[2], Y):
            return c[3], c[4]
        v = Y[self.vel_slice]
        self._set_lam(self.lam)
        ev = self._evaluate(t, Y, blocks=True)
        nK, nD = self._counts
        a = self.A_CROS
        jq = ev["jq"]
        data = self.pattern.data(
            [[self.ones6, self.M, jq, jq], [self.Lb[2], self.ones6, self.Kb[2][:nK], self.Db[2][:nD]]], [1.0, -a * h]
        )
        try:
            lu = splu(self.pattern.matrix(data))
        except RuntimeError:
            self._singular(t, Y, "singular CROS iteration matrix")
        Fv = ev["Q"] - self._jqT_matvec(jq, self.lam) + a * h * self.Qt
        phi_t = ev["rate"] - self._jq_matvec(jq, v)
        zeta = lu.solve(
            np.concatenate([v, Fv, -constraint_target(ev["phi"], ev["gamma"], h, self.CURVATURE) / (a * h) - phi_t])
        )
        if not np.all(np.isfinite(zeta)):
            self._singular(t, Y, "the CROS step produced NaN/infinite values")
        self._cache = (t, h, Y.copy(), zeta, ev)
        return zeta, ev

    def multipliers_at(self, zeta: np.ndarray) -> np.ndarray:
        """Multipliers at t_k from the step's solve: Re(lam_k + a h zeta_lam), first order (see
        docs/index3.md; the scheme's own update lam_k + h Re(zeta_lam) carries an O(1)
        error and is kept only as the scheme's state). They give the driver power of each step;
        the output times report :meth:`.dae.Index3Stepper.state_multipliers` (these only where its
        matrix is singular)."""
        return self.lam + zeta[2 * self.n6 :].real

    def step(self, t: float, Y: np.ndarray, h: float, acc: np.ndarray, monitored: bool = False) -> None:
        """One CROS step of size h from (t, Y, self.lam), Y updated in place. The rank monitor
        runs first unless ``monitored`` (it has just run at t)."""
        n6 = self.n6
        if not monitored:
            self._monitor_rank(t, Y, h)
        try:
            zeta, ev = self._solve(t, Y, h)
        except SimulationError:
            if not self._monitor_rank(t, Y, h, probe=(t, Y)):  # singular matrix: rank lost here?
                raise
            zeta, ev = self._solve(t, Y, h)
        if self.ma and np.max(np.abs(ev["phi"])) > self.PHI_MAX:
            self._singular(
                t,
                Y,
                f"the constraint violation exceeds {self.PHI_MAX:g}: CROS diverges "
                f"(singular configuration or step too large)",
            )
        self.lam_hat = self.multipliers_at(zeta)
        account_power(acc, t, self._driver_power(ev, Y[self.vel_slice], self.lam_hat), ev["Pnc"])
        ik.apply_increment(self.S.nb, Y.copy(), h * zeta[:n6].real, Y)
        Y[self.vel_slice] += h * zeta[n6 : 2 * n6].real
        self.lam = self.lam + (zeta[2 * n6 :] / self.A_CROS).real
        self._cache = None

    def advance(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray) -> tuple[float, int]:
        """Integrate Y in place from t to t_next [s] with the fixed step (shortened to hit
        t_next); returns (t_next, OK) or raises SimulationError."""
        n, h = equal_steps(t_next - t, self.h)
        self._output_check(t)
        k = 0
        while k < n:
            tk = t + k * h
            monitored, reached = False, None
            if self.compiled:
                run = functools.partial(self._run_compiled, t, k, n, h, t_next, Y, acc)
                monitored, reached = self._compiled_turn(tk, Y, h, run)
            if reached is not None and reached != k:  # progress: monitor again if due, then go on compiled
                k = reached
                continue
            self.step(tk, Y, h, acc, monitored)  # the Python step takes this one
            self.steps += 1
            k += 1
        if self.compiled and kernels.fast_call(ck.cached, float(t_next), float(h), Y, self._kfs, self._kcnt, self._kY):
            lam_out = self.lam + self._kzeta[2 * self.n6 :].real
        else:
            zeta, _ = self._solve(t_next, Y, h)  # the next step's solve (cached); its multipliers: the fallback
            lam_out = self.multipliers_at(zeta)
        self._finish_output(t_next, Y, fallback=lam_out)
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
        steps = int(self._kcnt[ck.C_STEPS])
        reached, _ = kernels.fast_call(ck.advance, *args)
        self.lam = lam
        self.steps += int(self._kcnt[ck.C_STEPS]) - steps
        return int(reached)
