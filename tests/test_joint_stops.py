"""Joint limits, compliant end stops (Adams' IMPACT law) and viscous joint damping against closed
forms and an independent 1-DoF solution (model.joint_stops, numerics.forces.joint_stop)."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from MBDWorkbench.solver import ModelError, from_dict, simulate
from MBDWorkbench.solver.model.joint_stops import DEFAULT_CONTACT_TIME, DEFAULT_DAMPING_RATIO, stop_laws

I_DISC, W0, Q_MAX = 0.25, 2.0, 0.5
COMPLIANT = {"model": "compliant"}  # the tests of the compliant law ask for it (the default is rigid)
AXLE = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}


def disc_model(integrator="rk4", step=1e-4, t_end=0.6, gravity=(0, 0, 0), **joint):
    """A disc turning at W0 about a revolute z axle (zero gravity) towards its angle_max Q_MAX."""
    axle = {"name": "axle", "type": "revolute", "body_i": "ground", "body_j": "disc", "frame": AXLE}
    axle.update(joint)
    disc = {"name": "disc", "mass": 2.0, "inertia": [0.14, 0.14, I_DISC], "angular_velocity": [0, 0, W0]}
    settings = {"t_end": t_end, "step": step, "output_step": 2e-4, "integrator": integrator}
    return from_dict({"gravity": list(gravity), "bodies": [disc], "joints": [axle], "settings": settings})


def contact(res, joint="axle", limit=Q_MAX):
    """(angle, rate, samples beyond the limit) of a run."""
    q = res.joint_coordinate(joint)[:, 0]
    return q, res.joint_coordinate_rate(joint)[:, 0], q > limit


@pytest.mark.parametrize("integrator", ["rk4", "bdf", "galpha", "cros", "rk4_tree"])
def test_linear_stop_closed_form(integrator):
    """An undamped linear stop (k, e = 1): the disc hits at t1 = Q_MAX / W0, penetrates
    W0 sqrt(I / k) (peak torque W0 sqrt(I k)), stays in contact pi sqrt(I / k) and leaves at -W0;
    the energy balance (stop spring in the potential) holds."""
    k = 400.0
    res = simulate(disc_model(integrator, angle_max=Q_MAX, angle_stop={"stiffness": k, "damping": 0.0}))
    assert res.status == "completed"
    q, rate, inside = contact(res)
    depth = W0 * np.sqrt(I_DISC / k)
    assert abs(q.max() - Q_MAX - depth) < 2e-3 * depth
    peak = res.joint_stop_effort("axle")[:, 0].min()  # the stop turns the disc back: negative
    assert abs(-peak - W0 * np.sqrt(I_DISC * k)) < 5e-3 * W0 * np.sqrt(I_DISC * k)
    t_in = res.t[inside]
    dt = res.t[1] - res.t[0]
    assert abs(t_in[0] - Q_MAX / W0) <= 2 * dt
    assert abs(t_in[-1] - t_in[0] - np.pi * np.sqrt(I_DISC / k)) <= 3 * dt
    assert abs(rate[-1] + W0) < 1e-3 * W0
    e = res.energy()
    assert np.abs(e["balance"]).max() < 1e-3 * e["total"][0]


def independent_impact(I, k, c_max, d_full, w_in):
    """Peak push and rebound speed of a 1-DoF inertia I hitting an IMPACT stop at w_in (SciPy, tight)."""

    def push(d, ddot):
        s = min(max(d / d_full, 0.0), 1.0)
        return max(0.0, k * d + c_max * s * s * (3 - 2 * s) * ddot) if d > 0 else 0.0

    def rhs(t, y):
        return [y[1], -push(y[0], y[1]) / I]

    leave = lambda t, y: y[0] + 1e-15  # noqa: E731 - back at the limit
    leave.terminal, leave.direction = True, -1
    sol = solve_ivp(
        rhs, (0, 1.0), [1e-15, w_in], events=leave, rtol=1e-11, atol=1e-14, max_step=1e-4, dense_output=True
    )
    tt = np.linspace(0, sol.t[-1], 20001)
    y = sol.sol(tt)
    return max(push(a, b) for a, b in zip(*y)), sol.y[1, -1]


def test_compliant_stop_defaults_against_independent_solution():
    """The compliant stop with its defaults (stiffness from the 10 ms contact time, damping ratio
    0.2, 1 mrad ramp): its parameters follow the documented rules, and the peak torque and rebound
    speed agree with an independent 1-DoF solution of the same law."""
    model = disc_model("rk4", 1e-5, 0.4, angle_max=Q_MAX, angle_stop={"model": "compliant"})
    (law,) = stop_laws(model, model.joints[0])
    assert law.stiffness == pytest.approx(I_DISC * (np.pi / DEFAULT_CONTACT_TIME) ** 2)
    assert law.damping == pytest.approx(2 * DEFAULT_DAMPING_RATIO * np.sqrt(law.stiffness * I_DISC))
    res = simulate(model)
    peak, rebound = independent_impact(I_DISC, law.stiffness, law.damping, law.penetration, W0)
    assert -res.joint_stop_effort("axle")[:, 0].min() == pytest.approx(peak, rel=3e-3)
    assert res.joint_coordinate_rate("axle")[-1, 0] == pytest.approx(rebound, rel=1e-3)
    assert 0 < -rebound < W0
    e = res.energy()  # the stop's damping work closes the balance
    assert e["work_nonconservative"][-1] == pytest.approx(0.5 * I_DISC * (rebound**2 - W0**2), rel=1e-3)
    assert np.abs(e["balance"]).max() < 1e-3 * e["total"][0]


def test_pendulum_falls_onto_stop():
    """A rod pendulum (gravity -y) released horizontal onto a stop at -90 deg + 0.3 rad: it hits
    at the speed energy gives, sqrt(2 m g h / I_O), and an undamped stop returns it at that speed."""
    m, L, g, k = 1.0, 0.8, 9.81, 2000.0
    rod = {"name": "rod", "mass": m, "inertia": [1e-4, m * L**2 / 12, m * L**2 / 12], "position": [L / 2, 0, 0]}
    limit = -np.pi / 2 + 0.3
    hinge = {"name": "hinge", "type": "revolute", "body_i": "ground", "body_j": "rod", "frame": AXLE}
    hinge.update(angle_min=limit, angle_stop={"stiffness": k, "damping": 0.0})
    settings = {"t_end": 0.8, "step": 1e-4, "output_step": 1e-4}
    res = simulate(from_dict({"gravity": [0, -g, 0], "bodies": [rod], "joints": [hinge], "settings": settings}))
    q, rate, _ = contact(res, "hinge", limit)
    hit = np.nonzero(q < limit)[0][0]
    I_O = m * L**2 / 3
    h = L / 2 * np.sin(-limit)
    w_hit = np.sqrt(2 * m * g * h / I_O)
    assert abs(rate[hit - 1]) == pytest.approx(w_hit, rel=2e-3)
    after = np.nonzero((np.arange(len(q)) > hit) & (q > limit))[0][0]
    assert rate[after] == pytest.approx(w_hit, rel=2e-3)


@pytest.mark.parametrize("coordinate", ["angle", "travel"])
def test_viscous_joint_damping_decay(coordinate):
    """Viscous joint damping c alone: the rate decays as exp(-c t / I) (angle, I = Izz) or
    exp(-c t / m) (prismatic travel), and its work is the lost kinetic energy."""
    c, m = 0.3, 2.0
    if coordinate == "angle":
        res = simulate(disc_model(t_end=1.0, step=1e-3, angle_damping=c))
        inertia = I_DISC
    else:
        body = {"name": "disc", "mass": m, "inertia": [0.14, 0.14, I_DISC], "velocity": [0, 0, W0]}
        slide = {"name": "axle", "type": "prismatic", "body_i": "ground", "body_j": "disc", "frame": AXLE}
        slide["travel_damping"] = c
        settings = {"t_end": 1.0, "step": 1e-3, "output_step": 1e-2}
        res = simulate(from_dict({"gravity": [0, 0, 0], "bodies": [body], "joints": [slide], "settings": settings}))
        inertia = m
    rate = res.joint_coordinate_rate("axle")[:, 0]
    np.testing.assert_allclose(rate, W0 * np.exp(-c * res.t / inertia), rtol=1e-8)
    np.testing.assert_allclose(res.joint_damping_effort("axle")[:, 0], -c * rate, rtol=1e-12)
    e = res.energy()
    assert e["work_nonconservative"][-1] == pytest.approx(e["kinetic"][-1] - e["kinetic"][0], rel=1e-6)


def test_slider_between_two_stops_never_gains_energy():
    """A slider bouncing between travel_min and travel_max (compliant stops with their default
    damping) for 10 s under
    gravity along its axis: the total energy never grows (beyond the integration error at the kink
    of the force where a contact starts, measured 8e-7 J per sample at this step and 8e-6 J at
    twice it) and it never passes a stop by more than 3 m/s sqrt(m / k)."""
    body = {"name": "s", "mass": 1.5, "inertia": [0.01, 0.01, 0.01], "velocity": [0, 0, 3.0]}
    slide = {"name": "slide", "type": "prismatic", "body_i": "ground", "body_j": "s", "frame": AXLE}
    slide.update(travel_min=-0.2, travel_max=0.3, travel_stop={"model": "compliant"})
    settings = {"t_end": 10.0, "step": 1e-4, "output_step": 1e-3}
    model = from_dict({"gravity": [0, 0, -2.0], "bodies": [body], "joints": [slide], "settings": settings})
    res = simulate(model)
    e = res.energy()
    total = e["kinetic"] + e["potential"]
    assert np.diff(total).max() < 1e-6 * total[0]
    assert e["kinetic"][-1] < 1e-3 * e["kinetic"][0]  # the stops' damping stopped it
    (law,) = stop_laws(model, model.joints[0])
    z = res.joint_coordinate("slide")[:, 0]
    assert z.max() < 0.3 + 3.0 * np.sqrt(1.5 / law.stiffness) and z.min() > -0.2 - 3.0 * np.sqrt(1.5 / law.stiffness)
    assert np.abs(e["balance"]).max() < 1e-3 * e["total"][0]


def test_limits_survive_the_model_file():
    model = disc_model(angle_max=Q_MAX, angle_min=-1.0, angle_damping=0.1, angle_stop={"stiffness": 50.0})
    again = from_dict(model.to_dict())
    assert again.joints[0] == model.joints[0]
    assert again.joints[0].angle_stop.stiffness == 50.0


@pytest.mark.parametrize(
    "fields, path, text",
    [
        ({"angle_min": 0.4, "angle_max": 0.2}, "angle_min", "must be below angle_max"),
        ({"angle_min": 0.1}, "angle_min", "starts at angle 0 deg, below angle_min 0.1"),
        ({"angle_max": -0.1}, "angle_max", "above angle_max"),
        ({"angle_damping": -1.0}, "angle_damping", "must not be negative"),
        ({"travel_max": 1.0}, "travel_max", "has no displacement coordinate (prismatic, cylindrical"),
        ({"angle_stop": {"stiffness": 1.0}}, "angle_stop", "a stop needs angle_min or angle_max"),
        ({"angle_max": 1, "angle_stop": {"exponent": 0.5, "stiffness": 1}}, "angle_stop.exponent", "[1, 10]"),
        ({"angle_max": 1, "angle_stop": {"exponent": 2.0}}, "angle_stop.stiffness", "required with an exponent"),
        ({"angle_max": 1, "angle_stop": {"stiffness": -2.0}}, "angle_stop.stiffness", "must be positive"),
        ({"angle_max": 1, "angle_stop": {"stifness": 2.0}}, "angle_stop.stifness", "unknown field"),
        ({"angle_max": 1, "angle_stop": {"stiffness": 2, "contact_time": 0.1}}, "angle_stop.contact_time", "not both"),
    ],
)
def test_bad_limits_name_joint_and_field(fields, path, text):
    with pytest.raises(ModelError) as e:
        disc_model(**fields)
    assert e.value.path == f"joints[0].{path}"
    assert text in str(e.value) and "axle" in str(e.value)


def test_fixed_step_too_long_for_the_stop_is_warned():
    """rk4 with 4 steps per contact of the stop: a 'stop_unresolved' warning naming the joint
    before the run; an adaptive integrator gets none."""
    k = I_DISC * (np.pi / 0.004) ** 2  # contact time 4 ms
    stop = {"stiffness": k}
    res = simulate(disc_model("rk4", 1e-3, 0.3, angle_max=Q_MAX, angle_stop=stop))
    (warning,) = [w for w in res.warnings if w.kind == "stop_unresolved"]
    assert warning.elements == ("axle",) and "4 steps" in warning.message
    assert res.status == "completed_with_warnings"
    res = simulate(disc_model("bdf", 1e-3, 0.3, angle_max=Q_MAX, angle_stop=stop))
    assert not [w for w in res.warnings if w.kind == "stop_unresolved"]


def test_stop_and_damping_columns_in_joints_csv(tmp_path):
    """joints.csv has the stop and damping efforts of a limited coordinate, read back equal."""
    from MBDWorkbench.solver.results.files import ResultTables, read_results

    res = simulate(disc_model(t_end=0.4, step=1e-4, angle_max=Q_MAX, angle_damping=0.05, angle_stop=COMPLIANT))
    files = read_results(res.write(str(tmp_path / "run")))
    back = ResultTables(files.tables, files.summary, files.source)
    np.testing.assert_allclose(back.joint_stop_effort("axle"), res.joint_stop_effort("axle"), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(back.joint_damping_effort("axle"), res.joint_damping_effort("axle"), rtol=1e-9)
    assert res.joint_stop_effort("axle").min() < 0 and back.tables["joints.csv"]["axle.angle_stop [N m]"].min() < 0


def test_compliant_stop_is_sized_on_the_mechanism_inertia():
    """A slider carrying a second body on a fixed joint: the compliant stop's inertia is the mass it
    really moves, m1 + m2 (the constrained mobility), not body_j's alone, so its contact lasts t_c."""
    from MBDWorkbench.solver.system.system import System

    carriage = {"name": "c", "mass": 1.0, "inertia": [0.01, 0.01, 0.01]}
    load = {"name": "l", "mass": 3.0, "inertia": [0.02, 0.02, 0.02], "position": [0.1, 0, 0]}
    slide = {"name": "slide", "type": "prismatic", "body_i": "ground", "body_j": "c", "frame": AXLE}
    slide.update(travel_max=0.1, travel_stop={"model": "compliant"})
    weld = {"name": "weld", "type": "fixed", "body_i": "c", "body_j": "l", "frame": AXLE}
    model = from_dict({"gravity": [0, 0, 0], "bodies": [carriage, load], "joints": [slide, weld]})
    system = System(model)
    assert system.coordinate_inertia(0, "displacement") == pytest.approx(4.0, rel=1e-9)
    (law,) = system.stop_laws
    assert law.stiffness == pytest.approx(4.0 * (np.pi / DEFAULT_CONTACT_TIME) ** 2)
    assert law.contact_time == pytest.approx(DEFAULT_CONTACT_TIME)


