"""Contact geometry of a part read from its CAD solid (issue 33, item 2).

Faces that are planes, cylinders, spheres, cones or tori become :class:`AnalyticFace` records
(parameters in SI, in the body frame) for the exact pairs of ``solver/numerics/contact_geometry``;
the solid as a whole is tessellated with a linear deflection for the mesh library. A shape that
is not a closed solid, or whose tessellation would exceed :data:`MAX_CONTACT_TRIANGLES`, is
refused with a :class:`CadError` naming the part (and the estimate).

The body frame is given as ``origin_mm`` (FreeCAD mm, global) and ``rotation`` (3x3, the body's
axes as columns in global coordinates): a global point p [mm] is at R^T (p - origin) / 1000 [m].
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .errors import CadError

# Tessellation bounds (docs: contact-geometry.md); they move to solver/model/limits.py when
# contact pairs enter the model.
MAX_CONTACT_TRIANGLES = 2_000_000  # per part: a BVH over more costs > 200 MB and seconds to build
BYTES_PER_TRIANGLE = 120  # triangle indices, its share of the vertices, BVH nodes (python-fcl)
MIN_DEFLECTION_MM = 1e-4  # below this OCC's meshing tolerance (1e-7 mm) ruins the mesh anyway
MM = 1e-3


@dataclass(frozen=True)
class AnalyticFace:
    """One exact face: ``kind`` in {plane, cylinder, sphere, cone, torus}; ``params`` in SI
    (m, rad) in the body frame: plane {point, normal (outward)}; cylinder {point, axis, radius};
    sphere {center, radius}; cone {apex, axis, semi_angle}; torus {center, axis, major_radius,
    minor_radius}. ``convex`` is False for a hole (cylinder, sphere, cone or torus whose outward
    normal points towards the axis or centre). ``area`` [m^2]; ``index``: FreeCAD's Face<index+1>."""

    kind: str
    index: int
    area: float
    convex: bool
    params: dict = field(default_factory=dict)


def _vec(v) -> np.ndarray:
    return np.array([v.x, v.y, v.z], dtype=float)


def require_closed_solid(shape, part: str) -> None:
    """Raise a CadError naming ``part`` unless ``shape`` is a valid closed solid."""
    if shape is None or shape.isNull():
        raise CadError(f"Contact shape of '{part}': the part has no shape")
    if not shape.Solids:
        raise CadError(f"Contact shape of '{part}': not a solid ({shape.ShapeType}); contact needs a closed solid")
    open_shells = [i for i, shell in enumerate(shape.Shells) if not shell.isClosed()]
    if open_shells or not shape.isValid():
        raise CadError(f"Contact shape of '{part}': the solid is not closed or not valid (open shells {open_shells})")


class _Frame:
    """Global mm -> body frame m."""

    def __init__(self, origin_mm, rotation):
        self.origin = np.asarray(origin_mm, dtype=float)
        self.rotation = np.eye(3) if rotation is None else np.asarray(rotation, dtype=float)

    def point(self, v) -> np.ndarray:
        return self.rotation.T @ (_vec(v) - self.origin) * MM

    def direction(self, v) -> np.ndarray:
        d = self.rotation.T @ _vec(v)
        return d / np.linalg.norm(d)


def _outward_normal_at_middle(face) -> np.ndarray:
    u0, u1, v0, v1 = face.ParameterRange
    return _vec(face.normalAt(0.5 * (u0 + u1), 0.5 * (v0 + v1))), face.valueAt(0.5 * (u0 + u1), 0.5 * (v0 + v1))


def _convex_about_axis(face, axis_point, axis) -> bool:
    normal, point = _outward_normal_at_middle(face)
    radial = _vec(point) - _vec(axis_point)
    radial -= np.dot(radial, _vec(axis)) * _vec(axis) / _vec(axis).dot(_vec(axis))
    return bool(np.dot(normal, radial) > 0.0)


def _convex_about_point(face, centre) -> bool:
    normal, point = _outward_normal_at_middle(face)
    return bool(np.dot(normal, _vec(point) - _vec(centre)) > 0.0)


