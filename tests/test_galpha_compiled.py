"""The compiled step loop of generalized-alpha (solver/integrators/galpha_kernel.py): its band LU
against a dense solve, the band layout of a chain (O(N) per step), the compiled steps against the
Python steps (GAlphaStepper(compiled=False), SciPy's sparse LU) on the same model and h, and the
compound pendulum against its minimal-coordinate ODE (tests/oracles/pendulum.py)."""

import os

import numpy as np
import pytest
from oracles import pendulum as pend_oracle

from bench.solver_speed import chain
from bench.study.index3_models import four_bar, slider_crank
from MBDWorkbench.solver import load
from MBDWorkbench.solver.integrators import galpha_kernel as gk
from MBDWorkbench.solver.integrators.galpha import GAlphaStepper
from MBDWorkbench.solver.system.assembly import assemble_initial_state
from MBDWorkbench.solver.system.system import System

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def random_band_matrix(n, kl, ku, rng):
    """A nonsingular n x n band matrix with zero diagonal entries in every third row (as the
    constraint rows of a KKT matrix), so that the LU must pivot."""
    A = np.zeros((n, n))
    for i in range(n):
        for j in range(max(0, i - kl), min(n, i + ku + 1)):
            A[i, j] = rng.standard_normal()
        if i % 3 == 2:
            A[i, i] = 0.0
    return A


def test_band_lu_solves_as_a_dense_solve():
    rng = np.random.default_rng(3)
    n, kl, ku = 40, 4, 3
    A = random_band_matrix(n, kl, ku, rng)
    rows, cols = np.nonzero(A)
    position, kl2, ku2 = gk.band_layout(rows, cols, n)
    lu = gk.BandLU(n, position, kl2, ku2)
    for i, j in zip(rows, cols):
        lu.AB[position[i], position[j] - position[i] + kl2] = A[i, j]
    assert gk.band_lu(lu.AB, kl2, ku2, lu.piv)
    b = rng.standard_normal(n)
    x = lu.solve(b)
    assert np.abs(x - np.linalg.solve(A, b)).max() < 1e-10 * np.abs(x).max()
    assert np.any(lu.piv[0] != np.arange(n))  # the zero diagonal entries needed row interchanges


def sparse_kkt_in_band(blocks, rng, dtype=float):
    """A nonsingular saddle-point matrix [[Mb, G^T], [G, 0]] coupling neighbouring blocks of 3
    unknowns with 2 rows each (a chain's pattern, mostly zero inside its band), complex if asked."""
    n6 = 3 * blocks
    m = 2 * blocks
    Mb = np.diag(1.0 + rng.random(n6)).astype(dtype)
    for b in range(blocks - 1):  # coupling of neighbouring blocks (a joint's stiffness)
        Mb[3 * b, 3 * b + 3] = Mb[3 * b + 3, 3 * b] = 0.1 * rng.standard_normal()
    if dtype is complex:
        Mb = Mb + 0.1j * np.diag(rng.random(n6))
    G = np.zeros((m, n6))
    for b in range(blocks):
        cols = list(range(3 * b, 3 * b + 3)) + (list(range(3 * b - 3, 3 * b)) if b else [])
        G[2 * b : 2 * b + 2, cols] = rng.standard_normal((2, len(cols)))
    return np.block([[Mb, G.T], [G, np.zeros((m, m))]])


def factor_in_band(A):
    """(AB, piv, position, kl, ku): the band LU (:func:`gk.band_lu`) of the dense matrix A, stored
    in the reverse Cuthill-McKee band order of its pattern; asserts that it is not singular."""
    n = A.shape[0]
    rows, cols = np.nonzero(A)
    position, kl, ku = gk.band_layout(rows, cols, n)
    AB = np.zeros((n, 2 * kl + ku + 1), A.dtype)
    AB[position[rows], position[cols] - position[rows] + kl] = A[rows, cols]
    piv = gk.band_pivots(n)
    assert gk.band_lu(AB, kl, ku, piv)
    return AB, piv, position, kl, ku


