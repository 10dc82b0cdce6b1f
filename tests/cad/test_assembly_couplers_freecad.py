"""Coupler joints (Gears, Belt, RackPinion, Screw) from a real FreeCAD 1.x Assembly (skipped where
the Assembly workbench is missing, e.g. FreeCAD 0.20).

Each test builds the Assembly with its Python API (as tests/cad/test_assembly_freecad.py),
imports it and checks (a) the imported frames against the Assembly's own JCS (the global
placements UtilsAssembly.getJcsGlobalPlc gives; the rack's marker as the Assembly's solver
makes it), (b) that the Assembly's solver and ours put the parts at the same place after the
same driven move (the Assembly: a Fixed joint with a rotated Offset2 replaces the driving
revolute; ours: a rotational driver on the imported revolute), (c) a dynamic quantity against
a closed form written here.
"""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "examples"))

from make_assembly_couplers_fcstd import PITCH, R1, R2, RACK, H, build_gears, build_rack, build_screw  # noqa: E402

RHO = 7850.0  # default density, steel [kg/m^3]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# ----------------------------------------------------------------------------- checks
def _matrix(placement):
    return np.array(placement.toMatrix().A).reshape(4, 4)


def _assert_same_placement(a, b, tol=1e-9):
    np.testing.assert_allclose(_matrix(a), _matrix(b), atol=tol)


def _turn_about_z(before, after):
    """Rotation [rad] about global z taking placement ``before`` to ``after`` (checks it is one)."""
    rel = (
        np.array(after.Rotation.toMatrix().A).reshape(4, 4)[:3, :3]
        @ np.array(before.Rotation.toMatrix().A).reshape(4, 4)[:3, :3].T
    )
    np.testing.assert_allclose(rel[2], [0, 0, 1], atol=1e-9)
    return math.atan2(rel[1, 0], rel[0, 0])


def _drive_by_fixed_joint(App, doc, JointObject, asm, group, hinge, refs, degrees):
    """The Assembly's driven move: deactivate ``hinge`` and fix its part at ``degrees`` about the
    hinge's axis (a Fixed joint on the same references, Offset2 turned); the Assembly's solver
    moves the other parts through the couplers. The references are set directly (no pre-solve,
    which would place the part by itself, before the solver and its couplers)."""
    hinge.Activated = False
    fix = group.newObject("App::FeaturePython", "Joint")
    JointObject.Joint(fix, JointObject.JointTypes.index("Fixed"))
    fix.Label = "Drive"
    fix.Offset2 = App.Placement(App.Vector(), App.Rotation(App.Vector(0, 0, 1), degrees))
    for k, ref in enumerate(refs):
        setattr(fix, "Reference%d" % (k + 1), [asm, [ref, ref]])
        setattr(fix, "Placement%d" % (k + 1), fix.Proxy.findPlacement(fix, getattr(fix, "Reference%d" % (k + 1)), k))
    doc.recompute()
    asm.solve()


def _imported(doc, asm, jtype):
    from MBDWorkbench.cad.assembly_import import import_assembly
    from MBDWorkbench.cad.document_model import model_from_document

    report = import_assembly(doc, asm)
    assert report.unsupported == [], report.text()
    (obj,) = [o for o in doc.Objects if getattr(o, "MbdType", "") == "Joint" and o.JointType == jtype]
    return model_from_document(doc), obj


def _driven(model, joint_name, angle):
    """The model with a rotational driver turning ``joint_name`` by ``angle`` [rad] in 1 s."""
    from MBDWorkbench.solver import from_dict

    d = model.to_dict()
    d["drivers"] = [{"name": "drive", "type": "rotational", "joint": joint_name, "profile": "%r * t" % angle}]
    d["gravity"] = [0, 0, 0]
    return from_dict(d)


def _jcs_of(asm, joint, part):
    """(global JCS, local Placement) of the side of an Assembly joint on ``part`` (FreeCAD's solver
    may have swapped the joint's sides: AssemblyObject::swapJCS writes them back)."""
    import UtilsAssembly

    for k in (1, 2):
        ref, plc = getattr(joint, "Reference%d" % k), getattr(joint, "Placement%d" % k)
        if UtilsAssembly.getMovingPart(asm, ref) == part:
            return UtilsAssembly.getJcsGlobalPlc(plc, ref), plc
    raise AssertionError("%s is not on %s" % (joint.Label, part.Label))


