"""The parallel ankle as a solver model (examples/ankle.json) against the closed form of
MBDWorkbench.showcase.ankle (itself checked from first principles in test_ankle.py)."""

import json
import os
import sys

import numpy as np
import pytest
from scipy.integrate import simpson

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from MBDWorkbench.cli import main  # noqa: E402
from MBDWorkbench.showcase import ankle  # noqa: E402
from MBDWorkbench.showcase.ankle_model import (  # noqa: E402
    euler_rates,
    foot_angles,
    geometry_from_model,
    solver_forward_kinematics,
    with_constant_motors,
)
from MBDWorkbench.solver import from_dict, load  # noqa: E402
from MBDWorkbench.solver.analyses.kinematics import inverse_dynamics, kinematic_analysis, static_equilibrium  # noqa: E402
from MBDWorkbench.solver.analyses.mobility import mobility  # noqa: E402
from MBDWorkbench.solver.model.profiles import compile_profile  # noqa: E402
from MBDWorkbench.solver.results.files import read_csv  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
EXAMPLE = os.path.join(ROOT, "examples", "ankle.json")


@pytest.fixture(scope="module")
def model():
    return load(EXAMPLE)


@pytest.fixture(scope="module")
def geom(model):
    return geometry_from_model(model)


def with_profiles(model, p1, p2, gravity=None, forces=None):
    d = model.to_dict()
    d["drivers"][0]["profile"], d["drivers"][1]["profile"] = p1, p2
    if gravity is not None:
        d["gravity"] = gravity
    if forces is not None:
        d["forces"] = forces
    return from_dict(d)


# ----------------------------------------------------------------------------- the model
def test_example_is_the_generator_output(model, tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_ankle", os.path.join(os.path.dirname(EXAMPLE), "make_ankle.py"))
    make_ankle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_ankle)
    make_ankle.main(["--out", str(tmp_path / "ankle.json")])
    shipped, generated = json.load(open(EXAMPLE)), json.load(open(tmp_path / "ankle.json"))
    # the motor profiles are fitted polynomials: equal up to the last bits of the fit
    profiles = [(d.pop("profile"), g.pop("profile")) for d, g in zip(shipped["drivers"], generated["drivers"])]
    assert shipped == generated
    t = np.linspace(0.0, 2.0, 41)
    for a, b in profiles:
        fa, fb = compile_profile(a), compile_profile(b)
        assert np.allclose([fa(x)[0] for x in t], [fb(x)[0] for x in t], rtol=0, atol=1e-12)
    g = geometry_from_model(model)
    ref = ankle.AnkleGeometry()
    for k in ("A1", "A2", "B1_0", "B2_0", "C1_0", "C2_0", "L_rod"):
        assert np.allclose(getattr(g, k), getattr(ref, k), atol=1e-15)


def test_masses_from_shapes(model):
    bar = model.body("bar1")
    assert np.isclose(bar.mass, 2700.0 * 0.05 * 0.012 * 0.008)
    rod = model.body("rod2")
    assert np.isclose(rod.mass, 7850.0 * np.pi * 0.003**2 * 0.26)
    I = np.array(rod.inertia)  # vertical rod: axis z
    assert np.isclose(I[2, 2], 0.5 * rod.mass * 0.003**2)
    assert np.isclose(I[0, 0], rod.mass * (3 * 0.003**2 + 0.26**2) / 12)
    foot = model.body("foot")
    assert np.isclose(foot.mass, 2700.0 * 0.22 * 0.09 * 0.02)
    assert np.isclose(np.array(foot.inertia)[1, 1], foot.mass * (0.22**2 + 0.02**2) / 12)


def test_mobility_two_by_jacobian_rank(model):
    rep = mobility(model)
    assert rep.grubler == 6 * 5 - (4 + 2 * 5 + 2 * 3 + 2 * 4) == 2 == ankle.ankle_mobility()
    assert rep.mobility == 2 and rep.redundant == []
    assert rep.mobility_driven == 0 and rep.over_driving == []


def test_two_ball_joints_would_leave_a_rod_spin(model):
    d = model.to_dict()
    for j in d["joints"]:
        if j["name"] == "cardan1":
            j["type"] = "spherical"
    assert mobility(from_dict(d)).mobility == 3


