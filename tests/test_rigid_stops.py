"""Rigid end stops (solver/events.py): located impacts, Newton's impact law through the constrained
system and the held stop, against closed forms and an independent SciPy 1-DoF solution."""

import math

import numpy as np
import pytest
from oracles import pendulum
from scipy.integrate import solve_ivp

from MBDWorkbench.solver import ModelError, from_dict, simulate
from MBDWorkbench.solver.events import EVENT_TIME_TOL
from MBDWorkbench.solver.integrators import METHODS

G = 9.81
ALL_INTEGRATORS = list(METHODS)  # rk4_tree too: its held stop is a driven (constant) coordinate
SLIDE = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
# relative error of the integrated fall at each integrator's default settings (first-order
# euler methods; the others' rtol), the event itself located to 1e-9
PENDULUM_TOL = {"euler": 2e-3, "symplectic_euler": 2e-3, "rk4": 1e-9, "rk4_tree": 1e-9, "radau": 1e-9}
PENDULUM_TOL.update(bdf=2e-6, lsoda=2e-6, galpha=5e-6, cros=2e-7)  # galpha: second order, restarted
M_ARM, L_ARM, I_ARM, Q_STOP = 1.5, 0.4, 0.01, -0.6  # pendulum arm [kg, m, kg m^2 about its CoG, rad]


def slider_model(integrator, v=1.3, gravity=0.0, z0=0.0, t_end=0.4, step=None, **joint):
    """A 2 kg block on a prismatic z guide at z0 [m] moving at v [m/s] (gravity along -z)."""
    guide = {"name": "guide", "type": "prismatic", "body_i": "ground", "body_j": "block", "frame": SLIDE, **joint}
    block = {"name": "block", "mass": 2.0, "inertia": [0.01, 0.01, 0.01], "position": [0, 0, z0]}
    block["velocity"] = [0, 0, v]
    settings = {"t_end": t_end, "output_step": 0.01, "integrator": integrator}
    if step is not None:
        settings["step"] = step
    return from_dict({"gravity": [0, 0, -gravity], "bodies": [block], "joints": [guide], "settings": settings})


def pendulum_model(integrator="rk4", e=0.5, t_end=0.6, step=None, forces=()):
    """An arm (CoG at L_ARM on x) on a z pivot, released from rest, falling (gravity -y) onto angle_min."""
    stop = {"model": "rigid", "restitution": e}
    pivot = {"name": "pivot", "type": "revolute", "body_i": "ground", "body_j": "arm", "frame": SLIDE}
    pivot.update(angle_min=Q_STOP, angle_stop=stop)
    arm = {"name": "arm", "mass": M_ARM, "inertia": [I_ARM] * 3, "position": [L_ARM, 0, 0]}
    settings = {"t_end": t_end, "output_step": 0.01, "integrator": integrator}
    if step is not None:
        settings["step"] = step
    model = {"gravity": [0, -G, 0], "bodies": [arm], "joints": [pivot], "forces": list(forces), "settings": settings}
    return from_dict(model)


def events(res, kind="impact"):
    return [e for e in res.stop_events if e["kind"] == kind]


@pytest.mark.parametrize("integrator", ALL_INTEGRATORS)
def test_free_slider_event_time_and_rebound(integrator):
    """A block at constant speed v onto travel_max: the impact at travel_max / v (to 1e-9 relative,
    mid-step of the fixed-step integrators), rebound -e v, impulse -(1 + e) m v, never past the stop."""
    v, z_max, e = 1.3, 0.3, 0.6
    res = simulate(slider_model(integrator, v, travel_max=z_max, travel_stop={"model": "rigid", "restitution": e}))
    assert res.status == "completed", res.warnings
    (hit,) = events(res)
    t_hit = z_max / v
    assert abs(hit["t"] - t_hit) <= EVENT_TIME_TOL * t_hit
    assert hit["side"] == "max" and hit["impact_speed"] == pytest.approx(v, rel=1e-9)
    assert hit["rebound_speed"] == pytest.approx(e * v, rel=1e-9)
    assert hit["impulse"] == pytest.approx(-(1 + e) * 2.0 * v, rel=1e-9)
    z = res.joint_coordinate("guide")[:, 0]
    assert z.max() <= z_max + 1e-9 * z_max
    assert z[-1] == pytest.approx(z_max - e * v * (res.t[-1] - t_hit), abs=1e-8)


