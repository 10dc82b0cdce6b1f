#!/usr/bin/python3
"""Build examples/ankle.FCStd: the 2-DoF parallel humanoid ankle made of solids.

Same geometry as examples/ankle.json (MBDWorkbench.showcase.ankle.AnkleGeometry, in mm here):
an aluminium shank (grounded) and foot plate on a universal joint at the origin, two motors
on the shank at A_k turning aluminium bars (A_k -> B_k, about +y), steel rods (radius 3 mm)
from B_k to the foot points C_k with a ball joint at B_k and a universal joint at C_k.
The motors follow 0.25 rad (14.32 deg) sines at 0.5 Hz, the second a quarter period ahead.
Masses come from the solids.

The joints are picked on the parts' elements, so they follow the parts: the shank carries a
knuckle (a cylinder along y through the ankle centre) and a motor boss at each A_k (its end
circle); the bars' end faces are centred on A_k and B_k; the rods' end circles on B_k and C_k.
The cross axes of the universal joints are scribed lines (split faces, no change of mass): the
foot's roll axis (+x) and pin axes (+y) on its top face, and a line along +x across each rod's
end face at C_k. Each joint's frame is then turned about its axis (or, for the balls, rotated
about the ball centre) to AnkleGeometry's frame (:func:`explicit_frames`), kept as the joint's
offset, so that the model is the one of examples/ankle.json.

    /usr/bin/python3 examples/make_ankle_fcstd.py [OUT.FCStd]
"""

import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from MBDWorkbench.showcase.ankle import AnkleGeometry  # noqa: E402

AMPLITUDE_DEG = math.degrees(0.25)
FREQUENCY = 0.5  # Hz
MATERIAL = {"shank": "Aluminium", "foot": "Aluminium", "bar1": "Aluminium", "bar2": "Aluminium"}
ROD_RADIUS = 3.0  # mm
TOL = 1e-7  # mm, to find elements by their geometry


def mm_points(g: AnkleGeometry) -> tuple:
    """(A, B, C) of ``g`` in mm, each (2, 3): motor centres, bar tips, foot points at home."""
    return tuple(np.asarray(p) * 1e3 for p in (g.A, g.B0, g.C0))


def explicit_frames(g: AnkleGeometry) -> dict:
    """{joint label: (origin [mm], z axis, x axis or None)}: AnkleGeometry's joint frames."""
    A, B, C = mm_points(g)
    frames = {"Ankle": ((0, 0, 0), (0, 0, -1), (0, 1, 0))}
    for k in range(2):
        n = k + 1
        frames["Motor%d" % n] = (A[k], (0, 1, 0), B[k] - A[k])
        frames["Ball%d" % n] = (B[k], (0, 0, 1), None)
        frames["Cardan%d" % n] = (C[k], B[k] - C[k], (1, 0, 0))
    return frames


def _feature(doc, name, shape):
    obj = doc.addObject("Part::Feature", name)
    obj.Shape = shape
    return obj


def _scribed(solid, lines):
    """``solid`` with the segments ``lines`` [(start, end)] scribed on its faces (split faces)."""
    import Part

    edges = [Part.makeLine(*(_vec(p) for p in line)) for line in lines]
    return solid.generalFuse(edges)[0].Solids[0]


def _vec(p):
    """App.Vector of a point or direction [mm]."""
    import FreeCAD as App

    return App.Vector(*(float(c) for c in p))


def _shank(A):
    """Shank box with a knuckle along y through the origin and a motor boss ending at each A_k."""
    import Part

    shape = Part.makeBox(40, 60, 300, _vec((-20, -30, 10)))
    shape = shape.fuse(Part.makeCylinder(12, 60, _vec((0, -30, 0)), _vec((0, 1, 0))))
    for a in A:
        start = (a[0], min(a[1], 30.0 * np.sign(a[1])), a[2])
        shape = shape.fuse(Part.makeCylinder(10, 5, _vec(start), _vec((0, 1, 0))))
    return shape


def _foot(C):
    """Foot plate with its roll axis (+x, y = 0) and a pin axis (+y) at each C_k scribed on top."""
    import Part

    box = Part.makeBox(220, 90, 20, _vec((30 - 110, -45, -55)))
    top = -35.0  # mm
    lines = [((-80, 0, top), (140, 0, top))] + [((c[0], -45, top), (c[0], 45, top)) for c in C]
    return _scribed(box, lines)


def _rod(b, c):
    """Rod cylinder from ``b`` to ``c`` with a line along +x (made normal to the rod) across its end at ``c``."""
    import Part

    axis = (c - b) / np.linalg.norm(c - b)
    x = np.array([1.0, 0.0, 0.0]) - axis[0] * axis
    x *= ROD_RADIUS / np.linalg.norm(x)
    rod = Part.makeCylinder(ROD_RADIUS, float(np.linalg.norm(c - b)), _vec(b), _vec(c - b))
    return _scribed(rod, [(c - x, c + x)])


def _parts(doc, A, B, C):
    """{name: Part::Feature} of the shank, foot, bars and rods, from the points [mm]."""
    import Part

    parts = {"shank": _feature(doc, "Shank", _shank(A)), "foot": _feature(doc, "Foot", _foot(C))}
    for k in range(2):
        n = k + 1
        length = float(np.linalg.norm(B[k] - A[k]))
        bar = Part.makeBox(length, 12, 8, _vec((B[k][0], B[k][1] - 6, B[k][2] - 4)))
        parts["bar%d" % n] = _feature(doc, "Bar%d" % n, bar)
        parts["rod%d" % n] = _feature(doc, "Rod%d" % n, _rod(B[k], C[k]))
    return parts


