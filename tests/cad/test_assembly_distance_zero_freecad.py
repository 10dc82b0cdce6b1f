"""Point-line and line-line Distances of 0 on real FreeCAD 1.x Assemblies (skipped where the
Assembly workbench is missing). FreeCAD 1.0's own solver does not close these two (a distance
from an axis has no gradient on the axis: it returns -1 or leaves the point off the line), so
the Assembly's solver cannot be the reference here; the reference is FreeCAD's geometry instead:
(a) the imported frames equal the Assembly's JCS (UtilsAssembly.getJcsGlobalPlc) to 1e-9;
(b) after our assembly solver, B's vertex lies on A's edge line (point-line) and B's edge line
    lies on A's (line-line), measured on the parts' shapes with B at our placement."""

import numpy as np
import pytest
from test_assembly_joints_freecad import (
    assemble_part_b,
    assert_same_placement,
    build,
    import_and_model,
    our_joint_object,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
B_NEAR = ((10.0, 5.0, 30.0), (1.0, 1.0, 0.0), 20.0)  # B off the line, not far from it
CASES = {  # name: element lists on A and B, our joint type
    "point-line": ((["Edge1", "Vertex1"], ["Vertex1"] * 2), "point_on_line"),
    "line-line": ((["Edge1", "Vertex1"], ["Edge1", "Vertex1"]), "cylindrical"),
}


def line_distance(App, line_edge, point):
    """Distance [mm] of a point from the infinite line of a straight edge."""
    p0, p1 = line_edge.Vertexes[0].Point, line_edge.Vertexes[1].Point
    u = np.array(p1 - p0) / (p1 - p0).Length
    d = np.array(point - p0)
    return float(np.linalg.norm(d - u * d.dot(u)))


@pytest.mark.parametrize("case", list(CASES))
def test_zero_distance_frames_and_our_assembly_on_the_geometry(App, doc, JointObject, case):
    import UtilsAssembly

    refs, ours = CASES[case]
    # B left where it was put: FreeCAD's solver does not close these
    asm, joint, a, b = build(
        App, doc, JointObject, "Distance", refs, {"Distance": 0.0}, b_placement=B_NEAR, solve=False
    )
    report, model = import_and_model(doc, asm)
    assert report.unsupported == [] and [j.type for j in model.joints] == [ours]
    obj = our_joint_object(doc)
    jcs1 = UtilsAssembly.getJcsGlobalPlc(joint.Placement1, joint.Reference1)
    jcs2 = UtilsAssembly.getJcsGlobalPlc(joint.Placement2, joint.Reference2)
    assert obj.Body1.Part == a  # the line side first, as FreeCAD orders them
    if ours == "cylindrical":  # frame 1 moved along its z onto JCS2's foot (displacement 0 there)
        z1 = jcs1.Rotation.multVec(App.Vector(0, 0, 1))
        jcs1 = App.Placement(jcs1.Base + z1 * z1.dot(jcs2.Base - jcs1.Base), jcs1.Rotation)
    assert_same_placement(obj.Frame, jcs1, 1e-9)
    # Frame2: its origin and z axis are the joint's (a cylindrical joint's Frame2 is turned about
    # its z onto Frame1's x, which changes none of its equations)
    z = App.Vector(0, 0, 1)
    assert (obj.Frame2.Base - jcs2.Base).Length < 1e-9
    assert (obj.Frame2.Rotation.multVec(z) - jcs2.Rotation.multVec(z)).Length < 1e-9

    edge_a = a.Shape.Edges[0]
    assert line_distance(App, edge_a, b.Shape.Vertexes[0].Point) > 1.0  # really off the line
    b.Placement = assemble_part_b(App, model, b)  # the Shape follows the Placement at once
    assert line_distance(App, edge_a, b.Shape.Vertexes[0].Point) < 1e-6  # [mm]; the solver's tolerance is 1e-12 m
    if ours == "cylindrical":  # the other end of B's edge too: the lines coincide
        assert line_distance(App, edge_a, b.Shape.Edges[0].Vertexes[1].Point) < 1e-6
