"""Every mapped FreeCAD 1.x Assembly joint type and Distance variant on a real Assembly
(skipped where the Assembly workbench is missing, e.g. FreeCAD 0.20).

Each case builds an Assembly through the workbench's Python API (A grounded, a joint A-B), lets
the Assembly's own solver (OndselSolver) place B, imports it and checks
(a) the imported frames against the Assembly's own JCS (UtilsAssembly.getJcsGlobalPlc; JCS1
    moved by the distance along its z for the offset variants) to 1e-9, and that our
    constraint equations hold at the Assembly's solution;
(b) after a driven move (B pushed off the joint; an offset or a distance changed) the
    Assembly's solver and ours (solver/system/assembly.assemble, from the same start) agree on B's
    placement;
(c) one dynamic quantity against a closed form (tests at the end of the file).
Point-line and line-line Distances are tested at 3 mm: at 0 FreeCAD 1.0's own solver does not
close them (a distance from an axis has no gradient on the axis; it returns -1 or leaves the
point off the line), so there is nothing to compare with; we map them to point_on_line and
cylindrical, checked on real Assemblies against the parts' geometry in
tests/cad/test_assembly_distance_zero_freecad.py.
"""

import numpy as np
import pytest

A_EDGE = 20.0  # box A [mm]
B_EDGES = (100.0, 10.0, 10.0)  # bar B [mm]
A_PLACEMENT = ((5.0, -3.0, 7.0), (0.0, 0.0, 1.0), 30.0)  # base [mm], axis, angle [deg]
B_START = ((40.0, 30.0, 25.0), (1.0, 1.0, 0.0), 20.0)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def placement(App, spec):
    base, axis, angle = spec
    return App.Placement(App.Vector(*base), App.Rotation(App.Vector(*axis), angle))


def build(App, doc, JointObject, jtype, refs, props=None, a_placement=A_PLACEMENT, b_placement=B_START, solve=True):
    """Assembly with box A grounded and a joint of ``jtype`` between A and bar B; ``refs`` are
    the element lists on A and B, ``props`` joint properties set before the connectors;
    ``solve``: the Assembly's solver places B (else B stays at ``b_placement``)."""
    asm = doc.addObject("Assembly::AssemblyObject", "Assembly")
    asm.Type = "Assembly"
    joints = asm.newObject("Assembly::JointGroup", "Joints")
    a = asm.newObject("Part::Box", "A")
    a.Length = a.Width = a.Height = A_EDGE
    a.Placement = placement(App, a_placement)
    b = asm.newObject("Part::Box", "B")
    b.Length, b.Width, b.Height = B_EDGES
    b.Placement = placement(App, b_placement)
    doc.recompute()
    ground = joints.newObject("App::FeaturePython", "GroundedJoint")
    JointObject.GroundedJoint(ground, a)
    joint = joints.newObject("App::FeaturePython", "Joint")
    JointObject.Joint(joint, JointObject.JointTypes.index(jtype))
    for k, v in (props or {}).items():
        setattr(joint, k, v)
    joint.Proxy.setJointConnectors(joint, [[asm, ["A." + e for e in refs[0]]], [asm, ["B." + e for e in refs[1]]]])
    if solve:
        assert asm.solve() == 0
        doc.recompute()
    return asm, joint, a, b


