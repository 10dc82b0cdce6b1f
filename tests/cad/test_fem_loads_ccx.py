"""fem-loads with real Gmsh and CalculiX runs: the slider-crank's rod at its peak axial load
(von Mises in the middle = F/A, F from the slider's closed-form motion), load sums, support
reactions, and bad requests that create nothing. Skipped, saying so, without FreeCAD's FEM
module, Gmsh or CalculiX."""

import math
import os
import sys

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "examples"))

R, L = 0.040, 0.120  # crank radius, rod length [m] (examples/make_slider_crank_fcstd.py)
RATE = 3600.0  # crank speed [deg/s]
SLIDER_MASS = 5.0  # [kg]: the rod is then (nearly) a two-force member
ROD_SECTION = 16.0 * 8.0  # [mm^2]


@pytest.fixture(scope="module")
def crank_doc(fem, tmp_path_factory):
    """The slider-crank at 3600 deg/s, no gravity, a 5 kg slider and a 1 g rod, one turn; the rod's
    two pins are moved to its mid-plane z = 12 mm (the example has them on its faces z = 8 and 16 mm,
    so that the revolute also carries a bending moment): the rod is then a two-force member."""
    import make_slider_crank_fcstd

    from MBDWorkbench.cad.joint_references import set_joint_frame

    App = fem
    doc = App.newDocument("fem_slider_crank")
    objs = make_slider_crank_fcstd.build(doc)
    sim = objs["simulation"]
    sim.EndTimeMilliseconds, sim.OutputStepMicroseconds, sim.StepMicroseconds = 100, 1000, 10
    sim.GravityX = sim.GravityY = sim.GravityZ = 0.0
    objs["motor"].Rate = RATE
    bodies = {b.Part.Name: b for b in doc.Objects if hasattr(b, "Grounded")}
    bodies["Slider"].Mass = SLIDER_MASS
    bodies["Rod"].Mass = 0.001
    for joint in (objs["pin"], objs["ball"]):
        frame = joint.Frame
        frame.Base.z = 12.0
        set_joint_frame(joint, frame)  # kept through the recompute (the joints are parametric)
    doc.recompute()
    path = str(tmp_path_factory.mktemp("fem") / "slider_crank_fast.FCStd")
    doc.saveAs(path)
    App.closeDocument(doc.Name)
    return path


def slider_axial_force(t: float) -> float:
    """|rod force| [N] of a massless rod pushing a slider of SLIDER_MASS: m x''(t) / cos(phi) with
    x = R cos(th) + sqrt(L^2 - R^2 sin^2(th)), th = w t (x'' by central differences of the closed form)."""
    w = math.radians(RATE)

    def x(s):
        th = w * s
        return R * math.cos(th) + math.sqrt(L * L - (R * math.sin(th)) ** 2)

    h = 1e-5
    acc = (x(t + h) - 2 * x(t) + x(t - h)) / h**2
    cos_phi = math.sqrt(L * L - (R * math.sin(w * t)) ** 2) / L
    return abs(SLIDER_MASS * acc / cos_phi)


@pytest.fixture(scope="module")
def rod_run(crank_doc, tmp_path_factory):
    from MBDWorkbench.cad.fem_loads import FemRequest, fem_loads

    out = str(tmp_path_factory.mktemp("fem_out") / "rod.FCStd")
    return out, fem_loads(FemRequest(crank_doc, "Rod", out=out, mesh_size=3.0, worst=2))


def test_rod_middle_stress_is_axial_force_over_area(rod_run, fem):
    out, summary = rod_run
    case = summary["cases"][0]
    F = slider_axial_force(case["time_s"])
    peak = max(slider_axial_force(t) for t in np.linspace(0, 0.1, 201))
    assert F > 0.99 * peak  # the default instant is the peak axial load
    App = fem
    doc = App.openDocument(out)
    try:
        analysis = doc.getObject(case["analysis"])
        result = next(o for o in analysis.Group if o.isDerivedFrom("Fem::FemResultObjectPython"))
        mesh = next(o for o in analysis.Group if o.isDerivedFrom("Fem::FemMeshObject"))
        nodes = mesh.FemMesh.Nodes
        x_mid = (R + L / 2) * 1e3
        middle = [k for k, n in enumerate(result.NodeNumbers) if abs(nodes[n].x - x_mid) < 3.0]
        assert len(middle) > 10
        vm = np.array(result.vonMises)[middle]
        assert abs(vm.mean() - F / ROD_SECTION) < 0.03 * F / ROD_SECTION, (vm.mean(), F / ROD_SECTION)
        assert len(result.DisplacementLengths) == len(result.NodeNumbers)
    finally:
        App.closeDocument(doc.Name)