def test_fixed_step_event_mid_step():
    """rk4 with a step of 1 ms: the impact falls mid-step and is still located to 1e-9 relative."""
    res = simulate(slider_model("rk4", 1.0, step=1e-3, travel_max=0.23456, travel_stop={"model": "rigid"}))
    (hit,) = events(res)
    assert 0.1 < (hit["t"] / 1e-3) % 1 < 0.9
    assert abs(hit["t"] - 0.23456) <= EVENT_TIME_TOL * 0.23456
    assert hit["rebound_speed"] == pytest.approx(0.5, rel=1e-9)  # the default restitution


def independent_pendulum_impact():
    """(time [s], speed [rad/s]) of the arm reaching Q_STOP: SciPy on I q'' = -m g l cos q, tight."""
    inertia = I_ARM + M_ARM * L_ARM**2

    def rhs(t, y):
        return [y[1], -M_ARM * G * L_ARM * math.cos(y[0]) / inertia]

    def hit(t, y):
        return y[0] - Q_STOP

    hit.terminal = True
    sol = solve_ivp(rhs, (0, 1), [0.0, 0.0], events=hit, rtol=1e-13, atol=1e-15, method="DOP853")
    return float(sol.t_events[0][0]), float(-sol.y_events[0][0][1])


@pytest.mark.parametrize("integrator", ALL_INTEGRATORS)
def test_gravity_pendulum_against_independent_solution(integrator):
    """The arm falls onto its rigid stop at the integrator's default settings: event time against
    SciPy's located 1-DoF event (to the integrator's own accuracy, PENDULUM_TOL), the impact speed
    from the energy balance, rebound e times it, the energy balance (impact loss in
    work_nonconservative) and no crossing."""
    t_ref, w_ref = independent_pendulum_impact()
    assert w_ref == pytest.approx(math.sqrt(2 * M_ARM * G * L_ARM * math.sin(0.6) / (I_ARM + M_ARM * L_ARM**2)))
    res = simulate(pendulum_model(integrator, e=0.5, t_end=0.4))
    assert res.status == "completed", res.warnings
    hit = events(res)[0]
    tol = PENDULUM_TOL[integrator]
    assert abs(hit["t"] - t_ref) <= tol * t_ref
    assert hit["impact_speed"] == pytest.approx(w_ref, rel=tol)
    assert hit["rebound_speed"] == pytest.approx(0.5 * hit["impact_speed"], rel=1e-9)
    q = res.joint_coordinate("pivot")[:, 0]
    assert q.min() >= Q_STOP - 1e-9
    balance = res.energy()["balance"]
    assert np.abs(balance).max() < 2 * tol * M_ARM * G * L_ARM


@pytest.mark.parametrize("integrator", ["rk4", "rk4_tree"])
def test_hold_with_zero_restitution_carries_the_static_load(integrator):
    """e = 0: the arm stays on its stop; the held stop's load is the static m g l cos(q_stop)."""
    res = simulate(pendulum_model(integrator, e=0.0, t_end=0.6))
    assert [e["kind"] for e in res.stop_events] == ["impact", "hold"]
    q = res.joint_coordinate("pivot")[:, 0]
    after = res.t > res.stop_events[0]["t"] + 0.01
    assert np.abs(q[after] - Q_STOP).max() < 1e-9
    static = M_ARM * G * L_ARM * math.cos(Q_STOP)
    held = res.joint_stop_effort("pivot")[:, 0]  # joints.csv's pivot.angle_stop
    assert np.all(held[res.t < res.stop_events[0]["t"]] == 0.0)
    assert np.abs(held[after] - static).max() < 1e-9 * static
    assert res.stop_events[1]["effort"] == pytest.approx(static, rel=1e-9)


@pytest.mark.parametrize("integrator", ["rk4", "rk4_tree"])
def test_release_when_the_stop_would_pull(integrator):
    """A torque 10 t [N m] lifts the held arm off its stop when it exceeds m g l cos(q_stop)."""
    lift = {"name": "lift", "type": "torque", "body": "arm", "torque": [0, 0, "10*t"]}
    res = simulate(pendulum_model(integrator, e=0.0, t_end=0.8, forces=[lift]))
    kinds = [e["kind"] for e in res.stop_events]
    assert kinds == ["impact", "hold", "release"]
    t_release = M_ARM * G * L_ARM * math.cos(Q_STOP) / 10.0
    assert abs(res.stop_events[2]["t"] - t_release) <= 1e-8 * t_release
    assert res.joint_coordinate("pivot")[-1, 0] > Q_STOP + 1e-3


