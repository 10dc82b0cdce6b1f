"""Document -> model -> simulation (headless FreeCAD).

The pendulum document (examples/make_pendulum_fcstd.py: a steel 200 x 20 x 20 mm bar on a
revolute joint picked on its edge, the bar rotated 30 deg about y) is compared with the same
mechanism written by hand in JSON (mass and inertia from the box formulas) and with the
pendulum oracle; the results mapped back to the part placement keep the pivot edge fixed.
"""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from MBDWorkbench.cad.mass_properties import CadError

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "examples"))
ANGLE = 30.0
A, B, C, RHO = 0.2, 0.02, 0.02, 7850.0  # bar edges [m], steel


@pytest.fixture
def doc(App):
    d = App.newDocument("DocModelTest")
    name = d.Name
    yield d
    if name in App.listDocuments():
        App.closeDocument(name)


def rot_y(deg):
    a = math.radians(deg)
    return np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])


def hand_model():
    """The bar pendulum in JSON, from box formulas (global axes, identity orientation)."""
    from MBDWorkbench.solver.model import from_dict

    R = rot_y(ANGLE)
    m = RHO * A * B * C
    I_box = m / 12 * np.diag([B**2 + C**2, A**2 + C**2, A**2 + B**2])
    cog = R @ np.array([A / 2, 0.0, C / 2])  # box corner at (0, -B/2, 0), then rotated
    return from_dict(
        {
            "name": "hand",
            "gravity": [0, 0, -9.81],
            "bodies": [{"name": "bar", "mass": m, "inertia": (R @ I_box @ R.T).tolist(), "position": cog.tolist()}],
            "joints": [
                {
                    "name": "pivot",
                    "type": "revolute",
                    "body_i": "ground",
                    "body_j": "bar",
                    "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0]},
                }
            ],
            "settings": {"t_end": 1.0, "step": 1e-3, "output_step": 0.01, "integrator": "rk4"},
        }
    )


def assert_same(a, b, path="model"):
    """Equal model dicts up to floating-point noise of the reloaded placements."""
    if isinstance(a, dict):
        assert sorted(a) == sorted(b), path
        for k in a:
            assert_same(a[k], b[k], "%s.%s" % (path, k))
    elif isinstance(a, list) and a and isinstance(a[0], dict):
        assert len(a) == len(b), path
        for k, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, "%s[%d]" % (path, k))
    elif isinstance(a, (list, float)) and not isinstance(a, bool):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15, err_msg=path)
    else:
        assert a == b, path


def build_pendulum(doc):
    import make_pendulum_fcstd

    return make_pendulum_fcstd.build(doc, angle_deg=ANGLE)


def test_body_properties_shown_in_freecad_units(App, doc):
    sim, body, joint = build_pendulum(doc)
    m = RHO * A * B * C
    assert float(body.ComputedMass) == pytest.approx(m, rel=1e-12)
    assert float(body.Density.getValueAs("kg/m^3")) == pytest.approx(7850.0, rel=1e-12) and body.Material == "Steel"
    np.testing.assert_allclose(tuple(body.CenterOfGravity), rot_y(ANGLE) @ [100, 0, 10], atol=1e-9)
    Iyy = m / 12 * (A**2 + C**2) * 1e6  # kg mm^2, y is unchanged by the rotation about y
    assert body.Inertia[1] == pytest.approx(Iyy, rel=1e-12)
    body.Material = "Aluminium"
    assert float(body.Density.getValueAs("kg/m^3")) == pytest.approx(2700.0, rel=1e-12)
    body.Density = "1234 kg/m^3"
    assert body.Material == "Custom"
    body.Mass = 2.0
    doc.recompute()
    assert float(body.ComputedMass) == 2.0


def test_pendulum_document_matches_hand_written_json_and_oracle(App, doc):
    from oracles.pendulum import pendulum_ode_solution

    from MBDWorkbench.cad.document_model import document_model
    from MBDWorkbench.solver import simulate

    build_pendulum(doc)
    model, mapping = document_model(doc)
    body = model.bodies[0]
    q = body.orientation  # the part's rotation: 30 deg about y
    np.testing.assert_allclose(q, [math.cos(math.radians(15)), 0, math.sin(math.radians(15)), 0], atol=1e-12)
    m = RHO * A * B * C
    np.testing.assert_allclose(
        body.inertia, m / 12 * np.diag([B**2 + C**2, A**2 + C**2, A**2 + B**2]), atol=1e-15
    )  # body axes = the bar's own axes
    res = simulate(model)
    ref = simulate(hand_model())
    np.testing.assert_allclose(res.t, ref.t)
    np.testing.assert_allclose(res.position(body.name), ref.position("bar"), atol=1e-9)

    # independent oracle: compound pendulum about y with L = |CoG - pivot|
    p = res.position(body.name)
    L = math.hypot(A / 2, C / 2)
    theta = np.arctan2(p[:, 0], -p[:, 2])
    sol = pendulum_ode_solution(theta[0], res.t, m=m, L=L, g=9.81, Jc=m / 12 * (A**2 + C**2))
    np.testing.assert_allclose(theta, sol.theta, atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(p[:, [0, 2]], axis=1), L, atol=1e-9)
    assert mapping["bodies"][body.name]["part"] == "Bar"


