"""The generalized-alpha step (solver/integrators/galpha_kernel.py, its one implementation) and the
rare paths of GAlphaStepper around it: the band LU (solver/integrators/linalg.py) against a dense
solve, the band layout of a chain (O(N) per step), fixed steps second order against a tight Radau
reference and the compound pendulum against its minimal-coordinate ODE (tests/oracles/pendulum.py),
the Newton-failure retries and the rank monitor's steps actually taken, and the kernels run
interpreted (the cold start) against the compiled ones."""

import os

import numpy as np
import pytest
from oracles import n_four_bar as nf
from oracles import pendulum as pend_oracle

from bench.solver_speed import chain
from bench.study.index3_models import four_bar, slider_crank
from MBDWorkbench.solver import from_dict, kernels, load, simulate
from MBDWorkbench.solver.integrators import galpha_kernel as gk
from MBDWorkbench.solver.integrators import linalg
from MBDWorkbench.solver.integrators.galpha import GAlphaStepper
from MBDWorkbench.solver.numerics import jit
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
    position, kl2, ku2 = linalg.band_layout(rows, cols, n)
    lu = linalg.BandLU(n, position, kl2, ku2)
    for i, j in zip(rows, cols):
        lu.AB[position[i], position[j] - position[i] + kl2] = A[i, j]
    assert linalg.band_lu(lu.AB, kl2, ku2, lu.piv)
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
    """(AB, piv, position, kl, ku): the band LU (:func:`linalg.band_lu`) of the dense matrix A, stored
    in the reverse Cuthill-McKee band order of its pattern; asserts that it is not singular."""
    n = A.shape[0]
    rows, cols = np.nonzero(A)
    position, kl, ku = linalg.band_layout(rows, cols, n)
    AB = np.zeros((n, 2 * kl + ku + 1), A.dtype)
    AB[position[rows], position[cols] - position[rows] + kl] = A[rows, cols]
    piv = linalg.band_pivots(n)
    assert linalg.band_lu(AB, kl, ku, piv)
    return AB, piv, position, kl, ku


def solve_in_band(factors, b):
    """A^-1 b with the factors of :func:`factor_in_band` (linalg.solve_permuted)."""
    AB, piv, position, kl, ku = factors
    x, buf = np.empty(len(b), AB.dtype), np.empty(len(b), AB.dtype)
    linalg.solve_permuted(AB, kl, ku, piv, position, np.asarray(b, AB.dtype), x, buf)
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
    assert not linalg.band_lu(AB, 1, 1, linalg.band_pivots(5))


def started(model, adaptive=False):
    system = System(model)
    Y, _ = assemble_initial_state(system, system.Y0.copy())
    return system, Y, GAlphaStepper(system, model.settings, 0.0, Y, adaptive=adaptive)


def test_chain_bandwidth_does_not_grow_with_the_number_of_links():
    widths = [started(chain(n))[2].band.band.tolist() for n in (4, 40)]
    assert widths[0] == widths[1]
    assert max(widths[0]) <= 24  # 6 velocities and 5 revolute rows per link


def integrate(model, adaptive, t_end, out):
    """(final Y, positions r of every body at the outputs (k, nb, 3), stepper)."""
    system, Y, stepper = started(model, adaptive)
    acc, t, r = np.zeros(6), 0.0, []
    while t < t_end - 1e-12:
        t, _ = stepper.advance(t, Y, min(t + out, t_end), acc)
        r.append(Y[: 7 * system.nb].reshape(-1, 7)[:, :3].copy())
    return Y, np.array(r), stepper


MODELS = {
    "chain": lambda: chain(3),
    "spinning_top": lambda: load(os.path.join(EXAMPLES, "spinning_top.json")),
    "four_bar": four_bar,
}


def radau_positions(model, t_end, out):
    """Body positions (k, nb, 3) [m] at the outputs of a tight-tolerance Radau run (the reference)."""
    res = simulate(model, integrator="radau", t_end=t_end, output_step=out, rtol=1e-11, atol=1e-12)
    return res.Y[1:, : 7 * len(model.bodies)].reshape(len(res.t) - 1, -1, 7)[:, :, :3]


