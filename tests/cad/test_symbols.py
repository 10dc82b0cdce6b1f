"""Geometry of the spring and force symbols (commands/symbols.py), headless: the coil runs
between the attachment points, the arrow starts at the application point along the force,
and a symbol follows its body when the part is shown at another placement."""

import math

import pytest

from MBDWorkbench.commands import symbols


def _close(a, b, tol=1e-9):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _dist_to_line(p, a, b):
    d = [b[i] - a[i] for i in range(3)]
    ap = [p[i] - a[i] for i in range(3)]
    c = symbols._cross(ap, d)
    return symbols._norm(c) / symbols._norm(d)


def test_helix_runs_between_the_points_within_its_radius():
    p1, p2 = (1.0, 2.0, 3.0), (31.0, -8.0, 13.0)
    pts = symbols.helix(p1, p2, radius=2.5, coils=5)
    assert _close(pts[0], p1) and _close(pts[-1], p2)
    assert max(_dist_to_line(p, p1, p2) for p in pts) == pytest.approx(2.5, rel=1e-2)
    # it winds: the offset from the axis turns through 5 coils (sign changes of its u component)
    u, v, w = symbols.basis(symbols._sub(p2, p1))
    axis_len = symbols._norm(symbols._sub(p2, p1))
    offsets = []
    for p in pts:
        ap = symbols._sub(p, p1)
        s = sum(ap[i] * w[i] for i in range(3))
        off = symbols._sub(ap, tuple(s * w[i] for i in range(3)))
        offsets.append(sum(off[i] * v[i] for i in range(3)))
        assert -1e-9 <= s <= axis_len + 1e-9
    crossings = sum(1 for a, b in zip(offsets, offsets[1:]) if a * b < 0)
    assert 8 <= crossings <= 11


def test_arrow_starts_at_the_point_along_the_force():
    sym = symbols.arrow((1.0, 1.0, 1.0), (0.0, 3.0, 4.0), 50.0)
    (tail, tip), (head, unit) = sym.lines[0], sym.head
    assert _close(tail, (1, 1, 1)) and _close(tip, (1.0, 31.0, 41.0)) and _close(head, tip)
    assert _close(unit, (0.0, 0.6, 0.8))
    assert symbols.arrow((0, 0, 0), (0, 0, 0), 50.0).lines == []


def test_curved_arrow_is_a_right_handed_arc_about_the_axis():
    point, axis = (5.0, 0.0, 0.0), (0.0, 0.0, 2.0)
    sym = symbols.curved_arrow(point, axis, 10.0)
    arc = sym.lines[0]
    assert all(math.dist(p, point) == pytest.approx(10.0) and p[2] == pytest.approx(0.0) for p in arc)
    (tip, tangent) = sym.head
    radial = symbols._sub(tip, point)
    # right-handed about +z: radial x tangent points along the axis
    assert symbols._cross(radial, tangent)[2] > 0
    assert _close(tip, arc[-1])


def test_symbols_follow_the_body(App, doc):
    from MBDWorkbench.cad.makers import make_body, make_force, make_simulation, make_spring_damper

    make_simulation(doc)
    box = doc.addObject("Part::Box", "Box")
    box.Placement = App.Placement(App.Vector(10, 0, 0), App.Rotation(App.Vector(0, 0, 1), 30))
    doc.recompute()
    body = make_body(doc, box)
    spring = make_spring_damper(doc, None, (0, 0, 100), body, (12, 3, 4))
    force = make_force(doc, body, ("0", "0", "-5"), point=(15, 5, 5), axes="body")
    doc.recompute()
    size = 40.0
    # at the document placements
    sym = symbols.symbol(spring, size)
    assert _close(sym.lines[0][0], (0, 0, 100)) and _close(sym.lines[0][-1], (12, 3, 4))
    # the part shown rotated 90 deg about x and moved: the body point goes with it, the ground one stays
    shown_plc = App.Placement(App.Vector(-3, 7, 2), App.Rotation(App.Vector(1, 0, 0), 90))
    shown = {box.Name: shown_plc}
    local = box.Placement.inverse().multVec(App.Vector(12, 3, 4))  # independent: via the box's own frame
    expected = shown_plc.multVec(local)
    sym = symbols.symbol(spring, size, shown)
    assert _close(sym.lines[0][0], (0, 0, 100)) and _close(sym.lines[0][-1], tuple(expected), 1e-9)
    arrow = symbols.symbol(force, size, shown)
    tail = shown_plc.multVec(box.Placement.inverse().multVec(App.Vector(15, 5, 5)))
    assert _close(arrow.lines[0][0], tuple(tail), 1e-9)
    # body axes: the -z of the box's frame, carried by the shown rotation
    direction = shown_plc.Rotation.multVec(App.Vector(0, 0, -1))
    assert _close(arrow.head[1], tuple(direction), 1e-9)
    assert math.dist(arrow.lines[0][0], arrow.lines[0][1]) == pytest.approx(size)
