#!/usr/bin/python3
"""Build examples/drop_test.FCStd: a steel ball (radius 20 mm) dropped from 100 mm onto a grounded
steel plate (200 x 200 x 20 mm), a Contact between the ball's solid and the plate's top face
(Hertz stiffness from the materials, restitution 0.7). The ball rebounds to 0.7^(2n) x 100 mm.

    /usr/bin/python3 examples/make_drop_test_fcstd.py [OUT.FCStd]
    /usr/bin/python3 -m MBDWorkbench simulate examples/drop_test.FCStd
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

RADIUS, HEIGHT, RESTITUTION = 20.0, 100.0, 0.7  # mm, mm (the ball's bottom above the plate), -


def top_face(part) -> str:
    """The name of the part's face whose outward normal is +z."""
    for k, face in enumerate(part.Shape.Faces):
        u0, u1, v0, v1 = face.ParameterRange
        if face.normalAt(0.5 * (u0 + u1), 0.5 * (v0 + v1)).z > 1 - 1e-12:
            return "Face%d" % (k + 1)
    raise ValueError("%s has no face pointing up" % part.Label)


def build(doc):
    """Add the plate, the ball and their Contact to ``doc``. Returns (simulation, contact)."""
    import FreeCAD as App

    from MBDWorkbench.cad.makers import make_body, make_contact, make_simulation

    sim = make_simulation(
        doc, EndTimeMilliseconds=1000, OutputStepMicroseconds=2000, StepMicroseconds=5, Integrator="rk4"
    )
    plate = doc.addObject("Part::Box", "Plate")
    plate.Length, plate.Width, plate.Height = 200, 200, 20
    plate.Placement.Base = App.Vector(-100, -100, -20)
    ball = doc.addObject("Part::Sphere", "Ball")
    ball.Radius = RADIUS
    ball.Placement.Base = App.Vector(2.5, -1.5, RADIUS + HEIGHT)  # a little off the plate's centre
    doc.recompute()
    plate_body = make_body(doc, plate, grounded=True, material="Steel", label="Plate_body")
    ball_body = make_body(doc, ball, material="Steel", label="Ball_body")
    contact = make_contact(
        doc, ball_body, plate_body, "", top_face(plate), label="Ball_on_plate", Restitution=RESTITUTION,
        Law="restitution", StaticFriction=0.3,
    )  # fmt: skip
    doc.recompute()
    return sim, contact


def main(out=None):
    from MBDWorkbench.cad.freecad_env import write_document

    write_document("drop_test", build, out or os.path.join(HERE, "drop_test.FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
