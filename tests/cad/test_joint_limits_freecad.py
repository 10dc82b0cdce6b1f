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
    joint.AngleDamping, joint.StopContactTime = 0.002, 0.004
    doc.recompute()
    model = model_from_document(doc)
    j = model.joints[0]
    assert (j.angle_min, j.angle_max) == (pytest.approx(math.radians(-10)), pytest.approx(math.radians(20)))
    assert j.angle_damping == 0.002 and j.angle_stop.contact_time == 0.004 and j.travel_max is None
    q = simulate(model).joint_coordinate(joint.Label)[:, 0]
    assert q.min() > math.radians(-12) and q.max() < math.radians(22)
    assert q.min() < math.radians(-10) or q.max() > math.radians(20)  # a stop was hit


def test_rigid_stops_property_reads_into_the_model_and_holds_the_limits(App, doc):
    """RigidStops and StopRestitution: a rigid angle stop in the model; the run's located impacts
    rebound at e times the impact speed and the bar never passes a limit."""
    import make_pendulum_fcstd

    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.errors import CadError
    from MBDWorkbench.cad.joint_limits import write_limit_values
    from MBDWorkbench.solver import simulate

    sim, body, joint = make_pendulum_fcstd.build(doc, angle_deg=30.0)
    sim.EndTimeMilliseconds, sim.OutputStepMicroseconds = 1000, 10000
    joint.EnableAngleMin, joint.AngleMin = True, -10.0
    joint.EnableAngleMax, joint.AngleMax = True, 20.0
    joint.RigidStops, joint.StopRestitution = True, 0.3
    doc.recompute()
    model = model_from_document(doc)
    stop = model.joints[0].angle_stop
    assert stop.model == "rigid" and stop.restitution == 0.3 and stop.contact_time is None
    res = simulate(model)
    q = res.joint_coordinate(joint.Label)[:, 0]
    assert q.min() >= math.radians(-10) - 1e-9 and q.max() <= math.radians(20) + 1e-9
    impacts = [e for e in res.stop_events if e["kind"] == "impact"]
    assert impacts and all(e["rebound_speed"] == pytest.approx(0.3 * e["impact_speed"]) for e in impacts[:3])
    with pytest.raises(CadError, match="StopRestitution"):
        write_limit_values(joint, {"StopRestitution": 1.2})
