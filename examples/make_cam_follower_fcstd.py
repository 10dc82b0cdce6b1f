#!/usr/bin/python3
"""Build examples/cam_follower.FCStd: an eccentric circular cam turning a flat-faced follower
through a Contact (docs/contact.md, "Contact in FreeCAD").

The cam is a steel disc (radius R = 40 mm, 20 mm thick) with a bore E = 10 mm off its centre,
turned on a shaft along y (a revolute picked on the bore's edge) at 10 rad/s by a driver. The
follower, a plate with a stem, slides along z in a grounded frame (a prismatic joint on the
stem's edge), pressed onto the cam by a spring of k = 2 N/mm preloaded to 20 N. The Contact pairs
the cam's outer cylindrical face with the plate's bottom face (a cylinder-plane line contact,
stiffness 1e8 N/m). The run starts at the lowest lift (the cam's centre below the shaft); the
follower's face then rides at z = R - E cos(w t) minus the contact's compression F / K.

    /usr/bin/python3 examples/make_cam_follower_fcstd.py [OUT.FCStd]
    /usr/bin/python3 -m MBDWorkbench simulate examples/cam_follower.FCStd
"""

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

R, E, WIDTH, BORE = 40.0, 10.0, 20.0, 8.0  # cam radius, eccentricity, thickness, bore radius [mm]
SPEED = 10.0  # cam speed [rad/s]
K_SPRING, PRELOAD = 2.0, 20.0  # spring [N/mm], its preload at the lowest lift [N]
K_CONTACT = 1e8  # the line contact's stiffness [N/m] (exponent 1)
RESTITUTION = 0.5
GRAVITY = 9.81  # [m/s^2], along -z
STEEL = 7850.0  # [kg/m^3], the bodies' material
PLATE = (60.0, 30.0, 8.0)  # the follower's plate along x, y, z [mm]
STEM_RADIUS, STEM_TOP = 6.0, 100.0  # [mm]; the spring's lower end is the stem's top
SPRING_TOP = 150.0  # the spring's fixed end [mm]


def follower_shape(face_z: float):
    """The follower: its plate's bottom face at ``face_z`` [mm], a stem up to STEM_TOP."""
    import FreeCAD as App
    import Part

    lx, ly, lz = PLATE
    plate = Part.makeBox(lx, ly, lz, App.Vector(-lx / 2, -ly / 2, face_z))
    stem = Part.makeCylinder(STEM_RADIUS, STEM_TOP - face_z - lz, App.Vector(0, 0, face_z + lz))
    return plate.fuse(stem).removeSplitter()


def frame_shape():
    """The grounded frame: a guide block round the stem, a column and the bracket holding the spring."""
    import FreeCAD as App
    import Part

    guide = Part.makeBox(40, 30, 20, App.Vector(-20, -15, 60))
    guide = guide.cut(Part.makeCylinder(STEM_RADIUS + 1.0, 20, App.Vector(0, 0, 60)))
    column = Part.makeBox(12, 30, 100, App.Vector(40, -15, 60))
    bracket = Part.makeBox(72, 30, 10, App.Vector(-20, -15, SPRING_TOP))
    return guide.fuse([column, bracket]).removeSplitter()


def contact_sink_mm(follower_volume_mm3: float) -> float:
    """The contact's compression [mm] at the start: F / K, F the follower's load on the cam at the
    lowest lift (preload, weight, and its mass times the cam's upward acceleration E w^2)."""
    mass = STEEL * follower_volume_mm3 * 1e-9
    force = PRELOAD + mass * (GRAVITY + E * 1e-3 * SPEED**2)
    return 1e3 * force / K_CONTACT


def face_named(part, test) -> str:
    """The name of the first face of ``part`` for which ``test(face)`` holds."""
    for k, face in enumerate(part.Shape.Faces):
        if test(face):
            return "Face%d" % (k + 1)
    raise ValueError("%s has no such face" % part.Label)


def edge_named(part, test) -> str:
    for k, edge in enumerate(part.Shape.Edges):
        if test(edge):
            return "Edge%d" % (k + 1)
    raise ValueError("%s has no such edge" % part.Label)


def is_circle(edge, radius: float) -> bool:
    return type(edge.Curve).__name__ == "Circle" and abs(edge.Curve.Radius - radius) < 1e-9


def build(doc):
    """Add the cam, the follower, the frame, the joints, the motor, the spring and the contact to
    ``doc``; returns a dict of the created objects."""
    import FreeCAD as App
    import Part

    from MBDWorkbench.cad.makers import make_body, make_contact, make_driver, make_simulation, make_spring_damper
    from MBDWorkbench.cad.picking import make_joint_from_picks

    sim = make_simulation(
        doc, EndTimeMilliseconds=630, OutputStepMicroseconds=1000, StepMicroseconds=10, Integrator="rk4",
        GravityX=0.0, GravityY=0.0, GravityZ=-1000 * GRAVITY,
    )  # fmt: skip
    axis = App.Vector(0, 1, 0)  # the shaft, through the origin
    disc = Part.makeCylinder(R, WIDTH, App.Vector(0, -WIDTH / 2, -E), axis)  # its centre below the shaft
    cam = doc.addObject("Part::Feature", "Cam")
    cam.Shape = disc.cut(Part.makeCylinder(BORE, WIDTH, App.Vector(0, -WIDTH / 2, 0), axis))
    probe = follower_shape(R - E)
    follower = doc.addObject("Part::Feature", "Follower")
    follower.Shape = follower_shape(R - E - contact_sink_mm(probe.Volume))  # pressed in by its load
    frame = doc.addObject("Part::Feature", "Frame")
    frame.Shape = frame_shape()
    doc.recompute()
    cam_body = make_body(doc, cam, material="Steel", label="Cam_body")
    follower_body = make_body(doc, follower, material="Steel", label="Follower_body")
    make_body(doc, frame, grounded=True, material="Steel", label="Frame_body")
    bore = edge_named(cam, lambda e: is_circle(e, BORE))
    shaft = make_joint_from_picks(doc, "revolute", [(cam, bore)], label="Shaft")
    seam = edge_named(follower, lambda e: e.BoundBox.XLength < 1e-9 and e.BoundBox.YLength < 1e-9)
    slide = make_joint_from_picks(doc, "prismatic", [(follower, seam)], label="Slide")
    motor = make_driver(doc, shaft, Rate=math.degrees(SPEED), label="Motor")
    top = App.Vector(0, 0, follower.Shape.BoundBox.ZMax)
    spring = make_spring_damper(
        doc, None, (0, 0, SPRING_TOP), follower_body, tuple(top), stiffness=K_SPRING, label="Spring"
    )
    spring.UseInitialLength = False
    spring.FreeLength = SPRING_TOP - top.z + PRELOAD / K_SPRING
    rim = face_named(cam, lambda f: type(f.Surface).__name__ == "Cylinder" and abs(f.Surface.Radius - R) < 1e-9)
    bottom = face_named(follower, lambda f: f.normalAt(0, 0).z < -1 + 1e-12)
    contact = make_contact(
        doc, cam_body, follower_body, rim, bottom, label="Cam_on_follower", Stiffness=K_CONTACT, Exponent=1.0,
        Restitution=RESTITUTION,
    )  # fmt: skip
    doc.recompute()
    return dict(simulation=sim, cam=cam, follower=follower, frame=frame, shaft=shaft, slide=slide, motor=motor,
                spring=spring, contact=contact)  # fmt: skip


def main(out=None):
    from MBDWorkbench.cad.freecad_env import write_document

    write_document("cam_follower", build, out or os.path.join(HERE, "cam_follower.FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