@pytest.mark.parametrize("integrator", ["rk4", "rk4_tree"])
def test_bouncing_slider_heights_and_times(integrator):
    """A block dropped from h onto travel_min = -h (the coordinate starts at 0) under gravity:
    impact n at sqrt(2h/g) (1 + 2 sum e^k), rebound speeds e^n sqrt(2 g h) (heights e^(2n) h),
    energy never grows, and once the bounces get shorter than a few steps the stop holds m g."""
    h, e = 0.2, 0.7
    stop = {"model": "rigid", "restitution": e}
    res = simulate(slider_model(integrator, 0.0, G, 0.0, 1.5, 1e-3, travel_min=-h, travel_stop=stop))
    hits = events(res)
    v1, t1 = math.sqrt(2 * G * h), math.sqrt(2 * h / G)
    for n, hit in enumerate(hits[:6]):
        t_n = t1 + sum(2 * e**k * v1 / G for k in range(1, n + 1))
        assert abs(hit["t"] - t_n) <= 1e-9 * t_n
        assert hit["rebound_speed"] ** 2 / (2 * G) == pytest.approx(e ** (2 * n + 2) * h, rel=1e-7)
    total = res.energy()["total"]
    assert np.all(np.diff(total) <= 1e-9 * 2.0 * G * h)  # never grows (potential 0 at the start)
    assert res.stop_events[-1]["kind"] == "hold"
    assert res.joint_stop_effort("guide")[-1, 0] == pytest.approx(2.0 * G, rel=1e-9)
    assert res.joint_coordinate("guide")[:, 0].min() >= -h - 1e-9