def test_applied_loads_sum_to_zero_and_support_carries_nothing(rod_run):
    _, summary = rod_run
    assert len(summary["cases"]) == 2 and len({c["analysis"] for c in summary["cases"]}) == 2  # --worst 2
    for case in summary["cases"]:
        largest = case["largest_load_N"]
        assert case["relative_residual"] < 1e-6
        assert np.linalg.norm(case["nodal_load_sum_N"]) < 1e-6 * largest
        assert np.abs(case["support_reactions_N"]).max() < 0.01 * largest
        assert case["support_reaction_relative"] < 0.01


def test_outputs_written_and_document_untouched(rod_run, crank_doc):
    from MBDWorkbench.cad.fem_loads import output_paths

    out, _ = rod_run
    for p in output_paths(out).values():
        assert os.path.exists(p)
    from MBDWorkbench.cad.errors import CadError
    from MBDWorkbench.cad.fem_loads import FemRequest, check_outputs

    with pytest.raises(CadError, match="overwrite"):
        check_outputs(FemRequest(crank_doc, "Rod", out=out))


def _bad_document(App, tmp_path, change):
    import make_slider_crank_fcstd

    doc = App.newDocument("fem_bad")
    objs = make_slider_crank_fcstd.build(doc)
    change(App, doc, objs)
    doc.recompute()
    path = str(tmp_path / "bad.FCStd")
    doc.saveAs(path)
    App.closeDocument(doc.Name)
    return path


def _no_material(App, doc, objs):
    next(b for b in doc.Objects if getattr(b, "Part", None) == objs["rod"]).Material = "Brass"


def _no_references(App, doc, objs):
    objs["pin"].setEditorMode("Reference2", 0)
    objs["pin"].Reference1 = objs["pin"].Reference2 = ""


def _no_solid(App, doc, objs):
    import Part

    objs["rod"].Shape = Part.makeBox(160, 16, 8).Faces[0]


@pytest.mark.parametrize(
    "change, message",
    [(_no_material, "body 'Rod_body'.*Young's modulus"), (_no_references, "joint 'CrankPin'.*no face reference"),
     (_no_solid, "body 'Rod_body'.*no solid")],
)  # fmt: skip
def test_bad_request_is_named_and_creates_nothing(fem, tmp_path, change, message):
    from MBDWorkbench.cad.errors import CadError
    from MBDWorkbench.cad.fem_loads import FemRequest, fem_loads

    path = _bad_document(fem, tmp_path, change)
    out = str(tmp_path / "out" / "copy.FCStd")
    os.makedirs(os.path.dirname(out))
    with pytest.raises(CadError, match=message):
        fem_loads(FemRequest(path, "Rod", out=out))
    assert os.listdir(os.path.dirname(out)) == []


def test_command_line_writes_copy_and_refuses_to_overwrite(fem, crank_doc, tmp_path):
    """`python3 -m MBDWorkbench fem-loads` at a given --time; a second run without --overwrite
    exits with 2 and changes nothing."""
    import json
    import subprocess

    out = str(tmp_path / "copy.FCStd")
    cmd = [sys.executable, "-m", "MBDWorkbench", "fem-loads", crank_doc, "--body", "Rod", "--time", "0.025"]
    cmd += ["--out", out, "--mesh-size", "4"]
    before = os.path.getmtime(crank_doc)
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    summary = json.load(open(str(tmp_path / "copy_fem.json")))
    assert abs(summary["cases"][0]["time_s"] - 0.025) < 1e-9
    assert "max von Mises" in run.stdout
    stamp = os.path.getmtime(out)
    again = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and "--overwrite" in again.stderr
    assert os.path.getmtime(out) == stamp and os.path.getmtime(crank_doc) == before