def solve_in_band(factors, b):
    """A^-1 b with the factors of :func:`factor_in_band` (gk.solve_permuted)."""
    AB, piv, position, kl, ku = factors
    x, buf = np.empty(len(b), AB.dtype), np.empty(len(b), AB.dtype)
    gk.solve_permuted(AB, kl, ku, piv, position, np.asarray(b, AB.dtype), x, buf)
    return x


@pytest.mark.parametrize("dtype", [float, complex])
def test_band_lu_skips_the_zeros_of_a_sparse_band_and_solves_as_a_dense_solve(dtype):
    """A chain-like KKT matrix (most of its band zero): the factors with the reaches solve as
    NumPy's dense solve, and the reaches are shorter than the full band (the skipped work)."""
    rng = np.random.default_rng(11)
    A = sparse_kkt_in_band(30, rng, dtype)
    n = A.shape[0]
    AB, piv, position, kl, ku = factors = factor_in_band(A)
    b = rng.standard_normal(n).astype(dtype)
    x = solve_in_band(factors, b)
    assert np.abs(x - np.linalg.solve(A, b)).max() < 1e-10 * np.abs(x).max()
    k = np.arange(n)
    assert np.any(piv[0] != k)
    assert np.all(piv[1] >= k) and np.all(piv[2] >= k)
    assert np.mean(piv[1] - k) < 0.75 * (kl + ku)  # U's rows end well inside the band
    assert np.mean(piv[2] - k) < 0.75 * kl  # ... and so do L's columns
    # every entry beyond a row's reach is zero in the factors (what the solve leaves out)
    for i in range(n):
        assert not np.any(AB[i, piv[1, i] - i + kl + 1 :])


def test_band_lu_reports_a_singular_matrix():
    A = np.eye(5)
    A[:, 2] = 0.0
    AB = np.zeros((5, 5))
    for i in range(5):
        for j in range(max(0, i - 1), min(5, i + 2)):
            AB[i, j - i + 1] = A[i, j]
    assert not gk.band_lu(AB, 1, 1, gk.band_pivots(5))


def started(model, adaptive=False, compiled=True):
    system = System(model)
    Y, _ = assemble_initial_state(system, system.Y0.copy())
    return system, Y, GAlphaStepper(system, model.settings, 0.0, Y, adaptive=adaptive, compiled=compiled)


def test_chain_bandwidth_does_not_grow_with_the_number_of_links():
    widths = [started(chain(n))[2].band.band.tolist() for n in (4, 40)]
    assert widths[0] == widths[1]
    assert max(widths[0]) <= 24  # 6 velocities and 5 revolute rows per link


def integrate(model, adaptive, compiled, t_end, out):
    system, Y, stepper = started(model, adaptive, compiled)
    acc, lams, t = np.zeros(6), [], 0.0
    while t < t_end - 1e-12:
        t, _ = stepper.advance(t, Y, min(t + out, t_end), acc)
        lams.append(stepper.multipliers(t, Y))
    return Y, np.array(lams), acc, stepper


@pytest.mark.parametrize("adaptive", [False, True])
@pytest.mark.parametrize(
    "make", [lambda: chain(3), lambda: slider_crank(), lambda: four_bar()], ids=["chain", "slider_crank", "four_bar"]
)
def test_compiled_steps_match_the_python_steps(make, adaptive):
    """Same model, same h: the compiled loop does the iterations of the Python one (same steps and
    factorisations; the four-bar has three redundant rows, the slider-crank a driver and a
    spring)."""
    Yc, lc, ac, sc = integrate(make(), adaptive, True, 0.4, 0.02)
    Yp, lp, ap, sp = integrate(make(), adaptive, False, 0.4, 0.02)
    assert sc.steps == sp.steps and sc.factorizations == sp.factorizations and sc.rejected == sp.rejected
    # the two LUs round differently (SciPy's sparse LU and the band LU): a convergence test on the edge
    # may take one more iteration, and a step whose Newton stalls is accepted once its position
    # correction is below 1e-3 of the error weights, where each LU's rounding left its accelerations
    # (the chain has 49 such steps). So the loops agree to the Newton tolerance, not to rounding: the
    # state and the work in acc to 1e-6 relative, the multipliers to 1e-4 relative (at t = 0.16 s on the
    # chain they differ by 1e-3 N of 10.5 N, after a stalled step; it decays by the next output).
    assert abs(sc.newton_evaluations - sp.newton_evaluations) <= 0.01 * sp.newton_evaluations
    assert np.abs(Yc - Yp).max() < 1e-6 * max(1.0, np.abs(Yp).max())
    assert np.abs(lc - lp).max() < 1e-4 * max(1.0, np.abs(lp).max())
    assert np.abs(ac - ap).max() < 1e-6 * max(1.0, np.abs(ap).max())
    assert sc.steps > 0 and sc.factorizations < sc.steps / 2  # the factorisation is reused across steps


