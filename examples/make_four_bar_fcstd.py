#!/usr/bin/python3
"""Build examples/four_bar.FCStd: a motor-driven planar crank-rocker four-bar of steel bars.

Ground pivots A0 = (0, 0) and B0 = (100, 0) mm; crank a = 30 mm (starts at 90 deg), coupler
b = 110 mm, rocker c = 80 mm; each bar has pin holes, and the four revolute joints are picked
on the hole edges. The motor turns the crank at 180 deg/s; gravity is -y. The four revolutes
of a planar loop are 3 equations redundant in space: 'Check model' reports them.

    /usr/bin/python3 examples/make_four_bar_fcstd.py [OUT.FCStd]
"""

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

D, A, B, C = 100.0, 30.0, 110.0, 80.0  # mm
THETA2 = 90.0  # initial crank angle [deg]
THICK = 6.0


def joint_points(theta2_deg=THETA2):
    """Crank tip and coupler-rocker pin (mm) by circle intersection, open branch."""
    t = math.radians(theta2_deg)
    pa = (A * math.cos(t), A * math.sin(t))
    dx, dy = D - pa[0], -pa[1]
    s = math.hypot(dx, dy)
    u = (dx / s, dy / s)
    v = (-u[1], u[0])
    p = (B * B - C * C + s * s) / (2 * s)
    h = math.sqrt(B * B - p * p)
    pb = (pa[0] + p * u[0] + h * v[0], pa[1] + p * u[1] + h * v[1])
    return pa, pb


def bar(doc, name, start, end, z0, width=10.0, radius=3.0):
    """A bar from ``start`` to ``end`` (x, y in mm) with pin holes at both ends, at height z0."""
    import FreeCAD as App
    import Part

    length = math.hypot(end[0] - start[0], end[1] - start[1])
    shape = Part.makeBox(length + 2 * width, width, THICK, App.Vector(-width, -width / 2, 0))
    for x in (0.0, length):
        shape = shape.cut(Part.makeCylinder(radius, THICK, App.Vector(x, 0, 0)))
    obj = doc.addObject("Part::Feature", name)
    obj.Shape = shape
    angle = math.degrees(math.atan2(end[1] - start[1], end[0] - start[0]))
    obj.Placement = App.Placement(App.Vector(start[0], start[1], z0), App.Rotation(App.Vector(0, 0, 1), angle))
    return obj


def hole_edge(obj, x, y, z):
    """Name of the circular edge centred at the global point (x, y, z)."""
    import FreeCAD as App

    for k, e in enumerate(obj.Shape.Edges):
        if type(e.Curve).__name__ == "Circle" and (e.Curve.Center - App.Vector(x, y, z)).Length < 1e-7:
            return "Edge%d" % (k + 1)
    raise ValueError("no hole edge at (%g, %g, %g) on %s" % (x, y, z, obj.Label))


def build(doc):
    """Add the four-bar to ``doc``; returns a dict of the created objects."""
    import FreeCAD as App

    from MBDWorkbench.cad.joint_references import set_joint_frame
    from MBDWorkbench.cad.makers import make_body, make_driver, make_simulation
    from MBDWorkbench.cad.picking import make_joint_from_picks
    from MBDWorkbench.cad.placement import adjusted_frame, placement_axes

    sim = make_simulation(
        doc,
        EndTimeMilliseconds=2000,
        OutputStepMicroseconds=10000,
        StepMicroseconds=1000,
        Integrator="rk4",
        Gravity=App.Vector(0, -9810, 0),
    )
    pa, pb = joint_points()
    crank = bar(doc, "Crank", (0, 0), pa, 0.0)
    coupler = bar(doc, "Coupler", pa, pb, THICK)
    rocker = bar(doc, "Rocker", (D, 0), pb, 0.0)
    doc.recompute()
    for part in (crank, coupler, rocker):
        make_body(doc, part, material="Steel")
    picks = {
        "A0": [(crank, hole_edge(crank, 0, 0, 0))],
        "A": [(crank, hole_edge(crank, pa[0], pa[1], THICK)), (coupler, hole_edge(coupler, pa[0], pa[1], THICK))],
        "B": [(coupler, hole_edge(coupler, pb[0], pb[1], THICK)), (rocker, hole_edge(rocker, pb[0], pb[1], THICK))],
        "B0": [(rocker, hole_edge(rocker, D, 0, 0))],
    }
    joints = {}
    for name, pick in picks.items():
        j = make_joint_from_picks(doc, "revolute", pick, label="Pin" + name)
        if placement_axes(j.Frame)[3][2] < 0:
            set_joint_frame(j, adjusted_frame(j.Frame, flip=True))  # z up: the motor turns counter-clockwise
        joints[name] = j
    motor = make_driver(doc, joints["A0"], Rate=180.0, label="Motor")
    doc.recompute()
    return dict(simulation=sim, crank=crank, coupler=coupler, rocker=rocker, joints=joints, motor=motor, A=pa, B=pb)


def main(out=None):
    from MBDWorkbench.cad.freecad_env import write_document

    write_document("four_bar", build, out or os.path.join(HERE, "four_bar.FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
