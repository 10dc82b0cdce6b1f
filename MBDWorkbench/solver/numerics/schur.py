"""The Schur complement C = J M^-1 J^T of the constraint rows: its band assembly, the rank decisions
(which rows are kept), the watched band Cholesky factorisation and the multiplier solve with
iterative refinement. NumPy versions of the band loops serve the interpreted start.
"""

import functools

import numpy as np

from ..tolerances import ODE_NEAR_SINGULAR, ODE_RANK_RETURN_TOL, ODE_RANK_TOL
from .jets import eval_jet
from .jit import njit

# ----------------------------------------------------------------------------- Schur complement
# The constraint rows enter the dynamics through the Schur complement C = J M^-1 J^T, assembled
# as a band matrix after reverse Cuthill-McKee (row r sits at band position S.perm[r]). Which rows
# enter is the kept set W.keep (per band position: 1 kept, 0 dropped), decided by
# :func:`decide_rows` in the dimensionless metric S.rank_w (each body with unit mass and a radius
# of gyration equal to its size, so no mass, inertia or unit enters): a row whose sine to the
# span of the kept rows before it is below ODE_RANK_TOL depends on them and is dropped (its
# multiplier is 0). The solve is exact on the kept rows, so nothing depends on a regularisation.
#
# W.ctl, the rank state shared with the steppers (indices):
CTL_DECIDE = 0  # 1: the next derivatives call decides the kept set first


CTL_RANK = 1  # number of kept rows (-1: never decided)


CTL_MIN_SINE2 = 2  # smallest squared sine of a kept row at the last decision


CTL_CHANGES = 3  # number of decisions that changed the kept set


CTL_CHANGE_T = 4  # time of the last change [s]


CTL_WATCH = 5  # 1: a kept pivot fell by WATCH_DROP since the last decision: decide after the step


CTL_SET_REF = 6  # 1: the next factorisation stores its pivot ratios as the references


CTL_NEAR_T = 7  # first decision near a singular position since the stepper last reset it [s] (-1: none)


CTL_NEAR_MIN = 8  # the smallest squared sine (kept rows, or a row dropped there) since then (state in W.y_near)


CTL_NEAR_STEPS = 9  # number of steps that ended near a singular position (each projected)


CTL_RANK_BEFORE = 10  # the rank before the last change (equal to CTL_RANK: other rows dropped, same rank)


CTL_NEAR_MIN_T = 11  # time of that smallest squared sine [s]


CTL_SIZE = 12


RANK_SINE2 = ODE_RANK_TOL * ODE_RANK_TOL


RETURN_SINE2 = ODE_RANK_RETURN_TOL * ODE_RANK_RETURN_TOL


NEAR_SINE2 = ODE_NEAR_SINGULAR * ODE_NEAR_SINGULAR


WATCH_DROP = 0.1  # a kept pivot ratio (mass metric) this much below its reference: decide after the step


DECIDE_NOW_DROP = 1e-6  # ... this much below: decide at once, at the current state


def new_rank_state(m: int) -> np.ndarray:
    """Initial W.ctl: nothing decided yet (the first evaluation decides)."""
    ctl = np.zeros(CTL_SIZE)
    ctl[CTL_DECIDE], ctl[CTL_RANK], ctl[CTL_MIN_SINE2], ctl[CTL_SET_REF] = 1.0, -1.0, 1.0, 1.0
    ctl[CTL_CHANGE_T], ctl[CTL_NEAR_T], ctl[CTL_NEAR_MIN] = -1.0, -1.0, 1.0
    return ctl


# ----------------------------------------------------------------------------- NumPy versions
# The interpreted start (solver/numerics/cold_start.py) runs these instead of the band kernels below,
# whose Python loops would dominate it: the same contracts, computed with one dense LAPACK
# factorisation of the kept rows (the band factor of the kept rows is that dense factor: fill-in
# stays inside the band). Every irregular case (a pivot not positive, a watched ratio falling, a
# kept set that changes) is handed to the loop version, unchanged input.
@functools.lru_cache(maxsize=64)
def _band_layout(m: int, bw: int) -> tuple:
    """(rows, cols, valid, width): band[i, k] is entry (rows, cols) = (i, i - k) where valid
    (cached: the same few sizes at every evaluation; the arrays are only read)."""
    width = min(bw, m - 1) + 1
    rows = np.repeat(np.arange(m), width).reshape(m, width)
    cols = rows - np.arange(width)
    return rows, cols, cols >= 0, width


