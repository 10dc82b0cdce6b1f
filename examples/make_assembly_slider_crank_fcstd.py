#!/usr/bin/python3
"""Build examples/assembly_slider_crank.FCStd (FreeCAD 1.x): a slider-crank made with the
Assembly workbench's own joints, then imported into the MBD Workbench and motor-driven.

Crank (r = 40 mm between its pin holes), connecting rod (l = 120 mm) and slider block move in
the x-y plane (gravity -y). Assembly joints: Revolutes on the hole edges (frame-crank,
crank-rod, rod-slider; axes along z) and a Slider between the slider's end face and a face of
the grounded rail, both with normal +x (the slide direction). The planar loop is redundant in
space (3 equations), as every planar mechanism built of revolutes: both solvers accept it. The
motor (our driver on the imported crank revolute) turns the crank at 180 deg/s.

    /usr/bin/python3 examples/make_assembly_slider_crank_fcstd.py [OUT.FCStd]
    /usr/bin/python3 -m MBDWorkbench simulate examples/assembly_slider_crank.FCStd
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

R, L = 40.0, 120.0  # crank radius, rod length [mm]
RAIL_X = -40.0  # the rail's face x = RAIL_X carries the slide line y = -12, z = 16 [mm]


def build(doc, rail_tilt_deg=0.0):
    """Add the Assembly, import it and add the motor; returns the import report. ``rail_tilt_deg``
    turns the rail about y through its slide point (a rail that far off square to the crank axis:
    tests/cad/test_assembly_tolerant_freecad.py)."""
    import FreeCAD as App
    from assembly_helpers import circle, face, ground, import_with_motor, joint, new_assembly, vertex
    from make_slider_crank_fcstd import link

    asm, joints = new_assembly(doc)
    frame = link(doc, "Frame", -20, 10, 10, -8, 8, (0,))
    crank = link(doc, "Crank", -10, R + 10, 10, 0, 8, (0, R))
    rod = link(doc, "Rod", R - 10, R + L + 10, 8, 8, 8, (R, R + L))
    slider = link(doc, "Slider", R + L - 15, R + L + 15, 12, 16, 8, (R + L,))
    rail = doc.addObject("Part::Box", "Rail")
    rail.Length, rail.Width, rail.Height = 20, 10, 8
    end, on_rail = (R + L + 15, -12, 16), (RAIL_X, -12, 16)
    tilt = App.Rotation(App.Vector(0, 1, 0), rail_tilt_deg)
    rail.Placement = App.Placement(App.Vector(*on_rail), tilt).multiply(
        App.Placement(App.Vector(RAIL_X - 20, -22, 16) - App.Vector(*on_rail), App.Rotation())
    )
    for part in (frame, crank, rod, slider, rail):
        asm.addObject(part)
    doc.recompute()
    for part in (frame, rail):
        ground(joints, part)
    # element names first: each joint made runs the Assembly's solver, which may move the parts
    pins = [  # [edge, edge]: the JCS at the circle's centre (UtilsAssembly.findPlacement)
        ((frame, [circle(frame, (0, 0, 0))] * 2), (crank, [circle(crank, (0, 0, 0))] * 2), "Pivot"),
        ((crank, [circle(crank, (R, 0, 8))] * 2), (rod, [circle(rod, (R, 0, 8))] * 2), "CrankPin"),
        ((rod, [circle(rod, (R + L, 0, 16))] * 2), (slider, [circle(slider, (R + L, 0, 16))] * 2), "RodPin"),
    ]
    rail_face = [face(rail, tuple(tilt.multVec(App.Vector(1, 0, 0))), on_rail), vertex(rail, on_rail)]
    slider_face = [face(slider, (1, 0, 0), end), vertex(slider, end)]
    pivot = [joint(asm, joints, "Revolute", *pin) for pin in pins][0]
    joint(asm, joints, "Slider", (rail, rail_face), (slider, slider_face), "Guide")
    gravity = App.Vector(0, -9810, 0)
    return import_with_motor(
        doc,
        asm,
        pivot,
        180.0,
        EndTimeMilliseconds=2000,
        OutputStepMicroseconds=10000,
        StepMicroseconds=1000,
        Integrator="rk4",
        Gravity=gravity,
    )


def main(out=None):
    from MBDWorkbench.cad.freecad_env import write_document

    write_document("assembly_slider_crank", build, out or os.path.join(HERE, "assembly_slider_crank.FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
