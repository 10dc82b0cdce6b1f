"""True stiction of contact friction (friction_law 'stiction', system/contact_friction.py): a box
(its 4 bottom corners against a plane) and a ball on an incline and under a ramped push, the
stick/slip switches located as joint friction's (solver/friction_events.py), against closed forms.

The incline is a level floor under gravity tilted by theta: g = (g sin theta, 0, -g cos theta)."""

import json
import math

import numpy as np
import pytest

from MBDWorkbench.loads.body_loads import body_load_case
from MBDWorkbench.solver import from_dict, simulate
from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.solver.events import EVENT_TIME_TOL

G = 9.81
A_BOX, M_BOX, K_BOX = 0.1, 1.0, 1e6  # edge [m], mass [kg], corner stiffness [N/m^1.5]
R_BALL, M_BALL = 0.02, 0.25


def corner_depth(load: float, corners: int = 4, stiffness: float = K_BOX) -> float:
    """Each corner's penetration [m] when ``corners`` share ``load`` [N] equally (K d^1.5)."""
    return (load / corners / stiffness) ** (2.0 / 3.0)


def box_model(theta=0.0, mu_s=0.5, mu_k=0.4, v0=0.0, push=None, t_end=1.0, step=1e-3, integrator="rk4", K=K_BOX):
    """A 0.1 m cube at rest on the floor, pressed in to the depth that carries its weight, under
    gravity tilted by theta [rad]; ``push`` [N/s]: a force push * t along x at the height of the
    contact points (the middle of the corners' overlap: no moment about the patch, which would tilt
    the box on its compliance)."""
    g = [G * math.sin(theta), 0.0, -G * math.cos(theta)]
    d0 = corner_depth(M_BOX * G * math.cos(theta), stiffness=K)
    J = M_BOX * A_BOX**2 / 6.0
    cube = {"name": "block", "mass": M_BOX, "inertia": np.diag([J, J, J]).tolist(),
            "position": [0, 0, A_BOX / 2 - d0], "velocity": [v0, 0, 0]}  # fmt: skip
    contact = {"name": "floor", "body_a": "ground", "body_b": "block",
               "shape_a": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
               "shape_b": {"type": "box", "center": [0, 0, 0], "size": [A_BOX] * 3},
               "stiffness": K, "restitution": 0.5, "mu_s": mu_s, "mu_k": mu_k,
               "friction_law": "stiction", "penetration_tol": 1e-3}  # fmt: skip
    forces = [{"name": "push", "type": "point_force", "body": "block", "point": [0, 0, -d0 / 2],
               "force": [f"{push}*t", 0, 0]}] if push else []  # fmt: skip
    settings = {"t_end": t_end, "step": step, "output_step": 0.01, "integrator": integrator, "accuracy": False}
    return from_dict({"name": "box", "gravity": g, "bodies": [cube], "contacts": [contact], "forces": forces,
                      "settings": settings})  # fmt: skip


def kinds(res) -> list[str]:
    return [e["kind"] for e in res.friction_events]


def test_box_below_the_friction_angle_does_not_creep():
    """tan(20 deg) = 0.36 < mu_s = 0.5: the box sticks from the start. It settles elastically
    on its corners (the friction's moment loads the downhill ones more) and then does not move:
    less than 1e-9 m from 1 s to 10 s. The settling itself is bounded by the compliance: the
    patch's centre does not slide, so the centre of gravity moves only by the tilt, at most
    (a / 2) * 2 d_max / a = d_max, d_max the depth of a corner carrying half the weight."""
    theta = math.radians(20.0)
    res = simulate(box_model(theta, t_end=10.0))
    assert res.status == "completed"
    assert kinds(res) == []
    x = res.position("block")[:, 0]
    late = res.t >= 1.0
    assert np.ptp(x[late]) < 1e-9
    assert np.abs(x - x[0]).max() < corner_depth(M_BOX * G, corners=2)


