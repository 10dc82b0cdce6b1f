"""A picked rectangular plane face as a bounded ``face`` contact shape (docs/contact.md, "Bounded
faces"): used instead of the unbounded ``plane`` when the Contact object's ``BoundedFaces`` is
set (a pin in a slot: each wall is a rectangle). Read in the body's frame, mm converted to m.
"""

from __future__ import annotations

import numpy as np

from .errors import CadError

MM = 1e-3
RIGHT = 1e-9  # |cos| of the angle between adjacent edges below this: a right angle
CLOSED = 1e-7  # relative: opposite edges equal and opposite, the ray's start on the face
RAY_START_MM = 1e-4  # the thickness ray starts this far behind the face [mm]


def rectangle(face) -> tuple[np.ndarray, np.ndarray, float, float] | None:
    """(centre [mm], unit axis along the first edge, length, width [mm]), global, of a plane face
    bounded by one wire of 4 straight edges at right angles; None for any other face."""
    if len(face.Wires) != 1 or len(face.Edges) != 4:
        return None
    if any(type(e.Curve).__name__ not in ("Line", "LineSegment") for e in face.Edges):
        return None
    corners = [np.array([v.Point.x, v.Point.y, v.Point.z]) for v in face.OuterWire.OrderedVertexes]
    if len(corners) != 4:
        return None
    edges = [corners[(k + 1) % 4] - corners[k] for k in range(4)]
    length, width = float(np.linalg.norm(edges[0])), float(np.linalg.norm(edges[1]))
    size = max(length, width)
    if np.linalg.norm(edges[0] + edges[2]) > CLOSED * size or np.linalg.norm(edges[1] + edges[3]) > CLOSED * size:
        return None
    if abs(float(edges[0] @ edges[1])) > RIGHT * length * width:
        return None
    return np.mean(corners, axis=0), edges[0] / length, length, width


def thickness_mm(shape, centre_mm: np.ndarray, normal: np.ndarray) -> float:
    """The solid's thickness [mm] behind a face's point along its inward normal (a ray through the
    solid from that point, to where it first leaves it)."""
    import FreeCAD as App
    import Part

    start = App.Vector(*(centre_mm - RAY_START_MM * normal))
    end = App.Vector(*(centre_mm - 2.0 * shape.BoundBox.DiagonalLength * normal))
    inside = shape.common(Part.LineSegment(start, end).toShape())
    for edge in inside.Edges:
        if min(v.Point.distanceToPoint(start) for v in edge.Vertexes) <= CLOSED * shape.BoundBox.DiagonalLength:
            return float(edge.Length) + RAY_START_MM
    raise CadError("no solid behind the face's centre (its normal may point into the solid)")


def bounded_face(shape, index: int, normal_body: np.ndarray, frame, where: str) -> dict:
    """The ``face`` shape of face ``index`` of ``shape`` (its outward normal in the body frame),
    in the body frame ``frame`` (contact_import.BodyFrame); depth: half the solid's thickness
    behind its centre. CadError naming ``where`` for a face that is not a rectangle."""
    found = rectangle(shape.Faces[index])
    if found is None:
        raise CadError(
            "BoundedFaces: %s is not a rectangle (one wire of 4 straight edges at right angles); pick a "
            "rectangular face or clear BoundedFaces (the face's whole plane)" % where
        )
    centre, axis, length, width = found
    normal = frame.rotation @ np.asarray(normal_body, float)
    depth = 0.5 * thickness_mm(shape, centre, normal)
    return {
        "type": "face",
        "center": (frame.rotation.T @ (centre - frame.origin_mm) * MM).tolist(),
        "normal": list(map(float, normal_body)),
        "axis": (frame.rotation.T @ axis).tolist(),
        "length": length * MM,
        "width": width * MM,
        "depth": depth * MM,
    }
