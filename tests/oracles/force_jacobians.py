"""Central differences of the generalized force, the independent check of the implicit
integrators' complex-step Jacobians (integrators/jacobians.py)."""

import numpy as np

from MBDWorkbench.solver import kernels
from MBDWorkbench.solver.integrators import jacobians as ik


def jacobians_match_central_differences(system, unpressed=(0.0, 0.0, 0.0)) -> None:
    """The complex-step Jacobians of the generalized force of ``system`` at its start (positions and
    velocities) against central differences of the kernels, within 1e-5 of their largest entry;
    first, that the contact pushes: the first body's force differs from ``unpressed`` [N] by > 1 N."""
    S, W, Y, t, n6 = system.static, system.work, system.Y0.copy(), 0.0, 6 * system.nb
    nK, nD = ik.triplet_capacity(S, 0)
    Kb = (np.zeros(nK, np.int64), np.zeros(nK, np.int64), np.zeros(nK))
    Db = (np.zeros(nD, np.int64), np.zeros(nD, np.int64), np.zeros(nD))
    nK, nD = ik.force_jacobians(t, Y, S, W, np.zeros(0), np.ones(0, bool), *Kb, *Db)
    K, D = np.zeros((n6, n6)), np.zeros((n6, n6))
    np.add.at(K, (Kb[0][:nK], Kb[1][:nK]), Kb[2][:nK])
    np.add.at(D, (Db[0][:nD], Db[1][:nD]), Db[2][:nD])

    def force(Yx):
        kernels.update_rotations(S, Yx, W.A)
        kernels.forces(t, Yx, S, W, W.Q)
        return W.Q.copy()

    assert np.abs(force(Y)[:3] - np.asarray(unpressed)).max() > 1.0  # pressed: the contact pushes
    eps, Kfd, Dfd = 1e-7, np.zeros((n6, n6)), np.zeros((n6, n6))
    for c in range(n6):
        e = np.zeros(n6)
        e[c] = eps
        plus, minus = np.empty_like(Y), np.empty_like(Y)
        ik.apply_increment(S.nb, Y, e, plus)
        ik.apply_increment(S.nb, Y, -e, minus)
        Kfd[:, c] = (force(plus) - force(minus)) / (2 * eps)
        Yp, Ym = Y.copy(), Y.copy()
        Yp[7 * system.nb + c] += eps
        Ym[7 * system.nb + c] -= eps
        Dfd[:, c] = (force(Yp) - force(Ym)) / (2 * eps)
    for exact, fd in ((K, Kfd), (D, Dfd)):
        assert np.abs(exact).max() > 1.0
        assert np.abs(exact - fd).max() < 1e-5 * np.abs(exact).max()
