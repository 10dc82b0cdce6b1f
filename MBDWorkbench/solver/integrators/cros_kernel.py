"""Numba step loop of the CROS integrator (:mod:`.cros`): evaluation, assembly of the complex CROS
matrix, its band LU and solve, the update of (Y, lam) and the power accounting, for a whole output
interval in one call, and the solve at the output time (kept as the first solve of the next interval,
:func:`solve_ahead`; its multipliers are the fallback of the reported ones,
:meth:`.dae.Index3Stepper.state_multipliers`).

The CROS matrix [[I - a h Jxx, -a h I, 0], [-a h K, M - a h D, Phi_q^T], [Phi_q, 0, 0]]
(a = (1 + i)/2) has a block-diagonal first block row (Jxx is the Lie-kinematic 3 x 3 block per
body), so the position increments are eliminated: with B = (I - a h Jxx)^-1 the band system is
[[M - a h D - (a h)^2 K B, Phi_q^T], [Phi_q B, 0]] in (zeta_v, a h zeta_lam), of the size and
pattern of generalized-alpha's iteration matrix, and zeta_x = B (v + a h zeta_v). It is stored as
a complex band matrix after the reverse Cuthill-McKee ordering of its pattern
(:func:`.linalg.band_layout`) and factorised by the band LU of :mod:`.linalg` (the same functions,
compiled for complex128): a step costs O(N) for a chain.

This is the one implementation of the CROS step: :func:`step` takes one step and :func:`advance` loops it
over an output interval. It hands back to Python (status NEED_PYTHON) before a step at which the rank
monitor is due and at a step that Python must take (a singular matrix, a non-finite solution, a
constraint violation above PHI_MAX): :meth:`.cros.CROSStepper.step` then probes the rank and calls
:func:`step` again, or raises the error.
"""

import numpy as np

from ..numerics.jit import njit
from .jacobians import apply_increment, prepare_kernel
from .linalg import band_add, band_lu, solve_permuted
from .power import account_power

DONE, NEED_PYTHON = 0, 1  # status of :func:`advance`
STEP_OK, STEP_SINGULAR, STEP_NOT_FINITE, STEP_DIVERGED = 0, 1, 2, 3  # status of :func:`step` and :func:`solve`
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
        band_add(AB, position, kl, i, j, value)
    else:
        b, r = j // 6, j % 6 - 3
        for c in range(3):
            band_add(AB, position, kl, i, 6 * b + 3 + c, value * Binv[b, r, c])


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
        band_add(AB, position, kl, i, i, M[i] + 0.0j)
    for e in range(jq.shape[0]):
        band_add(AB, position, kl, jq_c[e], n6 + jq_r[e], jq[e] + 0.0j)
        _add_times_chart(AB, position, kl, n6 + jq_r[e], jq_c[e], jq[e] + 0.0j, Binv)
    c2 = -ah * ah
    for e in range(nK):
        if Kv[e] != 0.0:  # (most of a joint row's 12 x 12 block)
            _add_times_chart(AB, position, kl, Ki[e], Kj[e], c2 * Kv[e], Binv)
    for e in range(nD):
        if Dv[e] != 0.0:  # (an idle stop's block)
            band_add(AB, position, kl, Di[e], Dj[e], -ah * Dv[e])


@njit(cache=True, refcounts=False)  # called per step with S and W: no reference counts (jit.py)
def solve(t, Y, h, curvature, lam, S, W, prep, lay, zeta, rhs, buf):
    """zeta of the CROS step of size h at (t, Y, lam) (multiplier part as a h zeta_lam): the solve of
    (M_aug - a h J) zeta = F + a h F_t, with the position increments eliminated (block-diagonal chart
    matrix I - a h Jxx): the band system is the reduced one of :func:`_assemble` in (zeta_v, a h zeta_lam).
    The constraint row removes Phi - curvature h^2 gamma [m or rad]: the residual Phi at the step start
    and, with curvature = 1/2, the curvature the increment adds (Phi(x + dx) - Phi - Phi_q dx - h Phi_t =
    -h^2/2 gamma + O(h^3), gamma = Phi_q a - Phi''). The step then leaves an O(h^3) residual; curvature =
    0 is seed 003's row, O(h^2) (docs/index3.md).
    Returns (code, max |Phi| of the active rows, non-conservative power [W], driver power [W] at
    lam_hat = lam + Re(a h zeta_lam)); code STEP_OK, STEP_SINGULAR or STEP_NOT_FINITE."""
    lam_rows, active, jq_g, jq, Qt, Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv = prep
    active_rows, jq_r, jq_c, is_driver, M, position, AB, piv, band, Binv = lay
    nb, n6, ma = S.nb, M.shape[0], active_rows.shape[0]
    lam_rows[:] = 0.0
    for k in range(ma):
        lam_rows[active_rows[k]] = lam[k]
    _, Pnc, nK, nD = prepare_kernel(
        t, Y, S, W, lam_rows, active, jq_g, jq, Qt, True, Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv
    )
    ah = A_CROS * h
    _chart_inverse(Lv, ah, Binv)
    _assemble(AB, position, band[0], n6, M, jq, jq_r, jq_c, Ki, Kj, Kv, Di, Dj, Dv, nK, nD, ah, Binv)
    if not band_lu(AB, band[0], band[1], piv):
        return STEP_SINGULAR, 0.0, Pnc, 0.0
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
            return STEP_NOT_FINITE, phimax, Pnc, 0.0
    Pdrv = 0.0
    for e in range(jq.shape[0]):
        r = jq_r[e]
        if is_driver[r]:
            Pdrv -= (lam[r] + zeta[2 * n6 + r].real) * jq[e] * Y[7 * nb + jq_c[e]]
    return STEP_OK, phimax, Pnc, Pdrv


