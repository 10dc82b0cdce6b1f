"""Mapping of FreeCAD 1.0 Assembly joints to our joints, with stand-in objects (FreeCAD 0.20
has no Assembly workbench). The global joint frame must be the resolver's JCS of
Reference1 (times Offset1), the parts those of the references; unsupported joints must be
reported with a reason."""

import numpy as np
import pytest

from MBDWorkbench.cad.assembly_import import ImportReport, Unsupported, assembly_joints, map_joint

A_COG = np.array([5e-3, 5e-3, 5e-3])  # CoG of the default 10 mm box A at the origin [m]


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


def resolver(App, kinds=("planar face", "planar face"), radii=None):
    """JCS1 = translation (1, 2, 3), JCS2 = identity; part A for Face1, B for Face2; the
    elements' radii [mm] only when given (a resolver may leave them out)."""

    def resolve(ref, placement):
        k = 0 if ref[1][0].startswith("A") else 1
        jcs = App.Placement(App.Vector(1, 2, 3), App.Rotation(App.Vector(1, 0, 0), 90)) if k == 0 else App.Placement()
        return ("AB"[k], jcs, kinds[k]) + (() if radii is None else (radii[k],))

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
    """Frame 1 is JCS1 (moved along its z onto JCS2's origin where the joint has a displacement
    coordinate); frame 2 is JCS2 (turned about its z onto frame 1's x where it has an angle)."""
    m = map_joint(joint(jtype), resolver(App))
    assert (m.type, m.part1, m.part2, m.label) == (ours, "A", "B", jtype + "1")
    z = m.frame.Rotation.multVec(App.Vector(0, 0, 1))
    assert (z - App.Vector(0, -1, 0)).Length < 1e-12  # R_x(90) z
    slides = jtype in ("Slider", "Cylindrical")  # JCS2's origin (0, 0, 0) is 2 mm along z = -y
    assert (m.frame.Base - App.Vector(1, 0 if slides else 2, 3)).Length < 1e-12
    assert m.frame2.Base == App.Vector(0, 0, 0)
    x1, x2 = (f.Rotation.multVec(App.Vector(1, 0, 0)) for f in (m.frame, m.frame2))
    turns = jtype in ("Revolute", "Cylindrical")
    assert (x2 - (x1 if turns else App.Vector(1, 0, 0))).Length < 1e-12


@pytest.mark.parametrize(
    "kinds, distance, ours, shift",
    [
        (("planar face", "planar face"), 0.0, "planar", 0.0),
        (("planar face", "planar face"), 5.0, "planar", 5.0),
        (("planar face", "vertex"), 5.0, "point_in_plane", 5.0),
        (("vertex", "planar face"), 5.0, "point_in_plane", 5.0),  # sides swapped: the plane first
        (("planar face", "straight edge"), -2.0, "line_in_plane", -2.0),
        (("straight edge", "vertex"), 0.0, "point_on_line", 0.0),
        (("straight edge", "straight edge"), 0.0, "cylindrical", 0.0),
        (("vertex", "vertex"), 0.0, "spherical", 0.0),
    ],
)
def test_distance_variants(App, kinds, distance, ours, shift):
    m = map_joint(joint("Distance", Distance=distance), resolver(App, kinds))
    assert m.type == ours and m.length == 0.0
    swapped = kinds[0] == "vertex" and kinds[1] != "vertex"
    assert (m.part1, m.part2) == (("B", "A") if swapped else ("A", "B"))
    jcs1 = resolver(App)(("asm", ["B" if swapped else "A"]), None)[1]
    z = jcs1.Rotation.multVec(App.Vector(0, 0, 1))
    if ours == "cylindrical":  # frame 1 moved along z onto JCS2's origin (0, 0, 0): displacement 0
        shift = -z.dot(jcs1.Base)
    assert (m.frame.Base - (jcs1.Base + z * shift)).Length < 1e-12


@pytest.mark.parametrize(
    "kinds, ours",
    [
        (("vertex", "vertex"), "distance"),
        (("straight edge", "vertex"), "point_line_distance"),
        (("straight edge", "straight edge"), "line_line_distance"),
    ],
)
def test_distances_kept_as_lengths(App, kinds, ours):
    m = map_joint(joint("Distance", Distance=15.0), resolver(App, kinds))
    assert (m.type, m.length) == (ours, 15.0)
    assert m.frame.Base == App.Vector(1, 2, 3) and m.frame2.Base == App.Vector(0, 0, 0)


