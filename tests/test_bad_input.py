"""Bad input: clear errors naming the body, joint or field and its JSON path; failed runs
keep their results."""

import copy
import json
import os
import subprocess
import sys

import pytest

from MBDWorkbench.solver import AssemblyError, ModelError, SimulationError, from_dict, simulate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = json.load(open(os.path.join(ROOT, "examples", "slider_crank.json")))


def broken(edit):
    d = copy.deepcopy(BASE)
    edit(d)
    return d


CASES = [
    (lambda d: d["joints"][1].update(body_j="rood"), "joints[1].body_j", "unknown body 'rood'"),
    (
        lambda d: (d["bodies"][1].update(grounded=True), d["joints"][1].update(body_i="ground")),
        "joints[1].body_j",
        "both sides",
    ),
    (lambda d: d["bodies"][1].update(mass=0.0), "bodies[1].mass", "body 'rod': mass must be positive"),
    (lambda d: d["bodies"][1].update(mass=-2.0), "bodies[1].mass", "mass must be positive"),
    (lambda d: d["bodies"][0].update(inertia=[1.0, -1.0, 1.0]), "bodies[0].inertia", "not positive definite"),
    (lambda d: d["bodies"][0].update(inertia=[0.1, 0.1, 0.5]), "bodies[0].inertia", "triangle inequality"),
    (lambda d: d["joints"][0]["frame"].update(z_axis=[0, 0, 0]), "joints[0].frame.z_axis", "degenerate"),
    (lambda d: d["joints"][0]["frame"].update(x_axis=[0, 0, 2]), "joints[0].frame.x_axis", "parallel"),
    (lambda d: d["drivers"][0].update(profile="2*t + sin(x)"), "drivers[0].profile", "unknown name 'x'"),
    (lambda d: d["drivers"][0].update(profile="__import__('os')"), "drivers[0].profile", ""),
    (lambda d: d["joints"][0].update(type="hinge"), "joints[0].type", "unknown type 'hinge'"),
    (lambda d: d["drivers"][0].update(joint="guide"), "drivers[0].joint", "needs a revolute or cylindrical joint"),
    (lambda d: d["forces"][0].update(stiffness=-1), "forces[0].stiffness", "must not be negative"),
    (lambda d: d["settings"].update(step=0), "settings.step", "must be positive"),
    (lambda d: d["settings"].update(integrator="leapfrog"), "settings.integrator", "unknown integrator"),
    (lambda d: d["bodies"][2].update(name="rod"), "bodies[2].name", "duplicate body name"),
    (lambda d: d["bodies"][0].update(colour="red"), "bodies[0].colour", "unknown field"),
]


@pytest.mark.parametrize("edit,path,text", CASES)
def test_model_errors_name_the_field(edit, path, text):
    with pytest.raises(ModelError) as e:
        from_dict(broken(edit))
    assert str(e.value).startswith(path + ":"), str(e.value)
    assert text in str(e.value)


def test_no_moving_body():
    with pytest.raises(ModelError, match="no moving body"):
        from_dict({"bodies": []})


def test_unassemblable_mechanism_names_joint():
    """The rod end must ride on a guide 3 m above the crank pivot: out of reach."""
    d = copy.deepcopy(BASE)
    d["joints"][2] = {
        "name": "rod_pin",
        "type": "spherical",
        "body_i": "rod",
        "body_j": "slider",
        "frame_i": {"origin": [0.75, 0, 0]},
        "frame_j": {"origin": [0, 0, 0]},
    }
    d["joints"][3] = {
        "name": "guide",
        "type": "prismatic",
        "body_i": "ground",
        "body_j": "slider",
        "frame_i": {"origin": [0, 3.0, 0], "z_axis": [1, 0, 0], "x_axis": [0, 1, 0]},
        "frame_j": {"origin": [0, 0, 0], "z_axis": [1, 0, 0], "x_axis": [0, 1, 0]},
    }
    with pytest.raises(AssemblyError, match="does not assemble") as e:
        simulate(from_dict(d))
    assert any(f"'{name}' open by" in str(e.value) for name in ("rod_pin", "guide", "crank_pin"))


