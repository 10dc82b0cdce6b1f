"""Direct integration of the index-3 DAE  M v' = Q(q, v, t) - Phi_q^T lam,  Phi(q, t) = 0
(seed 003): the one-stage complex Rosenbrock scheme CROS and an adaptive Lie-group
generalized-alpha (Arnold-Bruls / Bruls-Cardona-Arnold) with Newton iterations.

Both work in a local chart per step: the position unknowns are the increments
x = [dr (global, m), dtheta (body frame, rad)] of each body, q = (r + dr, A exp(dtheta^)),
so quaternions stay unit by construction and no normalisation row or constraint is
needed (docs/index3.md compares this with the two quaternion-coordinate options).

Common parts (``_Index3Base``): input checks, rank analysis of Phi_q (redundant rows are
dropped from the solve, reported in ``system.warnings`` and their multipliers
redistributed with minimum norm at the output times), the consistent start (v', lam),
the sparse residual Jacobian (K = d(Q - Phi_q^T lam)/dx, D = dQ/dv by complex step,
index3_kernels) and the power accounting. ``system.lam_override`` hands the index-3
multipliers of the last output state to ``System.evaluate`` (hence to Results).
"""
import numpy as np
import scipy.linalg
from scipy.sparse import csc_matrix
from scipy.sparse.linalg import splu

from . import kernels
from . import index3_kernels as ik
from .assembly import assemble_positions, project_velocities
from .errors import AssemblyError, ModelError, SimulationError
from .integrators import ADAPTIVE, AdaptiveStepper, account_power

RANK_TOL = 1e-9          # singular values below RANK_TOL * s_max count as zero
RANK_CHECK_SIZE = 20000   # re-check the rank at every output time while m * 6N <= this
NEAR_SINGULAR = 1e-4     # s_min/s_max of the independent rows that triggers a warning


def make_stepper(system, settings, t0, Y0):
    """The index-3 stepper for settings.integrator ('cros' or 'galpha')."""
    check_settings(settings)
    if settings.integrator == "cros":
        return CROSStepper(system, settings, t0, Y0)
    if settings.integrator == "galpha":
        return GAlphaStepper(system, settings, t0, Y0)
    raise ModelError("settings.integrator", f"unknown index-3 integrator {settings.integrator!r}")


