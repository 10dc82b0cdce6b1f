"""The FreeCAD 1.x Assembly examples (examples/assembly_*.FCStd, made by
examples/make_assembly_*_fcstd.py) run headless from the command line, and move as their
closed forms say. Skipped where the Assembly workbench is missing (FreeCAD 0.20): the documents
hold Assembly joints, which the one-click path imports (updates) on reading."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
sys.path.insert(0, EXAMPLES)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def assembly_workbench(App):
    try:
        import JointObject  # noqa: F401
    except ImportError as exc:
        pytest.skip("FreeCAD %s has no Assembly workbench (needs 1.0+): %s" % (".".join(App.Version()[:2]), exc))


def run_cli(name, tmp_path):
    """Exit code and output of ``python3 -m MBDWorkbench simulate examples/<name>``."""
    cmd = [sys.executable, "-m", "MBDWorkbench", "simulate", os.path.join(EXAMPLES, name), "--quiet"]
    out = subprocess.run(cmd + ["--out", str(tmp_path / "results")], cwd=ROOT, capture_output=True, text=True)
    return out.returncode, out.stdout + out.stderr


def simulated(name):
    from MBDWorkbench.cad.document_model import model_from_document_file
    from MBDWorkbench.solver import simulate

    model = model_from_document_file(os.path.join(EXAMPLES, name))
    return model, simulate(model)


def test_slider_crank_cli_and_slider_stroke(App, assembly_workbench, tmp_path):
    """Motor at 180 deg/s from dead centre: the slider's pin is at r cos(t) + sqrt(l^2 - r^2 sin^2)
    from the crank pivot (in line); the planar loop's 4 redundant equations are the warning."""
    from make_assembly_slider_crank_fcstd import L, R

    code, text = run_cli("assembly_slider_crank.FCStd", tmp_path)
    assert code == 3 and "redundant" in text and "completed_with_warnings" in text, text
    model, res = simulated("assembly_slider_crank.FCStd")
    assert sorted(j.type for j in model.joints) == ["prismatic", "revolute", "revolute", "revolute"]
    theta = math.pi * res.t
    pin = R * np.cos(theta) + np.sqrt(L**2 - (R * np.sin(theta)) ** 2)
    x = res.position("Slider_body")[:, 0] * 1e3
    np.testing.assert_allclose(x - x[0], pin - pin[0], atol=1e-6)


def test_universal_shaft_cli_and_cardan_law(App, assembly_workbench, tmp_path):
    """Input at 360 deg/s; the output turns as a Cardan joint at BETA: with theta_in from the
    input yoke in the shafts' plane and theta_out from the output yoke normal to it,
    tan(theta_out) cos(BETA) = tan(theta_in) and |w_out| = w_in cos(BETA) / (1 - sin^2(BETA) cos^2(theta_in))."""
    from make_assembly_universal_shaft_fcstd import BETA

    code, text = run_cli("assembly_universal_shaft.FCStd", tmp_path)
    assert code == 0 and "status: completed" in text, text
    model, res = simulated("assembly_universal_shaft.FCStd")
    assert sorted(j.type for j in model.joints) == ["distance", "parallel", "revolute", "spherical"]
    b = math.radians(BETA)
    u = np.array([math.cos(b), math.sin(b), 0.0])
    y, z = np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])
    yoke_in = res.rotation("InputShaft_body") @ y  # the bars' own y and z axes carry the yokes
    yoke_out = res.rotation("OutputShaft_body") @ z
    theta_in = np.arctan2(yoke_in @ z, yoke_in @ y)
    theta_out = np.arctan2(yoke_out @ np.cross(u, z), yoke_out @ z)
    np.testing.assert_allclose(
        np.sin(theta_out) * np.cos(theta_in) * math.cos(b), np.sin(theta_in) * np.cos(theta_out), atol=1e-9
    )
    w_in = np.linalg.norm(res.angular_velocity("InputShaft_body"), axis=1)
    w_out = np.linalg.norm(res.angular_velocity("OutputShaft_body"), axis=1)
    np.testing.assert_allclose(w_in, 2 * math.pi, rtol=1e-9)
    np.testing.assert_allclose(w_out, w_in * math.cos(b) / (1 - math.sin(b) ** 2 * np.cos(theta_in) ** 2), rtol=1e-6)
    assert np.ptp(w_out) > 0.2 * 2 * math.pi  # the output really pulsates
