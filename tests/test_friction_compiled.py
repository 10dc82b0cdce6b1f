"""The compiled friction solve (numerics/friction_solve.py) and its fixed-step loop
(integrators/friction_kernel.py) against the NumPy reference (JointFriction.reference_solve):
one solve on every joint type with friction in every mode, and whole runs of the friction
pendulum and of the box on an incline with contact stiction."""

import gc
import math

import numpy as np
import pytest
from test_contact_stiction import box_model
from test_jit import _live_compiled_arrays, allocation_stats  # noqa: F401 (a fixture)
from test_joint_friction import pendulum_model

from MBDWorkbench.solver import from_dict, simulate
from MBDWorkbench.solver.events import EVENT_TIME_TOL
from MBDWorkbench.solver.system.friction import SLIP, STICK, JointFriction
from MBDWorkbench.solver.system.system import System

FIELDS = ("Ydot", "lam", "effort", "rate", "rate_dot", "normal", "power", "phi", "constraint_rate")


def four_joints_model() -> dict:
    """Four bodies hanging on a revolute, a cylindrical, a prismatic (tilted) and a spherical joint,
    each with friction (lengths given: the bending terms count), all moving."""
    frame = lambda x, z: {"origin": [x, 0, 0], "z_axis": z, "x_axis": [1, 0, 0]}  # noqa: E731
    friction = {"mu_s": 0.3, "mu_k": 0.2}
    joints = [
        {"name": "pin", "type": "revolute", "body_i": "ground", "body_j": "a", "frame": frame(0, [0, 0, 1]),
         "friction": {**friction, "pin_radius": 0.01, "pin_length": 0.02}},
        {"name": "shaft", "type": "cylindrical", "body_i": "ground", "body_j": "b", "frame": frame(1, [0, 0, 1]),
         "friction": {**friction, "pin_radius": 0.02, "pin_length": 0.05}},
        {"name": "slide", "type": "prismatic", "body_i": "ground", "body_j": "c", "frame": frame(2, [0, 0.6, 0.8]),
         "friction": {**friction, "contact_length": 0.3}},
        {"name": "ball", "type": "spherical", "body_i": "ground", "body_j": "d", "frame": frame(3, [0, 0, 1]),
         "friction": {**friction, "ball_radius": 0.015}},
    ]  # fmt: skip
    bodies = [
        {"name": name, "mass": 1.0 + 0.2 * k, "inertia": [0.02, 0.03, 0.025], "position": [k + 0.05, -0.1, 0.02],
         "velocity": [0.0, 0.0, 0.0], "angular_velocity": [0.4 * k, -0.3, 1.2]}
        for k, name in enumerate("abcd")
    ]  # fmt: skip
    settings = {"t_end": 0.1, "step": 1e-3, "integrator": "rk4", "accuracy": False}
    return {"gravity": [0.5, -9.81, 0.3], "bodies": bodies, "joints": joints, "settings": settings}


@pytest.mark.parametrize("modes", [[SLIP] * 4, [STICK] * 4, [STICK, SLIP, STICK, SLIP], [SLIP, STICK, SLIP, STICK]])
def test_one_solve_matches_the_reference_on_every_joint_type(modes):
    """Every output of the solve at the assembled, moving start agrees with the reference to
    round-off, in each mode and with a reference slip direction on the joints of several channels."""
    system = System(from_dict(four_joints_model()))
    friction = system.friction
    Y = system.Y0.copy()
    modes = np.array(modes, np.int64)
    friction.refs[1], friction.refs[3] = np.array([0.6, 0.8]), np.array([0.0, 0.6, -0.8])
    reference = friction.reference_solve(0.02, Y, modes)
    compiled = friction.solve(0.02, Y, modes)
    assert compiled.modes.tolist() == modes.tolist()
    for name in FIELDS:
        want = getattr(reference, name)
        scale = max(1.0, float(np.abs(want).max(initial=0.0)))
        assert getattr(compiled, name) == pytest.approx(want, rel=0, abs=1e-12 * scale), name
    for name in ("V", "Pnc", "Pdrv"):
        assert getattr(compiled, name) == pytest.approx(getattr(reference, name), rel=1e-12, abs=1e-12), name
    assert np.all(compiled.normal > 0.0)  # every joint is loaded: the test compares real loads


