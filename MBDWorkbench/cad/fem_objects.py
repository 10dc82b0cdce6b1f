"""The loads of a solved fem-loads analysis as FreeCAD FEM objects (docs/fem.md), so that the
analysis shows its loads in the tree, passes FreeCAD's CalculiX pre-check and can be remeshed
and solved again in the FEM workbench:

* each joint or driver force: a ConstraintForce on the faces (or hinge edge) it was spread on,
  its direction given by a hidden line object;
* the moment of each joint or driver load about that surface's centroid (the joint's moment and
  the force's offset from the centroid, e.g. a pin picked on a bore's rim): a set of
  ConstraintForce objects, one per edge of the surface (a hinge line: its end vertices), whose
  forces sum to zero and whose moment is that one (:func:`couple_forces`), so that each joint's
  load is statically exact on its own surface;
* the uniform part of the distributed load, g - a_G: a ConstraintSelfWeight (FreeCAD 0.20's
  has no magnitude: the analysis material's density is scaled instead, see :func:`_self_weight`);
* the centrifugal part -w x (w x r): a ConstraintCentrif about the axis through the CoG along w;
* the 3-2-1 support on three vertices of the part: ConstraintDisplacement objects.

What FreeCAD has no object for (the angular-acceleration field -alpha x r; a moment about an
axis the surface's edges cannot turn about, e.g. along a hinge line) is measured: the resultant of
the objects' loads relative to the largest load (``objects_residual_relative``), which the support
would carry in a re-solve. Our own solve always uses the exact nodal loads (:mod:`MBDWorkbench.loads.nodal`);
the objects are added after it, so they are not applied twice."""

from __future__ import annotations

import numpy as np

from ..loads.nodal import support_321

OBJECTS_TOL = 0.01  # objects' resultant allowed, relative to the largest load, before a warning


def _line(doc, name: str, start_mm: np.ndarray, direction: np.ndarray, length_mm: float):
    """A hidden Part::Feature line from ``start_mm`` along ``direction`` (a direction reference)."""
    import FreeCAD as App
    import Part

    d = np.asarray(direction, float) / np.linalg.norm(direction)
    a, b = (App.Vector(*map(float, p)) for p in (start_mm, np.asarray(start_mm) + length_mm * d))
    obj = doc.addObject("Part::Feature", name)
    obj.Shape = Part.LineSegment(a, b).toShape()
    obj.Visibility = False
    return obj


def _force_object(doc, analysis, name: str, part, references: list, force: np.ndarray, at_mm, size_mm: float):
    """A ConstraintForce of ``force`` [N] spread over the part's elements ``references``; its
    direction line starts at ``at_mm``."""
    import FreeCAD as App
    import ObjectsFem

    obj = ObjectsFem.makeConstraintForce(doc, name)
    obj.References = [(part, tuple(references))]
    newtons = float(np.linalg.norm(force))
    quantity = obj.getTypeIdOfProperty("Force") == "App::PropertyForce"  # FreeCAD 1.0 (0.20: a float in N)
    obj.Force = App.Units.Quantity("%r N" % newtons) if quantity else newtons
    obj.Direction = (_line(doc, name + "_direction", at_mm, force, size_mm), ["Edge1"])
    obj.Reversed = False
    analysis.addObject(obj)
    return obj


def couple_forces(points: np.ndarray, moment: np.ndarray) -> np.ndarray:
    """Forces (n, 3) [N] at ``points`` (n, 3) [m] summing to zero whose moment is ``moment``
    [N m] (least squares: f_k = w x r_k, r_k from the points' mean, J w = M with
    J = sum |r|^2 1 - r r^T); the part of ``moment`` about an axis the points all lie on is not
    carried (pseudo-inverse)."""
    r = points - points.mean(axis=0)
    J = np.eye(3) * np.sum(r * r) - r.T @ r
    w = np.linalg.pinv(J, rcond=1e-9) @ moment
    return np.cross(w, r)


def couple_references(surface, shape) -> list:
    """[(element name, point [mm])] where a ConstraintForce on one element acts (the length
    centroid of an edge, a vertex): the edges of the surface's faces, or a hinge line's end vertices."""
    if surface.faces:
        names = []
        for face in surface.faces:
            for edge in shape.getElement(face).Edges:
                k = next(i for i, e in enumerate(shape.Edges) if e.isSame(edge))
                names.append("Edge%d" % (k + 1))
    else:
        names = []
        for edge in surface.edges:
            for vertex in shape.getElement(edge).Vertexes:
                k = next(i for i, v in enumerate(shape.Vertexes) if v.isSame(vertex))
                names.append("Vertex%d" % (k + 1))
    names = list(dict.fromkeys(names))
    return [(n, np.array(shape.getElement(n).CenterOfMass if n.startswith("Edge") else shape.getElement(n).Point))
            for n in names]  # fmt: skip


def _couple_objects(doc, analysis, name: str, part, surface, shape, moment: np.ndarray, largest: float, size_mm):
    """ConstraintForce objects, one per element of :func:`couple_references`, carrying ``moment``
    [N m] as a couple; returns (objects, the moment they carry [N m])."""
    refs = couple_references(surface, shape)
    if len(refs) < 2 or np.linalg.norm(moment) == 0.0:
        return [], np.zeros(3)
    points = np.array([p for _, p in refs]) * 1e-3
    forces = couple_forces(points, np.asarray(moment, float))
    objects, carried = [], np.zeros(3)
    for k, ((ref, p_mm), f) in enumerate(zip(refs, forces)):
        if np.linalg.norm(f) <= 1e-12 * largest:
            continue
        objects.append(_force_object(doc, analysis, "%s_couple%d" % (name, k + 1), part, [ref], f, p_mm, size_mm))
        carried += np.cross(p_mm * 1e-3, f)
    return objects, carried