def test_box_above_the_friction_angle_slides_at_g_sin_minus_mu_k_cos():
    """tan(30 deg) = 0.58 > mu_s = 0.5: the box slips from the start; once its rocking has died
    out, a = g (sin t - mu_k cos t) within 1e-6 relative; the friction's work is in the balance."""
    theta, mu_k = math.radians(30.0), 0.4
    res = simulate(box_model(theta, mu_k=mu_k, t_end=1.0, step=1e-3))
    assert res.status == "completed"
    assert [e["kind"] for e in res.friction_events if e["time"] > 0.01] == []  # a slip at the start
    t, v = res.t, res.velocity("block")[:, 0]
    i, j = np.searchsorted(t, [0.5, 1.0])
    a = (v[j] - v[i]) / (t[j] - t[i])
    closed = G * (math.sin(theta) - mu_k * math.cos(theta))
    assert a == pytest.approx(closed, rel=1e-6)
    e = res.energy()
    assert np.abs(e["balance"]).max() < 1e-6 * np.abs(e["work_nonconservative"]).max()


@pytest.mark.parametrize("integrator", ["rk4", "radau"])
def test_ramped_push_breaks_the_box_away_at_mu_s_m_g_over_c(integrator):
    """Pushed by F = c t at the contact points' height, the box sticks until c t = mu_s m g: the 'slip' event at
    t* = mu_s m g / c to 1e-9 relative (load mu_s N there; contacts.csv's friction c t before it, mu_k N
    after); then m x'' = c t - mu_k m g. (rk4 at 1 ms goes unstable in the box's rocking at 1.4 s, where
    the net force loads the back corners: 0.5 ms.)"""
    c, mu_s, mu_k = 4.0, 0.5, 0.3
    res = simulate(box_model(0.0, mu_s, mu_k, push=c, t_end=1.6, step=5e-4, integrator=integrator))
    assert res.status == "completed"
    t_star = mu_s * M_BOX * G / c
    assert kinds(res) == ["slip"]
    (event,) = res.friction_events
    assert event["element"] == "contact" and event["joint"] == "floor"
    tol = EVENT_TIME_TOL if integrator == "rk4" else 1e-8  # radau: its integration error (rtol)
    assert event["time"] == pytest.approx(t_star, rel=tol, abs=0)
    assert event["load"] == pytest.approx(mu_s * M_BOX * G, rel=1e-9)
    t, x = res.t, res.position("block")[:, 0] - res.position("block")[0, 0]
    assert np.abs(x[t < t_star]).max() < 1e-9
    held = res.contact("floor")[t < t_star]  # contacts.csv: the force on body_a (the ground)
    assert held[1:, 4] == pytest.approx(c * t[t < t_star][1:], rel=1e-6)  # the friction holds the push
    assert held[1:, 0] == pytest.approx(c * t[t < t_star][1:], rel=1e-6)
    assert res.contact("floor")[-1, 4] == pytest.approx(mu_k * M_BOX * G, rel=1e-4)  # sliding: mu_k N
    s = t[t > t_star] - t_star
    closed = c * s**3 / (6 * M_BOX) + (mu_s - mu_k) * G * s**2 / 2
    # the net force c t - mu_k m g at the floor pitches the box on its compliance (a car braking):
    # its rocking changes N for a few ms, so the motion follows the closed form to its share
    assert np.abs(x[t > t_star] - closed).max() < 1e-5 * closed.max()


