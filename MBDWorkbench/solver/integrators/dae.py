"""The shared part of the index-3 integrators (:mod:`.cros`, :mod:`.galpha`), which integrate
M v' = Q(q, v, t) - Phi_q^T lam,  Phi(q, t) = 0  directly ([R3]; docs/index3.md).

Both work in a local chart per step: the position unknowns are the increments
x = [dr (global, m), dtheta (body frame, rad)] of each body, q = (r + dr, A exp(dtheta^)),
so quaternions stay unit by construction and no normalisation row or constraint is
needed (docs/index3.md compares this with the two quaternion-coordinate options).

Common parts (:class:`Index3Stepper`): input checks, rank analysis of the dimensionless Phi_q
(redundant rows are dropped from the solve, reported in ``warnings`` and their multipliers
redistributed with minimum norm at the output times), the rank monitor that re-decides the
rows in the solve during the run (other redundant rows when the dropped ones stop carrying the
dependency, rows leaving and re-entering the solve around a singular position), the consistent
start (v', lam), the projection onto the constraints, the sparse residual Jacobian
(K = d(Q - Phi_q^T lam)/dx, D = dQ/dv by complex step, :mod:`.jacobians`), the power accounting
and the multipliers of the last output state (``multipliers``).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
from scipy.sparse import csc_matrix
from scipy.sparse.linalg import splu

from .. import kernels
from ..errors import ModelError, SimulationError
from ..quality import NEAR_SINGULAR_ACCURACY, IntegratedViolation
from ..system.assembly import length_scale
from ..system.scaled_rank import jacobian_for_rank, relative_rank, scaled_jacobian, singular_structure
from ..tolerances import (
    INDEX3_NEAR_SINGULAR,
    INDEX3_RANK_DROP,
    INDEX3_RANK_NEWTON,
    INDEX3_RANK_RESTORE,
    INDEX3_ROW_CHOICE,
    PROJECTION_TOL,
    REDUNDANCY_TOL,
)
from . import jacobians as ik
from .base import Stepper

RANK_CHECK_SIZE = 20000  # re-check the rank at every output time while m * 6N <= this
CLOSE_FAILED = "the constraints cannot be closed again after a singular position (locked mechanism?)"
TIE_BREAK = 1e-8  # relative preference for earlier rows among equally good redundant rows (rounding: 1e-15)
PROJECTION_ITERATIONS = 20  # Gauss-Newton steps of the projection after a rank is regained


def check_settings(s) -> None:
    """Reject non-positive steps/tolerances and rho_inf outside [0, 1) (ModelError)."""
    for key in ("step", "rtol", "atol", "output_step", "t_end"):
        v = getattr(s, key)
        if not (isinstance(v, (int, float)) and np.isfinite(v) and v > 0):
            raise ModelError(f"settings.{key}", f"must be a positive number, got {v!r}")
    rho = s.rho_inf
    if not (isinstance(rho, (int, float)) and 0.0 <= rho < 1.0):
        raise ModelError(
            "settings.rho_inf",
            f"must lie in [0, 1), got {rho!r} (1 leaves the index-3 multipliers' (-1)^n mode undamped: the step "
            "control then shrinks the step without end; the cost grows like 1/(1 - rho_inf), docs/index3.md)",
        )


# ----------------------------------------------------------------------------- sparse pattern
class SparsePattern:
    """A fixed sparsity pattern built from groups of triplet blocks [(rows, cols), ...];
    per step the CSC data is sum_g coef_g * (values of group g, duplicates summed).
    The csc_matrix object is reused (only its data changes)."""

    def __init__(self, n: int, groups: list) -> None:
        self.n = n
        keys = [
            np.concatenate(
                [np.asarray(c, np.int64) * n + np.asarray(r, np.int64) for r, c in g] + [np.zeros(0, np.int64)]
            )
            for g in groups
        ]
        uniq, inv = np.unique(np.concatenate(keys), return_inverse=True)
        self.nnz = len(uniq)
        indices = (uniq % n).astype(np.int32)
        indptr = np.searchsorted(uniq // n, np.arange(n + 1)).astype(np.int32)
        self.inv = np.split(inv, np.cumsum([len(k) for k in keys])[:-1])
        self._A = {}
        self.struct = (indices, indptr)  # CSC row indices and column pointers

    def data(self, groups: list, coefs: list) -> np.ndarray:
        """CSC data for the group values (each a list of arrays) times coefficients."""
        out = 0.0
        for inv, vals, c in zip(self.inv, groups, coefs):
            if len(inv):
                out = out + c * np.bincount(inv, weights=np.concatenate(vals), minlength=self.nnz)
        return out

    def matrix(self, data: np.ndarray) -> csc_matrix:
        """The csc_matrix with this data (one object per dtype, reused)."""
        A = self._A.get(data.dtype)
        if A is None:
            A = self._A[data.dtype] = csc_matrix((data, *self.struct), shape=(self.n, self.n))
        else:
            A.data = data
        return A


# ----------------------------------------------------------------------------- rank decisions
def dependent_rows(U: np.ndarray, rank: int, keep: np.ndarray) -> np.ndarray:
    """The m - rank rows to leave out of the solve (sorted): pivoted QR of the basis U[:, rank:]
    of the weakest left singular directions picks the rows that carry them best, among the
    rows not in ``keep`` (driver rows) whenever those suffice."""
    m = U.shape[0]
    k = m - rank
    if k <= 0:
        return np.zeros(0, np.int64)
    N = U[:, rank:]
    cand = np.nonzero(~keep)[0]
    if len(cand) < k or np.linalg.matrix_rank(N[cand]) < k:
        cand = np.arange(m)
    # rows of equal weight (planar mechanisms: by symmetry) go to the earlier row, not to rounding
    bias = 1.0 - TIE_BREAK * np.arange(len(cand)) / len(cand)
    piv = scipy.linalg.qr((N[cand] * bias[:, None]).T, pivoting=True, mode="economic")[2]
    return np.sort(cand[piv[:k]])


def choice_quality(U: np.ndarray, drop: np.ndarray) -> float:
    """sigma_min of the dropped rows' block of the weakest-direction basis U[:, m - k:] (k dropped
    rows): 1 when the dropped rows carry the dependencies alone, 0 when the kept rows are dependent."""
    k = len(drop)
    if k == 0:
        return 1.0
    return float(np.linalg.svd(U[drop][:, U.shape[0] - k :], compute_uv=False)[-1])


def rank_analysis(system, t: float, Y: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(rank, redundant row indices to drop, rows involved in the redundancy) of the scaled
    Phi_q at (t, Y), relative tolerance REDUNDANCY_TOL. Driver rows are kept whenever possible."""
    m = system.m
    if m == 0:
        return 0, np.zeros(0, np.int64), np.zeros(0, np.int64)
    Js, certified = jacobian_for_rank(system, t, Y, REDUNDANCY_TOL)
    if certified:  # a large model: no dense SVD
        return m, np.zeros(0, np.int64), np.zeros(0, np.int64)
    U, sv = singular_structure(Js)
    rank = relative_rank(sv / max(sv[0], 1e-300), REDUNDANCY_TOL)
    if rank == m:
        return rank, np.zeros(0, np.int64), np.zeros(0, np.int64)
    involved = np.nonzero(np.linalg.norm(U[:, rank:], axis=1) > 1e-8)[0]  # (any basis of the null space)
    return rank, dependent_rows(U, rank, system.static.row_prog >= 0), involved


