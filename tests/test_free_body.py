"""The free-body diagram's load set (MBDWorkbench.loads: body_loads, force_loads, replay,
diagram): every load on a body sums to zero (force, and moment about the CoG) on the shipped
examples at several instants, and each load matches an independent computation: the pendulum
pivot in closed form, springs, dampers, applied forces and torques from their formulas."""

import copy
import json
import os

import numpy as np
import pytest

from MBDWorkbench.loads import body_load_case, worst_instants
from MBDWorkbench.loads.diagram import MIN_LENGTH, diagram_arrows, diagram_scale, table_rows
from MBDWorkbench.loads.replay import replayed
from MBDWorkbench.report.data import load_results_dir
from MBDWorkbench.solver.model import from_dict, load
from MBDWorkbench.solver.model.schema import Stop
from MBDWorkbench.solver.simulate import simulate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
BALANCE = 1e-9  # |sum of loads| relative to the largest load (moments over the body size)


def run(name, **overrides):
    path = os.path.join(EXAMPLES, name) if os.path.isfile(os.path.join(EXAMPLES, name)) else os.path.join(ROOT, name)
    return simulate(load(path), **overrides)


def residual(case):
    """|sum F| and |sum M about the CoG| relative to the largest load, computed here."""
    F = np.sum([ld.force for ld in case.loads], axis=0)
    M = np.sum([ld.moment + np.cross(ld.point - case.cog, ld.force) for ld in case.loads], axis=0)
    L = max(1e-3, max(np.linalg.norm(ld.point - case.cog) for ld in case.loads))
    big = max(max(np.linalg.norm(ld.force), np.linalg.norm(ld.moment) / L) for ld in case.loads)
    return max(np.linalg.norm(F), np.linalg.norm(M) / L) / big


