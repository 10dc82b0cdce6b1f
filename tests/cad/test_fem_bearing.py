"""Pin loads in fem-loads land where the joint was made, with real Gmsh and CalculiX runs: the
shipped pendulum's pivot (picked on a straight edge: a line load, with a warning) and a lug
hanging from a pin in its bore (a bearing pressure, no warning). In both the mid-bar axial
stress equals N/A, N from the rigid-body kinematics of the outer half (gravity and d'Alembert
loads of a bar rotating about the pivot). Skipped, saying so, without FreeCAD's FEM module,
Gmsh or CalculiX."""

import os

import numpy as np
import pytest
from fem_helpers import resolve_from_objects, section_fit

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def axial_stress_closed_form(case: dict, cog_doc: np.ndarray, outer_mass: float, outer_cog_doc: np.ndarray, area):
    """N / A [MPa] at a cut of a bar swinging about the global y axis through the origin (its
    document pose at rest, axis x): N = e . m_o (g - a_C - alpha x r - w x (w x r)) of the part
    beyond the cut (mass m_o, centroid r from the CoG), e the bar's axis at the instant [m, kg]."""
    cog = np.array(case["cog_m"])
    th = np.arctan2(cog_doc[2], cog_doc[0]) - np.arctan2(cog[2], cog[0])
    c, s = np.cos(th), np.sin(th)
    R = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    assert np.allclose(R @ cog_doc, cog, atol=1e-9)  # a rotation about y through the origin
    w, a, al = (np.array(case[k]) for k in ("omega_rad_s", "acceleration_m_s2", "alpha_rad_s2"))
    g = np.array(next(ld["force_N"] for ld in case["loads"] if ld["kind"] == "gravity")) / case["mass_kg"]
    r = R @ (outer_cog_doc - cog_doc)
    F = outer_mass * (g - a - np.cross(al, r) - np.cross(w, np.cross(w, r)))
    return (R @ [1.0, 0, 0]) @ F / area


def mid_section_stress(App, out: str, case: dict, x_mm: float, centroid_yz) -> float:
    """sigma_xx [MPa] at the section's centroid (plane fit to the nodes within 2 mm of x = x_mm)."""
    return float(section_fit(App, out, case["analysis"], x_mm, centroid_yz)[0])


@pytest.fixture(scope="module")
def pendulum_run(fem, tmp_path_factory):
    from MBDWorkbench.cad.fem_loads import FemRequest, fem_loads

    out = str(tmp_path_factory.mktemp("pendulum") / "pendulum.FCStd")
    return out, fem_loads(FemRequest(os.path.join(REPO, "examples", "pendulum.FCStd"), "Bar", out=out, mesh_size=5.0))


def pendulum_mid_bar_closed_form(case: dict) -> float:
    """N / A [MPa] at the middle x = 100 mm of the 200 x 20 x 20 mm bar (CoG (100, 0, 10) mm)."""
    m = case["mass_kg"]
    return axial_stress_closed_form(case, np.array([0.1, 0, 0.01]), m / 2, np.array([0.15, 0, 0.01]), 400.0)


def test_pendulum_pivot_on_its_edge_gives_the_mid_bar_axial_stress(fem, pendulum_run):
    """examples/pendulum.FCStd: a 200 x 20 x 20 mm steel bar on a revolute picked on its edge
    x = z = 0. The load lands on that edge only (not on the 200 mm bottom face) with a warning;
    the mid-bar axial stress at the largest pivot load is N / A within 2 %."""
    out, summary = pendulum_run
    assert summary["load_surfaces"]["Pivot"] == dict(references=["Edge4"], bearing=False)
    assert len(summary["warnings"]) == 1 and "'Pivot'" in summary["warnings"][0]
    assert "line load" in summary["warnings"][0]
    case = summary["cases"][0]
    expected = pendulum_mid_bar_closed_form(case)
    got = mid_section_stress(fem, out, case, 100.0, (0.0, 10.0))
    assert expected > 0.02  # MPa: tension, about 3 m g / 2 over the section at the bottom
    assert abs(got - expected) < 0.02 * expected, (got, expected)


