"""The work accounting shared by every integrator: a running trapezoidal integral of the driver
power and the non-conservative power in ``acc`` = [t_prev [s], P_drv_prev [W], P_nc_prev [W],
W_drv [J], W_nc [J], have_prev]."""

import numpy as np

from ..numerics.jit import njit


@njit(cache=True)
def account_power(acc: np.ndarray, t: float, Pdrv: float, Pnc: float) -> None:
    """Add the trapezoid from the previous evaluation point to t [s] to the work integrals
    (Pdrv, Pnc [W] at t)."""
    if acc[5] > 0.0:
        dt = t - acc[0]
        acc[3] += 0.5 * dt * (acc[1] + Pdrv)
        acc[4] += 0.5 * dt * (acc[2] + Pnc)
    acc[0], acc[1], acc[2], acc[5] = t, Pdrv, Pnc, 1.0