def _asmt_markers(asm, path):
    """{(part name, marker name): global 4x4 placement [mm]} of the markers the Assembly's own
    solver uses, read from its ASMT export (each marker relative to its part)."""
    asm.exportAsASMT(str(path))
    with open(str(path)) as f:
        lines = [line.strip() for line in f.read().splitlines()]

    def frame(k):  # lines[k] == "Position3D", then the rotation matrix by rows
        M = np.eye(4)
        M[:3, 3] = [float(v) for v in lines[k + 1].split()]
        assert lines[k + 2] == "RotationMatrix"
        M[:3, :3] = [[float(v) for v in lines[k + 3 + r].split()] for r in range(3)]
        return M

    out, part, part_M = {}, None, None
    for k in range(len(lines) - 3):
        if lines[k] == "Part" and lines[k + 1] == "Name":
            part, part_M = lines[k + 2], frame(k + 3)
        elif lines[k] == "Marker" and lines[k + 1] == "Name" and part is not None:
            out[(part, lines[k + 2])] = part_M @ frame(k + 3)
    return out


def _body_frame(res, body):
    """Final rotation (3, 3) and CoG [m] of a body in a Results."""
    return res.rotation(body)[-1], res.position(body)[-1]


@pytest.mark.parametrize("jtype,ours,sign", [("Gears", "gear", -1.0), ("Belt", "belt", 1.0)])
def test_gears_and_belt_from_assembly(App, doc, JointObject, jtype, ours, sign):
    import UtilsAssembly

    from MBDWorkbench.solver import simulate

    asm, group, (base, g1, g2), hinge1, mesh, refs = build_gears(doc, jtype)
    model, obj = _imported(doc, asm, ours)
    # (a) the frames are the Assembly's JCS, radii its Distance and Distance2
    _assert_same_placement(obj.Frame, UtilsAssembly.getJcsGlobalPlc(mesh.Placement1, mesh.Reference1))
    _assert_same_placement(obj.Frame2, UtilsAssembly.getJcsGlobalPlc(mesh.Placement2, mesh.Reference2))
    (j,) = [j for j in model.joints if j.type == ours]
    assert (j.radius_i, j.radius_j) == (R1 * 1e-3, R2 * 1e-3)
    hinge_name = [k.name for k in model.joints if k.type == "revolute" and k.body_j == "G1_body"][0]
    g2_before = App.Placement(g2.Placement)
    g1_before = App.Placement(g1.Placement)

    # (b) the same driven move in the Assembly and here: G2's placement agrees
    _drive_by_fixed_joint(App, doc, JointObject, asm, group, hinge1, refs, 40.0)
    turn1 = _turn_about_z(g1_before, g1.Placement)
    turn2 = _turn_about_z(g2_before, g2.Placement)
    assert abs(turn1) == pytest.approx(math.radians(40.0), abs=1e-9)
    assert turn2 == pytest.approx(sign * R1 / R2 * turn1, abs=1e-7)  # the Assembly's own gear relation
    res = simulate(_driven(model, hinge_name, turn1), t_end=1.0, integrator="rk4", step=1e-3, output_step=0.1)
    A2, _ = _body_frame(res, "G2_body")
    np.testing.assert_allclose(A2, np.array(g2.Placement.Rotation.toMatrix().A).reshape(4, 4)[:3, :3], atol=1e-7)

    # (c) torque T on G1: speed ratio and tooth force against the closed form
    T = 0.2
    d = model.to_dict()
    d["forces"] = [{"name": "T", "type": "torque", "body": "G1_body", "torque": [0, 0, T]}]
    from MBDWorkbench.solver import from_dict

    res = simulate(from_dict(d), t_end=0.5, integrator="rk4", step=1e-3, output_step=0.05)
    m1, m2 = (RHO * math.pi * (r * 1e-3) ** 2 * H * 1e-3 for r in (R1, R2))
    J1, J2 = m1 * (R1 * 1e-3) ** 2 / 2, m2 * (R2 * 1e-3) ** 2 / 2
    ratio = R1 / R2
    alpha1 = T / (J1 + J2 * ratio**2)
    w1, w2 = res.angular_velocity("G1_body")[:, 2], res.angular_velocity("G2_body")[:, 2]
    np.testing.assert_allclose(w1, alpha1 * res.t, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(w2, sign * ratio * w1, rtol=1e-6, atol=1e-9)
    tooth = J2 * ratio * alpha1 / (R2 * 1e-3)  # = (T - J1 alpha1) / R1: torque / pitch radius
    np.testing.assert_allclose(np.abs(res.coupling_force(j.name)[1:]), tooth, rtol=1e-5)


def test_rack_pinion_from_assembly(App, doc, JointObject, tmp_path):

    from MBDWorkbench.cad.assembly_couplers import rack_marker
    from MBDWorkbench.solver import from_dict, simulate

    asm, group, (base, pinion, rack), hinge, mesh, refs = build_rack(doc)
    model, obj = _imported(doc, asm, "rack_pinion")
    (j,) = [j for j in model.joints if j.type == "rack_pinion"]
    # (a) swapped as the Assembly does (the rack first); its marker: the pinion JCS's rotation
    # turned about z so that x follows the slide (the rack JCS's z), at the rack JCS
    assert (j.body_i, j.body_j, j.radius) == ("Rack_body", "Pinion_body", R1 * 1e-3)
    (rack_jcs, rack_plc), (pinion_jcs, _) = _jcs_of(asm, mesh, rack), _jcs_of(asm, mesh, pinion)
    _assert_same_placement(obj.Frame2, pinion_jcs)
    _assert_same_placement(obj.Frame, rack_marker(rack_jcs, rack_plc, pinion_jcs))
    markers = _asmt_markers(asm, tmp_path / "rack.asmt")  # the Assembly solver's own markers I and J
    name = "%s#%s" % (doc.Name, mesh.Name)
    np.testing.assert_allclose(_matrix(obj.Frame), markers[("%s#Rack" % doc.Name, name)], atol=1e-9)
    np.testing.assert_allclose(_matrix(obj.Frame2), markers[("%s#Pinion" % doc.Name, name)], atol=1e-9)
    np.testing.assert_allclose(np.array(obj.Frame.Base), np.array(rack_jcs.Base), atol=1e-9)
    x_marker = obj.Frame.Rotation.multVec(App.Vector(1, 0, 0))
    z_marker = obj.Frame.Rotation.multVec(App.Vector(0, 0, 1))
    assert abs(x_marker.dot(rack_jcs.Rotation.multVec(App.Vector(0, 0, 1)))) == pytest.approx(1.0, abs=1e-12)
    assert abs(z_marker.dot(pinion_jcs.Rotation.multVec(App.Vector(0, 0, 1)))) == pytest.approx(1.0, abs=1e-12)
    hinge_name = [k.name for k in model.joints if k.type == "revolute"][0]
    p_before, r_before = App.Placement(pinion.Placement), App.Placement(rack.Placement)

    # (b) the same driven move: the rack's position agrees
    _drive_by_fixed_joint(App, doc, JointObject, asm, group, hinge, refs, 30.0)
    turn = _turn_about_z(p_before, pinion.Placement)
    moved = np.array(rack.Placement.Base - r_before.Base) * 1e-3
    assert abs(moved[0]) == pytest.approx(R1 * 1e-3 * abs(turn), rel=1e-9)  # the Assembly: rack travel = r theta
    res = simulate(_driven(model, hinge_name, turn), t_end=1.0, integrator="rk4", step=1e-3, output_step=0.1)
    np.testing.assert_allclose(res.position("Rack_body")[-1] - res.position("Rack_body")[0], moved, atol=1e-9)

    # (c) torque on the pinion: rack speed = radius x angular speed, alpha = T / (Jp + m r^2)
    T, r = 0.5, R1 * 1e-3
    d = model.to_dict()
    d["forces"] = [{"name": "T", "type": "torque", "body": "Pinion_body", "torque": [0, 0, T]}]
    res = simulate(from_dict(d), t_end=0.5, integrator="rk4", step=1e-3, output_step=0.05)
    mp, mr = RHO * math.pi * r**2 * H * 1e-3, RHO * np.prod(RACK) * 1e-9
    alpha = T / (mp * r**2 / 2 + mr * r**2)
    w = res.angular_velocity("Pinion_body")[:, 2]
    v = res.velocity("Rack_body")[:, 0]
    np.testing.assert_allclose(w, alpha * res.t, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(np.abs(v), r * np.abs(w), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(np.abs(res.coupling_force(j.name)[1:]), mr * r * alpha, rtol=1e-5)


def test_screw_from_assembly(App, doc, JointObject):

    from MBDWorkbench.solver import from_dict, simulate

    asm, group, (base, screw, nut), hinge, thread, refs = build_screw(doc)
    model, obj = _imported(doc, asm, "screw")
    (j,) = [j for j in model.joints if j.type == "screw"]
    # (a) swapped (the nut, sliding, first): Frame = the nut's JCS, Frame2 = the screw's
    assert (j.body_i, j.body_j, j.pitch) == ("Nut_body", "Screw_body", PITCH * 1e-3)
    _assert_same_placement(obj.Frame, _jcs_of(asm, thread, nut)[0])
    _assert_same_placement(obj.Frame2, _jcs_of(asm, thread, screw)[0])
    hinge_name = [k.name for k in model.joints if k.type == "revolute"][0]
    s_before, n_before = App.Placement(screw.Placement), App.Placement(nut.Placement)

    # (b) the same driven move (more than half a turn): the nut's position agrees
    _drive_by_fixed_joint(App, doc, JointObject, asm, group, hinge, refs, 150.0)
    turn = _turn_about_z(s_before, screw.Placement)
    moved = np.array(nut.Placement.Base - n_before.Base) * 1e-3
    assert abs(moved[2]) == pytest.approx(PITCH * 1e-3 * abs(turn) / (2 * math.pi), rel=1e-9)  # the Assembly
    res = simulate(_driven(model, hinge_name, turn), t_end=1.0, integrator="rk4", step=1e-3, output_step=0.1)
    np.testing.assert_allclose(res.position("Nut_body")[-1] - res.position("Nut_body")[0], moved, atol=1e-9)

    # (c) lossless screw: torque T held by the axial force 2 pi T / p on the nut (its direction:
    # against the advance the torque drives, from the move above): nothing moves, thrust = 2 pi T / p
    T = 0.05
    thrust = 2 * math.pi * T / (PITCH * 1e-3)
    advance = math.copysign(1.0, moved[2] * turn)  # sign of dz / dtheta
    d = model.to_dict()
    d["forces"] = [
        {"name": "T", "type": "torque", "body": "Screw_body", "torque": [0, 0, T]},
        {"name": "F", "type": "point_force", "body": "Nut_body", "force": [0, 0, -advance * thrust]},
    ]
    d["gravity"] = [0, 0, 0]
    res = simulate(from_dict(d), t_end=0.2, integrator="rk4", step=1e-3, output_step=0.05)
    assert np.abs(res.velocity("Nut_body")).max() < 1e-9
    assert np.abs(res.angular_velocity("Screw_body")).max() < 1e-9
    np.testing.assert_allclose(np.abs(res.coupling_force(j.name)), thrust, rtol=1e-9)


@pytest.mark.parametrize("name", ["gear_pair", "rack_pinion", "lead_screw"])
def test_example_documents_simulate_headless(App, JointObject, name, tmp_path):
    """examples/make_assembly_couplers_fcstd.py writes the documents; `python3 -m MBDWorkbench
    simulate X.FCStd` runs each headless; the results keep the coupler's relation (its row's
    violation) while the motor turns the driving hinge."""
    import make_assembly_couplers_fcstd as ex

    script = os.path.join(REPO, "examples", "make_assembly_couplers_fcstd.py")
    subprocess.run([sys.executable, script, str(tmp_path)], check=True, stdout=subprocess.PIPE, cwd=REPO)
    doc_path, out = str(tmp_path / (name + ".FCStd")), str(tmp_path / name)
    run = subprocess.run(
        [sys.executable, "-m", "MBDWorkbench", "simulate", doc_path, "--out", out, "--quiet"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert run.returncode == 0, run.stderr
    from MBDWorkbench.cad.document_model import model_from_document_file
    from MBDWorkbench.solver import simulate

    model = model_from_document_file(doc_path)
    assert {j.type for j in model.joints} & {"gear", "rack_pinion", "screw"}
    res = simulate(model)
    rate = math.radians(ex.EXAMPLES[name][1])
    (motor,) = model.drivers
    hinge = [j for j in model.joints if j.name == motor.joint][0]
    np.testing.assert_allclose(np.abs(res.angular_velocity(hinge.body_j)[:, 2]), rate, rtol=1e-6)
    if name == "gear_pair":  # the other gear turns R1 / R2 as fast, the other way
        np.testing.assert_allclose(
            res.angular_velocity("G2_body")[:, 2], -R1 / R2 * res.angular_velocity("G1_body")[:, 2], rtol=1e-6
        )
    elif name == "rack_pinion":
        np.testing.assert_allclose(np.abs(res.velocity("Rack_body")[:, 0]), R1 * 1e-3 * rate, rtol=1e-6)
    else:
        np.testing.assert_allclose(
            np.abs(res.velocity("Nut_body")[:, 2]), PITCH * 1e-3 / (2 * math.pi) * rate, rtol=1e-6
        )


@pytest.mark.parametrize("name", ["gear_pair", "rack_pinion", "lead_screw"])
def test_committed_example_documents_simulate(App, name, tmp_path):
    """The committed documents (made by the script in FreeCAD 1.0) also load and simulate where
    the Assembly workbench is missing: their bodies, joints and motor are Multibody objects."""
    run = subprocess.run(
        [sys.executable, "-m", "MBDWorkbench", "simulate", os.path.join(REPO, "examples", name + ".FCStd")]
        + ["--out", str(tmp_path / name), "--quiet"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert run.returncode == 0, run.stderr


def test_gear_joint_from_picks_without_assembly(App, doc):
    """The workbench's own path (any FreeCAD): a gear joint picked on the two discs' circular
    edges (Frame from the first pick, Frame2 from the second), radii set on the object, two
    revolutes to the ground; the model's frames are the circle centres in each body, and a
    torque on gear 1 gives the speed ratio -R1/R2."""
    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.makers import make_force, make_simulation
    from MBDWorkbench.cad.picking import make_joint_from_picks
    from MBDWorkbench.solver import simulate

    make_simulation(doc, EndTimeMilliseconds=300, OutputStepMicroseconds=50000, StepMicroseconds=1000, Integrator="rk4")
    g1, g2 = (doc.addObject("Part::Cylinder", n) for n in ("G1", "G2"))
    g1.Radius, g2.Radius, g1.Height, g2.Height = R1, R2, H, H
    g2.Placement = App.Placement(App.Vector(R1 + R2, 0, 0), App.Rotation())
    doc.recompute()
    edge = {g: _circle_edge(g) for g in (g1, g2)}
    for g in (g1, g2):
        make_joint_from_picks(doc, "revolute", [(g, edge[g])], label="Hinge" + g.Name)
    mesh = make_joint_from_picks(doc, "gear", [(g1, edge[g1]), (g2, edge[g2])], label="Mesh")
    mesh.Radius1, mesh.Radius2 = R1, R2
    make_force(doc, _body(doc, g1), ("0", "0", "200"), kind="torque")  # [N mm]
    doc.recompute()
    model = model_from_document(doc)
    (j,) = [j for j in model.joints if j.type == "gear"]
    for side, g in (("i", g1), ("j", g2)):
        body = model.body(getattr(j, "body_" + side))
        centre = np.array(g.Placement.Base) * 1e-3
        origin = np.asarray(body.position) + getattr(j, "frame_" + side).origin  # bodies keep their axes
        np.testing.assert_allclose(origin, centre, atol=1e-12)
    d = model.to_dict()
    d["gravity"] = [0, 0, 0]
    from MBDWorkbench.solver import from_dict

    res = simulate(from_dict(d))
    w1, w2 = res.angular_velocity(j.body_i)[:, 2], res.angular_velocity(j.body_j)[:, 2]
    assert w1[-1] > 0
    np.testing.assert_allclose(w2, -R1 / R2 * w1, rtol=1e-6, atol=1e-12)


def _circle_edge(part):
    """'EdgeN' of a cylinder's circle at its base (z = 0 in its own axes)."""
    for k, e in enumerate(part.Shape.Edges, 1):
        if e.Curve.TypeId == "Part::GeomCircle" and abs(part.Placement.inverse().multVec(e.Curve.Location).z) < 1e-9:
            return "Edge%d" % k
    raise AssertionError(part.Label)


def _body(doc, part):
    from MBDWorkbench.cad.objects import body_of_part

    return body_of_part(doc, part)