def _dense_kept_factor(band, bw, keep):
    """(factor L, diagonal of C) of the kept rows, identity rows for the dropped ones, or None
    if the kept rows are not numerically positive definite."""
    m = band.shape[0]
    rows, cols, valid, width = _band_layout(m, bw)
    dense = np.zeros((m, m))
    dense[rows[valid], cols[valid]] = band[:, :width][valid]
    diag = np.diagonal(dense).copy()
    kept = np.flatnonzero(keep != 0)
    factor = np.zeros((m, m))
    try:
        sub = np.linalg.cholesky(dense[np.ix_(kept, kept)])
    except np.linalg.LinAlgError:
        return None
    factor[np.ix_(kept, kept)] = sub
    dropped = np.flatnonzero(keep == 0)
    factor[dropped, dropped] = 1.0
    pivots = np.diagonal(sub) ** 2
    if not (np.all(np.isfinite(sub)) and np.all(pivots > 0.0)):
        return None
    return factor, diag


def _store_factor(band, bw, factor) -> None:
    rows, cols, valid, width = _band_layout(band.shape[0], bw)
    band[:, :width][valid] = factor[rows[valid], cols[valid]]


def _ratios(factor, diag, keep) -> np.ndarray:
    """Pivot / diagonal entry per row (0 for a dropped row)."""
    r = np.where(keep != 0, np.diagonal(factor) ** 2 / np.where(diag > 0.0, diag, 1.0), 0.0)
    return np.where(diag > 0.0, r, 0.0)


def _band_cholesky_numpy(band, bw, keep, ratio, drop_below=-1.0, return_below=-1.0):
    """:func:`band_cholesky` (NumPy version). Deciding the kept set on the way, it checks the
    decision so far (keep 1 kept, 2 dropped) against one factorisation of the kept rows; a
    decision that changes is the loop's."""
    deciding = drop_below >= 0.0
    kept = np.where(keep == 2, 0, keep) if deciding else keep
    found = _dense_kept_factor(band, bw, kept)
    if found is not None:
        factor, diag = found
        r = _ratios(factor, diag, kept)
        if not deciding or _same_decision(band, bw, keep, factor, diag, r, drop_below, return_below):
            if deciding:
                keep[:] = kept
            ratio[:] = r
            _store_factor(band, bw, factor)
            return True
    return band_cholesky.py_func(band, bw, keep, ratio, drop_below, return_below)


def _same_decision(band, bw, keep, factor, diag, r, drop_below, return_below) -> bool:
    """Whether deciding again keeps exactly the rows kept so far: every kept row's ratio above
    drop_below, and every row dropped so far (keep 2) not above return_below, its ratio taken
    against the kept rows before it and written into r, as the loop does."""
    from scipy.linalg import solve_triangular

    kept = np.flatnonzero(keep == 1)
    if np.any(~(r[kept] > drop_below)):
        return False
    for i in np.flatnonzero(keep == 2):
        before = kept[(kept < i) & (kept >= i - bw)]
        column = np.array([band[i, i - j] for j in before])
        d = diag[i]
        if before.size:
            block = factor[np.ix_(kept[kept < i], kept[kept < i])]
            rhs = np.zeros(block.shape[0])
            rhs[-before.size :] = column
            x = solve_triangular(block, rhs, lower=True, check_finite=False)
            s = d - float(x @ x)
        else:
            s = d
        r[i] = s / d if d > 0.0 else 0.0
        if r[i] > return_below:
            return False
    return True


