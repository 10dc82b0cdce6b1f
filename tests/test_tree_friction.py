"""rk4_tree with joint friction (integrators/tree_friction.py): the friction pendulum against the
independent SciPy solution and against the body-coordinate rk4 on the same model, a block on an
inclined slide against the closed forms (slip, stick, the located stop), and the refusals."""

import numpy as np
import pytest
from test_joint_friction import MASS, THETA0, G, incline_model, pendulum_model, reference_turning_points

from MBDWorkbench.solver import ModelError, from_dict, simulate


def kinds(res) -> list[str]:
    return [e["kind"] for e in res.friction_events]


def both(make):
    """(rk4's results, rk4_tree's) of the model ``make(integrator)``."""
    out = [simulate(make(integrator)) for integrator in ("rk4", "rk4_tree")]
    assert [r.status for r in out] == ["completed", "completed"]
    return out


def assert_same_friction(body, tree, joint, coordinate_tol=1e-8, load_tol=1e-6):
    """The two runs' coordinates within coordinate_tol, friction efforts and loads within load_tol of
    the largest, the same states and the same located events (times to 1e-9 s)."""
    assert np.abs(tree.joint_coordinate(joint) - body.joint_coordinate(joint)).max() < coordinate_tol
    fb, ft = body.joint_friction(joint), tree.joint_friction(joint)
    for key in ("effort", "normal"):
        assert np.abs(ft[key] - fb[key]).max() < load_tol * np.abs(fb[key]).max()
    assert np.array_equal(ft["state"], fb["state"])
    assert kinds(tree) == kinds(body)
    for a, b in zip(tree.friction_events, body.friction_events):
        assert abs(a["time"] - b["time"]) < 1e-9


def test_friction_pendulum_turning_points_and_rest():
    """Pin friction (mu_s 0.8, mu_k 0.6, r 50 mm) in joint coordinates: the turning points ('reverse')
    and the stop ('stick') at the independent SciPy solution's times within 1e-8 s, the rest angle
    within 1e-9 rad, held there; the same run as rk4's in body coordinates (angles within 1e-8 rad,
    friction and load within 1e-6)."""
    mu_s, mu_k, r = 0.8, 0.6, 0.05
    body, tree = both(lambda integrator: pendulum_model(mu_s, mu_k, r, integrator, t_end=3.5, step=2e-3))
    points, stuck_at = reference_turning_points(mu_s, mu_k, r, 3.5)
    assert stuck_at is not None and len(points) >= 2
    assert kinds(tree) == ["reverse"] * (len(points) - 1) + ["stick"]
    for event, (t_ref, _) in zip(tree.friction_events, points):
        assert abs(event["time"] - t_ref) < 1e-8
    q = THETA0 + tree.joint_coordinate("pin")[:, 0]
    held = tree.t > tree.friction_events[-1]["time"]
    assert abs(q[held][0] - stuck_at) < 1e-9 and np.ptp(q[held]) < 1e-12
    assert_same_friction(body, tree, "pin")


def test_friction_pendulum_against_the_load_dependent_reference():
    """The bench's pendulum (mu 0.3, r 20 mm, h 1 ms, 3 s): turning points within 1e-7 rad and 2e-3 s
    of the SciPy solution with N from the reaction (the bench's samples' parabola)."""
    from test_joint_friction import simulated_turning_points

    mu, r = 0.3, 0.02
    res = simulate(pendulum_model(mu, mu, r, "rk4_tree", t_end=3.0, step=1e-3))
    assert res.status == "completed"
    ref, _ = reference_turning_points(mu, mu, r, 3.0)
    sim = [e["time"] for e in res.friction_events]
    assert len(sim) >= len(ref) >= 3
    for t_event, (t_ref, _) in zip(sim, ref):
        assert abs(t_event - t_ref) < 1e-8
    for (ts, qs), (tr, qr) in zip(simulated_turning_points(res), ref):
        assert abs(qs - qr) < 1e-7 and abs(ts - tr) < 2e-3


