"""Joint frames from picked geometry (headless FreeCAD), checked against the geometry's
construction (centres, axes and normals known from how the solids were made)."""

import math

import numpy as np
import pytest

from MBDWorkbench.cad.mass_properties import CadError


def find(shape_list, pred, prefix):
    """Name ('Face3', ...) of the only element satisfying ``pred``."""
    hits = ["%s%d" % (prefix, k + 1) for k, s in enumerate(shape_list) if pred(s)]
    assert len(hits) == 1, hits
    return hits[0]


def vec(v):
    return np.array([v.x, v.y, v.z])


def rot(axis, deg):
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    a = math.radians(deg)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(a) * K + (1 - math.cos(a)) * K @ K


def parallel(a, b):
    return abs(abs(np.dot(a, b) / np.linalg.norm(a) / np.linalg.norm(b)) - 1) < 1e-12


def cylinder_in_rotated_part(App, doc):
    """Cylinder r=5 h=20 on its local z, inside an App::Part rotated 90 deg about x and
    moved to (100, 0, 0): its axis is global R_x(90) z = (0, -1, 0)."""
    part = doc.addObject("App::Part", "Assembly")
    part.Placement = App.Placement(App.Vector(100, 0, 0), App.Rotation(App.Vector(1, 0, 0), 90))
    cyl = doc.addObject("Part::Cylinder", "Cyl")
    cyl.Radius, cyl.Height = 5, 20
    part.addObject(cyl)
    doc.recompute()
    return part, cyl


def test_circular_edge_gives_centre_and_axis(App, doc):
    from MBDWorkbench.cad.picking import pick_frame

    part, cyl = cylinder_in_rotated_part(App, doc)
    top = find(cyl.Shape.Edges, lambda e: type(e.Curve).__name__ == "Circle" and e.BoundBox.ZMin > 10, "Edge")
    obj, f = pick_frame(part, "Cyl." + top)
    assert obj == cyl and f.kind == "circular edge"
    R = rot((1, 0, 0), 90)
    np.testing.assert_allclose(f.origin, [100, 0, 0] + R @ [0, 0, 20], atol=1e-9)
    assert parallel(f.axis, R @ [0, 0, 1])


def test_cylindrical_face_gives_axis_through_its_middle(App, doc):
    from MBDWorkbench.cad.picking import pick_frame

    part, cyl = cylinder_in_rotated_part(App, doc)
    side = find(cyl.Shape.Faces, lambda f: type(f.Surface).__name__ == "Cylinder", "Face")
    _, f = pick_frame(part, "Cyl." + side)
    R = rot((1, 0, 0), 90)
    assert f.kind == "cylindrical face" and parallel(f.axis, R @ [0, 0, 1])
    np.testing.assert_allclose(f.origin, [100, 0, 0] + R @ [0, 0, 10], atol=1e-9)


