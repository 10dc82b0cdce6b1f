"""Numba step loop of the CROS integrator (:mod:`.cros`): evaluation, assembly of the complex CROS
matrix, its band LU and solve, the update of (Y, lam) and the power accounting, for a whole output
interval in one call, and the solve at the output time that gives the multipliers there (kept as
the first solve of the next interval, as :meth:`.cros.CROSStepper._solve` caches it).

The CROS matrix [[I - a h Jxx, -a h I, 0], [-a h K, M - a h D, Phi_q^T], [Phi_q, 0, 0]]
(a = (1 + i)/2) is stored as a complex band matrix after the reverse Cuthill-McKee ordering of
its pattern (:func:`.galpha_kernel.band_layout`) and factorised by the band LU of
:mod:`.galpha_kernel` (the same functions, compiled for complex128): a step costs O(N) for a chain.

The loop follows :meth:`.cros.CROSStepper.step` operation by operation; it hands back to Python
(status NEED_PYTHON) before a step at which the rank monitor is due and at a step that Python must
take: a singular matrix, a non-finite solution, a constraint violation above PHI_MAX (the Python
step then probes the rank or raises the error).
"""

import numpy as np

from ..jit import njit
from .galpha_kernel import DONE, NEED_PYTHON, _account_power, _add, _evaluate, band_lu, solve_permuted
from .jacobians import apply_increment

__all__ = ["DONE", "NEED_PYTHON", "advance", "cached", "solve"]

A_CROS = 0.5 + 0.5j
# float state of the cached solve: its time, step, max |Phi| of the active rows, non-conservative
# power, driver power at lam_hat (the power accounting of the step that uses it)
F_T, F_H, F_PHI, F_PNC, F_PDRV, F_SIZE = 0, 1, 2, 3, 4, 5
# integer state: steps taken, cached solve valid (0/1)
C_STEPS, C_CACHED, C_SIZE = 0, 1, 2


@njit(cache=True)
def _assemble(AB, position, kl, n6, M, jq, jq_r, jq_c, prep, nK, nD, c):
    """The CROS matrix into the band AB, c = -a h (complex)."""
    Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv = prep[5:]
    AB[:] = 0.0
    for i in range(n6):
        _add(AB, position, kl, i, i, 1.0 + 0.0j)
        _add(AB, position, kl, n6 + i, n6 + i, M[i] + 0.0j)
        _add(AB, position, kl, i, n6 + i, c)
    for e in range(Lv.shape[0]):
        _add(AB, position, kl, Li[e], Lj[e], c * Lv[e])
    for e in range(jq.shape[0]):
        _add(AB, position, kl, n6 + jq_c[e], 2 * n6 + jq_r[e], jq[e] + 0.0j)
        _add(AB, position, kl, 2 * n6 + jq_r[e], jq_c[e], jq[e] + 0.0j)
    for e in range(nK):
        _add(AB, position, kl, n6 + Ki[e], Kj[e], c * Kv[e])
    for e in range(nD):
        _add(AB, position, kl, n6 + Di[e], n6 + Dj[e], c * Dv[e])


