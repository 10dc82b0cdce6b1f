"""Start of a run on large models (issue 14: a chain of 1000 links spent 77 s in dense linear
algebra before its first step). The sparse paths must decide exactly what the dense ones decide:
velocity projection against scipy's dense least squares, the full-rank certificate against the
singular values of the same scaled Jacobian; where the certificate cannot be given (dependent
rows) the dense decision is taken unchanged."""

import numpy as np
import pytest
import scipy.sparse

from bench.solver_speed import chain_dict as bench_chain_dict
from MBDWorkbench.solver import from_dict
from MBDWorkbench.solver.quality import constraint_rank
from MBDWorkbench.solver.system.assembly import project_velocities
from MBDWorkbench.solver.system.scaled_rank import (
    DENSE_RANK_SIZE,
    FULL_RANK_MARGIN,
    certainly_full_rank,
    relative_singular_values,
    scaled_constraint_jacobian,
    scaled_sparse_jacobian,
)
from MBDWorkbench.solver.system.system import System
from MBDWorkbench.solver.tolerances import RANK_TOL


def chain_dict(n: int, duplicate_last: bool = False) -> dict:
    """bench/solver_speed.py's chain of N revolute links; ``duplicate_last``: the last revolute
    twice (5 redundant equations)."""
    d = bench_chain_dict(n)
    if duplicate_last:
        d["joints"].append(dict(d["joints"][-1], name="R_again"))
    return d


def system_with_velocities(d: dict, seed: int = 3) -> tuple[System, np.ndarray]:
    """The model's system and its initial state with random body velocities (off the constraints)."""
    system = System(from_dict(d))
    Y = system.Y0.copy()
    Y[7 * system.nb :] = np.random.default_rng(seed).normal(size=6 * system.nb)
    return system, Y


def dense_projection(system: System, Y: np.ndarray) -> np.ndarray:
    """The mass-weighted least change of the velocities onto Phi_q v + rate = 0, densely."""
    _, J, _, rate = system.constraint_jacobian(0.0, Y)
    minv = system.static.minv.reshape(-1)
    mu = np.linalg.lstsq((J * minv) @ J.T, rate, rcond=1e-12)[0]
    out = Y.copy()
    out[7 * system.nb :] -= minv * (J.T @ mu)
    return out


@pytest.mark.parametrize("redundant", [False, True])
def test_velocity_projection_equals_the_dense_least_squares(redundant):
    system, Y = system_with_velocities(chain_dict(30, duplicate_last=redundant))
    got = project_velocities(system, Y)
    _, J, _, rate = system.constraint_jacobian(0.0, got)
    assert np.abs(J @ got[7 * system.nb :] + rate).max() < 1e-8  # on the constraints (velocities ~1 m/s)
    np.testing.assert_allclose(got, dense_projection(system, Y), atol=1e-9)


def test_full_rank_certificate_agrees_with_the_singular_values():
    system = System(from_dict(chain_dict(40)))
    J = scaled_constraint_jacobian(system, 0.0, system.Y0)
    assert J.size > DENSE_RANK_SIZE  # the large-model path
    s = relative_singular_values(J)
    assert s[-1] > 100 * RANK_TOL  # full rank with margin, by the SVD
    assert certainly_full_rank(J, RANK_TOL)
    rank = constraint_rank(system, system.Y0, 0.0)
    assert rank.rank == system.m and rank.redundant == [] and rank.over_driving == []


def test_no_certificate_for_dependent_rows_and_the_dense_decision_stands():
    system = System(from_dict(chain_dict(40, duplicate_last=True)))
    J = scaled_constraint_jacobian(system, 0.0, system.Y0)
    assert J.size > DENSE_RANK_SIZE and not certainly_full_rank(J, RANK_TOL)
    rank = constraint_rank(system, system.Y0, 0.0)
    assert rank.rank == system.m - 5 and len(rank.redundant) == 5


