"""Joint friction's stick/slip switches as located events (solver/friction_events.py through
solver/events.py): stop and breakaway times against closed forms to EVENT_TIME_TOL, and the friction
pendulum's turning points and rest angle against the independent SciPy solution of
test_joint_friction."""

import json

import numpy as np
import pytest
from test_joint_friction import MASS, THETA0, G, incline_model, pendulum_model, reference_turning_points

from MBDWorkbench.solver import from_dict, simulate
from MBDWorkbench.solver.events import EVENT_TIME_TOL


def kinds(res) -> list[str]:
    return [e["kind"] for e in res.friction_events]


def sliding_block(theta, v0, integrator, mu_s=0.5, mu_k=0.4, t_end=1.0, step=1e-2):
    """The incline block of test_joint_friction launched downhill at v0 [m/s]."""
    model = incline_model(theta, mu_s, mu_k, integrator, t_end=t_end, step=step)
    model.bodies[0].velocity = [v0 * np.cos(theta), 0.0, -v0 * np.sin(theta)]
    return model


@pytest.mark.parametrize("integrator", ["rk4", "bdf", "radau", "lsoda", "euler"])
@pytest.mark.parametrize("degrees", [0.0, 10.0])
def test_sliding_block_stops_at_the_located_time(integrator, degrees):
    """Below the friction angle a block launched at v0 decelerates at g (mu_k cos a - sin a) and
    sticks at t = v0 / (g (mu_k cos a - sin a)): the 'stick' event there to 1e-9 relative (inside a
    step of 10 ms), then it holds (speed 0, friction m g sin a)."""
    theta, v0, mu_k = np.radians(degrees), 1.0, 0.4
    res = simulate(sliding_block(theta, v0, integrator))
    assert res.status.startswith("completed")
    decel = G * (mu_k * np.cos(theta) - np.sin(theta))
    t_stop = v0 / decel
    assert kinds(res) == ["stick"]
    (event,) = res.friction_events
    assert event["joint"] == "slide"
    assert event["time"] == pytest.approx(t_stop, rel=EVENT_TIME_TOL, abs=0)
    assert abs(event["time"] / 1e-2 - round(event["time"] / 1e-2)) > 1e-3  # not at a step end
    assert event["speed"] < 1e-9 * v0
    assert event["load"] == pytest.approx(MASS * G * np.sin(theta), abs=1e-8)
    assert event["normal"] == pytest.approx(MASS * G * np.cos(theta), rel=1e-9)
    after = res.t > t_stop
    x = res.joint_coordinate("slide")[:, 0]
    assert np.ptp(x[after]) < 1e-12
    assert np.abs(res.joint_coordinate_rate("slide")[after, 0]).max() < 1e-9 * v0
    assert np.all(res.joint_friction("slide")["state"][after] == 1)
    if integrator in ("rk4", "radau"):  # exact on the quadratic motion
        assert x[after][0] == pytest.approx(v0**2 / (2 * decel), rel=1e-9)


@pytest.mark.parametrize("integrator", ["rk4", "bdf", "lsoda"])
def test_breakaway_located_under_a_ramped_force(integrator):
    """A block on a level slide pushed by F = c t sticks until c t = mu_s m g: the 'slip' event at
    t* = mu_s m g / c to 1e-9 relative, where the friction needed is mu_s N; then it slides with
    m x'' = c t - mu_k m g (test_joint_friction's closed form)."""
    c, mu_s, mu_k = 4.0, 0.5, 0.3
    res = simulate(incline_model(0.0, mu_s, mu_k, integrator, t_end=4.0, step=1e-2, force=[f"{c}*t", 0, 0]))
    assert res.status == "completed"
    t_star = mu_s * MASS * G / c
    assert kinds(res) == ["slip"]
    (event,) = res.friction_events
    assert event["time"] == pytest.approx(t_star, rel=EVENT_TIME_TOL, abs=0)
    assert event["load"] == pytest.approx(mu_s * MASS * G, rel=1e-9)
    assert event["speed"] < 1e-12
    t, x = res.t, res.joint_coordinate("slide")[:, 0]
    assert np.abs(x[t < t_star]).max() < 1e-12
    s = t[t > t_star] - t_star
    closed = c * s**3 / (6 * MASS) + (mu_s - mu_k) * G * s**2 / 2
    tol = 1e-9 if integrator == "rk4" else 1e-6  # rk4 exact on the cubic; the adaptive ones' rtol
    assert np.abs(x[t > t_star] - closed).max() < tol * closed.max()


