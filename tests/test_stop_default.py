"""The default stop model (model.joint_stops.stop_model, docs/joint-limits.md): rigid, with
restitution DEFAULT_RESTITUTION; compliant when asked for or when a compliant field is given; and
compliant with a 'stop_model' warning where a rigid stop cannot act (a driven coordinate)."""

import numpy as np
import pytest

from MBDWorkbench.loads import body_load_case
from MBDWorkbench.solver import ModelError, from_dict, simulate
from MBDWorkbench.solver.events import REFUSING
from MBDWorkbench.solver.model.joint_stops import DEFAULT_RESTITUTION, RIGID_REFUSED_BY, stop_model
from MBDWorkbench.solver.system.system import System

SLIDE = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
V, Z_MAX, MASS = 1.3, 0.3, 2.0


def slider(integrator="rk4", drivers=(), **joint) -> dict:
    """A 2 kg block on a prismatic z guide moving at V [m/s] towards travel_max Z_MAX (no gravity)."""
    guide = {"name": "guide", "type": "prismatic", "body_i": "ground", "body_j": "block", "frame": SLIDE}
    guide.update(travel_max=Z_MAX, **joint)
    block = {"name": "block", "mass": MASS, "inertia": [0.01] * 3, "velocity": [0, 0, V]}
    settings = {"t_end": 0.4, "step": 1e-3, "output_step": 0.01, "integrator": integrator}
    return {"gravity": [0, 0, 0], "bodies": [block], "joints": [guide], "drivers": list(drivers), "settings": settings}


def resolved(data: dict) -> tuple[str, str]:
    model = from_dict(data)
    return stop_model(model, model.joints[0], "displacement")


def test_a_limit_without_a_stop_is_rigid_with_the_default_restitution():
    """No stop given: the block hits travel_max at Z_MAX / V (closed form), rebounds at -e V with
    e = DEFAULT_RESTITUTION, impulse -(1 + e) m V; no warning, status completed."""
    assert resolved(slider()) == ("rigid", "")
    res = simulate(from_dict(slider()))
    assert res.status == "completed", res.warnings
    (hit,) = [e for e in res.stop_events if e["kind"] == "impact"]
    assert hit["t"] == pytest.approx(Z_MAX / V, rel=1e-9)
    assert hit["rebound_speed"] == pytest.approx(DEFAULT_RESTITUTION * V, rel=1e-9)
    assert hit["impulse"] == pytest.approx(-(1 + DEFAULT_RESTITUTION) * MASS * V, rel=1e-9)
    assert res.joint_coordinate("guide")[:, 0].max() <= Z_MAX + 1e-9


def test_what_the_stop_gives_decides_the_model():
    """A restitution alone keeps the default (rigid); a compliant field alone makes it compliant;
    both without a model are refused naming the field."""
    assert resolved(slider(travel_stop={"restitution": 0.2})) == ("rigid", "")
    assert resolved(slider(travel_stop={"contact_time": 0.005})) == ("compliant", "")
    assert resolved(slider(travel_stop={"model": "compliant"})) == ("compliant", "")
    (law,) = System(from_dict(slider(travel_stop={"restitution": 0.2}))).stop_laws
    assert law.rigid and law.restitution == 0.2
    with pytest.raises(ModelError) as err:
        from_dict(slider(travel_stop={"restitution": 0.2, "stiffness": 1e4}))
    assert "guide" in str(err.value) and "restitution" in str(err.value)


def test_rk4_tree_takes_the_default_rigid_stop():
    """rk4_tree holds a rigid stop as a driven coordinate: no integrator refuses rigid stops, so the
    default stop stays rigid there with no warning; the block hits travel_max at Z_MAX / V and
    rebounds at -e V (e = DEFAULT_RESTITUTION), as under rk4."""
    assert set(RIGID_REFUSED_BY) == set(REFUSING) == set()
    assert resolved(slider("rk4_tree")) == ("rigid", "")
    res = simulate(from_dict(slider("rk4_tree")))
    assert res.status == "completed", res.warnings
    (hit,) = [e for e in res.stop_events if e["kind"] == "impact"]
    assert hit["t"] == pytest.approx(Z_MAX / V, rel=1e-9)
    assert hit["rebound_speed"] == pytest.approx(DEFAULT_RESTITUTION * V, rel=1e-9)


