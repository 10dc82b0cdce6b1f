"""Mapping of FreeCAD 1.0 Assembly joints to our joints, with stand-in objects (FreeCAD 0.20
has no Assembly workbench). The global joint frame must be the resolver's JCS of
Reference1 (times Offset1), the parts those of the references; unsupported joints must be
reported with a reason."""

import pytest

from MBDWorkbench.cad.assembly_import import ImportReport, Unsupported, assembly_joints, map_joint


class Fake:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def joint(jtype, **kw):
    base = dict(
        Label=jtype + "1",
        JointType=jtype,
        Activated=True,
        Reference1=("asm", ["A.Face1"]),
        Reference2=("asm", ["B.Face2"]),
        Placement1="jcs1",
        Placement2="jcs2",
    )
    base.update(kw)
    return Fake(**base)


def resolver(App, kinds=("planar face", "planar face")):
    """JCS1 = translation (1, 2, 3), JCS2 = identity; part A for Face1, B for Face2."""

    def resolve(ref, placement):
        if ref[1][0].startswith("A"):
            return "A", App.Placement(App.Vector(1, 2, 3), App.Rotation(App.Vector(1, 0, 0), 90)), kinds[0]
        return "B", App.Placement(), kinds[1]

    return resolve


@pytest.mark.parametrize(
    "jtype, ours",
    [
        ("Fixed", "fixed"),
        ("Revolute", "revolute"),
        ("Cylindrical", "cylindrical"),
        ("Slider", "prismatic"),
        ("Ball", "spherical"),
    ],
)
def test_direct_mappings_use_the_first_jcs(App, jtype, ours):
    m = map_joint(joint(jtype), resolver(App))
    assert (m.type, m.part1, m.part2, m.label) == (ours, "A", "B", jtype + "1")
    assert m.frame.Base == App.Vector(1, 2, 3)
    z = m.frame.Rotation.multVec(App.Vector(0, 0, 1))
    assert (z - App.Vector(0, -1, 0)).Length < 1e-12  # R_x(90) z


def test_distance_zero_between_planes_is_planar(App):
    assert map_joint(joint("Distance", Distance=0.0), resolver(App)).type == "planar"
    with pytest.raises(Unsupported, match="Distance of 5 mm"):
        map_joint(joint("Distance", Distance=5.0), resolver(App))
    with pytest.raises(Unsupported, match="cylindrical face"):
        map_joint(joint("Distance", Distance=0.0), resolver(App, ("cylindrical face", "planar face")))


def test_unsupported_and_deactivated(App):
    for jtype in ("Parallel", "Perpendicular", "Angle", "RackPinion", "Screw", "Gears", "Belt"):
        with pytest.raises(Unsupported, match=jtype):
            map_joint(joint(jtype), resolver(App))
    with pytest.raises(Unsupported, match="deactivated"):
        map_joint(joint("Revolute", Activated=False), resolver(App))
    same = lambda ref, plc: ("A", App.Placement(), "")  # noqa: E731
    with pytest.raises(Unsupported, match="two different parts"):
        map_joint(joint("Revolute"), same)


def test_limits_and_offset_are_reported(App):
    off = App.Placement(App.Vector(0, 0, 7), App.Rotation())
    m = map_joint(joint("Revolute", EnableAngleMax=True, Offset1=off), resolver(App))
    assert "limits ignored" in m.notes and "Offset1 applied to the frame" in m.notes
    p = m.frame.multVec(App.Vector(0, 0, 0))
    assert (p - App.Vector(1, 2 - 7, 3)).Length < 1e-12  # offset along the JCS z = -y


def test_assembly_joints_and_report_text():
    j, g = joint("Revolute"), Fake(ObjectToGround="A", Label="GroundedJoint")
    asm = Fake(OutListRecursive=[j, g, Fake(Label="not a joint")])
    assert assembly_joints(asm) == ([j], [g])
    rep = ImportReport(
        assembly="Assembly",
        joints=["Revolute1"],
        bodies=["A_body", "B_body"],
        grounded=["A"],
        unsupported=[("Gears1", "Gears joints have no equivalent here")],
    )
    text = rep.text()
    assert "1 joints imported (Revolute1)" in text and "Gears1: Gears joints have no equivalent here" in text


def test_import_creates_bodies_joints_and_grounding(App):
    from MBDWorkbench.cad.assembly_import import import_assembly
    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.objects import find_objects

    doc = App.newDocument("AssemblyImport")
    try:
        a = doc.addObject("Part::Box", "A")
        b = doc.addObject("Part::Box", "B")
        b.Placement.Base = App.Vector(20, 0, 0)
        doc.recompute()
        parts = {"A": a, "B": b}

        def resolve(ref, placement):
            part, plc, kind = resolver(App)(ref, placement)
            return parts[part], plc, kind

        asm = Fake(
            Label="Assembly",
            OutListRecursive=[joint("Revolute"), joint("Gears"), Fake(ObjectToGround=a, Label="Grounded")],
        )
        report = import_assembly(doc, asm, resolve=resolve)
        assert report.joints == ["Revolute1"] and report.grounded == ["A"]
        assert report.unsupported == [("Gears1", "Gears joint with Distance = 0 mm (the Assembly needs it > 0)")]
        bodies = {o.Part.Name: o for o in find_objects(doc, "Body")}
        assert bodies["A"].Grounded and not bodies["B"].Grounded
        model = model_from_document(doc)
        j = model.joints[0]
        assert (j.type, j.body_i, j.body_j) == ("revolute", "A_body", "B_body")
        assert j.frame.origin == pytest.approx([1e-3, 2e-3, 3e-3])
    finally:
        App.closeDocument(doc.Name)


def test_resolver_path_without_utils_assembly(App):
    """The fallback resolver (no UtilsAssembly on 0.20): moving part = the object right below
    the assembly, JCS = global placement of the element's object times Placement1."""
    from MBDWorkbench.cad.assembly_import import make_resolver

    doc = App.newDocument("Resolver")
    try:
        asm = doc.addObject("App::Part", "Asm")
        asm.Placement = App.Placement(App.Vector(100, 0, 0), App.Rotation(App.Vector(0, 0, 1), 90))
        box = doc.addObject("Part::Box", "BoxA")
        box.Placement.Base = App.Vector(0, 10, 0)
        asm.addObject(box)
        doc.recompute()
        part, jcs, kind = make_resolver(asm)((asm, ["BoxA.Face6"]), App.Placement(App.Vector(1, 2, 3), App.Rotation()))
        assert part == box and kind == "planar face"
        # R_z(90) (0+1, 10+2, 3) + (100, 0, 0) = (100 - 12, 1, 3)
        assert (jcs.Base - App.Vector(88, 1, 3)).Length < 1e-9
    finally:
        App.closeDocument(doc.Name)