def test_reuse_cycle_ends_at_the_first_step_costing_more_than_its_average():
    cycle = np.array([4.0, 0.0])  # a factorisation worth 4 residual evaluations, no step yet
    assert [gk.costly_step(e, cycle) for e in (2, 4, 4, 4, 5)] == [False, False, False, False, True]
    assert cycle.tolist() == [23.0, 5.0]  # 4.6 evaluations per step, against 5 for the next one


def newton_cost_per_step(monkeypatch, factor_cost, slow_newton):
    """(residual evaluations + FACTOR_COST x factorisations) per step of the two-link chain at a
    fixed h = 1 ms, with the given reuse rule (FACTOR_COST counted as 4 whatever the rule)."""
    monkeypatch.setattr(GAlphaStepper, "FACTOR_COST", factor_cost)
    monkeypatch.setattr(GAlphaStepper, "SLOW_NEWTON", slow_newton)
    model = chain(2)
    model.settings.step = 1e-3
    _, Y, stepper = started(model)
    stepper.advance(0.0, Y, 0.5, np.zeros(6))
    if np.isfinite(factor_cost):  # the cycle counts from the last factorisation, not from the start
        assert 0 < stepper._cycle[1] < 0.1 * stepper.steps and stepper._cycle[0] > factor_cost
    return (stepper.newton_evaluations + 4.0 * stepper.factorizations) / stepper.steps


def test_reuse_rule_costs_less_than_reusing_longer_or_refactorising_every_step(monkeypatch):
    """At fixed h the modified Newton iterations slow down as the factorisation ages: ending the
    cycle by costly_step beats both keeping it until SLOW_NEWTON corrections and a fresh one every step."""
    rule = newton_cost_per_step(monkeypatch, 4.0, GAlphaStepper.SLOW_NEWTON)
    longer = newton_cost_per_step(monkeypatch, np.inf, GAlphaStepper.SLOW_NEWTON)
    every_step = newton_cost_per_step(monkeypatch, np.inf, 1)
    assert rule < 0.95 * min(longer, every_step), (rule, longer, every_step)


def pendulum_angle_error(h):
    """Max |theta - theta_ODE| [rad] over 1.2 s of the pendulum example (released from the
    horizontal) with fixed steps h, and the largest joint violation [m]."""
    model = load(os.path.join(EXAMPLES, "pendulum.json"))
    model.settings.step = h
    system, Y, stepper = started(model)
    Jc = model.bodies[0].inertia[1][1]
    acc, t, err, phi = np.zeros(6), 0.0, 0.0, 0.0
    for k in range(1, 61):
        t, _ = stepper.advance(t, Y, 0.02 * k, acc)
        r, _ = system.user_pose(Y)
        theta = np.arctan2(r[0][0], -r[0][2])
        ref = pend_oracle.pendulum_ode_solution(np.pi / 2, [t], Jc=Jc).theta[0]
        err = max(err, abs(theta - ref))
        phi = max(phi, np.abs(system.constraint_jacobian(t, Y)[0]).max())
    return err, phi


def test_compiled_pendulum_is_second_order_against_the_ode():
    e1, phi1 = pendulum_angle_error(2e-3)
    e2, phi2 = pendulum_angle_error(1e-3)
    assert e2 < 2e-3 and 3.5 < e1 / e2 < 4.6, (e1, e2)
    assert max(phi1, phi2) < 1e-10
