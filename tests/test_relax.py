"""--relax / "Make statically determinate" (analyses.mobility.relax): the relaxations the mobility
analysis proposes, applied as a reported change of the model; the relaxed planar four-bar's
reactions match planar statics solved here by hand, and are unique (no redundant equation left)."""

import copy
import html
import json
import math
import os

import numpy as np
import pytest

from MBDWorkbench.cli import main
from MBDWorkbench.solver import from_dict
from MBDWorkbench.solver.analyses.kinematics import static_equilibrium
from MBDWorkbench.solver.analyses.mobility import mobility, relax

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOUR_BAR = json.load(open(os.path.join(ROOT, "tests", "models", "four_bar_4r.json")))
G = np.array([0.0, -9.81])


def held_four_bar():
    """The planar four-bar of four revolutes, its crank held by a rotational driver."""
    d = copy.deepcopy(FOUR_BAR)
    d["drivers"] = [{"name": "hold", "type": "rotational", "joint": "J1", "profile": 0.0}]
    return from_dict(d)


def cross(r, f):
    return r[0] * f[1] - r[1] * f[0]


def hand_statics(model):
    """Pin forces F1..F4 (global x, y [N]; Fk = the force body_i of joint Jk exerts on body_j) and the
    driver torque [N m] from the 9 planar equilibrium equations of crank, coupler and rocker."""
    pins = {j.name: np.array(j.frame.origin[:2]) for j in model.joints}
    bodies = {b.name: (b.mass, np.array(b.position[:2])) for b in model.bodies}
    # (body, [(joint, sign of its force on this body)], driver torque on it)
    loads = [("crank", [("J1", 1), ("J2", -1)], 1), ("coupler", [("J2", 1), ("J3", -1)], 0)]
    loads.append(("rocker", [("J3", 1), ("J4", -1)], 0))
    A, b = np.zeros((9, 9)), np.zeros(9)
    for k, (body, forces, torque) in enumerate(loads):
        m, c = bodies[body]
        for name, sign in forces:
            col = 2 * (int(name[1]) - 1)
            A[3 * k, col], A[3 * k + 1, col + 1] = sign, sign
            A[3 * k + 2, col], A[3 * k + 2, col + 1] = -sign * pins[name][1], sign * pins[name][0]
        A[3 * k + 2, 8] = torque
        b[3 * k : 3 * k + 2] = -m * G
        b[3 * k + 2] = -cross(c, m * G)
    x = np.linalg.solve(A, b)
    return {f"J{k + 1}": x[2 * k : 2 * k + 2] for k in range(4)}, x[8]


def test_relax_removes_the_redundancy_and_keeps_the_mobility():
    model = held_four_bar()
    before = mobility(model)
    relaxed, steps = relax(model)
    after = mobility(relaxed)
    assert before.redundant and steps
    assert after.redundant == [] and after.mobility == before.mobility
    assert relaxed.relaxations == [f"joint '{s.joint}': {s.old} -> {s.new}" for s in steps]
    assert sum(s.removes for s in steps) == len(before.redundant)
    assert [j.type for j in model.joints] == ["revolute"] * 4  # the model itself is unchanged


def test_relaxed_four_bar_reactions_match_planar_statics():
    relaxed, _ = relax(held_four_bar())
    res = static_equilibrium(relaxed)
    forces, torque = hand_statics(relaxed)
    weight = 9.81 * sum(b.mass for b in relaxed.bodies)
    for name, F in forces.items():
        f, t = res.reaction(name, "global")
        np.testing.assert_allclose(f[0, :2], F, atol=1e-9 * weight, err_msg=name)
        assert abs(f[0, 2]) < 1e-9 * weight and np.all(np.abs(t[0, :2]) < 1e-9 * weight), name  # no out-of-plane load
    assert abs(res.driver_effort("hold")[0]) == pytest.approx(abs(torque), rel=1e-9)


def test_cli_simulate_relax_reports_the_change(tmp_path, capsys):
    path = tmp_path / "four_bar.json"
    d = copy.deepcopy(FOUR_BAR)
    d["settings"] = dict(d.get("settings", {}), t_end=0.05)
    path.write_text(json.dumps(d))
    out = tmp_path / "run"
    report = tmp_path / "report"
    code = main(["simulate", str(path), "--relax", "--quiet", "--out", str(out), "--report", str(report)])
    text = capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    assert summary["relaxations"] and all(f"relaxed {r}" in text for r in summary["relaxations"])
    assert not any(w["kind"] == "redundant" for w in summary["warnings"]), summary["warnings"]
    assert code in (0, 3)
    saved = json.loads((out / "model.json").read_text())
    assert "relaxations" not in saved and sorted(j["type"] for j in saved["joints"]) != ["revolute"] * 4
    assert math.isfinite(summary["energy_drift"])
    page = "".join(p.read_text() for p in report.glob("*.html"))
    assert "Relaxed joints" in page and all(html.escape(r) in page for r in summary["relaxations"])
