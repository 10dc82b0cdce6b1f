"""The solver against closed-form results and independent minimal-coordinate solutions."""

import os

import numpy as np
import pytest
from oracles import pendulum as pend_oracle
from oracles import rigid_body as rb_oracle
from oracles.slider_crank import SliderCrank
from oracles.two_link import two_link_solution

from MBDWorkbench.solver import from_dict, load, simulate

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def example(name):
    return load(os.path.join(EXAMPLES, name + ".json"))


def crossings(t, x):
    """Times where x changes sign (linear interpolation)."""
    k = np.nonzero(np.sign(x[:-1]) != np.sign(x[1:]))[0]
    return t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])


def test_pendulum_period_and_pivot_reaction():
    model = example("pendulum")
    res = simulate(model, t_end=2.5, output_step=1e-3)
    bob = model.bodies[0]
    Jc = bob.inertia[1][1]
    x = res.position("bob")[:, 0]
    tc = crossings(res.t, x)
    period = 2 * (tc[1] - tc[0])
    expected = pend_oracle.pendulum_period(np.pi / 2, m=1.0, L=1.0, g=9.81, Jc=Jc)
    assert period == pytest.approx(expected, rel=1e-6)
    # reaction of the ground on the bob at the lowest point: m g + m v^2 / L, upward
    F, _ = res.reaction("pivot", "global")
    Fz = np.interp(tc[0], res.t, F[:, 2])
    assert Fz == pytest.approx(pend_oracle.pivot_reaction_bottom(np.pi / 2, m=1.0, L=1.0, g=9.81, Jc=Jc), rel=1e-4)
    speed = np.interp(tc[0], res.t, np.linalg.norm(res.velocity("bob"), axis=1))
    assert Fz == pytest.approx(9.81 + speed**2 / 1.0, rel=1e-4)  # m g + m v^2 / L, point-mass limit
    # the joint frame (carried by the ground) has x = (1,0,0), z = (0,1,0), so y = (0,0,-1)
    Fj, _ = res.reaction("pivot")
    np.testing.assert_allclose(Fj[:, 1], -F[:, 2], atol=1e-9)
    np.testing.assert_allclose(Fj[:, 0], F[:, 0], atol=1e-9)
    v = abs(np.interp(tc[0], res.t, res.velocity("bob")[:, 2]))
    assert v < 1e-2  # at the lowest point the velocity is horizontal


def test_two_link_chain_matches_minimal_coordinates():
    res = simulate(example("two_link"), t_end=4.0, step=5e-4, output_step=0.01)
    ref = two_link_solution(t_end=4.0)
    tip = res.point("link2", [0.5, 0, 0])[:, :2]
    ref_tip = ref.end_effector(res.t)
    assert np.abs(tip - ref_tip).max() < 1e-6


def test_slider_crank_motor_torque_equals_virtual_work():
    res = simulate(example("slider_crank"), t_end=2.0)
    sc = SliderCrank(r=0.5, l=1.5, k=20.0, x0=1.5)
    tau = sc.torque_constant_speed(res.t, omega=np.pi)
    assert np.abs(res.driver_effort("motor") - tau).max() < 1e-6 * np.abs(tau).max()
    assert np.abs(res.position("slider")[:, 0] - sc.slider_position(np.pi * res.t)).max() < 1e-8


def _free_body(omega, h, t_end):
    J = [0.4, 0.5, 0.7]
    model = from_dict(
        {
            "gravity": [0, 0, 0],
            "bodies": [{"name": "box", "mass": 2.0, "inertia": J, "angular_velocity": list(omega)}],
            "settings": {"t_end": t_end, "step": h, "output_step": 0.05},
        }
    )
    return J, simulate(model)


def _momentum(J, res):
    R = res.rotation("box")
    w_body = np.einsum("kji,kj->ki", R, res.angular_velocity("box"))
    return np.einsum("kij,kj->ki", R, w_body * np.array(J)), 0.5 * np.sum(np.array(J) * w_body**2, axis=1)


def test_torque_free_body_conserves_energy_and_momentum_to_fourth_order():
    omega = [1.0, 0.3, 2.0]
    errs = []
    for h in (0.01, 0.005):
        J, res = _free_body(omega, h, 5.0)
        L, T = _momentum(J, res)
        errs.append((np.abs(L - L[0]).max(), np.abs(T - T[0]).max()))
        ref = rb_oracle.simulate_torque_free(J, omega, 5.0)
        np.testing.assert_allclose(res.angular_velocity("box")[-1], ref.omega_world(5.0).reshape(3), atol=1e-3)
    ratio_L, ratio_T = errs[0][0] / errs[1][0], errs[0][1] / errs[1][1]
    assert ratio_L > 12 and ratio_T > 12  # RK4: 16 per halving


