"""Joint coordinates as results (joints.csv): against closed forms and the pendulum oracle,
rates against finite differences, the stored-results reader, and --rho-inf on the CLI."""

import copy
import csv
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from oracles import pendulum as pend_oracle

from MBDWorkbench.solver import from_dict, load, simulate
from MBDWorkbench.solver.model.catalog import COORDINATES, JOINTS
from MBDWorkbench.solver.results.files import JOINTS as JOINTS_CSV
from MBDWorkbench.solver.results.files import ResultTables, read_results

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
G = 9.81


def one_body(joint_type, z_axis, drivers=(), gravity=(0, 0, -G), output_step=0.01, t_end=3.0):
    """One body (CoG at the origin) on a joint to the ground at the origin, frame z along ``z_axis``."""
    x_axis = [1, 0, 0] if abs(z_axis[0]) < 0.9 else [0, 1, 0]
    return from_dict(
        {
            "name": f"one_{joint_type}",
            "gravity": list(gravity),
            "bodies": [{"name": "b", "mass": 2.0, "inertia": [0.1, 0.2, 0.25], "position": [0, 0, 0]}],
            "joints": [
                {
                    "name": "j",
                    "type": joint_type,
                    "body_i": "ground",
                    "body_j": "b",
                    "frame": {"origin": [0, 0, 0], "z_axis": list(z_axis), "x_axis": x_axis},
                }
            ],
            "drivers": [dict(d) for d in drivers],
            "settings": {"t_end": t_end, "step": 1e-3, "output_step": output_step, "integrator": "rk4"},
        }
    )


def central_difference(t, x):
    return (x[2:] - x[:-2]) / (t[2:, None] - t[:-2, None])


@pytest.mark.parametrize("output_step", [0.01, 0.6])
def test_driven_revolute_angle_is_unwrapped(output_step):
    """theta(t) = 2 pi t over 3 s: three turns; with 0.6 s between samples the joint turns by
    more than pi from one sample to the next, and the angle still follows the profile."""
    drv = {"name": "motor", "type": "rotational", "joint": "j", "profile": "2*pi*t"}
    res = simulate(one_body("revolute", [0.3, -0.4, 0.866], [drv], output_step=output_step))
    assert res.joint_coordinate_names("j") == ("angle",)
    theta, rate = res.joint_coordinate("j")[:, 0], res.joint_coordinate_rate("j")[:, 0]
    assert res.t[-1] == pytest.approx(3.0)
    np.testing.assert_allclose(theta, 2 * np.pi * res.t, atol=1e-7)
    np.testing.assert_allclose(rate, 2 * np.pi, atol=1e-7)


def test_free_pendulum_angle_matches_oracle():
    """examples/pendulum.json: released horizontally, joint z axis = global +y, so the joint
    angle is pi/2 - theta of the oracle (theta from the downward vertical)."""
    model = load(os.path.join(ROOT, "examples", "pendulum.json"))
    res = simulate(model, t_end=3.0, output_step=0.005)
    Jc = model.bodies[0].inertia[1][1]
    ref = pend_oracle.pendulum_ode_solution(np.pi / 2, res.t, m=1.0, L=1.0, g=G, Jc=Jc)
    phi, rate = res.joint_coordinate("pivot")[:, 0], res.joint_coordinate_rate("pivot")[:, 0]
    np.testing.assert_allclose(phi, np.pi / 2 - ref.theta, atol=1e-5)
    np.testing.assert_allclose(rate, -ref.omega, atol=1e-4)
    np.testing.assert_allclose(
        central_difference(res.t, res.joint_coordinate("pivot")), -ref.omega[1:-1, None], atol=2e-3
    )


def test_prismatic_slider_falls_as_g_t2_over_2():
    """A slider on a prismatic joint whose z axis points down: x = g t^2/2, v = g t."""
    res = simulate(one_body("prismatic", [0, 0, -1], t_end=1.0))
    assert res.joint_coordinate_names("j") == ("displacement",)
    x, v = res.joint_coordinate("j")[:, 0], res.joint_coordinate_rate("j")[:, 0]
    np.testing.assert_allclose(x, 0.5 * G * res.t**2, atol=1e-9)
    np.testing.assert_allclose(v, G * res.t, atol=1e-9)


def test_cylindrical_coordinates_and_rates_equal_finite_differences():
    """A cylindrical joint with its axis inclined 30 degrees from the vertical, rotation driven
    by sin(3 t): angle = sin(3 t), displacement along the axis g cos(30 deg) t^2/2."""
    axis = [np.sin(np.pi / 6), 0.0, -np.cos(np.pi / 6)]
    drv = {"name": "spin", "type": "rotational", "joint": "j", "profile": "sin(3*t)"}
    res = simulate(one_body("cylindrical", axis, [drv], output_step=1e-3, t_end=1.5))
    assert res.joint_coordinate_names("j") == ("angle", "displacement")
    q, qd, t = res.joint_coordinate("j"), res.joint_coordinate_rate("j"), res.t
    np.testing.assert_allclose(q[:, 0], np.sin(3 * t), atol=1e-7)
    np.testing.assert_allclose(q[:, 1], 0.5 * G * np.cos(np.pi / 6) * t**2, atol=1e-8)
    np.testing.assert_allclose(central_difference(t, q), qd[1:-1], atol=2e-5)


