"""Helpers of the FreeCAD 1.x Assembly example generators (make_assembly_*_fcstd.py): an
Assembly built through the Assembly workbench's own Python API, as its commands do."""


def new_assembly(doc, name="Assembly"):
    """(assembly, joint group) of a new Assembly in ``doc``."""
    asm = doc.addObject("Assembly::AssemblyObject", name)
    asm.Type = "Assembly"  # as CommandCreateAssembly
    return asm, asm.newObject("Assembly::JointGroup", "Joints")


def ground(joints, part):
    """Ground ``part`` (a GroundedJoint)."""
    import JointObject

    obj = joints.newObject("App::FeaturePython", "GroundedJoint")
    JointObject.GroundedJoint(obj, part)
    return obj


def joint(asm, joints, jtype, ref1, ref2, label, **props):
    """An Assembly joint of ``jtype`` ('Revolute', 'Ball', ...) between the element lists
    ``ref1`` = (part, [element, ...]) and ``ref2``; ``props`` (e.g. Distance) set first."""
    import JointObject

    obj = joints.newObject("App::FeaturePython", "Joint")
    JointObject.Joint(obj, JointObject.JointTypes.index(jtype))
    obj.Label = label
    for key, value in props.items():
        setattr(obj, key, value)
    refs = [[asm, ["%s.%s" % (part.Name, e) for e in elements]] for part, elements in (ref1, ref2)]
    obj.Proxy.setJointConnectors(obj, refs)
    return obj


def vertex(part, point_mm):
    """Name of the vertex of ``part`` at a global point [mm]."""
    import FreeCAD as App

    for k, v in enumerate(part.Shape.Vertexes, 1):
        if (v.Point - App.Vector(*point_mm)).Length < 1e-6:
            return "Vertex%d" % k
    raise ValueError("no vertex of %s at %s" % (part.Label, point_mm))


def circle(part, center_mm):
    """Name of a circular edge of ``part`` centred at a global point [mm]."""
    import FreeCAD as App

    for k, e in enumerate(part.Shape.Edges, 1):
        c = getattr(e.Curve, "Center", None)
        if type(e.Curve).__name__ == "Circle" and (c - App.Vector(*center_mm)).Length < 1e-6:
            return "Edge%d" % k
    raise ValueError("no circular edge of %s centred at %s" % (part.Label, center_mm))


def face(part, normal, point_mm):
    """Name of the planar face of ``part`` with outward ``normal`` through a global point [mm]."""
    import FreeCAD as App

    n, p = App.Vector(*normal), App.Vector(*point_mm)
    for k, f in enumerate(part.Shape.Faces, 1):
        if type(f.Surface).__name__ != "Plane":
            continue
        u0, u1, v0, v1 = f.ParameterRange
        fn = f.normalAt((u0 + u1) / 2, (v0 + v1) / 2)
        if (fn - n).Length < 1e-6 and abs((p - f.Vertexes[0].Point).dot(fn)) < 1e-6:
            return "Face%d" % k
    raise ValueError("no face of %s with normal %s through %s" % (part.Label, normal, point_mm))


def solve(asm):
    """Run the Assembly's own solver; raise if it fails."""
    if asm.solve() != 0:
        raise RuntimeError("the Assembly solver failed on %s" % asm.Label)


def import_with_motor(doc, asm, motor, rate_deg_s, **simulation):
    """Solve the Assembly, make the Simulation (``simulation``: its properties), import the
    Assembly's joints and drive the imported joint made from Assembly joint ``motor`` at a constant
    ``rate_deg_s``; prints and returns the import report."""
    from MBDWorkbench.cad.assembly_import import import_assembly, imported_joints
    from MBDWorkbench.cad.makers import make_driver, make_simulation

    solve(asm)
    doc.recompute()
    make_simulation(doc, **simulation)
    report = import_assembly(doc, asm)
    make_driver(doc, imported_joints(doc)[motor.Name], Rate=rate_deg_s, label="Motor")
    doc.recompute()
    print(report.text())
    return report
