"""Contact pairs of a model (docs/contact.md): two bodies, an analytic shape on each (in the body's
own frame about its centre of gravity; global for a fixed body), the normal law and Coulomb
friction. Reading (:func:`parse_contacts`), checks (:func:`check_contacts`, every error names the
pair and the field) and the law's constants (:func:`contact_law`: Hertz stiffness from the
materials, the damping factor from the restitution).

Pairs handled: sphere-plane, sphere-sphere and box-plane (the box's 8 corners against the
plane, each one contact point); the cylinder pairs cylinder-plane, cylinder-cylinder (parallel
axes, outside each other; crossed ones are tessellated) and sphere-cylinder (the cylinder's side): a line contact is
CYLINDER_POINTS slices along the line, each one contact point; mesh-plane, mesh-sphere, mesh-box
and mesh-cylinder (points on the mesh against the analytic shape: :mod:`.mesh_shapes`); mesh-mesh
(the vertices of each against the other's signed distance: :mod:`.mesh_pairs`);
sphere-box, box-box, torus-plane, sphere-torus, cone-plane and sphere-cone (:mod:`.shape_points`); sphere-face and
cylinder-face (a bounded plane face: :mod:`.face_shapes`). Any other pair but plane-plane is a
mesh pair of its shapes' tessellations (:func:`approximated`, :mod:`.tessellation`). A plane is the
boundary of a half-space: its ``normal`` points out of the solid, into free space.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import math
from dataclasses import dataclass, field

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq
from scipy.special import beta

from ..errors import ModelError
from ..numerics import quaternion
from .face_shapes import FACE_FIELDS, FACE_LENGTHS, check_face, face_frame
from .fields import check_number, check_text, check_vector, shown
from .mesh_pairs import mesh_pair_points
from .mesh_shapes import MAX_MESH_POINTS, SAMPLE_FRACTION, mesh_arrays, mesh_points, too_large
from .shape_points import (
    DISC_PLANE,
    FACE,
    POINT_CYLINDER,
    SPHERE_PLANE,
    SPHERE_SPHERE,
    ContactPoint,
    pair_points,
    penetration,
)
from .tessellation import DEFLECTION, TESSELLATED, shape_mesh, smallest_size

SHAPE_FIELDS = {
    "sphere": {"type", "center", "radius"},
    "plane": {"type", "point", "normal"},
    "box": {"type", "center", "size"},
    "cylinder": {"type", "center", "axis", "radius", "length"},
    "mesh": {"type", "vertices", "triangles"},
    "face": FACE_FIELDS,
    "torus": {"type", "center", "axis", "major_radius", "minor_radius"},
    "cone": {"type", "center", "axis", "radius1", "radius2", "length"},
}
LENGTHS = {"radius", "length", "major_radius", "minor_radius", "radius1", "radius2", *FACE_LENGTHS}  # lengths [m]
PAIRS = {("sphere", "plane"), ("sphere", "sphere"), ("box", "plane")}  # shape_a, shape_b (either order in JSON)
PAIRS |= {("cylinder", "plane"), ("cylinder", "cylinder"), ("sphere", "cylinder")}
PAIRS |= {("mesh", "plane"), ("mesh", "sphere"), ("mesh", "box"), ("mesh", "cylinder"), ("sphere", "box")}
PAIRS |= {("torus", "plane"), ("torus", "sphere"), ("cone", "plane"), ("sphere", "face"), ("cylinder", "face")}
PAIRS |= {("box", "box"), ("sphere", "cone")}
PAIRS.add(("mesh", "mesh"))
LINE_PAIRS = {("cylinder", "plane"), ("cylinder", "cylinder")}  # line contacts: K = pi/4 E* L, n = 1
LINE_PAIRS.add(("cylinder", "face"))
CYLINDER_POINTS = 5  # contact points (slices) along a line contact
PARALLEL_TOL = 1e-6  # [rad] cylinder-cylinder axes at most this far from parallel
LAWS = ("flores", "restitution")  # damping from e: Flores et al. 2011's closed form, or calibrated to e exactly
# Young's modulus [Pa] and Poisson's ratio of the named materials (engineering handbook values)
MATERIALS = {
    "steel": (210e9, 0.30),
    "aluminium": (70e9, 0.33),
    "cast_iron": (120e9, 0.26),
    "brass": (100e9, 0.34),
    "titanium": (114e9, 0.34),
    "glass": (70e9, 0.22),
    "abs": (2.3e9, 0.35),
    "nylon": (2.8e9, 0.39),
    "rubber": (0.05e9, 0.49),
}
CONTACT_FIELDS = {
    "name", "body_a", "body_b", "shape_a", "shape_b", "stiffness", "exponent", "restitution", "law",
    "mu_s", "mu_k", "slip_speed", "material_a", "material_b", "min_impact_speed", "penetration_tol", "enabled",
    "friction_law", "deflection",
}  # fmt: skip
# Coulomb friction: regularised below slip_speed (every integrator), or true stiction by located
# stick/slip events (system/contact_friction.py; ODE-form integrators; the pairs of STICTION_PAIRS)
FRICTION_LAWS = ("regularised", "stiction")
STICTION_PAIRS = {("sphere", "plane"), ("box", "plane"), ("cylinder", "plane"), ("mesh", "plane")}
STICTION_PAIRS |= {("sphere", "sphere"), ("sphere", "cylinder")}  # a single point whose normal turns
NUMBER_KINDS = {  # the contact's numbers and their limits.RANGES kinds
    "stiffness": "stiffness",
    "exponent": "number",
    "restitution": "fraction",
    "mu_s": "number",
    "mu_k": "number",
    "slip_speed": "velocity",
    "min_impact_speed": "velocity",
    "penetration_tol": "nonneg_length",
    "deflection": "nonneg_length",
}
SHAPE_KINDS = {"center": "length", "point": "length", "normal": "direction", "size": "nonneg_length"}
SHAPE_KINDS["axis"] = "direction"
STEPS_PER_CONTACT = 10  # fixed steps at least within one impact's contact time (else a warning)
TUNNEL_FRACTION = 0.5  # speed x step above this fraction of the thinnest shape: a warning


@dataclass
class Shape:
    """An analytic contact shape in its body's frame [m]: ``sphere`` (center, radius), ``plane``
    (point, outward normal: the solid is the half-space behind it), ``box`` (center, size: edge
    lengths along the body's axes), ``cylinder`` (center, axis, radius, length: its side is the
    contact surface), ``face`` (a bounded plane face: :mod:`.face_shapes`), ``mesh`` (vertices,
    triangles: a closed triangle mesh; its arrays in ``mesh``, :mod:`.mesh_shapes`), ``torus``
    (center, axis, major_radius of its centre circle, minor_radius of its tube), ``cone`` (center:
    the middle of its axis segment, axis, radius1 at center - length/2 axis, radius2 at the other
    end, length)."""

    type: str
    center: list = None
    radius: float = None
    point: list = None
    normal: list = None
    size: list = None
    axis: list = None
    length: float = None
    width: float = None
    depth: float = None
    vertices: list = None
    triangles: list = None
    major_radius: float = None
    minor_radius: float = None
    radius1: float = None
    radius2: float = None
    mesh: tuple = field(default=None, compare=False, repr=False)  # (vertices (n, 3) [m], triangles (m, 3))


@dataclass
class Contact:
    """A contact pair (docs/contact.md). Absent ``stiffness`` [N/m^exponent]: Hertz's
    4/3 E* sqrt(R*) from the materials (names of :data:`MATERIALS` or {"young": Pa,
    "poisson": -}) with exponent 1.5; ``restitution`` e in (0, 1]; friction ``mu_s``, ``mu_k``
    regularised below ``slip_speed`` [m/s] (``friction_law`` "regularised") or with true stiction
    (``friction_law`` "stiction", :data:`STICTION_PAIRS`); ``min_impact_speed`` [m/s] floors the impact speed
    that scales the damping; ``penetration_tol`` [m] the initial overlap allowed; ``deflection`` [m] the chord
    deflection of the tessellations of a pair without an exact kind (absent: :data:`.tessellation.DEFLECTION`)."""

    name: str
    body_a: str
    body_b: str
    shape_a: Shape
    shape_b: Shape
    stiffness: float = None
    exponent: float = None
    restitution: float = 1.0
    law: str = "flores"
    mu_s: float = 0.0
    mu_k: float = None
    slip_speed: float = 1e-3
    material_a: object = "steel"
    material_b: object = "steel"
    min_impact_speed: float = 1e-2
    penetration_tol: float = 1e-6
    enabled: bool = True
    friction_law: str = "regularised"
    group: str = field(default=None, compare=False, repr=False)  # its contact group's name (contact_groups.py)
    deflection: float = None
    crossed: bool = field(default=False, compare=False, repr=False)  # set by check_contacts (tessellated)


# ----------------------------------------------------------------------------- reading
def parse_contacts(items: object, path: str = "contacts") -> list[Contact]:
    """The contact pairs of a model's JSON ``contacts`` list (a shape object shared by several pairs,
    as a contact group's, read once: each pair gets its own copy)."""
    if not isinstance(items, list):
        raise ModelError(path, "must be a list")
    shapes: dict[int, tuple] = {}
    return [parse_contact(d, f"{path}[{k}]", shapes) for k, d in enumerate(items)]


