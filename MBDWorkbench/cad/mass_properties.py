"""Mass properties of FreeCAD objects in SI units.

``mass_properties(obj_or_shape, density_kg_m3=None)`` returns the mass, centre of mass and
inertia tensor (about the centre of mass, in GLOBAL axes) of the solids of a FreeCAD object or
``Part.Shape``.

Geometry. FreeCAD's ``Solid`` has ``Volume`` [mm^3], ``CenterOfMass`` [mm] and
``MatrixOfInertia`` (4x4, about the centre of mass, global axes, unit density, so in mm^5).
Compounds and generic shapes lack them, so every solid of ``shape.Solids`` is taken and they
are combined with the parallel-axis theorem. Overlapping solids of a compound are counted
twice: fuse them first (Part::MultiFuse gives one solid).

Placement (checked on FreeCAD 0.20.2):

* ``Part.getShape(obj)`` applies the object's own ``Placement`` (a Part::Feature's ``Shape``
  already carries it, so for a top-level Part::Feature ``Part.getShape(obj)`` equals
  ``obj.Shape``), resolves App::Link (the link's placement replaces the linked object's one,
  as FreeCAD displays it) and App::Part (its children, with its placement);
* it does NOT apply the placements of the containers the object sits in (App::Part, a
  PartDesign Body for its features, nested groups); ``obj.getGlobalPlacement()`` does, but
  App::Link has no such method on 0.20.

So the global shape is taken as ``Part.getShape(root, subname)`` with ``(root, subname)`` the
first entry of ``obj.Parents`` (the path from a top-level object down to ``obj``), or
``Part.getShape(obj)`` for a top-level object. An object reached along several paths (rare:
FreeCAD allows an object in one group only) uses the first one and says so in ``source``.

Units: m = V[mm^3] rho 1e-9, I = J[mm^5] rho 1e-15, cog[m] = cog[mm] 1e-3, V[m^3] = V 1e-9.

Density: FreeCAD 1.0's ``obj.ShapeMaterial`` when a material other than "Default" with a
density is assigned (on the object or on what a Link points at); else ``density_kg_m3``;
else 7850 kg/m^3 (steel). FreeCAD 0.20 has no material on Part objects. One density applies to
the whole object (the children of an App::Part are not looked at one by one).

This module imports FreeCAD only when called.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import CadError

if TYPE_CHECKING:
    import FreeCAD as App
    import Part

__all__ = [
    "CadError",
    "DEFAULT_DENSITY_KG_M3",
    "MassProperties",
    "combine_volume_properties",
    "global_shape",
    "mass_properties",
    "material_density",
]

DEFAULT_DENSITY_KG_M3 = 7850.0

# Volumes below this [mm^3] count as zero (1e-9 mm^3 is a cube of 1 micrometre).
_MIN_VOLUME_MM3 = 1e-9

# UUID of FreeCAD 1.0's "Default" material card (checked by name too).
_DEFAULT_MATERIAL_UUIDS = frozenset({"7f9fd73b-50c9-41d8-b7b2-575a030c1eeb"})


@dataclass(frozen=True)
class MassProperties:
    """Mass properties in SI units, inertia about the centre of mass in global axes."""

    mass: float  # kg
    cog: np.ndarray  # m, shape (3,), global
    inertia: np.ndarray  # kg m^2, shape (3, 3), about the CoG, global axes
    volume: float  # m^3
    density: float  # kg/m^3
    source: str  # where it came from, for reports and error messages
    label: str = ""
    n_solids: int = 1
    density_source: str = ""  # "material <name>", "argument" or "default"
    notes: tuple[str, ...] = field(default_factory=tuple)


def combine_volume_properties(
    parts: Iterable[tuple[float, Sequence[float], Any]],
) -> tuple[float, np.ndarray, np.ndarray]:
    """Combine (V, c, J) of several bodies of equal density into one.

    ``J`` is each body's inertia about its own centre ``c`` (global axes, unit density). Returns
    ``(V, c, J)`` with ``J`` about the combined centre (parallel-axis theorem:
    J += V (|d|^2 E - d d^T), d = c_i - c). Pure numpy, any consistent units.
    """
    items = [(float(v), np.asarray(c, float).reshape(3), np.asarray(j, float).reshape(3, 3)) for v, c, j in parts]
    if not items:
        raise ValueError("no bodies to combine")
    volume = sum(v for v, _, _ in items)
    if not volume > 0:
        raise ValueError("total volume must be positive, got %r" % volume)
    center = sum(v * c for v, c, _ in items) / volume
    inertia = np.zeros((3, 3))
    for v, c, j in items:
        d = c - center
        inertia += j + v * (np.dot(d, d) * np.eye(3) - np.outer(d, d))
    return volume, center, 0.5 * (inertia + inertia.T)


def _label(obj) -> str:
    label = getattr(obj, "Label", None) or getattr(obj, "Name", None)
    if label:
        return str(label)
    return "shape"


def _is_document_object(obj) -> bool:
    return hasattr(obj, "TypeId") and hasattr(obj, "Document") and hasattr(obj, "Name")


BROKEN_LINK = (
    "'%s' is an App::Link whose target is not there (its document is closed or missing, or the "
    "linked object was deleted)"
)


def is_broken_link(obj: App.DocumentObject) -> bool:
    """True for an App::Link (or link-like object) that links nothing: FreeCAD may still hand out
    the shape it had, so mass properties would be silently stale."""
    return "LinkedObject" in getattr(obj, "PropertiesList", ()) and obj.LinkedObject is None


def global_shape(obj: App.DocumentObject) -> tuple[Part.Shape, str, list[str]]:
    """``(shape, how, notes)``: the object's shape with all placements applied, in mm; ValueError
    for a broken link.

    See the module docstring for why ``Part.getShape(root, subname)`` is used.
    """
    import Part

    if is_broken_link(obj):
        raise ValueError(BROKEN_LINK % obj.Label)

    notes: list[str] = []
    parents = []
    try:
        parents = list(getattr(obj, "Parents", None) or [])
    except Exception:  # pragma: no cover - defensive, Parents may raise on broken docs
        parents = []
    if parents:
        root, subname = parents[0]
        distinct = sorted({(r.Name, s) for r, s in parents})
        if len(distinct) > 1:
            notes.append("object has %d parent paths; used %s.%s" % (len(distinct), root.Name, subname))
        shape = Part.getShape(root, subname, needSubElement=False)
        how = "Part.getShape(%s, %r)" % (root.Name, subname)
    else:
        shape = Part.getShape(obj)
        how = "Part.getShape(%s)" % obj.Name
    return shape, how, notes


def _quantity_value(value, unit: str) -> float | None:
    """Float value in ``unit`` of a Quantity, a number or a string such as '7.85 g/cm^3'."""
    if value is None:
        return None
    try:
        if isinstance(value, str):
            import FreeCAD as App

            value = App.Units.Quantity(value)
        if hasattr(value, "getValueAs"):
            value = value.getValueAs(unit)
        value = float(getattr(value, "Value", value))
    except Exception:
        return None
    return value if math.isfinite(value) and value > 0 else None


def material_density(obj: App.DocumentObject) -> tuple[float | None, str]:
    """Density [kg/m^3] of a non-default material assigned to ``obj`` (FreeCAD 1.0+).

    Looks at ``obj.ShapeMaterial`` and, for a Link, at the linked object's. Returns
    ``(None, reason)`` when there is none (always so on FreeCAD 0.20).
    """
    candidates = [obj]
    try:
        linked = obj.getLinkedObject(True) if hasattr(obj, "getLinkedObject") else None
    except Exception:
        linked = None
    if linked is not None and linked is not obj:
        candidates.append(linked)
    reason = "no ShapeMaterial property (FreeCAD < 1.0)"
    for candidate in candidates:
        try:
            if not hasattr(candidate, "ShapeMaterial"):
                continue
            material = candidate.ShapeMaterial
        except Exception:
            continue
        if material is None:
            reason = "no material assigned"
            continue
        name = str(getattr(material, "Name", "") or "")
        uuid = str(getattr(material, "UUID", "") or "")
        if not name or name.lower() == "default" or uuid in _DEFAULT_MATERIAL_UUIDS:
            reason = "default material"
            continue
        value = None
        try:
            has = getattr(material, "hasPhysicalProperty", None)
            if has is None or has("Density"):
                value = material.getPhysicalValue("Density")
        except Exception:
            value = None
        if value is None:  # older API: PhysicalProperties / Properties dicts of strings
            for attr in ("PhysicalProperties", "Properties"):
                try:
                    props = getattr(material, attr, None) or {}
                    value = props.get("Density")
                except Exception:
                    value = None
                if value:
                    break
        density = _quantity_value(value, "kg/m^3")
        if density is not None:
            return density, "material %s" % name
        reason = "material %s has no usable density" % name
    return None, reason


def _check_density(density: float, label: str) -> float:
    try:
        density = float(density)
    except (TypeError, ValueError):
        raise CadError("%s: density must be a number in kg/m^3, got %r" % (label, density)) from None
    if not (math.isfinite(density) and density > 0):
        raise CadError("%s: density must be positive and finite, got %r kg/m^3" % (label, density))
    return density


def mass_properties(
    obj_or_shape: App.DocumentObject | Part.Shape, density_kg_m3: float | None = None
) -> MassProperties:
    """Mass properties (SI) of a FreeCAD document object or ``Part.Shape``.

    ``obj_or_shape``: a Part::Feature (any object with a shape), App::Link, App::Part,
    PartDesign Body or feature, or a ``Part.Shape`` (taken as is, coordinates in mm).
    ``density_kg_m3``: used unless a non-default material with a density is assigned
    (FreeCAD 1.0); default 7850 kg/m^3.

    Raises :class:`CadError` naming the object's Label when it has no solid or a solid with
    zero or negative volume (e.g. a reversed solid).
    """
    from .freecad_env import import_freecad

    import_freecad()
    import Part

    notes: list[str] = []
    label = _label(obj_or_shape) if _is_document_object(obj_or_shape) else "shape"
    if density_kg_m3 is not None:
        density_kg_m3 = _check_density(density_kg_m3, label)
    if isinstance(obj_or_shape, Part.Shape):
        shape = obj_or_shape
        how = "Part.Shape given"
        type_id = "null shape" if shape.isNull() else shape.ShapeType
        obj = None
    elif _is_document_object(obj_or_shape):
        obj = obj_or_shape
        type_id = obj.TypeId
        try:
            shape, how, notes = global_shape(obj)
        except Exception as exc:
            raise CadError("%s (%s): cannot get its shape: %s" % (label, type_id, exc)) from exc
    else:
        raise CadError("%r is neither a FreeCAD document object nor a Part.Shape" % (obj_or_shape,))

    if shape is None or shape.isNull():
        raise CadError("%s (%s) has no shape" % (label, type_id))
    solids = list(shape.Solids)
    if not solids:
        raise CadError(
            "%s (%s) has no solid (its shape is a %s with %d face(s)); mass properties need "
            "a closed solid" % (label, type_id, shape.ShapeType, len(shape.Faces))
        )

    parts = []
    for index, solid in enumerate(solids, start=1):
        volume = float(solid.Volume)
        if not math.isfinite(volume) or volume <= _MIN_VOLUME_MM3:
            raise CadError(
                "%s (%s): solid %d of %d has %s volume (%.6g mm^3)%s"
                % (
                    label,
                    type_id,
                    index,
                    len(solids),
                    "invalid"
                    if not math.isfinite(volume)
                    else "zero"
                    if abs(volume) <= _MIN_VOLUME_MM3
                    else "negative",
                    volume,
                    "; a negative volume means a reversed (inside-out) solid" if volume < 0 else "",
                )
            )
        c = solid.CenterOfMass
        m = solid.MatrixOfInertia
        j = [
            [m.A11, m.A12, m.A13],
            [m.A21, m.A22, m.A23],
            [m.A31, m.A32, m.A33],
        ]
        parts.append((volume, (c.x, c.y, c.z), j))
    volume_mm3, cog_mm, j_mm5 = combine_volume_properties(parts)

    density, density_source = None, ""
    if obj is not None:
        density, reason = material_density(obj)
        if density is not None:
            density_source = reason
            if density_kg_m3 is not None:
                notes.append("assigned %s overrides the density argument" % reason)
    if density is None and density_kg_m3 is not None:
        density, density_source = density_kg_m3, "argument"
    if density is None:
        density, density_source = DEFAULT_DENSITY_KG_M3, "default"

    source = "%s (%s) via %s: %d solid%s, density %g kg/m^3 (%s)" % (
        label,
        type_id,
        how,
        len(solids),
        "" if len(solids) == 1 else "s",
        density,
        density_source,
    )
    return MassProperties(
        mass=volume_mm3 * density * 1e-9,
        cog=np.asarray(cog_mm, float) * 1e-3,
        inertia=np.asarray(j_mm5, float) * density * 1e-15,
        volume=volume_mm3 * 1e-9,
        density=density,
        source=source,
        label=label,
        n_solids=len(solids),
        density_source=density_source,
        notes=tuple(notes),
    )
