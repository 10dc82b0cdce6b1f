"""The generalized-alpha step (:mod:`.galpha`), compiled with Numba: predictor, Newton
iterations on (v', lam) with the iteration matrix factorised once and reused across iterations
and steps (modified Newton), the local error estimate and the step-size control. This is the one
implementation of the step: :func:`step` takes one accepted step (retrying after rejected error
estimates and stale factorisations) and :func:`advance` loops it over an output interval; the
Python side (:class:`.galpha.GAlphaStepper`) only runs the rank monitor, probes the rank after a
Newton failure, shortens the step and words the errors.

The iteration matrix [[M - gamma' h D - beta' h^2 K, Phi_q^T], [Phi_q, 0]] is stored as a band
matrix after a reverse Cuthill-McKee ordering of its pattern and factorised by the band LU of
:mod:`.linalg`: for a chain the bandwidth does not grow with the number of bodies, so a step
costs O(N).
"""

import numpy as np

from ..numerics.contact_forces import keep_contact_memory, restore_contact_memory
from ..numerics.forces import CONTACT
from ..numerics.jit import njit
from .jacobians import apply_increment, prepare_kernel
from .linalg import band_add, band_lu, solve_permuted
from .power import account_power

DONE, NEED_PYTHON = 0, 1  # status of :func:`advance`
STEP_OK, STEP_FAILED, STEP_SINGULAR, STEP_TOO_SMALL = 0, 1, 2, 3  # status of :func:`step`
# parameter array (float64) of :func:`advance`
P_AM, P_AF, P_GAMMA, P_BETA, P_RTOL, P_ATOL, P_TOL_PHI, P_H_MAX, P_H_MIN_REF, P_NEWTON_TOL, P_ADAPTIVE = range(11)
P_MAX_NEWTON, P_SLOW_NEWTON, P_FACTOR_COST, P_SIZE = 11, 12, 13, 14
# float state: desired step, previous step (< 0: none), previous error estimate, step of the factorisation,
# the reuse cycle since that factorisation (F_CYCLE: its cost in residual evaluations, F_CYCLE + 1: its steps)
F_H, F_H_PREV, F_ERR_PREV, F_LU_H, F_CYCLE, F_SIZE = 0, 1, 2, 3, 4, 6
# integer state: steps, rejected, stalled, factorisations, factorisation valid (0/1), Newton evaluations,
# slow (1: refactorise before the next step, see :func:`costly_step`), the current step had a rejected
# error estimate (0/1: its step-size control does not grow the step)
C_STEPS, C_REJECTED, C_STALLED, C_FACTORIZATIONS, C_LU_VALID, C_ITERATIONS, C_SLOW, C_REJECTING = range(8)
C_SIZE = 8


def work_arrays(Y: np.ndarray, n6: int, ma: int, contacts: int = 0) -> tuple:
    """The scratch arrays of :func:`step` for a state like Y, 6N velocities, ma rows in the solve and
    ``contacts`` contact elements: (Yn trial state, v', a_n, a_{n+1}, v, dq, lam, error weights, rhs,
    solution, LU buffer, increment, the contact memory kept at the step's start (contacts, 2))."""
    n = n6 + ma
    sizes = (n6, n6, n6, n6, n6, ma, n6, n, n, n, n6)
    return (np.empty_like(Y), *(np.empty(k) for k in sizes), np.empty((contacts, 2)))


@njit(cache=True)
def contact_memory(vecs, start, kept, restore):
    """Keep (restore False) or put back the contact elements' v- and running peaks
    (numerics.contact_forces): only the accepted state of a step sets them, not its Newton
    iterates, its Jacobian or a step rejected by its error estimate."""
    if restore:
        restore_contact_memory(vecs, start[CONTACT], start[CONTACT + 1], kept)
    else:
        keep_contact_memory(vecs, start[CONTACT], start[CONTACT + 1], kept)