def test_other_joint_types_have_no_coordinates_and_catalog_is_consistent():
    for joint in JOINTS.values():
        assert set(joint.coordinates) <= set(COORDINATES)
    assert JOINTS["spherical"].coordinates == () and JOINTS["fixed"].coordinates == ()
    res = simulate(one_body("spherical", [0, 0, 1], t_end=0.05))
    assert res.joint_coordinate("j").shape == (len(res), 0)


def test_coordinates_round_trip_and_old_results_still_load(tmp_path):
    drv = {"name": "spin", "type": "rotational", "joint": "j", "profile": "4*t"}
    res = simulate(one_body("cylindrical", [0, 0, -1], [drv], t_end=1.0, output_step=0.05))
    res.write(str(tmp_path / "new"))
    files = read_results(tmp_path / "new")
    tables = ResultTables(files.tables, files.summary, files.source)
    assert tables.joint_coordinate_names("j") == ("angle", "displacement")
    np.testing.assert_allclose(tables.joint_coordinate("j"), res.joint_coordinate("j"), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(tables.joint_coordinate_rate("j"), res.joint_coordinate_rate("j"), rtol=1e-9, atol=1e-12)
    header = next(csv.reader(open(tmp_path / "new" / JOINTS_CSV)))
    assert {"j.angle [rad]", "j.angle_rate [rad/s]", "j.displacement [m]", "j.displacement_rate [m/s]"} <= set(header)
    # a results folder written before the coordinates existed: the same minus those columns
    old = tmp_path / "old"
    old.mkdir()
    for name in os.listdir(tmp_path / "new"):
        rows = list(csv.reader(open(tmp_path / "new" / name))) if name.endswith(".csv") else None
        if rows is None:
            (old / name).write_text((tmp_path / "new" / name).read_text())
            continue
        keep = [c for c, h in enumerate(rows[0]) if not h.startswith(("j.angle", "j.displacement"))]
        with open(old / name, "w", newline="") as f:
            csv.writer(f).writerows([[r[c] for c in keep] for r in rows])
    files = read_results(old)
    tables = ResultTables(files.tables, files.summary, files.source)
    assert tables.joint_coordinate_names("j") == ()
    assert tables.joint_coordinate("j").shape == (len(res), 0)
    np.testing.assert_allclose(tables.reaction("j")[0], res.reaction("j")[0], rtol=1e-9, atol=1e-9)


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "MBDWorkbench", "simulate", *map(str, args)], cwd=ROOT, capture_output=True, text=True
    )


def test_cli_rho_inf_reaches_the_settings(tmp_path):
    d = json.load(open(os.path.join(ROOT, "examples", "pendulum.json")))
    d = copy.deepcopy(d)
    d["settings"].update(t_end=0.05)
    model = tmp_path / "pendulum.json"
    model.write_text(json.dumps(d))
    p = run_cli(model, "--integrator", "galpha", "--rho-inf", "0.35", "--quiet", "--out", tmp_path / "o")
    assert p.returncode == 0, p.stderr
    summary = json.load(open(tmp_path / "o" / "summary.json"))
    assert summary["settings"]["rho_inf"] == 0.35 and summary["integrator"] == "galpha"


@pytest.mark.parametrize("value", ["1.5", "1", "-0.1", "nan", "high"])
def test_cli_rejects_rho_inf_outside_0_1(tmp_path, value):
    p = run_cli(os.path.join(ROOT, "examples", "pendulum.json"), "--rho-inf", value, "--out", tmp_path / "o")
    assert p.returncode == 2
    assert "--rho-inf" in p.stderr and ("[0, 1)" in p.stderr or "not a number" in p.stderr)
    assert not (tmp_path / "o").exists()


def test_plot_dock_series_of_joint_coordinates(tmp_path):
    from MBDWorkbench.commands.plot_dock import QUANTITIES, plot_series

    drv = {"name": "spin", "type": "rotational", "joint": "j", "profile": "4*t"}
    res = simulate(one_body("cylindrical", [0, 0, -1], [drv], t_end=0.5, output_step=0.05))
    res.write(str(tmp_path / "r"))
    files = read_results(tmp_path / "r")
    tables = ResultTables(files.tables, files.summary, files.source)
    assert "Joint coordinate" in QUANTITIES and "Joint coordinate rate" in QUANTITIES
    _, ylabel, series = plot_series(tables, "j", "Joint coordinate")
    assert [label for label, _ in series] == ["angle [rad]", "displacement [m]"] and ylabel == "[rad] / [m]"
    np.testing.assert_allclose(series[0][1], 4 * tables.t, atol=1e-8)
    _, _, series = plot_series(tables, "j", "Joint coordinate rate")
    np.testing.assert_allclose(series[1][1], G * tables.t, atol=1e-8)
    with pytest.raises(ValueError, match="no joint coordinates"):
        plot_series(tables, "spin", "Joint coordinate")
