"""Numba step loop of the CROS integrator (:mod:`.cros`): evaluation, assembly of the complex CROS
matrix, its band LU and solve, the update of (Y, lam) and the power accounting, for a whole output
interval in one call, and the solve at the output time (kept as the first solve of the next interval,
as :meth:`.cros.CROSStepper._solve` caches it; its multipliers are the fallback of the reported ones,
:meth:`.dae.Index3Stepper.state_multipliers`).

The CROS matrix [[I - a h Jxx, -a h I, 0], [-a h K, M - a h D, Phi_q^T], [Phi_q, 0, 0]]
(a = (1 + i)/2) has a block-diagonal first block row (Jxx is the Lie-kinematic 3 x 3 block per
body), so the position increments are eliminated: with B = (I - a h Jxx)^-1 the band system is
[[M - a h D - (a h)^2 K B, Phi_q^T], [Phi_q B, 0]] in (zeta_v, a h zeta_lam), of the size and
pattern of generalized-alpha's iteration matrix, and zeta_x = B (v + a h zeta_v). It is stored as
a complex band matrix after the reverse Cuthill-McKee ordering of its pattern
(:func:`.galpha_kernel.band_layout`) and factorised by the band LU of :mod:`.galpha_kernel` (the
same functions, compiled for complex128): a step costs O(N) for a chain.

The loop follows :meth:`.cros.CROSStepper.step` operation by operation; it hands back to Python
(status NEED_PYTHON) before a step at which the rank monitor is due and at a step that Python must
take: a singular matrix, a non-finite solution, a constraint violation above PHI_MAX (the Python
step then probes the rank or raises the error).
"""

import numpy as np

from ..numerics.jit import njit
from .galpha_kernel import DONE, NEED_PYTHON, _account_power, _add, band_lu, solve_permuted
from .jacobians import _prepare, apply_increment

__all__ = ["DONE", "NEED_PYTHON", "advance", "cached", "solve"]

A_CROS = 0.5 + 0.5j
# float state of the cached solve: its time, step, max |Phi| of the active rows, non-conservative
# power, driver power at lam_hat (the power accounting of the step that uses it)
F_T, F_H, F_PHI, F_PNC, F_PDRV, F_SIZE = 0, 1, 2, 3, 4, 5
# integer state: steps taken, cached solve valid (0/1)
C_STEPS, C_CACHED, C_SIZE = 0, 1, 2


@njit(cache=True)
def _chart_inverse(Lv, c, Binv):
    """Binv[b] = (I - c L_b)^-1 per body: the rotation block of (I - a h Jxx)^-1 (Jxx is zero on the
    translations), c = a h, L_b the 3 x 3 Lie-kinematic block (triplets Lv, 9 per body, row-major)."""
    for b in range(Binv.shape[0]):
        m = np.empty((3, 3), np.complex128)
        for i in range(3):
            for j in range(3):
                m[i, j] = (1.0 if i == j else 0.0) - c * Lv[9 * b + 3 * i + j]
        det = (
            m[0, 0] * (m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1])
            - m[0, 1] * (m[1, 0] * m[2, 2] - m[1, 2] * m[2, 0])
            + m[0, 2] * (m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0])
        )
        for i in range(3):
            for j in range(3):
                i1, i2, j1, j2 = (j + 1) % 3, (j + 2) % 3, (i + 1) % 3, (i + 2) % 3
                Binv[b, i, j] = (m[i1, j1] * m[i2, j2] - m[i1, j2] * m[i2, j1]) / det


@njit(cache=True)
def _add_times_chart(AB, position, kl, i, j, value, Binv):
    """Add value * row j of the block-diagonal (I - a h Jxx)^-1 to row i of AB."""
    if j % 6 < 3:
        _add(AB, position, kl, i, j, value)
    else:
        b, r = j // 6, j % 6 - 3
        for c in range(3):
            _add(AB, position, kl, i, 6 * b + 3 + c, value * Binv[b, r, c])


@njit(cache=True)
def _chart_apply(Binv, x, out):
    """out = (I - a h Jxx)^-1 x (6N, complex)."""
    for b in range(Binv.shape[0]):
        for c in range(3):
            out[6 * b + c] = x[6 * b + c]
            s = 0.0j
            for k in range(3):
                s += Binv[b, c, k] * x[6 * b + 3 + k]
            out[6 * b + 3 + c] = s


@njit(cache=True)
def _assemble(AB, position, kl, n6, M, jq, jq_r, jq_c, Ki, Kj, Kv, Di, Dj, Dv, nK, nD, ah, Binv):
    """The reduced CROS matrix [[M - a h D - (a h)^2 K B, Phi_q^T], [Phi_q B, 0]] into the band AB,
    B = (I - a h Jxx)^-1 (the position increments eliminated)."""
    AB[:] = 0.0
    for i in range(n6):
        _add(AB, position, kl, i, i, M[i] + 0.0j)
    for e in range(jq.shape[0]):
        _add(AB, position, kl, jq_c[e], n6 + jq_r[e], jq[e] + 0.0j)
        _add_times_chart(AB, position, kl, n6 + jq_r[e], jq_c[e], jq[e] + 0.0j, Binv)
    c2 = -ah * ah
    for e in range(nK):
        if Kv[e] != 0.0:  # (most of a joint row's 12 x 12 block)
            _add_times_chart(AB, position, kl, Ki[e], Kj[e], c2 * Kv[e], Binv)
    for e in range(nD):
        _add(AB, position, kl, Di[e], Dj[e], -ah * Dv[e])