TOP_A, BOTTOM_B, SIDE_B = ["Face6", "Vertex8"], ["Face5", "Vertex1"], ["Face1", "Vertex1"]  # planar faces
CORNER_A, CORNER_B = ["Vertex8"] * 2, ["Vertex1"] * 2
EDGE_A, EDGE_B = ["Edge1", "Vertex1"], ["Edge1", "Vertex1"]  # straight edges
# name: Assembly type, element lists on A and B, joint properties, our joint type, distance shift [mm]
CASES = {
    "Fixed": ("Fixed", (TOP_A, BOTTOM_B), {}, "fixed", 0.0),
    "Revolute": ("Revolute", (TOP_A, BOTTOM_B), {}, "revolute", 0.0),
    "Cylindrical": ("Cylindrical", (TOP_A, BOTTOM_B), {}, "cylindrical", 0.0),
    "Slider": ("Slider", (TOP_A, BOTTOM_B), {}, "prismatic", 0.0),
    "Ball": ("Ball", (CORNER_A, CORNER_B), {}, "spherical", 0.0),
    "Distance point-point": ("Distance", (CORNER_A, CORNER_B), {"Distance": 15.0}, "distance", 0.0),
    "Distance plane-plane": ("Distance", (TOP_A, BOTTOM_B), {"Distance": 5.0}, "planar", 5.0),
    "Distance plane-plane 0": ("Distance", (TOP_A, BOTTOM_B), {"Distance": 0.0}, "planar", 0.0),
    "Distance point-plane": ("Distance", (TOP_A, CORNER_B), {"Distance": 5.0}, "point_in_plane", 5.0),
    "Distance line-plane": ("Distance", (TOP_A, EDGE_B), {"Distance": 5.0}, "line_in_plane", 5.0),
    "Distance point-line": ("Distance", (CORNER_A, EDGE_B), {"Distance": 3.0}, "point_line_distance", 0.0),
    "Distance line-line": ("Distance", (EDGE_A, EDGE_B), {"Distance": 3.0}, "line_line_distance", 0.0),
    "Parallel": ("Parallel", (TOP_A, BOTTOM_B), {}, "parallel", 0.0),
    "Perpendicular": ("Perpendicular", (TOP_A, SIDE_B), {}, "perpendicular", 0.0),
    "Angle 90": ("Angle", (TOP_A, SIDE_B), {"Distance": 90.0}, "perpendicular", 0.0),
    "Angle 0": ("Angle", (TOP_A, BOTTOM_B), {"Distance": 0.0}, "parallel", 0.0),
    "Angle 30": ("Angle", (TOP_A, BOTTOM_B), {"Distance": 30.0}, "angle", 0.0),
}


def plc_matrix(plc):
    """(origin [mm], rotation matrix) of an App.Placement."""
    m = plc.Rotation.toMatrix()
    R = np.array([[m.A11, m.A12, m.A13], [m.A21, m.A22, m.A23], [m.A31, m.A32, m.A33]])
    return np.array([plc.Base.x, plc.Base.y, plc.Base.z]), R


def assert_same_placement(p, q, atol):
    (o1, R1), (o2, R2) = plc_matrix(p), plc_matrix(q)
    np.testing.assert_allclose(o1, o2, atol=atol)
    np.testing.assert_allclose(R1, R2, atol=atol)


def import_and_model(doc, asm):
    from MBDWorkbench.cad.assembly_import import import_assembly
    from MBDWorkbench.cad.document_model import model_from_document

    report = import_assembly(doc, asm)
    return report, model_from_document(doc)


def our_joint_object(doc):
    from MBDWorkbench.cad.objects import find_objects

    (obj,) = find_objects(doc, "Joint")
    return obj


def max_violation(model):
    """max |Phi| [m, rad] of a model at its initial placements."""
    from MBDWorkbench.solver.system.system import System

    system = System(model)
    return float(np.max(np.abs(system.evaluate(0.0, system.Y0)["phi"])))


def assemble_part_b(App, model, b):
    """B's placement after our assembly solver from the model's initial placements."""
    from MBDWorkbench.solver.system.assembly import assemble
    from MBDWorkbench.solver.system.system import System

    system = System(model)
    Y = assemble(system, system.Y0.copy(), tol=1e-12)
    pos, quat = system.user_pose(Y)
    k = system.body_index("B_body")
    rot = App.Rotation(quat[k][1], quat[k][2], quat[k][3], quat[k][0])
    cog_local = b.Shape.CenterOfMass - b.Placement.Base  # the CoG offset turns with B
    cog_local = b.Placement.Rotation.inverted().multVec(cog_local)
    base = App.Vector(*(pos[k] * 1e3)) - rot.multVec(cog_local)
    return App.Placement(base, rot)