def test_planar_face_gives_outward_normal(App, doc):
    from MBDWorkbench.cad.picking import pick_frame

    box = doc.addObject("Part::Box", "Box")
    box.Length, box.Width, box.Height = 10, 20, 30
    box.Placement = App.Placement(App.Vector(5, 6, 7), App.Rotation(App.Vector(0, 0, 1), 30))
    doc.recompute()
    R = rot((0, 0, 1), 30)
    # the face at local x = 10: outward normal R (1, 0, 0), centre R (10, 10, 15) + t
    name = find(box.Shape.Faces, lambda f: np.allclose(vec(f.CenterOfMass), R @ [10, 10, 15] + [5, 6, 7]), "Face")
    _, f = pick_frame(box, name)
    assert f.kind == "planar face"
    np.testing.assert_allclose(f.axis, R @ [1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(f.origin, R @ [10, 10, 15] + [5, 6, 7], atol=1e-9)


def test_vertex_straight_edge_and_sphere(App, doc):
    from MBDWorkbench.cad.picking import pick_frame

    box = doc.addObject("Part::Box", "Box")
    box.Length, box.Width, box.Height = 10, 20, 30
    ball = doc.addObject("Part::Sphere", "Ball")
    ball.Radius = 4
    ball.Placement.Base = App.Vector(50, 0, 0)
    doc.recompute()
    vname = find(box.Shape.Vertexes, lambda v: np.allclose(vec(v.Point), [10, 20, 30]), "Vertex")
    _, f = pick_frame(box, vname)
    assert f.kind == "vertex" and f.axis is None
    np.testing.assert_allclose(f.origin, [10, 20, 30])
    ename = find(box.Shape.Edges, lambda e: np.allclose(vec(e.CenterOfMass), [10, 20, 15]), "Edge")
    _, f = pick_frame(box, ename)
    assert f.kind == "straight edge" and parallel(f.axis, [0, 0, 1])
    np.testing.assert_allclose(f.origin, [10, 20, 15], atol=1e-9)
    _, f = pick_frame(ball, "Face1")
    assert f.kind == "spherical face" and f.axis is None
    np.testing.assert_allclose(f.origin, [50, 0, 0], atol=1e-9)


def test_frame_from_elements(App):
    from MBDWorkbench.cad.element_frames import ElementFrame, frame_from_elements
    from MBDWorkbench.cad.placement import placement_axes

    circle = ElementFrame("circular edge", np.array([1.0, 2, 3]), np.array([0, 1.0, 0]), "Edge1 of A")
    point = ElementFrame("vertex", np.array([4.0, 5, 6]), None, "Vertex1 of B")
    o, x, y, z = placement_axes(frame_from_elements("revolute", [point, circle]))
    np.testing.assert_allclose(o, [4, 5, 6])  # origin from the first pick, axis from the one that has one
    np.testing.assert_allclose(z, [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose([x @ y, x @ z, np.cross(x, y) @ z], [0, 0, 1], atol=1e-12)
    o, x, y, z = placement_axes(frame_from_elements("spherical", [point]))
    np.testing.assert_allclose(o, [4, 5, 6])
    with pytest.raises(CadError, match=r"joint \(revolute\).*Vertex1 of B.*has no axis"):
        frame_from_elements("revolute", [point, point])
    other = ElementFrame("straight edge", np.zeros(3), np.array([1.0, 0, 0]), "Edge2 of B")
    o, x, y, z = placement_axes(frame_from_elements("universal", [circle, other]))
    np.testing.assert_allclose([x, y], [[0, 1, 0], [1, 0, 0]], atol=1e-12)  # cross axes
    with pytest.raises(CadError, match="parallel"):
        frame_from_elements("universal", [circle, circle])


def test_unusable_geometry_is_refused(App, doc):
    from MBDWorkbench.cad.picking import pick_frame

    torus = doc.addObject("Part::Torus", "Torus")
    box = doc.addObject("Part::Box", "Box")
    doc.recompute()
    with pytest.raises(CadError, match="Face1 of Torus.*has no joint axis"):
        pick_frame(torus, "Face1")
    with pytest.raises(CadError, match="Box.*not the whole object"):
        pick_frame(box, "")


def test_joint_from_picks_creates_bodies_and_frame(App, doc):
    from MBDWorkbench.cad.makers import make_simulation
    from MBDWorkbench.cad.objects import find_objects
    from MBDWorkbench.cad.picking import make_joint_from_picks
    from MBDWorkbench.cad.placement import placement_axes

    make_simulation(doc)
    part, cyl = cylinder_in_rotated_part(App, doc)
    box = doc.addObject("Part::Box", "Box")
    box.Placement.Base = App.Vector(0, 0, -50)
    doc.recompute()
    edge = find(cyl.Shape.Edges, lambda e: type(e.Curve).__name__ == "Circle" and e.BoundBox.ZMin > 10, "Edge")
    joint = make_joint_from_picks(doc, "cylindrical", [(part, "Cyl." + edge), (box, "Face1")])
    bodies = find_objects(doc, "Body")
    assert [b.Part for b in bodies] == [cyl, box]
    assert (joint.Body1, joint.Body2) == tuple(bodies)
    o, x, y, z = placement_axes(joint.Frame)
    R = rot((1, 0, 0), 90)
    np.testing.assert_allclose(o, [100, 0, 0] + R @ [0, 0, 20], atol=1e-9)
    assert parallel(z, R @ [0, 0, 1])
    assert joint.Reference1 == "%s of Cyl" % edge and joint.Reference2 == "Face1 of Box"
    # a second joint reuses the bodies; one pick attaches to the ground
    ground = make_joint_from_picks(doc, "spherical", [(box, "Vertex1")])
    assert ground.Body1 is None and ground.Body2 == bodies[1] and len(find_objects(doc, "Body")) == 2


def test_adjusted_frame_flip_offset_rotation(App):
    from MBDWorkbench.cad.placement import adjusted_frame, placement_axes, placement_from_axes

    base = placement_from_axes([1, 2, 3], [0, 0, 1], [1, 0, 0])
    o, x, y, z = placement_axes(adjusted_frame(base, flip=True, offset_mm=5))
    np.testing.assert_allclose(z, [0, 0, -1], atol=1e-12)
    np.testing.assert_allclose(o, [1, 2, -2], atol=1e-12)  # moved along the flipped z
    o, x, y, z = placement_axes(adjusted_frame(base, rotation_deg=90))
    np.testing.assert_allclose(x, [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(z, [0, 0, 1], atol=1e-12)