def double_pendulum(integrator="rk4"):
    """Two arms in a chain; the elbow has the rigid stop, so its impulse passes through the shoulder."""
    shoulder = {"name": "shoulder", "type": "revolute", "body_i": "ground", "body_j": "upper", "frame": SLIDE}
    elbow_frame = {"origin": [0.5, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
    elbow = {"name": "elbow", "type": "revolute", "body_i": "upper", "body_j": "lower", "frame": elbow_frame}
    elbow.update(angle_min=-0.3, angle_max=0.3, angle_stop={"model": "rigid", "restitution": 0.8})
    upper = {"name": "upper", "mass": 1.0, "inertia": [0.02] * 3, "position": [0.25, 0, 0]}
    lower = {"name": "lower", "mass": 0.7, "inertia": [0.01] * 3, "position": [0.75, 0, 0]}
    settings = {"t_end": 1.0, "output_step": 0.005, "integrator": integrator}
    return from_dict(
        {"gravity": [0, -G, 0], "bodies": [upper, lower], "joints": [shoulder, elbow], "settings": settings}
    )


@pytest.mark.parametrize("integrator", ["rk4", "galpha", "rk4_tree"])
def test_impulse_through_the_constrained_system(integrator):
    """The elbow's stop hits while the shoulder swings: after each impulse the other joints' velocity
    equations hold (Phi_q v < 1e-9), the elbow rebounds at -e times its approach rate and the
    energy balance stays closed."""
    res = simulate(double_pendulum(integrator))
    hits = events(res)
    assert hits, "the elbow should reach a stop"
    for hit in hits:
        assert hit["rebound_speed"] == pytest.approx(0.8 * hit["impact_speed"], rel=1e-9)
    system = res.system
    for h in hits:
        k = int(np.searchsorted(res.t, h["t"]))
        rate = system.constraint_jacobian(res.t[k], res.Y[k])[3]
        assert np.abs(rate).max() < {"rk4": 1e-6, "galpha": 1e-5, "rk4_tree": 1e-12}[integrator]  # its own drift
    q = res.joint_coordinate("elbow")[:, 0]
    assert q.min() >= -0.3 - 1e-9 and q.max() <= 0.3 + 1e-9
    e = res.energy()
    assert np.abs(e["balance"]).max() < 1e-4 * e["kinetic"].max()


def test_impact_map_keeps_the_other_joints_closed():
    """The impact map itself: the velocity equations of the shoulder after the elbow's impulse < 1e-9."""
    from MBDWorkbench.solver.events import StopMonitor, rigid_stops
    from MBDWorkbench.solver.system.system import System

    model = double_pendulum()
    model.settings.step = 1e-3
    system = System(model)
    stops = rigid_stops(system)
    mon = StopMonitor(system, model.settings, stops)
    Y = system.Y0.copy()
    Y[7 * 2 + 5] = 1.0  # upper turning at 1 rad/s ...
    Y[7 * 2 + 6 + 5] = -3.0  # ... and the lower arm the other way: the elbow closes on its min stop
    from MBDWorkbench.solver.system.assembly import assemble_initial_state

    Y, _ = assemble_initial_state(system, Y, 0.0)
    low = next(s for s in stops if s.side == "min")
    before = low.measure(system.nb, Y)[1] @ Y[14:]
    speed, rebound, impulse = mon._impact(low, 0.8, 0.0, Y, np.zeros(6))
    rate = system.constraint_jacobian(0.0, Y)[3]
    assert np.abs(rate).max() < 1e-9
    assert speed == pytest.approx(-before) and rebound == pytest.approx(0.8 * speed, rel=1e-12)
    assert impulse > 0


def test_bad_input_names_joint_and_field():
    for stop, field in (
        ({"model": "rigid", "restitution": 1.5}, "restitution"),
        ({"model": "rigid", "restitution": -0.1}, "restitution"),
        ({"model": "rigid", "stiffness": 1e4}, "stiffness"),
        ({"model": "hard"}, "model"),
        ({"restitution": 0.5, "stiffness": 1e4}, "restitution"),  # a compliant field: a compliant stop
    ):
        with pytest.raises(ModelError) as err:
            slider_model("rk4", travel_max=0.3, travel_stop=stop)
        assert "guide" in str(err.value) and field in str(err.value)


def test_report_lists_the_located_events():
    """The report's 'Stops and joint damping' lists the located events of summary.json, not sample-based contacts."""
    from MBDWorkbench.report import document, stops
    from MBDWorkbench.report.data import from_results

    res = simulate(pendulum_model("rk4", e=0.5, t_end=0.5))
    data = from_results(res)
    assert stops.stop_events(data) == []  # no contact guessed from the samples
    (table,) = [b for b in document.stop_blocks(data) if getattr(b, "header", [""])[0] == "t [s]"]
    assert len(table.rows) == len(res.stop_events) >= 2
    assert float(table.rows[0][0]) == pytest.approx(res.stop_events[0]["t"], rel=1e-8)  # 9 digits
    assert data.summary["stop_events"][0]["impulse"] == pytest.approx(res.stop_events[0]["impulse"])


def test_rigid_stop_on_a_driven_coordinate_is_refused():
    data = slider_model("rk4", travel_max=0.3).to_dict()
    data["joints"][0]["travel_stop"] = {"model": "rigid"}
    data["drivers"] = [{"name": "push", "type": "linear", "joint": "guide", "profile": "0.1*t"}]
    with pytest.raises(ModelError) as err:
        from_dict(data)
    assert "guide" in str(err.value) and "push" in str(err.value) and "travel_stop" in str(err.value)


@pytest.mark.parametrize("integrator", ["rk4", "radau", "galpha", "cros", "rk4_tree"])
def test_pendulum_onto_a_stop_at_the_bottom_against_the_elliptic_integral(integrator):
    """Released from rest horizontal onto a rigid stop where it hangs: the impact comes a quarter
    period later, t = sqrt(I_O / (m g L)) K(k^2), k = sin(pi/4) (tests/oracles/pendulum.py, the
    complete elliptic integral); the impact speed is the energy balance's, the rebound e times it."""
    e, q_bottom = 0.6, -math.pi / 2
    pivot = {"name": "pivot", "type": "revolute", "body_i": "ground", "body_j": "arm", "frame": SLIDE}
    pivot.update(angle_min=q_bottom, angle_stop={"model": "rigid", "restitution": e})
    arm = {"name": "arm", "mass": M_ARM, "inertia": [I_ARM] * 3, "position": [L_ARM, 0, 0]}
    settings = {"t_end": 0.5, "output_step": 0.01, "integrator": integrator}
    res = simulate(from_dict({"gravity": [0, -G, 0], "bodies": [arm], "joints": [pivot], "settings": settings}))
    t_hit = pendulum.pendulum_period(math.pi / 2, m=M_ARM, L=L_ARM, g=G, Jc=I_ARM) / 4
    w_hit = pendulum.pendulum_omega_bottom(math.pi / 2, m=M_ARM, L=L_ARM, g=G, Jc=I_ARM)
    hit = events(res)[0]
    tol = max(PENDULUM_TOL[integrator], 2e-5 if integrator == "galpha" else 0.0)  # galpha: 7e-6 (t), 1.0e-5 (w)
    assert t_hit < 0.5
    assert abs(hit["t"] - t_hit) <= tol * t_hit
    assert hit["impact_speed"] == pytest.approx(w_hit, rel=tol)
    assert hit["rebound_speed"] == pytest.approx(e * hit["impact_speed"], rel=1e-9)
    assert res.joint_coordinate("pivot")[:, 0].min() >= q_bottom - 1e-9