def offset_pendulum(integrator, reversed_joint=False):
    """The pendulum with its CoG 0.1 m off the pin's plane along the axle and a pin of 40 mm
    length: the reaction's bending moment loads the pin (2 |M| / L); optionally the joint written
    the other way round (body_i the arm: the tree's child is the joint's body_i)."""
    model = pendulum_model(0.4, 0.3, 0.02, integrator, t_end=2.0, step=1e-3).to_dict()
    model["bodies"][0]["position"][2] = 0.1
    model["joints"][0]["friction"]["pin_length"] = 0.04
    if reversed_joint:
        pin = model["joints"][0]
        pin["body_i"], pin["body_j"] = pin["body_j"], pin["body_i"]
    return from_dict(model)


@pytest.mark.parametrize("reversed_joint", [False, True])
def test_bending_moment_load_as_the_body_path(reversed_joint):
    """The offset pendulum (bending moment on the pin): rk4_tree's run is rk4's (angles 1e-8 rad,
    friction and load 1e-6), with the joint either way round."""
    body, tree = both(lambda integrator: offset_pendulum(integrator, reversed_joint))
    fr = tree.joint_friction("pin")
    assert fr["normal"].max() > 1.5 * MASS / 2 * G  # the moment term counts (m g alone without it)
    assert_same_friction(body, tree, "pin")


def test_block_slides_down_the_incline():
    """tan(30 deg) > mu_s: the block slides with a = g (sin t - mu_k cos t) (to 1e-9), the friction
    -mu_k m g cos t, its work in the energy balance."""
    theta, mu_k = np.radians(30.0), 0.4
    res = simulate(incline_model(theta, 0.5, mu_k, "rk4_tree"))
    assert res.status == "completed"
    a = G * (np.sin(theta) - mu_k * np.cos(theta))
    x = res.joint_coordinate("slide")[:, 0]
    assert x[1:] == pytest.approx(0.5 * a * res.t[1:] ** 2, rel=1e-9)
    fr = res.joint_friction("slide")
    assert np.all(fr["state"][1:] == 0)
    assert fr["effort"][1:, 0] == pytest.approx(-mu_k * MASS * G * np.cos(theta), rel=1e-9)
    e = res.energy()
    assert e["work_nonconservative"][-1] == pytest.approx(-mu_k * MASS * G * np.cos(theta) * x[-1], rel=1e-9)


def test_block_sticks_below_the_friction_angle():
    """tan(20 deg) < mu_s: the block stays at rest (1e-12 m in 10 s), the friction holds m g sin t."""
    theta = np.radians(20.0)
    res = simulate(incline_model(theta, 0.5, 0.4, "rk4_tree", t_end=10.0, step=0.05))
    assert res.status == "completed"
    assert np.abs(res.joint_coordinate("slide")[:, 0]).max() < 1e-12
    fr = res.joint_friction("slide")
    assert np.all(fr["state"] == 1)
    assert fr["effort"][:, 0] == pytest.approx(-MASS * G * np.sin(theta), rel=1e-9)