# ----------------------------------------------------------------------------- kinematics
def test_ik_trajectory_is_followed(model, geom):
    t = np.linspace(0.0, 1.0, 21)
    roll, pitch = 0.2 * np.sin(2 * np.pi * t), 0.25 * np.sin(np.pi * t) - 0.05 * t
    th = np.array([ankle.inverse_kinematics(geom, r, p) for r, p in zip(roll, pitch)])
    m = with_profiles(
        model,
        {"type": "table", "t": t.tolist(), "value": th[:, 0].tolist()},
        {"type": "table", "t": t.tolist(), "value": th[:, 1].tolist()},
    )
    tol = 1e-12  # solver position tolerance [m, rad]; angles follow within tol / 5 cm lever
    res = kinematic_analysis(m, t_end=1.0, output_step=0.05, tol=tol)
    r_s, p_s = foot_angles(res.rotation("foot"))
    assert np.allclose(res.t, t)
    assert np.max(np.abs(r_s - roll)) < 20 * tol / 0.05 and np.max(np.abs(p_s - pitch)) < 20 * tol / 0.05
    R = res.rotation("foot")
    assert np.max(np.abs(R[:, 1, 0])) < 1e-10  # the universal joint forbids yaw


@pytest.mark.parametrize("theta", [(0.0, 0.0), (0.2, -0.15), (-0.25, -0.3)])
def test_solver_jacobian_matches_closed_form(model, geom, theta):
    th1, th2 = theta
    h = 1e-5
    J_fd = np.zeros((2, 2))
    J_vel = np.zeros((2, 2))
    for k in range(2):
        prof = [f"{th1!r}", f"{th2!r}"]
        prof[k] = f"{theta[k]!r} + {h!r}*(t - 1)"  # theta_k - h, theta_k, theta_k + h at t = 0, 1, 2
        res = kinematic_analysis(with_profiles(model, *prof), t_end=2.0, output_step=1.0)
        r, p = foot_angles(res.rotation("foot"))
        J_fd[:, k] = [(r[2] - r[0]) / (2 * h), (p[2] - p[0]) / (2 * h)]
        J_vel[:, k] = euler_rates(res.angular_velocity("foot")[1], p[1]) / h
    r0, p0 = solver_forward_kinematics(model, th1, th2)
    J = ankle.jacobian(geom, (th1, th2), r0, p0)
    assert np.allclose(J_fd, J, atol=1e-6)
    assert np.allclose(J_vel, J, atol=1e-9)


@pytest.mark.parametrize("theta", [(0.15, -0.1), (0.3, 0.25), (-0.2, -0.3), (0.05, 0.33)])
def test_newton_raphson_fk_agrees_with_assembly(model, geom, theta):
    r, p = solver_forward_kinematics(model, *theta)
    r_nr, p_nr = ankle.forward_kinematics(geom, *theta)
    assert abs(r - r_nr) < 1e-10 and abs(p - p_nr) < 1e-10


# ----------------------------------------------------------------------------- dynamics
@pytest.mark.parametrize("pose", [(0.0, 0.0), (0.15, -0.2)])
def test_foot_torque_gives_motor_torques_jt_tau(model, geom, pose):
    roll, pitch = pose
    th = ankle.inverse_kinematics(geom, roll, pitch)
    moment = [2.0, -3.0, 1.5]  # external moment on the foot [N m]
    load_ = [{"name": "ground_torque", "type": "torque", "body": "foot", "torque": moment}]
    m = with_profiles(model, float(th[0]), float(th[1]), gravity=[0, 0, 0], forces=load_)
    tau_ext = ankle.euler_torque_from_moment(roll, pitch, moment)
    tau = -tau_ext  # what the motors apply to the foot
    F = ankle.force_jacobian(geom, th, roll, pitch) @ tau
    res = inverse_dynamics(m, t_end=0.1, output_step=0.1)
    eff = np.array([res.driver_effort("drive1"), res.driver_effort("drive2")]).T
    assert np.allclose(eff, F, atol=1e-9)
    st = static_equilibrium(m)
    assert np.allclose([st.driver_effort("drive1")[0], st.driver_effort("drive2")[0]], F, atol=1e-9)


