"""Mass properties of FreeCAD objects against closed-form values.

Headless: run with the interpreter FreeCAD was built for (Debian: ``/usr/bin/python3 -m pytest``).
Expected values are computed here from textbook formulas, the parallel-axis theorem and
``R I R^T`` with rotation matrices built by Rodrigues' formula (not FreeCAD's), in SI units.
"""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from MBDWorkbench.cad.freecad_env import FreeCADNotFoundError, import_freecad
from MBDWorkbench.cad.mass_properties import (
    DEFAULT_DENSITY_KG_M3,
    CadError,
    combine_volume_properties,
    mass_properties,
)

STEEL = 7850.0
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def App():
    try:
        return import_freecad()
    except FreeCADNotFoundError as exc:
        pytest.skip("FreeCAD is not available to this interpreter (%s): %s" % (sys.executable, exc))


@pytest.fixture
def doc(App):
    d = App.newDocument("MassPropsTest")
    yield d
    App.closeDocument(d.Name)


# ---------------------------------------------------------------- closed-form helpers (SI)


def rot(axis, angle_deg):
    """Rotation matrix by Rodrigues' formula."""
    k = np.asarray(axis, float)
    k = k / np.linalg.norm(k)
    a = math.radians(angle_deg)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(a) * K + (1 - math.cos(a)) * K @ K


def box_props(a, b, c, rho=STEEL, corner=(0, 0, 0)):
    """Box of edges a, b, c [mm] with its minimum corner at ``corner`` [mm], axis-aligned."""
    a_, b_, c_ = a * 1e-3, b * 1e-3, c * 1e-3
    m = rho * a_ * b_ * c_
    cog = np.array(corner, float) * 1e-3 + np.array([a_, b_, c_]) / 2
    inertia = m / 12 * np.diag([b_**2 + c_**2, a_**2 + c_**2, a_**2 + b_**2])
    return m, cog, inertia


def cylinder_props(r, h, rho=STEEL):
    """Cylinder of radius r, height h [mm] on the z axis, base at the origin."""
    r_, h_ = r * 1e-3, h * 1e-3
    m = rho * math.pi * r_**2 * h_
    cog = np.array([0, 0, h_ / 2])
    ixx = m * (3 * r_**2 + h_**2) / 12
    return m, cog, np.diag([ixx, ixx, m * r_**2 / 2])


def shift(m, cog, inertia, R=None, t=(0, 0, 0)):
    """Rigidly move a body: x -> R x + t (t in mm; R defaults to I). Inertia about the CoG: R I R^T."""
    R = np.eye(3) if R is None else R
    return m, R @ cog + np.asarray(t, float) * 1e-3, R @ inertia @ R.T


def combine(*bodies):
    """Several bodies into one: total mass, mass-weighted CoG, parallel-axis theorem."""
    m = sum(b[0] for b in bodies)
    cog = sum(b[0] * b[1] for b in bodies) / m
    inertia = np.zeros((3, 3))
    for mi, ci, Ii in bodies:
        d = ci - cog
        inertia += Ii + mi * (d @ d * np.eye(3) - np.outer(d, d))
    return m, cog, inertia


def check(mp, expected, rel=1e-9):
    m, cog, inertia = expected
    assert mp.mass == pytest.approx(m, rel=rel)
    assert mp.volume == pytest.approx(m / mp.density, rel=rel)
    assert mp.cog.shape == (3,) and mp.inertia.shape == (3, 3)
    scale_cog = max(1e-3, float(np.max(np.abs(cog))))
    np.testing.assert_allclose(mp.cog, cog, rtol=0, atol=rel * scale_cog)
    scale_inertia = float(np.max(np.abs(inertia)))
    np.testing.assert_allclose(mp.inertia, inertia, rtol=0, atol=rel * scale_inertia)
    np.testing.assert_allclose(mp.inertia, mp.inertia.T, rtol=0, atol=1e-15 * scale_inertia)


def placement(App, R_axis, angle_deg, t):
    return App.Placement(App.Vector(*t), App.Rotation(App.Vector(*R_axis), angle_deg))


