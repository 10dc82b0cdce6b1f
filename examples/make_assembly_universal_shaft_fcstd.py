#!/usr/bin/python3
"""Build examples/assembly_universal_shaft.FCStd (FreeCAD 1.x): a universal (Cardan) shaft made
with the Assembly workbench's own joints, imported into the MBD Workbench and motor-driven.

The input shaft (a 100 x 10 x 10 mm bar along -x from the centre O at the origin) turns in a
Revolute about x on the grounded frame. The output shaft (the same bar along u, at BETA = 30 deg
from x in the x-y plane) keeps its axis direction by a Parallel joint to a grounded bracket.
The cross of the Cardan joint is made of a Ball at O (the corners of both bars) and a
point-point Distance of RHO sqrt(2) between the input's corner at O + RHO y and the output's
corner at O + RHO z: with the Ball, that distance holds exactly when the two yoke directions y
and z (carried by the shafts) stay perpendicular, the equation of a universal joint. Hence
tan(theta_out) = tan(theta_in) / cos(BETA) with both angles from this position. No gravity; the
motor (our driver on the imported input revolute) turns the input at 360 deg/s.

    /usr/bin/python3 examples/make_assembly_universal_shaft_fcstd.py [OUT.FCStd]
    /usr/bin/python3 -m MBDWorkbench simulate examples/assembly_universal_shaft.FCStd
"""

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

BETA = 30.0  # angle between the shafts [deg]
RHO = 10.0  # yoke radius: the bars' edge [mm]
LENGTH = 100.0  # bar length [mm]


def bar(doc, name, base, angle_deg):
    """A LENGTH x RHO x RHO bar, corner at ``base``, turned about z by ``angle_deg``."""
    import FreeCAD as App

    obj = doc.addObject("Part::Box", name)
    obj.Length, obj.Width, obj.Height = LENGTH, RHO, RHO
    obj.Placement = App.Placement(App.Vector(*base), App.Rotation(App.Vector(0, 0, 1), angle_deg))
    return obj


def build(doc):
    """Add the Assembly, import it and add the motor; returns the import report."""
    import FreeCAD as App
    from assembly_helpers import face, ground, import_with_motor, joint, new_assembly, vertex

    asm, joints = new_assembly(doc)
    c, s = math.cos(math.radians(BETA)), math.sin(math.radians(BETA))
    frame = bar(doc, "Frame", (-2 * LENGTH - 20, 0, 0), 0.0)  # its end face x = -LENGTH - 20 carries the input axis
    bracket = bar(doc, "Bracket", (2 * LENGTH * c, 2 * LENGTH * s, 0), BETA)
    shaft_in = bar(doc, "InputShaft", (-LENGTH, 0, 0), 0.0)
    shaft_out = bar(doc, "OutputShaft", (0, 0, 0), BETA)
    for part in (frame, bracket, shaft_in, shaft_out):
        asm.addObject(part)
    doc.recompute()
    for part in (frame, bracket):
        ground(joints, part)
    on_frame, b0 = (-LENGTH - 20, 0, 0), tuple(bracket.Placement.Base)
    # element names first: each joint made runs the Assembly's solver, which may move the parts
    frame_face = [face(frame, (1, 0, 0), on_frame), vertex(frame, on_frame)]
    in_face = [face(shaft_in, (-1, 0, 0), (-LENGTH, 0, 0)), vertex(shaft_in, (-LENGTH, 0, 0))]
    bracket_face = [face(bracket, (-c, -s, 0), b0), vertex(bracket, b0)]
    out_face = [face(shaft_out, (-c, -s, 0), (0, 0, 0)), vertex(shaft_out, (0, 0, 0))]
    centre = [vertex(shaft_in, (0, 0, 0))] * 2, [vertex(shaft_out, (0, 0, 0))] * 2
    tips = [vertex(shaft_in, (0, RHO, 0))] * 2, [vertex(shaft_out, (0, 0, RHO))] * 2
    bearing = joint(asm, joints, "Revolute", (frame, frame_face), (shaft_in, in_face), "InputBearing")
    joint(asm, joints, "Parallel", (bracket, bracket_face), (shaft_out, out_face), "OutputBearing")
    joint(asm, joints, "Ball", (shaft_in, centre[0]), (shaft_out, centre[1]), "CrossCentre")
    joint(asm, joints, "Distance", (shaft_in, tips[0]), (shaft_out, tips[1]), "CrossArms", Distance=RHO * math.sqrt(2))
    gravity = App.Vector(0, 0, 0)
    return import_with_motor(
        doc,
        asm,
        bearing,
        360.0,
        EndTimeMilliseconds=1000,
        OutputStepMicroseconds=5000,
        StepMicroseconds=500,
        Integrator="rk4",
        Gravity=gravity,
    )


def main(out=None):
    from MBDWorkbench.cad.freecad_env import write_document

    write_document("assembly_universal_shaft", build, out or os.path.join(HERE, "assembly_universal_shaft.FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
