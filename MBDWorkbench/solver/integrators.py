"""ODE-form time integrators: explicit Euler, symplectic Euler, RK4 (fixed step, loops in
Numba) and SciPy's adaptive BDF, Radau and LSODA (stepped one accepted step at a time).

Every integrator advances the state to the next output time and keeps a running
trapezoidal integral of the driver power and the non-conservative power (``acc`` =
[t_prev, P_drv_prev, P_nc_prev, W_drv, W_nc, have_prev]).
"""
import numpy as np
from numba import njit
from scipy.integrate import BDF, LSODA, Radau

from . import kernels
from .quaternion import rotate_by_body_vector

FIXED_STEP = {"euler": 0, "symplectic_euler": 1, "rk4": 2}
ADAPTIVE = {"bdf": BDF, "radau": Radau, "lsoda": LSODA}


@njit(cache=True)
def account_power(acc, t, Pdrv, Pnc):
    """Add the trapezoid from the previous evaluation point to t to the work integrals."""
    if acc[5] > 0.0:
        dt = t - acc[0]
        acc[3] += 0.5 * dt * (acc[1] + Pdrv)
        acc[4] += 0.5 * dt * (acc[2] + Pnc)
    acc[0], acc[1], acc[2], acc[5] = t, Pdrv, Pnc, 1.0


@njit(cache=True)
def run_fixed(method, t, Y, h, nsteps, S, W, acc):
    """Advance Y in place by ``nsteps`` steps of size h [s]. Returns (steps done, status)."""
    n = Y.shape[0]
    k1, k2, k3, k4, tmp = np.empty(n), np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    off = 7 * S.nb
    for step in range(nsteps):
        status, V, Pnc, Pdrv = kernels.derivatives(t, Y, S, W, k1)
        if status != kernels.OK:
            return step, status
        account_power(acc, t, Pdrv, Pnc)
        if method == 0:
            for i in range(n):
                Y[i] += h * k1[i]
        elif method == 1:
            for i in range(off, n):
                Y[i] += h * k1[i]
            for b in range(S.nb):
                o = off + 6 * b
                for c in range(3):
                    Y[7 * b + c] += h * Y[o + c]
                rotate_by_body_vector(Y[7 * b + 3:7 * b + 7].copy(), h * Y[o + 3:o + 6], Y[7 * b + 3:7 * b + 7])
        else:
            for i in range(n):
                tmp[i] = Y[i] + 0.5 * h * k1[i]
            status = kernels.derivatives(t + 0.5 * h, tmp, S, W, k2)[0]
            for i in range(n):
                tmp[i] = Y[i] + 0.5 * h * k2[i]
            status = max(status, kernels.derivatives(t + 0.5 * h, tmp, S, W, k3)[0])
            for i in range(n):
                tmp[i] = Y[i] + h * k3[i]
            status = max(status, kernels.derivatives(t + h, tmp, S, W, k4)[0])
            if status != kernels.OK:
                return step, status
            for i in range(n):
                Y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])
        kernels.normalize_quaternions(S, Y)
        t += h
    return nsteps, kernels.OK


class FixedStepper:
    """Fixed-step integration to successive output times (the step is shortened so
    that output times are hit exactly)."""

    def __init__(self, system, method, h):
        self.system, self.method, self.h = system, FIXED_STEP[method], h
        self.steps = 0

    def advance(self, t, Y, t_next, acc):
        """Integrate Y in place from t to t_next; returns (t reached, status)."""
        n = max(1, int(np.ceil((t_next - t) / self.h - 1e-9)))
        h = (t_next - t) / n
        done, status = kernels.fast_call(run_fixed, self.method, float(t), Y, float(h), n, self.system.static,
                                         self.system.work, acc)
        self.steps += done
        return (t_next if status == kernels.OK else t + done * h), status


class AdaptiveStepper:
    """SciPy's BDF / Radau / LSODA with rtol, atol and max_step = the fixed step."""

    def __init__(self, system, method, rtol, atol, max_step, t0, Y0, t_end):
        self.system = system
        self.solver = ADAPTIVE[method](self._fun, t0, Y0.copy(), t_end, rtol=rtol, atol=atol,
                                       max_step=max_step)
        self.steps = 0
        self._failed = False

    def _fun(self, t, Y):
        try:
            Ydot = self.system.derivative(t, Y)
        except FloatingPointError:
            self._failed = True
            return np.full_like(Y, np.nan)
        if not np.all(np.isfinite(Ydot)):
            self._failed = True
        return Ydot

    def advance(self, t, Y, t_next, acc):
        """Step until t_next is passed, then interpolate Y at t_next; returns (t, status)."""
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