@njit(cache=True)
def assemble_and_factor(AB, piv, position, kl, ku, n6, M, jq, jq_r, jq_c, Di, Dj, Dv, nD, Ki, Kj, Kv, nK, cd, ck):
    """Band LU of [[diag(M) + cd D + ck K, Phi_q^T], [Phi_q, 0]] (triplets); False if singular."""
    AB[:] = 0.0
    for i in range(n6):
        band_add(AB, position, kl, i, i, M[i])
    for e in range(jq.shape[0]):
        band_add(AB, position, kl, jq_c[e], n6 + jq_r[e], jq[e])
        band_add(AB, position, kl, n6 + jq_r[e], jq_c[e], jq[e])
    for e in range(nD):
        if Dv[e] != 0.0:  # (an idle stop's block)
            band_add(AB, position, kl, Di[e], Dj[e], cd * Dv[e])
    for e in range(nK):
        if Kv[e] != 0.0:
            band_add(AB, position, kl, Ki[e], Kj[e], ck * Kv[e])
    return band_lu(AB, kl, ku, piv)


# ----------------------------------------------------------------------------- one step
@njit(cache=True)
def costly_step(evaluations, cycle):
    """Add a converged step's residual evaluations to the reuse cycle of the factorisation
    (cycle = [cost in residual evaluations, factorisation included; steps]) and tell whether
    the step cost more than the cycle's average: refactorise before the next one. Modified
    Newton converges more slowly as the factorisation ages, so the average cost per step of a
    cycle is least when a cycle ends at the first step costing more than that average."""
    cycle[0] += evaluations
    cycle[1] += 1.0
    return evaluations * cycle[1] > cycle[0]


@njit(cache=True, refcounts=False)  # takes S and W: no reference counts (jit.py)
def _factorize(t1, Yn, h, lam_new, S, W, prep, lay, par, fs, cnt):
    """Factorise the iteration matrix at (t1, Yn, lam_new) for step h; False if singular."""
    lam_rows, active, jq_g, jq, Qt, Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv = prep
    active_rows, jq_r, jq_c, is_driver, M, position, AB, piv, band = lay
    cfac = (1.0 - par[P_AF]) / (1.0 - par[P_AM])
    bp, gp = par[P_BETA] * cfac, par[P_GAMMA] * cfac
    lam_rows[:] = 0.0
    for a in range(active_rows.shape[0]):
        lam_rows[active_rows[a]] = lam_new[a]
    _, _, nK, nD = prepare_kernel(
        t1, Yn, S, W, lam_rows, active, jq_g, jq, Qt, True, Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv
    )
    ok = assemble_and_factor(
        AB,
        piv,
        position,
        band[0],
        band[1],
        M.shape[0],
        M,
        jq,
        jq_r,
        jq_c,
        Di,
        Dj,
        Dv,
        nD,
        Ki,
        Kj,
        Kv,
        nK,
        -gp * h,
        -bp * h * h,
    )
    fs[F_LU_H] = h
    fs[F_CYCLE], fs[F_CYCLE + 1] = par[P_FACTOR_COST], 0.0
    cnt[C_LU_VALID] = 1 if ok else 0
    cnt[C_FACTORIZATIONS] += 1
    return ok


@njit(cache=True)
def _scale(Y, nb, rtol, atol, sc):
    for b in range(nb):
        for c in range(6):
            sc[6 * b + c] = atol + rtol * (abs(Y[7 * b + c]) if c < 3 else 1.0)


@njit(cache=True)
def _a_start(h, a, vdot, vdot_prev, fs, par, a0):
    """a_n for a step of size h, shifted by (alpha_m - alpha_f) (h - h_prev) v'' after a change of step."""
    hp = fs[F_H_PREV]
    if hp < 0.0 or h == hp:
        a0[:] = a
    else:
        a0[:] = a + (par[P_AM] - par[P_AF]) * (h - hp) * (vdot - vdot_prev) / hp