def parse_contact(d: object, path: str, shapes: dict | None = None) -> Contact:
    """One contact pair from its JSON object ``d`` at ``path`` (a Contact, as a group's pairs: itself)."""
    return d if isinstance(d, Contact) else _contact(d, path, shapes)


def read_shape(d: object, path: str, pair: str) -> Shape:
    """One shape from its JSON object ``d`` at ``path`` (``pair``: the name its errors give)."""
    return _shape(d, path, pair)


def _contact(d: object, path: str, shapes: dict | None = None) -> Contact:
    if not isinstance(d, dict):
        raise ModelError(path, f"must be an object, got {shown(d)}")
    unknown = sorted(set(d) - CONTACT_FIELDS)
    if unknown:
        raise ModelError(f"{path}.{unknown[0]}", f"unknown field (allowed: {', '.join(sorted(CONTACT_FIELDS))})")
    for key in ("name", "body_a", "body_b", "shape_a", "shape_b"):
        if key not in d:
            raise ModelError(f"{path}.{key}", "is required")
    name = check_text(d["name"], f"{path}.name", 200)
    c = Contact(
        name=name,
        body_a=check_text(d["body_a"], f"{path}.body_a", 200),
        body_b=check_text(d["body_b"], f"{path}.body_b", 200),
        shape_a=_read_shape(d["shape_a"], f"{path}.shape_a", name, shapes),
        shape_b=_read_shape(d["shape_b"], f"{path}.shape_b", name, shapes),
    )
    for key, kind in NUMBER_KINDS.items():
        if key in d:
            setattr(c, key, check_number(d[key], f"{path}.{key}", kind=kind))
    if c.penetration_tol < 0:
        raise ModelError(f"{path}.penetration_tol", f"contact '{name}': must not be negative")
    for key in ("law", "material_a", "material_b", "friction_law"):
        if key in d:
            setattr(c, key, d[key])
    if "enabled" in d:
        if not isinstance(d["enabled"], bool):
            raise ModelError(f"{path}.enabled", f"contact '{name}': must be true or false, got {shown(d['enabled'])}")
        c.enabled = d["enabled"]
    return c


