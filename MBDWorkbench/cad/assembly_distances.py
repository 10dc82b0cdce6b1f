"""FreeCAD 1.x Assembly Distance joints: which of our joints each pair of elements becomes.

FreeCAD's ``AssemblyObject::getDistanceType`` names the pair of referenced elements (by their
OpenCASCADE curve and surface types) and puts the sides in its own order (``swapJCS``: plane
before cylinder before cone before torus before sphere; line before circle; a face before an
edge or a vertex, an edge before a vertex); ``makeMbdJointDistance`` then makes one of
OndselSolver's ASMT joints between the two JCS with the Distance d plus radii:

* SphSph (rod, length L) -> ``distance``; CylSph (the point at L from the first z axis) ->
  ``point_line_distance``; RevCyl (parallel z axes at L) -> ``line_line_distance``;
* PointInPlane, LineInPlane, Planar (offset L along the first z) -> ``point_in_plane``,
  ``line_in_plane``, ``planar`` with JCS1 moved by L along its z.

Radii are those of FreeCAD's ``getFaceRadius`` / ``getEdgeRadius``: a cylinder's, a sphere's or a
circle's radius, 0 for every other element (so a torus adds nothing). A pair without a rule of
its own (cones, a line and a curved face, a curve and a face, ...) gets FreeCAD's fallback, a
Planar joint at offset d between the two JCS: imported as that, with a note in the report.
The JCS of curved elements are the Assembly's (``UtilsAssembly.findPlacement`` for a Distance):
circle: centre, z on the circle axis; cylinder: on the axis at the face's centre of gravity;
sphere, torus: centre; cone: apex.
A leaf module (no document objects): the importer (:mod:`.assembly_import`) calls it.
"""

from __future__ import annotations

from dataclasses import dataclass

VERTEX, LINE, CIRCLE, CURVE = "vertex", "straight edge", "circular edge", "other edge"
PLANE, CYLINDER, SPHERE = "planar face", "cylindrical face", "spherical face"
CONE, TORUS, SURFACE = "conical face", "toroidal face", "other face"
_TOPOLOGY = {
    VERTEX: "Vertex",
    LINE: "Edge",
    CIRCLE: "Edge",
    CURVE: "Edge",
    PLANE: "Face",
    CYLINDER: "Face",
    SPHERE: "Face",
    CONE: "Face",
    TORUS: "Face",
    SURFACE: "Face",
}
_ZERO_MM = 1e-7  # FreeCAD's Precision::Confusion [mm]

# getDistanceType's order and names: for two edges or two faces, the first kind of these lists
# present goes first and {second kind: DistanceType}; other pairs give "Other".
_EDGE_PAIRS = ((LINE, {LINE: "LineLine", CIRCLE: "LineCircle"}), (CIRCLE, {CIRCLE: "CircleCircle"}))
_FACE_PAIRS = (
    (
        PLANE,
        {PLANE: "PlanePlane", CYLINDER: "PlaneCylinder", SPHERE: "PlaneSphere", CONE: "PlaneCone", TORUS: "PlaneTorus"},
    ),
    (CYLINDER, {CYLINDER: "CylinderCylinder", SPHERE: "CylinderSphere", CONE: "CylinderCone", TORUS: "CylinderTorus"}),
    (CONE, {CONE: "ConeCone", TORUS: "ConeTorus", SPHERE: "ConeSphere"}),
    (TORUS, {TORUS: "TorusTorus", SPHERE: "TorusSphere"}),
    (SPHERE, {SPHERE: "SphereSphere"}),
)
_FACE_NAMES = {PLANE: "Plane", CYLINDER: "Cylinder", SPHERE: "Sphere", CONE: "Cone", TORUS: "Torus"}


@dataclass(frozen=True)
class Rule:
    """What FreeCAD 1.0's solver makes of a DistanceType: our joint, at zero length (where the
    ASMT joint is singular or becomes another one), how the length L = d + radii enters
    ('shift': JCS1 moved by L along its z; 'length': the joint's ``length`` L) and whose radii
    are added (1: the first side's, 2: the second's)."""

    joint: str
    at_zero: str
    how: str
    radii: tuple[int, ...] = ()