@njit(cache=True)
def _trial_state(nb, Y, h, dq, v, x, Yn):
    """Yn = Y with the positions moved by h dq and the velocities v (x: scratch, len(dq))."""
    for k in range(dq.shape[0]):
        x[k] = h * dq[k]
    apply_increment(nb, Y, x, Yn)
    for k in range(v.shape[0]):
        Yn[7 * nb + k] = v[k]


@njit(cache=True, refcounts=False)  # per step: no reference counts (jit.py)
def _predict(nb, Y, h, vdot, a, lam, vdot_prev, fs, par, ws):
    """The predictor of a step of size h into ws: a_n, v' = v'_n, a_{n+1}, v, dq, lam and the trial
    state Yn (positions moved by h dq, velocities v)."""
    Yn, vd, a0, a_new, v, dq, lam_new, sc, rhs, sol, buf, x = ws[:12]
    am, af, g, b = par[P_AM], par[P_AF], par[P_GAMMA], par[P_BETA]
    v0 = Y[7 * nb :]
    _a_start(h, a, vdot, vdot_prev, fs, par, a0)
    for k in range(vdot.shape[0]):
        vd[k] = vdot[k]
        a_new[k] = (af * vdot[k] - am * a0[k] + (1.0 - af) * vd[k]) / (1.0 - am)
        v[k] = v0[k] + h * (1.0 - g) * a0[k] + h * g * a_new[k]
        dq[k] = v0[k] + h * (0.5 - b) * a0[k] + h * b * a_new[k]
    for k in range(lam.shape[0]):
        lam_new[k] = lam[k]
    _trial_state(nb, Y, h, dq, v, x, Yn)


@njit(cache=True, refcounts=False)  # takes S and W once per step: no reference counts (jit.py)
def _try_step(t, Y, h, S, W, prep, lay, par, fs, cnt, vdot, a, lam, vdot_prev, ws):
    """Newton solve of one step of size h into the work arrays ws; returns (code, fresh,
    potential, Pnc): code 0 converged, 1 failed, 2 singular matrix. Allocates nothing (no
    array expressions): it is compiled without reference counts."""
    lam_rows, active, jq_g, jq, Qt, Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv = prep
    active_rows, jq_r, jq_c, is_driver, M, position, AB, piv, band = lay
    Yn, vd, a0, a_new, v, dq, lam_new, sc, rhs, sol, buf, x = ws[:12]
    af, am, g, b = par[P_AF], par[P_AM], par[P_GAMMA], par[P_BETA]
    nb, n6, ma = S.nb, M.shape[0], active_rows.shape[0]
    cfac = (1.0 - af) / (1.0 - am)
    bp, gp = b * cfac, g * cfac
    _predict(nb, Y, h, vdot, a, lam, vdot_prev, fs, par, ws)
    _scale(Y, nb, par[P_RTOL], par[P_ATOL], sc)
    t1 = t + h
    fresh = False
    if cnt[C_SLOW] == 1:
        cnt[C_LU_VALID] = 0
        cnt[C_SLOW] = 0
    if cnt[C_LU_VALID] == 0 or not 0.7 < h / fs[F_LU_H] < 1.4:
        fresh = True
        contact_memory(S.force_vecs, S.force_start, ws[12], True)
        if not _factorize(t1, Yn, h, lam_new, S, W, prep, lay, par, fs, cnt):
            return 2, fresh, 0.0, 0.0
    prev, corr = np.inf, np.inf
    qmax = 0.0
    for i in range(7 * nb):
        qmax = max(qmax, abs(Y[i]))
    floor = 100 * 2.220446049250313e-16 * (1.0 + qmax) / (bp * h * h)
    tol_phi = par[P_TOL_PHI]
    for it in range(int(par[P_MAX_NEWTON])):  # Yn: the trial state of dq and v
        contact_memory(S.force_vecs, S.force_start, ws[12], True)  # the converged iterate's sets them
        V, Pnc, _, _ = prepare_kernel(
            t1, Yn, S, W, lam_rows, active, jq_g, jq, Qt, False, Ki, Kj, Kv, Di, Dj, Dv, Li, Lj, Lv
        )
        phimax = 0.0
        finite = True
        for k in range(ma):
            p = W.phi[active_rows[k]]
            finite = finite and np.isfinite(p)
            phimax = max(phimax, abs(p))
        for k in range(n6):
            finite = finite and np.isfinite(W.Q[k])
        if not finite:
            return 1, fresh, 0.0, 0.0
        cnt[C_ITERATIONS] += 1
        if it > 0 and corr < 1.0 and (ma == 0 or phimax <= tol_phi):
            if costly_step(it + 1, fs[F_CYCLE : F_CYCLE + 2]) or it >= par[P_SLOW_NEWTON]:
                cnt[C_SLOW] = 1
            return 0, fresh, V, Pnc
        for k in range(n6):
            rhs[k] = -(M[k] * vd[k] - W.Q[k])
        for e in range(jq.shape[0]):
            rhs[jq_c[e]] -= jq[e] * lam_new[jq_r[e]]
        for k in range(ma):
            rhs[n6 + k] = -W.phi[active_rows[k]] / (bp * h * h)
        solve_permuted(AB, band[0], band[1], piv, position, rhs, sol, buf)
        dvmax, vdmax, s2 = 0.0, 0.0, 0.0
        for k in range(n6):
            dvmax = max(dvmax, abs(sol[k]))
            vdmax = max(vdmax, abs(vd[k]))
            s2 += (bp * h * h * sol[k] / sc[k]) ** 2
        corr_pos = 1e3 * np.sqrt(s2 / n6)
        corr = max(dvmax / (par[P_NEWTON_TOL] * (1.0 + vdmax) + floor), corr_pos)
        if not np.isfinite(corr):
            break
        if it > 1 and corr > 0.9 * prev:
            if corr_pos < 1.0 and phimax <= tol_phi:
                cnt[C_STALLED] += 1
                return 0, fresh, V, Pnc
            break
        prev = corr
        for k in range(n6):
            dv = sol[k]
            vd[k] += dv
            a_new[k] += cfac * dv
            v[k] += h * gp * dv
            dq[k] += h * bp * dv
        for k in range(ma):
            lam_new[k] += sol[n6 + k]
        _trial_state(nb, Y, h, dq, v, x, Yn)
    return 1, fresh, 0.0, 0.0