def test_report_section_lists_the_contact_and_the_losses():
    """The report's 'Stops and joint damping' (a compliant stop's contacts are found in the samples):
    one contact of the disc with angle_max, starting
    within an output step of the viscous closed form t1 = -(I/c) ln(1 - Q_MAX c / (W0 I)), impact
    speed, rebound speed and peak effort as the run's samples; the damping work equals the run's
    integral of the damping power."""
    from MBDWorkbench.report import document, stops
    from MBDWorkbench.report.data import from_results

    res = simulate(disc_model(t_end=0.5, step=1e-4, angle_max=Q_MAX, angle_damping=0.01, angle_stop=COMPLIANT))
    data = from_results(res)
    (event,) = stops.stop_events(data)
    t1 = -(I_DISC / 0.01) * np.log(1 - Q_MAX * 0.01 / (W0 * I_DISC))
    assert event["joint"] == "axle" and abs(event["start"] - t1) < 2 * (res.t[1] - res.t[0])
    rate = res.joint_coordinate_rate("axle")[:, 0]
    assert event["impact"] == pytest.approx(rate[res.t < event["start"]][-1]) and event["impact"] > 0
    assert event["rebound"] < 0 and event["peak"] == pytest.approx(res.joint_stop_effort("axle")[:, 0].min())
    (loss,) = stops.stop_losses(data)
    power = res.joint_damping_effort("axle")[:, 0] * rate
    assert loss["damping_work"] == pytest.approx(np.trapz(power, res.t), rel=1e-9) and loss["damping_work"] < 0
    blocks = document.stop_blocks(data)
    assert blocks[0].text == "Stops and joint damping" and len(blocks[2].rows) == 1
