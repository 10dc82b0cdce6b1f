#!/usr/bin/python3
"""Build examples/pendulum.FCStd: a steel bar (200 x 20 x 20 mm box) hanging from a revolute
joint to the ground, picked on the bar's edge that lies on the global y axis.

    /usr/bin/python3 examples/make_pendulum_fcstd.py [OUT.FCStd]
    /usr/bin/python3 -m MBDWorkbench simulate examples/pendulum.FCStd
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def build(doc, angle_deg=0.0):
    """Add the pendulum to ``doc``: the bar starts horizontal along +x (rotated by
    ``angle_deg`` about the y axis), its edge on the y axis is the pivot. Returns
    (simulation, body, joint)."""
    import FreeCAD as App

    from MBDWorkbench.cad.makers import make_body, make_simulation
    from MBDWorkbench.cad.picking import make_joint_from_picks

    sim = make_simulation(
        doc, EndTimeMilliseconds=1000, OutputStepMicroseconds=10000, StepMicroseconds=1000, Integrator="rk4"
    )
    bar = doc.addObject("Part::Box", "Bar")
    bar.Length, bar.Width, bar.Height = 200, 20, 20
    bar.Placement = App.Placement(App.Vector(0, 0, 0), App.Rotation(App.Vector(0, 1, 0), angle_deg)).multiply(
        App.Placement(App.Vector(0, -10, 0), App.Rotation())
    )
    doc.recompute()
    body = make_body(doc, bar, material="Steel")
    edge = next(
        "Edge%d" % (k + 1)
        for k, e in enumerate(bar.Shape.Edges)
        if e.BoundBox.XLength < 1e-9
        and e.BoundBox.ZLength < 1e-9
        and abs(e.BoundBox.XMin) < 1e-9
        and abs(e.BoundBox.ZMin) < 1e-9
    )
    joint = make_joint_from_picks(doc, "revolute", [(bar, edge)], label="Pivot")
    doc.recompute()
    return sim, body, joint


def main(out=None):
    from MBDWorkbench.cad.freecad_env import write_document

    write_document("pendulum", build, out or os.path.join(HERE, "pendulum.FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