def test_statics_ground_reactions_carry_the_weight(model):
    st = static_equilibrium(with_constant_motors(model, 0.1, -0.2))
    W = sum(b.mass for b in model.bodies if not b.grounded) * 9.81
    total = sum(st.reaction(j, "global")[0][0] for j in ("ankle", "motor1", "motor2"))
    assert np.allclose(total, [0.0, 0.0, W], atol=1e-9)


def test_inverse_dynamics_power_balance(model):
    """Driver work (Simpson on the efforts x rates) equals the change of T + V."""
    res = inverse_dynamics(model, t_end=1.0, output_step=0.005)
    P = sum(res.driver_power(d) for d in res.driver_names)
    e = res.energy()
    work = np.array([simpson(P[: k + 1], x=res.t[: k + 1]) for k in range(40, len(res.t), 40)])
    dE = (e["total"] - e["total"][0])[40::40]
    assert np.allclose(work, dE, atol=1e-6 * np.max(np.abs(e["kinetic"] + np.abs(e["potential"]))))


# ----------------------------------------------------------------------------- export
def test_ankle_export_cli(tmp_path, geom):
    out = tmp_path / "maps"
    assert main(["ankle-export", EXAMPLE, "--out", str(out), "--n", "7", "--degree", "4"]) == 0
    info = json.load(open(out / "ankle_maps.json"))
    assert info["solver_check"]["max_error_rad"] < 1e-9
    tab = read_csv(str(out / "ankle_table.csv"))
    assert len(tab["roll [rad]"]) == 49
    for k in (0, 17, 48):
        r, p = tab["roll [rad]"][k], tab["pitch [rad]"][k]
        th = ankle.inverse_kinematics(geom, r, p)
        assert np.allclose([tab["theta1 [rad]"][k], tab["theta2 [rad]"][k]], th, atol=1e-11)
        J = ankle.jacobian(geom, th, r, p)
        assert np.allclose([tab[c][k] for c in ("J11", "J12", "J21", "J22")], J.ravel(), atol=1e-10)
        assert np.allclose([tab[c][k] for c in ("JT11", "JT12", "JT21", "JT22")], J.T.ravel(), atol=1e-10)
    fit = info["ik_fit"]
    basis = [r**i * p**j for i, j in fit["exponents"]]
    assert np.allclose(np.array(basis) @ np.array(fit["coefficients"]), th, atol=max(fit["max_error_rad"]) + 1e-12)
    fk = info["fk_fit"]
    basis = [th[0] ** i * th[1] ** j for i, j in fk["exponents"]]
    assert np.allclose(np.array(basis) @ np.array(fk["coefficients"]), [r, p], atol=max(fk["max_error_rad"]) + 1e-12)
    assert max(fit["max_error_rad"]) < 1e-3


def test_shipped_example_foot_follows_its_roll_pitch_trajectory():
    """examples/ankle.json drives the motors by the fitted actuator map of a roll/pitch
    trajectory: the simulated foot follows it to the fit's accuracy (independent of the fit:
    angles read from the foot's rotation matrix R = RotY(pitch) RotX(roll))."""
    from MBDWorkbench.solver import load, simulate

    res = simulate(load(EXAMPLE), t_end=2.0, output_step=0.02)
    R = res.rotation("foot")
    pitch = np.arctan2(-R[:, 2, 0], R[:, 0, 0])
    roll = np.arctan2(-R[:, 1, 2], R[:, 1, 1])
    t = res.t
    assert np.abs(roll - 0.15 * np.sin(np.pi * t) ** 2).max() < 2e-5
    assert np.abs(pitch - 0.25 * np.sin(0.5 * np.pi * t) ** 2).max() < 2e-5


@pytest.mark.parametrize(
    "args,field",
    [
        (["--n", "0"], "--n"),
        (["--n", "-5"], "--n"),
        (["--n", "100000"], "--n"),
        (["--roll-max", "nan"], "--roll-max"),
        (["--roll-max", "1e308"], "--roll-max"),
        (["--pitch-max", "-1"], "--pitch-max"),
        (["--degree", "-1"], "--degree"),
        (["--degree", "1000"], "--degree"),
        (["--n", "3", "--degree", "4"], "--n"),
    ],
)
def test_ankle_export_refuses_bad_options_in_one_line(tmp_path, capsys, args, field):
    """Each bad option is bad input (exit 2) named in the error, and nothing is written."""
    with pytest.raises(SystemExit) as e:
        code = main(["ankle-export", "--out", str(tmp_path / "maps"), *args])
        raise SystemExit(code)
    assert e.value.code == 2
    assert field in capsys.readouterr().err
    assert not (tmp_path / "maps").exists()


