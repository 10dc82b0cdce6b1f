"""The compiled step loop of CROS (solver/integrators/cros_kernel.py): the band LU of galpha_kernel on a
complex matrix against a dense solve, and the compiled steps against the Python steps (CROSStepper(compiled=
False), SciPy's complex sparse LU) on the same model and h: samples, multipliers, statuses and warnings,
including a run through singular positions (rank changes: the loop hands back to the Python step), and the
kernels run interpreted (the cold start) against the compiled ones."""

import os

import numpy as np
import pytest
from oracles import n_four_bar as nf
from test_galpha_compiled import factor_in_band, solve_in_band

from bench.study.index3_models import four_bar
from MBDWorkbench.solver import from_dict, load, simulate
from MBDWorkbench.solver.errors import SimulationError
from MBDWorkbench.solver.integrators import METHODS
from MBDWorkbench.solver.integrators import cros_kernel as ck
from MBDWorkbench.solver.integrators.cros import CROSStepper
from MBDWorkbench.solver.numerics import jit
from MBDWorkbench.solver.system.assembly import assemble_initial_state
from MBDWorkbench.solver.system.system import System

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


class PythonCROS(CROSStepper):
    """CROS with every step in Python (the reference)."""

    def __init__(self, system, settings, t0, Y0):
        super().__init__(system, settings, t0, Y0, compiled=False)


def run(model, python=False, **options):
    """simulate with cros (compiled loop, or every step in Python)."""
    if not python:
        return simulate(model, integrator="cros", **options)
    saved = METHODS["cros"]
    METHODS["cros"] = PythonCROS
    try:
        return simulate(model, integrator="cros", **options)
    finally:
        METHODS["cros"] = saved


def assert_same_run(a, b, tol=1e-10, loose=None):
    """Same statuses, output times, warnings; samples and multipliers equal to tol relative (the two LUs
    pivot differently: rounding only), at the samples of the mask ``loose`` to 1e-7 relative."""
    assert a.status == b.status
    np.testing.assert_array_equal(a.t, b.t)
    assert [(w.kind, w.message, w.time) for w in a.warnings] == [(w.kind, w.message, w.time) for w in b.warnings]
    tols = np.full(len(a.t), tol)
    if loose is not None:
        tols[loose] = 1e-7
    for x, y in ((a.Y, b.Y), (a.Ydot, b.Ydot), (a.multipliers, b.multipliers)):
        assert np.all(np.abs(x - y).max(axis=1, initial=0.0) <= tols * max(1.0, float(np.abs(y).max(initial=0.0))))


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


@pytest.mark.parametrize("example", ["slider_crank", "spinning_top"])
def test_reduced_band_solve_gives_the_full_cros_solution(example):
    """The kernel's solve (position increments eliminated, complex band LU) against SciPy's sparse LU of the
    full CROS matrix (CROSStepper._solve) at a moving state with nonzero multipliers."""
    model = load(os.path.join(EXAMPLES, example + ".json"))
    system = System(model)
    Y, _ = assemble_initial_state(system, system.Y0.copy())
    stepper = CROSStepper(system, model.settings, 0.0, Y)
    stepper.advance(0.0, Y, 0.05, np.zeros(6))  # away from rest
    t, h = 0.05, 2e-3
    zeta_ref, ev = stepper._solve(t, Y, h)
    n = stepper.pattern.n
    zeta, rhs, buf = np.zeros(n, complex), np.zeros(n, complex), np.zeros(n, complex)
    lam = np.ascontiguousarray(stepper.lam, float)
    code, phimax, Pnc, Pdrv = ck.solve(
        t, Y, h, stepper.CURVATURE, lam, system.static, system.work, stepper._prep, stepper._lay, zeta, rhs, buf
    )
    assert code == 0
    assert np.abs(zeta - zeta_ref).max() < 1e-11 * np.abs(zeta_ref).max()
    assert phimax == np.abs(ev["phi"]).max(initial=0.0) and Pnc == ev["Pnc"]
    assert Pdrv == pytest.approx(
        stepper._driver_power(ev, Y[stepper.vel_slice], stepper.multipliers_at(zeta_ref)), rel=1e-9, abs=1e-12
    )