def _read_shape(d: object, path: str, pair: str, shapes: dict | None) -> Shape:
    """:func:`_shape`, once per shape object in ``shapes`` (id -> (the object, its Shape)); a copy."""
    if shapes is None or not isinstance(d, dict):
        return _shape(d, path, pair)
    known = shapes.get(id(d))
    if known is None or known[0] is not d:
        known = shapes[id(d)] = (d, _shape(d, path, pair))
    return copy.copy(known[1])


def _shape(d: object, path: str, pair: str) -> Shape:
    if not isinstance(d, dict) or not isinstance(d.get("type"), str) or d["type"] not in SHAPE_FIELDS:
        raise ModelError(f"{path}.type", f"contact '{pair}': a shape is an object of type {', '.join(SHAPE_FIELDS)}")
    allowed = SHAPE_FIELDS[d["type"]]
    unknown = sorted(set(d) - allowed)
    if unknown:
        raise ModelError(f"{path}.{unknown[0]}", f"contact '{pair}': unknown field of a {d['type']}")
    s = Shape(type=d["type"])
    if s.type == "mesh":
        return _mesh_shape(d, path, pair)
    for key in sorted(allowed - {"type"}):
        if key not in d:
            raise ModelError(f"{path}.{key}", f"contact '{pair}': a {d['type']} needs its {key}")
        if key in LENGTHS:
            setattr(s, key, check_number(d[key], f"{path}.{key}", kind="nonneg_length"))
        else:
            setattr(s, key, list(check_vector(d[key], f"{path}.{key}", kind=SHAPE_KINDS[key])))
    if s.normal is not None and np.linalg.norm(s.normal) == 0.0:
        raise ModelError(f"{path}.normal", f"contact '{pair}': the plane's normal is zero")
    for key in ("axis", "normal"):
        if getattr(s, key) is not None and np.linalg.norm(getattr(s, key)) == 0.0:
            raise ModelError(f"{path}.{key}", f"contact '{pair}': the {s.type}'s {key} is zero")
    if s.type == "cylinder" and min(s.radius, s.length) <= 0.0:
        raise ModelError(f"{path}.radius", f"contact '{pair}': a cylinder's radius and length must be positive")
    if s.type == "face":
        check_face(s, path, pair)
    if s.type == "torus" and min(s.major_radius, s.minor_radius) <= 0.0:
        raise ModelError(f"{path}.minor_radius", f"contact '{pair}': a torus's radii must be positive")
    if s.type == "cone" and (s.length <= 0.0 or max(s.radius1, s.radius2) <= 0.0):
        raise ModelError(f"{path}.length", f"contact '{pair}': a cone needs a positive length and one radius above 0")
    if s.size is not None and min(s.size) <= 0.0:
        raise ModelError(f"{path}.size", f"contact '{pair}': a box's edge lengths must be positive, got {s.size}")
    return s


