"""Joint friction on a FreeCAD Joint object (group "Friction", cad/joint_friction.py): read into
the model in SI units; a missing pin radius is refused naming the joint and the field."""

import os
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "examples"))


@pytest.fixture
def doc(App):
    d = App.newDocument("JointFrictionTest")
    name = d.Name
    yield d
    if name in App.listDocuments():
        App.closeDocument(name)


def test_friction_properties_in_si(App, doc):
    import make_pendulum_fcstd

    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.errors import CadError

    _, _, joint = make_pendulum_fcstd.build(doc, angle_deg=30.0)
    assert model_from_document(doc).joints[0].friction is None  # off by default
    joint.EnableFriction = True
    joint.StaticFriction, joint.KineticFriction = 0.2, 0.15
    joint.PinLength = 12.0  # mm
    doc.recompute()
    with pytest.raises(CadError, match="pin_radius must be positive") as info:
        model_from_document(doc)
    assert f"joint '{joint.Label}'" in str(info.value)
    joint.PinRadius, joint.BallRadius = 4.0, 9.0  # a revolute has no ball: ignored
    doc.recompute()
    f = model_from_document(doc).joints[0].friction
    assert (f.mu_s, f.mu_k) == (0.2, 0.15)
    assert f.pin_radius == pytest.approx(0.004) and f.pin_length == pytest.approx(0.012) and f.ball_radius is None
