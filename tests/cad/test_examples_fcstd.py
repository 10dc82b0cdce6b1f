"""The FreeCAD example documents (examples/make_*_fcstd.py), built headless from real solids
with joints picked on hole edges, simulated and compared with the closed-form oracles:
slider-crank slider position and motor torque (inertial parameters taken from the solids),
four-bar coupler-rocker pin path; the parallel ankle against the ankle model written from
box/cylinder formulas (MBDWorkbench.solver.analysis_ankle)."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "examples"))


def test_slider_crank_document_matches_oracle(App, doc):
    import make_slider_crank_fcstd
    from oracles.slider_crank import SliderCrank

    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.solver import simulate

    make_slider_crank_fcstd.build(doc)
    model = model_from_document(doc)
    crank, rod, slider = (model.body(n) for n in ("Crank_body", "Rod_body", "Slider_body"))
    # the solids are symmetric: crank CoG on its centre line, rod CoG mid-way, slider CoG on the pin
    assert abs(crank.position[1]) < 1e-12 and rod.position[0] == pytest.approx(0.1)
    assert slider.position[:2] == pytest.approx([0.16, 0.0], abs=1e-12)
    res = simulate(model, t_end=1.0)
    sc = SliderCrank(
        r=0.04,
        l=0.12,
        mc=crank.mass,
        rc=crank.position[0],
        Jc=crank.inertia[2][2],
        mr=rod.mass,
        Jr=rod.inertia[2][2],
        ms=slider.mass,
    )
    theta = math.pi * res.t  # 180 deg/s
    np.testing.assert_allclose(res.position("Slider_body")[:, 0], sc.slider_position(theta), atol=1e-8)
    tau = sc.torque_constant_speed(res.t, omega=math.pi)
    np.testing.assert_allclose(res.driver_effort("Motor"), tau, atol=1e-6 * np.max(np.abs(tau)))


def test_four_bar_document_matches_oracle(App, doc):
    import make_four_bar_fcstd
    from oracles.four_bar import FourBar

    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.solver import simulate

    parts = make_four_bar_fcstd.build(doc)
    res = simulate(model_from_document(doc), t_end=1.0)
    R0, c0 = res.rotation("Rocker_body")[0], res.position("Rocker_body")[0]
    pin = np.array([parts["B"][0], parts["B"][1], 0.0]) * 1e-3
    path = res.point("Rocker_body", R0.T @ (pin - c0))[:, :2]
    ref = FourBar(0.1, 0.03, 0.11, 0.08).points(math.radians(make_four_bar_fcstd.THETA2) + math.pi * res.t)["B"]
    np.testing.assert_allclose(path, ref, atol=1e-8)


def test_ankle_document_matches_formula_model(App, doc):
    import make_ankle_fcstd

    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.showcase.ankle_model import ankle_model
    from MBDWorkbench.solver import simulate

    make_ankle_fcstd.build(doc)
    model, ref = model_from_document(doc), ankle_model()
    for name in ("foot", "bar1", "rod1", "bar2", "rod2"):
        ours = model.body(name.capitalize() + "_body")
        theirs = ref.body(name)
        assert ours.mass == pytest.approx(theirs.mass, rel=1e-12)
        np.testing.assert_allclose(ours.inertia, theirs.inertia, atol=1e-12 * np.max(np.abs(theirs.inertia)))
    res, expected = simulate(model, t_end=1.0), simulate(ref, t_end=1.0)
    np.testing.assert_allclose(res.position("Foot_body"), expected.position("foot"), atol=1e-9)
    np.testing.assert_allclose(res.rotation("Foot_body"), expected.rotation("foot"), atol=1e-9)
    assert np.max(np.abs(res.rotation("Foot_body")[:, 0, 2])) > 0.1  # the foot pitched


@pytest.mark.parametrize(
    "script", ["make_pendulum_fcstd.py", "make_slider_crank_fcstd.py", "make_four_bar_fcstd.py", "make_ankle_fcstd.py"]
)
def test_example_scripts_write_documents(App, script, tmp_path):
    out = str(tmp_path / "example.FCStd")
    subprocess.run(
        [sys.executable, os.path.join(REPO, "examples", script), out], check=True, stdout=subprocess.PIPE, cwd=REPO
    )
    from MBDWorkbench.cad.document_model import model_from_document_file

    model = model_from_document_file(out)
    assert len(model.bodies) >= 1 and len(model.joints) >= 1
