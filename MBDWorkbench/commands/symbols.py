"""Geometry of the 3D symbols of springs, dampers, forces and torques [mm, global].

A symbol is a polyline and an optional cone (an arrow head). The attachment points and
frames are the objects' global values at the document configuration; while the animation
shows the parts elsewhere (``shown``: {part name: shown global Placement}) each point is
carried by its body's motion ``shown * document^-1`` (:func:`body_motion`), so the symbols
follow the parts without touching the document. The view providers
(:mod:`.view_providers`) turn a :class:`Symbol` into Coin nodes.

* translational spring-damper: a helix between Point1 (on Body1) and Point2 (on Body2), with
  straight leads at both ends;
* rotational spring-damper: a flat spiral in the xy plane of its joint's frame (about z),
  carried by the joint's Body1;
* point force: an arrow of constant length starting at the application point, along the
  force (components in global axes or in the body's axes, expressions at the shown time);
* torque: a circular arc with a head, about the torque vector at the application point,
  and the axis as a line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..cad.objects import find_objects, mbd_type
from ..cad.placement import app_vector

if TYPE_CHECKING:
    import FreeCAD as App

Vec = tuple[float, float, float]
Shown = dict  # {part object name: global App.Placement [mm]} of parts shown away from the document

SPRING_COLOR = (1.0, 0.55, 0.0)  # orange (joint axes are red, green, blue)
FORCE_COLOR = (0.85, 0.1, 0.85)  # magenta
TORQUE_COLOR = (0.0, 0.75, 0.8)  # cyan
SIZE_FRACTION = 0.2  # symbol size / model size (bounding box diagonal of the bodies' parts)


@dataclass
class Symbol:
    """Polylines [mm] and an optional arrow head (tip point [mm], unit direction)."""

    lines: list[list[Vec]] = field(default_factory=list)
    head: tuple[Vec, Vec] | None = None
    color: Vec = SPRING_COLOR


# ---------------------------------------------------------------------- pure geometry
def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a, b, s=1.0):
    return (a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2])


def _norm(a):
    return math.sqrt(a[0] ** 2 + a[1] ** 2 + a[2] ** 2)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def basis(w: Vec) -> tuple[Vec, Vec, Vec]:
    """Right-handed orthonormal (u, v, w) with w along ``w`` (non-zero)."""
    n = _norm(w)
    w = (w[0] / n, w[1] / n, w[2] / n)
    helper = (1.0, 0.0, 0.0) if abs(w[0]) < 0.9 else (0.0, 1.0, 0.0)
    u = _cross(helper, w)
    nu = _norm(u)
    u = (u[0] / nu, u[1] / nu, u[2] / nu)
    return u, _cross(w, u), w


def helix(p1: Vec, p2: Vec, radius: float, coils: int = 8, per_coil: int = 12, lead: float = 0.12) -> list[Vec]:
    """Polyline of a coil spring from ``p1`` to ``p2`` [mm]: straight leads (``lead`` of the
    length) at both ends, ``coils`` turns of ``radius`` between them."""
    d = _sub(p2, p1)
    length = _norm(d)
    if length < 1e-9:
        return [tuple(p1), tuple(p2)]
    u, v, w = basis(d)
    a, b = _add(p1, d, lead), _add(p1, d, 1.0 - lead)
    n = coils * per_coil
    pts = [tuple(p1), a]
    for i in range(n + 1):
        s = i / n
        phi = 2.0 * math.pi * coils * s
        r = radius * math.sin(math.pi * min(1.0, 4.0 * min(s, 1.0 - s)) / 2.0)  # eases in and out
        c = _add(a, _sub(b, a), s)
        pts.append(_add(_add(c, u, r * math.cos(phi)), v, r * math.sin(phi)))
    pts += [b, tuple(p2)]
    return pts


def spiral(frame: App.Placement, r_inner: float, r_outer: float, turns: float = 2.5, n: int = 60) -> list[Vec]:
    """Flat spiral [mm] about the z axis of the global placement ``frame``, from its origin
    out to ``r_outer``, with a straight end radially outwards (the spring's arm)."""
    local = [(0.0, 0.0, 0.0)]
    for i in range(n + 1):
        s = i / n
        r, phi = r_inner + (r_outer - r_inner) * s, 2.0 * math.pi * turns * s
        local.append((r * math.cos(phi), r * math.sin(phi), 0.0))
    phi = 2.0 * math.pi * turns
    local.append((1.3 * r_outer * math.cos(phi), 1.3 * r_outer * math.sin(phi), 0.0))
    return [_vec(frame.multVec(app_vector(*p))) for p in local]


def arrow(point: Vec, direction: Vec, length: float) -> Symbol:
    """Arrow of ``length`` [mm] from ``point`` along ``direction`` (nothing for a zero vector)."""
    n = _norm(direction)
    if n < 1e-12:
        return Symbol([], None, FORCE_COLOR)
    unit = (direction[0] / n, direction[1] / n, direction[2] / n)
    tip = _add(point, unit, length)
    return Symbol([[tuple(point), tip]], (tip, unit), FORCE_COLOR)


def curved_arrow(point: Vec, axis: Vec, radius: float, sweep: float = 1.5 * math.pi, n: int = 36) -> Symbol:
    """Right-handed arc of ``radius`` [mm] about ``axis`` through ``point``, with a head at its
    end, and the axis as a line through the point (nothing for a zero vector)."""
    if _norm(axis) < 1e-12:
        return Symbol([], None, TORQUE_COLOR)
    u, v, w = basis(axis)
    arc = []
    for i in range(n + 1):
        phi = sweep * i / n
        arc.append(_add(_add(point, u, radius * math.cos(phi)), v, radius * math.sin(phi)))
    tangent = (
        -u[0] * math.sin(sweep) + v[0] * math.cos(sweep),
        -u[1] * math.sin(sweep) + v[1] * math.cos(sweep),
        -u[2] * math.sin(sweep) + v[2] * math.cos(sweep),
    )
    axis_line = [_add(point, w, -0.6 * radius), _add(point, w, 0.6 * radius)]
    return Symbol([arc, axis_line], (arc[-1], tangent), TORQUE_COLOR)


# ---------------------------------------------------------------------- FreeCAD side
def _vec(v) -> Vec:
    return (float(v.x), float(v.y), float(v.z))


def body_motion(body: App.DocumentObject | None, shown: Shown | None) -> App.Placement:
    """Placement carrying the body's global points at the document configuration to where
    the body is shown: ``shown[part] * document global placement(part)^-1`` [mm]; identity for
    the ground, a grounded body, or with nothing shown elsewhere."""
    import FreeCAD as App

    part = getattr(body, "Part", None) if body is not None else None
    if not shown or part is None or part.Name not in shown:
        return App.Placement()
    from ..cad.document_model import global_placement

    return shown[part.Name].multiply(global_placement(part).inverse())


def model_size(doc: App.Document, default: float) -> float:
    """Diagonal [mm] of the bounding box of the document's bodies' parts (``default`` if none)."""
    box = None
    for body in find_objects(doc, "Body"):
        try:
            import Part

            bb = Part.getShape(body.Part).BoundBox
        except Exception:
            continue
        if not bb.isValid():
            continue
        if box is None:
            box = bb
        else:
            box.add(bb)
    return float(box.DiagonalLength) if box is not None and box.DiagonalLength > 0 else default


def component_values(obj: App.DocumentObject, t: float | None) -> Vec:
    """The X, Y, Z components of a Force at time ``t`` [s] (0 when None); an expression that
    cannot be evaluated counts as 0."""
    out = []
    for name in "XYZ":
        text = str(getattr(obj, name, "0")).strip() or "0"
        try:
            out.append(float(text))
        except ValueError:
            out.append(_expression(text, 0.0 if t is None else t))
    return tuple(out)


_programs: dict = {}


def _expression(text: str, t: float) -> float:
    try:
        if text not in _programs:
            from ..solver.model.expressions import compile_expression

            _programs[text] = compile_expression(text)
        value = _programs[text](t)[0]
    except Exception:
        return 0.0
    return value if math.isfinite(value) else 0.0


def symbol(obj: App.DocumentObject, size: float, shown: Shown | None = None, t: float | None = None) -> Symbol:
    """The symbol of a SpringDamper or Force ``obj`` with symbols of ``size`` [mm], the parts
    shown at ``shown`` (None: at their document placements) at time ``t`` [s]."""
    kind = mbd_type(obj)
    if kind == "SpringDamper" and obj.Kind == "rotational":
        joint = obj.Joint
        if joint is None or not hasattr(joint, "Frame"):
            return Symbol()
        frame = body_motion(joint.Body1, shown).multiply(joint.Frame)
        return Symbol([spiral(frame, 0.05 * size, 0.3 * size)], None, SPRING_COLOR)
    if kind == "SpringDamper":
        p1 = _vec(body_motion(obj.Body1, shown).multVec(obj.Point1))
        p2 = _vec(body_motion(obj.Body2, shown).multVec(obj.Point2))
        return Symbol([helix(p1, p2, 0.12 * size)], None, SPRING_COLOR)
    if kind == "Force":
        motion = body_motion(obj.Body, shown)
        point = _vec(motion.multVec(obj.Point))
        direction = component_values(obj, t)
        if obj.Axes == "body" and getattr(obj.Body, "Part", None) is not None:
            from ..cad.document_model import global_placement

            rotation = motion.Rotation.multiply(global_placement(obj.Body.Part).Rotation)
            direction = _vec(rotation.multVec(app_vector(*direction)))
        if obj.Kind == "torque":
            return curved_arrow(point, direction, 0.3 * size)
        return arrow(point, direction, size)
    return Symbol()
