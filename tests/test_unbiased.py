"""The ODE-form constraint solve without bias (issue 10): exact on the rows kept by a rank
decision that depends on neither eps, units nor masses; the point-mass pendulum's period and
bob position, and results of redundant models that do not change with eps."""

import dataclasses
import os

import numpy as np
import pytest
from oracles import n_four_bar as nf
from oracles import pendulum as pend_oracle

from bench.study.index3_models import slider_crank
from MBDWorkbench.solver import from_dict, load, simulate
from MBDWorkbench.solver.model.catalog import INTEGRATORS
from MBDWorkbench.solver.system.system import System

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
    four-bar change by less than 1e-9 relative when eps changes by 1e3 (every integrator:
    test_redundant_models_do_not_depend_on_eps)."""
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


def test_eps_zero_on_a_redundant_model_works():
    """eps = 0 on the redundant spatial four-bar: the dependent rows leave the solve, nothing
    divides by eps."""
    model = load(os.path.join(EXAMPLES, "four_bar_spatial.json"))
    res = simulate(model, t_end=0.2, output_step=0.05, tikhonov_eps=0.0)
    assert res.t[-1] == pytest.approx(0.2)
    assert [w.kind for w in res.warnings] == ["redundant"]  # the honest status of a redundant model


# ----------------------------------------------------------------------------- eps, units, masses
ODE_FORM = [name for name, spec in INTEGRATORS.items() if spec.index == 1]


def redundant_model(name: str):
    """(model, t_end [s]) of a redundant model: the spatial four-bar (3 equations repeat
    others), the Bricard linkage (1), IFToMM A02 (6; and it passes a singular position at 0.284 s)."""
    if name == "A02":
        return from_dict(nf.model_dict(2)), 0.4
    return load(os.path.join(EXAMPLES, f"{name}.json")), 0.2


def motion(model, res) -> np.ndarray:
    """Positions, velocities, angular velocities of every body and the reactions (global force
    and torque) of every joint, side by side."""
    names = [b.name for b in model.bodies if not b.grounded]
    columns = [f(b) for b in names for f in (res.position, res.velocity, res.angular_velocity)]
    return np.hstack(columns + [x for j in model.joints for x in res.reaction(j.name, frame="global")])


@pytest.mark.parametrize("integrator", ODE_FORM)
@pytest.mark.parametrize("name", ["four_bar_spatial", "bricard", "A02"])
def test_redundant_models_do_not_depend_on_eps(name, integrator):
    """Results (motion and multipliers) of every ODE-form integrator change by less than 1e-9
    relative when eps changes by 1e3: the rank is decided without it and the solve is exact."""
    model, t_end = redundant_model(name)
    m1, m2 = (
        motion(model, simulate(model, t_end=t_end, output_step=0.02, integrator=integrator, tikhonov_eps=eps))
        for eps in (1e-10, 1e-7)
    )
    assert np.abs(m1 - m2).max() <= 1e-9 * np.abs(m1).max()


def scaled_a02(length: float, mass: float) -> dict:
    """A02 in other units: lengths x ``length``, masses x ``mass`` (time unchanged)."""
    d = nf.model_dict(2)
    d["gravity"] = [length * g for g in d["gravity"]]
    for b in d["bodies"]:
        b["mass"] *= mass
        b["inertia"] = [mass * length * length * j for j in b["inertia"]]
        for key in ("position", "velocity"):
            b[key] = [length * x for x in b[key]]
    for j in d["joints"]:
        j["frame"]["origin"] = [length * x for x in j["frame"]["origin"]]
    return d


@pytest.mark.parametrize("length,mass", [(1.0, 1e-9), (1e3, 1e-3), (1e-3, 1e3)])
def test_rank_decision_and_motion_do_not_depend_on_units_or_masses(length, mass):
    """A02 through its first singular position in other units (a body of 1e-9 kg; mm and
    tonnes; km and kilotonnes) moves as in SI, with the same rows kept and the same passage."""
    runs = []
    for c_len, c_mass in ((1.0, 1.0), (length, mass)):
        res = simulate(from_dict(scaled_a02(c_len, c_mass)), t_end=0.4, output_step=0.02, integrator="rk4")
        runs.append((res.point("crank0", [0.5 * c_len, 0, 0]) / c_len, res))
    (p1, r1), (p2, r2) = runs
    assert np.abs(p1 - p2).max() < 1e-9
    assert np.array_equal(r1.system.kept_rows(), r2.system.kept_rows())
    assert [(w.kind, w.time, w.elements) for w in r1.warnings] == [(w.kind, w.time, w.elements) for w in r2.warnings]


def test_eps_zero_on_the_redundant_slider_crank_with_radau():
    """eps = 0 is an ordinary value now: the redundant slider-crank (21 equations, rank 18)
    with radau reaches 0.3 s (it used to crawl: the regularised factor with eps = 0 was
    singular, the refinement amplified rounding and radau's error control rejected every step)."""
    res = simulate(slider_crank(redundant=True), t_end=0.3, output_step=0.05, integrator="radau", tikhonov_eps=0.0)
    assert res.t[-1] == pytest.approx(0.3) and [w.kind for w in res.warnings] == ["redundant"]
    assert res.max_violation()[0] < 1e-6
