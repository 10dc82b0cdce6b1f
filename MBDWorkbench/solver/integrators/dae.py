"""The shared part of the index-3 integrators (:mod:`.cros`, :mod:`.galpha`), which integrate
M v' = Q(q, v, t) - Phi_q^T lam,  Phi(q, t) = 0  directly ([R3]; docs/index3.md).

Both work in a local chart per step: the position unknowns are the increments
x = [dr (global, m), dtheta (body frame, rad)] of each body, q = (r + dr, A exp(dtheta^)),
so quaternions stay unit by construction and no normalisation row or constraint is
needed (docs/index3.md compares this with the two quaternion-coordinate options).

Common parts (:class:`Index3Stepper`): input checks, rank analysis of Phi_q (redundant rows
are dropped from the solve, reported in ``warnings`` and their multipliers redistributed
with minimum norm at the output times), the consistent start (v', lam), the sparse
residual Jacobian (K = d(Q - Phi_q^T lam)/dx, D = dQ/dv by complex step, :mod:`.jacobians`),
the power accounting and the multipliers of the last output state (``multipliers``).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
from scipy.sparse import csc_matrix
from scipy.sparse.linalg import splu

from .. import kernels
from ..errors import ModelError, SimulationError
from ..tolerances import INDEX3_NEAR_SINGULAR, REDUNDANCY_TOL
from . import jacobians as ik
from .base import Stepper

RANK_CHECK_SIZE = 20000  # re-check the rank at every output time while m * 6N <= this


def check_settings(s) -> None:
    """Reject non-positive steps/tolerances and rho_inf outside [0, 1] (ModelError)."""
    for key in ("step", "rtol", "atol", "output_step", "t_end"):
        v = getattr(s, key)
        if not (isinstance(v, (int, float)) and np.isfinite(v) and v > 0):
            raise ModelError(f"settings.{key}", f"must be a positive number, got {v!r}")
    rho = s.rho_inf
    if not (isinstance(rho, (int, float)) and 0.0 <= rho <= 1.0):
        raise ModelError("settings.rho_inf", f"must lie in [0, 1], got {rho!r}")


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
        self._struct = (indices, indptr)

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
            A = self._A[data.dtype] = csc_matrix((data, *self._struct), shape=(self.n, self.n))
        else:
            A.data = data
        return A


# ----------------------------------------------------------------------------- rank analysis
def rank_analysis(system, t: float, Y: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(rank, redundant row indices to drop, rows involved in the redundancy) of the
    dense Phi_q at (t, Y). Driver rows are kept whenever possible."""
    m = system.m
    if m == 0:
        return 0, np.zeros(0, np.int64), np.zeros(0, np.int64)
    _, J, _, _ = system.constraint_jacobian(t, Y)
    U, s, _ = scipy.linalg.svd(J, full_matrices=True)
    smax = s[0] if len(s) else 0.0
    rank = int(np.sum(s > REDUNDANCY_TOL * max(smax, 1e-300)))
    if rank == m:
        return rank, np.zeros(0, np.int64), np.zeros(0, np.int64)
    N = U[:, rank:]  # left null space: N^T Phi_q = 0
    involved = np.nonzero(np.max(np.abs(N), axis=1) > 1e-8)[0]
    k = m - rank
    cand = np.nonzero(system.static.row_prog < 0)[0]
    if np.linalg.matrix_rank(N[cand]) < k:
        cand = np.arange(m)
    piv = scipy.linalg.qr(N[cand].T, pivoting=True, mode="economic")[2]
    return rank, np.sort(cand[piv[:k]]), involved


def owners_of(system, rows: np.ndarray) -> list[str]:
    """Sorted unique joint/driver names owning the given rows."""
    return sorted({system.owner_name(int(o)) for o in system.row_owner[rows]})


