"""Tolerant assembly (solver/tolerant.py): a planar slider-crank of revolutes and a prismatic
whose rail is 1 deg off the plane of motion. Its strict equations lock it (or do not close);
the run solves the independent equations, warns with the misalignment, and conserves energy."""

import math

import numpy as np
import pytest

from MBDWorkbench.solver import from_dict, simulate
from MBDWorkbench.solver.errors import AssemblyError
from MBDWorkbench.solver.model.builders import revolute_z, rod
from MBDWorkbench.solver.results.status import COMPLETED_WITH_WARNINGS

R, L_ROD, G = 0.1, 0.3, 9.81
THETA0 = math.radians(60)


def slider_crank(tilt_deg=1.0, rail_z=0.0, integrator="rk4", t_end=0.5):
    """Crank pivot at the origin, all revolutes about z, the rail through the slider tilted by
    ``tilt_deg`` out of the x-y plane, its ground side raised by ``rail_z`` [m] from the slider's
    (a CAD pose off the rail); no driver, gravity -y."""
    B = (R * math.cos(THETA0), R * math.sin(THETA0))
    phi = math.asin(-B[1] / L_ROD)
    C = (B[0] + L_ROD * math.cos(phi), 0.0)
    a = math.radians(tilt_deg)
    axes = {"z_axis": [math.cos(a), 0, math.sin(a)], "x_axis": [-math.sin(a), 0, math.cos(a)]}
    rail = {"frame_i": {"origin": [C[0], 0, rail_z], **axes}, "frame_j": {"origin": [0, 0, 0], **axes}}
    return {
        "name": "tilted_slider_crank",
        "gravity": [0, -G, 0],
        "bodies": [
            rod("crank", 1.0, R, (0, 0), THETA0),
            rod("rod", 1.0, L_ROD, B, phi),
            {"name": "slider", "mass": 0.5, "inertia": [1e-4, 1e-4, 1e-4], "position": [C[0], 0, 0]},
        ],
        "joints": [
            revolute_z("pivot", "ground", "crank", (0, 0)),
            revolute_z("pin", "crank", "rod", B),
            revolute_z("wrist", "rod", "slider", C),
            {"name": "Slider", "type": "prismatic", "body_i": "ground", "body_j": "slider", **rail},
        ],
        "settings": {"t_end": t_end, "step": 1e-3, "output_step": 0.01, "integrator": integrator},
    }


def mechanical_energy(res, model):
    """T + V [J] at every sample, from the sampled poses and velocities (rigid-body formulas)."""
    total = 0.0
    for b in model.bodies:
        v, w, A = res.velocity(b.name), res.angular_velocity(b.name), res.rotation(b.name)
        inertia = np.asarray(b.inertia, float)
        inertia = np.diag(inertia) if inertia.shape == (3,) else inertia.reshape(3, 3)
        I_world = A @ inertia @ np.transpose(A, (0, 2, 1))
        total = total + 0.5 * b.mass * np.sum(v * v, axis=1) + 0.5 * np.einsum("ki,kij,kj->k", w, I_world, w)
        total = total + b.mass * G * res.position(b.name)[:, 1]
    return total


def cad_warning(res):
    found = [w for w in res.warnings if w.kind == "cad_tolerance"]
    assert len(found) == 1, [w.message for w in res.warnings]
    return found[0]


def degrees_in(message):
    return float(message.split("misaligned by ")[1].split(" deg")[0])


@pytest.mark.parametrize("integrator", ["rk4", "bdf"])
def test_a_rail_one_degree_off_runs_with_a_warning_naming_it(integrator):
    model = from_dict(slider_crank(integrator=integrator))
    res = simulate(model)
    assert res.status == COMPLETED_WITH_WARNINGS
    w = cad_warning(res)
    assert w.elements == ("Slider",) and "'Slider'" in w.message and "--relax" in w.message
    assert degrees_in(w.message) == pytest.approx(1.0, rel=0.02)
    x = res.position("slider")[:, 0]
    assert np.ptp(x) > 0.05  # it moves (the strict equations would lock it)
    E = mechanical_energy(res, model)
    assert np.max(np.abs(E - E[0])) < 1e-5 * (G * 2.0 * R)  # energy balance: no dropped row does work
    assert np.max(np.abs(res.position("slider")[:, 2])) < 1e-6  # the planar chain holds the slider
    assert not any(w.kind == "energy_drift" for w in res.warnings)


