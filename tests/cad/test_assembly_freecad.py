"""The Assembly import on a real FreeCAD 1.x Assembly (skipped where the Assembly workbench
is missing, e.g. FreeCAD 0.20).

The assembly is built as the Assembly workbench's Python API does it: an
``Assembly::AssemblyObject`` with an ``Assembly::JointGroup``, a GroundedJoint on box A and a
Revolute between A's face y = W (at A's corner (L, W, 0)) and B's face y = 0 (at B's origin);
the Assembly's own solver then moves B onto the joint. The imported joint frame is checked
against A's placement (corner and face normal, computed here), the masses against the box
formulas, and B's motion against the compound pendulum oracle about that axis.
"""

import math

import numpy as np
import pytest

A_EDGE = 20.0  # box A: 20 mm cube [mm]
B_EDGES = (200.0, 20.0, 20.0)  # bar B [mm]
A_ROT_DEG, A_BASE = 30.0, (5.0, -3.0, 7.0)  # A's placement: about global z, then moved [mm]
RHO = 7850.0  # default density, steel [kg/m^3]

# importing the Assembly module loads PySide2, which warns about Python 3.14 on Python 3.13
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def build(App, doc, JointObject):
    """Assembly with A grounded and a Revolute A-B; returns (assembly, A, B)."""
    asm = doc.addObject("Assembly::AssemblyObject", "Assembly")
    asm.Type = "Assembly"  # as CommandCreateAssembly
    joints = asm.newObject("Assembly::JointGroup", "Joints")
    a = asm.newObject("Part::Box", "A")
    a.Length = a.Width = a.Height = A_EDGE
    a.Placement = App.Placement(App.Vector(*A_BASE), App.Rotation(App.Vector(0, 0, 1), A_ROT_DEG))
    b = asm.newObject("Part::Box", "B")
    b.Length, b.Width, b.Height = B_EDGES
    b.Placement = App.Placement(App.Vector(40, 30, 0), App.Rotation())
    doc.recompute()
    ground = joints.newObject("App::FeaturePython", "GroundedJoint")
    JointObject.GroundedJoint(ground, a)
    hinge = joints.newObject("App::FeaturePython", "Joint")
    JointObject.Joint(hinge, JointObject.JointTypes.index("Revolute"))
    hinge.Label = "Hinge"
    corner_a = "A.Vertex%d" % _vertex_index(a, (A_EDGE, A_EDGE, 0.0))
    origin_b = "B.Vertex%d" % _vertex_index(b, (0.0, 0.0, 0.0))
    hinge.Proxy.setJointConnectors(hinge, [[asm, ["A.Face4", corner_a]], [asm, ["B.Face3", origin_b]]])
    doc.recompute()
    return asm, a, b


def _vertex_index(part, local_mm):
    """1-based index of the part's vertex at a point given in the part's own axes [mm]."""
    import FreeCAD as App

    p = part.Placement.multVec(App.Vector(*local_mm))
    for k, v in enumerate(part.Shape.Vertexes, 1):
        if (v.Point - p).Length < 1e-9:
            return k
    raise AssertionError("no vertex of %s at %s" % (part.Label, local_mm))


def test_assembly_revolute_frame_masses_and_pendulum_motion(App, doc, JointObject):
    from oracles.pendulum import pendulum_ode_solution

    from MBDWorkbench.cad.assembly_import import find_assemblies, import_assembly
    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.solver import simulate
    from MBDWorkbench.solver.numerics import quaternion

    asm, a, b = build(App, doc, JointObject)
    assert find_assemblies(doc) == [asm]
    report = import_assembly(doc, asm)
    assert report.grounded == ["A"] and len(report.joints) == 1 and report.unsupported == []
    model = model_from_document(doc)

    # joint frame: A's corner (L, W, 0) and the outward normal of A's face y = W, both global
    c, s = math.cos(math.radians(A_ROT_DEG)), math.sin(math.radians(A_ROT_DEG))
    rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    pivot = (np.array(A_BASE) + rot @ [A_EDGE, A_EDGE, 0.0]) * 1e-3
    axis = rot @ [0.0, 1.0, 0.0]
    (j,) = model.joints
    assert (j.type, j.body_i, j.body_j) == ("revolute", "A_body", "B_body")
    body_a = model.body("A_body")  # the frame on A is given in A's own frame about its CoG
    R_a = quaternion.matrices(np.asarray(body_a.orientation))
    np.testing.assert_allclose(body_a.position + R_a @ j.frame_i.origin, pivot, atol=1e-12)
    np.testing.assert_allclose(R_a @ j.frame_i.z_axis, axis, atol=1e-12)

    # masses from the solids, never the Assembly's dummy masses
    ma, mb = RHO * (A_EDGE * 1e-3) ** 3, RHO * np.prod(B_EDGES) * 1e-9
    assert model.body("A_body").mass == pytest.approx(ma, rel=1e-12)
    assert model.body("B_body").mass == pytest.approx(mb, rel=1e-12)

    # B swings about the hinge axis (horizontal) as a compound pendulum
    g = np.asarray(model.gravity, dtype=float)
    np.testing.assert_allclose(g, [0, 0, -9.81], atol=1e-12)
    res = simulate(model, t_end=1.0)
    r = res.position("B_body") - pivot
    down = np.array([0.0, 0.0, -1.0])
    theta = np.arctan2(r @ np.cross(axis, down), r @ down)
    la, lw, lh = (x * 1e-3 for x in B_EDGES)
    arm = math.hypot(la / 2, lh / 2)  # CoG of B from the axis, in B's xz plane
    sol = pendulum_ode_solution(theta[0], res.t, m=mb, L=arm, g=9.81, Jc=mb / 12 * (la**2 + lh**2))
    assert abs(math.degrees(theta[0])) > 90  # released above the horizontal: a large swing
    np.testing.assert_allclose(theta, sol.theta, atol=1e-6)
    np.testing.assert_allclose(r @ axis, lw / 2, atol=1e-9)  # no motion along the axis
    np.testing.assert_allclose(np.linalg.norm(r - np.outer(r @ axis, axis), axis=1), arm, atol=1e-9)