RULES: dict[str, Rule] = {
    "PointPoint": Rule("distance", "spherical", "length"),
    "LineLine": Rule("line_line_distance", "cylindrical", "length"),
    "LineCircle": Rule("line_line_distance", "cylindrical", "length", (2,)),
    "CircleCircle": Rule("line_line_distance", "cylindrical", "length", (1, 2)),
    "PlanePlane": Rule("planar", "planar", "shift"),
    "PlaneCylinder": Rule("line_in_plane", "line_in_plane", "shift", (2,)),
    "PlaneSphere": Rule("point_in_plane", "point_in_plane", "shift", (2,)),
    "PlaneTorus": Rule("planar", "planar", "shift"),
    "CylinderCylinder": Rule("line_line_distance", "cylindrical", "length", (1, 2)),
    "CylinderSphere": Rule("point_line_distance", "point_on_line", "length", (1, 2)),
    "CylinderTorus": Rule("line_line_distance", "cylindrical", "length", (1,)),
    "TorusTorus": Rule("planar", "planar", "shift"),
    "TorusSphere": Rule("point_line_distance", "point_on_line", "length", (2,)),
    "SphereSphere": Rule("distance", "spherical", "length", (1, 2)),
    "PointPlane": Rule("point_in_plane", "point_in_plane", "shift"),
    "PointCylinder": Rule("point_line_distance", "point_on_line", "length", (1,)),
    "PointSphere": Rule("distance", "spherical", "length", (1,)),
    "LinePlane": Rule("line_in_plane", "line_in_plane", "shift"),
    "PointLine": Rule("point_line_distance", "point_on_line", "length"),
    "PointCurve": Rule("point_in_plane", "point_in_plane", "shift"),
}
FALLBACK = Rule("planar", "planar", "shift")  # makeMbdJointDistance's default (DistanceType Other, ...)
# Example pair (first, second) of each DistanceType, in FreeCAD's order (the docs' table).
EXAMPLES: dict[str, tuple[str, str]] = {
    "PointPoint": (VERTEX, VERTEX),
    "LineLine": (LINE, LINE),
    "LineCircle": (LINE, CIRCLE),
    "CircleCircle": (CIRCLE, CIRCLE),
    "PlanePlane": (PLANE, PLANE),
    "PlaneCylinder": (PLANE, CYLINDER),
    "PlaneSphere": (PLANE, SPHERE),
    "PlaneTorus": (PLANE, TORUS),
    "CylinderCylinder": (CYLINDER, CYLINDER),
    "CylinderSphere": (CYLINDER, SPHERE),
    "CylinderTorus": (CYLINDER, TORUS),
    "TorusTorus": (TORUS, TORUS),
    "TorusSphere": (TORUS, SPHERE),
    "SphereSphere": (SPHERE, SPHERE),
    "PointPlane": (PLANE, VERTEX),
    "PointCylinder": (CYLINDER, VERTEX),
    "PointSphere": (SPHERE, VERTEX),
    "LinePlane": (PLANE, LINE),
    "PointLine": (LINE, VERTEX),
    "PointCurve": (CIRCLE, VERTEX),
}


class DistanceUnsupported(ValueError):
    """A Distance joint this workbench cannot represent (the message says why)."""


def element_kind(shape) -> tuple[str, float]:
    """(kind, radius [mm]) of a Vertex, Edge or Face as FreeCAD's getDistanceType and
    getFaceRadius/getEdgeRadius see it; ('', 0) for other shapes."""
    stype = getattr(shape, "ShapeType", "")
    if stype == "Vertex":
        return VERTEX, 0.0
    if stype == "Edge":
        try:
            name = type(shape.Curve).__name__
        except Exception:  # a degenerated edge (a sphere's pole) has no curve
            return CURVE, 0.0
        if name in ("Line", "LineSegment"):
            return LINE, 0.0
        if name in ("Circle", "ArcOfCircle"):
            return CIRCLE, float(shape.Curve.Radius)
        return CURVE, 0.0
    if stype == "Face":
        surface = shape.Surface
        name = type(surface).__name__
        kinds = {"Plane": PLANE, "Cylinder": CYLINDER, "Sphere": SPHERE, "Cone": CONE, "Toroid": TORUS}
        kind = kinds.get(name, SURFACE)
        return kind, float(surface.Radius) if kind in (CYLINDER, SPHERE) else 0.0
    return "", 0.0


