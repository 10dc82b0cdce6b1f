"""IFToMM A02 (N = 2 parallelogram four-bars; the cranks pass the singular horizontal
positions, where the mobility jumps from 1 to 3, 14 times in 10 s) with every ODE-form
integrator, against the exact one-DoF reduction (tests/oracles/n_four_bar.py): a run passes
within 1e-3 m of the reduction or stops with a SimulationError naming joints and the time. A
run that returns is checked against the reduction, never trusted."""

import re

import numpy as np
import pytest
from oracles import n_four_bar as nf

from MBDWorkbench.solver import from_dict, simulate
from MBDWorkbench.solver.catalog import INTEGRATORS
from MBDWorkbench.solver.errors import SimulationError

ODE_FORM = [name for name, spec in INTEGRATORS.items() if spec.index == 1]
B0_TOL = 1e-3  # [m]
JOINTS = {j["name"] for j in nf.model_dict(2)["joints"]}
# rk4 at the default step over the benchmark's 10 s; the others at settings that resolve the
# regular motion well below B0_TOL: the adaptive ones at rtol 1e-8 over 3 s (six passages; at
# the default 1e-6 their global error after 10 s is ~1e-3 m, passages or not), the first-order
# methods at h = 1e-5 s over 1 s (two passages; their error grows like h t: 2e-3 m at 0.9 s
# with h = 1e-4 s)
RUNS = {
    "rk4": dict(t_end=10.0, step=1e-3),
    "euler": dict(t_end=1.0, step=1e-5),
    "symplectic_euler": dict(t_end=1.0, step=1e-5),
    "bdf": dict(t_end=3.0, rtol=1e-8),
    "radau": dict(t_end=3.0, rtol=1e-8),
    "lsoda": dict(t_end=3.0, rtol=1e-8),
}


def singular_times(t_end: float) -> np.ndarray:
    """Times [s] at which the reduced crank angle passes 0 or -pi (sin(theta) = 0)."""
    t = np.linspace(0.0, t_end, 200001)
    s = np.sin(nf.crank_angle(t)[0])
    k = np.nonzero(np.sign(s[:-1]) != np.sign(s[1:]))[0]
    return t[k]


@pytest.fixture(scope="module", params=ODE_FORM)
def a02(request):
    """(integrator, results, SimulationError or None) of one A02 run."""
    name = request.param
    try:
        return name, simulate(from_dict(nf.model_dict(2)), integrator=name, output_step=0.01, **RUNS[name]), None
    except SimulationError as e:
        return name, e.results, e


def b0_error(res) -> np.ndarray:
    return np.abs(res.point("crank0", [0.5, 0, 0])[:, :2] - nf.b0_position(res.t)).max(axis=1)


def test_every_ode_form_integrator_has_a_run():
    assert set(RUNS) == set(ODE_FORM)


def test_a02_passes_within_1mm_or_stops_naming_joints_and_time(a02):
    name, res, error = a02
    assert b0_error(res).max() < B0_TOL  # every sample a run returns, stopped or not
    if error is None:
        assert res.status == "completed" and res.t[-1] == pytest.approx(RUNS[name]["t_end"])
    else:
        message = str(error)
        assert re.search(r"t = \d", message) and any(f"'{j}'" in message for j in JOINTS), message


def test_rk4_passes_the_benchmark_at_the_default_step(a02):
    name, res, error = a02
    if name != "rk4":
        pytest.skip("the goal of the benchmark is rk4's")
    assert error is None and res.t[-1] == pytest.approx(10.0)
    assert b0_error(res).max() < B0_TOL


def test_passages_and_redundancy_are_reported(a02):
    name, res, error = a02
    if error is not None:
        pytest.skip("the run stopped")
    kinds = {w.kind: w for w in res.warnings}
    redundant = kinds["redundant"]  # 3 out-of-plane equations per closed loop repeat others
    assert redundant.message.startswith("6 of 35 ") and set(redundant.elements) <= JOINTS
    near = kinds["near_singular"]
    passages = singular_times(res.t[-1])
    assert int(re.search(r"(\d+) time\(s\)", near.message).group(1)) == len(passages)
    assert near.time == pytest.approx(passages[0], abs=0.01)
    assert set(near.elements) <= JOINTS and near.elements