def _mesh_shape(d: dict, path: str, pair: str) -> Shape:
    for key in ("vertices", "triangles"):
        if key not in d:
            raise ModelError(f"{path}.{key}", f"contact '{pair}': a mesh needs its {key}")
    V, T = mesh_arrays(d["vertices"], d["triangles"], path, pair)
    return Shape(type="mesh", vertices=V.tolist(), triangles=T.tolist(), mesh=(V, T))


def contact_dict(c: Contact) -> dict:
    """The JSON form of a contact pair (:func:`parse_contacts` reads it back)."""
    out = {"name": c.name, "body_a": c.body_a, "body_b": c.body_b}
    for key in ("shape_a", "shape_b"):
        s = getattr(c, key)
        out[key] = {k: getattr(s, k) for k in ("type", *sorted(SHAPE_FIELDS[s.type] - {"type"}))}
    for key in sorted(CONTACT_FIELDS - set(out)):
        if getattr(c, key) is not None:
            out[key] = getattr(c, key)
    return out


# ----------------------------------------------------------------------------- checks
def check_contacts(model, bodies: dict, checked: list | None = None) -> None:
    """Check every contact pair of ``model`` (``bodies``: name -> Body); ModelError naming the
    pair and the field. ``checked[k]``: pair k passed its checks already (model/sphere_pairs.py),
    only its name is checked."""
    seen = set()
    for k, c in enumerate(getattr(model, "contacts", [])):
        path = f"contacts[{k}]"
        if c.name in seen:
            raise ModelError(f"{path}.name", f"duplicate contact name '{c.name}'")
        seen.add(c.name)
        if checked is None or not checked[k]:
            _check_contact(model, c, bodies, path)


def _check_contact(model, c: Contact, bodies: dict, path: str) -> None:
    _check_pair(c, bodies, path)
    c.crossed = _crossed(model, c)
    contact_law(c, path)
    if c.enabled:
        _check_initial_overlap(model, c, path)


def _check_pair(c: Contact, bodies: dict, path: str) -> None:
    what = f"contact '{c.name}'"
    for key in ("body_a", "body_b"):
        name = getattr(c, key)
        if name != "ground" and name not in bodies:
            raise ModelError(f"{path}.{key}", f"{what}: no body '{name}'")
    fixed = [getattr(c, key) == "ground" or bodies[getattr(c, key)].grounded for key in ("body_a", "body_b")]
    if all(fixed) or c.body_a == c.body_b:
        raise ModelError(f"{path}.body_b", f"{what}: needs two different bodies, at least one moving")
    if tessellated(c) and not _tessellable(c):
        pairs = ", ".join(f"{a}-{b}" for a, b in sorted(PAIRS))
        raise ModelError(
            f"{path}.shape_b",
            f"{what}: {c.shape_a.type}-{c.shape_b.type} is not handled ({pairs}; any other pair of a box, a face, "
            "a cylinder, a cone, a torus or a mesh: their tessellations)",
        )
    if c.deflection is not None and not c.deflection > 0.0:
        raise ModelError(f"{path}.deflection", f"{what}: must be positive, got {c.deflection}")
    for key in ("shape_a", "shape_b"):
        if getattr(c, key).type == "mesh":
            mesh_of(getattr(c, key), f"{path}.{key}", c.name)
    if not isinstance(c.law, str) or c.law not in LAWS:
        raise ModelError(f"{path}.law", f"{what}: law must be one of {', '.join(LAWS)}, got {shown(c.law)}")
    _check_friction_law(c, path)
    if c.restitution is None or not 0.0 < c.restitution <= 1.0:
        raise ModelError(f"{path}.restitution", f"{what}: restitution must lie in (0, 1], got {c.restitution}")
    if c.mu_s < 0 or (c.mu_k is not None and not 0 <= c.mu_k <= max(c.mu_s, 0)):
        raise ModelError(f"{path}.mu_k", f"{what}: friction needs 0 <= mu_k <= mu_s, got {c.mu_s}, {c.mu_k}")
    for key in ("slip_speed", "min_impact_speed"):
        if getattr(c, key) <= 0:
            raise ModelError(f"{path}.{key}", f"{what}: must be positive, got {getattr(c, key)}")
    if c.stiffness is not None and c.stiffness <= 0:
        raise ModelError(f"{path}.stiffness", f"{what}: must be positive, got {c.stiffness}")
    if c.exponent is not None and not 1.0 <= c.exponent <= 3.0:
        raise ModelError(f"{path}.exponent", f"{what}: must lie in [1, 3], got {c.exponent}")


