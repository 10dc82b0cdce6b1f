#!/usr/bin/python3
"""Build examples/ankle.FCStd: the 2-DoF parallel humanoid ankle made of solids.

Same geometry as examples/ankle.json (MBDWorkbench.showcase.ankle.AnkleGeometry, in mm here):
an aluminium shank (grounded) and foot plate on a universal joint at the origin, two motors
on the shank at A_k turning aluminium bars (A_k -> B_k, about +y), steel rods (radius 3 mm)
from B_k to the foot points C_k with a ball joint at B_k and a universal joint at C_k.
The motors follow 0.25 rad (14.32 deg) sines at 0.5 Hz, the second a quarter period ahead.
Masses come from the solids.

    /usr/bin/python3 examples/make_ankle_fcstd.py [OUT.FCStd]
"""

import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

AMPLITUDE_DEG = math.degrees(0.25)
FREQUENCY = 0.5  # Hz


def _solid(doc, name, shape):
    obj = doc.addObject("Part::Feature", name)
    obj.Shape = shape
    return obj


def build(doc):
    """Add the ankle to ``doc``; returns a dict of the created objects."""
    import FreeCAD as App
    import Part

    from MBDWorkbench.cad.makers import make_body, make_driver, make_joint, make_simulation
    from MBDWorkbench.showcase.ankle import AnkleGeometry

    V = App.Vector
    g = AnkleGeometry()
    A, B, C = (np.asarray(p) * 1e3 for p in (g.A, g.B0, g.C0))  # mm
    sim = make_simulation(doc, EndTime=2.0, OutputStep=0.01, Step=1e-3, Integrator="rk4")
    shank = _solid(doc, "Shank", Part.makeBox(40, 60, 300, V(-20, -30, 10)))
    foot = _solid(doc, "Foot", Part.makeBox(220, 90, 20, V(30 - 110, -45, -55)))
    bodies = {
        "shank": make_body(doc, shank, material="Aluminium", grounded=True),
        "foot": make_body(doc, foot, material="Aluminium"),
    }
    joints = {
        "ankle": make_joint(
            doc, "universal", bodies["shank"], bodies["foot"], ((0, 0, 0), (0, 0, -1), (0, 1, 0)), label="Ankle"
        )
    }
    drivers = []
    for k in range(2):
        n = k + 1
        length = float(np.linalg.norm(B[k] - A[k]))
        bar = _solid(doc, "Bar%d" % n, Part.makeBox(length, 12, 8, V(B[k][0], B[k][1] - 6, B[k][2] - 4)))
        rod_vec = C[k] - B[k]
        rod = _solid(doc, "Rod%d" % n, Part.makeCylinder(3, float(np.linalg.norm(rod_vec)), V(*B[k]), V(*rod_vec)))
        bodies["bar%d" % n] = make_body(doc, bar, material="Aluminium")
        bodies["rod%d" % n] = make_body(doc, rod, material="Steel")
        motor = make_joint(
            doc, "revolute", bodies["shank"], bodies["bar%d" % n], (A[k], (0, 1, 0), B[k] - A[k]), label="Motor%d" % n
        )
        make_joint(
            doc, "spherical", bodies["bar%d" % n], bodies["rod%d" % n], (B[k], (0, 0, 1), None), label="Ball%d" % n
        )
        make_joint(
            doc, "universal", bodies["rod%d" % n], bodies["foot"], (C[k], -rod_vec, (1, 0, 0)), label="Cardan%d" % n
        )
        phase = " + pi/2" if k == 1 else ""
        drivers.append(
            make_driver(
                doc,
                motor,
                profile="expression",
                label="Drive%d" % n,
                Expression="%.15g*sin(%.15g*t%s)" % (AMPLITUDE_DEG, 2 * math.pi * FREQUENCY, phase),
            )
        )
        joints["motor%d" % n] = motor
    doc.recompute()
    return dict(simulation=sim, bodies=bodies, joints=joints, drivers=drivers)


def main(out=None):
    from MBDWorkbench.cad.freecad_env import write_document

    write_document("ankle", build, out or os.path.join(HERE, "ankle.FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