@pytest.mark.parametrize("case", list(CASES))
def test_joint_frames_match_the_assembly_jcs(App, doc, JointObject, case):
    import UtilsAssembly

    jtype, refs, props, ours, shift = CASES[case]
    asm, joint, a, b = build(App, doc, JointObject, jtype, refs, props)
    report, model = import_and_model(doc, asm)
    assert report.unsupported == [] and report.grounded == ["A"]
    (j,) = model.joints
    assert j.type == ours
    obj = our_joint_object(doc)
    jcs1 = UtilsAssembly.getJcsGlobalPlc(joint.Placement1, joint.Reference1)
    jcs2 = UtilsAssembly.getJcsGlobalPlc(joint.Placement2, joint.Reference2)
    part1 = UtilsAssembly.getMovingPart(asm, joint.Reference1)
    if part1 != obj.Body1.Part:  # our sides in FreeCAD's own order (plane before line before point)
        jcs1, jcs2 = jcs2, jcs1
    z1 = jcs1.Rotation.multVec(App.Vector(0, 0, 1))
    if ours in ("prismatic", "cylindrical"):  # frame 1 moved along z1 onto JCS2 (displacement 0 here)
        shift = z1.dot(jcs2.Base - jcs1.Base)
    if ours in ("revolute", "cylindrical"):  # frame 2 turned about z2 (angle 0 here): JCS1 and JCS2 coincide
        assert_same_placement(jcs1, jcs2, 1e-9)
    expected1 = App.Placement(jcs1.Base + z1 * shift, jcs1.Rotation)
    assert_same_placement(obj.Frame, expected1, 1e-9)
    assert_same_placement(obj.Frame2, jcs2, 1e-9)
    assert max_violation(model) < 1e-9  # our equations hold where the Assembly put B


@pytest.mark.parametrize("case", list(CASES))
def test_driven_move_assembly_solver_and_ours_agree(App, doc, JointObject, case):
    """B pushed off the joint (a small turn and shift), then both solvers from there. Where the
    joint leaves B free to move (all but Fixed) the assembled placement is not unique and each
    solver picks its own nearest one; there each must accept the other's: our equations hold
    at the Assembly's placement, and the Assembly's solver leaves ours where it is."""
    jtype, refs, props, ours, _ = CASES[case]
    asm, joint, a, b = build(App, doc, JointObject, jtype, refs, props)
    push = App.Placement(App.Vector(0.4, -0.3, 0.5), App.Rotation(App.Vector(0.3, -0.5, 0.8), 2.0))
    start = push.multiply(b.Placement)
    b.Placement = start  # no recompute: it would run the Assembly's solver
    _, model = import_and_model(doc, asm)
    assert max_violation(model) > 1e-5  # really pushed off
    ours_plc = assemble_part_b(App, model, b)
    assert asm.solve() == 0
    theirs = App.Placement(b.Placement)
    if jtype == "Fixed":
        assert_same_placement(ours_plc, theirs, 1e-6)
    assert max_violation(import_and_model(doc, asm)[1]) < 1e-9
    b.Placement = ours_plc
    assert asm.solve() == 0
    assert_same_placement(b.Placement, ours_plc, 1e-6)


# ----------------------------------------------------------------------------- dynamics
G = np.array([0.0, 0.0, -9.81])  # the Simulation's default gravity [m/s^2]
A_TILTED = ((5.0, -3.0, 7.0), (1.0, 0.2, 0.0), 35.0)  # A's top face inclined by about 35 deg
T_END = 0.3  # [s]


def simulate_case(App, doc, JointObject, case, a_placement=A_TILTED):
    from MBDWorkbench.solver import simulate

    jtype, refs, props, _, _ = CASES[case]
    asm, joint, a, b = build(App, doc, JointObject, jtype, refs, props, a_placement)
    _, model = import_and_model(doc, asm)
    np.testing.assert_allclose(model.gravity, G, atol=1e-12)
    return model, simulate(model, t_end=T_END), a


def top_normal(App, a):
    """Global unit normal of A's top face (Face6) [-]."""
    n = a.Placement.Rotation.multVec(App.Vector(0, 0, 1))
    return np.array([n.x, n.y, n.z])


