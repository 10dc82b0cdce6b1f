"""The CROS step (solver/integrators/cros_kernel.py, its one implementation) and the rare paths of
CROSStepper around it: the band LU of solver/integrators/linalg.py on a complex matrix against a dense
solve, the kernel's reduced solve against a dense solve of the full CROS matrix, second order against a
tight Radau reference, the run through singular positions (the rank monitor's steps), the stop of a
locked mechanism, and the kernels run interpreted (the cold start) against the compiled ones."""

import os

import numpy as np
import pytest
from oracles import n_four_bar as nf
from test_galpha_compiled import assert_interpreted_run_matches_compiled, factor_in_band, solve_in_band

from bench.study.index3_models import four_bar
from MBDWorkbench.solver import from_dict, load, simulate
from MBDWorkbench.solver.errors import SimulationError
from MBDWorkbench.solver.integrators import cros_kernel as ck
from MBDWorkbench.solver.integrators.cros import CROSStepper
from MBDWorkbench.solver.system.assembly import assemble_initial_state
from MBDWorkbench.solver.system.system import System

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def counted_steps(monkeypatch) -> list:
    """The start times [s] of the steps CROSStepper.step takes (the rare paths), from now on."""
    times = []
    step = CROSStepper.step

    def counted(self, *args, **kwargs):
        times.append(args[0])
        return step(self, *args, **kwargs)

    monkeypatch.setattr(CROSStepper, "step", counted)
    return times


def test_band_lu_solves_a_complex_band_system_as_a_dense_solve():
    rng = np.random.default_rng(7)
    n, kl, ku = 30, 3, 4
    A = np.zeros((n, n), complex)
    for i in range(n):
        for j in range(max(0, i - kl), min(n, i + ku + 1)):
            A[i, j] = rng.standard_normal() + 1j * rng.standard_normal()
        if i % 3 == 2:
            A[i, i] = 0.0  # pivoting needed
    factors = factor_in_band(A)
    b = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    x = solve_in_band(factors, b)
    assert np.abs(x - np.linalg.solve(A, b)).max() < 1e-10 * np.abs(x).max()
    assert np.any(factors[1][0] != np.arange(n))  # the zero diagonal entries needed row interchanges


def full_cros_solution(stepper, t, Y, h):
    """zeta of the CROS step (t, Y, h) from a dense solve of the full matrix [[I - a h Jxx, -a h I, 0],
    [-a h K, M - a h D, Phi_q^T], [Phi_q, 0, 0]] (multiplier part as a h zeta_lam, constraint rows
    divided by -a h), its evaluation (the stepper's triplets) and the right-hand side of [R3] section 3."""
    n6, ma, a = stepper.n6, stepper.ma, CROSStepper.A_CROS
    stepper._set_lam(stepper.lam)
    ev = stepper._evaluate(t, Y, blocks=True)
    nK, nD = stepper._counts
    G = np.zeros((ma, n6))
    np.add.at(G, (stepper.jq_r, stepper.jq_c), ev["jq"])
    A = np.zeros((2 * n6 + ma, 2 * n6 + ma), complex)
    A[:n6, :n6] = np.eye(n6)
    A[:n6, n6 : 2 * n6] = -a * h * np.eye(n6)
    A[n6 : 2 * n6, n6 : 2 * n6] = np.diag(stepper.M)
    A[n6 : 2 * n6, 2 * n6 :] = G.T
    A[2 * n6 :, :n6] = G
    (Li, Lj, Lv), (Ki, Kj, Kv), (Di, Dj, Dv) = stepper.Lb, stepper.Kb, stepper.Db
    np.add.at(A, (Li, Lj), -a * h * Lv)
    np.add.at(A, (n6 + Ki[:nK], Kj[:nK]), -a * h * Kv[:nK])
    np.add.at(A, (n6 + Di[:nD], n6 + Dj[:nD]), -a * h * Dv[:nD])
    v = Y[stepper.vel_slice]
    target = ev["phi"] - stepper.CURVATURE * h * h * ev["gamma"]
    rhs = np.concatenate(
        [v, ev["Q"] - G.T @ stepper.lam + a * h * stepper.Qt, -target / (a * h) - (ev["rate"] - G @ v)]
    )
    return np.linalg.solve(A, rhs), ev