@njit(cache=True)
def _error(Y, a0, a_new, h, nb, par, sc):
    """Weighted RMS of the local position error estimate (<= 1: accept)."""
    n = a0.shape[0]
    if n == 0:
        return 0.0
    _scale(Y, nb, par[P_RTOL], par[P_ATOL], sc)
    c = h * h * abs(par[P_BETA] - 1.0 / 6.0)
    s2 = 0.0
    for k in range(n):
        s2 += (c * (a_new[k] - a0[k]) / sc[k]) ** 2
    return np.sqrt(s2 / n)


@njit(cache=True)
def _control(h, err, rejected, par, fs):
    """New desired step (see GAlphaStepper._control)."""
    fac = min(2.0, max(0.2, 0.85 * max(err, fs[F_ERR_PREV], 1e-12) ** (-1.0 / 3.0)))
    fs[F_ERR_PREV] = err
    if rejected:
        fac = min(fac, 1.0)
    if fac < 0.8 or rejected:
        fs[F_H] = h * fac
    elif fac > 1.25:
        fs[F_H] = min(max(fs[F_H], h) * fac, par[P_H_MAX])


@njit(cache=True)
def _driver_power(Yn, nb, lam, lay, jq):
    active_rows, jq_r, jq_c, is_driver, M, position, AB, piv, band = lay
    p = 0.0
    for e in range(jq.shape[0]):
        r = jq_r[e]
        if is_driver[r]:
            p -= lam[r] * jq[e] * Yn[7 * nb + jq_c[e]]
    return p