def test_distance_variants_without_rows_are_reported(App):
    with pytest.raises(Unsupported, match="length must be positive"):
        map_joint(joint("Distance", Distance=-5.0), resolver(App, ("straight edge", "vertex")))
    with pytest.raises(Unsupported, match="length must be positive"):  # d + r1 + r2 < 0
        map_joint(joint("Distance", Distance=-20.0), resolver(App, ("spherical face", "spherical face"), (6.0, 5.0)))
    with pytest.raises(Unsupported, match="cannot be read"):
        map_joint(joint("Distance", Distance=1.0), resolver(App, ("", "planar face")))


@pytest.mark.parametrize(
    "kinds, distance, ours, length, shift, swapped",
    [
        (("cylindrical face", "cylindrical face"), 2.0, "line_line_distance", 2.0 + 6.0 + 5.0, 0.0, False),
        (("spherical face", "cylindrical face"), 2.0, "point_line_distance", 2.0 + 6.0 + 5.0, 0.0, True),
        (("spherical face", "spherical face"), 2.0, "distance", 13.0, 0.0, False),
        (("spherical face", "spherical face"), -11.0, "spherical", 0.0, 0.0, False),  # concentric: a ball
        (("vertex", "spherical face"), 3.0, "distance", 3.0 + 5.0, 0.0, True),
        (("vertex", "vertex"), -1.0, "spherical", 0.0, 0.0, False),  # FreeCAD: d < 0 is a Ball too
        (("circular edge", "straight edge"), 1.0, "line_line_distance", 1.0 + 6.0, 0.0, True),
        (("circular edge", "circular edge"), -11.0, "cylindrical", 0.0, 0.0, False),  # coaxial circles
        (("cylindrical face", "vertex"), 0.0, "point_line_distance", 6.0, 0.0, False),
        (("toroidal face", "spherical face"), 1.0, "point_line_distance", 1.0 + 5.0, 0.0, False),  # torus: r = 0
        (("planar face", "cylindrical face"), 1.0, "line_in_plane", 0.0, 1.0 + 5.0, False),
        (("spherical face", "planar face"), -1.0, "point_in_plane", 0.0, -1.0 + 6.0, True),
        (("toroidal face", "planar face"), 1.0, "planar", 0.0, 1.0, True),
        (("vertex", "circular edge"), 1.0, "point_in_plane", 0.0, 1.0, True),
        (("conical face", "planar face"), 1.0, "planar", 0.0, 1.0, True),  # fallback
        (("cylindrical face", "straight edge"), 1.0, "planar", 0.0, 1.0, False),  # fallback
    ],
)
def test_curved_distance_rows(App, kinds, distance, ours, length, shift, swapped):
    """FreeCAD's getDistanceType order and makeMbdJointDistance lengths: radius 6 on A, 5 on B
    (where the element has one: circle, cylinder, sphere)."""
    radii = tuple(
        6.0 - k if kind in ("circular edge", "cylindrical face", "spherical face") else 0.0
        for k, kind in enumerate(kinds)
    )
    m = map_joint(joint("Distance", Distance=distance), resolver(App, kinds, radii))
    assert (m.type, m.part1) == (ours, "B" if swapped else "A")
    assert m.length == pytest.approx(length, abs=1e-12)
    jcs1 = resolver(App)(("asm", ["B" if swapped else "A"]), None)[1]
    z = jcs1.Rotation.multVec(App.Vector(0, 0, 1))
    if ours != "cylindrical":
        assert (m.frame.Base - (jcs1.Base + z * shift)).Length < 1e-12
    fallback = kinds in (("conical face", "planar face"), ("cylindrical face", "straight edge"))
    assert any("fallback" in n for n in m.notes) == fallback


