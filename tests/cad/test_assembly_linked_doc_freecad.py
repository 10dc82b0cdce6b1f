"""A FreeCAD 1.x Assembly whose moving part is an App::Link to a part in ANOTHER document (a
linked document, as a parts library gives): skipped where the Assembly workbench is missing.

The part's mass comes from the linked solid; the imported joint frames equal the Assembly's own
JCS (UtilsAssembly.getJcsGlobalPlc) to 1e-9 and our equations hold where the Assembly's solver
put the link; both still hold after both documents are saved, closed and opened again (the link
resolved through the file); with the library document closed, the import reports the broken
link instead of failing or dropping it silently."""

import os

import numpy as np
import pytest
from test_assembly_joints_freecad import (
    A_EDGE,
    B_EDGES,
    B_START,
    assert_same_placement,
    import_and_model,
    max_violation,
    our_joint_object,
    placement,
)

from MBDWorkbench.cad.assembly_import import import_assembly
from MBDWorkbench.cad.document_model import model_from_document
from MBDWorkbench.cad.errors import CadError

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
RHO = 7850.0  # steel, the bodies' default density [kg/m^3]


def library(App, folder):
    """A saved document 'Library' holding the bar 'Bar' (B_EDGES mm)."""
    lib = App.newDocument("Library")
    bar = lib.addObject("Part::Box", "Bar")
    bar.Length, bar.Width, bar.Height = B_EDGES
    lib.recompute()
    lib.saveAs(os.path.join(folder, "Library.FCStd"))
    return lib, bar


def linked_assembly(App, doc, JointObject, bar, folder):
    """Assembly in ``doc``: box A grounded, an App::Link to the library's bar, a Revolute A-link."""
    doc.saveAs(os.path.join(folder, "Machine.FCStd"))  # FreeCAD links only from a saved document
    asm = doc.addObject("Assembly::AssemblyObject", "Assembly")
    asm.Type = "Assembly"
    joints = asm.newObject("Assembly::JointGroup", "Joints")
    a = asm.newObject("Part::Box", "A")
    a.Length = a.Width = a.Height = A_EDGE
    link = asm.newObject("App::Link", "LinkB")
    link.LinkedObject = bar
    link.Placement = placement(App, B_START)
    doc.recompute()
    JointObject.GroundedJoint(joints.newObject("App::FeaturePython", "GroundedJoint"), a)
    joint = joints.newObject("App::FeaturePython", "Joint")
    JointObject.Joint(joint, JointObject.JointTypes.index("Revolute"))
    joint.Proxy.setJointConnectors(joint, [[asm, ["A.Face6", "A.Vertex8"]], [asm, ["LinkB.Face5", "LinkB.Vertex1"]]])
    assert asm.solve() == 0
    doc.recompute()
    doc.save()
    return asm, joint, link


def check_import(App, doc, asm, joint):
    import UtilsAssembly

    report, model = import_and_model(doc, asm)
    assert report.unsupported == [] and report.grounded == ["A"]
    (j,) = model.joints
    assert j.type == "revolute"
    masses = {b.name: b.mass for b in model.bodies}
    assert masses["LinkB_body"] == pytest.approx(RHO * np.prod(B_EDGES) * 1e-9, rel=1e-12)
    obj = our_joint_object(doc)
    jcs1 = UtilsAssembly.getJcsGlobalPlc(joint.Placement1, joint.Reference1)
    jcs2 = UtilsAssembly.getJcsGlobalPlc(joint.Placement2, joint.Reference2)
    assert_same_placement(obj.Frame, jcs1, 1e-9)
    assert_same_placement(obj.Frame2, jcs2, 1e-9)
    assert max_violation(model) < 1e-9


def test_link_to_a_part_in_another_document(App, JointObject, tmp_path):
    folder = str(tmp_path)
    lib, bar = library(App, folder)
    doc = App.newDocument("Machine")
    try:
        asm, joint, link = linked_assembly(App, doc, JointObject, bar, folder)
        assert link.LinkedObject.Document.Name == lib.Name != doc.Name  # really another document
        check_import(App, doc, asm, joint)

        App.closeDocument(doc.Name)
        App.closeDocument(lib.Name)
        doc = App.openDocument(os.path.join(folder, "Machine.FCStd"))  # opens Library.FCStd with it
        asm = doc.getObject("Assembly")
        joint = doc.getObject("Joint")
        assert doc.getObject("LinkB").LinkedObject is not None
        assert doc.getObject("LinkB").LinkedObject.Document.FileName == os.path.join(folder, "Library.FCStd")
        check_import(App, doc, asm, joint)

        App.closeDocument("Library")  # the link is broken: reported, and the body is an error naming it
        report = import_assembly(doc, asm)
        ((name, reason),) = report.unsupported
        assert name == joint.Label and "LinkB" in reason and "App::Link" in reason, reason
        with pytest.raises(CadError, match="LinkB_body.*LinkB.*App::Link"):
            model_from_document(doc)
    finally:
        for name in list(App.listDocuments()):
            if name in (doc.Name, "Library"):
                App.closeDocument(name)