def test_blow_up_stops_with_time_and_joint_and_keeps_results(tmp_path):
    """An absurdly stiff spring with explicit Euler blows up: the run stops with the time
    and the worst joint, and the samples so far are written."""
    d = json.load(open(os.path.join(ROOT, "examples", "pendulum.json")))
    d["forces"] = [
        {
            "name": "stiff",
            "type": "spring_damper",
            "body_i": "ground",
            "point_i": [0, 0, -1],
            "body_j": "bob",
            "point_j": [1, 0, 0],
            "stiffness": 1e7,
            "free_length": 0.5,
        }
    ]
    out = tmp_path / "res"
    with pytest.raises(SimulationError) as e:
        simulate(from_dict(d), integrator="euler", step=1e-3, t_end=2.0, out_dir=str(out))
    err = e.value
    assert err.time is not None and 0 < err.time < 2.0
    assert "t = " in str(err) and "worst joints" in str(err)
    assert err.results is not None and len(err.results) >= 1
    assert err.results.status == "failed"
    summary = json.load(open(out / "summary.json"))
    assert summary["status"] == "failed" and summary["t_end"] < 2.0
    lines = open(out / "bodies.csv").read().splitlines()
    assert len(lines) == len(err.results) + 1


def test_cancel_keeps_results():
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 5

    from MBDWorkbench.solver import Cancelled

    with pytest.raises(Cancelled) as e:
        simulate(from_dict(BASE), cancel=cancel)
    assert len(e.value.results) == 6  # the initial sample and five output steps
    assert e.value.results.status == "cancelled"


def test_cli_reports_model_error_with_exit_code_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken(lambda d: d["bodies"][1].update(mass=0.0))))
    p = subprocess.run(
        [sys.executable, "-m", "MBDWorkbench", "simulate", str(bad), "--out", str(tmp_path / "o")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2
    assert "bodies[1].mass" in p.stderr and "rod" in p.stderr
    assert not (tmp_path / "o").exists()


def _simulate_cli(tmp_path, *args):
    pendulum = os.path.join(ROOT, "examples", "pendulum.json")
    cmd = [sys.executable, "-m", "MBDWorkbench", "simulate", pendulum, "--t-end", "0.2", "--quiet"]
    return subprocess.run([*cmd, "--out", str(tmp_path / "o"), *args], cwd=ROOT, capture_output=True, text=True)


def test_rho_inf_is_refused_where_no_integrator_reads_it(tmp_path):
    """The pendulum example runs rk4: --rho-inf would be silently ignored, so it is bad input naming galpha."""
    p = _simulate_cli(tmp_path, "--rho-inf", "0.5")
    assert p.returncode == 2 and "galpha" in p.stderr and "'rk4'" in p.stderr
    assert not (tmp_path / "o").exists()
    assert _simulate_cli(tmp_path, "--rho-inf", "0.5", "--integrator", "galpha").returncode == 0


def test_rho_inf_one_is_refused_with_the_valid_range(tmp_path):
    """rho_inf = 1 leaves index-3 generalized-alpha's multiplier mode undamped: the step control collapsed (a
    million steps on a pendulum); it is refused on the command line and in a model's settings."""
    p = _simulate_cli(tmp_path, "--rho-inf", "1", "--integrator", "galpha")
    assert p.returncode == 2 and "[0, 1)" in p.stderr
    d = json.load(open(os.path.join(ROOT, "examples", "pendulum.json")))
    d["settings"].update(integrator="galpha", rho_inf=1.0, t_end=0.2)
    with pytest.raises(ModelError, match=r"\[0, 1\)") as e:
        simulate(from_dict(d))
    assert e.value.path == "settings.rho_inf"