def _close(v, w):
    return np.linalg.norm(np.asarray([v.x, v.y, v.z]) - np.asarray(w, float)) < TOL


def _element(obj, kind, matches, what):
    """(obj, 'EdgeN' / 'FaceN') of the element of ``kind`` ('Edges', 'Faces') that ``matches``."""
    for k, element in enumerate(getattr(obj.Shape, kind)):
        if matches(element):
            return obj, "%s%d" % (kind[:-1], k + 1)
    raise ValueError("%s: no %s on %s" % (obj.Label, what, kind.lower()))


def circle(obj, centre, axis):
    """The circular edge of ``obj`` centred at ``centre`` [mm] with axis ``axis``."""
    return _element(
        obj,
        "Edges",
        lambda e: type(e.Curve).__name__ == "Circle" and _close(e.Curve.Center, centre) and _close(e.Curve.Axis, axis),
        "circle at %s" % list(centre),
    )


def line(obj, point, direction):
    """The straight edge of ``obj`` along unit ``direction`` (same sense) through ``point`` [mm]."""

    def matches(e):
        if type(e.Curve).__name__ not in ("Line", "LineSegment"):
            return False
        a, b = (np.array([v.Point.x, v.Point.y, v.Point.z]) for v in (e.Vertexes[0], e.Vertexes[-1]))
        t = np.dot(point - a, b - a) / np.dot(b - a, b - a)
        along = (b - a) / np.linalg.norm(b - a)
        return 0 <= t <= 1 and np.linalg.norm(a + t * (b - a) - point) < TOL and np.allclose(along, direction)

    return _element(obj, "Edges", matches, "line through %s" % list(point))


def plane(obj, centre):
    """The planar face of ``obj`` whose centroid is ``centre`` [mm]."""
    return _element(
        obj,
        "Faces",
        lambda f: type(f.Surface).__name__ == "Plane" and _close(f.CenterOfMass, centre),
        "face centred at %s" % list(centre),
    )


def cylinder(obj, centre, axis):
    """The cylindrical face of ``obj`` along unit ``axis`` whose centroid, projected on the axis, is ``centre`` [mm]."""

    def matches(f):
        if type(f.Surface).__name__ != "Cylinder" or not _close(f.Surface.Axis, axis):
            return False
        base = np.array([f.Surface.Center.x, f.Surface.Center.y, f.Surface.Center.z])
        cm = np.array([f.CenterOfMass.x, f.CenterOfMass.y, f.CenterOfMass.z])
        return np.linalg.norm(base + np.dot(cm - base, axis) * axis - centre) < TOL

    return _element(obj, "Faces", matches, "cylinder about %s" % list(centre))


def joint_picks(parts, A, B, C):
    """[(label, joint type, [(part, element), (part, element)])]: each joint's elements, body 1 first."""
    ex, ey = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    shank, foot = parts["shank"], parts["foot"]
    top = -35.0  # the foot's top face, where its axes are scribed [mm]
    out = [("Ankle", "universal", [cylinder(shank, np.zeros(3), ey), line(foot, np.array([30.0, 0, top]), ex)])]
    for k in range(2):
        n = k + 1
        bar, rod = parts["bar%d" % n], parts["rod%d" % n]
        rod_axis = (C[k] - B[k]) / np.linalg.norm(C[k] - B[k])
        foot_pin = np.array([C[k][0], C[k][1], top])
        out += [
            ("Motor%d" % n, "revolute", [circle(shank, A[k], ey), plane(bar, A[k])]),
            ("Ball%d" % n, "spherical", [plane(bar, B[k]), circle(rod, B[k], rod_axis)]),
            ("Cardan%d" % n, "universal", [line(rod, C[k], ex), line(foot, foot_pin, ey)]),
        ]
    return out


def build(doc):
    """Add the ankle to ``doc``; returns a dict of the created objects."""
    from MBDWorkbench.cad.joint_references import set_joint_frame
    from MBDWorkbench.cad.makers import make_body, make_driver, make_simulation
    from MBDWorkbench.cad.picking import make_joint_from_picks
    from MBDWorkbench.cad.placement import placement_from_axes

    g = AnkleGeometry()
    A, B, C = mm_points(g)
    sim = make_simulation(
        doc, EndTimeMilliseconds=2000, OutputStepMicroseconds=10000, StepMicroseconds=1000, Integrator="rk4"
    )
    parts = _parts(doc, A, B, C)
    doc.recompute()
    bodies = {
        name: make_body(doc, part, material=MATERIAL.get(name, "Steel"), grounded=name == "shank")
        for name, part in parts.items()
    }
    frames = explicit_frames(g)
    joints = {}
    for label, jtype, picks in joint_picks(parts, A, B, C):
        joints[label] = make_joint_from_picks(doc, jtype, picks, label=label)
        set_joint_frame(joints[label], placement_from_axes(*frames[label]))
    drivers = [
        make_driver(
            doc,
            joints["Motor%d" % n],
            profile="expression",
            label="Drive%d" % n,
            Expression="%.15g*sin(%.15g*t%s)" % (AMPLITUDE_DEG, 2 * math.pi * FREQUENCY, " + pi/2" if n == 2 else ""),
        )
        for n in (1, 2)
    ]
    doc.recompute()
    return dict(simulation=sim, bodies=bodies, joints=joints, drivers=drivers)


def main(out=None):
    from MBDWorkbench.cad.freecad_env import write_document

    write_document("ankle", build, out or os.path.join(HERE, "ankle.FCStd"))


if __name__ == "__main__":
    main(*sys.argv[1:2])
