"""Multipliers without Tikhonov bias (issue 10, item 1): the regularised Schur complement is only
the factorisation; iterative refinement against the unregularised C makes the constrained
accelerations independent of eps for consistent constraints."""

import dataclasses
import os

import numpy as np
import pytest
from oracles import pendulum as pend_oracle

from MBDWorkbench.solver import from_dict, load, simulate
from MBDWorkbench.solver.errors import SimulationError
from MBDWorkbench.solver.system import System

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")
JC = 1e-8  # bob inertia [kg m^2]: a point-mass pendulum (IFToMM A01)


def point_mass_pendulum(integrator: str, **settings) -> dict:
    """1 kg bob, inertia 1e-8 kg m^2, on a revolute (axis y) 1 m from its CoG, released from the
    horizontal; gravity -z, so the bob swings in the x-z plane."""
    return {
        "name": "point_mass_pendulum",
        "gravity": [0, 0, -9.81],
        "bodies": [{"name": "bob", "mass": 1.0, "inertia": [JC, JC, JC], "position": [1.0, 0, 0]}],
        "joints": [
            {
                "name": "pivot",
                "type": "revolute",
                "body_i": "ground",
                "body_j": "bob",
                "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]},
            }
        ],
        "settings": {"t_end": 10.0, "step": 1e-3, "output_step": 1e-3, "integrator": integrator, **settings},
    }


def crossings(t, x):
    """Times where x changes sign (linear interpolation)."""
    k = np.nonzero(np.sign(x[:-1]) != np.sign(x[1:]))[0]
    return t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])


@pytest.mark.parametrize("integrator", ["rk4", "bdf", "radau"])
def test_point_mass_pendulum_default_settings(integrator):
    res = simulate(from_dict(point_mass_pendulum(integrator)))
    x = res.position("bob")[:, 0]
    tc = crossings(res.t, x)
    period = 2 * (tc[-1] - tc[0]) / (len(tc) - 1)
    exact = pend_oracle.pendulum_period(np.pi / 2, m=1.0, L=1.0, g=9.81, Jc=JC)
    assert period == pytest.approx(exact, rel=1e-6)
    ref = pend_oracle.pendulum_ode_solution(np.pi / 2, [res.t[-1]], Jc=JC)
    th = ref.theta[-1]
    exact_bob = np.array([np.sin(th), 0.0, -np.cos(th)])
    assert res.t[-1] == pytest.approx(10.0)
    assert np.linalg.norm(res.position("bob")[-1] - exact_bob) < 1e-5


def _four_bar(eps: float):
    model = load(os.path.join(EXAMPLES, "four_bar_spatial.json"))
    return dataclasses.replace(model, settings=dataclasses.replace(model.settings, tikhonov_eps=eps))


def test_redundant_four_bar_does_not_depend_on_eps():
    """Motion (rk4, fixed steps) and accelerations at assembled states of the redundant spatial
    four-bar change by less than 1e-9 relative when eps changes by 1e3. (Adaptive integrators
    visit states off the constraint manifold, where the redundant set is only nearly redundant
    and eps decides what counts as dependent, so their trajectories are not compared.)"""
    runs = []
    for eps in (1e-10, 1e-7):
        model = _four_bar(eps)
        res = simulate(model, t_end=1.0, output_step=0.05, integrator="rk4")
        motion = np.hstack(
            [f(b.name) for b in model.bodies for f in (res.position, res.velocity, res.angular_velocity)]
        )
        system = System(model)
        acc = [system.evaluate(0.0, system.Y0)["Ydot"]]
        runs.append((motion, np.array(acc)))
    (m1, a1), (m2, a2) = runs
    assert np.abs(m1 - m2).max() <= 1e-9 * np.abs(m1).max()
    assert np.abs(a1 - a2).max() <= 1e-9 * np.abs(a1).max()


def test_eps_zero_on_a_redundant_model_is_clean():
    """eps = 0 either works (the refinement makes the bias-free result exact) or stops with a
    SimulationError, never a raw arithmetic error."""
    model = load(os.path.join(EXAMPLES, "four_bar_spatial.json"))
    try:
        res = simulate(model, t_end=0.2, output_step=0.05, tikhonov_eps=0.0)
    except SimulationError as e:
        assert "redundant" in str(e) or "singular" in str(e)
    else:
        assert res.t[-1] == pytest.approx(0.2)