def test_results_move_the_part_about_the_pivot(App, doc):
    from MBDWorkbench.cad.document_model import document_model
    from MBDWorkbench.cad.results_store import store_results
    from MBDWorkbench.solver import simulate

    sim, body, joint = build_pendulum(doc)
    model, mapping = document_model(doc)
    stored = store_results(sim, simulate(model), mapping)
    bar = doc.getObject("Bar")
    far_end_0 = None
    for k in range(len(stored)):
        plc = stored.part_placements(k)["Bar"]
        # the bar's local points (0,0,0) and (0,20,0) lie on the pivot axis (global y)
        for local in ((0, 0, 0), (0, 20, 0)):
            g = plc.multVec(App.Vector(*local))
            np.testing.assert_allclose([g.x, g.y, g.z], [0, local[1] - 10, 0], atol=1e-6)
        end = plc.multVec(App.Vector(200, 10, 10))
        far_end_0 = far_end_0 or end
    assert far_end_0.distanceToPoint(end) > 50  # the far end swung
    np.testing.assert_allclose(tuple(stored.part_placements(0)["Bar"].Base), tuple(bar.Placement.Base), atol=1e-6)


def test_save_close_reopen_keeps_objects_and_results(App, doc, tmp_path):
    from MBDWorkbench.cad.document_model import document_model, model_from_document
    from MBDWorkbench.cad.makers import make_driver
    from MBDWorkbench.cad.objects import find_objects
    from MBDWorkbench.cad.results_store import load_results, store_results
    from MBDWorkbench.solver import simulate

    sim, body, joint = build_pendulum(doc)
    sim.EndTimeMilliseconds = 200
    make_driver(doc, joint, Rate=90.0)
    model, mapping = document_model(doc)
    res = simulate(model)
    store_results(sim, res, mapping)
    path = str(tmp_path / "pendulum.FCStd")
    doc.saveAs(path)
    before, name = model.to_dict(), body.Label
    App.closeDocument(doc.Name)

    d = App.openDocument(path)
    try:
        kinds = sorted(o.MbdType for o in find_objects(d))
        assert kinds == ["Body", "Driver", "Joint", "Simulation"]
        s2 = find_objects(d, "Simulation")[0]
        assert type(s2.Proxy).__name__ == "SimulationProxy" and s2.EndTimeMilliseconds == 200
        assert s2.ResultsSummary[0] == "status: completed"
        j2 = find_objects(d, "Joint")[0]
        assert j2.JointType == "revolute" and j2.Body1 is None and j2.Body2.Part.Name == "Bar"
        after = model_from_document(d).to_dict()
        for key in ("bodies", "joints", "drivers", "settings", "gravity"):
            assert_same(after[key], before[key])
        stored = load_results(s2)
        np.testing.assert_allclose(stored.t, res.t)
        np.testing.assert_allclose(stored.position(name), res.position(name), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(stored.driver_effort("Motor"), res.driver_effort("Motor"), rtol=1e-8, atol=1e-12)
    finally:
        App.closeDocument(d.Name)


def test_driver_degrees_are_converted(App, doc):
    """A rotational driver at 90 deg/s turns the bar by exactly pi/2 rad per second."""
    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.makers import make_driver
    from MBDWorkbench.solver import simulate

    sim, body, joint = build_pendulum(doc)
    sim.EndTimeMilliseconds = 500
    make_driver(doc, joint, Rate=90.0)
    model = model_from_document(doc)
    assert model.drivers[0].profile == {"type": "constant_speed", "speed": pytest.approx(math.pi / 2)}
    res = simulate(model)
    R = res.rotation(body.Label)
    turned = np.degrees(np.arccos(np.clip((np.einsum("kii->k", R @ R[0].T) - 1) / 2, -1, 1)))
    np.testing.assert_allclose(turned, 90.0 * res.t, atol=1e-6)


def test_springs_forces_and_settings_in_si(App, doc):
    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.makers import make_force, make_spring_damper

    sim, body, joint = build_pendulum(doc)
    sim.GravityX, sim.GravityY, sim.GravityZ = 0.0, 0.0, -1000.0  # mm/s^2
    sim.Integrator = "bdf"
    make_spring_damper(doc, None, (0, 0, 100), body, (200, 0, 0), stiffness=2.0, damping=0.5)
    make_spring_damper(doc, None, None, None, None, joint=joint, stiffness=1.0, damping=0.0)
    make_force(doc, body, ("1", "0", "-2*t"), point=(100, 0, 0))
    make_force(doc, body, ("0", "500", "0"), kind="torque")
    m = model_from_document(doc)
    assert m.gravity == [0, 0, -1.0] and m.settings.integrator == "bdf"
    lin, rot, force, torque = m.forces
    assert (lin.type, lin.body_i, lin.stiffness, lin.damping) == ("spring_damper", "ground", 2000.0, 500.0)
    assert lin.point_i == [0, 0, 0.1] and lin.point_j == [0.2, 0, 0] and lin.free_length is None
    assert rot.type == "rotational_spring_damper" and rot.stiffness == pytest.approx(1e-3 * 180 / math.pi)
    assert force.force == [1.0, 0.0, "-2*t"]
    assert force.point == [0.1, 0, 0]
    assert torque.torque == [0.0, 0.5, 0.0]


def test_cli_simulates_fcstd_like_the_exported_json(App, doc, tmp_path):
    from MBDWorkbench.cad.document_model import export_json

    sim, body, joint = build_pendulum(doc)
    sim.EndTimeMilliseconds = 100
    fcstd, js = str(tmp_path / "p.FCStd"), str(tmp_path / "p.json")
    doc.saveAs(fcstd)
    export_json(doc, js)
    outs = []
    for src in (fcstd, js):
        out = str(tmp_path / (os.path.basename(src) + "_res"))
        subprocess.run(
            [sys.executable, "-m", "MBDWorkbench", "simulate", src, "--out", out, "--quiet"],
            cwd=REPO,
            check=True,
            stdout=subprocess.PIPE,
        )
        outs.append(out)
    from MBDWorkbench.solver.results.files import read_csv

    a, b = (read_csv(os.path.join(o, "bodies.csv")) for o in outs)
    assert list(a) == list(b) and len(a["time [s]"]) == 11
    for key in a:
        np.testing.assert_allclose(a[key], b[key], rtol=1e-9, atol=1e-12, err_msg=key)


# ----------------------------------------------------------------------------- bad input
def snapshot(doc):
    return sorted((o.Name, o.TypeId) for o in doc.Objects)


def test_bad_input_leaves_the_document_unchanged(App, doc):
    import Part

    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.makers import make_body, make_simulation
    from MBDWorkbench.cad.picking import make_joint_from_picks

    sim = make_simulation(doc)
    sheet = doc.addObject("Part::Feature", "Sheet")
    sheet.Shape = Part.makePlane(10, 10)
    flat = doc.addObject("Part::Feature", "Flat")
    flat.Shape = Part.Solid(Part.Shell([Part.makePlane(10, 10)]))
    box = doc.addObject("Part::Box", "Box")
    box2 = doc.addObject("Part::Box", "Box2")
    box2.Placement.Base = App.Vector(0, 0, 20)
    doc.recompute()
    with pytest.raises(CadError, match="simulation 'Simulation' has no bodies"):
        model_from_document(doc)
    cases = [
        (lambda: make_body(doc, sheet), "Sheet.*has no solid"),
        (lambda: make_body(doc, flat), "Flat.*zero volume"),
        (
            lambda: make_joint_from_picks(doc, "revolute", [(box, "Face1"), (box, "Face2")]),
            "both picked elements are on the same part 'Box'",
        ),
        (
            lambda: make_joint_from_picks(doc, "revolute", [(box, "Vertex1"), (box2, "Vertex1")]),
            r"revolute.*Vertex1 of Box \(vertex\), Vertex1 of Box2 \(vertex\) has no axis",
        ),
        (lambda: make_joint_from_picks(doc, "revolute", [(sheet, "Edge1"), (box2, "Face1")]), "Sheet.*no solid"),
    ]
    for action, pattern in cases:
        before = snapshot(doc)
        with pytest.raises(CadError, match=pattern):
            action()
        assert snapshot(doc) == before, pattern
    make_joint_from_picks(doc, "revolute", [(box, "Edge1"), (box2, "Edge1")])
    with pytest.raises(CadError, match="nothing is grounded"):
        model_from_document(doc)
    sim.AllowFreeFlight = True
    assert len(model_from_document(doc).bodies) == 2


def test_check_report(App, doc):
    from MBDWorkbench.cad.check import check_report, grubler_text
    from MBDWorkbench.cad.document_model import model_from_document

    build_pendulum(doc)
    model = model_from_document(doc)
    assert "6 x 1 - 5 = 1" in grubler_text(model)
    text, dof = check_report(model)
    assert dof == 1 and "1" in text