def distance_type(kind1: str, kind2: str) -> tuple[str, bool]:
    """(FreeCAD's DistanceType name, whether getDistanceType swaps the sides) of two element
    kinds; 'Other' where it has none."""
    t1, t2 = _TOPOLOGY[kind1], _TOPOLOGY[kind2]
    if t1 == t2 == "Vertex":
        return "PointPoint", False
    if t1 == t2:
        for first, names in _EDGE_PAIRS if t1 == "Edge" else _FACE_PAIRS:
            if first in (kind1, kind2):
                swap = kind1 != first
                return names.get(kind1 if swap else kind2, "Other"), swap
        return "Other", False
    rank = {"Face": 0, "Edge": 1, "Vertex": 2}  # a face first, then an edge
    swap = rank[t1] > rank[t2]
    first, second = (kind2, kind1) if swap else (kind1, kind2)
    if _TOPOLOGY[first] == "Edge":  # and a vertex
        return ("PointLine" if first == LINE else "PointCurve"), swap
    if first not in _FACE_NAMES:
        return "Other", swap
    if second == VERTEX:
        return "Point" + _FACE_NAMES[first], swap
    return ("Line" if second == LINE else "Curve") + _FACE_NAMES[first], swap


def map_distance(distance: float, side1: tuple, side2: tuple) -> tuple[str, tuple, tuple, float, float, list[str]]:
    """(our joint type, side carrying frame 1, side carrying frame 2, shift of JCS1 along its z
    [mm], length [mm], notes) of a Distance d [mm] between two sides (part, global JCS,
    element kind, radius [mm]), as FreeCAD 1.0's solver builds it."""
    kinds = (side1[2], side2[2])
    if not all(k in _TOPOLOGY for k in kinds):
        raise DistanceUnsupported(
            "Distance between %s and %s: the elements' geometry cannot be read"
            % tuple(k or "unknown geometry" for k in kinds)
        )
    name, swap = distance_type(*kinds)
    if swap:
        side1, side2 = side2, side1
    rule = RULES.get(name, FALLBACK)
    notes = []
    if name not in RULES:
        notes.append(
            "Distance between %s and %s (FreeCAD's DistanceType %s) has no rule of its own in FreeCAD 1.0: "
            "imported as its solver's fallback, a planar joint between the two JCS at offset d"
            % (side1[2], side2[2], name)
        )
    sides = (side1, side2)
    total = distance + sum(sides[k - 1][3] for k in rule.radii)
    if name == "PointPoint" and distance < _ZERO_MM:  # FreeCAD's own rule: a Ball joint
        return "spherical", side1, side2, 0.0, 0.0, notes
    if rule.how == "shift":
        return rule.joint, side1, side2, total, 0.0, notes
    if abs(total) <= _ZERO_MM:
        return rule.at_zero, side1, side2, 0.0, 0.0, notes
    if total < 0:
        raise DistanceUnsupported(
            "%s Distance of %g mm (length d + radii = %g mm: a length must be positive)" % (name, distance, total)
        )
    return rule.joint, side1, side2, 0.0, total, notes


def rule_rows() -> list[tuple[str, str]]:
    """(Assembly case, what it is imported as) rows for the docs' table."""
    how = {"shift": "frame 1 (JCS1) moved by L along its z", "length": "`length` = L"}
    rows = []
    for name, rule in RULES.items():
        first, second = EXAMPLES[name]
        radii = "".join(" + r%d" % k for k in rule.radii)
        case = f"Distance {name} ({first} - {second}), L = d{radii}"
        zero = "" if rule.how == "shift" else f"; L = 0: {rule.at_zero}"
        if name == "PointPoint":
            zero = "; d = 0 (or < 0): spherical"
        rows.append((case, f"{rule.joint} ({how[rule.how]}{zero})"))
    rows.append(
        (
            "Distance, any other pair (cones, line-cylinder, curve-face, ...), L = d",
            f"{FALLBACK.joint} ({how[FALLBACK.how]}; FreeCAD's fallback, noted in the report)",
        )
    )
    return rows