def test_launched_block_stops_at_the_located_time_and_breaks_away():
    """A block launched at 1 m/s down a 10 deg slope sticks at v0 / (g (mu_k cos a - sin a)) to 1e-9
    relative; a block on a level slide pushed by c t breaks away at mu_s m g / c to 1e-9 relative and
    follows the closed form x = c s^3 / 6m + (mu_s - mu_k) g s^2 / 2 (rk4 exact on the cubic)."""
    theta, v0, mu_k = np.radians(10.0), 1.0, 0.4
    model = incline_model(theta, 0.5, mu_k, "rk4_tree", t_end=1.0)
    model.bodies[0].velocity = [v0 * np.cos(theta), 0.0, -v0 * np.sin(theta)]
    res = simulate(model)
    t_stop = v0 / (G * (mu_k * np.cos(theta) - np.sin(theta)))
    assert kinds(res) == ["stick"]
    assert res.friction_events[0]["time"] == pytest.approx(t_stop, rel=1e-9)
    x = res.joint_coordinate("slide")[:, 0]
    assert np.ptp(x[res.t > t_stop]) < 1e-12
    c, mu_s, mu_k = 4.0, 0.5, 0.3
    res = simulate(incline_model(0.0, mu_s, mu_k, "rk4_tree", t_end=4.0, step=1e-2, force=[f"{c}*t", 0, 0]))
    t_star = mu_s * MASS * G / c
    assert kinds(res) == ["slip"]
    assert res.friction_events[0]["time"] == pytest.approx(t_star, rel=1e-9)
    t, x = res.t, res.joint_coordinate("slide")[:, 0]
    assert np.abs(x[t < t_star]).max() < 1e-12
    s = t[t > t_star] - t_star
    closed = c * s**3 / (6 * MASS) + (mu_s - mu_k) * G * s**2 / 2
    assert np.abs(x[t > t_star] - closed).max() < 1e-9 * closed.max()


def chain_model(integrator):
    """A slide along x carrying a pendulum: friction on both joints (the slide's with a contact
    length, the pin's with a pin length), the pendulum's CoG off its plane (moments on both)."""
    frame_x = {"origin": [0, 0, 0], "z_axis": [1, 0, 0], "x_axis": [0, 1, 0]}
    frame_z = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
    bodies = [
        {"name": "cart", "mass": 1.5, "inertia": [0.01, 0.02, 0.03], "velocity": [0.8, 0, 0]},
        {"name": "arm", "mass": 1.0, "inertia": [0.01, 0.01, 0.02], "position": [0.3, -0.4, 0.05]},
    ]
    joints = [
        {
            "name": "slide",
            "type": "prismatic",
            "body_i": "ground",
            "body_j": "cart",
            "frame": frame_x,
            "friction": {"mu_s": 0.1, "mu_k": 0.08, "contact_length": 0.2},
        },
        {
            "name": "pin",
            "type": "revolute",
            "body_i": "cart",
            "body_j": "arm",
            "frame": frame_z,
            "friction": {"mu_s": 0.3, "mu_k": 0.25, "pin_radius": 0.01, "pin_length": 0.03},
        },
    ]
    settings = {"t_end": 1.5, "step": 1e-3, "output_step": 1e-3, "integrator": integrator, "accuracy": False}
    return from_dict({"gravity": [0, -G, 0], "bodies": bodies, "joints": joints, "settings": settings})


def test_two_joints_with_friction_as_the_body_path():
    """Friction on a slide and on the pin of a pendulum it carries (each loaded by the other's
    motion): rk4_tree's run is rk4's, coordinates to 1e-8, friction and loads to 1e-6, same events."""
    body, tree = both(chain_model)
    assert len(tree.friction_events) >= 2
    for joint in ("slide", "pin"):
        assert_same_friction(body, tree, joint)


def test_refusals_name_the_joint():
    """Friction on a driven joint and on a cylindrical joint are refused with the joint's name and
    'use rk4'; galpha still refuses friction."""
    model = pendulum_model(0.3, 0.3, 0.02, "rk4_tree", t_end=0.1).to_dict()
    model["drivers"] = [{"name": "turn", "type": "rotational", "joint": "pin", "profile": "t"}]
    with pytest.raises(ModelError, match=r"joint 'pin' has friction and a driver.*use rk4"):
        simulate(from_dict(model))
    model = pendulum_model(0.3, 0.3, 0.02, "rk4_tree", t_end=0.1).to_dict()
    model["joints"][0]["type"] = "cylindrical"
    with pytest.raises(ModelError, match=r"joint 'pin' is cylindrical.*use rk4"):
        simulate(from_dict(model))
    with pytest.raises(ModelError, match=r"joint 'slide' has friction.*galpha"):
        simulate(incline_model(0.3, 0.5, 0.4, "galpha", t_end=0.1))
