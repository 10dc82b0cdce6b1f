"""FreeCAD 1.1 Assembly motions imported as drivers (cad/assembly_motions.py).

Debian ships no FreeCAD 1.1, so the motions and the simulation are stand-ins:
App::FeaturePython objects with exactly the properties of upstream's
``src/Mod/Assembly/CommandCreateSimulation.py`` (FreeCAD/FreeCAD commit
0019ab1c95c53c4672c67adb552050391e794ce7): ``Motion`` has ``Joint`` (XLinkSubHidden; XLinkSub
on 0.20, which lacks it), ``MotionType`` (Angular, Linear) and ``Formula``; ``Simulation`` is a
group (GroupExtensionPython) of motions with ``aTimeStart``, ``bTimeEnd``, ``cTimeStepOutput``
(PropertyTime; a float on 0.20) and ``fGlobalErrorTolerance``, ``jFramesPerSecond``. Their
joints are stand-ins of 1.0's JointObject (JointType, Reference1/2, Placement1/2 as global JCS
for the test's resolver). Formula semantics follow AssemblyObject.cpp (same commit): radians
and millimetres of JCS2 in JCS1, ``initialValue`` replaced by the current value, absolute time
from aTimeStart, parsed by OndselSolver's SymbolicParser.
"""

import math

import numpy as np
import pytest

from MBDWorkbench.cad.assembly_motions import (
    FormulaError,
    driver_expression,
    emit,
    evaluate,
    parse_formula,
    substitute_initial_value,
)


def ours(text):
    """Our compiled expression of ``text`` as a function of t."""
    from MBDWorkbench.solver.model.expressions import compile_expression

    prog = compile_expression(text, "test")
    return lambda t: prog(t)[0]