@njit(cache=True, refcounts=False)  # called per step with S and W: no reference counts (jit.py)
def solve(t, Y, h, curvature, lam, S, W, prep, lay, zeta, rhs, buf):
    """zeta of the CROS step of size h at (t, Y, lam) (multiplier part as a h zeta_lam), as
    CROSStepper._solve (the constraint row's target Phi - curvature h^2 gamma, see
    cros.constraint_target), with the position increments eliminated (block-diagonal chart matrix
    I - a h Jxx): the band system is the reduced one of :func:`_assemble` in (zeta_v, a h zeta_lam).
    Returns (code, max |Phi| of the active rows, non-conservative power [W], driver power [W] at
    lam_hat = lam + Re(a h zeta_lam)); code 0 solved, 1 singular matrix, 2 non-finite solution."""
    lam_rows, active, jq_g, jq, Qt, Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv = prep
    active_rows, jq_r, jq_c, is_driver, M, position, AB, piv, band, Binv = lay
    nb, n6, ma = S.nb, M.shape[0], active_rows.shape[0]
    lam_rows[:] = 0.0
    for k in range(ma):
        lam_rows[active_rows[k]] = lam[k]
    _, Pnc, nK, nD = _prepare(t, Y, S, W, lam_rows, active, jq_g, jq, Qt, True, Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv)
    ah = A_CROS * h
    _chart_inverse(Lv, ah, Binv)
    _assemble(AB, position, band[0], n6, M, jq, jq_r, jq_c, Ki, Kj, Kv, Di, Dj, Dv, nK, nD, ah, Binv)
    if not band_lu(AB, band[0], band[1], piv):
        return 1, 0.0, Pnc, 0.0
    # u = B v in zeta[:n6] (scratch until the solve)
    for i in range(n6):
        buf[i] = Y[7 * nb + i]
    _chart_apply(Binv, buf, zeta)
    for i in range(n6):
        rhs[i] = W.Q[i] + ah * Qt[i]
    phimax = 0.0
    for k in range(ma):
        r = active_rows[k]
        rhs[n6 + k] = -(W.phi[r] - curvature * h * h * W.gamma[r]) / ah - W.rate[r]
        phimax = max(phimax, abs(W.phi[r]))
    for e in range(jq.shape[0]):
        rhs[jq_c[e]] -= jq[e] * lam[jq_r[e]]
        rhs[n6 + jq_r[e]] += jq[e] * (Y[7 * nb + jq_c[e]] - zeta[jq_c[e]])
    for e in range(nK):
        if Kv[e] != 0.0:
            rhs[Ki[e]] += ah * Kv[e] * zeta[Kj[e]]
    for k in range(ma):
        rhs[n6 + k] /= ah
    x = rhs[: n6 + ma]
    solve_permuted(AB, band[0], band[1], piv, position, x, zeta[n6:], buf)
    # zeta_x = B (v + a h zeta_v)
    for i in range(n6):
        buf[i] = Y[7 * nb + i] + ah * zeta[n6 + i]
    _chart_apply(Binv, buf, zeta)
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
def advance(
    t0, k, n, h, t_next, t_check, skip_first, phi_max, curvature, Y, S, W, prep, lay, fs, cnt, lam, zeta, Yc, acc
):
    """Steps k, ..., n - 1 of size h of the output interval [t0, t_next] (step j from t0 + j h, as
    CROSStepper.advance), then the solve at t_next (zeta, fs and Yc keep it: the next interval's first
    step reuses it, and its multiplier part is the fallback of the multipliers reported at t_next).
    Stops before a step at t >= t_check (the rank monitor is due; not the first step if skip_first:
    the monitor has just run) or a step that Python must take (singular matrix, non-finite solution,
    max |Phi| > phi_max). Y and lam are updated in place. Returns (index of the next step, status)."""
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
            code, phimax, Pnc, Pdrv = solve(t, Y, h, curvature, lam, S, W, prep, lay, zeta, rhs, buf)
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
        apply_increment(S.nb, Y0, x, Y)
        for i in range(n6):
            Y[7 * nb + i] += h * zeta[n6 + i].real
        for i in range(ma):
            lam[i] += (zeta[2 * n6 + i] / A_CROS).real
        cnt[C_STEPS] += 1
        k += 1
    code, phimax, Pnc, Pdrv = solve(t_next, Y, h, curvature, lam, S, W, prep, lay, zeta, rhs, buf)
    if code != 0:
        return n, NEED_PYTHON
    fs[F_T], fs[F_H], fs[F_PHI], fs[F_PNC], fs[F_PDRV] = t_next, h, phimax, Pnc, Pdrv
    Yc[:] = Y
    cnt[C_CACHED] = 1
    return n, DONE
