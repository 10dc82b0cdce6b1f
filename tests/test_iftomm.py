"""The IFToMM benchmark models (examples/iftomm_*.json, bricard.json) and the heavy top against
independent references (tests/oracles/): published values, closed forms, minimal coordinates,
conservation laws. bench/accuracy.py tables every integrator on them (issue 31)."""

import json
import math
import os

import numpy as np
import pytest
from oracles import andrews, heavy_top, n_four_bar
from oracles.pendulum import pendulum_ode_solution

from MBDWorkbench.solver import load, simulate

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")
TIGHT = dict(integrator="radau", rtol=1e-10, atol=1e-12)


def example(name):
    return load(os.path.join(EXAMPLES, name + ".json"))


def cog_positions(res):
    return np.stack([res.position(b) for b in res.body_names], axis=1)


def test_andrews_oracle_reproduces_hairer_wanners_angles_at_30_ms():
    """[HW]'s reference solution at t = 0.03 s (beta and Theta turn by about 16 rad)."""
    q = andrews.angles(np.array([0.0, 0.03]))[-1]
    assert np.abs(q - andrews.Q_AT_003).max() < 1e-8


def test_andrews_model_follows_the_seven_angle_equations():
    """The body-coordinate JSON model (10 revolutes, a spring, a torque) against [HW]'s relative
    angle equations: every CoG over the 30 ms, and K1's angle at the end against [HW]'s value."""
    res = simulate(example("iftomm_a03_andrews"), **TIGHT)
    ref = andrews.cog_positions(res.t)
    assert np.abs(cog_positions(res)[:, :, :2] - ref).max() < 1e-8
    R = res.rotation("K1")[-1]
    beta = math.atan2(R[1, 0], R[0, 0])
    assert abs(math.remainder(beta - andrews.Q_AT_003[0], 2 * math.pi)) < 1e-6


def test_andrews_energy_balance_counts_the_motor_and_the_spring():
    """No gravity: the kinetic energy gained equals the motor torque's work plus the spring energy
    released (the run's balance E - E0 - works)."""
    res = simulate(example("iftomm_a03_andrews"), **TIGHT)
    e = res.energy()
    assert e["kinetic"][-1] > 1.0  # the crank turns at ~1,100 rad/s at the end
    assert np.abs(e["balance"]).max() < 1e-6 * e["kinetic"].max()  # measured 2.6e-7 (works summed per step)


def test_a01_point_mass_pendulum_matches_the_one_dof_ode():
    res = simulate(example("iftomm_a01_pendulum"), integrator="rk4", t_end=3.0)
    sol = pendulum_ode_solution(math.pi / 2, res.t, m=1.0, L=1.0, g=9.81, Jc=0.0)
    expected = np.stack([np.sin(sol.theta), -np.cos(sol.theta)], axis=1)
    assert np.abs(res.position("P1")[:, :2] - expected).max() < 1e-7
    assert res.status == "completed"


def test_a02_example_is_the_oracles_model():
    """examples/iftomm_a02_four_bar.json repeats tests/oracles/n_four_bar.py's geometry."""
    with open(os.path.join(EXAMPLES, "iftomm_a02_four_bar.json")) as f:
        data = json.load(f)
    oracle = n_four_bar.model_dict(2)
    assert data["bodies"] == oracle["bodies"] and data["joints"] == oracle["joints"]
    assert data["gravity"] == oracle["gravity"]


def test_heavy_top_model_matches_the_euler_angle_equations():
    """The disc's CoG and orientation over 0.5 s (a nutation period is ~0.27 s) against the
    Euler-angle reference."""
    model = example("heavy_top")
    res = simulate(model, integrator="rk4", step=5e-5, t_end=0.5)
    from make_iftomm import TOP

    r, R = heavy_top.solution(res.t, TOP["m"], TOP["radius"], TOP["stem"], TOP["tilt"], TOP["spin"])
    assert np.abs(res.position("disc") - r).max() < 1e-8
    assert np.abs(res.rotation("disc") - R).max() < 1e-6
    # it precesses: the CoG moves off its initial vertical plane x = 0
    assert np.abs(res.position("disc")[:, 0]).max() > 1e-3


def angular_momentum_z(res) -> np.ndarray:
    """About the global z axis through the origin [kg m^2/s], per sample."""
    total = np.zeros(len(res.t))
    for b, body in zip(res.body_names, res.system.model.bodies):
        r, v, w, R = res.position(b), res.velocity(b), res.angular_velocity(b), res.rotation(b)
        inertia = np.diag(body.inertia) if np.ndim(body.inertia) == 1 else np.asarray(body.inertia)
        spin = np.einsum("kij,jl,kml,km->ki", R, inertia, R, w)
        total += body.mass * np.cross(r, v)[:, 2] + spin[:, 2]
    return total


def test_flyball_lifts_its_slider_keeping_angular_momentum_and_energy_balance():
    """Published behaviour of A05: the balls fly out and lift the slider from s = 0.5 m, and
    the springs' damping settles the oscillation. Checked: no torque about the shaft axis, so
    the angular momentum about z is constant; the energy balance (damper work counted) holds."""
    res = simulate(example("iftomm_a05_flyball"), t_end=2.0, integrator="radau", rtol=1e-8, atol=1e-10)
    slider = res.position("slider")[:, 2]
    assert slider.max() > 0.7 and slider.min() > 0.49
    Lz = angular_momentum_z(res)
    assert np.abs(Lz - Lz[0]).max() < 1e-6 * abs(Lz[0])
    e = res.energy()
    assert np.all(np.diff(e["work_nonconservative"]) <= 1e-12)  # the dampers only dissipate
    assert e["work_nonconservative"][-1] < -1e-3  # measured -2.5e-3 J: stiff springs barely stretch
    assert np.abs(e["balance"]).max() < 1e-5 * e["kinetic"].max()


@pytest.mark.parametrize(
    "name", ["iftomm_a01_pendulum", "iftomm_a02_four_bar", "iftomm_a03_andrews", "iftomm_a05_flyball", "heavy_top"]
)
def test_examples_are_what_the_generator_writes(name):
    """examples/make_iftomm.py writes the shipped files (regenerate after editing it)."""
    import make_iftomm

    with open(os.path.join(EXAMPLES, name + ".json")) as f:
        assert json.load(f) == json.loads(json.dumps(make_iftomm.EXAMPLES[name]()))