@njit(cache=True, refcounts=False)  # takes S and W once per step: no reference counts (jit.py)
def step(t, h, Y, S, W, prep, lay, par, fs, cnt, state, acc, ws):
    """One accepted step of at most h [s] from (t, Y): Newton solves of size h, shorter after a rejected
    error estimate (adaptive), refactorised after a failure with a stale factorisation. Y, state =
    (vdot, a, lam, vdot_prev), fs, cnt and the work integrals acc are updated in place. Returns (status,
    h): STEP_OK and the step taken; else the step is not taken and h is that of the last attempt:
    STEP_FAILED (Newton failed with a fresh factorisation; ws[0] holds that attempt's predicted state),
    STEP_SINGULAR (singular iteration matrix at the predicted state ws[0]), STEP_TOO_SMALL (h below
    1e-14 t or 1e-6 of the reference step)."""
    vdot, a, lam, vdot_prev = state
    Yn, vd, a0, a_new, v, dq, lam_new, sc = ws[:8]
    nb = S.nb
    adaptive = par[P_ADAPTIVE] > 0.0
    contact_memory(S.force_vecs, S.force_start, ws[12], False)
    while True:
        if h < 1e-14 * max(1.0, abs(t)) or h < 1e-6 * par[P_H_MIN_REF]:
            contact_memory(S.force_vecs, S.force_start, ws[12], True)
            return STEP_TOO_SMALL, h
        code, fresh, V, Pnc = _try_step(t, Y, h, S, W, prep, lay, par, fs, cnt, vdot, a, lam, vdot_prev, ws)
        if code != 0:
            cnt[C_LU_VALID] = 0
            if code == 1 and not fresh:  # stale factorisation: refactor and retry
                continue
            contact_memory(S.force_vecs, S.force_start, ws[12], True)
            if code == 2:
                return STEP_SINGULAR, h
            _predict(nb, Y, h, vdot, a, lam, vdot_prev, fs, par, ws)  # the state where the rank is probed
            return STEP_FAILED, h
        err = _error(Y, a0, a_new, h, nb, par, sc)
        if adaptive and err > 1.0:
            cnt[C_REJECTED] += 1
            cnt[C_REJECTING] = 1
            h *= max(0.2, 0.8 * err ** (-1.0 / 3.0))
            continue
        break
    for k in range(Y.shape[0]):  # (loops: no array copies without reference counts)
        Y[k] = Yn[k]
    for k in range(vdot.shape[0]):
        vdot_prev[k] = vdot[k]
        vdot[k] = vd[k]
        a[k] = a_new[k]
    for k in range(lam.shape[0]):
        lam[k] = lam_new[k]
    fs[F_H_PREV] = h
    account_power(acc, t + h, _driver_power(Yn, nb, lam, lay, prep[3]), Pnc)
    if adaptive:
        _control(h, err, cnt[C_REJECTING] == 1, par, fs)
    return STEP_OK, h


@njit(cache=True, refcounts=False)  # allocates nothing (ws from the caller): no reference counts (jit.py)
def advance(t, t_next, t_check, skip_first, Y, S, W, prep, lay, par, fs, cnt, state, acc, ws):
    """Advance (t, Y) towards t_next [s] by :func:`step` in equal steps of at most fs[F_H] (adaptive:
    controlled) until t_next, or until the step at which t >= t_check (the rank monitor is due; not for
    the first step if skip_first: the monitor has just run), or a step that Python must take (its status
    not STEP_OK: the step is not taken). state = (vdot, a, lam, vdot_prev) is updated in place.
    Returns (t reached, status)."""
    eps = 1e-12 * max(1.0, abs(t_next))
    first = True
    while t < t_next - eps:
        if t >= t_check and not (first and skip_first):
            return t, NEED_PYTHON
        first = False
        rest = t_next - t
        cnt[C_REJECTING] = 0
        code, h = step(
            t, rest / max(1, int(np.ceil(rest / fs[F_H] - 1e-9))), Y, S, W, prep, lay, par, fs, cnt, state, acc, ws
        )
        if code != STEP_OK:
            return t, NEED_PYTHON
        t = t_next if abs(t_next - (t + h)) <= eps else t + h
        cnt[C_STEPS] += 1
    return t_next, DONE
