"""CROS with the quaternions themselves as position unknowns (for the comparison of
docs/index3.md and bench/index3_study.py; production CROS uses local rotation-vector
increments, integrators.cros.CROSStepper).

Unknowns z = (r, p, v, w, lam[, mu]) with the kinematic relation p' = 1/2 E(p) w
(E(p) w = p (x) (0, w)); the forces and constraints depend on p through A(p/|p|), so
their p-derivatives are the rotation-vector derivatives of integrators.jacobians times
d(theta)/dp = 2 E(p)^T / |p|^2 (exact, also off the unit sphere). The unit norm is kept

* ``normalize``: by dividing p by |p| after every step, or
* ``constraint``: by a row (|p|^2 - 1)/2 = 0 with its own multiplier mu entering the
  kinematic relation p' = 1/2 E(p) w + p mu (GGL-type; mu = 0 on the exact solution).
"""

import numpy as np
from scipy.sparse.linalg import splu

from MBDWorkbench.solver.integrators.cros import CROSStepper
from MBDWorkbench.solver.integrators.dae import SparsePattern
from MBDWorkbench.solver.integrators.power import account_power

MODES = ("normalize", "constraint")


def quat_E(p):
    """E(p) (4, 3): p (x) (0, w) = E(p) w."""
    return np.array([[-p[1], -p[2], -p[3]], [p[0], -p[3], p[2]], [p[3], p[0], -p[1]], [-p[2], p[1], p[0]]])


def quat_Omega(w):
    """Omega(w) (4, 4): p (x) (0, w) = Omega(w) p."""
    return np.array([[0, -w[0], -w[1], -w[2]], [w[0], 0, w[2], -w[1]], [w[1], -w[2], 0, w[0]], [w[2], w[1], -w[0], 0]])