def owners_of(system, rows: np.ndarray) -> list[str]:
    """Sorted unique joint/driver names owning the given rows."""
    return sorted({system.owner_name(int(o)) for o in system.row_owner[rows]})


def _quoted(names) -> str:
    return ", ".join(repr(n) for n in names)


# ----------------------------------------------------------------------------- common base
class Index3Stepper(Stepper):
    """Shared set-up and evaluations of the index-3 integrators. Subclasses build their
    iteration-matrix pattern in :meth:`_build_pattern` (called whenever the rows in the solve
    change) and restart their history in :meth:`_reset_history`."""

    MAX_RANK_WARNINGS = 10  # rank_change warnings per run; later changes are only counted
    RESTART_ON_RESTORE = True  # project the state and restart the history when rows come back
    PROJECT_OUTPUT = False  # publish the state closed onto the constraints at output times (_finish_output)

    def __init__(self, system, settings, t0: float, Y0: np.ndarray) -> None:
        check_settings(settings)
        super().__init__(system, settings, t0, Y0)
        self.S, self.W = system.static, system.work
        self.nb, self.m = system.nb, system.m
        if self.PROJECT_OUTPUT and self.m:
            self.integrated = IntegratedViolation(system.row_angular)
        self.n6 = 6 * self.nb
        self.diag6 = np.arange(self.n6)
        self.vel_slice = slice(7 * self.nb, 13 * self.nb)
        self.M = system.mass6.reshape(-1).copy()
        self.model_owner_names = [j.name for j in system.model.joints] + [d.name for d in system.model.drivers]
        self.keep_rows = self.S.row_prog >= 0  # driver rows stay in the solve whenever possible
        Y = Y0.copy()
        kernels.normalize_quaternions(self.S, Y)
        self.L = length_scale(system, Y)
        self._dense_maps()
        self.rank_changes, self.row_changes, self.rank_checks = 0, 0, 0
        self.episode = False  # rows of a singular position are out of the solve
        self.base_rank = 0  # rank without the rows of a singular position (set by _rank_setup)
        self._last_check, self._next_check = None, np.inf
        self._near_singular = False
        self._rank_checks = self.m * 6 * self.nb <= RANK_CHECK_SIZE
        self._output_check(t0)
        self.lam = np.zeros(0)
        self._published = None  # (t, state closed onto the constraints) of the last output time
        self._rank_setup(t0, Y)
        self.vdot, self.lam = self._consistent_start(t0, Y)
        self._publish(t0, Y, self.lam)

    # ------------------------------------------------------------------ rows in the solve
    def _rank_setup(self, t0, Y0):
        rank, drop, involved = rank_analysis(self.system, t0, Y0)
        self.base_rank = rank
        active = np.ones(self.m, bool)
        active[drop] = False
        self._set_active(active, t0, Y0)
        if len(drop):
            self.warn(
                "redundant",
                f"rank-deficient constraint Jacobian at t = {t0:g} s: {self.m} equations, rank "
                f"{rank} ({len(drop)} redundant); joints involved: "
                f"{_quoted(owners_of(self.system, involved))}; the redundant "
                f"equations of {_quoted(owners_of(self.system, drop))} are "
                f"dropped from the {self.label} solve and the multipliers are reported with "
                f"minimum norm",
                t0,
                owners_of(self.system, involved),
            )

    def _set_active(self, active: np.ndarray, t: float, Y: np.ndarray) -> None:
        """Put the rows of the mask ``active`` in the solve: index maps, triplet buffers and the
        subclass's iteration-matrix pattern (built at (t, Y))."""
        self.active = active.copy()
        self.active_rows = np.nonzero(active)[0]
        self.ma = self.rank = len(self.active_rows)
        self.redundant = self.ma < self.m
        self.is_driver = self.S.row_prog[self.active_rows] >= 0
        self._index_maps(t, Y)
        self._build_pattern()

    def _build_pattern(self) -> None:
        """The subclass's sparse pattern of its iteration matrix for the current rows."""

    def _reset_history(self) -> None:
        """Restart the subclass's multistep history from (self.vdot, self.lam)."""

    def _dense_maps(self):
        """Flat indices scattering W.jac of all rows into the dense m x 6N Phi_q."""
        S, n6 = self.S, self.n6
        key, gather = [], []
        for r in range(self.m):
            for side, b in ((0, S.row_bi[r]), (1, S.row_bj[r])):
                if b >= 0:
                    for c in range(6):
                        key.append(r * n6 + 6 * b + c)
                        gather.append((r * 2 + side) * 6 + c)
        self.dense_key = np.array(key, np.int64)
        self.dense_gather = np.array(gather, np.int64)

    def _scaled_dense(self, t, Y):
        """The scaled dense Phi_q (m x 6N, :func:`..scaled_rank.scaled_jacobian` with the length
        scale of the start) and Phi (m) of all rows at (t, Y)."""
        Y = np.ascontiguousarray(Y, dtype=float)
        kernels.fast_call(kernels.update_rotations, self.S, Y, self.W.A)
        kernels.fast_call(kernels.constraints, float(t), Y, self.S, self.W)
        vals = self.W.jac.reshape(-1)[self.dense_gather]
        J = np.bincount(self.dense_key, weights=vals, minlength=self.m * self.n6).reshape(self.m, self.n6)
        return scaled_jacobian(self.system, J, self.L), self.W.phi.copy()

    # ------------------------------------------------------------------ rank monitor
    def _monitor_rank(self, t: float, Y: np.ndarray, h_next: float, probe: tuple | None = None) -> bool:
        """Re-decide which rows are in the solve from the scaled singular values s_i of all rows
        (relative to s_1) when a check is due at the step start (t, Y), or at ``probe`` = (t1, Y1),
        where a step of size h_next [s] failed:

        * rank lost: a kept direction is below INDEX3_RANK_DROP or, extrapolated from the last
          check, reaches it within the next step (a singular position is crossed), or (probe) is
          below INDEX3_RANK_NEWTON: its rows leave the solve, the multipliers are mapped;
        * rank regained: a left-out direction grows past INDEX3_RANK_RESTORE: its rows come back
          (galpha: state projected onto the constraints, history restarted);
        * the left-out rows no longer carry the dependencies (choice quality below
          INDEX3_ROW_CHOICE): other rows of the same rank are left out, the multipliers mapped.

        Returns True if the rows changed."""
        if self.m == 0 or (probe is None and not self.episode and t < self._next_check):
            return False
        self.rank_checks += 1
        tp, Yp = probe if probe is not None else (t, Y)
        U, sv = singular_structure(self._scaled_dense(tp, Yp)[0])
        if sv[0] <= 0.0:
            return False
        rel = sv / sv[0]
        last = self._last_check
        rate = (rel - last[1]) / (tp - last[0]) if last is not None and tp > last[0] else np.zeros(self.m)
        if probe is None:
            self._last_check = (tp, rel)
        ma, drop_now = self.ma, np.nonzero(~self.active)[0]
        rank = self._decided_rank(rel, rate, h_next, probe is not None)
        self.base_rank = max(self.base_rank, rank)
        self.episode = rank < self.base_rank  # rows of a singular position are out: check every step
        if rank == ma:
            self._schedule(t, rel, rate, h_next)
            return self._rechoose_rows(t, Y, U, drop_now)
        drop = dependent_rows(U, rank, self.keep_rows)
        moved = self._change_rows(t, Y, drop, restart=rank > ma and self.RESTART_ON_RESTORE)
        self._warn_rank_change(t, ma, rank, U, drop_now, drop, moved)
        return True

    def _decided_rank(self, rel, rate, h_next, probe):
        """Rank to solve with, from the relative singular values ``rel`` and their rates [1/s]."""
        ma = self.ma
        ahead = rel + np.minimum(rate, 0.0) * h_next  # extrapolated to the end of the next step
        weak = (ahead[:ma] < INDEX3_RANK_DROP) | (rel[:ma] < (INDEX3_RANK_NEWTON if probe else INDEX3_RANK_DROP))
        if np.any(weak):
            return int(np.argmax(weak))
        if not probe and ma < self.m and rel[ma] > INDEX3_RANK_RESTORE and rate[ma] >= 0.0:
            return ma + int(np.sum(rel[ma:] > INDEX3_RANK_RESTORE))
        return ma

    def _compiled_turn(self, t: float, Y: np.ndarray, h: float, run) -> tuple[bool, object]:
        """A compiled step loop's turn at the step start (t [s], Y), step h [s]: the rank monitor
        first when a check is due, then ``run(monitored)`` unless rows of a singular position are
        out of the solve (the Python step takes those steps). Returns (whether the monitor ran,
        run's result or None)."""
        monitored = False
        if self.m and not self.episode and t >= self._next_check:
            self._monitor_rank(t, Y, h)
            monitored = True
        return monitored, (None if self.episode else run(monitored))

    def _output_check(self, t: float) -> None:
        """Make a rank check due at the first step after output time t [s] (models with
        m 6N <= RANK_CHECK_SIZE; larger ones are checked only after a failed step)."""
        if self._rank_checks:
            self._next_check = min(self._next_check, t)

    def _schedule(self, t, rel, rate, h_next):
        """Time of the next check: at the next output time, or sooner while the weakest kept
        direction shrinks (half the extrapolated time to INDEX3_RANK_DROP): every step near it."""
        self._next_check = np.inf
        if self.ma and rate[self.ma - 1] < 0.0:
            self._next_check = t + 0.5 * (rel[self.ma - 1] - INDEX3_RANK_DROP) / -rate[self.ma - 1] - h_next

    def _rechoose_rows(self, t, Y, U, drop_now) -> bool:
        """Leave out other rows of the same rank if the current ones no longer carry the dependencies."""
        if len(drop_now) == 0 or choice_quality(U, drop_now) >= INDEX3_ROW_CHOICE:
            return False
        drop = dependent_rows(U, self.ma, self.keep_rows)
        if choice_quality(U, drop) < 2.0 * choice_quality(U, drop_now):
            return False
        self._change_rows(t, Y, drop, restart=False)
        self.row_changes += 1
        if self.row_changes + self.rank_changes <= self.MAX_RANK_WARNINGS:
            self.warn(
                "redundant",
                f"the redundant equations left out of the {self.label} solve change at t = {t:.6g} s (the ones "
                f"left out no longer carried the dependency): {_quoted(owners_of(self.system, drop))} instead "
                f"of {_quoted(owners_of(self.system, drop_now))}; the rank stays {self.ma}",
                t,
                tuple(owners_of(self.system, np.union1d(drop, drop_now))),
            )
        return True

    def _change_rows(self, t, Y, drop, restart):
        """Leave the rows ``drop`` out of the solve from (t, Y) on. With ``restart`` (rows that were
        not exactly dependent come back) the state is projected onto all kept constraints and the
        history restarted (returns how far the bodies moved [m or rad]); otherwise the
        multipliers are mapped to the new rows for the same constraint load and 0 is returned."""
        active = np.ones(self.m, bool)
        active[drop] = False
        if restart:
            self._set_active(active, t, Y)
            moved = self._project(t, Y)
            self.vdot, self.lam = self._consistent_start(t, Y)
            self._reset_history()
            return moved
        self._evaluate(t, Y)
        load = self._jqT_matvec(self.jq, self.lam)
        self._set_active(active, t, Y)
        self.lam = self._map_multipliers(t, Y, load)
        return 0.0

    def _warn_rank_change(self, t, ma, rank, U, drop_before, drop_after, moved):
        self.rank_changes += 1
        count = self.rank_changes + self.row_changes
        if count > self.MAX_RANK_WARNINGS:
            return
        lo, hi = min(ma, rank), max(ma, rank)
        weak = U[:, lo:hi]
        rows = np.nonzero(np.max(np.abs(weak), axis=1) > 0.1 * np.max(np.abs(weak)))[0]
        names = owners_of(self.system, rows)
        if rank < ma:
            left = np.setdiff1d(drop_after, drop_before)
            what = (
                f"the constraint Jacobian lost rank at t = {t:.6g} s ({ma} -> {rank} independent "
                f"equations: singular position); joints involved: {_quoted(names)}; the equations of "
                f"{_quoted(owners_of(self.system, left))} leave the {self.label} solve until the rank is restored"
            )
        else:
            back = np.setdiff1d(drop_before, drop_after)
            what = (
                f"the constraint Jacobian regained rank at t = {t:.6g} s ({ma} -> {rank} independent "
                f"equations); joints involved: {_quoted(names)}; the equations of "
                f"{_quoted(owners_of(self.system, back))} are enforced again"
            )
            if self.RESTART_ON_RESTORE:
                what += f" (state projected onto the constraints: bodies moved by up to {moved:.2g} m or rad)"
        if count == self.MAX_RANK_WARNINGS:
            what += "; further rank changes are counted but not reported"
        self.warn("rank_change", what, t, tuple(names))

    def _check_rank(self, t, Y):
        """Warn (once per episode) when the rows in the solve become nearly dependent
        (scaled s_min/s_max < INDEX3_NEAR_SINGULAR): a singular or locking position is near.
        Output times of models with m 6N <= RANK_CHECK_SIZE only."""
        if not self._rank_checks or self.ma == 0:
            return
        ratio, worst = self._weakest_direction(t, Y)
        if ratio < INDEX3_NEAR_SINGULAR and not self._near_singular:
            names = ", ".join(f"'{n}'" for n, _ in worst)
            self.warn(
                "near_singular",
                f"the constraint Jacobian is nearly rank-deficient at t = {t:.6g} s (scaled s_min/s_max = "
                f"{ratio:.2g}); joints in the weakest direction: {names}. {NEAR_SINGULAR_ACCURACY}",
                t,
                tuple(n for n, _ in worst),
            )
        self._near_singular = ratio < 100 * INDEX3_NEAR_SINGULAR

    # ------------------------------------------------------------------ index maps
    def _index_maps(self, t, Y):
        """Triplet index arrays of Phi_q restricted to the active rows, and the buffers
        of ik.prepare (their K and D counts evaluated at (t, Y))."""
        S, nb = self.S, self.nb
        rows, cols, gather = [], [], []
        for a, r in enumerate(self.active_rows):
            for side, b in ((0, S.row_bi[r]), (1, S.row_bj[r])):
                if b >= 0:
                    for c in range(6):
                        rows.append(a), cols.append(6 * b + c), gather.append((r * 2 + side) * 6 + c)
        self.jq_r = np.array(rows, np.int64)
        self.jq_c = np.array(cols, np.int64)
        self.jq_g = np.array(gather, np.int64)
        self._kkt_pattern = None  # built by _kkt_lu for these rows
        nK, nD = ik.triplet_capacity(S, self.ma)
        self.Kb = (np.zeros(nK, np.int64), np.zeros(nK, np.int64), np.zeros(nK))
        self.Db = (np.zeros(nD, np.int64), np.zeros(nD, np.int64), np.zeros(nD))
        self.Lb = (np.zeros(9 * nb, np.int64), np.zeros(9 * nb, np.int64), np.zeros(9 * nb))
        self.lam_rows = np.zeros(self.m)
        self.Qt = np.zeros(self.n6)
        self.jq = np.zeros(len(gather))
        self._evaluate(t, np.ascontiguousarray(Y, dtype=float), blocks=True)
        self.nK, self.nD = self._counts

    def _set_lam(self, lam):
        self.lam_rows[:] = 0.0
        self.lam_rows[self.active_rows] = lam

    # ------------------------------------------------------------------ evaluations
    def _evaluate(self, t, Y, blocks=False):
        """Forces, constraints (active rows), dQ/dt and, if ``blocks``, the Jacobian
        triplets (K, D at self.lam_rows; Lie block) at (t, Y); returns a dict."""
        S, W = self.S, self.W
        V, Pnc, nK, nD = ik.prepare(
            t, Y, S, W, self.lam_rows, self.active, self.jq_g, self.jq, self.Qt, blocks, *self.Kb, *self.Db, *self.Lb
        )
        if blocks:
            self._counts = (nK, nD)
        a = self.active_rows
        return dict(Q=W.Q.copy(), jq=self.jq.copy(), phi=W.phi[a], rate=W.rate[a], gamma=W.gamma[a], V=V, Pnc=Pnc)

    def _jq_matvec(self, jq, v):
        return np.bincount(self.jq_r, weights=jq * v[self.jq_c], minlength=self.ma)

    def _jqT_matvec(self, jq, lam):
        return np.bincount(self.jq_c, weights=jq * lam[self.jq_r], minlength=self.n6)

    def _driver_power(self, ev, v, lam):
        """Power of the drivers [W] = -sum lam (Phi_q v) over driver rows."""
        if not np.any(self.is_driver):
            return 0.0
        jqv = self._jq_matvec(ev["jq"], v)
        return float(-np.sum(lam[self.is_driver] * jqv[self.is_driver]))

    def _kkt(self, t, Y, what):
        """(sparse LU of [[M, Phi_q^T], [Phi_q, 0]] over the active rows at (t, Y), evaluation)."""
        ev = self._evaluate(t, Y)
        lu = self._kkt_lu(ev["jq"])
        if lu is None:
            self._singular(t, Y, what)
        return lu, ev

    def _kkt_lu(self, jq):
        """Sparse LU of [[M, Phi_q^T], [Phi_q, 0]] over the active rows (Phi_q values jq), or None
        if it is singular. The pattern is kept until the rows in the solve change."""
        n6, pat = self.n6, self._kkt_pattern
        if pat is None:
            pat = SparsePattern(
                n6 + self.ma, [[(self.diag6, self.diag6), (self.jq_c, n6 + self.jq_r), (n6 + self.jq_r, self.jq_c)]]
            )
            self._kkt_pattern = pat
        try:
            return splu(pat.matrix(pat.data([[self.M, jq, jq]], [1.0])))
        except RuntimeError:
            return None

    def state_multipliers(self, t: float, Y: np.ndarray, fallback: np.ndarray) -> np.ndarray:
        """Multipliers of the active rows that the state (t, Y) calls for: the solution of
        [[M, Phi_q^T], [Phi_q, 0]] [v'; lam] = [Q; gamma] at the positions of Y and its velocities
        projected mass-orthogonally onto Phi_q v + Phi_t = 0 (an index-3 scheme leaves an O(h)
        velocity violation, which gamma would carry into lam). ``fallback`` where that matrix is
        singular. Y is not changed."""
        if self.ma == 0:
            return np.zeros(0)
        Yv = np.array(Y, dtype=float)
        ev = self._evaluate(t, Yv)
        lu = self._kkt_lu(ev["jq"])
        if lu is None:
            return fallback
        Yv[self.vel_slice] += lu.solve(np.concatenate([np.zeros(self.n6), -ev["rate"]]))[: self.n6]
        return self._kkt_multipliers(t, Yv, lu, fallback)

    def _kkt_multipliers(self, t, Y, lu, fallback):
        """lam of [[M, Phi_q^T], [Phi_q, 0]] [v'; lam] = [Q; gamma] at (t, Y), ``lu`` that matrix's LU at
        the positions of Y (Q and gamma are evaluated at Y's velocities); ``fallback`` if not finite."""
        ev = self._evaluate(t, Y)
        lam = lu.solve(np.concatenate([ev["Q"], ev["gamma"]]))[self.n6 :]
        return lam if np.all(np.isfinite(lam)) else fallback

    def _consistent_start(self, t, Y):
        """(v', lam) from [[M, Phi_q^T], [Phi_q, 0]] [v'; lam] = [Q; gamma]."""
        if self.ma == 0:
            return self._evaluate(t, Y)["Q"] / self.M, np.zeros(0)
        lu, ev = self._kkt(t, Y, "the multiplier system is singular")
        sol = lu.solve(np.concatenate([ev["Q"], self.W.gamma[self.active_rows]]))
        return sol[: self.n6], sol[self.n6 :]

    def _map_multipliers(self, t, Y, load):
        """Multipliers of the active rows whose constraint load Phi_q^T lam is closest to
        ``load`` (6N) in the M^-1 norm (equal to it when the rows span the same space)."""
        if self.ma == 0:
            return np.zeros(0)
        lu, _ = self._kkt(t, Y, "the multiplier system is singular")
        return lu.solve(np.concatenate([load, np.zeros(self.ma)]))[self.n6 :]

    def _project(self, t, Y) -> float:
        """Move Y in place onto Phi = 0 and Phi_q v + Phi_t = 0 of the active rows (:meth:`_close`);
        returns the largest position change [m or rad]. Raises SimulationError if the constraints
        cannot be closed."""
        if self.ma == 0:
            return 0.0
        closed, _, moved, failure = self._close(t, Y)
        if closed is None:
            self._singular(t, Y, failure)
        Y[:] = closed
        return moved

    def _close(self, t, Y):
        """A copy of Y moved onto Phi = 0 of the active rows by mass-orthogonal Gauss-Newton steps
        (Bayo's projections; one more after |Phi| <= PROJECTION_TOL, with the matrix at hand, leaves
        rounding), its velocities then projected onto Phi_q v + Phi_t = 0: (copy, LU of
        [[M, Phi_q^T], [Phi_q, 0]] at its positions (before that last step), largest position change
        [m or rad], None), or (None, None, 0, why) where the matrix is singular or the steps do not
        converge. Y is not changed."""
        n6, Yc = self.n6, np.array(Y, dtype=float)
        moved, prev = np.zeros(n6), np.inf
        for _ in range(PROJECTION_ITERATIONS):
            ev = self._evaluate(t, Yc)
            lu = self._kkt_lu(ev["jq"])
            if lu is None:
                return None, None, 0.0, "singular projection onto the constraints"
            err = np.max(np.abs(ev["phi"]))
            if not err < 0.5 * prev and prev < np.inf and err > PROJECTION_TOL:
                return None, None, 0.0, CLOSE_FAILED
            prev = err
            dx = lu.solve(np.concatenate([np.zeros(n6), -ev["phi"]]))[:n6]
            moved += dx
            ik.apply_increment(self.S.nb, Yc.copy(), dx, Yc)
            if err <= PROJECTION_TOL:  # closed; that last step (matrix at hand) left rounding only
                break
        else:
            return None, None, 0.0, CLOSE_FAILED
        rate = self._evaluate(t, Yc)["rate"]  # at the final positions
        Yc[self.vel_slice] += lu.solve(np.concatenate([np.zeros(n6), -rate]))[:n6]
        return Yc, lu, float(np.max(np.abs(moved))), None

    # ------------------------------------------------------------------ output
    def full_multipliers(self, t: float, Y: np.ndarray, lam: np.ndarray) -> np.ndarray:
        """Multipliers of all m rows: the active ones, or (rows left out of the solve) those
        of minimum norm sum_i C_ii lam_i^2 (C = Phi_q M^-1 Phi_q^T, the weighting the
        core's regularised Schur solve converges to) giving the same constraint load
        Phi_q^T lam."""
        full = np.zeros(self.m)
        full[self.active_rows] = lam
        if not self.redundant:
            return full
        _, J, _, _ = self.system.constraint_jacobian(t, Y)
        d = np.sqrt((J * J) @ self.system.static.minv.reshape(-1))
        d[d == 0] = 1.0
        # keep exactly `rank` singular directions: off the manifold (CROS: O(h^2)) the
        # redundant directions are only nearly singular and must still be cut
        U, sv, Vt = np.linalg.svd(J.T / d, full_matrices=False)
        r = min(self.rank, int(np.sum(sv > REDUNDANCY_TOL * sv[0])))
        mu = Vt[:r].T @ ((U[:, :r].T @ (J.T @ full)) / sv[:r])
        return mu / d

    def _publish(self, t, Y, lam):
        """Keep the multipliers of all rows at output time t for :meth:`multipliers`."""
        self._output = (t, self.full_multipliers(t, Y, lam))

    def multipliers(self, t: float, Y: np.ndarray) -> np.ndarray | None:
        """Multipliers of all m rows at the output time t (None if t is not the last output time)."""
        t_out, lam = self._output
        return lam if t_out == t else None

    def _singular(self, t, Y, what, phi=None):
        """Raise SimulationError naming the time and the worst joints: those with the
        largest violation phi (default: at (t, Y)) or, if all violations are tiny (a
        locked or singular position), those carrying the most nearly dependent
        direction of Phi_q at (t, Y)."""
        if phi is None:
            phi = self.system.constraint_residual(t, Y) if self.m else np.zeros(0)
        phi = np.nan_to_num(phi, nan=np.inf)
        worst = self.system.worst_joints(phi)
        label = "worst joints"
        if self.m and np.max(np.abs(phi)) < 1e-6:
            ratio, worst = self._weakest_direction(t, Y)
            label = (
                f"Phi_q is nearly rank-deficient (scaled s_min/s_max = {ratio:.2g} over the rows in the "
                f"solve); joints in the weakest direction"
            )
        names = ", ".join(f"'{n}' ({v:.3g})" for n, v in worst) or "none"
        raise SimulationError(f"{self.label}: {what} at t = {t:.6g} s; {label}: {names}", time=t, worst_joints=worst)

    def _weakest_direction(self, t, Y):
        """(s_min / s_max, [(joint, weight)]) of the active rows of the scaled dense Phi_q."""
        Js, _ = self._scaled_dense(t, Y)
        J = Js[self.active_rows]
        U, sv = singular_structure(J)
        u = np.abs(U[:, -1])  # the weakest left singular direction
        smin = sv[-1]
        w = np.zeros(len(self.model_owner_names))
        np.maximum.at(w, self.system.row_owner[self.active_rows], u)
        order = [k for k in np.argsort(-w) if w[k] > 0.1 * w.max()][:4]
        return smin / max(sv[0], 1e-300), [(self.model_owner_names[k], float(w[k])) for k in order]

    def _finish_output(self, t, Y, fallback=None):
        """Rank check, the published state and its multipliers at output time t (``fallback``,
        default the scheme's own, where the KKT matrix is singular). With ``PROJECT_OUTPUT`` the
        published state is Y closed onto the constraints (:meth:`_close`); the integration goes on
        from Y, whose violation is kept in ``integrated`` for the quality gate."""
        self._check_rank(t, Y)
        fallback = self.lam if fallback is None else fallback
        self._published = None
        if self.PROJECT_OUTPUT and self.ma:
            self.integrated.add(t, self.system.constraint_residual(t, Y))
            closed, lu, _, _ = self._close(t, Y)
            if closed is not None:
                self._published = (t, closed)
                self._publish(t, closed, self._kkt_multipliers(t, closed, lu, fallback))
                return
        self._publish(t, Y, self.state_multipliers(t, Y, fallback=fallback))

    def published_state(self, t: float, Y: np.ndarray) -> np.ndarray:
        """The state to record at output time t: Y closed onto the constraints (``PROJECT_OUTPUT``), else Y."""
        if self._published is not None and self._published[0] == t:
            return self._published[1]
        return Y