def test_box_slides_to_rest_in_v2_over_2_mu_g_and_sticks(tmp_path):
    """Launched at v0 on a level floor (mu 0.3): the 'stick' event within 1e-4 of v0 / (mu g) (the
    braking pitches the box on its compliance for a few ms, changing N), then it holds; it stops
    v0^2 / (2 mu g) from its start within the elastic pitch's shift of its centre, (a / 2) phi with
    phi = (mu m g a / 2) / k_r, k_r = 4 (a / 2)^2 dFn/dd the corners' tilt stiffness (it rolls back on
    its corners when the braking ends); the mechanical energy never grows and the balance holds."""
    v0, mu = 1.0, 0.3
    res = simulate(box_model(0.0, mu, mu, v0=v0, t_end=1.0))
    assert res.status == "completed"
    assert kinds(res) == ["stick"]
    assert res.friction_events[0]["time"] == pytest.approx(v0 / (mu * G), rel=1e-4)
    x = res.position("block")[:, 0] - res.position("block")[0, 0]
    d0 = corner_depth(M_BOX * G)
    k_tilt = 4 * (A_BOX / 2) ** 2 * 1.5 * K_BOX * math.sqrt(d0)
    pitch_shift = A_BOX / 2 * (mu * M_BOX * G * A_BOX / 2) / k_tilt
    assert abs(x[-1] - v0**2 / (2 * mu * G)) < 1.5 * pitch_shift
    assert np.ptp(x[res.t > 0.9]) < 1e-9  # the elastic rocking has died out
    e = res.energy()
    assert np.diff(e["total"]).max() <= 1e-9 * e["total"][0]
    # the balance: the work's trapezoids over the first milliseconds' rocking (600 rad/s, 0.6 rad a step)
    assert np.abs(e["balance"]).max() < 1e-4 * 0.5 * M_BOX * v0**2
    for index in (10, -1):  # sliding, then stuck: the free body's loads include the patch's friction
        case = body_load_case(res, "block", index)
        friction = [ld for ld in case.loads if ld.name == "floor (friction)"]
        assert len(friction) == 1 and case.check_equilibrium(1e-6) < 1e-6
    assert np.linalg.norm(friction[0].force) < 1e-6  # at rest on a level floor nothing pulls
    res.write(str(tmp_path / "run"))  # the switch in summary.json and events.csv, named by its pair
    (event,) = json.loads((tmp_path / "run" / "summary.json").read_text())["friction_events"]
    assert (event["joint"], event["element"], event["kind"]) == ("floor", "contact", "stick")
    assert "floor,,stick" in (tmp_path / "run" / "events.csv").read_text()


def ball_model(theta, mu_s, mu_k, K=1e8, t_end=1.0, step=5e-4):
    """A ball at rest on a level floor under gravity tilted by theta [rad], pressed in to the depth
    that carries its weight."""
    g = [G * math.sin(theta), 0.0, -G * math.cos(theta)]
    d0 = (M_BALL * G * math.cos(theta) / K) ** (2.0 / 3.0)
    J = 0.4 * M_BALL * R_BALL**2
    ball = {"name": "ball", "mass": M_BALL, "inertia": np.diag([J, J, J]).tolist(), "position": [0, 0, R_BALL - d0]}
    contact = {"name": "floor", "body_a": "ball", "body_b": "ground",
               "shape_a": {"type": "sphere", "center": [0, 0, 0], "radius": R_BALL},
               "shape_b": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
               "stiffness": K, "restitution": 0.5, "mu_s": mu_s, "mu_k": mu_k,
               "friction_law": "stiction", "penetration_tol": 1e-4}  # fmt: skip
    settings = {"t_end": t_end, "step": step, "output_step": 0.01, "accuracy": False}
    model = from_dict({"name": "ball", "gravity": g, "bodies": [ball], "contacts": [contact], "settings": settings})
    return model, d0


@pytest.mark.parametrize("integrator, tol", [("rk4", 1e-6), ("lsoda", 1e-6), ("bdf", 1e-4)])
def test_ball_rolls_without_slipping_below_the_friction_limit(integrator, tol):
    """tan(20 deg) = 0.36 < 7/2 mu_s: the ball rolls, its contact point does not slip: a =
    g sin t / (1 + I / (m r^2)) within 1e-6 (bdf: 1e-4, its rtol), r = R - d0 / 2 the lever of the
    contact point (the middle of the overlap; 5/7 g sin t for a rigid ball)."""
    theta = math.radians(20.0)
    model, d0 = ball_model(theta, 0.5, 0.4, t_end=1.0 if integrator == "rk4" else 0.3)
    res = simulate(model, integrator=integrator)
    assert res.status == "completed"
    assert kinds(res) == []
    r = R_BALL - d0 / 2
    a = G * math.sin(theta) / (1.0 + 0.4 * R_BALL**2 / r**2)
    x = res.position("ball")[:, 0]
    assert x[1:] == pytest.approx(0.5 * a * res.t[1:] ** 2, rel=tol)
    slip = res.velocity("ball")[:, 0] + r * res.angular_velocity("ball")[:, 1] * -1.0
    assert np.abs(slip).max() < 1e-9