def _watched(ratio, keep, ref, ctl) -> tuple:
    """The pivot watch of the factorisations: (decide now, smallest kept ratio); sets the
    references or the watch flag as the loop versions do when no decision is due now."""
    kept = keep != 0
    r = ratio[kept]
    rmin = min(1.0, float(r.min())) if r.size else 1.0
    if ctl[CTL_SET_REF] > 0.0:
        ref[kept] = r
    else:
        if np.any(r < DECIDE_NOW_DROP * ref[kept]):
            return True, rmin
        if np.any(r < WATCH_DROP * ref[kept]):
            ctl[CTL_WATCH] = 1.0
    ctl[CTL_SET_REF] = 0.0
    return False, rmin


def _watched_factor_numpy(band, bw, keep, ratio, ref, ctl):
    """The NumPy part of the watched factorisations: (ok, rmin), or None where the loop
    version must decide (no regular factor, or a pivot fell by DECIDE_NOW_DROP)."""
    found = _dense_kept_factor(band, bw, keep)
    if found is None:
        return None
    r = _ratios(*found, keep)
    saved = (ref.copy(), ctl.copy())
    now, rmin = _watched(r, keep, ref, ctl)
    if now:
        ref[:], ctl[:] = saved
        return None
    ratio[:] = r
    _store_factor(band, bw, found[0])
    return True, rmin


def _full_cholesky_watched_numpy(band, bw, ratio, ref, ctl):
    """:func:`_full_cholesky_watched` (NumPy version)."""
    done = _watched_factor_numpy(band, bw, np.ones(band.shape[0], dtype=np.int64), ratio, ref, ctl)
    return done if done is not None else _full_cholesky_watched.py_func(band, bw, ratio, ref, ctl)


def _kept_cholesky_watched_numpy(band, bw, keep, ratio, ref, ctl):
    """:func:`_kept_cholesky_watched` (NumPy version)."""
    done = _watched_factor_numpy(band, bw, keep, ratio, ref, ctl)
    return done if done is not None else _kept_cholesky_watched.py_func(band, bw, keep, ratio, ref, ctl)


def _band_solve_numpy(band, bw, x):
    """:func:`band_solve` (NumPy version: LAPACK's banded Cholesky solve)."""
    from scipy.linalg import cho_solve_banded

    m = band.shape[0]
    if m == 0:
        return
    width = min(bw, m - 1) + 1
    lower = np.zeros((width, m))
    for k in range(width):
        lower[k, : m - k] = band[k:, k]
    x[:] = cho_solve_banded((lower, True), x, check_finite=False)


def _schur_numpy(band, jac, weight, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm):
    """:func:`_schur` in NumPy (the interpreted start's version: the loops are slow in Python)."""
    vals = (jac[pair_r, pair_side_r] * weight[pair_body] * jac[pair_s, pair_side_s]).sum(axis=1)
    i, j = perm[pair_r], perm[pair_s]
    band[:, :] = 0.0
    np.add.at(band, (np.maximum(i, j), np.abs(i - j)), vals)


@njit(cache=True, interpreted=_schur_numpy)
def _schur(band, jac, weight, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm):
    """Band of the permuted J diag(weight) J^T (weight: M^-1, or the rank metric)."""
    band[:, :] = 0.0
    for p in range(pair_r.shape[0]):
        r, s, b = pair_r[p], pair_s[p], pair_body[p]
        sr, ss = pair_side_r[p], pair_side_s[p]
        val = 0.0
        for k in range(6):
            val += jac[r, sr, k] * weight[b, k] * jac[s, ss, k]
        i, j = perm[r], perm[s]
        if i >= j:
            band[i, i - j] += val
        else:
            band[j, j - i] += val