@pytest.mark.parametrize("example", ["slider_crank", "spinning_top"])
def test_reduced_band_solve_gives_the_full_cros_solution(example):
    """The kernel's solve (position increments eliminated, complex band LU) against a dense solve of the full
    CROS matrix at a moving state with nonzero multipliers."""
    model = load(os.path.join(EXAMPLES, example + ".json"))
    system = System(model)
    Y, _ = assemble_initial_state(system, system.Y0.copy())
    stepper = CROSStepper(system, model.settings, 0.0, Y)
    stepper.advance(0.0, Y, 0.05, np.zeros(6))  # away from rest
    t, h = 0.05, 2e-3
    zeta_ref, ev = full_cros_solution(stepper, t, Y, h)
    n = len(zeta_ref)
    zeta, rhs, buf = np.zeros(n, complex), np.zeros(n, complex), np.zeros(n, complex)
    lam = np.ascontiguousarray(stepper.lam, float)
    code, phimax, Pnc, Pdrv = ck.solve(
        t, Y, h, stepper.CURVATURE, lam, system.static, system.work, stepper._prep, stepper._lay, zeta, rhs, buf
    )
    assert code == ck.STEP_OK
    assert np.abs(zeta - zeta_ref).max() < 1e-11 * np.abs(zeta_ref).max()
    assert phimax == np.abs(ev["phi"]).max(initial=0.0) and Pnc == ev["Pnc"]
    assert Pdrv == pytest.approx(
        stepper._driver_power(ev, Y[stepper.vel_slice], stepper.multipliers_at(zeta_ref)), rel=1e-9, abs=1e-12
    )


def poses(res, nb):
    """Body positions [m] and orientation quaternions of the samples after the first, (k, 7 nb)."""
    return res.Y[1:, : 7 * nb]


FREE_BODY = {"name": "bob", "mass": 1.0, "inertia": [1e-2, 2e-2, 3e-2], "angular_velocity": [1.0, 2.0, 3.0]}
MODELS = {
    "spinning_top": lambda: load(os.path.join(EXAMPLES, "spinning_top.json")),
    "four_bar_spatial": lambda: load(os.path.join(EXAMPLES, "four_bar_spatial.json")),
    "four_bar": four_bar,
    "free_body": lambda: from_dict({"name": "free", "bodies": [FREE_BODY], "joints": []}),
}


@pytest.mark.parametrize("name", list(MODELS))
def test_steps_are_second_order_against_a_tight_radau_reference(name):
    """Gyroscopic terms and a spherical joint (spinning top), a closed spatial loop, three redundant rows
    (planar four-bar), no constraint rows at all (a tumbling free body): halving h divides the error of the
    poses (positions and quaternions) against Radau at rtol 1e-11 by four."""
    model = MODELS[name]()
    options = dict(t_end=0.2, output_step=0.02)
    ref = poses(simulate(model, integrator="radau", rtol=1e-11, atol=1e-12, **options), len(model.bodies))
    errors = [
        np.abs(poses(simulate(MODELS[name](), integrator="cros", step=h, **options), len(model.bodies)) - ref).max()
        for h in (2e-3, 1e-3)
    ]
    assert 3.5 < errors[0] / errors[1] < 4.6, errors


def test_singular_positions_are_taken_by_the_rank_monitors_steps(monkeypatch):
    """IFToMM A02 (N = 2) through its first singular position: the rank monitor runs at every step near it
    (CROSStepper.step), the rows leave and re-enter the solve, and B0 follows the one-DoF oracle."""
    rare = counted_steps(monkeypatch)
    res = simulate(from_dict(nf.model_dict(2)), integrator="cros", t_end=0.45)
    changes = [w.time for w in res.warnings if w.kind == "rank_change"]
    assert changes and 0.2 < min(changes) and max(changes) < 0.35
    assert rare and min(changes) - 0.02 < min(rare) and max(rare) < max(changes) + 0.02
    assert len(rare) < 0.5 * res.steps  # most steps in the compiled loop
    b0 = res.point("crank0", [0.5, 0.0, 0.0])[:, :2]
    assert np.abs(b0 - nf.b0_position(res.t)).max() < 1e-3


def test_a_locked_mechanism_stops_in_the_step_that_diverges(monkeypatch):
    """A non-Grashof four-bar driven into its limit position (tests/test_index3.py): the compiled loop hands
    the diverging step to CROSStepper.step, which stops the run at that step's time."""
    rare = counted_steps(monkeypatch)
    model = four_bar(theta2=1.0, speed=1.0, d=1.0, a=0.6, b=0.45, c=0.7)
    with pytest.raises(SimulationError) as info:
        simulate(model, integrator="cros", t_end=1.0, step=1e-3, output_step=0.01)
    assert "CROS diverges" in str(info.value)
    assert rare and info.value.time == rare[-1]


def test_interpreted_kernels_reproduce_the_compiled_run(monkeypatch):
    """The cold start runs the same kernel functions as Python: the same samples to rounding."""
    assert_interpreted_run_matches_compiled(monkeypatch, "cros")