def test_analysis_is_solved_again_from_its_fem_objects(fem, pendulum_run, tmp_path):
    """The written analysis holds its loads as FEM objects: FreeCAD's CalculiX pre-check passes,
    and remeshing (4 mm instead of 5) and solving with FreeCAD's own tools (its writer, no nodal
    loads of ours) gives the mid-bar stress of our solve within 1 %."""
    out, summary = pendulum_run
    case = summary["cases"][0]
    ours = mid_section_stress(fem, out, case, 100.0, (0.0, 10.0))
    copy = str(tmp_path / "again.FCStd")
    kinds = resolve_from_objects(fem, out, case["analysis"], copy, 4.0, str(tmp_path / "ccx"))
    expected = {
        "Fem::ConstraintForce",
        "Fem::ConstraintDisplacement",
        "Fem::ConstraintSelfWeight",
        "Fem::ConstraintCentrif",
    }
    assert expected <= set(kinds), kinds
    again = mid_section_stress(fem, copy, case, 100.0, (0.0, 10.0))
    assert abs(again - ours) < 0.01 * ours, (again, ours)


@pytest.fixture(scope="module")
def lug_doc(fem, tmp_path_factory):
    """A steel lug 120 x 10 x 30 mm (x from -15 to 105 mm, thickness y 10, width z 30) with a
    12 mm bore at the origin (axis y), released horizontal from a revolute picked on the bore's edge."""
    import Part

    from MBDWorkbench.cad.makers import make_body, make_simulation
    from MBDWorkbench.cad.picking import make_joint_from_picks

    App = fem
    doc = App.newDocument("fem_lug")
    make_simulation(doc, EndTimeMilliseconds=400, OutputStepMicroseconds=5000, StepMicroseconds=1000, Integrator="rk4")
    lug = doc.addObject("Part::Feature", "Lug")
    box = Part.makeBox(120, 10, 30, App.Vector(-15, -5, -15))
    lug.Shape = box.cut(Part.makeCylinder(6, 10, App.Vector(0, -5, 0), App.Vector(0, 1, 0)))
    doc.recompute()
    make_body(doc, lug, material="Steel")
    edge = next(
        "Edge%d" % (k + 1)
        for k, e in enumerate(lug.Shape.Edges)
        if e.Curve.__class__.__name__ == "Circle" and abs(e.Curve.Center.y + 5) < 1e-9
    )
    make_joint_from_picks(doc, "revolute", [(lug, edge)], label="Pin")
    doc.recompute()
    path = str(tmp_path_factory.mktemp("lug") / "lug.FCStd")
    doc.saveAs(path)
    shape = lug.Shape.Solids[0].copy()
    App.closeDocument(doc.Name)
    return path, shape


def test_pin_in_lug_bearing_load_gives_the_shank_axial_stress(fem, lug_doc, tmp_path):
    """The pin's load is a bearing pressure on the bore (no warning); the shank's axial stress at
    x = 60 mm (section 10 x 30 mm) is N / A within 2 %."""
    from MBDWorkbench.cad.fem_loads import FemRequest, fem_loads

    path, shape = lug_doc
    out = str(tmp_path / "lug_fem.FCStd")
    summary = fem_loads(FemRequest(path, "Lug", out=out, mesh_size=4.0))
    surface = summary["load_surfaces"]["Pin"]
    assert surface["bearing"] and all(shape.getElement(f).Surface.Radius == 6 for f in surface["references"])
    assert summary["warnings"] == []
    case = summary["cases"][0]
    cut = shape.common(_half_space(shape, 60.0)).Solids[0]
    cog_doc = np.array(shape.CenterOfMass) * 1e-3
    outer_mass = case["mass_kg"] * cut.Volume / shape.Volume
    expected = axial_stress_closed_form(case, cog_doc, outer_mass, np.array(cut.CenterOfMass) * 1e-3, 300.0)
    got = mid_section_stress(fem, out, case, 60.0, (0.0, 0.0))
    assert expected > 0.01
    assert abs(got - expected) < 0.02 * expected, (got, expected)


def _half_space(shape, x_mm: float):
    """The solid x > x_mm enclosing the shape's part beyond the cut."""
    import FreeCAD as App
    import Part

    bb = shape.BoundBox
    return Part.makeBox(bb.XMax - x_mm + 1, bb.YLength + 2, bb.ZLength + 2, App.Vector(x_mm, bb.YMin - 1, bb.ZMin - 1))