def check_settings(s):
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

    def __init__(self, n, groups):
        self.n = n
        keys = [np.concatenate([np.asarray(c, np.int64) * n + np.asarray(r, np.int64) for r, c in g]
                               + [np.zeros(0, np.int64)]) for g in groups]
        uniq, inv = np.unique(np.concatenate(keys), return_inverse=True)
        self.nnz = len(uniq)
        indices = (uniq % n).astype(np.int32)
        indptr = np.searchsorted(uniq // n, np.arange(n + 1)).astype(np.int32)
        self.inv = np.split(inv, np.cumsum([len(k) for k in keys])[:-1])
        self._A = {}
        self._struct = (indices, indptr)

    def data(self, groups, coefs):
        """CSC data for the group values (each a list of arrays) times coefficients."""
        out = 0.0
        for inv, vals, c in zip(self.inv, groups, coefs):
            if len(inv):
                out = out + c * np.bincount(inv, weights=np.concatenate(vals), minlength=self.nnz)
        return out

    def matrix(self, data):
        """The csc_matrix with this data (one object per dtype, reused)."""
        A = self._A.get(data.dtype)
        if A is None:
            A = self._A[data.dtype] = csc_matrix((data, *self._struct), shape=(self.n, self.n))
        else:
            A.data = data
        return A


# ----------------------------------------------------------------------------- rank analysis
def rank_analysis(system, t, Y):
    """(rank, redundant row indices to drop, rows involved in the redundancy) of the
    dense Phi_q at (t, Y). Driver rows are kept whenever possible."""
    m = system.m
    if m == 0:
        return 0, np.zeros(0, np.int64), np.zeros(0, np.int64)
    _, J, _, _ = system.constraint_jacobian(t, Y)
    U, s, _ = scipy.linalg.svd(J, full_matrices=True)
    smax = s[0] if len(s) else 0.0
    rank = int(np.sum(s > RANK_TOL * max(smax, 1e-300)))
    if rank == m:
        return rank, np.zeros(0, np.int64), np.zeros(0, np.int64)
    N = U[:, rank:]                       # left null space: N^T Phi_q = 0
    involved = np.nonzero(np.max(np.abs(N), axis=1) > 1e-8)[0]
    k = m - rank
    cand = np.nonzero(system.static.row_prog < 0)[0]
    if np.linalg.matrix_rank(N[cand]) < k:
        cand = np.arange(m)
    piv = scipy.linalg.qr(N[cand].T, pivoting=True, mode="economic")[2]
    return rank, np.sort(cand[piv[:k]]), involved


def owners_of(system, rows):
    """Sorted unique joint/driver names owning the given rows."""
    return sorted({system.owner_name(int(o)) for o in system.row_owner[rows]})


# ----------------------------------------------------------------------------- common base
class _Index3Base:
    """Shared set-up and evaluations of the index-3 integrators."""

    name = "index-3"

    def __init__(self, system, settings, t0, Y0):
        check_settings(settings)
        self.system, self.settings = system, settings
        self.S, self.W = system.static, system.work
        self.nb, self.m = system.nb, system.m
        self.steps = 0
        if not hasattr(system, "warnings"):
            system.warnings = []
        self._rank_setup(t0, Y0)
        self._index_maps()
        self.M = system.mass6.reshape(-1).copy()
        self.model_owner_names = ([j.name for j in system.model.joints]
                                  + [d.name for d in system.model.drivers])
        self.is_driver = self.S.row_prog[self.active_rows] >= 0
        Y = Y0.copy()
        kernels.normalize_quaternions(self.S, Y)
        self.vdot, self.lam = self._consistent_start(t0, Y)
        self._publish(t0, Y)

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
            self._warn(f"rank-deficient constraint Jacobian at t = {t0:g} s: {self.m} equations, rank "
                       f"{rank} ({len(drop)} redundant); joints involved: "
                       f"{', '.join(repr(n) for n in owners_of(self.system, involved))}; the redundant "
                       f"equations of {', '.join(repr(n) for n in owners_of(self.system, drop))} are "
                       f"dropped from the {self.name} solve and the multipliers are reported with "
                       f"minimum norm")

    def _warn(self, text):
        if text not in self.system.warnings:
            self.system.warnings.append(text)

    def _check_rank(self, t, Y):
        """Warn (once per episode) when the active rows of Phi_q become nearly dependent
        during the run (s_min/s_max < NEAR_SINGULAR): a singular or locking position is
        near. Output times of models with m 6N <= RANK_CHECK_SIZE only."""
        if not self._rank_checks or self.ma == 0:
            return
        ratio, worst = self._weakest_direction(t, Y)
        if ratio < NEAR_SINGULAR and not self._near_singular:
            names = ", ".join(f"'{n}'" for n, _ in worst)
            self._warn(f"the constraint Jacobian is nearly rank-deficient at t = {t:.6g} s (s_min/s_max = "
                       f"{ratio:.2g}); joints in the weakest direction: {names}")
        self._near_singular = ratio < 100 * NEAR_SINGULAR

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
        V, Pnc, nK, nD = ik.prepare(t, Y, S, W, self.lam_rows, self.active, self.jq_g, self.jq, self.Qt, blocks,
                                    *self.Kb, *self.Db, *self.Lb)
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
        pat = SparsePattern(n6 + ma, [[(self.diag6, self.diag6), (self.jq_c, n6 + self.jq_r),
                                       (n6 + self.jq_r, self.jq_c)]])
        A = pat.matrix(pat.data([[self.M, ev["jq"], ev["jq"]]], [1.0]))
        rhs = np.concatenate([ev["Q"], self.W.gamma[self.active_rows]])
        try:
            sol = splu(A).solve(rhs)
        except RuntimeError:
            self._singular(t, Y, "the initial multiplier system is singular")
        return sol[:n6], sol[n6:]

    # ------------------------------------------------------------------ output
    def full_multipliers(self, t, Y, lam):
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
        r = min(self.rank, int(np.sum(sv > RANK_TOL * sv[0])))
        mu = Vt[:r].T @ ((U[:, :r].T @ (J.T @ full)) / sv[:r])
        return mu / d

    def _publish(self, t, Y):
        """Hand the multipliers at (t, Y) to System.evaluate through system.lam_override."""
        self.system.lam_override = (t, self.full_multipliers(t, Y, self.lam))

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
            label = (f"Phi_q is nearly rank-deficient (s_min/s_max = {ratio:.2g} over the independent "
                     f"rows); joints in the weakest direction")
        names = ", ".join(f"'{n}' ({v:.3g})" for n, v in worst) or "none"
        raise SimulationError(f"{self.name}: {what} at t = {t:.6g} s; {label}: {names}",
                              time=t, worst_joints=worst)

    def _weakest_direction(self, t, Y):
        """(s_min / s_max, [(joint, weight)]) of the active rows of the dense Phi_q."""
        _, J, _, _ = self.system.constraint_jacobian(t, Y)
        J = J[self.active_rows]
        U, sv, _ = scipy.linalg.svd(J, full_matrices=True)
        u = np.abs(U[:, -1])                  # the weakest left singular direction
        smin = sv[-1] if len(sv) == J.shape[0] else 0.0
        w = np.zeros(len(self.model_owner_names))
        np.maximum.at(w, self.system.row_owner[self.active_rows], u)
        order = [k for k in np.argsort(-w) if w[k] > 0.1 * w.max()][:4]
        return smin / max(sv[0], 1e-300), [(self.model_owner_names[k], float(w[k])) for k in order]

    def _finish_output(self, t, Y):
        self._check_rank(t, Y)
        self._publish(t, Y)


# ----------------------------------------------------------------------------- CROS
class CROSStepper(_Index3Base):
    """One-stage complex Rosenbrock scheme CROS (seed 003, section 3), fixed step:
    (M_aug - (1+i)/2 h J) zeta = F + (1+i)/2 h F_t, z_{k+1} = z_k + h Re(zeta), with
    z = (x, v, lam); J = dF/dz exact (complex step) and sparse, complex sparse LU.

    Scaled unknowns: the multiplier part is solved as a h zeta_lam and the constraint
    rows are divided by -a h, so the matrix [[I - a h Jxx, -a h I, 0],
    [-a h K, M - a h D, Phi_q^T], [Phi_q, 0, 0]] stays well conditioned as h -> 0."""

    name = "CROS"
    A_CROS = 0.5 + 0.5j
    PHI_MAX = 0.1       # m or rad: a larger violation means the scheme has diverged

    def __init__(self, system, settings, t0, Y0):
        super().__init__(system, settings, t0, Y0)
        self.h = float(settings.step)
        n6, ma = self.n6, self.ma
        self.n = 2 * n6 + ma
        Ki, Kj, _ = self.Kb
        Di, Dj, _ = self.Db
        Li, Lj, _ = self.Lb
        d = self.diag6
        plain = [(d, d),                                      # I (x, x)
                 (n6 + d, n6 + d),                            # M (v, v)
                 (n6 + self.jq_c, 2 * n6 + self.jq_r),        # Phi_q^T (v, lam)
                 (2 * n6 + self.jq_r, self.jq_c)]             # Phi_q (lam, x)
        times_ah = [(Li, Lj),                                 # Jxx (x, x)
                    (d, n6 + d),                              # I (x, v)
                    (n6 + Ki[:self.nK], Kj[:self.nK]),        # K (v, x)
                    (n6 + Di[:self.nD], n6 + Dj[:self.nD])]   # D (v, v)
        self.pattern = SparsePattern(self.n, [plain, times_ah])
        self.ones6 = np.ones(n6)
        self._cache = None

    def _solve(self, t, Y, h):
        """zeta of the CROS step of size h at (t, Y, self.lam) and the evaluation there;
        the multiplier part is returned as a h zeta_lam. Cached for one (t, Y, h)."""
        c = self._cache
        if c is not None and c[0] == t and c[1] == h and np.array_equal(c[2], Y):
            return c[3], c[4]
        v = Y[self.vel_slice]
        self._set_lam(self.lam)
        ev = self._evaluate(t, Y, blocks=True)
        nK, nD = self._counts
        a = self.A_CROS
        jq = ev["jq"]
        data = self.pattern.data([[self.ones6, self.M, jq, jq],
                                  [self.Lb[2], self.ones6, self.Kb[2][:nK], self.Db[2][:nD]]], [1.0, -a * h])
        try:
            lu = splu(self.pattern.matrix(data))
        except RuntimeError:
            self._singular(t, Y, "singular CROS iteration matrix")
        Fv = ev["Q"] - self._jqT_matvec(jq, self.lam) + a * h * self.Qt
        phi_t = ev["rate"] - self._jq_matvec(jq, v)
        zeta = lu.solve(np.concatenate([v, Fv, -ev["phi"] / (a * h) - phi_t]))
        if not np.all(np.isfinite(zeta)):
            self._singular(t, Y, "the CROS step produced NaN/infinite values")
        self._cache = (t, h, Y.copy(), zeta, ev)
        return zeta, ev

    def multipliers_at(self, zeta):
        """Multipliers at t_k from the step's solve: Re(lam_k + a h zeta_lam) (see
        docs/index3.md; the scheme's own update lam_k + h Re(zeta_lam) carries an O(1)
        error -2 C^-1 Phi_k / h^2 and is kept only as the scheme's state)."""
        return self.lam + zeta[2 * self.n6:].real

    def step(self, t, Y, h, acc):
        """One CROS step of size h from (t, Y, self.lam), Y updated in place."""
        n6 = self.n6
        zeta, ev = self._solve(t, Y, h)
        if self.ma and np.max(np.abs(ev["phi"])) > self.PHI_MAX:
            self._singular(t, Y, f"the constraint violation exceeds {self.PHI_MAX:g}: CROS diverges "
                           f"(singular configuration or step too large)")
        self.lam_hat = self.multipliers_at(zeta)
        account_power(acc, t, self._driver_power(ev, Y[self.vel_slice], self.lam_hat), ev["Pnc"])
        ik.apply_increment(self.S, Y.copy(), h * zeta[:n6].real, Y)
        Y[self.vel_slice] += h * zeta[n6:2 * n6].real
        self.lam = self.lam + (zeta[2 * n6:] / self.A_CROS).real
        self._cache = None

    def advance(self, t, Y, t_next, acc):
        """Integrate Y in place from t to t_next with the fixed step (shortened to hit
        t_next); returns (t_next, OK) or raises SimulationError."""
        n = max(1, int(np.ceil((t_next - t) / self.h - 1e-9)))
        h = (t_next - t) / n
        for k in range(n):
            self.step(t + k * h, Y, h, acc)
            self.steps += 1
        self._check_rank(t_next, Y)
        zeta, _ = self._solve(t_next, Y, h)     # the next step's solve gives lam(t_next)
        self.system.lam_override = (t_next, self.full_multipliers(t_next, Y, self.multipliers_at(zeta)))
        return t_next, kernels.OK


# ----------------------------------------------------------------------------- generalized-alpha
class GAlphaStepper(_Index3Base):
    """Index-3 Lie-group generalized-alpha (Arnold & Bruls 2007, Bruls, Cardona & Arnold
    2012) with rho_inf as its one parameter, Newton iterations reusing the sparse LU of
    the iteration matrix [[M - gamma' h D - beta' h^2 K, Phi_q^T], [Phi_q, 0]] (constraint
    rows scaled by 1/(beta' h^2)), and step-size control from the local error estimate
    h^2 |beta - 1/6| |a_{n+1} - a_n| of the positions (Zienkiewicz-Xie)."""

    name = "generalized-alpha"
    MAX_NEWTON = 10
    NEWTON_TOL = 1e-8

    def __init__(self, system, settings, t0, Y0, adaptive=True):
        super().__init__(system, settings, t0, Y0)
        rho = float(settings.rho_inf)
        self.am = (2 * rho - 1) / (rho + 1)
        self.af = rho / (rho + 1)
        self.gamma = 0.5 + self.af - self.am
        self.beta = 0.25 * (self.gamma + 0.5) ** 2
        self.adaptive = adaptive
        self.h = self.h_min_ref = float(settings.step)
        self._fail_phi = None
        self.h_max = float(settings.output_step) if adaptive else float(settings.step)
        self.rtol, self.atol = float(settings.rtol), float(settings.atol)
        self.tol_phi = max(1e-3 * self.atol, 1e-13)
        self.a = self.vdot.copy()
        self.vdot_prev, self.h_prev, self.err_prev = None, None, 0.0
        self.rejected = 0
        self.newton_failures = 0
        self.factorizations = 0
        n6, ma = self.n6, self.ma
        Ki, Kj, _ = self.Kb
        Di, Dj, _ = self.Db
        d = self.diag6
        self.pattern = SparsePattern(n6 + ma, [[(d, d), (self.jq_c, n6 + self.jq_r), (n6 + self.jq_r, self.jq_c)],
                                               [(Di[:self.nD], Dj[:self.nD])], [(Ki[:self.nK], Kj[:self.nK])]])
        self.lu = None
        self.lu_h = None

    # ------------------------------------------------------------------ Newton
    def _factorize(self, t, Y, h):
        """Sparse LU of the iteration matrix at (t, Y, self.lam_new) for step h."""
        bp = self.beta * (1 - self.af) / (1 - self.am)
        gp = self.gamma * (1 - self.af) / (1 - self.am)
        self._set_lam(self.lam_new)
        ev = self._evaluate(t, Y, blocks=True)
        nK, nD = self._counts
        jq = ev["jq"]
        data = self.pattern.data([[self.M, jq, jq], [self.Db[2][:nD]], [self.Kb[2][:nK]]],
                                 [1.0, -gp * h, -bp * h * h])
        try:
            self.lu = splu(self.pattern.matrix(data))
        except RuntimeError:
            self._singular(t, Y, "singular generalized-alpha iteration matrix")
        self.lu_h = h
        self.factorizations += 1

    def _scale(self, Y):
        """Error weights of the position increments: atol + rtol |r| (m), atol + rtol (rad)."""
        r = np.abs(Y[:7 * self.nb].reshape(self.nb, 7)[:, :3])
        sc = np.ones((self.nb, 6))
        sc[:, :3] = r
        return self.atol + self.rtol * sc.reshape(-1)

    def _try_step(self, t, Y, h):
        """Newton solve of one step of size h; returns (Y_new, v'_new, a_n used, a_new,
        lam_new, evaluation at Y_new), or None if the iterations fail (self._fresh tells whether
        the factorisation was new)."""
        am, af, g, b = self.am, self.af, self.gamma, self.beta
        n6, nb = self.n6, self.nb
        cfac = (1 - af) / (1 - am)
        bp, gp = b * cfac, g * cfac
        v0 = Y[self.vel_slice].copy()
        vdot = self.vdot.copy()
        a0 = self._a_start(h)
        a_new = (af * self.vdot - am * a0 + (1 - af) * vdot) / (1 - am)
        v = v0 + h * (1 - g) * a0 + h * g * a_new
        dq = v0 + h * (0.5 - b) * a0 + h * b * a_new
        self.lam_new = self.lam.copy()
        Yn = np.empty_like(Y)
        sc = self._scale(Y)
        t1 = t + h
        self._fresh = False
        if self.lu is None or not 0.7 < h / self.lu_h < 1.4:
            ik.apply_increment(self.S, Y, h * dq, Yn)
            Yn[self.vel_slice] = v
            self._factorize(t1, Yn, h)
            self._fresh = True
        prev = np.inf
        corr = np.inf
        # rounding of Phi (~eps |q|) is amplified by the 1/(beta' h^2) row scaling
        floor = 100 * np.finfo(float).eps * (1.0 + np.max(np.abs(Y[:7 * nb]))) / (bp * h * h)
        for it in range(self.MAX_NEWTON):
            ik.apply_increment(self.S, Y, h * dq, Yn)
            Yn[self.vel_slice] = v
            ev = self._evaluate(t1, Yn)
            self._fail_phi = self.W.phi.copy()
            if not (np.all(np.isfinite(ev["Q"])) and np.all(np.isfinite(ev["phi"]))):
                return None
            if it > 0 and corr < 1.0 and (self.ma == 0 or np.max(np.abs(ev["phi"])) <= self.tol_phi):
                return Yn, vdot, a0, a_new, self.lam_new.copy(), ev
            rq = self.M * vdot - ev["Q"] + self._jqT_matvec(ev["jq"], self.lam_new)
            rhs = -np.concatenate([rq, ev["phi"] / (bp * h * h)])
            sol = self.lu.solve(rhs)
            dv = sol[:n6]
            # converged when the acceleration correction is below NEWTON_TOL relative
            # (so the multipliers are accurate too) and the implied position change is
            # far below the error tolerance
            corr = max(np.max(np.abs(dv)) / (self.NEWTON_TOL * (1.0 + np.max(np.abs(vdot))) + floor),
                       1e3 * np.sqrt(np.mean((bp * h * h * dv / sc) ** 2)))
            if not np.isfinite(corr) or (it > 1 and corr > 0.9 * prev):
                break
            prev = corr
            vdot += dv
            a_new += cfac * dv
            v += h * gp * dv
            dq += h * bp * dv
            self.lam_new += sol[n6:]
        return None

    def step(self, t, Y, h_limit, acc):
        """One accepted step of at most h_limit (retrying with smaller h after a Newton
        failure or a rejected error estimate); returns the step taken."""
        h = h_limit
        rejected = False
        while True:
            if h < 1e-14 * max(1.0, abs(t)) or h < 1e-6 * self.h_min_ref:
                self._singular(t, Y, f"Newton iterations do not converge even with a step of {h:.3g} s "
                               f"(locked or singular configuration?)", phi=self._fail_phi)
            out = self._try_step(t, Y, h)
            if out is None:
                if not self._fresh:             # stale factorisation: refactor and retry
                    self.lu = None
                    continue
                self.lu = None
                self.newton_failures += 1
                h *= 0.25
                continue
            Yn, vdot, a0, a_new, lam, ev = out
            err = self._error(Y, a0, a_new, h)
            if self.adaptive and err > 1.0:
                self.rejected += 1
                rejected = True
                h *= max(0.2, 0.8 * err ** (-1.0 / 3.0))
                continue
            break
        Y[:] = Yn
        self.vdot_prev, self.h_prev = self.vdot, h
        self.vdot, self.a, self.lam = vdot, a_new, lam
        account_power(acc, t + h, self._driver_power(ev, Y[self.vel_slice], lam), ev["Pnc"])
        if self.adaptive:
            self._control(h, err, rejected)
        return h

    def _control(self, h, err, rejected):
        """New desired step from the error estimate. The larger of the last two
        estimates damps the step-to-step zig-zag of the pseudo-accelerations, and changes
        below 25 % are not made: every change of step excites the spurious
        (-rho_inf)^n mode of the index-3 multipliers."""
        fac = min(2.0, max(0.2, 0.85 * max(err, self.err_prev, 1e-12) ** (-1.0 / 3.0)))
        self.err_prev = err
        if rejected:
            fac = min(fac, 1.0)
        if fac < 0.8 or rejected:
            self.h = h * fac
        elif fac > 1.25:
            self.h = min(max(self.h, h) * fac, self.h_max)

    def _a_start(self, h):
        """a_n for a step of size h: a_n approximates v'(t_n + (alpha_m - alpha_f) h), so
        after a change of step it is shifted by (alpha_m - alpha_f) (h - h_prev) v''."""
        if self.h_prev is None or h == self.h_prev:
            return self.a
        jerk = (self.vdot - self.vdot_prev) / self.h_prev
        return self.a + (self.am - self.af) * (h - self.h_prev) * jerk

    def _error(self, Y, a0, a_new, h):
        """Weighted RMS of the local position error estimate (<= 1: accept)."""
        e = h * h * abs(self.beta - 1.0 / 6.0) * (a_new - a0)
        return float(np.sqrt(np.mean((e / self._scale(Y)) ** 2))) if len(e) else 0.0

    def advance(self, t, Y, t_next, acc):
        """Integrate Y in place from t to t_next; returns (t_next, OK) or raises
        SimulationError (simulate keeps the results so far)."""
        if self.steps == 0:
            ev = self._evaluate(t, Y)
            account_power(acc, t, self._driver_power(ev, Y[self.vel_slice], self.lam), ev["Pnc"])
        eps = 1e-12 * max(1.0, abs(t_next))
        while t < t_next - eps:      # equal steps of at most self.h up to the output time
            rest = t_next - t
            h = self.step(t, Y, rest / max(1, int(np.ceil(rest / self.h - 1e-9))), acc)
            t = t_next if abs(t_next - (t + h)) <= eps else t + h
            self.steps += 1
        self._finish_output(t_next, Y)
        return t_next, kernels.OK


# ----------------------------------------------------------------------------- projection
def project_state(system, Y, t):
    """Project positions onto Phi = 0 (Gauss-Newton, minimum-norm steps) and velocities
    onto Phi_q v = -Phi_t (mass-weighted); Y is modified in place."""
    try:
        Yp = assemble_positions(system, Y, t, tol=1e-11)
    except AssemblyError as e:
        raise SimulationError(f"projection failed at t = {t:.6g} s: {e}", time=t, worst_joints=e.worst) from None
    Y[:] = project_velocities(system, Yp, t)


def project_after_output(system, settings, stepper, t, Y):
    """The settings.projection option of the ODE-form integrators: project Y at an
    output time; SciPy's adaptive steppers are restarted from the projected state.
    Returns the stepper to continue with (index-3 integrators are left alone)."""
    if not settings.projection or settings.integrator in ("cros", "galpha"):
        return stepper
    project_state(system, Y, t)
    if settings.integrator in ADAPTIVE:
        steps = stepper.steps
        stepper = AdaptiveStepper(system, settings.integrator, settings.rtol, settings.atol, settings.step,
                                  t, Y, settings.t_end)
        stepper.steps = steps
    return stepper


# ----------------------------------------------------------------------------- System hook
def apply_lam_override(system, t, Pdrv):
    """Called by System.evaluate: if an index-3 stepper published multipliers for time t
    (system.lam_override = (t, lam)), put them in system.work.lam (so Results reports them
    as reactions and driver efforts) and return the driver power they deliver [W];
    otherwise return Pdrv (the ODE-form value) unchanged."""
    t_o, lam = system.lam_override
    if t_o != t or len(lam) != system.m:
        return Pdrv
    w = system.work
    w.lam[:] = lam
    drv = np.nonzero(system.static.row_prog >= 0)[0]
    fd = np.array([system.programs[system.static.row_prog[r]](t)[1] for r in drv])
    return float(-np.sum(lam[drv] * (w.rate[drv] + fd))) if len(drv) else 0.0