def test_distance_type_order_of_freecad():
    """getDistanceType's names and swaps (the first kind of each pair is FreeCAD's first side)."""
    from MBDWorkbench.cad import assembly_distances as ad

    for name, (first, second) in ad.EXAMPLES.items():
        assert ad.distance_type(first, second) == (name, False)
        assert ad.distance_type(second, first) == (name, first != second)
    assert ad.distance_type(ad.CONE, ad.PLANE) == ("PlaneCone", True)
    assert ad.distance_type(ad.SPHERE, ad.CONE) == ("ConeSphere", True)
    assert ad.distance_type(ad.CURVE, ad.CURVE) == ("Other", False)
    assert ad.distance_type(ad.CURVE, ad.LINE) == ("Other", True)  # the line first
    assert ad.distance_type(ad.CIRCLE, ad.CYLINDER) == ("CurveCylinder", True)
    assert ad.distance_type(ad.SURFACE, ad.VERTEX) == ("Other", False)


def test_orientation_joints(App):
    assert map_joint(joint("Parallel"), resolver(App)).type == "parallel"
    assert map_joint(joint("Perpendicular"), resolver(App)).type == "perpendicular"
    for angle, ours in ((0.0, "parallel"), (180.0, "parallel"), (90.0, "perpendicular"), (-90.0, "perpendicular")):
        assert map_joint(joint("Angle", Distance=angle), resolver(App)).type == ours
    for angle, kept in ((30.0, 30.0), (-30.0, 30.0), (200.0, 160.0), (390.0, 30.0)):  # |a| between the z axes
        m = map_joint(joint("Angle", Distance=angle), resolver(App))
        assert m.type == "angle" and m.angle == pytest.approx(kept, abs=1e-12)


def test_unsupported_and_deactivated(App):
    for jtype in ("RackPinion", "Screw", "Gears", "Belt"):
        with pytest.raises(Unsupported, match=jtype):
            map_joint(joint(jtype), resolver(App))
    with pytest.raises(Unsupported, match="deactivated"):
        map_joint(joint("Revolute", Activated=False), resolver(App))
    with pytest.raises(Unsupported, match="deactivated"):  # FreeCAD 1.1's name for it
        map_joint(joint("Revolute", Suppressed=True), resolver(App))
    assert map_joint(joint("Revolute", Suppressed=False), resolver(App)).type == "revolute"
    same = lambda ref, plc: ("A", App.Placement(), "")  # noqa: E731
    with pytest.raises(Unsupported, match="two different parts"):
        map_joint(joint("Revolute"), same)


def test_unresolvable_reference_is_reported(App):
    def broken(ref, placement):
        raise AttributeError("'str' object has no attribute 'getSubObject'")

    with pytest.raises(Unsupported, match="Reference1 .* cannot be resolved \\(AttributeError"):
        map_joint(joint("Revolute"), broken)


def test_limits_are_imported_and_offsets_not_applied_twice(App):
    """FreeCAD puts Offset1/2 into Placement1/2 (JointObject.findPlacement): the frame is the
    resolver's JCS as it is; enabled limits become ours, measured from where the parts are
    (FreeCAD's limit minus its current coordinate of the resolver's JCS1 and JCS2); a limit our
    joint type has no coordinate for is listed."""
    from MBDWorkbench.cad.assembly_motions import current_coordinates

    off = App.Placement(App.Vector(0, 0, 7), App.Rotation())
    fields = dict(EnableAngleMax=True, AngleMax=45.0, EnableLengthMin=True, LengthMin=3.0, Offset1=off)
    m = map_joint(joint("Revolute", **fields), resolver(App))
    current = current_coordinates(m.frame, resolver(App)(("asm", ["B.Face2"]), "jcs2")[1])
    assert m.limits == {"angle_max": pytest.approx(np.radians(45.0) - current[0])}
    assert m.notes == ["limits not simulated on a revolute joint (LengthMin = 3 mm)"]
    assert m.frame.Base == App.Vector(1, 2, 3)
    c = map_joint(joint("Cylindrical", **fields), resolver(App))
    assert c.limits["travel_min"] == pytest.approx((3.0 - current[2]) * 1e-3) and not c.notes