def test_slider_falls_along_its_inclined_axis(App, doc, JointObject):
    """A Slider on A's inclined top face: B's CoG moves by (g.n) n t^2 / 2, without turning."""
    model, res, a = simulate_case(App, doc, JointObject, "Slider")
    n = top_normal(App, a)
    assert abs(n @ [0, 0, 1]) < 0.9  # really inclined
    moved = res.position("B_body") - res.position("B_body")[0]
    np.testing.assert_allclose(moved, np.outer(0.5 * (G @ n) * res.t**2, n), atol=1e-7)
    np.testing.assert_allclose(
        res.rotation("B_body"), np.broadcast_to(res.rotation("B_body")[0], (len(res.t), 3, 3)), atol=1e-7
    )


def test_plane_plane_distance_slides_down_the_incline(App, doc, JointObject):
    """Distance 5 mm between two planes (planar): B's CoG accelerates by g minus its normal part."""
    model, res, a = simulate_case(App, doc, JointObject, "Distance plane-plane")
    n = top_normal(App, a)
    g_plane = G - (G @ n) * n
    moved = res.position("B_body") - res.position("B_body")[0]
    np.testing.assert_allclose(moved, np.outer(0.5 * res.t**2, g_plane), atol=1e-7)


@pytest.mark.parametrize("case", ["Parallel", "Perpendicular", "Angle 30"])
def test_orientation_joints_leave_free_fall(App, doc, JointObject, case):
    """Orientation-only joints: B starts at rest and falls freely (gravity has no moment)."""
    model, res, a = simulate_case(App, doc, JointObject, case)
    moved = res.position("B_body") - res.position("B_body")[0]
    np.testing.assert_allclose(moved, np.outer(0.5 * res.t**2, G), atol=1e-7)


def box_inertia(mass, edges_m):
    """Inertia tensor [kg m^2] of a uniform box about its CoG in its own axes."""
    a, b, c = edges_m
    return mass / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])


def test_point_point_distance_rod_tension_at_release(App, doc, JointObject):
    """Distance 15 mm between A's corner and B's corner: a massless rod. Released at rest, its
    tension T solves m a = m g + T u, I alpha = r x T u, u.(a + alpha x r) = 0 (the anchor's
    acceleration along the rod vanishes at rest), u the unit vector from B's anchor to A's."""
    import UtilsAssembly

    model, res, a = simulate_case(App, doc, JointObject, "Distance point-point", A_PLACEMENT)
    (joint,) = [o for o in doc.Objects if getattr(o, "JointType", None) == "Distance"]
    p_a = np.array(UtilsAssembly.getJcsGlobalPlc(joint.Placement1, joint.Reference1).Base) * 1e-3
    p_b = np.array(UtilsAssembly.getJcsGlobalPlc(joint.Placement2, joint.Reference2).Base) * 1e-3
    assert np.linalg.norm(p_a - p_b) == pytest.approx(15e-3, abs=1e-12)
    body = model.body("B_body")
    _, R = plc_matrix(doc.getObject("B").Placement)
    inertia = R @ box_inertia(body.mass, np.array(B_EDGES) * 1e-3) @ R.T
    u = (p_a - p_b) / np.linalg.norm(p_a - p_b)
    r = p_b - np.asarray(body.position)
    tension = -(u @ G) / (1.0 / body.mass + u @ np.cross(np.linalg.solve(inertia, np.cross(r, u)), r))
    force, _ = res.reaction(model.joints[0].name, frame="global")
    np.testing.assert_allclose(force[0], tension * u, rtol=1e-6, atol=1e-9)


# ----------------------------------------------------------------------------- offsets, edits, structure
def test_offset_change_moves_b_as_the_assembly_does(App, doc, JointObject):
    """A Fixed joint's Offset2 changed (a turn and a shift): FreeCAD puts it into Placement2 and
    re-solves; from the same start, ours puts B at the same (unique) placement."""
    asm, joint, a, b = build(App, doc, JointObject, *CASES["Fixed"][:3])
    import_and_model(doc, asm)
    start = App.Placement(b.Placement)
    joint.Offset2 = App.Placement(App.Vector(3.0, -2.0, 4.0), App.Rotation(App.Vector(0.2, 0.1, 1.0), 25.0))
    doc.recompute()
    assert asm.solve() == 0
    theirs = App.Placement(b.Placement)
    assert (theirs.Base - start.Base).Length > 1.0  # the offset really moved B
    b.Placement = start
    report, model = import_and_model(doc, asm)
    assert report.updated == [our_joint_object(doc).Label]
    assert_same_placement(assemble_part_b(App, model, b), theirs, 1e-6)


