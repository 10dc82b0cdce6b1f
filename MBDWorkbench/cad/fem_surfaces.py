"""Where each joint's load lands on a body's part for the FEM check (docs/fem.md): the faces or
edges its references name, and for a pin on a bore or a shaft the outward normals that give
the bearing (cosine) pressure over the loaded half (:func:`MBDWorkbench.loads.nodal.bearing_forces`).

* A face reference is used as it is; an edge gives its adjacent cylindrical or spherical faces
  (a hole's edge: the hole); a straight edge of a pin joint (revolute, cylindrical) with no
  curved face next to it is the hinge line itself (a line load); other edges and vertices give
  their adjacent faces.
* A pin joint (revolute, cylindrical, spherical) whose surface is not a cylinder or a sphere
  gets a warning: its local stresses are not those of a bearing."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from .errors import CadError
from .objects import find_objects

PIN_JOINTS = ("revolute", "cylindrical", "spherical")  # joints carried by a bore or a shaft
BEARING_SURFACES = ("Cylinder", "Sphere")


@dataclass
class LoadSurface:
    """The faces (or, for a hinge line, the edges) of the part a joint's load is spread on;
    ``bearing``: the faces are cylinders/spheres and the load goes on as a bearing pressure;
    ``warning``: why the surface does not look like a bearing surface, or None."""

    joint: str
    faces: list = field(default_factory=list)
    edges: list = field(default_factory=list)
    bearing: bool = False
    warning: str | None = None

    @property
    def references(self) -> list:
        """Element names, faces first."""
        return self.faces + self.edges


def surface_kind(shape, name: str) -> str:
    """Class name of a face's surface ('Plane', 'Cylinder', 'Sphere', ...)."""
    return shape.getElement(name).Surface.__class__.__name__


def _adjacent_faces(shape, name: str) -> list:
    sub = shape.getElement(name)
    subs = (lambda f: f.Edges) if name.startswith("Edge") else (lambda f: f.Vertexes)
    return ["Face%d" % (k + 1) for k, f in enumerate(shape.Faces) if any(sub.isSame(s) for s in subs(f))]


def _is_straight(shape, edge: str) -> bool:
    return shape.getElement(edge).Curve.__class__.__name__ in ("Line", "LineSegment")


def reference_elements(ref: str, part, shape, pin: bool) -> tuple[list, list]:
    """(faces, hinge edges) of the part in a joint reference 'Edge3 of Part' / 'Face2,Face5 of Part'
    (module docstring); nothing when the reference is on another part."""
    if " of " not in ref:
        return [], []
    elements, label = ref.rsplit(" of ", 1)
    if label.strip() != part.Label:
        return [], []
    faces, edges = [], []
    for name in re.split(r"[,+ ]+", elements.strip()):
        if name.startswith("Face"):
            faces.append(name)
        elif name.startswith(("Edge", "Vertex")):
            adjacent = _adjacent_faces(shape, name)
            curved = [f for f in adjacent if surface_kind(shape, f) in BEARING_SURFACES]
            if curved:
                faces += curved
            elif pin and name.startswith("Edge") and _is_straight(shape, name):
                edges.append(name)
            else:
                faces += adjacent
    return faces, edges


def _ordered(names) -> list:
    return sorted(set(names), key=lambda f: int(re.sub(r"\D", "", f)))


def load_surface(joint, refs: list, body_obj, shape) -> LoadSurface:
    """The LoadSurface of ``joint`` (a model Joint) on the body; CadError naming the joint when
    none of its references is on the body's part."""
    pin = joint.type in PIN_JOINTS
    faces, edges = [], []
    for ref in refs:
        f, e = reference_elements(ref, body_obj.Part, shape, pin)
        faces, edges = faces + f, edges + e
    if not faces and not edges:
        raise CadError(
            "joint '%s': no face reference on body '%s' (its references: %s); pick the joint on the part's "
            "faces or edges" % (joint.name, body_obj.Label, ", ".join(repr(r) for r in refs) or "none")
        )
    faces, edges = _ordered(faces), _ordered(edges)
    kinds = {surface_kind(shape, f) for f in faces}
    bearing = pin and bool(faces) and not edges and kinds <= set(BEARING_SURFACES)
    warning = None
    if pin and not bearing:
        where = ", ".join(faces + edges)
        what = "a straight edge (a line load)" if edges else "not a cylinder or sphere (%s)" % ", ".join(sorted(kinds))
        warning = (
            "joint '%s' (%s) on body '%s': its load lands on %s of %s, %s, not a bore or a shaft: the stresses "
            "next to it are not bearing stresses" % (joint.name, joint.type, body_obj.Label, where,
                                                     body_obj.Part.Label, what)
        )  # fmt: skip
    return LoadSurface(joint.name, faces, edges, bearing, warning)


def joint_surfaces(doc, model, body: str, body_obj, shape) -> dict:
    """{joint name: LoadSurface} of every joint on the body (its references read from the
    document's joint object)."""
    names = {o.Label: o for o in find_objects(doc, "Joint")}
    out = {}
    for j in model.joints:
        if body not in (j.body_i, j.body_j):
            continue
        obj = names.get(j.name) or next((o for o in names.values() if o.Name == j.name), None)
        refs = [str(getattr(obj, "Reference%d" % k, "") or "") for k in (1, 2)] if obj is not None else []
        out[j.name] = load_surface(j, refs, body_obj, shape)
    return out


def surface_nodes(surface: LoadSurface, fem_mesh, shape) -> list:
    """Mesh node ids on the surface's faces and edges."""
    nodes = set()
    for f in surface.faces:
        nodes.update(fem_mesh.getNodesByFace(shape.getElement(f)))
    for e in surface.edges:
        nodes.update(fem_mesh.getNodesByEdge(shape.getElement(e)))
    return sorted(nodes)


def outward_normals(surface: LoadSurface, fem_mesh, shape, coords: dict) -> dict:
    """{node: outward unit normal (of the solid)} on a bearing surface's cylinders and spheres:
    the radial direction from the axis (or centre), its sign from the face's own normal."""
    import FreeCAD as App

    out = {}
    for name in surface.faces:
        face = shape.getElement(name)
        s = face.Surface
        centre = np.array(s.Center)
        axis = np.array(s.Axis) if surface_kind(shape, name) == "Cylinder" else np.zeros(3)
        probe = face.Vertexes[0].Point if face.Vertexes else face.CenterOfMass
        outward = np.array(face.normalAt(*s.parameter(App.Vector(probe))))
        sign = np.sign(outward @ radial(np.array(probe), centre, axis))
        for n in fem_mesh.getNodesByFace(face):
            out[n] = sign * radial(coords[n], centre, axis)
    return out


def radial(x: np.ndarray, centre: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """Unit vector from the axis through ``centre`` along ``axis`` (zero: from the point) to ``x``."""
    d = np.asarray(x, float) - centre
    d = d - (d @ axis) * axis
    return d / np.linalg.norm(d)


def surface_centroid(surface: LoadSurface, shape) -> np.ndarray:
    """Area (or, for hinge edges, length) centroid [mm] of the surface: where a load spread
    uniformly over it (FreeCAD's ConstraintForce) acts."""
    parts = [shape.getElement(f) for f in surface.faces] or [shape.getElement(e) for e in surface.edges]
    sizes = np.array([p.Area if surface.faces else p.Length for p in parts])
    return (sizes[:, None] * np.array([np.array(p.CenterOfMass) for p in parts])).sum(axis=0) / sizes.sum()
