"""The signed distance of mesh-mesh contact (numerics/mesh_distance.py) on FreeCAD solids
tessellated as the Contact object does (cad/contact_shapes.contact_mesh) against OCC's exact
distance to the solid's faces (distToShape), its sign from OCC's isInside: a box (flat faces:
exact) and a cylinder (within the tessellation's chord deflection)."""

import math

import numpy as np

from MBDWorkbench.cad.contact_shapes import contact_mesh
from MBDWorkbench.solver.model.mesh_pairs import data_array, mesh_data
from MBDWorkbench.solver.numerics.mesh_distance import signed_distances


def occ_signed_mm(App, solid, x_mm) -> float:
    import Part

    point = App.Vector(*x_mm)
    distance = Part.Vertex(point).distToShape(Part.Compound(solid.Faces))[0]
    return -distance if solid.isInside(point, 1e-9, False) else distance


def kernel_and_occ(App, solid, deflection_mm: float, X_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    V, T = contact_mesh(solid, deflection_mm, "Part")
    got = signed_distances(data_array(mesh_data(V, T)), 0, X_mm * 1e-3, math.inf)
    return got, np.array([occ_signed_mm(App, solid, x) for x in X_mm]) * 1e-3


def test_a_boxs_signed_distance_equals_occs(App):
    import Part

    box = Part.makeBox(40, 30, 20, App.Vector(-20, -15, -10))
    X = np.random.default_rng(5).uniform([-30, -25, -18], [30, 25, 18], size=(40, 3))
    got, occ = kernel_and_occ(App, box, 0.1, X)
    assert (occ < 0).any() and (occ > 0).any()
    np.testing.assert_allclose(got, occ, atol=1e-9)


def test_a_cylinders_signed_distance_is_occs_within_the_deflection(App):
    import Part

    deflection_mm = 0.05
    cylinder = Part.makeCylinder(10, 20, App.Vector(0, 0, -10))
    X = np.random.default_rng(6).uniform([-14, -14, -14], [14, 14, 14], size=(40, 3))
    got, occ = kernel_and_occ(App, cylinder, deflection_mm, X)
    assert (occ < 0).any() and (occ > 0).any()
    assert np.abs(got - occ).max() <= deflection_mm * 1e-3 * 1.01
    assert np.abs(got - occ).max() > 1e-7  # the facets' sag is seen: an independent geometry