def test_friction_pendulum_turning_points_and_rest_located():
    """Pin friction (mu_s 0.8, mu_k 0.6, r 50 mm): each turning point is a located event, 'reverse'
    where m g l |sin q| > mu_s r N (it swings back) and 'stick' at the last one, at the times and
    rest angle of the independent SciPy solution (rk4 at 2 ms: within 1e-8 s and 1e-9 rad); at rest the
    friction needed is m g l |sin q| / r and the bar stays within 1e-12 rad."""
    mu_s, mu_k, r = 0.8, 0.6, 0.05
    res = simulate(pendulum_model(mu_s, mu_k, r, "rk4", t_end=3.5, step=2e-3))
    assert res.status == "completed"
    points, stuck_at = reference_turning_points(mu_s, mu_k, r, 3.5)
    assert stuck_at is not None and len(points) >= 2
    assert kinds(res) == ["reverse"] * (len(points) - 1) + ["stick"]
    q = THETA0 + res.joint_coordinate("pin")[:, 0]
    for event, (t_ref, _) in zip(res.friction_events, points):
        assert abs(event["time"] - t_ref) < 1e-8
        assert event["speed"] < 1e-9
    rest = res.friction_events[-1]
    assert rest["load"] == pytest.approx(1.0 * G * 0.5 * abs(np.sin(stuck_at)) / r, rel=1e-6)
    assert rest["load"] <= mu_s * rest["normal"]
    held = res.t > rest["time"]
    assert abs(q[held][0] - stuck_at) < 1e-9
    assert np.ptp(q[held]) < 1e-12


def test_friction_events_in_summary_json(tmp_path):
    """summary.json lists the friction switches (time, joint, kind, speed, load, normal, element) and no
    stop_events when the model has no rigid stop."""
    res = simulate(sliding_block(0.0, 1.0, "rk4"))
    res.write(str(tmp_path / "run"))
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert "stop_events" not in summary
    (event,) = summary["friction_events"]
    assert set(event) == {"time", "joint", "kind", "speed", "load", "normal", "element"}
    assert event["element"] == "joint"
    assert event["kind"] == "stick" and event["time"] == pytest.approx(1.0 / (0.4 * G), rel=1e-9)


@pytest.mark.parametrize("integrator", ["rk4", "bdf"])
def test_rebound_from_a_rigid_stop_then_friction_stops_it(integrator):
    """One mechanism for both: a block launched at v0 on a level slide with friction hits a rigid
    stop at D (e = 0.5) at t_i = (v0 - v_i) / a, v_i = sqrt(v0^2 - 2 a D), a = mu_k g; the impulse
    reverses its slip, friction takes the new sense and stops it at t_i + e v_i / a, at
    D - (e v_i)^2 / (2 a): both events to 1e-9 relative with rk4 (exact on this motion), to bdf's
    own accuracy (rtol, the position at the impact integrated) with bdf."""
    v0, mu_k, D, e = 1.0, 0.4, 0.05, 0.5
    data = sliding_block(0.0, v0, integrator).to_dict()
    data["joints"][0].update(travel_max=D, travel_stop={"model": "rigid", "restitution": e})
    res = simulate(from_dict(data))
    assert res.status.startswith("completed")
    a = mu_k * G
    v_i = np.sqrt(v0**2 - 2 * a * D)
    t_i = (v0 - v_i) / a
    tol = EVENT_TIME_TOL if integrator == "rk4" else 1e-5
    (hit,) = res.stop_events
    assert hit["t"] == pytest.approx(t_i, rel=tol, abs=0)
    assert kinds(res) == ["stick"]
    t_stop = t_i + e * v_i / a
    assert res.friction_events[0]["time"] == pytest.approx(t_stop, rel=tol, abs=0)
    x = res.joint_coordinate("slide")[:, 0]
    rest = D - (e * v_i) ** 2 / (2 * a)
    assert np.abs(x[res.t > t_stop] - rest).max() < (1e-9 if integrator == "rk4" else 2e-5) * D