def test_a_driven_coordinate_keeps_a_compliant_stop_with_a_warning():
    """A limited coordinate held by a driver cannot take a rigid stop: the default one is compliant
    (stated in the warning), an explicit rigid one refused naming the driver."""
    push = {"name": "push", "type": "linear", "joint": "guide", "profile": "0.1*t"}
    assert resolved(slider(drivers=[push])) == ("compliant", "its displacement is driven by 'push'")
    res = simulate(from_dict(slider(drivers=[push])))
    (warning,) = [w for w in res.warnings if w.kind == "stop_model"]
    assert "push" in warning.message and warning.elements == ("guide",)
    with pytest.raises(ModelError, match="push"):
        from_dict(slider(drivers=[push], travel_stop={"model": "rigid"}))


def test_held_default_stop_carries_the_weight():
    """Under gravity along the guide the block lands on travel_min and stays: the default (rigid)
    stop is held with the load m g (statics) at the end, and the energy balance stays closed (the
    impact losses are non-conservative work), so the quality gate's energy check stays quiet."""
    data = slider()
    data["joints"][0].update(travel_min=-0.1)
    data["gravity"] = [0, 0, -9.81]
    data["bodies"][0]["velocity"] = [0, 0, 0]
    data["settings"].update(t_end=1.5)
    res = simulate(from_dict(data))
    assert [e["kind"] for e in res.stop_events][-1] == "hold"
    assert res.joint_stop_effort("guide")[-1, 0] == pytest.approx(MASS * 9.81, rel=1e-9)
    e = res.energy()
    assert np.abs(e["balance"]).max() < 1e-6 * abs(e["potential"][0] - e["potential"][-1])
    assert not [w for w in res.warnings if w.kind == "energy_drift"]  # the gate judges this model


def test_events_csv_matches_summary_and_the_closed_form(tmp_path):
    """events.csv, written next to joints.csv: one row per located event, equal to summary.json's
    stop_events, the impact at Z_MAX / V (closed form, 1e-9 relative); the zip has it too."""
    import json
    import zipfile

    from MBDWorkbench.solver.results.events_table import COLUMNS, EVENTS, read_events
    from MBDWorkbench.solver.results.files import write_zip

    data = slider()
    data["joints"][0].update(travel_min=-0.1, travel_stop={"restitution": 0.0})  # impact, then held
    res = simulate(from_dict(data))
    folder = res.write(str(tmp_path / "run"))
    summary = json.load(open(f"{folder}/summary.json"))
    assert EVENTS in summary["files"]
    text = open(f"{folder}/{EVENTS}", newline="", encoding="utf-8").read()
    assert text.splitlines()[0].split(",") == list(COLUMNS)
    rows = read_events(text)
    stops = summary["stop_events"]
    assert [r["kind"] for r in rows] == [e["kind"] for e in stops] == ["impact", "hold"]
    for row, event in zip(rows, stops):
        assert row["time [s]"] == pytest.approx(event["t"], rel=1e-14)
        assert (row["joint"], row["coordinate"], row["side"]) == ("guide", "displacement", "max")
    impact, hold = rows
    assert impact["time [s]"] == pytest.approx(Z_MAX / V, rel=1e-9)
    assert impact["impact_speed"] == pytest.approx(V, rel=1e-9) and impact["rebound_speed"] == pytest.approx(0.0)
    assert impact["impulse"] == pytest.approx(-MASS * V, rel=1e-9) and impact["load"] is None
    assert hold["load"] == pytest.approx(stops[1]["effort"], abs=1e-12) and hold["impulse"] is None
    zipped = write_zip(res, str(tmp_path / "run.zip"))
    with zipfile.ZipFile(zipped) as z:
        assert z.read(EVENTS).decode() == text