def test_dzhanibekov_flip():
    J = [0.4, 0.5, 0.7]
    omega = [0.05, 5.0, 0.05]
    expected = rb_oracle.dzhanibekov_flip_interval(J, omega)
    _, res = _free_body(omega, 2e-3, 2.5 * expected)
    R = res.rotation("box")
    w_body = np.einsum("kji,kj->ki", R, res.angular_velocity("box"))
    flips = crossings(res.t, w_body[:, 1])
    assert len(flips) >= 2
    assert flips[1] - flips[0] == pytest.approx(expected, rel=1e-3)


def test_redundant_four_bar_runs_and_baumgarte_reduces_drift():
    model = example("four_bar_spatial")
    with_b = simulate(model, t_end=4.0, step=4e-3, output_step=0.02)
    without = simulate(model, t_end=4.0, step=4e-3, output_step=0.02, baumgarte_alpha=0.0, baumgarte_beta=0.0)
    d_with, d_without = with_b.max_violation()[0], without.max_violation()[0]
    assert np.isfinite(d_without) and d_with < d_without / 10
    # the crank keeps its energy: no damping, no driver
    assert with_b.energy_drift() < 1e-4


def test_heavy_top_steady_precession():
    """Steady precession of a heavy symmetric top (Goldstein): with spin component w3
    along the axis, tilt theta and precession rate W, m g l = W (I3 w3 - I1' W cos theta),
    I1' the transverse moment about the tip. Started exactly so, the tilt stays constant and
    the axis precesses at W."""
    m, l, I1, I3, w3, theta = 0.5, 0.05, 1.0e-3, 2.5e-4, 300.0, 0.4
    I1p = I1 + m * l * l
    a, b, c = I1p * np.cos(theta), -I3 * w3, m * 9.81 * l
    W = (-b - np.sqrt(b * b - 4 * a * c)) / (2 * a)  # slow precession root
    e3 = np.array([np.sin(theta), 0.0, np.cos(theta)])
    omega = W * np.array([0, 0, 1.0]) + (w3 - W * np.cos(theta)) * e3
    cog = l * e3
    model = from_dict(
        {
            "gravity": [0, 0, -9.81],
            "bodies": [
                {
                    "name": "top",
                    "mass": m,
                    "inertia": [I1, I1, I3],
                    "position": list(cog),
                    "orientation": [np.cos(theta / 2), 0, np.sin(theta / 2), 0],
                    "velocity": list(np.cross(omega, cog)),
                    "angular_velocity": list(omega),
                }
            ],
            "joints": [
                {
                    "name": "tip",
                    "type": "spherical",
                    "body_i": "ground",
                    "body_j": "top",
                    "frame": {"origin": [0, 0, 0]},
                }
            ],
            "settings": {"t_end": 1.0, "step": 1e-4, "output_step": 0.01},
        }
    )
    res = simulate(model)
    p = res.position("top")
    tilt = np.arccos(p[:, 2] / np.linalg.norm(p, axis=1))
    assert np.abs(tilt - theta).max() < 1e-6
    phi = np.unwrap(np.arctan2(p[:, 1], p[:, 0]))
    assert np.polyfit(res.t, phi, 1)[0] == pytest.approx(W, rel=1e-6)
    F, _ = res.reaction("tip", "global")
    # the pivot carries the weight and the centripetal force of the precessing CoG
    np.testing.assert_allclose(F[:, 2], m * 9.81, rtol=1e-6)


def test_energy_balance_with_driver_and_spring():
    res = simulate(example("slider_crank"), t_end=2.0, step=5e-4)
    e = res.energy()
    assert np.abs(e["balance"]).max() < 1e-5 * np.abs(e["work_drivers"]).max()


def test_principal_frame_results_in_user_frame():
    """A body with a full inertia tensor spinning about a principal axis keeps its axis:
    results are reported for the user's frame, not the solver's principal frame."""
    c, s = np.cos(0.4), np.sin(0.4)
    R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    I_user = R @ np.diag([0.1, 0.3, 0.35]) @ R.T
    axis = R[:, 0]
    model = from_dict(
        {
            "gravity": [0, 0, 0],
            "bodies": [{"name": "b", "mass": 1.0, "inertia": I_user.tolist(), "angular_velocity": list(3.0 * axis)}],
            "settings": {"t_end": 1.0, "step": 1e-3, "output_step": 0.1},
        }
    )
    res = simulate(model)
    assert np.allclose(res.orientation("b")[0], [1, 0, 0, 0], atol=1e-12)
    np.testing.assert_allclose(res.angular_velocity("b")[-1], 3.0 * axis, atol=1e-9)
    # rotation about the axis by 3 rad: the user frame is rotated accordingly
    Rt = res.rotation("b")[-1]
    np.testing.assert_allclose(Rt @ axis, axis, atol=1e-9)
    assert np.degrees(np.arccos((np.trace(Rt) - 1) / 2)) == pytest.approx(np.degrees(3.0), rel=1e-6)