# ----------------------------------------------------------------------------- common base
class Index3Stepper(Stepper):
    """Shared set-up and evaluations of the index-3 integrators."""

    def __init__(self, system, settings, t0: float, Y0: np.ndarray) -> None:
        check_settings(settings)
        super().__init__(system, settings, t0, Y0)
        self.S, self.W = system.static, system.work
        self.nb, self.m = system.nb, system.m
        self._rank_setup(t0, Y0)
        self._index_maps()
        self.M = system.mass6.reshape(-1).copy()
        self.model_owner_names = [j.name for j in system.model.joints] + [d.name for d in system.model.drivers]
        self.is_driver = self.S.row_prog[self.active_rows] >= 0
        Y = Y0.copy()
        kernels.normalize_quaternions(self.S, Y)
        self.vdot, self.lam = self._consistent_start(t0, Y)
        self._publish(t0, Y, self.lam)

    # ------------------------------------------------------------------ rank
    def _rank_setup(self, t0, Y0):
        rank, drop, involved = rank_analysis(self.system, t0, Y0)
        self.rank = rank
        self.active = np.ones(self.m, bool)
        self.active[drop] = False
        self.active_rows = np.nonzero(self.active)[0]
        self.ma = len(self.active_rows)
        self.redundant = len(drop) > 0
        self._rank_checks = self.m * 6 * self.nb <= RANK_CHECK_SIZE
        self._near_singular = False
        if self.redundant:
            self.warn(
                "redundant",
                f"rank-deficient constraint Jacobian at t = {t0:g} s: {self.m} equations, rank "
                f"{rank} ({len(drop)} redundant); joints involved: "
                f"{', '.join(repr(n) for n in owners_of(self.system, involved))}; the redundant "
                f"equations of {', '.join(repr(n) for n in owners_of(self.system, drop))} are "
                f"dropped from the {self.label} solve and the multipliers are reported with "
                f"minimum norm",
                t0,
                owners_of(self.system, involved),
            )

    def _check_rank(self, t, Y):
        """Warn (once per episode) when the active rows of Phi_q become nearly dependent
        during the run (s_min/s_max < INDEX3_NEAR_SINGULAR): a singular or locking position is
        near. Output times of models with m 6N <= RANK_CHECK_SIZE only."""
        if not self._rank_checks or self.ma == 0:
            return
        ratio, worst = self._weakest_direction(t, Y)
        if ratio < INDEX3_NEAR_SINGULAR and not self._near_singular:
            names = ", ".join(f"'{n}'" for n, _ in worst)
            self.warn(
                "near_singular",
                f"the constraint Jacobian is nearly rank-deficient at t = {t:.6g} s (s_min/s_max = "
                f"{ratio:.2g}); joints in the weakest direction: {names}",
                t,
                tuple(n for n, _ in worst),
            )
        self._near_singular = ratio < 100 * INDEX3_NEAR_SINGULAR

    # ------------------------------------------------------------------ index maps
    def _index_maps(self):
        """Triplet index arrays of Phi_q restricted to the active rows, and the buffers
        of ik.prepare."""
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
        self.n6 = n6 = 6 * nb
        self.diag6 = np.arange(n6)
        self.vel_slice = slice(7 * nb, 13 * nb)
        nK, nD = ik.triplet_capacity(S, self.ma)
        self.Kb = (np.zeros(nK, np.int64), np.zeros(nK, np.int64), np.zeros(nK))
        self.Db = (np.zeros(nD, np.int64), np.zeros(nD, np.int64), np.zeros(nD))
        self.Lb = (np.zeros(9 * nb, np.int64), np.zeros(9 * nb, np.int64), np.zeros(9 * nb))
        self.lam_rows = np.zeros(self.m)
        self.Qt = np.zeros(n6)
        self.jq = np.zeros(len(gather))
        self._evaluate(0.0, self.system.Y0, blocks=True)
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
        return dict(Q=W.Q.copy(), jq=self.jq.copy(), phi=W.phi[a], rate=W.rate[a], V=V, Pnc=Pnc)

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

    def _consistent_start(self, t, Y):
        """(v', lam) from [[M, Phi_q^T], [Phi_q, 0]] [v'; lam] = [Q; gamma]."""
        ev = self._evaluate(t, Y)
        n6, ma = self.n6, self.ma
        if ma == 0:
            return ev["Q"] / self.M, np.zeros(0)
        pat = SparsePattern(
            n6 + ma, [[(self.diag6, self.diag6), (self.jq_c, n6 + self.jq_r), (n6 + self.jq_r, self.jq_c)]]
        )
        A = pat.matrix(pat.data([[self.M, ev["jq"], ev["jq"]]], [1.0]))
        rhs = np.concatenate([ev["Q"], self.W.gamma[self.active_rows]])
        try:
            sol = splu(A).solve(rhs)
        except RuntimeError:
            self._singular(t, Y, "the initial multiplier system is singular")
        return sol[:n6], sol[n6:]

    # ------------------------------------------------------------------ output
    def full_multipliers(self, t: float, Y: np.ndarray, lam: np.ndarray) -> np.ndarray:
        """Multipliers of all m rows: the active ones, or (redundant constraints) those
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
            phi = self.system.constraint_jacobian(t, Y)[0] if self.m else np.zeros(0)
        phi = np.nan_to_num(phi, nan=np.inf)
        worst = self.system.worst_joints(phi)
        label = "worst joints"
        if self.m and np.max(np.abs(phi)) < 1e-6:
            ratio, worst = self._weakest_direction(t, Y)
            label = (
                f"Phi_q is nearly rank-deficient (s_min/s_max = {ratio:.2g} over the independent "
                f"rows); joints in the weakest direction"
            )
        names = ", ".join(f"'{n}' ({v:.3g})" for n, v in worst) or "none"
        raise SimulationError(f"{self.label}: {what} at t = {t:.6g} s; {label}: {names}", time=t, worst_joints=worst)

    def _weakest_direction(self, t, Y):
        """(s_min / s_max, [(joint, weight)]) of the active rows of the dense Phi_q."""
        _, J, _, _ = self.system.constraint_jacobian(t, Y)
        J = J[self.active_rows]
        U, sv, _ = scipy.linalg.svd(J, full_matrices=True)
        u = np.abs(U[:, -1])  # the weakest left singular direction
        smin = sv[-1] if len(sv) == J.shape[0] else 0.0
        w = np.zeros(len(self.model_owner_names))
        np.maximum.at(w, self.system.row_owner[self.active_rows], u)
        order = [k for k in np.argsort(-w) if w[k] > 0.1 * w.max()][:4]
        return smin / max(sv[0], 1e-300), [(self.model_owner_names[k], float(w[k])) for k in order]

    def _finish_output(self, t, Y):
        self._check_rank(t, Y)
        self._publish(t, Y, self.lam)