def test_ball_slides_above_the_friction_limit():
    """tan(30 deg) > 7/2 mu_s: the ball slips from the start, a = g (sin t - mu_k cos t) within 1e-6
    while its spin grows at mu_k N r / I."""
    theta, mu_k = math.radians(30.0), 0.08
    model, d0 = ball_model(theta, 0.1, mu_k, t_end=0.5)
    res = simulate(model)
    assert res.status == "completed"
    assert kinds(res) == []
    x = res.position("ball")[:, 0]
    a = G * (math.sin(theta) - mu_k * math.cos(theta))
    assert x[1:] == pytest.approx(0.5 * a * res.t[1:] ** 2, rel=1e-6)
    spin = mu_k * M_BALL * G * math.cos(theta) * (R_BALL - d0 / 2) / (0.4 * M_BALL * R_BALL**2)
    assert res.angular_velocity("ball")[1:, 1] == pytest.approx(spin * res.t[1:], rel=1e-6)


def test_stiction_is_refused_where_it_is_not_handled():
    """galpha, cros and rk4_tree refuse a pair with stiction, naming it; friction_law is one of two
    names, and 'stiction' is refused on a pair it does not handle, a ball on a box (naming the pair and
    the field)."""
    model, _ = ball_model(0.0, 0.5, 0.4)
    for integrator in ("galpha", "cros"):
        with pytest.raises(ModelError, match="contact 'floor' has friction with stiction.*regularised"):
            simulate(model, integrator=integrator)
    bad = ball_model(0.0, 0.5, 0.4)[0].to_dict()
    bad["contacts"][0]["friction_law"] = "sticky"
    with pytest.raises(ModelError, match="friction_law must be one of regularised, stiction"):
        from_dict(bad)
    bad["contacts"][0]["friction_law"] = "stiction"
    bad["contacts"][0]["shape_b"] = {"type": "box", "center": [0, 0, -1.0], "size": [1.0, 1.0, 1.0]}
    bad["bodies"].append({**bad["bodies"][0], "name": "other", "position": [0, 0, -1.0]})
    bad["contacts"][0]["body_b"] = "other"
    with pytest.raises(ModelError, match="contacts.0..friction_law.*sphere-box"):
        from_dict(bad)


def test_roller_rolls_without_slipping_on_its_line_contact():
    """A solid cylinder (R 0.03 m, L 0.1 m, axis along y) lying on a 15 deg incline, its line
    contact of 5 slices one patch: it rolls at g sin t / (1 + I / (m r^2)), r = R - d0 / 2 (2/3 g sin t
    for a rigid roller), within 1e-6."""
    theta, R, L, m, K = math.radians(15.0), 0.03, 0.1, 0.5, 1e7
    d0 = m * G * math.cos(theta) / K  # the line's law is linear (exponent 1)
    I_axis, I_cross = 0.5 * m * R**2, m * (3 * R**2 + L**2) / 12
    roller = {"name": "roller", "mass": m, "inertia": np.diag([I_cross, I_axis, I_cross]).tolist(),
              "position": [0, 0, R - d0]}  # fmt: skip
    contact = {"name": "floor", "body_a": "roller", "body_b": "ground",
               "shape_a": {"type": "cylinder", "center": [0, 0, 0], "axis": [0, 1, 0], "radius": R, "length": L},
               "shape_b": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
               "stiffness": K, "restitution": 0.5, "mu_s": 0.5, "mu_k": 0.4,
               "friction_law": "stiction", "penetration_tol": 1e-4}  # fmt: skip
    g = [G * math.sin(theta), 0.0, -G * math.cos(theta)]
    settings = {"t_end": 0.5, "step": 5e-4, "output_step": 0.01, "accuracy": False}
    res = simulate(from_dict({"name": "roller", "gravity": g, "bodies": [roller], "contacts": [contact],
                              "settings": settings}))  # fmt: skip
    assert res.status == "completed"
    assert kinds(res) == []
    r = R - d0 / 2
    a = G * math.sin(theta) / (1.0 + I_axis / (m * r**2))
    x = res.position("roller")[:, 0]
    assert x[1:] == pytest.approx(0.5 * a * res.t[1:] ** 2, rel=1e-6)
