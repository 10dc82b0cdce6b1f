#!/usr/bin/python3
"""Build FreeCAD 1.x Assembly examples with coupler joints (needs FreeCAD 1.0+, its Assembly
workbench), imported into a Multibody Dynamics simulation with a motor on the driving hinge:

- examples/gear_pair.FCStd: two steel discs (pitch radii 50 and 20 mm) on Revolutes to a
  grounded base, coupled by a Gears joint; the motor turns the large gear at 90 deg/s;
- examples/rack_pinion.FCStd: a pinion (radius 50 mm) on a Revolute, a rack on a Slider,
  coupled by a RackPinion joint; the motor turns the pinion at 90 deg/s;
- examples/lead_screw.FCStd: a screw on a Revolute, a nut on a Slider along it, coupled by a
  Screw joint (pitch 4 mm); the motor turns the screw at 360 deg/s.

    /usr/bin/python3 examples/make_assembly_couplers_fcstd.py [OUT_FOLDER]
    /usr/bin/python3 -m MBDWorkbench simulate examples/gear_pair.FCStd

The builders are also used by tests/cad/test_assembly_couplers_freecad.py.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

R1, R2, H = 50.0, 20.0, 10.0  # gear pitch radii and thickness [mm]
RACK = (200.0, 20.0, 10.0)  # rack bar [mm]
PITCH = 4.0  # screw pitch [mm per turn]


def _vertex(part, local_mm):
    """'Name.VertexN' of the part's vertex at a point given in the part's own axes [mm]."""
    import FreeCAD as App

    p = part.Placement.multVec(App.Vector(*local_mm))
    for k, v in enumerate(part.Shape.Vertexes, 1):
        if (v.Point - p).Length < 1e-9:
            return "%s.Vertex%d" % (part.Name, k)
    raise AssertionError("no vertex of %s at %s" % (part.Label, local_mm))


def _circle(part, z_local):
    """'Name.EdgeN' of the part's circular edge at height z_local [mm] in its own axes."""
    for k, e in enumerate(part.Shape.Edges, 1):
        if e.Curve.TypeId == "Part::GeomCircle":
            c = part.Placement.inverse().multVec(e.Curve.Location)
            if abs(c.z - z_local) < 1e-9:
                return "%s.Edge%d" % (part.Name, k)
    raise AssertionError("no circle of %s at z = %s" % (part.Label, z_local))


def _face(part, normal_local, point_local):
    """'Name.FaceN' of the part's planar face through a point with a normal (own axes)."""
    import FreeCAD as App

    n = part.Placement.Rotation.multVec(App.Vector(*normal_local))
    p = part.Placement.multVec(App.Vector(*point_local))
    for k, f in enumerate(part.Shape.Faces, 1):
        if f.Surface.TypeId == "Part::GeomPlane" and abs(f.normalAt(0, 0).dot(n) - 1) < 1e-12:
            if abs((p - f.CenterOfGravity).dot(n)) < 1e-9:
                return "%s.Face%d" % (part.Name, k)
    raise AssertionError("no face of %s with normal %s" % (part.Label, normal_local))


def _joint(group, asm, jtype, refs, label, **values):
    import JointObject

    obj = group.newObject("App::FeaturePython", "Joint")
    JointObject.Joint(obj, JointObject.JointTypes.index(jtype))
    obj.Label = label
    for k, v in values.items():
        setattr(obj, k, v)
    obj.Proxy.setJointConnectors(obj, [[asm, list(r)] for r in refs])
    return obj


def _assembly(doc):
    asm = doc.addObject("Assembly::AssemblyObject", "Assembly")
    asm.Type = "Assembly"
    return asm, asm.newObject("Assembly::JointGroup", "Joints")


def _cylinder(asm, name, radius, position):
    import FreeCAD as App

    c = asm.newObject("Part::Cylinder", name)
    c.Radius, c.Height = radius, H
    c.Placement = App.Placement(App.Vector(*position), App.Rotation())
    return c


def build_gears(doc, jtype="Gears"):
    """A grounded base, two discs on revolutes at its corners (0, 0, H) and (R1 + R2, 0, H), and a
    Gears (or Belt) joint between the discs' bottom circles."""
    import JointObject

    asm, joints = _assembly(doc)
    base = asm.newObject("Part::Box", "Base")
    base.Length, base.Width, base.Height = R1 + R2, 20.0, H
    g1 = _cylinder(asm, "G1", R1, (0, 0, H))
    g2 = _cylinder(asm, "G2", R2, (R1 + R2, 0, H))
    doc.recompute()
    JointObject.GroundedJoint(joints.newObject("App::FeaturePython", "GroundedJoint"), base)
    c1, c2 = _circle(g1, 0.0), _circle(g2, 0.0)
    v1, v2 = _vertex(base, (0, 0, H)), _vertex(base, (R1 + R2, 0, H))
    hinge1 = _joint(joints, asm, "Revolute", [(v1, v1), (c1, c1)], "Hinge1")
    _joint(joints, asm, "Revolute", [(v2, v2), (c2, c2)], "Hinge2")
    mesh = _joint(joints, asm, jtype, [(c1, c1), (c2, c2)], "Mesh", Distance=R1, Distance2=R2)
    doc.recompute()
    asm.solve()
    return asm, joints, (base, g1, g2), hinge1, mesh, (v1, c1)