def test_the_opening_grows_as_the_slider_leaves_the_tilted_rail():
    res = simulate(from_dict(slider_crank(t_end=0.3)))
    p = res.position("slider")
    a = math.radians(1.0)
    normal = np.array([-math.sin(a), 0.0, math.cos(a)])  # the rail's normal in the x-z plane
    off_rail = (p - p[0]) @ normal
    assert np.allclose(np.abs(off_rail), np.abs(p[:, 0] - p[0, 0]) * math.sin(a), atol=1e-7)


@pytest.mark.parametrize("integrator", ["galpha", "cros"])
def test_index3_integrators_solve_the_reduced_set(integrator):
    model = from_dict(slider_crank(integrator=integrator, t_end=0.1))
    res = simulate(model)
    assert degrees_in(cad_warning(res).message) == pytest.approx(1.0, rel=0.02)
    E = mechanical_energy(res, model)
    assert np.max(np.abs(E - E[0])) < 1e-3 * (G * 2.0 * R)
    assert np.ptp(res.position("slider")[:, 0]) > 1e-3


def test_a_pose_off_the_tilted_rail_is_assembled_and_its_opening_reported():
    res = simulate(from_dict(slider_crank(tilt_deg=0.0, rail_z=3e-4, t_end=0.05)))  # rail 0.3 mm above the slider
    w = cad_warning(res)
    opened_mm = float(w.message.split("open by ")[1].split(" mm")[0])
    assert opened_mm == pytest.approx(0.3, rel=0.05)


def test_a_model_whose_independent_equations_do_not_close_still_fails():
    d = slider_crank()
    wrist = d["joints"][2]
    origin = wrist.pop("frame")["origin"]
    wrist["frame_i"] = {"origin": [L_ROD / 2, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}  # the rod's end
    wrist["frame_j"] = {"origin": [0, 0.6, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}  # 0.6 m off the slider
    assert origin
    with pytest.raises(AssemblyError, match="wrist|Slider|pin|pivot"):
        simulate(from_dict(d))


def test_an_exactly_planar_model_keeps_the_strict_start():
    res = simulate(from_dict(slider_crank(tilt_deg=0.0, t_end=0.05)))
    assert not any(w.kind == "cad_tolerance" for w in res.warnings)
    assert any(w.kind == "redundant" for w in res.warnings)


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 2, 1, 0), (3, 0, 1, 2), (1, 3, 0, 2)])
def test_the_blamed_joint_does_not_depend_on_the_joints_order(order):
    """The rail is the odd one out (the three pins' axes agree on the plane of motion, the rail's
    slide direction leaves it by 1 deg), whichever joint the model lists first."""
    d = slider_crank(t_end=0.05)
    d["joints"] = [d["joints"][k] for k in order]
    w = cad_warning(simulate(from_dict(d)))
    assert w.elements == ("Slider",), w.message
    assert degrees_in(w.message) == pytest.approx(1.0, rel=0.02)


def test_a_tilted_pivot_is_blamed_when_the_rail_agrees_with_the_other_pins():
    """The crank's bearing on the ground tilted by 1 deg about x (the crank still drawn square):
    the pin, wrist and rail agree and the pivot is the odd one out."""
    d = slider_crank(tilt_deg=0.0, t_end=0.05)
    a = math.radians(1.0)
    pivot = d["joints"][0]
    pivot["frame"]["z_axis"] = [0.0, -math.sin(a), math.cos(a)]
    pivot["frame"]["x_axis"] = [1.0, 0.0, 0.0]
    w = cad_warning(simulate(from_dict(d)))
    assert w.elements == ("pivot",), w.message


def test_the_report_lists_the_equations_left_out(tmp_path):
    """summary.json's dropped_equations and the report's mobility section: the rail's equations,
    its 1 deg, and their opening at the start (0: the CAD pose lies on the rail)."""
    import html
    import json

    from MBDWorkbench.cli import main

    path = tmp_path / "tilted.json"
    path.write_text(json.dumps(slider_crank(t_end=0.05)))
    out, report = tmp_path / "run", tmp_path / "report"
    assert main(["simulate", str(path), "--quiet", "--out", str(out), "--report", str(report)]) == 3
    dropped = json.loads((out / "summary.json").read_text())["dropped_equations"]
    assert dropped and {d["joint"] for d in dropped} == {"Slider"}
    assert all("joint 'Slider'" in d["equation"] for d in dropped)
    assert max(d["misalignment_deg"] for d in dropped) == pytest.approx(1.0, rel=0.02)
    assert all(d["open"] < 1e-9 and d["unit"] in ("m", "rad") for d in dropped)
    page = "".join(p.read_text(encoding="utf-8") for p in report.glob("*.html"))
    assert "equation left out" in page and all(html.escape(d["equation"]) in page for d in dropped)
