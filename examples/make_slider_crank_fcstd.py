#!/usr/bin/python3
"""Build examples/slider_crank.FCStd: a motor-driven slider-crank made of steel solids.

Crank (r = 40 mm between its pin holes), connecting rod (l = 120 mm) and slider block move in
the x-y plane; gravity is -y. Joints are made from picked geometry: the crank's hole edges
(revolutes about z), the rod's hole edge (spherical joint to the slider) and a straight edge
of the slider along x (prismatic guide to the ground). The motor turns the crank at 180 deg/s.

    /usr/bin/python3 examples/make_slider_crank_fcstd.py [OUT.FCStd]
    /usr/bin/python3 -m MBDWorkbench simulate examples/slider_crank.FCStd
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

R, L = 40.0, 120.0  # crank radius, rod length [mm]


def link(doc, name, x0, x1, half_width, z0, thickness, holes, radius=4.0):
    """A bar x0..x1 (mm) with pin holes of ``radius`` at the x positions ``holes``."""
    import FreeCAD as App
    import Part

    shape = Part.makeBox(x1 - x0, 2 * half_width, thickness, App.Vector(x0, -half_width, z0))
    for x in holes:
        shape = shape.cut(Part.makeCylinder(radius, thickness, App.Vector(x, 0, z0)))
    obj = doc.addObject("Part::Feature", name)
    obj.Shape = shape
    return obj


def hole_edge(obj, x, z):
    """Name of the circular edge of the hole at (x, 0, z)."""
    for k, e in enumerate(obj.Shape.Edges):
        c = getattr(e.Curve, "Center", None)
        if type(e.Curve).__name__ == "Circle" and abs(c.x - x) < 1e-9 and abs(c.y) < 1e-9 and abs(c.z - z) < 1e-9:
            return "Edge%d" % (k + 1)
    raise ValueError("no hole edge at (%g, 0, %g) on %s" % (x, z, obj.Label))


def x_edge(obj, y, z):
    """Name of a straight edge along x at (., y, z)."""
    for k, e in enumerate(obj.Shape.Edges):
        bb = e.BoundBox
        if bb.YLength < 1e-9 and bb.ZLength < 1e-9 and abs(bb.YMin - y) < 1e-9 and abs(bb.ZMin - z) < 1e-9:
            return "Edge%d" % (k + 1)
    raise ValueError("no x edge")


def z_up(joint):
    """Make the joint's z axis point to +z (a picked circle may give -z)."""
    from MBDWorkbench.cad.joint_references import set_joint_frame
    from MBDWorkbench.cad.placement import adjusted_frame, placement_axes

    if placement_axes(joint.Frame)[3][2] < 0:
        set_joint_frame(joint, adjusted_frame(joint.Frame, flip=True))  # kept as the joint's Offset1


def build(doc):
    """Add the slider-crank to ``doc``; returns a dict of the created objects."""
    import FreeCAD as App

    from MBDWorkbench.cad.makers import make_body, make_driver, make_simulation
    from MBDWorkbench.cad.picking import make_joint_from_picks

    sim = make_simulation(
        doc,
        EndTimeMilliseconds=2000,
        OutputStepMicroseconds=10000,
        StepMicroseconds=1000,
        Integrator="rk4",
        Gravity=App.Vector(0, -9810, 0),
    )
    crank = link(doc, "Crank", -10, R + 10, 10, 0, 8, (0, R))
    rod = link(doc, "Rod", R - 10, R + L + 10, 8, 8, 8, (R, R + L))
    slider = doc.addObject("Part::Box", "Slider")
    slider.Length, slider.Width, slider.Height = 30, 24, 10
    slider.Placement.Base = App.Vector(R + L - 15, -12, 16)
    doc.recompute()
    for part in (crank, rod, slider):
        make_body(doc, part, material="Steel")
    pivot = make_joint_from_picks(doc, "revolute", [(crank, hole_edge(crank, 0, 0))], label="CrankPivot")
    pin = make_joint_from_picks(
        doc, "revolute", [(crank, hole_edge(crank, R, 8)), (rod, hole_edge(rod, R, 8))], label="CrankPin"
    )
    ball = make_joint_from_picks(
        doc, "spherical", [(rod, hole_edge(rod, R + L, 16)), (slider, "Face5")], label="RodPin"
    )
    guide = make_joint_from_picks(doc, "prismatic", [(slider, x_edge(slider, -12, 16))], label="Guide")
    for j in (pivot, pin):
        z_up(j)
    motor = make_driver(doc, pivot, Rate=180.0, label="Motor")
    doc.recompute()
    return dict(
        simulation=sim, crank=crank, rod=rod, slider=slider, pivot=pivot, pin=pin, ball=ball, guide=guide, motor=motor
    )


def main(out=None):
    from MBDWorkbench.cad.freecad_env import write_document

    write_document("slider_crank", build, out or os.path.join(HERE, "slider_crank.FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