def _check_friction_law(c: Contact, path: str) -> None:
    what = f"contact '{c.name}'"
    if not isinstance(c.friction_law, str) or c.friction_law not in FRICTION_LAWS:
        laws = ", ".join(FRICTION_LAWS)
        raise ModelError(
            f"{path}.friction_law", f"{what}: friction_law must be one of {laws}, got {shown(c.friction_law)}"
        )
    _, first, _, second = ordered(c)
    if c.friction_law == "stiction" and (first.type, second.type) not in STICTION_PAIRS:
        pairs = ", ".join(f"{a}-{b}" for a, b in sorted(STICTION_PAIRS))
        raise ModelError(
            f"{path}.friction_law",
            f"{what}: friction_law 'stiction' is handled for {pairs} only, not {first.type}-{second.type} "
            "(use 'regularised')",
        )


def tessellated(c: Contact) -> bool:
    """Whether pair c has no exact kind: a mesh pair of its shapes' tessellations (:func:`approximated`);
    also two cylinders crossed or off each other's length at the start (``crossed``, set by the check)."""
    kinds = (c.shape_a.type, c.shape_b.type)
    return c.crossed or (kinds not in PAIRS and kinds[::-1] not in PAIRS)


def _tessellable(c: Contact) -> bool:
    kinds = tuple("mesh" if shape.type in TESSELLATED else shape.type for shape in (c.shape_a, c.shape_b))
    return kinds in PAIRS or kinds[::-1] in PAIRS


def deflection(c: Contact) -> float:
    """The chord deflection [m] of pair c's tessellations."""
    return DEFLECTION if c.deflection is None else c.deflection


def approximated(c: Contact, path: str | None = None) -> Contact:
    """Pair c with its box, face, cylinder, cone and torus tessellated (:func:`.tessellation.shape_mesh`,
    a side along its axis in parts of at most SAMPLE_FRACTION x the other shape's smallest size): a
    mesh-mesh pair, or mesh-plane for a face against a plane. A copy; c unchanged."""
    path = path or f"contact '{c.name}'"
    shapes = {}
    for key, other in (("shape_a", c.shape_b), ("shape_b", c.shape_a)):
        shape = getattr(c, key)
        if shape.type in TESSELLATED:
            size = smallest_size(other, mesh_of(other, path, c.name)[0] if other.type == "mesh" else None)
            mesh = shape_mesh(shape, deflection(c), SAMPLE_FRACTION * size, f"{path}.{key}", c.name)
            shape = Shape(type="mesh", mesh=mesh)
        shapes[key] = shape
    return dataclasses.replace(c, crossed=False, **shapes)


def has_stiction(c: Contact) -> bool:
    """Whether pair c's friction is solved with true stiction (system/contact_friction.py)."""
    return c.enabled and c.friction_law == "stiction" and c.mu_s > 0.0


def ordered(c: Contact) -> tuple[str, Shape, str, Shape]:
    """(body, shape) of the pair in the order of :data:`PAIRS` (the sphere or box first; of two
    cylinders the shorter, whose line is sliced; a pair without an exact kind: that of its tessellations)."""
    kinds = (c.shape_a.type, c.shape_b.type)
    if tessellated(c):
        kinds = tuple("mesh" if kind in TESSELLATED else kind for kind in kinds)
    elif c.shape_a.type == c.shape_b.type == "cylinder" and c.shape_b.length < c.shape_a.length:
        return c.body_b, c.shape_b, c.body_a, c.shape_a
    if kinds in PAIRS:
        return c.body_a, c.shape_a, c.body_b, c.shape_b
    return c.body_b, c.shape_b, c.body_a, c.shape_a


def is_line(c: Contact) -> bool:
    """Whether the pair is a line contact (cylinder-plane, cylinder-cylinder: not crossed)."""
    _, first, _, second = ordered(c)
    return (first.type, second.type) in LINE_PAIRS and not tessellated(c)


def _crossed(model, c: Contact) -> bool:
    """Whether a cylinder-cylinder pair has no exact kind at the start: axes not parallel (beyond
    PARALLEL_TOL), or the shorter cylinder not within the longer one's length along their axes."""
    if (c.shape_a.type, c.shape_b.type) != ("cylinder", "cylinder"):
        return False
    c.crossed = False  # ordered as the exact pair: the shorter first
    body_i, first, body_j, second = ordered(c)
    (r_i, A_i), (r_j, A_j) = _pose(model, body_i), _pose(model, body_j)
    u_i, u_j = (A @ _unit(s.axis) for A, s in ((A_i, first), (A_j, second)))
    if math.asin(min(1.0, float(np.linalg.norm(np.cross(u_i, u_j))))) > PARALLEL_TOL:
        return True
    offset = float(u_j @ (r_i + A_i @ np.asarray(first.center, float) - r_j - A_j @ np.asarray(second.center, float)))
    return abs(offset) + 0.5 * first.length > 0.5 * second.length * (1 + 1e-9)