@njit(cache=True, interpreted=_band_cholesky_numpy)
def band_cholesky(band, bw, keep, ratio, drop_below=-1.0, return_below=-1.0):
    """In-place Cholesky factor of the kept rows of a symmetric band matrix (row i, column
    i - k at band[i, k]); a dropped row (keep[i] == 0) becomes an identity row with zeros in
    its column, so that solves give it 0. ratio[i] = pivot / diagonal entry of row i (its
    squared sine to the span of the kept rows before it). With drop_below >= 0 the kept set
    is decided on the way (keep must start 1 for rows kept so far, 2 for rows dropped so far):
    a row whose ratio is not above drop_below (return_below for a row dropped so far) is
    dropped. Returns False if a kept pivot is not positive or not finite."""
    m = band.shape[0]
    for i in range(m):
        j0 = max(0, i - bw)
        if keep[i] == 0:
            ratio[i] = 0.0
            _identity_row(band, i, j0)
            continue
        for j in range(j0, i):
            if keep[j] == 0:
                band[i, i - j] = 0.0
                continue
            s = band[i, i - j]
            for k in range(max(j0, j - bw), j):
                s -= band[i, i - k] * band[j, j - k]
            band[i, i - j] = s / band[j, 0]
        d = band[i, 0]
        s = d
        for k in range(j0, i):
            s -= band[i, i - k] * band[i, i - k]
        ratio[i] = s / d if d > 0.0 else 0.0
        if drop_below >= 0.0:
            if not ratio[i] > (drop_below if keep[i] == 1 else return_below):
                keep[i] = 0
                _identity_row(band, i, j0)
                continue
            keep[i] = 1
        if not s > 0.0 or not np.isfinite(s):
            return False
        band[i, 0] = np.sqrt(s)
    return True


@njit(cache=True)
def _identity_row(band, i, j0):
    for k in range(1, i - j0 + 1):
        band[i, k] = 0.0
    band[i, 0] = 1.0


@njit(cache=True, interpreted=_band_solve_numpy)
def band_solve(band, bw, x):
    """Solve L L^T x = b in place for a factor from band_cholesky."""
    m = band.shape[0]
    for i in range(m):
        s = x[i]
        for k in range(max(0, i - bw), i):
            s -= band[i, i - k] * x[k]
        x[i] = s / band[i, 0]
    for i in range(m - 1, -1, -1):
        s = x[i]
        for k in range(i + 1, min(m, i + bw + 1)):
            s -= band[k, k - i] * x[k]
        x[i] = s / band[i, 0]


@njit(cache=True)
def solve_kept(band, bw, perm, keep, b, x, rhs):
    """x = C_KK^-1 b on the kept rows, 0 on the dropped ones (rows in model order; rhs: scratch)."""
    m = b.shape[0]
    for r in range(m):
        i = perm[r]
        rhs[i] = b[r] if keep[i] else 0.0
    band_solve(band, bw, rhs)
    for r in range(m):
        x[r] = rhs[perm[r]]


@njit(cache=True)
def _decide_rows(t, Y, band, bw, jac, rank_w, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm, keep,
                 keep_prev, sine2, ctl, y_near):  # fmt: skip
    """Decide the kept set at (t, Y) from the Jacobian in jac (see the section comment) and
    update the rank state ctl (keep_prev: the kept set before the last change); returns the rank."""
    _schur(band, jac, rank_w, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm)
    m = keep.shape[0]
    old = keep.copy()
    for i in range(m):
        keep[i] = 1 if old[i] else 2  # a dropped row comes back only above RETURN_SINE2 (hysteresis)
    band_cholesky(band, bw, keep, sine2, RANK_SINE2, RETURN_SINE2)
    rank, smin, snear, changed = 0, 1.0, 1.0, False
    for i in range(m):
        rank += keep[i]
        if keep[i]:
            smin = min(smin, sine2[i])
        elif old[i] and ctl[CTL_RANK] >= 0.0:  # dropped just now: the passage's closest approach
            snear = min(snear, sine2[i])
        changed = changed or keep[i] != old[i]
    snear = min(snear, smin)
    if changed and ctl[CTL_RANK] >= 0.0:
        ctl[CTL_CHANGES] += 1.0
        ctl[CTL_CHANGE_T] = t
        ctl[CTL_RANK_BEFORE] = ctl[CTL_RANK]
        keep_prev[:] = old
    if snear < NEAR_SINE2:
        if ctl[CTL_NEAR_T] < 0.0:
            ctl[CTL_NEAR_T] = t
        if snear < ctl[CTL_NEAR_MIN]:
            ctl[CTL_NEAR_MIN], ctl[CTL_NEAR_MIN_T] = snear, t
            for k in range(Y.shape[0]):
                y_near[k] = Y[k]
    ctl[CTL_RANK], ctl[CTL_MIN_SINE2] = rank, smin
    ctl[CTL_DECIDE], ctl[CTL_WATCH], ctl[CTL_SET_REF] = 0.0, 0.0, 1.0
    return rank


