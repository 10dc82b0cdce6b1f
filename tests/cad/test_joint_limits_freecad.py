"""Joint limits on a FreeCAD Joint object (group "Limits", cad/joint_limits.py): read into the
model in SI units, and the bar pendulum of examples/make_pendulum_fcstd.py stays within them."""

import math
import os
import sys

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "examples"))


@pytest.fixture
def doc(App):
    d = App.newDocument("JointLimitsTest")
    name = d.Name
    yield d
    if name in App.listDocuments():
        App.closeDocument(name)


def test_limits_damping_and_contact_time_in_si_and_the_bar_stays_within(App, doc):
    """Compliant stops (StopModel compliant) with their contact time: the bar passes its limits by
    a little only."""
    import make_pendulum_fcstd

    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.solver import simulate

    sim, body, joint = make_pendulum_fcstd.build(doc, angle_deg=30.0)
    sim.EndTimeMilliseconds, sim.OutputStepMicroseconds = 1000, 2000
    free = simulate(model_from_document(doc)).joint_coordinate(joint.Label)[:, 0]
    assert np.ptp(free) > math.radians(40)  # it swings far without limits
    joint.EnableAngleMin, joint.AngleMin = True, -10.0
    joint.EnableAngleMax, joint.AngleMax = True, 20.0
    joint.EnableTravelMax = True  # a revolute has no travel: ignored
    joint.AngleDamping, joint.StopModel, joint.StopContactTime = 0.002, "compliant", 0.004
    doc.recompute()
    model = model_from_document(doc)
    j = model.joints[0]
    assert (j.angle_min, j.angle_max) == (pytest.approx(math.radians(-10)), pytest.approx(math.radians(20)))
    assert j.angle_damping == 0.002 and j.angle_stop.contact_time == 0.004 and j.travel_max is None
    q = simulate(model).joint_coordinate(joint.Label)[:, 0]
    assert q.min() > math.radians(-12) and q.max() < math.radians(22)
    assert q.min() < math.radians(-10) or q.max() > math.radians(20)  # a stop was hit


def test_rigid_stops_are_the_default_and_hold_the_limits(App, doc):
    """A new Joint's StopModel is rigid, with StopRestitution: a rigid angle stop in the model; the
    run's located impacts rebound at e times the impact speed and the bar never passes a limit."""
    import make_pendulum_fcstd

    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.errors import CadError
    from MBDWorkbench.cad.joint_limits import write_limit_values
    from MBDWorkbench.solver import simulate
    from MBDWorkbench.solver.model.joint_stops import stop_model

    sim, body, joint = make_pendulum_fcstd.build(doc, angle_deg=30.0)
    sim.EndTimeMilliseconds, sim.OutputStepMicroseconds = 1000, 10000
    joint.EnableAngleMin, joint.AngleMin = True, -10.0
    joint.EnableAngleMax, joint.AngleMax = True, 20.0
    assert joint.StopModel == "rigid"
    joint.StopRestitution = 0.3
    doc.recompute()
    model = model_from_document(doc)
    stop = model.joints[0].angle_stop
    assert stop.restitution == 0.3 and stop.contact_time is None
    assert stop_model(model, model.joints[0], "angle") == ("rigid", "")
    res = simulate(model)
    q = res.joint_coordinate(joint.Label)[:, 0]
    assert q.min() >= math.radians(-10) - 1e-9 and q.max() <= math.radians(20) + 1e-9
    impacts = [e for e in res.stop_events if e["kind"] == "impact"]
    assert impacts and all(e["rebound_speed"] == pytest.approx(0.3 * e["impact_speed"]) for e in impacts[:3])
    with pytest.raises(CadError, match="StopRestitution"):
        write_limit_values(joint, {"StopRestitution": 1.2})


def test_documents_saved_before_the_stop_model_keep_their_stops(App, doc, tmp_path):
    """A Joint saved before StopModel keeps the stop it ran with: compliant where a limit is enabled
    and the former RigidStops switch is off or absent, rigid where it was on; one without limits
    gets the default (rigid). RigidStops is removed."""
    import make_pendulum_fcstd

    from MBDWorkbench.cad.joint_limits import limit_fields

    cases = {"limited_off": (True, False), "limited_absent": (True, None), "limited_on": (True, True)}
    cases["free_off"] = (False, False)
    for name, (limited, rigid) in cases.items():
        _, _, joint = make_pendulum_fcstd.build(doc, angle_deg=30.0)
        joint.Label = name
        joint.EnableAngleMax, joint.AngleMax = limited, 20.0
        joint.removeProperty("StopModel")  # as an older version wrote it
        if rigid is not None:
            joint.addProperty("App::PropertyBool", "RigidStops", "Limits", "former switch")
            joint.RigidStops = rigid
    path = str(tmp_path / "old.FCStd")
    doc.saveAs(path)
    App.closeDocument(doc.Name)
    again = App.openDocument(path)
    try:
        joints = {o.Label: o for o in again.Objects if getattr(o, "MbdType", "") == "Joint"}
        expected = {"limited_off": "compliant", "limited_absent": "compliant", "limited_on": "rigid"}
        expected["free_off"] = "rigid"
        assert {k: joints[k].StopModel for k in expected} == expected
        assert not any("RigidStops" in j.PropertiesList for j in joints.values())
        assert list(joints["free_off"].getEnumerationsOfProperty("StopModel")) == ["rigid", "compliant"]
        assert limit_fields(joints["limited_off"], "revolute")["angle_stop"].model == "compliant"
        assert limit_fields(joints["limited_on"], "revolute")["angle_stop"].model is None  # the default: rigid
    finally:
        App.closeDocument(again.Name)