# ----------------------------------------------------------------------------- law
@dataclass
class ContactLaw:
    """The constants of a pair's normal law F = K d^n (1 + chi d' / v-) (docs/contact.md):
    stiffness K [N/m^n], exponent n, damping factor chi (0: elastic), friction mu_s, mu_k,
    slip_speed [m/s], min_impact_speed [m/s]; E* [Pa] and R* [m] where Hertz applies."""

    stiffness: float
    exponent: float
    chi: float
    mu_s: float
    mu_k: float
    slip_speed: float
    min_impact_speed: float
    e_star: float = math.nan
    r_star: float = math.nan


def material(value: object, path: str, pair: str) -> tuple[float, float]:
    """(E [Pa], nu) of a material name of :data:`MATERIALS` or {"young": E, "poisson": nu}."""
    if isinstance(value, str) and value in MATERIALS:
        return MATERIALS[value]
    if isinstance(value, dict) and set(value) == {"young", "poisson"}:
        E = check_number(value["young"], f"{path}.young", positive=True, kind="number")
        nu = check_number(value["poisson"], f"{path}.poisson", kind="number")
        if not -1.0 < nu < 0.5:
            raise ModelError(f"{path}.poisson", f"contact '{pair}': Poisson's ratio must lie in (-1, 0.5), got {nu}")
        return E, nu
    names = ", ".join(MATERIALS)
    raise ModelError(path, f"contact '{pair}': a material is one of {names} or {{young, poisson}}, got {shown(value)}")


def effective_modulus(c: Contact, path: str = "contact") -> float:
    """E* = 1 / ((1 - nu_a^2) / E_a + (1 - nu_b^2) / E_b) [Pa]."""
    Ea, nua = material(c.material_a, f"{path}.material_a", c.name)
    Eb, nub = material(c.material_b, f"{path}.material_b", c.name)
    return 1.0 / ((1.0 - nua**2) / Ea + (1.0 - nub**2) / Eb)


def effective_radius(c: Contact) -> float:
    """R* = 1 / (1/R_a + 1/R_b) [m] (a plane: infinite radius); a sphere R on a cylinder's side
    r: the circle of equal curvature product sqrt(R' R''), R' = R, R'' = R r / (R + r)
    [Johnson]; NaN for a box's corners, a mesh, a torus, a cone and the line contacts (a box on a
    box, a sphere on a cone)."""
    _, first, _, second = ordered(c)
    if first.type != "sphere" or first.radius == 0.0 or second.type == "cone":
        return math.nan
    if second.type in ("plane", "box", "face"):  # a ball on a box or a face: Hertz on its faces
        return first.radius
    if second.type == "cylinder":
        R, r = first.radius, second.radius
        return math.sqrt(R * R * r / (R + r))
    return 1.0 / (1.0 / first.radius + 1.0 / second.radius) if second.radius > 0 else math.nan


def contact_law(c: Contact, path: str = "contact") -> ContactLaw:
    """The law's constants: Hertz K = 4/3 E* sqrt(R*), n = 1.5 unless given; a line contact of
    length L (the shorter cylinder's): K = pi/4 E* L, n = 1 (the whole line's, shared by its
    points)."""
    e_star, r_star = effective_modulus(c, path), effective_radius(c)
    K, line = c.stiffness, is_line(c)
    if K is None and line:
        K = math.pi / 4.0 * e_star * ordered(c)[1].length
    elif K is None:
        if math.isnan(r_star):
            raise ModelError(
                f"{path}.stiffness",
                f"contact '{c.name}': needs a stiffness (Hertz applies to spheres here, not to a box, a mesh, "
                "a torus or a cone)",
            )
        K = 4.0 / 3.0 * e_star * math.sqrt(r_star)
    n = (1.0 if line else 1.5) if c.exponent is None else c.exponent
    mu_k = c.mu_s if c.mu_k is None else c.mu_k
    chi = damping_factor(c.restitution, n, c.law)
    return ContactLaw(K, n, chi, c.mu_s, mu_k, c.slip_speed, c.min_impact_speed, e_star, r_star)


