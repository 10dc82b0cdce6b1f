"""Every ODE-form integrator on the two-link chain of [R3] section 6 against the
minimal-coordinate reference, with its expected order of accuracy; the integrator registry."""

import os

import numpy as np
import pytest
from oracles.two_link import two_link_solution

from MBDWorkbench.solver import ModelError, Settings, System, load, simulate
from MBDWorkbench.solver.integrators import METHODS, Stepper, make_stepper, names

MODEL = load(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples", "two_link.json"))
REF = two_link_solution(t_end=1.0)


def tip_error(**kw):
    res = simulate(MODEL, t_end=1.0, output_step=0.05, **kw)
    return np.abs(res.point("link2", [0.5, 0, 0])[:, :2] - REF.end_effector(res.t)).max(), res


@pytest.mark.parametrize("integrator,order", [("euler", 1), ("symplectic_euler", 1), ("rk4", 4)])
def test_fixed_step_order(integrator, order):
    h = {"euler": 2e-4, "symplectic_euler": 2e-4, "rk4": 1e-2}[integrator]
    e1, _ = tip_error(integrator=integrator, step=h, baumgarte_alpha=0, baumgarte_beta=0)
    e2, _ = tip_error(integrator=integrator, step=h / 2, baumgarte_alpha=0, baumgarte_beta=0)
    assert np.log2(e1 / e2) == pytest.approx(order, abs=0.35)


@pytest.mark.parametrize("integrator", ["bdf", "radau", "lsoda"])
def test_adaptive_integrators_meet_tolerance(integrator):
    err, res = tip_error(integrator=integrator, rtol=1e-8, atol=1e-10, step=0.05)
    assert err < 1e-4
    assert res.status == "completed" and res.steps > 0


def test_registry_lists_each_integrator_once_in_user_order():
    assert names() == ("euler", "symplectic_euler", "rk4", "bdf", "radau", "lsoda", "cros", "galpha", "rk4_tree")
    for name, cls in METHODS.items():
        assert issubclass(cls, Stepper) and cls.name == name and cls.label
        assert cls.index in (0, 1, 3) and ("index-3 DAE" in cls.formulation) == (cls.index == 3)
        assert ("joint coordinates" in cls.formulation) == (cls.index == 0)


def test_make_stepper_rejects_an_unknown_name():
    settings = Settings(integrator="heun")
    with pytest.raises(ModelError, match="settings.integrator"):
        make_stepper(System(MODEL), settings, 0.0, System(MODEL).Y0)
