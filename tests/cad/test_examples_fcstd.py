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


SHIPPED = sorted(f for f in os.listdir(os.path.join(REPO, "examples")) if f.endswith(".FCStd"))


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_example_carries_its_view_and_a_camera(name):
    """GuiDocument.xml (written by tools/save_example_views.py from the GUI) with the view
    providers of the document's objects and a camera."""
    import re
    import zipfile

    with zipfile.ZipFile(os.path.join(REPO, "examples", name)) as z:
        gui = z.read("GuiDocument.xml").decode("utf-8")
        objects = set(re.findall(r'<Object type="[^"]*" name="([^"]*)"', z.read("Document.xml").decode("utf-8")))
    assert re.search(r'<Camera settings="[^"]*(Orthographic|Perspective)Camera[^"]*position', gui), name
    providers = set(re.findall(r'<ViewProvider name="([^"]*)"', gui))
    assert objects and objects <= providers, sorted(objects - providers)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_example_joints_follow_their_parts(App, name):
    """Each joint refers to its parts' sub-elements: a native joint through References1/2 (links
    to a part's Edge/Face/Vertex), an imported one through its Assembly joint (whose references
    are); moving a native joint's parts moves its origin and axis by the same placement."""
    from MBDWorkbench.cad.joint_references import is_parametric, joint_frames
    from MBDWorkbench.cad.objects import find_objects

    doc = App.openDocument(os.path.join(REPO, "examples", name))
    try:
        joints = find_objects(doc, "Joint")
        assert joints or find_objects(doc, "Contact")  # the drop test has contacts only
        for joint in joints:
            source = str(getattr(joint, "Reference1", "") or "")
            if source.startswith("assembly joint "):
                assembly_joint = doc.getObject(source.split()[-1])
                if assembly_joint is None or not hasattr(assembly_joint, "Reference1"):
                    continue  # FreeCAD 0.20 reads the Assembly's objects as placeholders
                subs = [s for ref in (assembly_joint.Reference1, assembly_joint.Reference2) for s in ref[1]]
            else:
                assert is_parametric(joint), joint.Label
                refs = [r for r in (joint.References1, joint.References2) if r]
                subs = [s for _, ss in refs for s in ss]
            assert subs and all(re_element(s) for s in subs), (joint.Label, subs)
        moved = [j for j in joints if is_parametric(j) and j.References2]
        for joint in moved[:1]:
            before = joint_frames(joint)[0]
            shift = App.Placement(App.Vector(5, -3, 2), App.Rotation(App.Vector(1, 2, 0), 10))
            for part in {referenced_part(r) for r in (joint.References1, joint.References2) if r}:
                part.Placement = shift.multiply(part.Placement)
            doc.recompute()
            after = joint_frames(joint)[0]
            expected = shift.multiply(before)
            assert (after.Base - expected.Base).Length < 1e-9, joint.Label
            z = App.Vector(0, 0, 1)  # the joint's axis (a circle's frame has no preferred x about it)
            assert (after.Rotation.multVec(z) - expected.Rotation.multVec(z)).Length < 1e-12, joint.Label
    finally:
        App.closeDocument(doc.Name)


def re_element(sub: str) -> bool:
    """Whether a sub-element path ends with a vertex, edge or face name."""
    import re

    return re.search(r"(Vertex|Edge|Face)\d+$", sub) is not None


def referenced_part(link):
    """The part object a reference (root, [path]) points into."""
    root, (sub,) = link
    return root.getSubObject(sub, retType=1) if sub.count(".") > 1 else root


def test_ankle_joints_are_picked_with_the_frames_of_its_geometry(App, doc):
    """Each ankle joint is parametric on two elements that give its origin (and the axis of a
    motor, both cross axes of a universal joint); with its offset (a turn about the axis, a
    ball's orientation) the frame equals AnkleGeometry's to 1e-9 m and 1e-9 rad."""
    import make_ankle_fcstd

    from MBDWorkbench.cad.joint_references import is_parametric, joint_frames
    from MBDWorkbench.cad.placement import placement_from_axes

    joints = make_ankle_fcstd.build(doc)["joints"]
    expected = make_ankle_fcstd.explicit_frames(make_ankle_fcstd.AnkleGeometry())
    assert sorted(joints) == sorted(expected)
    z = App.Vector(0, 0, 1)
    for label, joint in joints.items():
        assert is_parametric(joint) and joint.References1 and joint.References2, label
        frame, want = joint_frames(joint)[0], placement_from_axes(*expected[label])
        assert (frame.Base - want.Base).Length < 1e-6, label  # mm
        assert frame.Rotation.multiply(want.Rotation.inverted()).Angle < 1e-9, label
        assert joint.Offset1.Base.Length < 1e-9, label  # the origin is the elements'
        if joint.JointType == "revolute":
            assert (joint.Offset1.Rotation.multVec(z) - z).Length < 1e-12, label
        if joint.JointType == "universal":
            assert joint.Offset1.Rotation.Angle < 1e-9, label