def test_freecad_1_1_motions_are_found_apart_from_joints(App):
    """Motions (tests/cad/test_assembly_motions.py imports them) are not taken for joints."""
    from MBDWorkbench.cad.assembly_import import assembly_motions
    from MBDWorkbench.cad.assembly_motions import joint_of

    hinge = joint("Revolute")
    motion = Fake(Label="Motion", Joint=(hinge, ""), MotionType="Angular", Formula="2*pi*time")
    asm = Fake(OutListRecursive=[hinge, motion])
    assert assembly_motions(asm) == [motion] and assembly_joints(asm) == ([hinge], [])
    assert joint_of(motion) is hinge


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
        assert report.joints == ["Revolute1"] and report.grounded == ["A"] and report.updated == []
        assert report.unsupported == [("Gears1", "Gears joint with Distance = 0 mm (the Assembly needs it > 0)")]
        bodies = {o.Part.Name: o for o in find_objects(doc, "Body")}
        assert bodies["A"].Grounded and not bodies["B"].Grounded
        model = model_from_document(doc)
        j = model.joints[0]
        assert (j.type, j.body_i, j.body_j) == ("revolute", "A_body", "B_body")
        np.testing.assert_allclose(j.frame_i.origin, np.array([1e-3, 2e-3, 3e-3]) - A_COG, atol=1e-15)
        again = import_assembly(doc, asm, resolve=resolve)  # re-import: updated, not duplicated
        assert again.updated == ["Revolute1"] and again.bodies == []
        assert len(find_objects(doc, "Joint")) == 1 and len(find_objects(doc, "Body")) == 2
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
        part, jcs, kind, radius = make_resolver(asm)(
            (asm, ["BoxA.Face6"]), App.Placement(App.Vector(1, 2, 3), App.Rotation())
        )
        assert part == box and kind == "planar face" and radius == 0.0
        # R_z(90) (0+1, 10+2, 3) + (100, 0, 0) = (100 - 12, 1, 3)
        assert (jcs.Base - App.Vector(88, 1, 3)).Length < 1e-9
    finally:
        App.closeDocument(doc.Name)


def test_element_kinds_and_radii_of_real_shapes(App):
    """element_kind reads what FreeCAD's getDistanceType and getFaceRadius/getEdgeRadius read:
    the kinds by curve and surface type, the radius of circles, cylinders and spheres only."""
    import Part

    from MBDWorkbench.cad import assembly_distances as ad

    cylinder, sphere = Part.makeCylinder(5, 30), Part.makeSphere(6)
    torus, cone = Part.makeTorus(12, 3), Part.makeCone(6, 2, 10)
    ellipse = Part.Edge(Part.Ellipse(App.Vector(), 4, 2))
    arc = Part.Edge(Part.ArcOfCircle(Part.Circle(App.Vector(), App.Vector(0, 0, 1), 7), 0.0, 1.0))
    faces = {f.Surface.__class__.__name__: f for s in (cylinder, sphere, torus, cone) for f in s.Faces}
    assert ad.element_kind(faces["Cylinder"]) == (ad.CYLINDER, 5.0)
    assert ad.element_kind(faces["Sphere"]) == (ad.SPHERE, 6.0)
    assert ad.element_kind(faces["Toroid"]) == (ad.TORUS, 0.0)  # FreeCAD adds no torus radius
    assert ad.element_kind(faces["Cone"]) == (ad.CONE, 0.0)
    assert ad.element_kind(faces["Plane"]) == (ad.PLANE, 0.0)
    circles = [e for e in cylinder.Edges if e.Curve.__class__.__name__ == "Circle"]
    assert ad.element_kind(circles[0]) == (ad.CIRCLE, 5.0) and ad.element_kind(arc) == (ad.CIRCLE, 7.0)
    lines = [e for e in cylinder.Edges if e.Curve.__class__.__name__ in ("Line", "LineSegment")]
    assert ad.element_kind(lines[0]) == (ad.LINE, 0.0)
    assert ad.element_kind(ellipse) == (ad.CURVE, 0.0)
    assert ad.element_kind(cylinder.Vertexes[0]) == (ad.VERTEX, 0.0)
    assert ad.element_kind(cylinder) == ("", 0.0)  # a solid is no element
    degenerated = [e for e in sphere.Edges if e.Degenerated]
    assert degenerated and all(ad.element_kind(e)[0] == ad.CURVE for e in degenerated)