@njit(cache=True, inline="always")
def decide_rows(t, Y, S, W):
    """Decide the kept rows at (t, Y) (W.jac must hold the Jacobian there); returns the rank."""
    return _decide_rows(
        t, Y, W.band, S.bw, W.jac, S.rank_w, S.pair_r, S.pair_s, S.pair_body, S.pair_side_r, S.pair_side_s, S.perm,
        W.keep, W.keep_prev, W.sine2, W.ctl, W.y_near,
    )  # fmt: skip


@njit(cache=True, interpreted=_kept_cholesky_watched_numpy)
def _kept_cholesky_watched(band, bw, keep, ratio, ref, ctl):
    """Factor the kept rows of the assembled C (:func:`band_cholesky`) and watch their pivots
    against those of the last decision. Returns (ok, smallest kept pivot ratio); not ok if a
    pivot is not positive or fell by DECIDE_NOW_DROP (the kept set must be decided again here)."""
    if not band_cholesky(band, bw, keep, ratio):
        return False, 0.0
    rmin = 1.0
    set_ref = ctl[CTL_SET_REF] > 0.0
    for i in range(keep.shape[0]):
        if keep[i]:
            r = ratio[i]
            rmin = min(rmin, r)
            if set_ref:
                ref[i] = r
            elif r < WATCH_DROP * ref[i]:
                ctl[CTL_WATCH] = 1.0
                if r < DECIDE_NOW_DROP * ref[i]:
                    return False, rmin
    ctl[CTL_SET_REF] = 0.0
    return True, rmin


@njit(cache=True, interpreted=_full_cholesky_watched_numpy)
def _full_cholesky_watched(band, bw, ratio, ref, ctl):
    """:func:`_kept_cholesky_watched` when every row is kept (the common case, kept lean):
    band_cholesky without the kept-set branches, the pivots watched on the way."""
    m = band.shape[0]
    set_ref = ctl[CTL_SET_REF] > 0.0
    rmin = 1.0
    for i in range(m):
        j0 = max(0, i - bw)
        d = band[i, 0]
        for j in range(j0, i + 1):
            s = band[i, i - j]
            for k in range(max(j0, j - bw), j):
                s -= band[i, i - k] * band[j, j - k]
            if j < i:
                band[i, i - j] = s / band[j, 0]
                continue
            if not s > 0.0 or not np.isfinite(s):
                return False, 0.0
            r = s / d
            ratio[i] = r
            rmin = min(rmin, r)
            if set_ref:
                ref[i] = r
            elif r < WATCH_DROP * ref[i]:
                ctl[CTL_WATCH] = 1.0
                if r < DECIDE_NOW_DROP * ref[i]:
                    return False, rmin
            band[i, 0] = np.sqrt(s)
    ctl[CTL_SET_REF] = 0.0
    return True, rmin


@njit(cache=True)
def factor_all_rows(band, jac, minv, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm, bw, ratio, ref, ctl):
    """The common case of :func:`factor_schur`: every row kept and no decision due. Assembles and
    factors C = J M^-1 J^T, watching the pivots; returns (ok, smallest pivot ratio), not ok if
    the case does not apply or the factorisation shows that the kept set no longer fits."""
    if ctl[CTL_DECIDE] != 0.0 or ctl[CTL_RANK] != band.shape[0]:
        return False, 0.0
    _schur(band, jac, minv, pair_r, pair_s, pair_body, pair_side_r, pair_side_s, perm)
    return _full_cholesky_watched(band, bw, ratio, ref, ctl)


