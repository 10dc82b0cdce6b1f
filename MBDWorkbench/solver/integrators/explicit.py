"""Fixed-step ODE-form integrators: explicit Euler, symplectic Euler and RK4, with the step
loop in Numba ([R1]). The work accounting of every integrator is :mod:`.power`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import kernels
from ..numerics.contact_forces import located_peak
from ..numerics.forces import CONTACT
from ..numerics.jit import njit
from ..numerics.quaternion import rotate_by_body_vector
from .base import Stepper, equal_steps
from .power import account_power
from .projection import RankEvents, singular_stop

if TYPE_CHECKING:
    from ..model.schema import Settings
    from ..system.system import Static, System, Work


@njit(cache=True, refcounts=False)
def run_fixed(
    method: int, t: float, Y: np.ndarray, h: float, nsteps: int, S: Static, W: Work, acc: np.ndarray, k: np.ndarray,
    tmp: np.ndarray, q: np.ndarray, w: np.ndarray,
) -> tuple[int, int]:  # fmt: skip
    """Advance Y in place by ``nsteps`` steps of size h [s]; after each step the kept
    constraint rows are decided again and the state projected where needed
    (:func:`..kernels.end_of_step`). Returns (steps done, status). Scratch (no reference
    counts here, so nothing is allocated: jit.py): k (4, len(Y)) the stage derivatives, tmp
    (len(Y),) a stage state, q (4,) and w (3,) a quaternion and a rotation vector. With a fifth row
    of k (3 x the contact elements, zeros at the start): RK4's contact peaks come from the states
    of the solution, not its stages (:func:`keep_accepted_peaks`)."""
    n = Y.shape[0]
    off, m = 7 * S.nb, S.row_kind.shape[0]
    stages = 4 if method == 2 else 1
    first, end = S.force_start[CONTACT], S.force_start[CONTACT + 1]
    peaks = stages > 1 and k.shape[0] > 4 and k.shape[1] >= 3 * (end - first)
    for step in range(nsteps):
        changes = W.ctl[kernels.CTL_CHANGES]
        status = kernels.OK
        for stage in range(stages):  # one call site: kernels.derivatives is inlined, and each copy costs compile time
            x, ts = Y, t
            if stage == 0 and peaks:
                keep_accepted_peaks(S.force_vecs, first, end, k[4], False)
            if stage > 0:
                f = 1.0 if stage == 3 else 0.5  # RK4 stage i: Y + f h k_(i-1) at t + f h
                for i in range(n):
                    tmp[i] = Y[i] + f * h * k[stage - 1, i]
                x, ts = tmp, t + f * h
            s, V, Pnc, Pdrv = kernels.derivatives(ts, x, S, W, k[stage])
            if stage == 0:
                if s != kernels.OK:
                    return step, s
                account_power(acc, t, Pdrv, Pnc)
                if peaks:
                    keep_accepted_peaks(S.force_vecs, first, end, k[4], True)
            else:
                status = max(status, s)
        if peaks:
            for e in range(first, end):
                S.force_vecs[e, 3, 2] = k[4, e - first]
        if method == 0:
            for i in range(n):
                Y[i] += h * k[0, i]
        elif method == 1:
            for i in range(off, n):
                Y[i] += h * k[0, i]
            for b in range(S.nb):
                o = off + 6 * b
                for c in range(3):
                    Y[7 * b + c] += h * Y[o + c]
                for c in range(4):
                    q[c] = Y[7 * b + 3 + c]
                for c in range(3):
                    w[c] = h * Y[o + 3 + c]
                rotate_by_body_vector(q, w, Y[7 * b + 3 : 7 * b + 7])
        else:
            if status != kernels.OK:
                return step, status
            for i in range(n):
                Y[i] += h / 6.0 * (k[0, i] + 2.0 * k[1, i] + 2.0 * k[2, i] + k[3, i])
        kernels.normalize_quaternions_arrays(S.nb, Y)  # not the S wrapper: see kernels.derivatives
        t += h
        if kernels.end_of_step_due(W.ctl, m, changes):
            status = kernels.end_of_step(t, Y, S, W, changes)[0]
            if status != kernels.OK:
                return step + 1, status
    return nsteps, kernels.OK


@njit(cache=True, inline="always")
def keep_accepted_peaks(vecs: np.ndarray, first: int, end: int, kept: np.ndarray, evaluated: bool) -> None:
    """Before the evaluation of a step's accepted state (``evaluated`` False): keep the running peaks
    of contact elements first .. end - 1 in kept[:c] (c elements) and clear them. After it: kept[:c] =
    the largest of the kept peak, this state's normal force and the top of the parabola through it and
    the two states before (numerics.contact_forces.located_peak; kept[c:3c]: their forces); the
    caller puts kept[:c] back after the stages."""
    c = end - first
    for e in range(c):
        if not evaluated:
            kept[e], vecs[first + e, 3, 2] = vecs[first + e, 3, 2], 0.0
            continue
        f = vecs[first + e, 3, 2]
        kept[e] = max(kept[e], f, located_peak(kept[2 * c + e], kept[c + e], f))
        kept[2 * c + e], kept[c + e] = kept[c + e], f


class FixedStepStepper(Stepper):
    """Fixed-step integration to successive output times (the step settings.step is
    shortened so that output times are hit exactly); ``method`` is run_fixed's code."""

    method: int = -1
    entry_kernel = run_fixed  # compiled entry point (solver/numerics/cold_start.py probes its cache)

    def __init__(self, system: System, settings: Settings, t0: float, Y0: np.ndarray) -> None:
        super().__init__(system, settings, t0, Y0)
        self.h = settings.step
        self.events = RankEvents(system)
        contacts = int(system.static.force_start[CONTACT + 1] - system.static.force_start[CONTACT])
        k = np.zeros((5, max(len(Y0), 3 * contacts)))  # run_fixed's stages and its contact peaks' memory
        self._scratch = (k, np.empty(len(Y0)), np.empty(4), np.empty(3))  # run_fixed's

    @property
    def scratch(self) -> tuple:
        """run_fixed's scratch (k, tmp, q, w), its contact-peak memory in k's fifth row (the fast path,
        solver/sample_path.py, steps with it too)."""
        return self._scratch

    def advance(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray) -> tuple[float, int]:
        """Integrate Y in place from t to t_next [s]; returns (time reached [s], status)."""
        n, h = equal_steps(t_next - t, self.h)
        done, status = kernels.fast_call(
            run_fixed, self.method, float(t), Y, float(h), n, self.system.static, self.system.work, acc, *self._scratch
        )
        self.steps += done
        self.events.read(self)
        t_reached = t_next if status == kernels.OK else t + done * h
        if status == kernels.SINGULAR:
            raise singular_stop(self.system, t_reached, Y, "the kept constraint equations became dependent")
        return t_reached, status


class EulerStepper(FixedStepStepper):
    """Explicit (forward) Euler, first order."""

    name, method = "euler", 0


class SymplecticEulerStepper(FixedStepStepper):
    """Symplectic (semi-implicit) Euler: velocities first, positions with the new velocities."""

    name, method = "symplectic_euler", 1


class RK4Stepper(FixedStepStepper):
    """The classical fourth-order Runge-Kutta scheme."""

    name, method = "rk4", 2