def test_events_csv_takes_friction_transitions_when_present():
    """Friction's stick/slip transitions (summary.json's friction_events) join the stop events in
    time order; a run without either has no events.csv."""
    from MBDWorkbench.solver.results.events_table import event_texts, read_events

    summary = {
        "stop_events": [{"t": 0.5, "joint": "a", "coordinate": "angle", "side": "min", "kind": "release"}],
        "friction_events": [
            {"time": 0.7, "joint": "b", "kind": "slip", "speed": 0.0, "load": 3.5},
            {"time": 0.2, "joint": "b", "kind": "stick", "speed": 0.01, "load": 2.0},
        ],
    }
    (text,) = event_texts(summary).values()
    rows = read_events(text)
    assert [(r["time [s]"], r["joint"], r["kind"]) for r in rows] == [
        (0.2, "b", "stick"),
        (0.5, "a", "release"),
        (0.7, "b", "slip"),
    ]
    assert (rows[0]["slip_speed"], rows[0]["load"], rows[0]["side"]) == (0.01, 2.0, "")
    assert rows[1]["impulse"] is None and rows[1]["load"] is None
    assert event_texts({"status": "completed"}) == {}


@pytest.mark.parametrize("past", [0.0, 1e-12, 5e-7])
def test_a_start_just_past_the_limit_starts_on_the_stop(past):
    """A start past travel_max by at most START_TOL (accepted: the CAD's tolerance), pushed further by
    gravity: the rigid stop takes it at once (held, load -m g from statics to 1e-9, balancing the
    block's free-body loads) instead of never seeing a gap that starts below 0; further past (the
    assembly moved it), a ModelError names the joint."""
    from MBDWorkbench.solver.events import monitor
    from MBDWorkbench.solver.model.joint_stops import START_TOL

    data = slider()
    data["joints"][0]["travel_max"] = -past
    data["bodies"][0]["velocity"] = [0, 0, 0]
    data["gravity"] = [0, 0, 9.81]
    model = from_dict(data)
    res = simulate(model)
    assert res.joint_coordinate("guide")[:, 0].max() <= 1e-12
    assert [e["kind"] for e in res.stop_events][-1] == "hold"
    assert res.joint_stop_effort("guide")[-1, 0] == pytest.approx(-MASS * 9.81, rel=1e-9)
    assert model.joints[0].travel_stop is None  # the held run's lock row left the model as it was
    case = body_load_case(res, "block", len(res) - 1)  # the held stop's load balances the weight
    (stop,) = [ld for ld in case.loads if ld.kind == "stop"]
    assert stop.force[2] == pytest.approx(-MASS * 9.81, rel=1e-9)
    case.check_equilibrium()
    system = System(model)
    stops = monitor(system, model.settings)
    Y = system.Y0.copy()
    Y[2] += 2 * START_TOL  # the block's z: its displacement 2 START_TOL past travel_max
    with pytest.raises(ModelError, match="guide"):
        stops.advance(None, 0.0, Y, 0.01, np.zeros(6), None)


def test_held_arm_load_set_balances():
    """The arm of tests/test_rigid_stops.py held on its rigid angle stop (e = 0): at rest, its
    free-body loads hold the stop's torque m g l cos(q_stop) about the pivot axis (statics) and no
    inertia load, and they balance."""
    from test_rigid_stops import L_ARM, M_ARM, Q_STOP, G, pendulum_model

    res = simulate(pendulum_model("rk4", e=0.0, t_end=0.6))
    case = body_load_case(res, "arm", len(res) - 1)
    (stop,) = [ld for ld in case.loads if ld.kind == "stop"]
    assert stop.moment[2] == pytest.approx(M_ARM * G * L_ARM * np.cos(Q_STOP), rel=1e-9)
    (inertia,) = [ld for ld in case.loads if ld.kind == "inertia"]
    assert np.abs(inertia.force).max() < 1e-9 and np.abs(inertia.moment).max() < 1e-9
    case.check_equilibrium()