@pytest.mark.parametrize("name", list(MODELS))
def test_fixed_steps_are_second_order_against_a_tight_radau_reference(name):
    """Chain (open, spatial), spinning top (gyroscopic terms) and the planar four-bar in free motion (three
    redundant rows): halving h divides the position error against Radau at rtol 1e-11 by four."""
    ref = radau_positions(MODELS[name](), 0.2, 0.02)
    errors = []
    for h in (2e-3, 1e-3):
        model = MODELS[name]()
        model.settings.step = h
        errors.append(np.abs(integrate(model, False, 0.2, 0.02)[1] - ref).max())
    assert 3.5 < errors[0] / errors[1] < 4.6, errors


def test_newton_failures_are_retried_with_shorter_steps(monkeypatch):
    """With at most MAX_NEWTON iterations too few for the first steps, the kernel reports the failure and
    GAlphaStepper.step retries with a quarter of the step (counted), and the run keeps its accuracy."""
    ref = radau_positions(slider_crank(), 0.2, 0.02)
    monkeypatch.setattr(GAlphaStepper, "MAX_NEWTON", 3)
    model = slider_crank()
    model.settings.step = 0.02  # the first step, before the step-size control
    _, r, stepper = integrate(model, True, 0.2, 0.02)
    assert stepper.newton_failures > 0
    assert np.abs(r - ref).max() < 1e-4


def test_the_rank_monitor_takes_the_steps_near_a_singular_position(monkeypatch):
    """IFToMM A02 (N = 2) through its first singular position: near it GAlphaStepper.step takes the steps
    (the monitor at each), the rows leave and re-enter the solve, and B0 follows the one-DoF oracle."""
    rare_steps = []
    step = GAlphaStepper.step

    def counted(self, *args, **kwargs):
        rare_steps.append(args[0])
        return step(self, *args, **kwargs)

    monkeypatch.setattr(GAlphaStepper, "step", counted)
    res = simulate(from_dict(nf.model_dict(2)), integrator="galpha", t_end=0.45)
    changes = [w.time for w in res.warnings if w.kind == "rank_change"]
    assert changes and 0.2 < min(changes) and max(changes) < 0.35
    assert rare_steps and min(changes) - 0.02 < min(rare_steps) and max(rare_steps) < max(changes) + 0.02
    b0 = res.point("crank0", [0.5, 0.0, 0.0])[:, :2]
    assert np.abs(b0 - nf.b0_position(res.t)).max() < 1e-3


class _NoEntryPoints(dict):
    """kernels.fast_call's cache of compiled entry points that keeps none (every call dispatches)."""

    def __setitem__(self, key, value):
        pass


def interpreted_run(monkeypatch, model, **options):
    """simulate with every kernel run as its Python function (the cold start's interpreting mode), even those
    compiled earlier in this process (kernels.fast_call would call their compiled entry points)."""
    monkeypatch.setattr(kernels, "_ENTRY_POINTS", _NoEntryPoints())
    jit.start_interpreting(lambda: False)
    try:
        result = simulate(model, **options)
    finally:
        jit.stop_interpreting()
        monkeypatch.undo()
    assert jit.stop_reason() == "stopped"  # it ran interpreted to the end
    return result


def assert_interpreted_run_matches_compiled(monkeypatch, integrator):
    """The slider-crank's samples, interpreted and compiled, agree to rounding (NumPy's and LLVM's elementary
    functions may differ in the last bit)."""
    model = load(os.path.join(EXAMPLES, "slider_crank.json"))
    options = dict(integrator=integrator, t_end=0.02, output_step=0.01)
    compiled = simulate(model, **options)
    interpreted = interpreted_run(monkeypatch, model, **options)
    for a, b in (
        (compiled.Y, interpreted.Y),
        (compiled.Ydot, interpreted.Ydot),
        (compiled.multipliers, interpreted.multipliers),
    ):
        assert np.abs(a - b).max() <= 1e-12 * max(1.0, np.abs(a).max())


def test_interpreted_kernels_reproduce_the_compiled_steps(monkeypatch):
    """The cold start runs the same kernel functions as Python: the same samples to rounding."""
    assert_interpreted_run_matches_compiled(monkeypatch, "galpha")


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