@functools.lru_cache(maxsize=256)
def damping_factor(e: float, n: float, law: str = "flores") -> float:
    """chi of F = K d^n (1 + chi d'/v-) for the restitution e: Flores et al. 2011's
    8 (1 - e) / (5 e) [FLO11], or (``restitution``) the chi whose impact of one contact point
    rebounds at exactly e v- (:func:`rebound_ratio`, found by bisection: 0.4 s of CPU, once per
    (e, n) in a process)."""
    if e >= 1.0:
        return 0.0
    if law == "flores":
        return 8.0 * (1.0 - e) / (5.0 * e)
    return brentq(lambda chi: rebound_ratio(chi, n) - e, 0.0, 1e3, xtol=1e-12, rtol=1e-10)


def rebound_ratio(chi: float, n: float) -> float:
    """v+ / v- of an impact under F = K d^n (1 + chi d'/v-), from the dimensionless motion
    x'' = -x^n (1 + chi x'), x(0) = 0, x'(0) = 1 (the ratio depends on chi and n only)."""

    def rhs(_t, y):
        x = max(y[0], 0.0)
        return [y[1], -(x**n) * max(1.0 + chi * y[1], 0.0)]

    def separated(_t, y):
        return y[0]

    separated.terminal, separated.direction = True, -1
    sol = solve_ivp(rhs, (0.0, 1e3), [0.0, 1.0], events=separated, rtol=1e-11, atol=1e-13, first_step=1e-6)
    if not sol.t_events[0].size:
        return 0.0  # never separates: the damping holds it
    return -float(sol.y_events[0][0][1])


def contact_time(law: ContactLaw, mass: float, speed: float) -> float:
    """Duration [s] of an elastic impact of a mass [kg] at ``speed`` [m/s] under K d^n:
    2 x the time to the deepest point (2.94 d_max / v for n = 1.5, Hertz)."""
    n, K = law.exponent, law.stiffness
    d_max = ((n + 1.0) * mass * speed**2 / (2.0 * K)) ** (1.0 / (n + 1.0))
    # time to d_max: d_max / v times the integral of (1 - x^m)^(-1/2) over [0, 1], m = n + 1
    m = n + 1.0
    return 2.0 * d_max / speed * float(beta(1.0 / m, 0.5)) / m


# ----------------------------------------------------------------------------- contact points
def _pose(model, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Initial (position [m], rotation) of a body's own frame; the ground's is the global frame."""
    if name == "ground":
        return np.zeros(3), np.eye(3)
    b = model.body(name)
    return np.asarray(b.position, float), quaternion.matrix(np.asarray(b.orientation, float))


def _unit(v) -> np.ndarray:
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def _cylinder_points(c: Contact, poses: tuple) -> list[ContactPoint]:
    """The points of a pair with a cylinder: the first shape's CYLINDER_POINTS slices (a cylinder
    on a plane or a cylinder) or its sphere, against the second's plane or cylinder side."""
    body_i, first, body_j, second = ordered(c)
    (r_i, A_i), (r_j, A_j) = poses
    if second.type == "plane":
        q, nrm = r_j + A_j @ np.asarray(second.point, float), A_j @ _unit(second.normal)
    else:
        q, nrm = r_j + A_j @ np.asarray(second.center, float), A_j @ _unit(second.axis)
    centre, r_b = r_i + A_i @ np.asarray(first.center, float), 0.0 if second.type == "plane" else second.radius
    if first.type == "sphere":
        return [ContactPoint(POINT_CYLINDER, body_i, body_j, centre, q, nrm, first.radius, r_b)]
    u = A_i @ _unit(first.axis)
    kind = DISC_PLANE if second.type == "plane" else POINT_CYLINDER
    at = [((k + 0.5) / CYLINDER_POINTS - 0.5) * first.length for k in range(CYLINDER_POINTS)]
    return [ContactPoint(kind, body_i, body_j, centre + s * u, q, nrm, first.radius, r_b, u) for s in at]


def _face_points(c: Contact, poses: tuple) -> list[ContactPoint]:
    """The points of a sphere or a cylinder (its slices) against a bounded face (FACE)."""
    body_i, first, body_j, second = ordered(c)
    (r_i, A_i), face = poses[0], face_frame(second, poses[1])
    centre, depth = r_i + A_i @ np.asarray(first.center, float), second.depth
    if first.type == "sphere":
        return [ContactPoint(FACE, body_i, body_j, centre, face[0], face[1], first.radius, depth, face=face)]
    u = A_i @ _unit(first.axis)
    at = [((k + 0.5) / CYLINDER_POINTS - 0.5) * first.length for k in range(CYLINDER_POINTS)]
    return [
        ContactPoint(FACE, body_i, body_j, centre + s * u, face[0], face[1], first.radius, depth, u, face=face)
        for s in at
    ]


