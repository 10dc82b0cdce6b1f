"""fem-loads --critical with real Gmsh and CalculiX: every critical instant of the shipped
pendulum as a load case (the peak pivot reaction and inertial force at the bottom, the peak
inertial moment at the release), one shared mesh, the envelope, safety factors against the
given yield strength, the stress pictures and the report page showing them. Skipped, saying so,
without FreeCAD's FEM module, Gmsh or CalculiX."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PENDULUM = os.path.join(REPO, "examples", "pendulum.FCStd")


@pytest.fixture(scope="module")
def critical_run(fem, tmp_path_factory):
    folder = tmp_path_factory.mktemp("critical")
    out = str(folder / "pendulum.FCStd")
    cmd = [sys.executable, "-m", "MBDWorkbench", "fem-loads", PENDULUM, "--body", "Bar", "--critical", "--out", out]
    cmd += ["--mesh-size", "5", "--yield-strength", "250", "--report", str(folder / "report")]
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr

    def refuse(name):
        raise ValueError("non-finite number %s in the JSON" % name)

    summary = json.loads(open(str(folder / "pendulum_fem.json"), encoding="utf-8").read(), parse_constant=refuse)
    return folder, summary, run


def test_every_critical_instant_is_a_load_case(critical_run):
    """The bar released from the horizontal: its pivot reaction and inertial force peak at the
    bottom (the largest load of all cases); its angular acceleration m g d cos(phi) / I_pivot where
    the line from the pivot to the CoG is level (within a 0.01 s output step of it)."""
    _, summary, run = critical_run
    cases = summary["cases"]
    reasons = [c["load_case"] for c in cases]
    bottom = next(c for c in cases if "peak reaction of joint 'Pivot'" in c["load_case"])
    assert "peak inertial force" in bottom["load_case"]
    assert any("peak inertial moment" in r for r in reasons) and len(cases) == 2
    moment_case = next(c for c in cases if "peak inertial moment" in c["load_case"])
    alpha = [np.linalg.norm(c["alpha_rad_s2"]) for c in cases]
    assert np.linalg.norm(moment_case["alpha_rad_s2"]) == max(alpha)
    cog, w = np.array(moment_case["cog_m"]), np.linalg.norm(moment_case["omega_rad_s"])
    assert abs(np.arcsin(cog[2] / np.linalg.norm(cog))) < w * 0.01  # gravity's arm largest: CoG level with the pivot
    assert bottom["largest_load_N"] == max(c["largest_load_N"] for c in cases)
    assert len({(c["mesh_nodes"], c["mesh_volumes"]) for c in cases}) == 1  # one shared mesh
    assert run.stdout.count("safety factor") == 2


def test_envelope_and_safety_factors(critical_run):
    """Envelope = the largest case maximum; safety factor = 250 MPa / von Mises in every row."""
    _, summary, _ = critical_run
    cases, env = summary["cases"], summary["envelope"]
    assert env["max_von_mises_MPa"] == pytest.approx(max(c["max_von_mises_MPa"] for c in cases))
    assert env["max_von_mises_away_MPa"] == pytest.approx(max(c["max_von_mises_away_MPa"] for c in cases))
    for record in cases + [env]:
        assert record["safety_factor"] == pytest.approx(250.0 / record["max_von_mises_MPa"])
        assert record["safety_factor_away"] == pytest.approx(250.0 / record["max_von_mises_away_MPa"])
        assert record["max_von_mises_away_MPa"] < record["max_von_mises_MPa"]  # the peak sits at the pivot edge
    assert summary["yield_strength_MPa"] == 250.0 and summary["yield_strength_source"] == "given"


def test_pictures_and_report_page(critical_run):
    from matplotlib.image import imread

    folder, summary, _ = critical_run
    pictures = [c["stress_picture"] for c in summary["cases"]] + [summary["envelope"]["stress_picture"]]
    for path in pictures:
        image = imread(path)
        assert len(np.unique(image.reshape(-1, image.shape[-1]), axis=0)) > 50  # a coloured field
    html = (folder / "report" / "report.html").read_text(encoding="utf-8")
    assert "Structural check" in html and "envelope" in html and "peak inertial moment" in html
    assert html.count("<img") >= 3 + 1  # three stress pictures, at least one plot of the run