@njit(cache=True)
def factor_schur(t, Y, S, W):
    """Factor C = J M^-1 J^T on the kept rows at (t, Y) (W.jac filled), deciding the kept set
    first when asked to (W.ctl) or when the factorisation shows that it no longer fits. Returns
    (ok, smallest pivot ratio of the kept rows). :func:`derivatives` calls its two parts directly:
    the common case (:func:`factor_all_rows`), then :func:`factor_with_decisions` if needed."""
    ok, rmin = factor_all_rows(
        W.band, W.jac, S.minv, S.pair_r, S.pair_s, S.pair_body, S.pair_side_r, S.pair_side_s, S.perm, S.bw,
        W.ratio, W.ref, W.ctl,
    )  # fmt: skip
    if ok:
        return ok, rmin
    return factor_with_decisions(t, Y, S, W)


@njit(cache=True)
def factor_with_decisions(t, Y, S, W):
    """:func:`factor_schur` with a decision due, rows dropped, or a factorisation that failed."""
    if W.ctl[CTL_DECIDE] > 0.0:
        decide_rows(t, Y, S, W)
    ok, rmin = _factor_kept(S, W)
    if not ok:
        decide_rows(t, Y, S, W)
        ok, rmin = _factor_kept(S, W)
    return ok, rmin


@njit(cache=True, inline="always")
def _factor_kept(S, W):
    """Assemble C = J M^-1 J^T and factor its kept rows, watching the pivots (see
    :func:`_kept_cholesky_watched`): (ok, smallest kept pivot ratio)."""
    _schur(W.band, W.jac, S.minv, S.pair_r, S.pair_s, S.pair_body, S.pair_side_r, S.pair_side_s, S.perm)
    if W.ctl[CTL_RANK] == S.row_kind.shape[0]:
        return _full_cholesky_watched(W.band, S.bw, W.ratio, W.ref, W.ctl)
    return _kept_cholesky_watched(W.band, S.bw, W.keep, W.ratio, W.ref, W.ctl)


REFINE_SWEEPS = 12  # at most this many iterative-refinement sweeps per multiplier solve


REFINE_TOL = 1e-15  # relative change of the constraint accelerations at which the refinement stops


def _constraint_acc_numpy(nb, bi, bj, jac, minv, lam, u):
    """:func:`constraint_acc` (NumPy version)."""
    loads = np.zeros((nb + 1, 6))  # the last row stands for the ground
    m = bi.shape[0]
    np.add.at(loads, np.where(bi >= 0, bi, nb), jac[:m, 0, :] * lam[:m, None])
    np.add.at(loads, np.where(bj >= 0, bj, nb), jac[:m, 1, :] * lam[:m, None])
    u[: 6 * nb] = (minv[:nb] * loads[:nb]).ravel()


@njit(cache=True, interpreted=_constraint_acc_numpy)
def constraint_acc(nb, bi, bj, jac, minv, lam, u):
    """u = M^-1 J^T lam (the accelerations the constraint loads take away)."""
    for i in range(6 * nb):
        u[i] = 0.0
    for r in range(bi.shape[0]):
        lr = lam[r]
        for side in range(2):
            b_ = bi[r] if side == 0 else bj[r]
            if b_ >= 0:
                for k in range(6):
                    u[6 * b_ + k] += minv[b_, k] * jac[r, side, k] * lr


@njit(cache=True)
def _schur_residual(nb, bi, bj, jac, minv, b, lam, u, res):
    """u = M^-1 J^T lam and res = b - J u = b - C lam."""
    constraint_acc(nb, bi, bj, jac, minv, lam, u)
    _jacobian_times(nb, jac, bi, bj, u, res)
    for r in range(bi.shape[0]):
        res[r] = b[r] - res[r]


