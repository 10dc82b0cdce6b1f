"""Stable names and clear reasons of the Assembly import on real FreeCAD 1.x Assemblies (skipped
where the Assembly workbench is missing, e.g. FreeCAD 0.20).

A chain of boxes, A grounded, joined by Revolutes 'Hinge1' (A-B), 'Hinge2' (B-C) and a Ball
'Pivot' (C-D), built with the Assembly workbench's Python API. Re-importing it keeps the model
names of the joints equal to the Assembly joints' Labels (FreeCAD makes our objects' Labels
unique, e.g. 'Hinge003'), the bodies' names, and the columns of joints.csv. A part deleted
after its joint was made leaves that joint out, named by its reference, as a
``joint_dropped`` warning of the run (summary.json).
"""

import csv
import json
import os

import pytest

EDGES = (40.0, 10.0, 10.0)  # each box [mm]
PARTS = "ABCD"
JOINTS = (("Hinge1", "Revolute", "A", "B"), ("Hinge2", "Revolute", "B", "C"), ("Pivot", "Ball", "C", "D"))

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def build(App, doc, JointObject):
    """The chain; each joint on the end face x = L of the first part and the face x = 0 of the
    second (the boxes laid end to end along x)."""
    asm = doc.addObject("Assembly::AssemblyObject", "Assembly")
    asm.Type = "Assembly"
    group = asm.newObject("Assembly::JointGroup", "Joints")
    for k, name in enumerate(PARTS):
        box = asm.newObject("Part::Box", name)
        box.Length, box.Width, box.Height = EDGES
        box.Placement = App.Placement(App.Vector(k * EDGES[0], 0, 0), App.Rotation())
    doc.recompute()
    JointObject.GroundedJoint(group.newObject("App::FeaturePython", "GroundedJoint"), doc.getObject("A"))
    joints = {}
    for label, jtype, p1, p2 in JOINTS:
        joint = group.newObject("App::FeaturePython", "Joint")
        JointObject.Joint(joint, JointObject.JointTypes.index(jtype))
        joint.Label = label
        # Face2: x = L, Face1: x = 0 of a Part::Box; Vertex5 (L, 0, 0), Vertex1 (0, 0, 0)
        joint.Proxy.setJointConnectors(
            joint, [[asm, [p1 + ".Face2", p1 + ".Vertex5"]], [asm, [p2 + ".Face1", p2 + ".Vertex1"]]]
        )
        joints[label] = joint
    doc.recompute()
    return asm, joints


def joints_csv_header(model, out):
    from MBDWorkbench.solver import simulate

    res = simulate(model, out_dir=out, t_end=0.01, step=1e-3, output_step=5e-3)
    with open(os.path.join(out, "joints.csv")) as f:
        header = next(csv.reader(f))
    with open(os.path.join(out, "summary.json")) as f:
        return res, header, json.load(f)


def test_reimport_keeps_joint_and_body_names(App, doc, JointObject, tmp_path):
    from MBDWorkbench.cad.document_model import synced_document_model
    from MBDWorkbench.cad.objects import find_objects

    asm, joints = build(App, doc, JointObject)
    headers, labels = [], []
    for k in range(3):
        model, _ = synced_document_model(doc)
        assert sorted(j.name for j in model.joints) == ["Hinge1", "Hinge2", "Pivot"]
        assert sorted(b.name for b in model.bodies) == ["%s_body" % p for p in PARTS]
        assert len(find_objects(doc, "Joint")) == 3 and len(find_objects(doc, "Body")) == 4
        labels.append(sorted(o.Label for o in find_objects(doc, "Joint")))
        if k != 1:
            res, header, summary = joints_csv_header(model, str(tmp_path / ("run%d" % k)))
            assert res.status == "completed", summary["warnings"]
            headers.append(header)
    assert labels[0] == labels[1] == labels[2]  # our objects are not relabelled on each re-import
    assert headers[0] == headers[1]
    assert any(h.startswith("Hinge1.") for h in headers[0]) and any(h.startswith("Pivot.") for h in headers[0])
    assert not any(h.startswith(("Hinge0", "Pivot0")) for h in headers[0])

    joints["Hinge2"].Label = "Knee"  # a renamed Assembly joint renames the model's joint
    model, _ = synced_document_model(doc)
    assert sorted(j.name for j in model.joints) == ["Hinge1", "Knee", "Pivot"]


def test_deleted_part_drops_its_joint_with_a_reason_and_a_run_warning(App, doc, JointObject, tmp_path):
    from MBDWorkbench.cad.assembly_import import sync_assemblies
    from MBDWorkbench.cad.document_model import synced_document_model

    asm, joints = build(App, doc, JointObject)
    doc.removeObject("D")  # Pivot's second part
    doc.recompute()
    (report,) = sync_assemblies(doc)
    (dropped,) = report.unsupported
    assert dropped[0] == "Pivot"
    assert "'D.Face1' points to an object that no longer exists" in dropped[1]
    assert "does not connect" not in dropped[1]

    model, _ = synced_document_model(doc)
    assert sorted(j.name for j in model.joints) == ["Hinge1", "Hinge2"]
    (warning,) = model.warnings
    assert warning.kind == "joint_dropped" and warning.elements == ("Pivot",)
    res, _, summary = joints_csv_header(model, str(tmp_path / "run"))
    assert res.status == summary["status"] == "completed_with_warnings"
    (stored,) = [w for w in summary["warnings"] if w["kind"] == "joint_dropped"]
    assert (
        stored["elements"] == ["Pivot"] and "'D.Face1' points to an object that no longer exists" in stored["message"]
    )


def test_deactivated_joint_is_no_run_warning(App, doc, JointObject):
    from MBDWorkbench.cad.document_model import synced_document_model

    asm, joints = build(App, doc, JointObject)
    joints["Pivot"].Activated = False
    model, _ = synced_document_model(doc)
    assert sorted(j.name for j in model.joints) == ["Hinge1", "Hinge2"] and model.warnings == []