def build_rack(doc):
    """A grounded base (200 x 80 x H mm), a pinion on a revolute at its corner (0, 80, H), a rack
    on a Slider along x, and a RackPinion given pinion first (the Assembly swaps it: the sliding
    part is the rack, marker I)."""
    import FreeCAD as App
    import JointObject

    asm, joints = _assembly(doc)
    base = asm.newObject("Part::Box", "Base")
    base.Length, base.Width, base.Height = 200.0, 80.0, H
    pinion = _cylinder(asm, "Pinion", R1, (0, 80.0, H))
    rack = asm.newObject("Part::Box", "Rack")
    rack.Length, rack.Width, rack.Height = RACK
    rack.Placement = App.Placement(App.Vector(0, 0, H), App.Rotation())
    doc.recompute()
    JointObject.GroundedJoint(joints.newObject("App::FeaturePython", "GroundedJoint"), base)
    c = _circle(pinion, 0.0)
    v = _vertex(base, (0, 80.0, H))
    hinge = _joint(joints, asm, "Revolute", [(v, v), (c, c)], "Hinge")
    end_base, end_rack = _face(base, (1, 0, 0), (200.0, 0, 0)), _face(rack, (1, 0, 0), (RACK[0], 0, 0))
    slide_refs = [(end_base, _vertex(base, (200.0, 0, H))), (end_rack, _vertex(rack, (RACK[0], 0, 0)))]
    _joint(joints, asm, "Slider", slide_refs, "Slide")
    mesh = _joint(joints, asm, "RackPinion", [(c, c), slide_refs[1]], "Mesh", Distance=R1)
    doc.recompute()
    asm.solve()
    return asm, joints, (base, pinion, rack), hinge, mesh, (v, c)


def build_screw(doc):
    """A grounded base, a screw (cylinder) on a revolute at its corner (0, 0, H), a nut (box)
    on a Slider along z, and a Screw joint given screw first (swapped by the Assembly)."""
    import FreeCAD as App
    import JointObject

    asm, joints = _assembly(doc)
    base = asm.newObject("Part::Box", "Base")
    base.Length, base.Width, base.Height = 100.0, 40.0, H
    screw = _cylinder(asm, "Screw", 10.0, (0, 0, H))
    nut = asm.newObject("Part::Box", "Nut")
    nut.Length = nut.Width = 20.0
    nut.Height = H
    nut.Placement = App.Placement(App.Vector(80.0, 0, H), App.Rotation())
    doc.recompute()
    JointObject.GroundedJoint(joints.newObject("App::FeaturePython", "GroundedJoint"), base)
    c = _circle(screw, 0.0)
    v = _vertex(base, (0, 0, H))
    hinge = _joint(joints, asm, "Revolute", [(v, v), (c, c)], "Hinge")
    top_base, top_nut = _face(base, (0, 0, 1), (0, 0, H)), _face(nut, (0, 0, 1), (0, 0, H))
    slide_refs = [(top_base, _vertex(base, (100.0, 0, H))), (top_nut, _vertex(nut, (20.0, 0, H)))]
    _joint(joints, asm, "Slider", slide_refs, "Guide")
    thread = _joint(joints, asm, "Screw", [(c, c), slide_refs[1]], "Thread", Distance=PITCH)
    doc.recompute()
    asm.solve()
    return asm, joints, (base, screw, nut), hinge, thread, (v, c)


def simulation_document(build, rate_deg_s, end_time):
    """build(doc) -> a function filling a document: the Assembly, its import into a Simulation
    (end time ``end_time`` s) and a constant-speed motor (``rate_deg_s``) on the driving hinge."""

    def fill(doc):
        from MBDWorkbench.cad.assembly_import import import_assembly
        from MBDWorkbench.cad.makers import make_driver, make_simulation
        from MBDWorkbench.cad.objects import body_of_part, find_objects

        asm, _, parts, _, _, _ = build(doc)
        sim = make_simulation(
            doc,
            EndTimeMilliseconds=round(end_time * 1000),
            OutputStepMicroseconds=10000,
            StepMicroseconds=1000,
            Integrator="rk4",
        )
        report = import_assembly(doc, asm, simulation=sim)
        assert not report.unsupported, report.text()
        driven = body_of_part(doc, parts[1])  # the part on the driving hinge
        (joint,) = [j for j in find_objects(doc, "Joint") if j.JointType == "revolute" and j.Body2 == driven]
        make_driver(doc, joint, "constant_speed", label="Motor", simulation=sim, Rate=rate_deg_s)
        doc.recompute()

    return fill


EXAMPLES = {
    "gear_pair": (build_gears, 90.0, 2.0),
    "rack_pinion": (build_rack, 90.0, 1.0),
    "lead_screw": (build_screw, 360.0, 2.0),
}


def main(folder=None):
    from MBDWorkbench.cad.freecad_env import write_document

    for name, (build, rate, end) in EXAMPLES.items():
        write_document(name, simulation_document(build, rate, end), os.path.join(folder or HERE, name + ".FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
