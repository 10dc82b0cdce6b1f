"""Contact geometry read from FreeCAD solids: face classes and parameters (SI, body frame), the
refusals, the mesh size estimate, and the analytic pairs against OCC's exact distToShape."""

import numpy as np
import pytest

from MBDWorkbench.cad.contact_shapes import (
    MAX_CONTACT_TRIANGLES,
    check_mesh_size,
    classify_faces,
    contact_mesh,
    estimate_triangles,
)
from MBDWorkbench.cad.errors import CadError
from MBDWorkbench.solver.numerics import contact_geometry as cg


@pytest.fixture(scope="module")
def Part(App):
    import Part

    return Part


def _kinds(faces):
    return sorted(face.kind for face in faces)


def test_block_with_a_hole_pin_sphere_cone_torus(App, Part):
    V = App.Vector
    block = Part.makeBox(40, 20, 10).cut(Part.makeCylinder(4, 10, V(10, 10, 0)))
    analytic, others = classify_faces(block, "Block")
    assert others == [] and _kinds(analytic) == ["cylinder"] + ["plane"] * 6
    hole = next(face for face in analytic if face.kind == "cylinder")
    assert hole.convex is False and hole.params["radius"] == pytest.approx(0.004)
    np.testing.assert_allclose(abs(hole.params["axis"]), [0, 0, 1], atol=1e-12)
    top = next(face for face in analytic if face.kind == "plane" and face.params["point"][2] > 0.0099)
    np.testing.assert_allclose(top.params["normal"], [0, 0, 1], atol=1e-12)  # outward
    assert top.area == pytest.approx((800 - np.pi * 16) * 1e-6)
    pin = classify_faces(Part.makeCylinder(3, 10), "Pin")[0]
    assert next(f for f in pin if f.kind == "cylinder").convex is True
    assert _kinds(classify_faces(Part.makeSphere(5), "Ball")[0]) == ["sphere"]
    assert "cone" in _kinds(classify_faces(Part.makeCone(5, 2, 10), "Cone")[0])
    torus = classify_faces(Part.makeTorus(20, 4), "Ring")[0][0]
    assert torus.kind == "torus" and torus.params["minor_radius"] == pytest.approx(0.004)


def test_freeform_faces_are_left_for_the_mesh(Part):
    nurbs = Part.makeSphere(5).toNurbs()
    analytic, others = classify_faces(nurbs, "Blob")
    assert analytic == [] and len(others) == len(nurbs.Faces)


def test_parameters_in_the_body_frame(App, Part):
    rotation = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # body x = global y
    ball = Part.makeSphere(5, App.Vector(100, 30, 0))
    sphere = classify_faces(ball, "Ball", origin_mm=(100, 0, 0), rotation=rotation)[0][0]
    np.testing.assert_allclose(sphere.params["center"], [0.030, 0.0, 0.0], atol=1e-15)


def test_not_a_closed_solid_is_refused_naming_the_part(Part):
    box = Part.makeBox(10, 10, 10)
    with pytest.raises(CadError, match="'Lid'.*not a solid"):
        classify_faces(box.Faces[0], "Lid")
    open_shell = Part.Shell(box.Faces[:5])
    with pytest.raises(CadError, match="'Tray'"):
        classify_faces(open_shell, "Tray")


def test_mesh_size_estimate_and_refusal(Part):
    ball = Part.makeSphere(10)
    vertices, triangles = contact_mesh(ball, 0.02, "Ball")
    estimate = estimate_triangles(ball, 0.02)
    assert 0.3 < estimate / len(triangles) < 3.0
    radii = np.linalg.norm(vertices, axis=1)
    assert np.all(np.abs(radii - 0.010) < 1e-9)  # mesh vertices lie on the exact sphere
    with pytest.raises(CadError, match="'Huge'.*triangles.*MB") as error:
        check_mesh_size(Part.makeSphere(1000), 0.001, "Huge")
    assert str(MAX_CONTACT_TRIANGLES) in str(error.value)


def _occ_gap_m(a, b):
    return a.distToShape(b)[0] * 1e-3


def test_sphere_on_box_and_roller_on_cam_against_occ(App, Part):
    V = App.Vector
    ball, box = Part.makeSphere(10, V(3, 2, 10.7)), Part.makeBox(40, 40, 10, V(-20, -20, -10))
    sphere = classify_faces(ball, "Ball")[0][0]
    contact = cg.sphere_box(
        sphere.params["center"], sphere.params["radius"], np.zeros(3) - [0, 0, 0.005], np.eye(3), [0.02, 0.02, 0.005]
    )
    assert contact.distance == pytest.approx(_occ_gap_m(ball, box), abs=1e-12)
    top = next(f for f in classify_faces(box, "Box")[0] if f.params["normal"][2] > 0.5)
    plane_contact = cg.sphere_plane(
        sphere.params["center"], sphere.params["radius"], top.params["point"], top.params["normal"]
    )
    assert plane_contact.distance == pytest.approx(_occ_gap_m(ball, box), abs=1e-12)
    angle = np.radians(37.0)
    cam_solid = Part.makeCylinder(30, 10, V(5, 0, 0))
    roller_solid = Part.makeCylinder(8, 10, V(5 + 38.3 * np.cos(angle), 38.3 * np.sin(angle), 0))
    cam = next(f for f in classify_faces(cam_solid, "Cam")[0] if f.kind == "cylinder")
    roller = next(f for f in classify_faces(roller_solid, "Roller")[0] if f.kind == "cylinder")
    line = cg.parallel_cylinders(
        cam.params["point"], cam.params["radius"], roller.params["point"], roller.params["radius"], cam.params["axis"]
    )
    assert line.distance == pytest.approx(_occ_gap_m(cam_solid, roller_solid), abs=1e-12)
    occ_point = cam_solid.distToShape(roller_solid)[1][0][0]
    np.testing.assert_allclose(line.point_a[:2], np.array([occ_point.x, occ_point.y]) * 1e-3, atol=1e-12)


def test_ball_near_a_ring_against_occ(App, Part):
    ring_solid = Part.makeTorus(20, 4, App.Vector(1, 2, 3), App.Vector(0, 1, 1))
    ball = Part.makeSphere(5, App.Vector(-9, 20, 10))
    torus = classify_faces(ring_solid, "Ring")[0][0].params
    sphere = classify_faces(ball, "Ball")[0][0].params
    contact = cg.sphere_torus(
        sphere["center"], sphere["radius"], torus["center"], torus["axis"], torus["major_radius"], torus["minor_radius"]
    )
    assert contact.distance > 0.0
    assert contact.distance == pytest.approx(_occ_gap_m(ball, ring_solid), abs=1e-9)