def test_no_certificate_within_the_margin():
    """Rows independent by the tolerance but with sigma_min / sigma_max below 100 x tol: the
    certificate is refused (the dense path decides)."""
    rng = np.random.default_rng(7)
    U, _ = np.linalg.qr(rng.normal(size=(60, 60)))
    V, _ = np.linalg.qr(rng.normal(size=(80, 80)))
    s = np.geomspace(1.0, 10 * RANK_TOL, 60)
    J = U @ np.diag(s) @ V[:60]
    assert not certainly_full_rank(J, RANK_TOL)
    assert certainly_full_rank(U @ np.diag(np.geomspace(1.0, 1e3 * RANK_TOL, 60)) @ V[:60], RANK_TOL)


@pytest.mark.parametrize("redundant", [False, True])
def test_index3_rank_setup_of_a_large_model_decides_as_the_svd(redundant):
    """The index-3 integrators' start (dae.rank_analysis): certified full rank without the
    dense SVD, and the same rows dropped as before when the model is redundant."""
    from MBDWorkbench.solver.integrators.dae import rank_analysis
    from MBDWorkbench.solver.tolerances import REDUNDANCY_TOL

    system = System(from_dict(chain_dict(40, duplicate_last=redundant)))
    rank, drop, involved = rank_analysis(system, 0.0, system.Y0)
    s = relative_singular_values(scaled_constraint_jacobian(system, 0.0, system.Y0))
    assert rank == int(np.sum(s > REDUNDANCY_TOL)) == system.m - (5 if redundant else 0)
    assert len(drop) == (5 if redundant else 0)
    if redundant:  # the duplicated joint's rows or the ones they duplicate
        owners = {system.owner_name(int(o)) for o in system.row_owner[drop]}
        assert owners <= {"R_again", "R39"}


def test_sparse_jacobian_equals_the_dense_one():
    system, Y = system_with_velocities(chain_dict(12, duplicate_last=True))
    dense, sparse = system.constraint_jacobian(0.3, Y), system.constraint_jacobian(0.3, Y, sparse=True)
    assert sparse[1].nnz <= 12 * system.m
    np.testing.assert_array_equal(sparse[1].toarray(), dense[1])
    for a, b in zip(dense[::2] + dense[3:], sparse[::2] + sparse[3:]):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(
        scaled_sparse_jacobian(system, 0.3, Y).toarray(), scaled_constraint_jacobian(system, 0.3, Y)
    )


@pytest.mark.parametrize("ratio", [3e-4, 3e-5, 3e-6, 3e-7])
def test_certificate_follows_the_singular_values_either_side_of_its_margin(ratio):
    """sigma_min / sigma_max at 3 x margin x tol and beyond: certified; at 0.3 x and below: not;
    dense and sparse input decide alike (the certificate's bound on sigma_max is at most sqrt(m)
    times too large, so between 1 and sqrt(m) times the margin either may hold)."""
    rng = np.random.default_rng(11)
    U, _ = np.linalg.qr(rng.normal(size=(40, 40)))
    V, _ = np.linalg.qr(rng.normal(size=(50, 50)))
    tol = 1e-6  # margin x tol = 1e-4
    J = U @ np.diag(np.geomspace(1.0, ratio, 40)) @ V[:40]
    got = certainly_full_rank(J, tol)
    assert got == certainly_full_rank(scipy.sparse.csr_matrix(J), tol)
    if ratio > 3 * np.sqrt(40) * FULL_RANK_MARGIN * tol:
        assert got
    if ratio < 0.3 * FULL_RANK_MARGIN * tol:
        assert not got


def test_large_model_start_builds_no_dense_jacobian(monkeypatch):
    """An index-3 run of a full-rank large model (assembly, start checks, the integrator's start)
    never builds the m x 6N array (a chain of 1000 links: 240 MB, 2 s)."""
    from MBDWorkbench.solver import simulate

    model = from_dict(chain_dict(40))
    assert System(model).m * 6 * 40 > DENSE_RANK_SIZE

    def refuse(self):
        raise AssertionError("dense Phi_q built")

    monkeypatch.setattr(System, "_dense_jacobian", refuse)
    for integrator in ("galpha", "cros"):
        res = simulate(model, integrator=integrator, t_end=0.01, step=1e-3, output_step=0.01)
        assert res.status == "completed"