@njit(cache=True)
def _refined_solve(nb, bi, bj, jac, minv, band, bw, perm, keep, b, lam, rhs, u, res, u_prev):
    """lam = C_KK^-1 b on the kept rows (0 on the dropped ones) with the factor in ``band`` and
    iterative refinement against C itself, for an ill-conditioned C_KK (badly scaled masses,
    e.g. a point mass with inertia 1e-8 kg m^2): lam += C_KK^-1 (b - C lam). The sweeps stop
    when the change of the constraint accelerations u = M^-1 J^T lam, in the kinetic-energy
    norm (so independent of units and masses), is at rounding level (REFINE_TOL relative) or
    stops shrinking. Leaves u = M^-1 J^T lam."""
    m = bi.shape[0]
    solve_kept(band, bw, perm, keep, b, lam, rhs)
    _schur_residual(nb, bi, bj, jac, minv, b, lam, u, res)
    prev = np.inf
    for _ in range(REFINE_SWEEPS):
        for i in range(6 * nb):
            u_prev[i] = u[i]
        solve_kept(band, bw, perm, keep, res, res, rhs)
        for r in range(m):
            lam[r] += res[r]
        _schur_residual(nb, bi, bj, jac, minv, b, lam, u, res)
        du2, u2 = 0.0, 0.0
        for i in range(6 * nb):
            w = 1.0 / minv[i // 6, i % 6]
            du2 += w * (u[i] - u_prev[i]) ** 2
            u2 += w * u[i] * u[i]
        if not du2 > REFINE_TOL * REFINE_TOL * u2 or not du2 < 0.25 * prev:
            return
        prev = du2


def _jacobian_times_numpy(nb, jac, bi, bj, x, out):
    """:func:`_jacobian_times` (NumPy version)."""
    bodies = np.zeros((nb + 1, 6))  # the last row stands for the ground
    bodies[:nb] = x[: 6 * nb].reshape(nb, 6)
    m = bi.shape[0]
    jx = (jac[:m, 0, :] * bodies[np.where(bi >= 0, bi, nb)]).sum(axis=1)
    out[:m] = jx + (jac[:m, 1, :] * bodies[np.where(bj >= 0, bj, nb)]).sum(axis=1)


@njit(cache=True, inline="always", interpreted=_jacobian_times_numpy)
def _jacobian_times(nb, jac, bi, bj, x, out):
    """out = J x for body-velocity-like x (6 per moving body)."""
    for r in range(bi.shape[0]):
        s = 0.0
        for side in range(2):
            b = bi[r] if side == 0 else bj[r]
            if b >= 0:
                for k in range(6):
                    s += jac[r, side, k] * x[6 * b + k]
        out[r] = s


@njit(cache=True)
def solve_multipliers(
    t,
    nb,
    acc,
    jac,
    bi,
    bj,
    prog,
    gamma,
    rate,
    phi,
    alpha,
    beta,
    band,
    bw,
    rhs,
    lam,
    perm,
    keep,
    minv,
    bvec,
    u,
    res,
    u_prev,
    refine,
    code,
    code_start,
    consts,
    const_start,
    table_x,
    table_y,
    table_start,
    table_base,
    stack,
):
    """Solve C lam = J M^-1 Q - gamma* on the kept rows with the banded Cholesky factor in
    ``band`` (refined against C if ``refine``) and subtract M^-1 J^T lam from acc. Returns the
    driver power [W]."""
    m = bi.shape[0]
    _jacobian_times(nb, jac, bi, bj, acc, bvec)
    for r in range(m):
        bvec[r] -= gamma[r] - 2.0 * alpha * rate[r] - beta * beta * phi[r]  # J acc - gamma* (Baumgarte's)
    if refine:
        _refined_solve(nb, bi, bj, jac, minv, band, bw, perm, keep, bvec, lam, rhs, u, res, u_prev)
    else:
        solve_kept(band, bw, perm, keep, bvec, lam, rhs)
        constraint_acc(nb, bi, bj, jac, minv, lam, u)
    for i in range(6 * nb):
        acc[i] -= u[i]
    Pdrv = 0.0
    for r in range(m):
        if prog[r] >= 0:
            fd = eval_jet(
                prog[r], t, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
            )[1]
            Pdrv -= lam[r] * (rate[r] + fd)
    return Pdrv