@pytest.mark.parametrize(
    "name, settings, tol",
    [
        ("pendulum.json", dict(t_end=1.0), BALANCE),  # planar, one joint
        ("slider_crank.json", dict(t_end=1.0), BALANCE),  # driver and spring
        ("four_bar_spatial.json", {}, BALANCE),  # four revolutes with parallel axes: redundant
        ("bricard.json", dict(t_end=0.5), BALANCE),  # spatial overconstrained loop: redundant
        ("spinning_top.json", dict(t_end=0.5), BALANCE),  # spatial, gyroscopic (w x I w)
        # planar four-bar of spatial revolutes, redundant and driven: its multipliers are the
        # minimum-norm split (a least-squares solve, System.min_norm_multipliers): 3.3e-9 seen
        ("tests/models/four_bar_4r.json", {}, 1e-8),
    ],
)
def test_loads_drawn_sum_to_zero(name, settings, tol):
    res = run(name, **settings)
    assert res.status.startswith("completed"), res.message
    for body in res.body_names:
        instants = sorted({1, len(res) // 3, 2 * len(res) // 3, len(res) - 1, worst_instants(res, body)[0]})
        for k in instants:
            case = body_load_case(res, body, k)
            assert residual(case) < tol, (name, body, k, residual(case))
            kinds = {ld.kind for ld in case.loads}
            assert {"joint", "gravity", "inertia"} <= kinds


def test_pendulum_pivot_is_the_rigid_body_closed_form():
    """Released from the horizontal, a body of mass m with its CoG at L from the pivot and
    inertia I about the CoG: (m L^2 + I) theta'' = m g L cos(theta), theta'^2 = 2 m g L
    sin(theta) / (m L^2 + I); the pivot pulls the body towards it with m g sin(theta) + m L
    theta'^2 and pushes it against the swing with m g cos(theta) I / (m L^2 + I)."""
    res = run("pendulum.json", t_end=1.0)
    g, L, m, I = 9.81, 1.0, 1.0, 4e-5
    for k in range(0, len(res), 9):
        case = body_load_case(res, "bob", k)
        pivot = next(ld for ld in case.loads if ld.name == "pivot")
        r = case.cog / np.linalg.norm(case.cog)  # the pivot is at the origin
        sin_t, cos_t = -r[2], r[0]
        rate2 = 2 * m * g * L * sin_t / (m * L**2 + I)
        tangent = np.array([-sin_t, 0.0, -cos_t])  # direction of the swing
        expected = -(m * g * sin_t + m * L * rate2) * r - m * g * cos_t * I / (m * L**2 + I) * tangent
        assert np.allclose(pivot.force, expected, rtol=0, atol=1e-6 * m * g), (k, pivot.force, expected)
        assert np.allclose(pivot.point, 0.0, atol=1e-9)
        assert np.allclose(next(ld.force for ld in case.loads if ld.kind == "gravity"), [0, 0, -m * g])


FORCED = {
    "name": "forced bar",
    "gravity": [0, 0, -9.81],
    "bodies": [{"name": "bar", "mass": 2.0, "inertia": [0.01, 0.2, 0.2], "position": [0.5, 0, 0]}],
    "joints": [
        {
            "name": "pivot",
            "type": "revolute",
            "body_i": "ground",
            "body_j": "bar",
            "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]},
        }
    ],
    "forces": [
        {
            "name": "coil",
            "type": "spring_damper",
            "body_i": "ground",
            "point_i": [0.5, 0, 0.5],
            "body_j": "bar",
            "point_j": [0.8, 0, 0],
            "stiffness": 50.0,
            "damping": 3.0,
            "free_length": 0.3,
        },
        {"name": "push", "type": "point_force", "body": "bar", "point": [1.0, 0, 0], "force": ["2", "0", "5*sin(3*t)"]},
        {"name": "twist", "type": "torque", "body": "bar", "torque": ["0", "0.5*t", "0"]},
        {
            "name": "hinge spring",
            "type": "rotational_spring_damper",
            "joint": "pivot",
            "stiffness": 2.0,
            "damping": 0.1,
            "free_angle": 0.0,
        },
    ],  # fmt: skip
    "settings": {"t_end": 0.8, "step": 0.0005, "output_step": 0.01, "integrator": "rk4"},
}


@pytest.fixture(scope="module")
def forced():
    res = simulate(from_dict(copy.deepcopy(FORCED)))
    assert res.status.startswith("completed"), res.message
    return res


def body_point(res, k, local_global0):
    """Global point [m] and velocity [m/s] at sample k of the bar's point that was at
    ``local_global0`` at t = 0."""
    R0 = res.rotation("bar")[0]
    s = R0.T @ (np.asarray(local_global0) - res.position("bar")[0])
    R = res.rotation("bar")[k]
    p = res.position("bar")[k] + R @ s
    v = res.velocity("bar")[k] + np.cross(res.angular_velocity("bar")[k], R @ s)
    return p, v


def test_force_element_loads_match_their_formulas(forced):
    res = forced
    for k in (3, 31, 64, len(res) - 1):
        t = res.t[k]
        case = body_load_case(res, "bar", k)
        loads = {ld.name: ld for ld in case.loads}
        assert residual(case) < BALANCE
        # spring and damper between the ground point and the bar's point
        p, v = body_point(res, k, [0.8, 0, 0])
        d = p - np.array([0.5, 0, 0.5])
        u = d / np.linalg.norm(d)
        assert np.allclose(loads["coil (spring)"].force, -50.0 * (np.linalg.norm(d) - 0.3) * u, atol=1e-9)
        assert np.allclose(loads["coil (damper)"].force, -3.0 * np.dot(u, v) * u, atol=1e-9)
        assert np.allclose(loads["coil (spring)"].point, p, atol=1e-12)
        assert np.allclose(loads["coil (spring)"].moment, 0.0, atol=1e-9)
        # applied force at its point, applied torque
        p_push, _ = body_point(res, k, [1.0, 0, 0])
        assert np.allclose(loads["push"].force, [2.0, 0, 5 * np.sin(3 * t)], atol=1e-12)
        assert np.allclose(loads["push"].point, p_push, atol=1e-12)
        assert np.allclose(loads["twist"].moment, [0, 0.5 * t, 0], atol=1e-12)
        # rotational spring-damper: -(k theta + c theta') about the hinge axis; theta is the
        # bar's rotation about +y from its initial pose
        R = res.rotation("bar")[k] @ res.rotation("bar")[0].T
        theta = np.arctan2(R[0, 2], R[0, 0])
        rate = res.angular_velocity("bar")[k][1]
        assert np.allclose(loads["hinge spring (spring)"].moment, [0, -2.0 * theta, 0], atol=1e-9)
        assert np.allclose(loads["hinge spring (damper)"].moment, [0, -0.1 * rate, 0], atol=1e-9)
        assert np.allclose(loads["hinge spring (spring)"].point, 0.0, atol=1e-9)


def test_replayed_results_files_give_the_runs_loads(forced, tmp_path):
    """Read back from the results folder (10 digits), each sample evaluated again: the same
    loads to ~1e-8 of the largest and each set in equilibrium to 1e-9."""
    forced_out = tmp_path / "run"
    from MBDWorkbench.solver.results.files import write_results

    write_results(forced, forced_out)
    run_back = replayed(load_results_dir(forced_out))
    for k in (0, 40, len(forced) - 1):
        mine, theirs = run_back.load_case("bar", k), body_load_case(forced, "bar", k)
        assert mine.index == k and [ld.name for ld in mine.loads] == [ld.name for ld in theirs.loads]
        assert residual(mine) < BALANCE
        big = theirs.largest_load()
        for a, b in zip(mine.loads, theirs.loads):
            assert np.linalg.norm(a.force - b.force) < 1e-7 * big, (a.name, a.force, b.force)


def test_scale_rule_and_table(forced):
    cases = [body_load_case(forced, "bar", k) for k in (10, 50)]
    scale = diagram_scale(cases)
    length = max(MIN_LENGTH, max(c.size() for c in cases))
    arrows = [a for c in cases for a in diagram_arrows(c, scale)]
    longest_force = max(np.linalg.norm(a.vector) for a in arrows if not a.moment)
    longest_moment = max(np.linalg.norm(a.vector) for a in arrows if a.moment)
    assert longest_force == pytest.approx(length) and longest_moment == pytest.approx(length)
    for a in arrows:  # each arrow along its load, in proportion
        factor = scale.moment if a.moment else scale.force
        assert np.allclose(a.vector, a.value * factor)
    rows = table_rows(cases[0])
    assert len(rows) == len(cases[0].loads) + 1 and rows[-1][0].startswith("sum")
    assert json.dumps(rows)  # plain text cells


def test_report_has_a_free_body_diagram_per_body_at_each_critical_instant(tmp_path, monkeypatch):
    """From a saved results folder: per moving body a heading, and per critical instant of that
    body (found on the run's own Results, not the replay) a table and a picture. The loads drawn
    in each are the run's own at that sample (to 1e-7 of the largest) and sum to zero, force and
    moment, computed here from the loads (< 1e-9 of the largest). A cap on the diagrams is said."""
    from MBDWorkbench.loads.body_loads import critical_instants
    from MBDWorkbench.report import document, free_body, load_results_dir
    from MBDWorkbench.report.plots import Plot
    from MBDWorkbench.solver.results.files import write_results

    res = run("slider_crank.json", t_end=1.0)
    write_results(res, tmp_path / "run")
    data = load_results_dir(tmp_path / "run")
    blocks = free_body.free_body_blocks(data)
    assert blocks[0].text == "Free-body diagrams"
    tables = [b for b in blocks if isinstance(b, document.Table)]
    pictures = [b for b in blocks if isinstance(b, Plot)]
    expected = [(body, k, why) for body in res.body_names for k, why in critical_instants(res, body)]
    assert len(tables) == len(pictures) == len(expected) > len(res.body_names)
    assert [b.text for b in blocks if isinstance(b, document.Heading) and b.level == 2] == res.body_names
    drawn, pairs = free_body.free_body_cases(data)
    assert pairs == len(expected)
    for (body, k, why), table, picture, (case, reasons) in zip(expected, tables, pictures, drawn):
        theirs = body_load_case(res, body, k)
        assert (case.body, case.index, reasons) == (body, k, why)
        assert "sample %d" % k in table.caption and body in table.caption and body in picture.title
        assert [r[0] for r in table.rows] == [ld.name for ld in theirs.loads] + ["sum"]
        big = theirs.largest_load()
        for row, mine, ld in zip(table.rows, case.loads, theirs.loads):
            assert float(row[2]) == pytest.approx(np.linalg.norm(ld.force), rel=1e-3, abs=1e-9)
            assert np.linalg.norm(mine.force - ld.force) < 1e-7 * big, (body, k, ld.name)
        assert residual(case) < BALANCE, (body, k, residual(case))
    assert any(r[1] == "spring" for t in tables if "slider" in t.caption for r in t.rows)
    monkeypatch.setattr(free_body, "MAX_DIAGRAMS", 2)
    capped = free_body.free_body_blocks(data)
    assert len([b for b in capped if isinstance(b, Plot)]) == 2
    assert "The first 2 of the %d diagrams are drawn" % len(expected) in capped[1].text


def test_report_files_hold_the_section(tmp_path):
    from MBDWorkbench.report import write_report

    res = run("pendulum.json", t_end=0.5)
    write_report(res, tmp_path / "r", animation=None)
    html = (tmp_path / "r" / "report.html").read_text()
    assert "Free-body diagrams" in html and "Free-body diagram: bob at t = " in html and "pivot" in html


def test_inertia_and_driver_loads_match_independent_values():
    """The d'Alembert force is -m dv/dt with dv/dt by central differences of the sampled CoG
    velocity (finer output step, O(h^2)); the motor's load on the crank (body_j of its joint) is a
    torque equal to the driver effort the run reports."""
    res = run("slider_crank.json", t_end=0.6, output_step=0.001)
    h = res.t[1] - res.t[0]
    for body in res.body_names:
        mass = next(b.mass for b in res.model.bodies if b.name == body)
        v = res.velocity(body)
        for k in (50, 250, 480):
            inertia = next(ld for ld in body_load_case(res, body, k).loads if ld.kind == "inertia")
            a = (v[k + 1] - v[k - 1]) / (2 * h)
            assert np.allclose(inertia.force, -mass * a, rtol=0, atol=2e-4 * max(1.0, mass * np.linalg.norm(a)))
    for k in (50, 250, 480):
        motor = next(ld for ld in body_load_case(res, "crank", k).loads if ld.kind == "driver")
        assert np.allclose(motor.force, 0.0, atol=1e-9)
        assert motor.moment[2] == pytest.approx(res.driver_effort("motor")[k], rel=1e-9, abs=1e-12)


def test_a_joint_stop_is_in_the_load_set_and_the_loads_balance():
    """A pendulum falling onto its compliant end stop: while the stop acts, the body's load set holds
    a 'stop' load (the stop torque about the pivot axis, from the run's own joints.csv effort) and
    all loads still sum to zero."""
    model = load(os.path.join(EXAMPLES, "pendulum.json"))
    pivot = next(j for j in model.joints if j.type == "revolute")
    pivot.angle_min, pivot.angle_max, pivot.angle_stop = -0.3, 0.3, Stop(model="compliant")
    res = simulate(model, t_end=1.0, output_step=0.002, integrator="rk4", step=2e-4, accuracy=False)
    body = pivot.body_j if pivot.body_j != "ground" else pivot.body_i
    effort = np.abs(res.joint_stop_effort(pivot.name)[:, 0])
    k = int(np.argmax(effort))
    assert effort[k] > 0
    case = body_load_case(res, body, k)
    stops = [ld for ld in case.loads if ld.kind == "stop"]
    assert len(stops) == 1
    assert np.linalg.norm(stops[0].moment) == pytest.approx(effort[k], rel=1e-6)
    case.check_equilibrium()
