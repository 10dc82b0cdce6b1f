"""The loads of a fem-loads analysis as FreeCAD FEM objects, checked on the CalculiX input that
FreeCAD's own writer makes from them (no CalculiX run: this runs wherever FreeCAD's FEM module
and Gmsh are, FreeCAD 0.20 and 1.x): the written nodal forces sum to the joint force, GRAV and
CENTRIF with the written density give the body's m |g - a_G| and rho w^2 (FreeCAD 0.20's
self-weight has no magnitude: the density is scaled), and the pre-check passes."""

import os
import re
import shutil

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEEL = 7850.0  # kg/m^3
G_EFF = np.array([30.0, 0.0, -5.0])  # m/s^2, g - a_G of the test
OMEGA = np.array([0.0, 3.0, 0.0])  # rad/s
MOMENT = np.array([0.5, 0.0, -0.3])  # N m about the pivot edge's centroid, normal to the edge (along y)


@pytest.fixture(scope="module")
def written(fem_mesher, tmp_path_factory):
    """The pendulum's bar with an analysis, a Gmsh mesh, the FEM objects of a balanced load set
    (pivot force -m G_EFF on its edge, G_EFF and OMEGA as the distributed load) and the .inp
    FreeCAD's writer makes of them."""
    from femtools import ccxtools

    App = fem_mesher
    from MBDWorkbench.cad.fem_loads import make_analysis
    from MBDWorkbench.cad.fem_objects import add_load_objects
    from MBDWorkbench.cad.fem_surfaces import LoadSurface, surface_centroid

    folder = tmp_path_factory.mktemp("objects")
    path = str(folder / "pendulum.FCStd")
    shutil.copyfile(os.path.join(REPO, "examples", "pendulum.FCStd"), path)
    doc = App.openDocument(path)
    try:
        part = doc.getObject("Bar")
        shape = part.Shape
        mass = STEEL * shape.Volume * 1e-9
        analysis, solver, mesh = make_analysis(doc, part, "FEM_test", 2.1e5, 0.3, STEEL, 8.0, str(folder / "ccx"))
        pivot = LoadSurface("Pivot", edges=["Edge4"])
        force = -mass * G_EFF
        centroid = surface_centroid(pivot, shape)
        loads = [("Pivot", pivot, force, centroid, MOMENT)]
        field = dict(g_eff=G_EFF, omega=OMEGA, cog=np.array(shape.CenterOfMass), mass=mass, gyroscopic=np.zeros(3),
                     size=0.1, largest=float(np.linalg.norm(force)))  # fmt: skip
        record = add_load_objects(doc, analysis, "FEM_test", part, shape, loads, field)
        fea = ccxtools.FemToolsCcx(analysis, solver)
        fea.update_objects()
        fea.setup_working_dir(str(folder / "ccx"))
        message = fea.check_prerequisites()
        fea.write_inp_file()
        text = open(fea.inp_file_name).read()
    finally:
        App.closeDocument(doc.Name)
    return dict(
        text=text,
        record=record,
        message=message,
        mass=mass,
        force=force,
        volume=shape.Volume,
        centroid=centroid,
        cog=np.array(shape.CenterOfMass),
    )


def _lines_after(text: str, keyword: str) -> list:
    """The data lines of every block opened by ``keyword`` (up to the next keyword line)."""
    out = []
    text = "\n".join(ln for ln in text.splitlines() if not ln.startswith("**"))  # comments
    for block in re.split(r"(?m)^\*", text):
        if block.upper().startswith(keyword.upper()):
            out += [ln for ln in block.splitlines()[1:] if ln.strip() and not ln.startswith("*")]
    return out


def test_precheck_passes_and_objects_are_in_the_analysis(written):
    assert written["message"] == ""
    names = written["record"]["fem_objects"]
    assert any(n.endswith("_Pivot") for n in names) and sum("_Support_V" in n for n in names) == 3


def _nodes(text: str) -> dict:
    """{node id: (3,) mm} of the .inp's *Node blocks."""
    out = {}
    for block in re.split(r"(?m)^\*", text):
        if re.match(r"(?i)node\s*,\s*nset", block):
            for line in block.splitlines()[1:]:
                fields = line.split(",")
                if len(fields) == 4:
                    out[int(fields[0])] = np.array([float(v) for v in fields[1:]])
    return out


def test_written_nodal_forces_are_the_joint_force_and_moment(written):
    """FreeCAD's writer's CLOADs of the force and couple objects: their sum is the joint force, their
    moment about the surface's centroid the joint's moment (the couple on the edge's end vertices)."""
    nodes = _nodes(written["text"])
    total, moment = np.zeros(3), np.zeros(3)
    for line in _lines_after(written["text"], "CLOAD"):
        node, dof, value = line.split(",")
        f = np.zeros(3)
        f[int(dof) - 1] = float(value)
        total += f
        moment += np.cross((nodes[int(node)] - written["centroid"]) * 1e-3, f)
    assert np.allclose(total, written["force"], rtol=1e-9, atol=1e-9 * np.linalg.norm(written["force"]))
    assert np.allclose(moment, MOMENT, atol=1e-6 * np.linalg.norm(MOMENT)), moment
    assert sum("_Pivot_couple" in n for n in written["record"]["fem_objects"]) == 2  # the edge's two vertices
    # the objects' resultant (the test's loads are not balanced: the force acts on the pivot, not the CoG)
    unbalanced = np.cross((written["centroid"] - written["cog"]) * 1e-3, written["force"]) + MOMENT
    expected = np.linalg.norm(unbalanced) / 0.1 / np.linalg.norm(written["force"])
    assert written["record"]["objects_residual_relative"] == pytest.approx(expected, rel=1e-9)


def test_written_body_loads_are_the_rigid_body_field(written):
    """rho [t/mm^3] x GRAV magnitude [mm/s^2] x volume [mm^3] = m |g - a_G| [N]; rho x CENTRIF's w^2 = rho w^2."""
    density = float(_lines_after(written["text"], "DENSITY")[0].split(",")[0])
    grav = next(ln for ln in _lines_after(written["text"], "DLOAD") if ",GRAV," in ln).split(",")
    magnitude, direction = float(grav[2]), np.array([float(v) for v in grav[3:6]])
    weight = density * magnitude * written["volume"] * direction / np.linalg.norm(direction)
    assert np.allclose(weight, written["mass"] * G_EFF, rtol=1e-6)
    centrif = next(ln for ln in _lines_after(written["text"], "DLOAD") if ",CENTRIF," in ln).split(",")
    true_density = STEEL * 1e-12  # t/mm^3
    assert density * float(centrif[2]) == pytest.approx(true_density * OMEGA @ OMEGA, rel=1e-6)
    axis = np.array([float(v) for v in centrif[6:9]])
    assert np.allclose(np.cross(axis, OMEGA), 0, atol=1e-9)
