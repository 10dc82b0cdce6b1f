"""Contact groups (docs/contact.md, "All pairs among bodies"): one entry of a model's ``contacts``
list that stands for every pair among its bodies,

    {"name": "pile", "group": {"bodies": ["a", "b", ...], "skip_jointed": true},
     "shapes": {"a": {...}, "b": {...}, ...}, <the law's fields, as for a pair>}

expanded into the pairs "pile: a-b" (:func:`expand_groups`: Contact objects, the law read once and
one Shape per body shared by the group's pairs; its shapes' errors name ``shapes.<body>``). Pairs of two
fixed bodies, of two bodies joined directly (``skip_jointed``, true unless given), and of shapes
that no pair handles (mesh-face, box-cylinder, ...) are left out.
"""

from __future__ import annotations

from dataclasses import fields

from ..errors import ModelError
from .contacts import PAIRS, Contact, parse_contact, read_shape
from .fields import shown

GROUP_FIELDS = {"bodies", "skip_jointed"}
PAIR_FIELDS = ("name", "body_a", "body_b", "shape_a", "shape_b", "group")
LAW_FIELDS = [f.name for f in fields(Contact) if f.name not in PAIR_FIELDS]  # the same for every pair of a group


def expand_groups(items: object, joints: object, fixed: set, path: str = "contacts") -> object:
    """``items`` with each group replaced by its pairs, Contact objects (``joints``: the model's JSON joints;
    ``fixed``: the names of the fixed bodies, "ground" included); anything else unchanged."""
    if not isinstance(items, list) or not any(isinstance(d, dict) and "group" in d for d in items):
        return items
    jointed = {frozenset((j.get("body_i"), j.get("body_j"))) for j in joints or [] if isinstance(j, dict)}
    out = []
    for k, d in enumerate(items):
        if isinstance(d, dict) and "group" in d:
            out += _group_pairs(d, f"{path}[{k}]", jointed, fixed)
        else:
            out.append(d)
    return out


def _group_pairs(d: dict, path: str, jointed: set, fixed: set) -> list[Contact]:
    name, group, shapes = d.get("name"), d["group"], d.get("shapes")
    if not isinstance(name, str) or not name:
        raise ModelError(f"{path}.name", "a contact group needs a name")
    if not isinstance(group, dict) or set(group) - GROUP_FIELDS or not isinstance(group.get("bodies"), list):
        raise ModelError(f"{path}.group", f"contact group '{name}': must be {{bodies: [...], skip_jointed: bool}}")
    bodies, skip = group["bodies"], group.get("skip_jointed", True)
    if len(set(map(str, bodies))) != len(bodies) or len(bodies) < 2:
        raise ModelError(
            f"{path}.group.bodies", f"contact group '{name}': two or more different bodies, got {shown(bodies)}"
        )
    if not isinstance(skip, bool):
        raise ModelError(f"{path}.group.skip_jointed", f"contact group '{name}': must be true or false")
    missing = [b for b in bodies if not isinstance(shapes, dict) or b not in shapes]
    if missing:
        raise ModelError(f"{path}.shapes", f"contact group '{name}': no shape for body '{missing[0]}'")
    law = {key: value for key, value in d.items() if key not in ("name", "group", "shapes")}
    kept = [(a, b) for i, a in enumerate(bodies) for b in bodies[i + 1 :] if _kept(a, b, shapes, fixed, skip, jointed)]
    if not kept:
        return []
    used = {x for pair in kept for x in pair}
    read = {body: read_shape(shapes[body], f"{path}.shapes.{body}", name) for body in bodies if body in used}
    a, b = kept[0]  # the law is read and checked once, as the first pair's
    first = {"name": f"{name}: {a}-{b}", "body_a": a, "body_b": b, "shape_a": shapes[a], "shape_b": shapes[b]}
    values = {key: getattr(parse_contact({**first, **law}, path), key) for key in LAW_FIELDS}
    return [
        Contact(f"{name}: {a}-{b}", a, b, read[a], read[b], **values, group=name) for a, b in kept
    ]  # the shapes shared by the group's pairs


def _kept(a: str, b: str, shapes: dict, fixed: set, skip: bool, jointed: set) -> bool:
    """Whether the group has the pair a-b: not two fixed bodies, not joined directly (``skip``), a
    pair of shapes handled."""
    kinds = (_type(shapes[a]), _type(shapes[b]))
    if {a, b} <= fixed or (skip and frozenset((a, b)) in jointed):
        return False
    return kinds in PAIRS or kinds[::-1] in PAIRS


def _type(shape: object) -> object:
    return shape.get("type") if isinstance(shape, dict) else None