def test_reimport_after_edits_updates_instead_of_duplicating(App, doc, JointObject):
    """The user turns the Revolute into a Slider, enables a limit (imported), then deactivates it."""
    from MBDWorkbench.cad.objects import find_objects

    asm, joint, a, b = build(App, doc, JointObject, *CASES["Revolute"][:3])
    first, _ = import_and_model(doc, asm)
    ours = our_joint_object(doc)
    joint.JointType = "Slider"
    joint.EnableLengthMax, joint.LengthMax = True, 35.0
    assert asm.solve() == 0
    again, model = import_and_model(doc, asm)
    assert again.updated == [ours.Label] and again.bodies == [] and len(find_objects(doc, "Joint")) == 1
    assert our_joint_object(doc) == ours and model.joints[0].type == "prismatic"
    assert not any("limits not simulated" in n for n in again.notes)
    assert model.joints[0].travel_max is not None and model.joints[0].travel_max >= 0  # the start holds
    assert max_violation(model) < 1e-9
    joint.Activated = False
    last = import_and_model(doc, asm)[0]
    assert last.unsupported == [(joint.Label, "deactivated")]


def test_link_part_and_nested_sub_assembly(App, doc, JointObject):
    """An App::Link to a bar outside the Assembly (Revolute) and a nested Assembly moving as one
    rigid part (Ball to a box inside it): bodies of the right parts and masses, equations that
    hold where the Assembly put them, and both solvers accepting each other's placements."""
    asm = doc.addObject("Assembly::AssemblyObject", "Assembly")
    asm.Type = "Assembly"
    joints = asm.newObject("Assembly::JointGroup", "Joints")
    a = asm.newObject("Part::Box", "A")
    a.Length = a.Width = a.Height = A_EDGE
    source = doc.addObject("Part::Box", "Source")
    source.Length, source.Width, source.Height = B_EDGES
    link = asm.newObject("App::Link", "LinkB")
    link.LinkedObject = source
    link.Placement = placement(App, B_START)
    sub = asm.newObject("Assembly::AssemblyObject", "Sub")
    c = sub.newObject("Part::Box", "C")
    c.Length, c.Width, c.Height = 50.0, 10.0, 10.0
    sub.Placement = App.Placement(App.Vector(-60, 0, 0), App.Rotation())
    doc.recompute()
    JointObject.GroundedJoint(joints.newObject("App::FeaturePython", "GroundedJoint"), a)
    for jtype, ref2 in (("Revolute", ["LinkB.Face5", "LinkB.Vertex1"]), ("Ball", ["Sub.C.Vertex1"] * 2)):
        j = joints.newObject("App::FeaturePython", "Joint")
        JointObject.Joint(j, JointObject.JointTypes.index(jtype))
        ref1 = ["A.Face6", "A.Vertex8"] if jtype == "Revolute" else ["A.Vertex1"] * 2
        j.Proxy.setJointConnectors(j, [[asm, ref1], [asm, ref2]])
    assert asm.solve() == 0
    from MBDWorkbench.cad.assembly_import import find_assemblies

    assert find_assemblies(doc) == [asm]  # the nested one is a part of it
    report, model = import_and_model(doc, asm)
    assert report.unsupported == [] and sorted(j.type for j in model.joints) == ["revolute", "spherical"]
    rho = 7850.0
    masses = {b.name: b.mass for b in model.bodies}
    assert masses["LinkB_body"] == pytest.approx(rho * np.prod(B_EDGES) * 1e-9, rel=1e-12)
    assert masses["Sub_body"] == pytest.approx(rho * 50 * 10 * 10 * 1e-9, rel=1e-12)
    assert max_violation(model) < 1e-9
    link.Placement = App.Placement(App.Vector(0.4, -0.3, 0.5), App.Rotation(App.Vector(0.3, -0.5, 0.8), 2.0)).multiply(
        link.Placement
    )
    _, model = import_and_model(doc, asm)
    assert max_violation(model) > 1e-5
    assert asm.solve() == 0
    assert max_violation(import_and_model(doc, asm)[1]) < 1e-9