def _support_objects(doc, analysis, label: str, part, shape) -> list:
    """ConstraintDisplacement objects of a 3-2-1 support on three vertices of the part."""
    import ObjectsFem

    coords = {k + 1: np.array(v.Point) for k, v in enumerate(shape.Vertexes)}
    try:
        support = support_321(coords)
    except ValueError:
        return []
    out = []
    for vertex in sorted({v for v, _ in support}):
        dofs = {d for v, d in support if v == vertex}
        obj = ObjectsFem.makeConstraintDisplacement(doc, "%s_Support_V%d" % (label, vertex))
        obj.References = [(part, "Vertex%d" % vertex)]
        for d, axis in enumerate("xyz", start=1):
            setattr(obj, axis + "Free", d not in dofs)
            if hasattr(obj, axis + "Fix"):  # FreeCAD 0.20 (1.x: not free = fixed at xDisplacement 0)
                setattr(obj, axis + "Fix", d in dofs)
        analysis.addObject(obj)
        out.append(obj)
    return out


def add_load_objects(doc, analysis, label: str, part, shape, loads: list, field: dict) -> dict:
    """Add the FEM objects (module docstring) to ``analysis``. ``loads``: (load name, LoadSurface,
    force [N], application point [mm] = the surface's centroid, moment about it [N m]) in the
    document pose; ``field``: the
    distributed load in the document pose, ``g_eff`` = g - a_G [m/s^2], ``omega`` [rad/s], ``cog``
    [mm], ``mass`` [kg], the centrifugal field's moment about the CoG ``gyroscopic`` = -w x I w
    [N m], ``size`` [m] and ``largest`` [N] of the load set.
    Returns the objects' names and their resultant relative to the largest load."""
    import FreeCAD as App
    import ObjectsFem

    bb = shape.BoundBox
    size_mm = max(bb.DiagonalLength / 4.0, 1.0)
    names, couples = [], np.zeros(3)
    for name, surface, force, at_mm, moment in loads:
        if np.linalg.norm(force) > 1e-12 * field["largest"]:
            names.append(
                _force_object(doc, analysis, "%s_%s" % (label, name), part, surface.references, force, at_mm, size_mm)
            )
        objects, carried = _couple_objects(
            doc, analysis, "%s_%s" % (label, name), part, surface, shape, moment, field["largest"], size_mm
        )
        names += objects
        couples += carried
    g_eff = np.asarray(field["g_eff"], float)
    w = np.asarray(field["omega"], float)
    weight, factor = _self_weight(doc, analysis, label, g_eff)
    if np.linalg.norm(w) > 0:
        centrif = ObjectsFem.makeConstraintCentrif(doc, label + "_Inertia_centrifugal")
        axis = _line(doc, label + "_rotation_axis", field["cog"], w, size_mm)
        centrif.RotationAxis = [(axis, "Edge1")]
        hertz = np.linalg.norm(w) / (2 * np.pi) / np.sqrt(factor)
        centrif.RotationFrequency = App.Units.Quantity("%r 1/s" % float(hertz))
        centrif.References = [(part, "Solid1")]
        analysis.addObject(centrif)
        names.append(centrif)
    names += [weight] if weight is not None else []
    names += _support_objects(doc, analysis, label, part, shape)
    doc.recompute()
    F = sum((np.asarray(f) for _, _, f, _, _ in loads), np.zeros(3)) + field["mass"] * g_eff
    M = sum((np.cross((np.asarray(p) - field["cog"]) * 1e-3, f) for _, _, f, p, _ in loads), couples)
    M = M + np.asarray(field["gyroscopic"])
    residual = max(np.linalg.norm(F), np.linalg.norm(M) / field["size"]) / field["largest"]
    return dict(
        fem_objects=[o.Name for o in names], objects_residual_relative=float(residual), objects_density_factor=factor
    )


def freecad_gravity() -> float:
    """The GRAV magnitude [m/s^2] FreeCAD 0.20's CalculiX writer writes (its ``constants.gravity``, in whole mm/s^2)."""
    import FreeCAD as App
    from femtools import constants

    return int(App.Units.Quantity(constants.gravity()).getValueAs("mm/s^2")) / 1000.0


def _self_weight(doc, analysis, label: str, g_eff: np.ndarray) -> tuple:
    """(ConstraintSelfWeight of the uniform field g_eff [m/s^2] or None, density factor). Where
    the object has no magnitude (FreeCAD 0.20: GRAV at FreeCAD's g), the analysis material's
    density is scaled by |g_eff| / g instead (the factor; the centrifugal frequency is scaled
    by 1/sqrt(factor) so that rho w^2 is unchanged): in a linear static analysis the density
    enters only these two loads."""
    import FreeCAD as App
    import ObjectsFem

    size = float(np.linalg.norm(g_eff))
    if size == 0.0:
        return None, 1.0
    weight = ObjectsFem.makeConstraintSelfWeight(doc, label + "_Inertia_translation")
    unit = g_eff / size
    analysis.addObject(weight)
    if hasattr(weight, "GravityAcceleration"):  # FreeCAD 1.0 and later
        weight.GravityAcceleration = App.Units.Quantity("%r m/s^2" % size)
        weight.GravityDirection = App.Vector(*map(float, unit))
        return weight, 1.0
    weight.Gravity_x, weight.Gravity_y, weight.Gravity_z = (float(v) for v in unit)
    factor = size / freecad_gravity()
    material = next(o for o in analysis.Group if o.isDerivedFrom("App::MaterialObjectPython"))
    card = material.Material
    density = App.Units.Quantity(card["Density"]).getValueAs("kg/m^3")
    card["Density"] = "%r kg/m^3" % (float(density) * factor)
    material.Material = card
    return weight, factor
