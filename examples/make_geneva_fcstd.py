#!/usr/bin/python3
"""Build examples/geneva.FCStd: an external Geneva drive of 4 slots made with Part solids. The
driver (a crank arm with a pin of radius 5 mm at r = a sin 45 deg = 70.71 mm) turns at one turn per
second about O; the wheel (its slots 0.1 mm wider than the pin) turns about W, a = 100 mm from O,
with a little viscous damping in its bearing. Eight Contacts, the pin's side against each slot
wall (BoundedFaces: each wall counts within its edges). The wheel indexes 90 deg per driver turn,
beta = atan(sin(phi) / (a/r - cos(phi))) while the pin is in a slot (docs/contact.md, "Bounded
faces"; tests/cad/test_contact_geneva_freecad.py).

    /usr/bin/python3 examples/make_geneva_fcstd.py [OUT.FCStd]
    /usr/bin/python3 -m MBDWorkbench simulate examples/geneva.FCStd
"""

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

A = 100.0  # centre distance O -> W [mm]
R_CRANK = A * math.sin(math.pi / 4)  # the pin's radius of turn [mm]
R_PIN, PLAY = 5.0, 0.05  # the pin's radius, its play to each slot wall [mm]
THICKNESS, SLOT_IN = 12.0, 20.0  # the wheel's thickness, its slots' bottom radius [mm]
HALF_SLOT = R_PIN + PLAY
# the wheel's radius: its slot walls end at R_CRANK from W, where the pin enters and leaves them
R_WHEEL = math.hypot(R_CRANK, HALF_SLOT)
# the pin's line contact [N/m] (its impacts last 13 steps of the run), e; the bearing [N m s/rad]
STIFFNESS, RESTITUTION, DAMPING = 5e7, 0.5, 0.02
RATE = 360.0  # the driver's speed [deg/s]
START = -90.0  # the pin's angle from the line O -> W at the start [deg]: a dwell


def wheel(doc):
    """The wheel: a disc of radius R_WHEEL about W, 4 radial slots at 45 + 90 k deg."""
    import FreeCAD as App
    import Part

    shape = Part.makeCylinder(R_WHEEL, THICKNESS, App.Vector(A, 0, -THICKNESS / 2))
    for k in range(4):
        slot = Part.makeBox(2 * R_WHEEL, 2 * HALF_SLOT, 3 * THICKNESS, App.Vector(SLOT_IN, -HALF_SLOT, -THICKNESS))
        slot.rotate(App.Vector(0, 0, 0), App.Vector(0, 0, 1), 45.0 + 90.0 * k)
        slot.translate(App.Vector(A, 0, 0))
        shape = shape.cut(slot)
    obj = doc.addObject("Part::Feature", "Wheel")
    obj.Shape = shape.removeSplitter()
    return obj


def driver(doc):
    """The driver: a hub disc about O and an arm below the wheel's plane, the pin at START."""
    import FreeCAD as App
    import Part

    z_arm = -THICKNESS / 2 - 8.0
    hub = Part.makeCylinder(40.0, 6.0, App.Vector(0, 0, z_arm))
    arm = Part.makeBox(R_CRANK, 12.0, 6.0, App.Vector(0, -6.0, z_arm))
    pin = Part.makeCylinder(R_PIN, THICKNESS + 8.0 - 2.0, App.Vector(R_CRANK, 0, z_arm))
    shape = hub.fuse(arm).fuse(pin).removeSplitter()
    shape.rotate(App.Vector(0, 0, 0), App.Vector(0, 0, 1), START)
    obj = doc.addObject("Part::Feature", "Driver")
    obj.Shape = shape
    return obj


def axis_edge(part, x_axis: float) -> str:
    """The name of a circular edge of ``part`` centred on the vertical axis through (x_axis, 0) [mm]."""
    for k, edge in enumerate(part.Shape.Edges):
        curve = edge.Curve
        if type(curve).__name__ == "Circle" and abs(curve.Center.x - x_axis) + abs(curve.Center.y) < 1e-6:
            if abs(abs(curve.Axis.z) - 1.0) < 1e-9:
                return "Edge%d" % (k + 1)
    raise ValueError("%s has no circular edge about x = %g mm" % (part.Label, x_axis))


def pin_face(part) -> str:
    """The name of the pin's cylindrical face."""
    for k, face in enumerate(part.Shape.Faces):
        surface = face.Surface
        if type(surface).__name__ == "Cylinder" and abs(surface.Radius - R_PIN) < 1e-9:
            return "Face%d" % (k + 1)
    raise ValueError("%s has no face of radius %g mm" % (part.Label, R_PIN))


def slot_walls(part) -> list[str]:
    """The names of the wheel's slot walls: plane faces whose normal is horizontal and whose plane
    passes HALF_SLOT from W (the slots' bottoms pass SLOT_IN from it)."""
    names = []
    for k, face in enumerate(part.Shape.Faces):
        if type(face.Surface).__name__ != "Plane":
            continue
        u0, u1, v0, v1 = face.ParameterRange
        n = face.normalAt(0.5 * (u0 + u1), 0.5 * (v0 + v1))
        c = face.CenterOfMass
        if abs(n.z) < 1e-9 and abs(abs(n.x * (c.x - A) + n.y * c.y) - HALF_SLOT) < 1e-6:
            names.append("Face%d" % (k + 1))
    if len(names) != 8:
        raise ValueError("%s: expected 8 slot walls, found %d" % (part.Label, len(names)))
    return names


def build(doc):
    """Add the Geneva drive to ``doc``. Returns (simulation, driver body, wheel body, contacts)."""
    from MBDWorkbench.cad.makers import (
        make_body,
        make_contact,
        make_driver,
        make_simulation,
        make_spring_damper,
    )
    from MBDWorkbench.cad.picking import make_joint_from_picks

    sim = make_simulation(
        doc, EndTimeMilliseconds=3000, OutputStepMicroseconds=2000, StepMicroseconds=20, Integrator="rk4",
        GravityZ=-9810.0,
    )  # fmt: skip
    # the accuracy estimate stays on (a companion at half the step: docs/solver.md, "Contact runs"); it finds the
    # axles' loads at the pin's impacts off by about 12 N of their 31 N peak, above the 1 % load tolerance: warned
    parts = driver(doc), wheel(doc)
    doc.recompute()
    crank, disc = (make_body(doc, p, material="Steel", label=p.Label + "_body") for p in parts)
    # revolutes to the ground picked on circular edges about the axes: their frames follow the parts
    axle = make_joint_from_picks(doc, "revolute", [(parts[0], axis_edge(parts[0], 0.0))], label="Crank_axle")
    hub = make_joint_from_picks(doc, "revolute", [(parts[1], axis_edge(parts[1], A))], label="Wheel_axle")
    make_driver(doc, axle, "constant_speed", Rate=RATE, label="Motor")
    per_deg = DAMPING * 1e3 * math.pi / 180.0  # [N mm s/deg]
    make_spring_damper(doc, None, None, None, None, 0.0, per_deg, label="Wheel_bearing", joint=hub)
    pin = pin_face(parts[0])
    contacts = [
        make_contact(
            doc, crank, disc, pin, wall, label="Pin_wall%d" % (k + 1), BoundedFaces=True, Stiffness=STIFFNESS,
            Exponent=1.0, Restitution=RESTITUTION,
        )
        for k, wall in enumerate(slot_walls(parts[1]))
    ]  # fmt: skip
    doc.recompute()
    return sim, crank, disc, contacts


def main(out=None):
    from MBDWorkbench.cad.freecad_env import write_document

    write_document("geneva", build, out or os.path.join(HERE, "geneva.FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
