"""Force types from the catalogue in FreeCAD (headless): every record of catalog.FORCES has a
document object and a command; a type without a dedicated object (here: the spring types and
the point force, their dedicated objects switched off, and a record added at run time) gets a
ForceElement whose properties come from its fields and which reads into the same model as the
dedicated objects, after a save and reopen too."""

import dataclasses
import math
import os
import sys

import pytest

from MBDWorkbench.solver.model import catalog

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "examples"))


@pytest.fixture
def doc(App):
    d = App.newDocument("ForceElements")
    name = d.Name
    yield d
    if name in App.listDocuments():
        App.closeDocument(name)


@pytest.fixture
def generic(monkeypatch):
    """Spring-dampers and point forces made as ForceElements (their dedicated objects off)."""
    from MBDWorkbench.cad import force_fields

    monkeypatch.setattr(force_fields, "DEDICATED_FORCE_OBJECTS", {"torque": "Force"})
    return force_fields


def drag_record():
    """A force type added at run time: a rotary damper on a joint (reused field names)."""
    rot = catalog.FORCES["rotational_spring_damper"]
    return dataclasses.replace(rot, name="test_drag", fields=rot.fields[:1] + rot.fields[2:3], label="Test drag")


def test_every_force_type_has_an_object_and_a_command(monkeypatch):
    from MBDWorkbench import commands
    from MBDWorkbench.cad import force_fields

    assert set(force_fields.generic_force_types()) | set(force_fields.DEDICATED_FORCE_OBJECTS) == set(catalog.FORCES)
    assert commands.FORCE_COMMANDS == tuple("MBD_Force_" + t for t in force_fields.generic_force_types())
    assert set(commands.FORCE_COMMANDS) <= set(commands.COMMANDS)
    monkeypatch.setitem(catalog.FORCES, "test_drag", drag_record())
    assert force_fields.generic_force_types()[-1] == "test_drag"
    assert commands.force_commands()[-1] == "MBD_Force_test_drag"
    assert "MBD_Force_test_drag" in commands.force_commands(catalog.JOINT_KINDS)
    assert "MBD_Force_test_drag" not in commands.force_commands(catalog.BODY_KINDS)


def test_record_fields_become_typed_properties(App, doc, monkeypatch):
    from MBDWorkbench.cad.force_fields import generic_force_types
    from MBDWorkbench.cad.makers import make_force_element

    monkeypatch.setitem(catalog.FORCES, "test_drag", drag_record())
    import make_pendulum_fcstd

    sim, body, joint = make_pendulum_fcstd.build(doc, angle_deg=30.0)
    assert "test_drag" in generic_force_types()
    obj = make_force_element(doc, "test_drag", joint=joint, damping=0.25)
    assert obj.MbdType == "ForceElement" and obj.ForceType == "test_drag" and obj in sim.Group
    assert obj.getTypeIdOfProperty("Joint") == "App::PropertyLink" and obj.Joint == joint
    assert obj.getTypeIdOfProperty("Damping") == "App::PropertyPrecision" and obj.Damping == 0.25
    assert "N m s/rad" in obj.getDocumentationOfProperty("Damping")
    assert "Stiffness" not in obj.PropertiesList
    with pytest.raises(Exception, match="joint"):
        make_force_element(doc, "test_drag", joint=body)


def test_generic_objects_read_like_the_dedicated_ones(App, doc, generic, tmp_path):
    """The same spring, torsion spring and point force made with the dedicated makers and as
    ForceElements give equal model forces (SI from mm, deg), also after save and reopen."""
    import make_pendulum_fcstd

    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.makers import make_force, make_force_element, make_spring_damper

    sim, body, joint = make_pendulum_fcstd.build(doc, angle_deg=30.0)
    make_spring_damper(doc, None, (0, 0, 100), body, (200, 0, 0), stiffness=2.0, damping=0.5, label="a")
    make_spring_damper(doc, None, None, None, None, joint=joint, stiffness=1.0, damping=0.2, label="b")
    make_force(doc, body, ("1", "0", "-2*t"), point=(100, 0, 0), axes="body", label="c")
    make_force_element(
        doc, "spring_damper", "A", None, body_i=None, point_i=(0, 0, 100), body_j=body, point_j=(200, 0, 0)
    ).Stiffness = 2000.0  # N/m: the record's SI unit
    generic_a = doc.getObjectsByLabel("A")[0]
    generic_a.Damping = 500.0
    assert generic_a.SetFreeLength is False and generic_a.getTypeIdOfProperty("FreeLength") == "App::PropertyLength"
    k_si = 1.0 * 1e-3 / (math.pi / 180)  # N mm/deg -> N m/rad
    make_force_element(doc, "rotational_spring_damper", "B", joint=joint, stiffness=k_si, damping=0.2 * k_si)
    make_force_element(
        doc, "point_force", "C", body=body, point=(100, 0, 0), force=("1", "0", "-2*t"), frame="body"
    ).SetPoint = True
    assert doc.getObjectsByLabel("B")[0].getTypeIdOfProperty("FreeAngle") == "App::PropertyAngle"

    def compare(model):
        by_name = {f.name: f for f in model.forces}
        for dedicated, made in (("a", "A"), ("b", "B"), ("c", "C")):
            expected = dataclasses.replace(by_name[dedicated], name=made)
            for field in catalog.FORCES[expected.type].field_names:
                assert getattr(by_name[made], field) == pytest.approx(getattr(expected, field)), (made, field)

    compare(model_from_document(doc))
    path = str(tmp_path / "generic.FCStd")
    doc.saveAs(path)
    App.closeDocument(doc.Name)
    reopened = App.openDocument(path)
    try:
        assert reopened.getObjectsByLabel("A")[0].Proxy.__class__.__name__ == "ForceElementProxy"
        compare(model_from_document(reopened))
    finally:
        App.closeDocument(reopened.Name)