@pytest.mark.parametrize(
    "formula, closed_form",
    [
        ("10*time", lambda t: 10 * t),
        ("-2^2 + time", lambda t: -4 + t),  # the sign applies to the power (a term of the sum)
        ("2*-3^2*time", lambda t: 18 * t),  # a sign glued to a number is part of it: (-3)^2
        ("time^2^0.5", lambda t: t ** (2**0.5)),  # right-associative
        ("1/2*time - 3/4/time", lambda t: t / 2 - 0.75 / t),
        ("2 - -3*time", lambda t: 2 + 3 * t),
        ("0.5 + 2*sin(pi*time - 1)", lambda t: 0.5 + 2 * math.sin(math.pi * t - 1)),
        (
            "(1/pi)*(arctan(1000*(time - 0.5)) - arctan(1000*(time - 1.5)))",
            lambda t: (math.atan(1000 * (t - 0.5)) - math.atan(1000 * (t - 1.5))) / math.pi,
        ),
        (
            "abs(cos(time)) + arcsin(time/4) + asin(0.1) + 2*exp(time/3)",
            lambda t: abs(math.cos(t)) + math.asin(t / 4) + math.asin(0.1) + 2 * math.exp(t / 3),
        ),
        ("1.5e-1*time + 2d1", lambda t: 0.15 * t + 20),
    ],
)
def test_ondsel_grammar_is_translated_exactly(formula, closed_form):
    node = parse_formula(formula)
    f = ours(emit(node))
    for t in (0.3, 0.7, 1.9):
        assert evaluate(node, t) == pytest.approx(closed_form(t), rel=1e-12, abs=1e-12)
        assert f(t) == pytest.approx(closed_form(t), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize(
    "formula, reason",
    [
        ("spline(time)", "spline\\(\\) has no equivalent"),
        ("time*-time", "unexpected '-'"),  # OndselSolver signs only numbers after * / ^
        ("omega*time", "unknown name 'omega'"),
        ("tan(time)", "unknown name 'tan'"),
        ("sin(time, 2)", "2 arguments"),
        ("sin(time", "expected '\\)'"),
        ("2*time)", "unexpected '\\)'"),
    ],
)
def test_untranslatable_formulas_say_why(formula, reason):
    with pytest.raises(FormulaError, match=reason):
        parse_formula(formula)


def test_formula_without_a_start_value_is_refused():
    with pytest.raises(FormulaError, match="no finite value at the start time 0 s"):
        driver_expression("1/time", "Angular", (0.0, 0.0, 0.0))
    with pytest.raises(FormulaError, match="no finite value"):
        driver_expression("(time - 1)^0.5", "Linear", (0.0, 0.0, 0.0))


def test_initial_value_is_printed_as_freecad_does():
    """AssemblyObject's replaceInitialValue: ostream precision 10 (%.10g), every occurrence."""
    assert (
        substitute_initial_value("initialValue + initialValue*time", math.pi / 6) == "0.5235987756 + 0.5235987756*time"
    )


def test_units_and_offsets():
    """Radians -> degrees, counted from where the parts are (FreeCAD's angle 30 deg there)."""
    q0 = (math.radians(30.0), 0.0, 0.0)
    expr, start = driver_expression("initialValue + pi/18*time", "Angular", q0)  # 10 deg/s from here
    assert start == pytest.approx(0.0, abs=1e-8) and expr == "180/pi*(pi/18*t)"  # initialValue + ... dropped
    f = ours(expr)
    for t in (0.0, 0.5, 2.0):
        assert f(t) == pytest.approx(10.0 * t, abs=1e-8)
    expr, start = driver_expression("pi/18*time", "Angular", q0)  # absolute: FreeCAD's angle 10 t deg
    assert start == pytest.approx(-30.0) and ours(expr)(2.0) == pytest.approx(20.0 - 30.0)
    # the nearest turn: from -170 deg to FreeCAD's 180 deg is a move of -10 deg, not 350 deg
    expr, start = driver_expression("pi + 0*time", "Angular", (math.radians(-170.0), 0.0, 0.0))
    assert start == pytest.approx(-10.0) and ours(expr)(1.0) == pytest.approx(-10.0)
    # FreeCAD replaces the text: a negative initialValue^2 is -(v^2) (the sign is a term's)
    expr, start = driver_expression("initialValue^2 + 0*time", "Angular", (-0.5, 0.0, 0.0))
    assert ours(expr)(0.0) == pytest.approx(
        math.degrees(-0.25 + 0.5) - 360.0 * round((-0.25 + 0.5) * 180 / math.pi / 360)
    )
    assert driver_expression("initialValue + 0*time", "Angular", (-2.9670597283903604, 0.0, 0.0))[0] == "180/pi*(0*t)"
    # linear [mm], counted from the z offset 12 mm; initialValue is FreeCAD's signed distance
    # (here 13 mm: the origins are 5 mm apart across the axis); time from aTimeStart = 0.5 s
    expr, start = driver_expression("initialValue + 5*sin(2*pi*time)", "Linear", (0.0, 13.0, 12.0), t0=0.5)
    assert start == pytest.approx(1.0)
    for t in (0.0, 0.1, 0.35):
        assert ours(expr)(t) == pytest.approx(1.0 + 5.0 * math.sin(2 * math.pi * (t + 0.5)), abs=1e-9)


# ----------------------------------------------------------------------------- stand-ins
def _add(obj, ptypes, name):
    """Add ``name`` with the first property type this FreeCAD knows (1.1's type first)."""
    for ptype in ptypes:
        try:
            obj.addProperty(ptype, name, "Motion")
            return
        except Exception:  # 0.20 lacks XLinkSubHidden and PropertyTime
            continue
    raise AssertionError("no property type for %s" % name)


def stand_in_joint(doc, name, jtype, part1, jcs1, part2, jcs2):
    """A 1.0 JointObject stand-in; Placement1/2 hold the global JCS (see resolve)."""
    j = doc.addObject("App::FeaturePython", name)
    for ptype, prop in (
        ("App::PropertyString", "JointType"),
        ("App::PropertyXLinkSub", "Reference1"),
        ("App::PropertyXLinkSub", "Reference2"),
        ("App::PropertyPlacement", "Placement1"),
        ("App::PropertyPlacement", "Placement2"),
        ("App::PropertyBool", "Activated"),
    ):
        j.addProperty(ptype, prop, "Joint")
    j.JointType, j.Activated = jtype, True
    j.Reference1, j.Reference2 = (part1, ["Face1"]), (part2, ["Face1"])
    j.Placement1, j.Placement2 = jcs1, jcs2
    return j


def stand_in_motion(doc, joint, motion_type, formula):
    """CommandCreateSimulation.Motion's properties."""
    m = doc.addObject("App::FeaturePython", "Motion")
    _add(m, ("App::PropertyXLinkSubHidden", "App::PropertyXLinkSub"), "Joint")
    _add(m, ("App::PropertyEnumeration",), "MotionType")
    _add(m, ("App::PropertyString",), "Formula")
    m.MotionType = ["Angular", "Linear"]
    m.MotionType, m.Joint, m.Formula = motion_type, (joint, [""]), formula
    m.Label = "%s (%s)" % (joint.Label, motion_type)
    return m


def stand_in_simulation(doc, motions, start=0.0, end=1.0, step=0.01):
    """CommandCreateSimulation.Simulation's properties (a group of motions)."""
    s = doc.addObject("App::FeaturePython", "AsmSimulation")
    s.addExtension("App::GroupExtensionPython")
    for name in ("aTimeStart", "bTimeEnd", "cTimeStepOutput"):
        _add(s, ("App::PropertyTime", "App::PropertyFloat"), name)
    _add(s, ("App::PropertyFloat",), "fGlobalErrorTolerance")
    _add(s, ("App::PropertyInteger",), "jFramesPerSecond")
    s.aTimeStart, s.bTimeEnd, s.cTimeStepOutput, s.fGlobalErrorTolerance, s.jFramesPerSecond = (
        start,
        end,
        step,
        1e-6,
        30,
    )
    s.Group = motions
    return s


class FakeAssembly:
    def __init__(self, label, objects):
        self.Label, self.OutListRecursive = label, objects


def resolve(ref, placement):
    """(moving part, global JCS, element kind): the stand-ins' Placement1/2 are global."""
    return ref[0], placement, "planar face"


def build(App, doc):
    """A grounded, B on a Revolute about global z at (10, 0, 0) with FreeCAD's angle 30 deg
    where the parts are, C on a Slider along global x 7 mm along its axis."""
    a, b, c = (doc.addObject("Part::Box", n) for n in "ABC")
    b.Placement.Base, c.Placement.Base = App.Vector(20, 0, 0), App.Vector(0, 40, 0)
    doc.recompute()
    hinge = stand_in_joint(
        doc,
        "Revolute",
        "Revolute",
        a,
        App.Placement(App.Vector(10, 0, 0), App.Rotation()),
        b,
        App.Placement(App.Vector(10, 0, 0), App.Rotation(App.Vector(0, 0, 1), 30)),
    )
    along_x = App.Rotation(App.Vector(0, 1, 0), 90)  # z -> global x
    slider = stand_in_joint(
        doc,
        "Slider",
        "Slider",
        a,
        App.Placement(App.Vector(0, 40, 0), along_x),
        c,
        App.Placement(App.Vector(7, 40, 0), along_x),
    )
    ground = type("Ground", (), {"ObjectToGround": a, "Label": "GroundedJoint"})()
    return a, b, c, hinge, slider, ground


def test_motions_become_drivers_and_move_the_joints_as_freecad(App, doc):
    """A revolute motion 'pi/18*time' (FreeCAD's angle 10 t deg, absolute: B first turns from
    30 deg to 0) and a slider motion 'initialValue + 5*sin(2*pi*time)' [mm]: B turns by
    10 t - 30 deg about z from where it is, C slides 5 sin(2 pi t) mm along x (closed forms,
    measured on the bodies' poses)."""
    from MBDWorkbench.cad.assembly_import import import_assembly, imported_joints
    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.objects import find_objects
    from MBDWorkbench.solver import simulate
    from MBDWorkbench.solver.numerics import quaternion

    a, b, c, hinge, slider, ground = build(App, doc)
    turn = stand_in_motion(doc, hinge, "Angular", "pi/18*time")
    push = stand_in_motion(doc, slider, "Linear", "initialValue + 5*sin(2*pi*time)")
    sim = stand_in_simulation(doc, [turn, push], end=0.6, step=0.05)
    asm = FakeAssembly("Assembly", [hinge, slider, ground, sim, turn, push])
    report = import_assembly(doc, asm, resolve=resolve)
    drivers = {d.AssemblyMotion: d for d in find_objects(doc, "Driver")}
    assert report.unsupported == [] and report.drivers == [drivers[turn.Name].Label, drivers[push.Name].Label]
    assert any("-30 deg away" in n for n in report.notes)  # the start move is reported
    joints = imported_joints(doc)  # ours, by the Assembly joint's Name
    assert drivers[turn.Name].Joint == joints[hinge.Name] and drivers[turn.Name].DriverType == "rotational"
    assert drivers[push.Name].Joint == joints[slider.Name] and drivers[push.Name].DriverType == "linear"
    assert {d.Profile for d in drivers.values()} == {"expression"}
    our_sim = find_objects(doc, "Simulation")[0]  # made by the import: FreeCAD's time settings
    assert our_sim.EndTimeMilliseconds == 600 and our_sim.OutputStepMicroseconds == 50000

    model = model_from_document(doc)
    res = simulate(model)
    t = res.t
    init = {bd.name: bd for bd in model.bodies}
    R = res.rotation("B_body") @ quaternion.matrix(init["B_body"].orientation).T
    turned = np.degrees(np.arctan2(R[:, 1, 0] - R[:, 0, 1], R[:, 0, 0] + R[:, 1, 1]))
    np.testing.assert_allclose(turned, 10.0 * t - 30.0, atol=1e-6)
    np.testing.assert_allclose(R[:, 2, 2], 1.0, atol=1e-9)  # about z only
    moved = (res.position("C_body") - np.array(init["C_body"].position)) * 1e3  # [mm]
    np.testing.assert_allclose(moved[:, 0], 5.0 * np.sin(2 * np.pi * t), atol=1e-6)
    np.testing.assert_allclose(moved[:, 1:], 0.0, atol=1e-6)


def test_untranslatable_motion_is_reported_and_reimport_updates(App, doc):
    """A formula we cannot translate stays in the report with its reason; a second import
    updates the driver (matched by the motion's Name) instead of adding one."""
    from MBDWorkbench.cad.assembly_import import import_assembly
    from MBDWorkbench.cad.objects import find_objects

    a, b, c, hinge, slider, ground = build(App, doc)
    turn = stand_in_motion(doc, hinge, "Angular", "initialValue + 2*time")
    odd = stand_in_motion(doc, slider, "Linear", "spline(time)")
    sim = stand_in_simulation(doc, [turn, odd], start=0.25)
    asm = FakeAssembly("Assembly", [hinge, slider, ground, sim, turn, odd])
    report = import_assembly(doc, asm, resolve=resolve)
    assert report.drivers == [find_objects(doc, "Driver")[0].Label]
    ((label, why),) = report.unsupported
    assert label == odd.Label and "spline(time)" in why and "no equivalent" in why
    assert "(t + 0.25)" in find_objects(doc, "Driver")[0].Expression  # aTimeStart
    assert "Not imported (1)" in report.text() and "Drivers from the Assembly's motions" in report.text()

    turn.Formula, odd.Formula = "initialValue + 3*time", "initialValue - 4*time"
    again = import_assembly(doc, asm, resolve=resolve)
    drivers = find_objects(doc, "Driver")
    by_motion = {d.AssemblyMotion: d for d in drivers}
    assert len(drivers) == 2 and again.unsupported == [] and by_motion[turn.Name].Label in again.updated
    # FreeCAD's time is ours + aTimeStart: at our t = 1 s, 3*1.25 rad and -4*1.25 mm from here
    assert ours(by_motion[turn.Name].Expression)(1.0) == pytest.approx(math.degrees(3.0 * 1.25), abs=1e-6)
    assert ours(by_motion[odd.Name].Expression)(1.0) == pytest.approx(-5.0, abs=1e-9)
    assert len(find_objects(doc, "Joint")) == 2


def test_motion_on_a_joint_not_imported_or_twice(App, doc):
    from MBDWorkbench.cad.assembly_import import import_assembly
    from MBDWorkbench.cad.objects import find_objects

    a, b, c, hinge, slider, ground = build(App, doc)
    hinge.Activated = False
    m1 = stand_in_motion(doc, hinge, "Angular", "time")
    m2 = stand_in_motion(doc, slider, "Linear", "initialValue + time")
    m3 = stand_in_motion(doc, slider, "Linear", "initialValue - time")
    m4 = stand_in_motion(doc, slider, "Angular", "time")  # FreeCAD's dialog offers Linear only
    m5 = stand_in_motion(doc, slider, "Linear", "initialValue + 2*time")
    for k, m in enumerate((m1, m2, m3, m4, m5), 1):
        m.Label = "M%d" % k
    first = stand_in_simulation(doc, [m1, m2, m3, m4])
    other = stand_in_simulation(doc, [m5])  # FreeCAD runs one simulation at a time
    asm = FakeAssembly("Assembly", [hinge, slider, ground, first, other, m1, m2, m3, m4, m5])
    report = import_assembly(doc, asm, resolve=resolve)
    why = dict(report.unsupported)
    assert report.drivers == [find_objects(doc, "Driver")[0].Label]
    assert "its joint '%s' was not imported" % hinge.Label in why[m1.Label]
    assert "already has a Linear motion" in why[m3.Label]
    assert "a rotational driver needs a revolute or cylindrical joint" in why[m4.Label]
    assert (
        "in simulation '%s'; the motions of simulation '%s' are imported" % (other.Label, first.Label) in why[m5.Label]
    )


def angle_about(R, n):
    """Signed angles [deg] of rotations R (K, 3, 3) about the unit axis n."""
    vee = np.stack([R[:, 2, 1] - R[:, 1, 2], R[:, 0, 2] - R[:, 2, 0], R[:, 1, 0] - R[:, 0, 1]], axis=1) / 2
    return np.degrees(np.arctan2(vee @ n, (np.einsum("kii->k", R) - 1) / 2))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # PySide2 on Python 3.13
def test_real_assembly_motion_drives_the_imported_revolute(App, doc, JointObject):
    """FreeCAD 1.0's own Assembly (A grounded, Revolute A-B made by JointObject, solved by the
    Assembly) with a 1.1 Motion and Simulation stand-in, made as upstream's createMotionObject
    does (assembly.newObject, then the simulation's Group): the absolute formula 'pi/18*time'
    turns B about the JCS1 z axis by 10 t deg minus FreeCAD's angle where B is (B turned 25 deg
    about the hinge after the Assembly's solve; measured here from UtilsAssembly's global JCS)."""
    import UtilsAssembly

    from MBDWorkbench.cad.assembly_import import import_assembly
    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.solver import simulate
    from MBDWorkbench.solver.numerics import quaternion

    asm = doc.addObject("Assembly::AssemblyObject", "Assembly")
    asm.Type = "Assembly"
    joints = asm.newObject("Assembly::JointGroup", "Joints")
    a, b = asm.newObject("Part::Box", "A"), asm.newObject("Part::Box", "B")
    b.Length = 100.0
    b.Placement = App.Placement(App.Vector(40, 30, 0), App.Rotation(App.Vector(0, 0, 1), 20))
    doc.recompute()
    JointObject.GroundedJoint(joints.newObject("App::FeaturePython", "GroundedJoint"), a)
    hinge = joints.newObject("App::FeaturePython", "Joint")
    JointObject.Joint(hinge, JointObject.JointTypes.index("Revolute"))
    hinge.Proxy.setJointConnectors(hinge, [[asm, ["A.Face6", "A.Vertex8"]], [asm, ["B.Face5", "B.Vertex2"]]])
    doc.recompute()  # the Assembly solves: B's JCS onto A's (FreeCAD's angle 0)
    axis = UtilsAssembly.getJcsGlobalPlc(hinge.Placement1, hinge.Reference1)
    turn = App.Rotation(axis.Rotation.multVec(App.Vector(0, 0, 1)), 25)
    b.Placement = App.Placement(axis.Base - turn.multVec(axis.Base), turn).multiply(b.Placement)  # 25 deg on
    motion = asm.newObject("App::FeaturePython", "Motion")
    _add(motion, ("App::PropertyXLinkSubHidden",), "Joint")
    _add(motion, ("App::PropertyEnumeration",), "MotionType")
    _add(motion, ("App::PropertyString",), "Formula")
    motion.MotionType = ["Angular", "Linear"]
    motion.MotionType, motion.Joint, motion.Formula = "Angular", hinge, "pi/18*time"
    sim = stand_in_simulation(doc, [motion], end=0.5, step=0.05)
    asm.addObject(sim)

    report = import_assembly(doc, asm)
    assert report.unsupported == [] and len(report.drivers) == 1
    jcs1, jcs2 = (
        UtilsAssembly.getJcsGlobalPlc(hinge.getPropertyByName(p), hinge.getPropertyByName(r))
        for p, r in (("Placement1", "Reference1"), ("Placement2", "Reference2"))
    )
    m1, m2 = (np.array(p.Rotation.toMatrix().A).reshape(4, 4)[:3, :3] for p in (jcs1, jcs2))
    q0 = math.degrees(math.atan2(m1[:, 1] @ m2[:, 0], m1[:, 0] @ m2[:, 0]))  # JCS2's x about JCS1's z
    assert q0 == pytest.approx(25.0)  # B is not at FreeCAD's angle 0: the run first turns it back
    model = model_from_document(doc)
    res = simulate(model)
    body = model.body("B_body")
    turned = angle_about(res.rotation("B_body") @ quaternion.matrix(body.orientation).T, m1[:, 2])
    np.testing.assert_allclose(turned, 10.0 * res.t - q0, atol=1e-6)