@njit(cache=True)
def cached(t, h, Y, fs, cnt, Yc):
    """Whether the cached solve is the one of the step (t, h, Y)."""
    if cnt[C_CACHED] == 0 or fs[F_T] != t or fs[F_H] != h:
        return False
    for i in range(Y.shape[0]):
        if Y[i] != Yc[i]:
            return False
    return True


def work_arrays(n6: int, ma: int, nb: int) -> tuple:
    """The scratch arrays of :func:`step` (rhs, buf: complex, 12N + ma; increment: 6N; state: 13N)."""
    size = 2 * n6 + ma
    return np.empty(size, np.complex128), np.empty(size, np.complex128), np.empty(n6), np.empty(13 * nb)


@njit(cache=True, refcounts=False)  # called per step with S and W: no reference counts (jit.py)
def step(t, h, curvature, phi_max, Y, S, W, prep, lay, fs, cnt, lam, zeta, Yc, acc, ws):
    """One CROS step of size h [s] from (t, Y, lam), Y and lam updated in place, its power in acc: the
    cached solve if it is the one of (t, h, Y), else :func:`solve`. Returns STEP_OK, or (the step not
    taken) STEP_SINGULAR, STEP_NOT_FINITE, or STEP_DIVERGED (max |Phi| of the active rows > phi_max)."""
    rhs, buf, x, Y0 = ws
    nb, n6, ma = S.nb, lay[4].shape[0], lay[0].shape[0]
    if cached(t, h, Y, fs, cnt, Yc):
        phimax, Pnc, Pdrv = fs[F_PHI], fs[F_PNC], fs[F_PDRV]
    else:
        code, phimax, Pnc, Pdrv = solve(t, Y, h, curvature, lam, S, W, prep, lay, zeta, rhs, buf)
        if code != STEP_OK:
            cnt[C_CACHED] = 0
            return code
    cnt[C_CACHED] = 0
    if ma > 0 and phimax > phi_max:
        return STEP_DIVERGED
    account_power(acc, t, Pdrv, Pnc)
    for i in range(n6):
        x[i] = h * zeta[i].real
    for i in range(Y.shape[0]):  # (a loop: no array copy without reference counts)
        Y0[i] = Y[i]
    apply_increment(nb, Y0, x, Y)
    for i in range(n6):
        Y[7 * nb + i] += h * zeta[n6 + i].real
    for i in range(ma):
        lam[i] += (zeta[2 * n6 + i] / A_CROS).real
    return STEP_OK


@njit(cache=True, refcounts=False)  # with S and W: no reference counts (jit.py)
def solve_ahead(t, Y, h, curvature, lam, S, W, prep, lay, fs, cnt, zeta, Yc, ws):
    """The solve of the step (t, h, Y) into zeta, kept (fs, cnt, Yc) for that step: the next interval's
    first step reuses it, and its multiplier part is the fallback of the multipliers reported at t.
    Returns the code of :func:`solve`."""
    rhs, buf = ws[0], ws[1]
    code, phimax, Pnc, Pdrv = solve(t, Y, h, curvature, lam, S, W, prep, lay, zeta, rhs, buf)
    if code != STEP_OK:
        cnt[C_CACHED] = 0
        return code
    fs[F_T], fs[F_H], fs[F_PHI], fs[F_PNC], fs[F_PDRV] = t, h, phimax, Pnc, Pdrv
    for i in range(Y.shape[0]):
        Yc[i] = Y[i]
    cnt[C_CACHED] = 1
    return code


@njit(cache=True, refcounts=False)  # allocates nothing (ws from the caller): no reference counts (jit.py)
def advance(
    t0, k, n, h, t_next, t_check, skip_first, phi_max, curvature, Y, S, W, prep, lay, fs, cnt, lam, zeta, Yc, acc, ws
):
    """Steps k, ..., n - 1 of size h of the output interval [t0, t_next] (step j from t0 + j h, as
    CROSStepper.advance) by :func:`step`, then the solve at t_next (:func:`solve_ahead`). Stops before a
    step at t >= t_check (the rank monitor is due; not the first step if skip_first: the monitor has
    just run) or a step that Python must take (:func:`step` not STEP_OK). Y and lam are updated in
    place. Returns (index of the next step, status)."""
    first = True
    while k < n:
        t = t0 + k * h
        if t >= t_check and not (first and skip_first):
            return k, NEED_PYTHON
        first = False
        if step(t, h, curvature, phi_max, Y, S, W, prep, lay, fs, cnt, lam, zeta, Yc, acc, ws) != STEP_OK:
            return k, NEED_PYTHON
        cnt[C_STEPS] += 1
        k += 1
    if solve_ahead(t_next, Y, h, curvature, lam, S, W, prep, lay, fs, cnt, zeta, Yc, ws) != STEP_OK:
        return n, NEED_PYTHON
    return n, DONE