def both_runs(model_of, monkeypatch):
    """(compiled run, reference run) of the model ``model_of()``."""
    compiled = simulate(model_of())
    with monkeypatch.context() as patch:
        patch.setattr(JointFriction, "compiled", False)
        reference = simulate(model_of())
    assert compiled.status == reference.status == "completed"
    return compiled, reference


def assert_same_events(a, b, step: float) -> None:
    assert [(e["kind"], e["joint"]) for e in a.friction_events] == [(e["kind"], e["joint"]) for e in b.friction_events]
    for e, f in zip(a.friction_events, b.friction_events):
        assert abs(e["time"] - f["time"]) <= EVENT_TIME_TOL * max(e["time"], step)


def test_friction_pendulum_runs_as_the_reference(monkeypatch):
    """The pendulum of bench/peers_events.py (mu 0.3 on a 20 mm pin) through two turning points
    (located 'reverse' events): the same states before the first event to round-off, the events
    within their location tolerance, the states after within the change such a shift makes."""
    compiled, reference = both_runs(lambda: pendulum_model(0.3, 0.3, 0.02, "rk4", t_end=1.6), monkeypatch)
    assert [e["kind"] for e in compiled.friction_events] == ["reverse", "reverse"]
    assert_same_events(compiled, reference, 1e-3)
    before = compiled.t < compiled.friction_events[0]["time"]
    diff = np.abs(compiled.position("arm") - reference.position("arm"))
    assert diff[before].max() < 1e-14
    assert diff.max() < 1e-10
    assert compiled.joint_friction("pin")["effort"] == pytest.approx(
        reference.joint_friction("pin")["effort"], abs=1e-8
    )


@pytest.mark.parametrize("degrees, kinds", [(20.0, []), (30.0, ["slip"])])
def test_box_on_an_incline_with_stiction_runs_as_the_reference(monkeypatch, degrees, kinds):
    """The box of test_contact_stiction on 20 deg (it sticks) and 30 deg (it slips from the start):
    the same states, efforts and events as the reference. On 30 deg the box rocks on its corners'
    compliance for the first 0.1 s after the slip starts (rk4 at 1 ms near its stability limit
    there), which amplifies round-off differences (the compiled loop takes its steps in chunks of
    equal steps, whose length differs from the reference's step by round-off) to 3e-11 m and, at
    the contact's frequency, 2e-8 m/s (the corners' loads by 2e-6 N); they die out with the rocking."""
    compiled, reference = both_runs(lambda: box_model(math.radians(degrees), t_end=0.5), monkeypatch)
    assert [e["kind"] for e in compiled.friction_events] == kinds
    assert_same_events(compiled, reference, 1e-3)
    assert compiled.position("block") == pytest.approx(reference.position("block"), rel=0, abs=1e-10)
    assert compiled.velocity("block") == pytest.approx(reference.velocity("block"), rel=0, abs=1e-7)
    late = compiled.t >= 0.3
    assert compiled.position("block")[late] == pytest.approx(reference.position("block")[late], rel=0, abs=1e-14)
    assert compiled.velocity("block")[late] == pytest.approx(reference.velocity("block")[late], rel=0, abs=1e-12)
    a, b = compiled.joint_friction("floor")["effort"], reference.joint_friction("floor")["effort"]
    assert a == pytest.approx(b, rel=0, abs=1e-5)  # the rocking's corner loads: 2e4 N/m x 3e-11 m, 4 corners
    assert a[late] == pytest.approx(b[late], rel=0, abs=1e-9)
    assert np.abs(b).max() > 1.0  # the friction carries the slope's pull


@pytest.mark.usefixtures("allocation_stats")
@pytest.mark.parametrize("integrator", ["rk4", "symplectic_euler"])
def test_friction_steps_leak_no_array(integrator):
    """The friction solve's evaluation, rk4's stages and the step loop's event check run without
    reference counts into the work arrays F.work (numerics/friction_solve.py): an array one of
    them received from a callee would never be freed, one per step (300 and 1600 here: the runs'
    last evaluations, kept by their Results until collected, are not). The pendulum reverses twice."""
    simulate(pendulum_model(0.3, 0.3, 0.02, integrator, t_end=0.01))  # compiled, warm
    for t_end in (0.3, 1.6):
        gc.collect()
        before = _live_compiled_arrays()
        result = simulate(pendulum_model(0.3, 0.3, 0.02, integrator, t_end=t_end))
        assert result.status == "completed"
        del result
        gc.collect()
        assert _live_compiled_arrays() == before, f"{integrator}, {t_end} s"