def _analytic(face, index: int, frame: _Frame) -> AnalyticFace | None:
    """The face as an AnalyticFace, or None when its surface is not one of the five kinds."""
    s, area = face.Surface, face.Area * MM**2
    kind = type(s).__name__
    if kind == "Plane":
        normal, point = _outward_normal_at_middle(face)
        params = {"point": frame.point(point), "normal": frame.rotation.T @ (normal / np.linalg.norm(normal))}
        return AnalyticFace("plane", index, area, True, params)
    if kind == "Cylinder":
        params = {"point": frame.point(s.Center), "axis": frame.direction(s.Axis), "radius": s.Radius * MM}
        return AnalyticFace("cylinder", index, area, _convex_about_axis(face, s.Center, s.Axis), params)
    if kind == "Sphere":
        params = {"center": frame.point(s.Center), "radius": s.Radius * MM}
        return AnalyticFace("sphere", index, area, _convex_about_point(face, s.Center), params)
    if kind == "Cone":
        params = {"apex": frame.point(s.Apex), "axis": frame.direction(s.Axis), "semi_angle": float(s.SemiAngle)}
        return AnalyticFace("cone", index, area, _convex_about_axis(face, s.Apex, s.Axis), params)
    if kind == "Toroid":
        params = {
            "center": frame.point(s.Center),
            "axis": frame.direction(s.Axis),
            "major_radius": s.MajorRadius * MM,
            "minor_radius": s.MinorRadius * MM,
        }
        return AnalyticFace("torus", index, area, _convex_about_axis(face, s.Center, s.Axis), params)
    return None


def classify_faces(shape, part: str, origin_mm=(0.0, 0.0, 0.0), rotation=None):
    """(analytic faces, indices of the other faces) of a closed solid, in the body frame."""
    require_closed_solid(shape, part)
    frame = _Frame(origin_mm, rotation)
    analytic, others = [], []
    for index, face in enumerate(shape.Faces):
        record = _analytic(face, index, frame)
        (analytic if record is not None else others).append(record if record is not None else index)
    return analytic, others


def _curvature_radius_mm(face) -> float:
    s = face.Surface
    for name in ("MinorRadius", "Radius"):
        if hasattr(s, name):
            return float(getattr(s, name))
    return 0.5 * face.BoundBox.DiagonalLength  # freeform: the face's size (a rough lower bound)


def estimate_triangles(shape, deflection_mm: float) -> int:
    """Triangles a mesh of ``shape`` with chord deflection ``deflection_mm`` needs, estimated
    before meshing: a curved face of radius R gets edges sqrt(8 R d) long, i.e. area / (4 R d)
    triangles; a plane face two per edge."""
    total = 0.0
    for face in shape.Faces:
        if type(face.Surface).__name__ == "Plane":
            total += 2 * len(face.Edges) + 2
        else:
            total += face.Area / (4.0 * _curvature_radius_mm(face) * deflection_mm) + 2
    return int(total)


def check_mesh_size(shape, deflection_mm: float, part: str) -> int:
    """The triangle estimate, or a CadError naming ``part`` with the estimate beyond the bound."""
    if not deflection_mm >= MIN_DEFLECTION_MM:
        raise CadError(f"Contact shape of '{part}': deflection {deflection_mm} mm is below {MIN_DEFLECTION_MM} mm")
    estimate = estimate_triangles(shape, deflection_mm)
    if estimate > MAX_CONTACT_TRIANGLES:
        raise CadError(
            f"Contact shape of '{part}': a mesh with deflection {deflection_mm} mm needs about {estimate} triangles "
            f"({estimate * BYTES_PER_TRIANGLE / 2**20:.0f} MB), beyond {MAX_CONTACT_TRIANGLES}; raise the deflection"
        )
    return estimate


def mesh_arrays(shape, deflection_mm: float, MeshPart) -> tuple[np.ndarray, np.ndarray]:
    """(vertices [mm, global] N x 3, triangles M x 3 int64) of a linear-deflection mesh."""
    mesh = MeshPart.meshFromShape(Shape=shape, LinearDeflection=deflection_mm, AngularDeflection=3.0, Relative=False)
    points, facets = mesh.Topology
    return np.array([[p.x, p.y, p.z] for p in points]), np.array(facets, dtype=np.int64).reshape(-1, 3)


def contact_mesh(shape, deflection_mm: float, part: str, origin_mm=(0.0, 0.0, 0.0), rotation=None):
    """(vertices [m, body frame], triangles) of a closed solid, refused beyond the size bound."""
    import MeshPart

    require_closed_solid(shape, part)
    check_mesh_size(shape, deflection_mm, part)
    vertices, triangles = mesh_arrays(shape, deflection_mm, MeshPart)
    if len(triangles) > MAX_CONTACT_TRIANGLES:
        raise CadError(f"Contact shape of '{part}': the mesh has {len(triangles)} triangles, beyond the bound")
    frame = _Frame(origin_mm, rotation)
    return (vertices - frame.origin) @ frame.rotation * MM, triangles