def test_ankle_export_refuses_a_file_as_its_folder(tmp_path, capsys):
    target = tmp_path / "maps.txt"
    target.write_text("keep me")
    assert main(["ankle-export", "--out", str(target)]) == 2
    assert "is a file" in capsys.readouterr().err and target.read_text() == "keep me"


def _ankle_with(tmp_path, kind, extra):
    data = json.load(open(EXAMPLE))
    data[kind] = data.get(kind, []) + extra
    path = tmp_path / "big_ankle.json"
    path.write_text(json.dumps(data))
    return path


def test_ankle_export_refuses_a_10_mb_model_before_building_it(tmp_path, capsys, monkeypatch):
    """A 10 MB model (the ankle and 100,000 more bodies; this ran past 90 s) is refused as bad
    input from its parsed JSON, before any Model is built, naming the extra bodies."""
    extra = [
        {"name": f"extra{k}", "mass": 1.0, "inertia": [1e-3] * 3, "position": [k * 1e-3, 0.5, 0.0]}
        for k in range(100_000)
    ]
    path = _ankle_with(tmp_path, "bodies", extra)
    assert path.stat().st_size > 10e6

    def never(*args, **kwargs):
        raise AssertionError("the model was built before it was refused")

    monkeypatch.setattr("MBDWorkbench.cli_common.from_dict", never)
    assert main(["ankle-export", str(path), "--out", str(tmp_path / "maps")]) == 2
    err = capsys.readouterr().err
    assert "not the parallel ankle" in err and "100006 bodies" in err and "'extra0'" in err
    assert not (tmp_path / "maps").exists()


@pytest.mark.parametrize(
    "kind,extra",
    [
        ("forces", [{"name": "push", "type": "load", "body": "foot", "force": [0, 0, 1]}]),
        ("joints", [{"name": "ankle", "type": "fixed", "body_i": "ground", "body_j": "foot"}]),
        ("drivers", [{"name": "drive3", "type": "rotational", "joint": "motor1", "profile": 0.0}]),
    ],
)
def test_ankle_export_refuses_elements_beyond_the_ankle(tmp_path, capsys, kind, extra):
    """Anything the maps would not read (a force, a duplicate joint, a third driver) is refused, named."""
    path = _ankle_with(tmp_path, kind, extra)
    assert main(["ankle-export", str(path), "--out", str(tmp_path / "maps")]) == 2
    err = capsys.readouterr().err
    assert f"{kind}: not the parallel ankle" in err
    assert not (tmp_path / "maps").exists()


def test_solver_check_reads_the_model_once(model, geom):
    """with_constant_motors takes the model's dict (converted once for all the check's points)
    and gives the same solver forward kinematics as from the Model."""
    th = ankle.inverse_kinematics(geom, 0.1, -0.2)
    assert solver_forward_kinematics(model.to_dict(), *th) == solver_forward_kinematics(model, *th)
    assert np.allclose(solver_forward_kinematics(model, *th), (0.1, -0.2), atol=1e-9)


def test_ankle_export_refuses_a_folder_inside_a_file(tmp_path, capsys):
    """--out below a file (found by tests/test_fuzz_cli.py: it was an internal error, exit 70)."""
    (tmp_path / "maps.txt").write_text("keep me")
    assert main(["ankle-export", "--out", str(tmp_path / "maps.txt" / "maps")]) == 2
    assert "--out" in capsys.readouterr().err and (tmp_path / "maps.txt").read_text() == "keep me"


def test_ankle_export_keeps_existing_maps_without_overwrite(tmp_path, capsys):
    """A second export into the same folder is refused (exit 2) unless --overwrite."""
    out = tmp_path / "maps"
    args = ["ankle-export", "--out", str(out), "--n", "5", "--degree", "2"]
    assert main(args) == 0
    (out / "ankle_maps.json").write_text("keep me")
    assert main(args) == 2
    assert "--overwrite" in capsys.readouterr().err and (out / "ankle_maps.json").read_text() == "keep me"
    assert main([*args, "--overwrite"]) == 0
    assert json.loads((out / "ankle_maps.json").read_text())["grid"]["valid_points"] > 0