def contact_points(model, c: Contact) -> list[ContactPoint]:
    """The contact elements of pair ``c``: one per sphere, the 8 corners of a box, the slices of a
    line contact, the points of a mesh (:func:`.mesh_shapes.mesh_points`: its vertices against a
    plane, and face samples against a sphere, a box or a cylinder), the arcs of a torus, the
    rims of a cone, the vertices and edge pairs of two boxes, a sphere against a cone
    (:func:`.shape_points.pair_points`); a pair without an exact kind, those of its tessellations."""
    if tessellated(c):
        return contact_points(model, approximated(c))
    body_i, first, body_j, second = ordered(c)
    if second.type == "face":
        return _face_points(c, (_pose(model, body_i), _pose(model, body_j)))
    if first.type == second.type == "mesh":
        return _mesh_mesh_points(model, c)
    mesh_cylinder = (first.type, second.type) == ("mesh", "cylinder")
    if first.type in ("torus", "cone") or second.type in ("box", "cone") or mesh_cylinder:
        centres = _mesh_contact_points(c, first, second) if first.type == "mesh" else None
        return pair_points(body_i, first, body_j, second, (_pose(model, body_i), _pose(model, body_j)), centres)
    if "cylinder" in (first.type, second.type):
        return _cylinder_points(c, (_pose(model, body_i), _pose(model, body_j)))
    r_i, A_i = _pose(model, body_i)
    r_j, A_j = _pose(model, body_j)
    q = r_j + A_j @ np.asarray(second.point if second.type == "plane" else second.center, float)
    nrm = np.zeros(3)
    if second.type == "plane":
        nrm = A_j @ np.asarray(second.normal, float)
        nrm /= np.linalg.norm(nrm)
    kind = SPHERE_PLANE if second.type == "plane" else SPHERE_SPHERE
    r_j_radius = second.radius if second.type == "sphere" else 0.0
    if first.type == "sphere":
        centres, radius = [np.asarray(first.center, float)], first.radius
    elif first.type == "mesh":
        centres, radius = _mesh_contact_points(c, first, second), 0.0
    else:
        half = 0.5 * np.asarray(first.size, float)
        corners = [np.array([sx, sy, sz]) * half for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
        centres, radius = [np.asarray(first.center, float) + x for x in corners], 0.0
    shared = first.type == "mesh"
    return [
        ContactPoint(kind, body_i, body_j, r_i + A_i @ x, q, nrm, radius, r_j_radius, shared=shared) for x in centres
    ]


def _mesh_contact_points(c: Contact, mesh: Shape, other: Shape) -> np.ndarray:
    """The points [m] of a pair's mesh in its body frame; ModelError beyond the size limit."""
    key = "shape_a" if mesh is c.shape_a else "shape_b"
    V, T = mesh_of(mesh, f"contact '{c.name}'.{key}", c.name)
    points = mesh_points(V, T, sample_spacing(other))
    if len(points) > MAX_MESH_POINTS:
        raise ModelError(f"contact '{c.name}'.{key}", f"contact '{c.name}': {too_large(len(T), len(points))}")
    return points


def _mesh_mesh_points(model, c: Contact) -> list[ContactPoint]:
    """The elements of a mesh-mesh pair (:func:`.mesh_pairs.mesh_pair_points`), its meshes placed."""
    placed = []
    for key in ("a", "b"):
        body, shape = getattr(c, f"body_{key}"), getattr(c, f"shape_{key}")
        V, T = mesh_of(shape, f"contact '{c.name}'.shape_{key}", c.name)
        r, A = _pose(model, body)
        placed.append((body, r + V @ A.T, T))
    return mesh_pair_points(c.name, *placed)


def sample_spacing(other: Shape) -> float:
    """The spacing [m] of a mesh's points against ``other``: SAMPLE_FRACTION of its smallest size (a
    sphere's or cylinder's radius, a cylinder's length, a box's shortest edge); a plane: infinite
    (the vertices alone)."""
    size = {"sphere": [other.radius], "box": other.size, "cylinder": [other.radius, other.length]}.get(other.type)
    return SAMPLE_FRACTION * min(size) if size and min(size) > 0 else math.inf


def mesh_of(shape: Shape, path: str, pair: str) -> tuple[np.ndarray, np.ndarray]:
    """(vertices, triangles) of a mesh shape, checked once (a Shape made in Python has only its lists)."""
    if shape.mesh is None:
        shape.mesh = mesh_arrays(shape.vertices, shape.triangles, path, pair)
    return shape.mesh


def _check_initial_overlap(model, c: Contact, path: str) -> None:
    depth = max(penetration(p) for p in contact_points(model, c))
    if depth > c.penetration_tol:
        raise ModelError(
            f"{path}.shape_a",
            f"contact '{c.name}': the shapes start interpenetrating {depth:.4g} m deep (penetration_tol "
            f"{c.penetration_tol:g} m): move the bodies apart",
        )