@pytest.mark.parametrize("example", ["slider_crank", "four_bar_spatial", "ankle", "spinning_top", "four_bar"])
def test_compiled_steps_match_the_python_steps(example):
    """Driver and springs (slider-crank), closed spatial loop, universal joint and rank decisions (ankle),
    gyroscopic terms (spinning top), three redundant rows (planar four-bar)."""
    make = four_bar if example == "four_bar" else lambda: load(os.path.join(EXAMPLES, example + ".json"))
    options = dict(t_end=0.1, output_step=0.01)
    assert_same_run(run(make(), **options), run(make(), python=True, **options))


def test_free_body_without_constraints():
    """No constraint rows (an empty multiplier block): a tumbling free body."""
    body = {"name": "bob", "mass": 1.0, "inertia": [1e-2, 2e-2, 3e-2], "angular_velocity": [1.0, 2.0, 3.0]}
    model = {"name": "free", "bodies": [body], "joints": []}
    options = dict(t_end=0.05, output_step=0.01)
    assert_same_run(run(from_dict(model), **options), run(from_dict(model), python=True, **options))


def test_singular_positions_hand_back_to_the_python_step(monkeypatch):
    """IFToMM A02 (N = 2) through its first singular position: the rank monitor runs at every step near it
    (Python steps), the rows leave and re-enter the solve; compiled and Python runs agree throughout."""
    t_end = 0.45  # the cranks pass the horizontal at 0.2-0.3 s
    python_steps = []
    step = CROSStepper.step

    def counted(self, *args, **kwargs):
        python_steps.append(args[0])
        return step(self, *args, **kwargs)

    monkeypatch.setattr(CROSStepper, "step", counted)
    compiled = run(from_dict(nf.model_dict(2)), t_end=t_end)
    n_python = len(python_steps)
    python = run(from_dict(nf.model_dict(2)), python=True, t_end=t_end)
    changes = [w.time for w in compiled.warnings if w.kind == "rank_change"]
    assert changes and 0.2 < min(changes) and max(changes) < 0.35
    # within 0.01 s of the singular position the conditioning of the CROS matrix (~ 1/s_min) amplifies the
    # rounding of the two LUs (measured: 1e-8 relative in the multipliers at the output after it); 1e-10 elsewhere
    near = (compiled.t > min(changes) - 0.015) & (compiled.t < max(changes) + 0.015)
    assert_same_run(compiled, python, loose=near)
    assert 0 < n_python < 0.5 * len(python_steps)  # most steps compiled, the ones near the singularity in Python


def test_a_locked_mechanism_stops_with_the_python_steps_error():
    """A non-Grashof four-bar driven into its limit position (tests/test_index3.py): the compiled loop hands the
    failing step back to the Python step, which stops the run with the same error, time and joints."""
    errors = []
    for python in (False, True):
        model = four_bar(theta2=1.0, speed=1.0, d=1.0, a=0.6, b=0.45, c=0.7)
        with pytest.raises(SimulationError) as info:
            run(model, python=python, t_end=1.0, step=1e-3, output_step=0.01)
        errors.append(info.value)
    compiled, python = errors
    assert str(compiled) == str(python) and compiled.time == python.time
    assert [n for n, _ in compiled.worst_joints] == [n for n, _ in python.worst_joints]
    # the weights are the violations (~1 m) after the diverging steps, which amplify the rounding of the two
    # LUs (measured 1e-4 relative); the samples before the divergence agree as in the runs above
    np.testing.assert_allclose([w for _, w in compiled.worst_joints], [w for _, w in python.worst_joints], rtol=1e-3)
    a, b = compiled.results, python.results
    np.testing.assert_array_equal(a.t, b.t)
    early = a.t < compiled.time - 0.1
    assert np.abs(a.Y[early] - b.Y[early]).max() < 1e-10 * max(1.0, np.abs(b.Y[early]).max())


def test_interpreted_kernels_reproduce_the_compiled_run():
    model = load(os.path.join(EXAMPLES, "slider_crank.json"))
    options = dict(t_end=0.02, output_step=0.01)
    compiled = run(model, **options)
    jit.start_interpreting(lambda: False)
    try:
        interpreted = run(model, **options)
    finally:
        jit.stop_interpreting()
    assert jit.stop_reason() == "stopped"  # it ran interpreted to the end
    assert_same_run(interpreted, compiled, tol=1e-12)