class CROSQuatStepper(CROSStepper):
    """CROS on quaternion coordinates with unit norm kept by ``mode`` (see module)."""

    def __init__(self, system, settings, t0, Y0, mode="normalize"):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        self.mode = mode
        self.label = f"CROS (quaternions, {mode})"
        super().__init__(system, settings, t0, Y0)
        nb, n6, ma = self.nb, self.n6, self.ma
        self.n7 = n7 = 7 * nb
        self.nmu = nb if mode == "constraint" else 0
        self.n = n7 + n6 + ma + self.nmu
        self.mu = np.zeros(self.nmu)
        Ki, Kj, _ = self.Kb
        Di, Dj, _ = self.Db
        self.k_src, k_col, self.k_w = self._expand(Kj[: self.nK])
        self.j_src, j_col, self.j_w = self._expand(self.jq_c)
        b4 = np.repeat(np.arange(nb), 4)
        prow = 7 * b4 + 3 + np.tile(np.arange(4), nb)
        self.prow = prow
        # kinematic blocks: r' = v (3 per body), p' = E w / 2 (+ p mu)
        rrow = (7 * np.arange(nb)[:, None] + np.arange(3)).reshape(-1)
        rcol = (6 * np.arange(nb)[:, None] + np.arange(3)).reshape(-1)
        self.ew_r = np.repeat(prow, 3)
        self.ew_c = n7 + np.tile((6 * np.arange(nb)[:, None] + 3 + np.arange(3)).reshape(nb, 1, 3), (1, 4, 1)).reshape(
            -1
        )
        self.om_r = np.repeat(prow, 4)
        self.om_c = (7 * b4[:, None] + 3 + np.arange(4)).reshape(-1)
        lam0 = n7 + n6
        plain = [
            (np.arange(n7), np.arange(n7)),
            (n7 + self.diag6, n7 + self.diag6),
            (n7 + self.jq_c, lam0 + self.jq_r),
            (lam0 + self.jq_r[self.j_src], j_col),
        ]
        times_ah = [
            (rrow, n7 + rcol),
            (self.ew_r, self.ew_c),
            (self.om_r, self.om_c),
            (n7 + Ki[: self.nK][self.k_src], k_col),
            (n7 + Di[: self.nD], n7 + Dj[: self.nD]),
        ]
        if mode == "constraint":
            mu0 = lam0 + ma
            plain += [(prow, mu0 + b4), (mu0 + b4, prow)]
        self.qpattern = SparsePattern(self.n, [plain, times_ah])
        self.ones_r = np.ones(3 * nb)

    def _expand(self, cols):
        """Map triplets with rotation-vector columns (6 per body) to quaternion columns
        (7 per body): (source index, new column, index into the weight vector)."""
        src, new, wsel = [], [], []
        for i, c in enumerate(cols):
            b, k = divmod(int(c), 6)
            if k < 3:
                src.append(i), new.append(7 * b + k), wsel.append(0)
            else:
                for j in range(4):
                    src.append(i), new.append(7 * b + 3 + j), wsel.append(1 + 12 * b + 3 * j + (k - 3))
        return np.array(src, np.int64), np.array(new, np.int64), np.array(wsel, np.int64)

    def _weights(self, Y):
        """[1, (2 E(p)^T / |p|^2)^T flattened per body]: d(theta)/dp."""
        w = [np.ones(1)]
        for b in range(self.nb):
            p = Y[7 * b + 3 : 7 * b + 7]
            w.append((2.0 * quat_E(p) / (p @ p)).reshape(-1))  # (4, 3) row-major: [j, k]
        return np.concatenate(w)

    def _solve(self, t, Y, h):
        c = self._cache
        if c is not None and c[0] == t and c[1] == h and np.array_equal(c[2], Y):
            return c[3], c[4]
        nb, n7 = self.nb, self.n7
        v = Y[self.vel_slice]
        self._set_lam(self.lam)
        ev = self._evaluate(t, Y, blocks=True)
        nK, nD = self._counts
        a = self.A_CROS
        W = self._weights(Y)
        jq = ev["jq"]
        P = Y[:n7].reshape(nb, 7)[:, 3:]
        wb = v.reshape(nb, 6)[:, 3:]
        E = np.array([quat_E(p) for p in P])  # (nb, 4, 3)
        Om = np.array([quat_Omega(w) for w in wb])  # (nb, 4, 4)
        mu = self.mu if self.mode == "constraint" else np.zeros(nb)
        plain = [np.ones(n7), self.M, jq, jq[self.j_src] * W[self.j_w]]
        times = [
            self.ones_r,
            0.5 * E.reshape(-1),
            (0.5 * Om + mu[:, None, None] * np.eye(4)).reshape(-1),
            self.Kb[2][:nK][self.k_src] * W[self.k_w],
            self.Db[2][:nD],
        ]
        Fp = 0.5 * np.einsum("bij,bj->bi", E, wb) + mu[:, None] * P
        rhs_extra = []
        if self.mode == "constraint":
            plain += [-P.reshape(-1), P.reshape(-1)]
            rhs_extra = [-(np.sum(P * P, axis=1) - 1.0) / (2 * a * h)]
        data = self.qpattern.data([plain, times], [1.0, -a * h])
        try:
            lu = splu(self.qpattern.matrix(data))
        except RuntimeError:
            self._singular(t, Y, "singular CROS iteration matrix")
        Fx = np.concatenate([v.reshape(nb, 6)[:, :3], Fp], axis=1).reshape(-1)
        Fv = ev["Q"] - self._jqT_matvec(jq, self.lam) + a * h * self.Qt
        phi_t = ev["rate"] - self._jq_matvec(jq, v)
        zeta = lu.solve(np.concatenate([Fx, Fv, -ev["phi"] / (a * h) - phi_t] + rhs_extra))
        if not np.all(np.isfinite(zeta)):
            self._singular(t, Y, "the CROS step produced NaN/infinite values")
        self._cache = (t, h, Y.copy(), zeta, ev)
        return zeta, ev

    def multipliers_at(self, zeta):
        lam0 = self.n7 + self.n6
        return self.lam + zeta[lam0 : lam0 + self.ma].real

    def step(self, t, Y, h, acc):
        n7, n6, nb, ma = self.n7, self.n6, self.nb, self.ma
        zeta, ev = self._solve(t, Y, h)
        if ma and np.max(np.abs(ev["phi"])) > self.PHI_MAX:
            self._singular(t, Y, f"the constraint violation exceeds {self.PHI_MAX:g}: CROS diverges")
        self.lam_hat = self.multipliers_at(zeta)
        account_power(acc, t, self._driver_power(ev, Y[self.vel_slice], self.lam_hat), ev["Pnc"])
        Y[:n7] += h * zeta[:n7].real
        Y[self.vel_slice] += h * zeta[n7 : n7 + n6].real
        a = self.A_CROS
        self.lam = self.lam + (zeta[n7 + n6 : n7 + n6 + ma] / a).real
        if self.mode == "constraint":
            self.mu = self.mu + (zeta[n7 + n6 + ma :] / a).real
        else:
            for b in range(nb):
                Y[7 * b + 3 : 7 * b + 7] /= np.linalg.norm(Y[7 * b + 3 : 7 * b + 7])
        self._cache = None