@njit(cache=True)
def solve(t, Y, h, lam, S, W, prep, lay, zeta, rhs, buf):
    """zeta of the CROS step of size h at (t, Y, lam) (multiplier part as a h zeta_lam), as
    CROSStepper._solve. Returns (code, max |Phi| of the active rows, non-conservative power [W],
    driver power [W] at lam_hat = lam + Re(a h zeta_lam)); code 0 solved, 1 singular matrix,
    2 non-finite solution."""
    lam_rows, active, jq_g, jq, Qt = prep[:5]
    active_rows, jq_r, jq_c, is_driver, M, position, AB, piv, band = lay
    nb, n6, ma = S.nb, M.shape[0], active_rows.shape[0]
    lam_rows[:] = 0.0
    for k in range(ma):
        lam_rows[active_rows[k]] = lam[k]
    _, Pnc, nK, nD = _evaluate(t, Y, S, W, prep, True)
    ah = A_CROS * h
    _assemble(AB, position, band[0], n6, M, jq, jq_r, jq_c, prep, nK, nD, -ah)
    if not band_lu(AB, band[0], band[1], piv):
        return 1, 0.0, Pnc, 0.0
    for i in range(n6):
        rhs[i] = Y[7 * nb + i]
        rhs[n6 + i] = W.Q[i] + ah * Qt[i]
    phimax = 0.0
    for k in range(ma):
        r = active_rows[k]
        rhs[2 * n6 + k] = -W.phi[r] / ah - W.rate[r]
        phimax = max(phimax, abs(W.phi[r]))
    for e in range(jq.shape[0]):
        rhs[n6 + jq_c[e]] -= jq[e] * lam[jq_r[e]]
        rhs[2 * n6 + jq_r[e]] += jq[e] * Y[7 * nb + jq_c[e]]
    solve_permuted(AB, band[0], band[1], piv, position, rhs, zeta, buf)
    for i in range(zeta.shape[0]):
        if not (np.isfinite(zeta[i].real) and np.isfinite(zeta[i].imag)):
            return 2, phimax, Pnc, 0.0
    Pdrv = 0.0
    for e in range(jq.shape[0]):
        r = jq_r[e]
        if is_driver[r]:
            Pdrv -= (lam[r] + zeta[2 * n6 + r].real) * jq[e] * Y[7 * nb + jq_c[e]]
    return 0, phimax, Pnc, Pdrv


@njit(cache=True)
def cached(t, h, Y, fs, cnt, Yc):
    """Whether the cached solve is the one of the step (t, h, Y)."""
    if cnt[C_CACHED] == 0 or fs[F_T] != t or fs[F_H] != h:
        return False
    for i in range(Y.shape[0]):
        if Y[i] != Yc[i]:
            return False
    return True


@njit(cache=True)
def advance(t0, k, n, h, t_next, t_check, skip_first, phi_max, Y, S, W, prep, lay, fs, cnt, lam, zeta, Yc, acc):
    """Steps k, ..., n - 1 of size h of the output interval [t0, t_next] (step j from t0 + j h, as
    CROSStepper.advance), then the solve at t_next (zeta, fs and Yc keep it: its multiplier part gives
    the multipliers at t_next and the next interval's first step reuses it). Stops before a step at
    t >= t_check (the rank monitor is due; not the first step if skip_first: the monitor has just
    run) or a step that Python must take (singular matrix, non-finite solution, max |Phi| >
    phi_max). Y and lam are updated in place. Returns (index of the next step, status)."""
    active_rows = lay[0]
    nb, n6, ma = S.nb, lay[4].shape[0], active_rows.shape[0]
    size = 2 * n6 + ma
    rhs = np.empty(size, np.complex128)
    buf = np.empty(size, np.complex128)
    x = np.empty(n6)
    Y0 = np.empty_like(Y)
    first = True
    while k < n:
        t = t0 + k * h
        if t >= t_check and not (first and skip_first):
            return k, NEED_PYTHON
        first = False
        if cached(t, h, Y, fs, cnt, Yc):
            phimax, Pnc, Pdrv = fs[F_PHI], fs[F_PNC], fs[F_PDRV]
        else:
            code, phimax, Pnc, Pdrv = solve(t, Y, h, lam, S, W, prep, lay, zeta, rhs, buf)
            if code != 0:
                cnt[C_CACHED] = 0
                return k, NEED_PYTHON
        cnt[C_CACHED] = 0
        if ma > 0 and phimax > phi_max:
            return k, NEED_PYTHON
        _account_power(acc, t, Pdrv, Pnc)
        for i in range(n6):
            x[i] = h * zeta[i].real
        Y0[:] = Y
        apply_increment(S, Y0, x, Y)
        for i in range(n6):
            Y[7 * nb + i] += h * zeta[n6 + i].real
        for i in range(ma):
            lam[i] += (zeta[2 * n6 + i] / A_CROS).real
        cnt[C_STEPS] += 1
        k += 1
    code, phimax, Pnc, Pdrv = solve(t_next, Y, h, lam, S, W, prep, lay, zeta, rhs, buf)
    if code != 0:
        return n, NEED_PYTHON
    fs[F_T], fs[F_H], fs[F_PHI], fs[F_PNC], fs[F_PDRV] = t_next, h, phimax, Pnc, Pdrv
    Yc[:] = Y
    cnt[C_CACHED] = 1
    return n, DONE