def add_box(App, doc, name, a, b, c):
    box = doc.addObject("Part::Box", name)
    box.Length, box.Width, box.Height = a, b, c
    return box


# ---------------------------------------------------------------- pure numerics (no FreeCAD)


def test_combine_volume_properties_parallel_axis():
    j = np.diag([1.0, 2.0, 3.0])
    v, c, jj = combine_volume_properties([(2.0, (1, 0, 0), j), (2.0, (-1, 0, 0), j)])
    assert v == 4.0
    np.testing.assert_allclose(c, [0, 0, 0])
    # each body at distance 1 along x: adds V*1 to Iyy and Izz
    np.testing.assert_allclose(jj, np.diag([2.0, 4.0 + 4.0, 6.0 + 4.0]))
    with pytest.raises(ValueError):
        combine_volume_properties([])


def test_importing_package_does_not_import_freecad():
    code = (
        "import sys, MBDWorkbench, MBDWorkbench.cad, MBDWorkbench.cad.mass_properties;"
        "assert 'FreeCAD' not in sys.modules and 'Part' not in sys.modules, 'imported FreeCAD'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


# ---------------------------------------------------------------- FreeCAD objects


def test_steel_box_10x20x30(App, doc):
    box = add_box(App, doc, "Box", 10, 20, 30)
    doc.recompute()
    mp = mass_properties(box)
    check(mp, box_props(10, 20, 30))
    assert mp.mass == pytest.approx(7850 * 6e-6)  # 47.1 g
    assert mp.density == DEFAULT_DENSITY_KG_M3 == STEEL
    assert mp.density_source == "default"
    assert mp.n_solids == 1 and mp.label == "Box"
    assert "Box" in mp.source


def test_density_argument(App, doc):
    box = add_box(App, doc, "Alu", 10, 20, 30)
    doc.recompute()
    mp = mass_properties(box, density_kg_m3=2700)
    check(mp, box_props(10, 20, 30, rho=2700))
    assert mp.density_source == "argument"
    with pytest.raises(CadError, match="Alu"):
        mass_properties(box, density_kg_m3=-1)
    with pytest.raises(CadError):
        mass_properties(box, density_kg_m3=float("nan"))


def test_cylinder(App, doc):
    cyl = doc.addObject("Part::Cylinder", "Cylinder")
    cyl.Radius, cyl.Height = 5, 40
    doc.recompute()
    check(mass_properties(cyl), cylinder_props(5, 40), rel=1e-7)


def test_part_shape_argument(App):
    import Part

    shape = Part.makeBox(10, 20, 30, App.Vector(1, 2, 3))
    mp = mass_properties(shape, 1000)
    check(mp, box_props(10, 20, 30, rho=1000, corner=(1, 2, 3)))


def test_compound_of_two_separated_boxes(App, doc):
    b1 = add_box(App, doc, "B1", 10, 20, 30)
    b2 = add_box(App, doc, "B2", 40, 10, 5)
    b2.Placement.Base = App.Vector(100, -50, 20)
    compound = doc.addObject("Part::Compound", "TwoBoxes")
    compound.Links = [b1, b2]
    doc.recompute()
    mp = mass_properties(compound)
    assert mp.n_solids == 2
    expected = combine(box_props(10, 20, 30), box_props(40, 10, 5, corner=(100, -50, 20)))
    check(mp, expected)
    # off-diagonal terms are not zero: the parallel-axis theorem put them there
    assert abs(mp.inertia[0, 1]) > 1e-3 * np.max(np.abs(mp.inertia))


def test_fusion_of_two_separated_boxes(App, doc):
    b1 = add_box(App, doc, "F1", 10, 10, 10)
    b2 = add_box(App, doc, "F2", 10, 10, 10)
    b2.Placement = placement(App, (0, 0, 1), 45, (50, 0, 0))
    fusion = doc.addObject("Part::MultiFuse", "Fusion")
    fusion.Shapes = [b1, b2]
    doc.recompute()
    mp = mass_properties(fusion)
    assert mp.n_solids == 2
    expected = combine(box_props(10, 10, 10), shift(*box_props(10, 10, 10), R=rot((0, 0, 1), 45), t=(50, 0, 0)))
    check(mp, expected)


ROT_AXIS, ROT_DEG, TRANS = (1, 2, 3), 37.0, (120.0, -45.0, 60.0)


def test_rotated_translated_box(App, doc):
    box = add_box(App, doc, "Turned", 10, 20, 30)
    box.Placement = placement(App, ROT_AXIS, ROT_DEG, TRANS)
    doc.recompute()
    mp = mass_properties(box)
    expected = shift(*box_props(10, 20, 30), R=rot(ROT_AXIS, ROT_DEG), t=TRANS)
    check(mp, expected)
    # the inertia tensor is full, not diagonal, in global axes
    assert np.min(np.abs(mp.inertia[np.triu_indices(3, 1)])) > 1e-4 * np.max(np.abs(mp.inertia))
    # ... and has the same principal moments as the unrotated box
    np.testing.assert_allclose(
        np.sort(np.linalg.eigvalsh(mp.inertia)), np.sort(np.diag(box_props(10, 20, 30)[2])), rtol=1e-9
    )


def test_box_inside_rotated_app_part(App, doc):
    """Part.getShape(obj) ignores the container's placement; mass_properties must not."""
    import Part

    box = add_box(App, doc, "Inner", 10, 20, 30)
    box.Placement = placement(App, ROT_AXIS, ROT_DEG, TRANS)
    container = doc.addObject("App::Part", "Assembly")
    container.addObject(box)
    container.Placement = placement(App, (0, 0, 1), 90, (0, 1000, 0))
    doc.recompute()
    R_outer, R_inner = rot((0, 0, 1), 90), rot(ROT_AXIS, ROT_DEG)
    t_total = R_outer @ np.array(TRANS) + np.array([0, 1000, 0])
    expected = shift(*box_props(10, 20, 30), R=R_outer @ R_inner, t=t_total)
    check(mass_properties(box), expected)
    check(mass_properties(container), expected)  # the App::Part itself: its only solid
    # documented FreeCAD 0.20 behaviour: Part.getShape(child) stops at the child's placement
    local = np.array(Part.getShape(box).Solids[0].CenterOfMass) * 1e-3
    np.testing.assert_allclose(local, R_inner @ box_props(10, 20, 30)[1] + np.array(TRANS) * 1e-3, atol=1e-12)


def test_nested_app_parts_with_two_children(App, doc):
    b1 = add_box(App, doc, "N1", 10, 20, 30)
    cyl = doc.addObject("Part::Cylinder", "N2")
    cyl.Radius, cyl.Height = 5, 40
    cyl.Placement = placement(App, (1, 0, 0), 90, (50, 0, 0))
    inner = doc.addObject("App::Part", "Inner")
    inner.addObject(b1)
    inner.addObject(cyl)
    inner.Placement = placement(App, (0, 1, 0), 30, (0, 0, 10))
    outer = doc.addObject("App::Part", "Outer")
    outer.addObject(inner)
    outer.Placement = placement(App, (0, 0, 1), -20, (5, 5, 5))
    doc.recompute()
    Ro, Ri = rot((0, 0, 1), -20), rot((0, 1, 0), 30)
    to, ti = np.array([5, 5, 5.0]), np.array([0, 0, 10.0])
    box_g = shift(*box_props(10, 20, 30), R=Ro @ Ri, t=Ro @ ti + to)
    cyl_g = shift(
        *cylinder_props(5, 40), R=Ro @ Ri @ rot((1, 0, 0), 90), t=Ro @ (Ri @ np.array([50, 0, 0.0]) + ti) + to
    )
    check(mass_properties(b1), box_g)
    check(mass_properties(cyl), cyl_g, rel=1e-7)
    mp = mass_properties(outer)
    assert mp.n_solids == 2
    check(mp, combine(box_g, cyl_g), rel=1e-7)


def test_link_with_own_placement(App, doc):
    box = add_box(App, doc, "Linked", 10, 20, 30)
    box.Placement = placement(App, (0, 0, 1), 30, (7, 8, 9))
    link = doc.addObject("App::Link", "Link")
    link.LinkedObject = box
    link.Placement = placement(App, ROT_AXIS, ROT_DEG, TRANS)  # replaces the box's placement
    doc.recompute()
    mp = mass_properties(link)
    check(mp, shift(*box_props(10, 20, 30), R=rot(ROT_AXIS, ROT_DEG), t=TRANS))
    assert mp.label == "Link"


def test_link_inside_app_part(App, doc):
    box = add_box(App, doc, "Target", 10, 20, 30)
    link = doc.addObject("App::Link", "InnerLink")
    link.LinkedObject = box
    link.Placement = placement(App, (0, 0, 1), 0, (0, 0, 500))
    container = doc.addObject("App::Part", "Holder")
    container.addObject(link)
    container.Placement = placement(App, (1, 0, 0), 90, (0, 0, 7000))
    doc.recompute()
    expected = shift(
        *box_props(10, 20, 30),
        R=rot((1, 0, 0), 90),
        t=rot((1, 0, 0), 90) @ np.array([0, 0, 500.0]) + np.array([0, 0, 7000.0]),
    )
    check(mass_properties(link), expected)


def test_partdesign_body_feature(App, doc):
    try:
        import PartDesign  # noqa: F401
    except ImportError as exc:
        pytest.skip("PartDesign not importable headless: %s" % exc)
    body = doc.addObject("PartDesign::Body", "Body")
    body.Placement = placement(App, (1, 0, 0), 90, (0, 0, -300))
    feature = doc.addObject("PartDesign::AdditiveBox", "PadBox")
    body.addObject(feature)
    feature.Length, feature.Width, feature.Height = 10, 20, 30
    doc.recompute()
    expected = shift(*box_props(10, 20, 30), R=rot((1, 0, 0), 90), t=(0, 0, -300))
    check(mass_properties(body), expected)
    check(mass_properties(feature), expected)  # feature.Shape itself is body-local


def test_no_solid_is_an_error(App, doc):
    import Part

    face = doc.addObject("Part::Feature", "Sheet")
    face.Shape = Part.makePlane(10, 10)
    face.Label = "My sheet"
    doc.recompute()
    with pytest.raises(CadError, match="My sheet.*no solid"):
        mass_properties(face)
    empty = doc.addObject("App::Part", "EmptyPart")
    with pytest.raises(CadError, match="EmptyPart"):
        mass_properties(empty)
    with pytest.raises(CadError):
        mass_properties(Part.Shape())
    with pytest.raises(CadError):
        mass_properties("not an object")


def test_negative_volume_is_an_error(App, doc):
    import Part

    shape = Part.makeBox(10, 10, 10)
    shape.reverse()
    inside_out = doc.addObject("Part::Feature", "InsideOut")
    inside_out.Shape = shape
    inside_out.Label = "Inside out"
    doc.recompute()
    with pytest.raises(CadError, match="Inside out.*negative volume"):
        mass_properties(inside_out)


def test_material_density_on_freecad_1(App, doc):
    box = add_box(App, doc, "WithMaterial", 10, 20, 30)
    doc.recompute()
    if not hasattr(box, "ShapeMaterial"):
        assert mass_properties(box).density_source == "default"
        pytest.skip("no ShapeMaterial on FreeCAD %s (it arrived in 1.0)" % ".".join(App.Version()[:3]))
    import Materials

    manager = Materials.MaterialManager()
    cards = [m for m in manager.Materials.values() if m.Name != "Default" and m.hasPhysicalProperty("Density")]
    if not cards:
        pytest.skip("no material card with a density installed")
    card = cards[0]
    box.ShapeMaterial = card
    doc.recompute()
    rho = float(card.getPhysicalValue("Density").getValueAs("kg/m^3"))
    mp = mass_properties(box, density_kg_m3=1234)
    assert mp.density == pytest.approx(rho)
    assert mp.density_source.startswith("material")
    check(mp, box_props(10, 20, 30, rho=rho))
