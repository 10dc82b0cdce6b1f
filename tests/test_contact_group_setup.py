"""The setup of a contact group of many bodies (docs/contact.md, "Cost"): its pairs read, checked,
packed and warned about as arrays (model/sphere_pairs.py, system/contact_packing.py,
system/broad_phase.py, contact_checks.py) give the same pairs, elements, errors and warnings as
the explicit pairs handled one by one."""

import dataclasses
import math

import numpy as np
import pytest

from MBDWorkbench.solver import contact_checks
from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.solver.model import from_dict
from MBDWorkbench.solver.model.sphere_pairs import sphere_pairs
from MBDWorkbench.solver.system import contact_packing
from MBDWorkbench.solver.system.system import System

R, MASS, GAP = 0.01, 0.033, 0.001  # ball radius [m], mass [kg], gap between grid neighbours [m]
PLANE = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}


def balls(n: int, overlap: float = 0.0) -> dict:
    """n balls on a grid (GAP apart; balls 20 and 21 ``overlap`` [m] into each other), the first
    turned, the third a larger ball, the last one fixed; one group of all pairs among them."""
    side = math.ceil(math.sqrt(n))
    J = np.diag([0.4 * MASS * R * R] * 3).tolist()
    bodies, shapes = [], {}
    rng = np.random.default_rng(3)
    for k in range(n):
        x = (2 * R + GAP) * (k % side) - (overlap + GAP if k == 21 else 0.0)
        body = {"name": f"b{k}", "mass": MASS, "inertia": J, "position": [x, (2 * R + GAP) * (k // side), R]}
        body["velocity"] = [*rng.uniform(-0.1, 0.1, 2), 0.0]
        bodies.append(body)
        shapes[f"b{k}"] = {"type": "sphere", "center": [0, 0, 0], "radius": R}
    bodies[0]["orientation"] = [0.9, 0.1, 0.3, 0.2]
    shapes["b0"] = {"type": "sphere", "center": [0.002, -0.001, 0.0], "radius": 0.5 * R}
    shapes["b2"] = {"type": "sphere", "center": [0, 0, 0], "radius": 0.6 * R + 0.5 * GAP}  # a different law
    bodies[-1].update(grounded=True, velocity=[0, 0, 0])
    law = {"restitution": 0.8, "mu_s": 0.2}
    group = {"name": "pile", "group": {"bodies": list(shapes)}, "shapes": shapes, **law}
    floor = {"name": "floor", "body_a": "b1", "body_b": "ground", "shape_a": shapes["b1"], "shape_b": PLANE, **law}
    settings = {"t_end": 0.01, "step": 1e-5, "output_step": 0.005, "integrator": "rk4"}
    return {
        "name": "pile",
        "bodies": bodies,
        "contacts": [floor, group],
        "gravity": [0, 0, -9.81],
        "settings": settings,
    }


def explicit(model: dict) -> dict:
    """``model`` with its group written out as explicit pairs (a-b for a before b in its list)."""
    out = dict(model, contacts=[])
    for d in model["contacts"]:
        if "group" not in d:
            out["contacts"].append(d)
            continue
        names, law = d["group"]["bodies"], {k: v for k, v in d.items() if k not in ("name", "group", "shapes")}
        fixed = {b["name"] for b in model["bodies"] if b.get("grounded")}
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                if not {a, b} <= fixed:
                    pair = {"name": f"{d['name']}: {a}-{b}", "body_a": a, "body_b": b}
                    out["contacts"].append({**pair, "shape_a": d["shapes"][a], "shape_b": d["shapes"][b], **law})
    return out


def pair_fields(c) -> tuple:
    """The fields of a pair but its group's name."""
    return tuple(getattr(c, f.name) for f in dataclasses.fields(c) if f.name != "group")


def force_arrays(system: System) -> dict:
    S = system.static
    arrays = {k: getattr(S, k) for k in S._fields if k.startswith(("force_", "bp_"))}
    return {**arrays, "contact_pair": np.asarray(system.contact_pair), "force_order": system.force_order}


def assert_same_arrays(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        assert a[key].shape == b[key].shape and a[key].dtype == b[key].dtype, key
        assert np.array_equal(a[key], b[key], equal_nan=True), key


def test_a_group_of_300_bodies_gives_the_explicit_pairs_and_elements():
    """300 balls: the group's pairs are the explicit pairs, field by field (the group's name apart),
    and the System's force and broad-phase arrays are the same."""
    data = balls(300)
    group, pairs = from_dict(data), from_dict(explicit(data))
    assert len(group.contacts) == len(pairs.contacts) == 1 + 300 * 299 // 2
    assert list(map(pair_fields, group.contacts)) == list(map(pair_fields, pairs.contacts))
    assert {c.group for c in group.contacts[1:]} == {"pile"} and {c.group for c in pairs.contacts} == {None}
    assert_same_arrays(force_arrays(System(group)), force_arrays(System(pairs)))


def test_the_arrays_of_the_sphere_pairs_are_those_packed_point_by_point(monkeypatch):
    """The sphere-sphere elements packed with NumPy equal those packed contact point by contact
    point (system/contact_packing.py without its sphere path: the contact points of each pair),
    bit for bit: a turned body, an offset sphere, a fixed body, two laws, a stiction pair."""
    data = balls(40)
    data["contacts"].append(dict(data["contacts"][0], name="stuck", body_b="b5", friction_law="stiction"))
    data["contacts"][-1]["shape_b"] = data["contacts"][1]["shapes"]["b5"]
    model = from_dict(data)
    assert len(sphere_pairs(model.contacts).index) == len(model.contacts) - 1  # all but the floor
    fast = force_arrays(System(model))
    monkeypatch.setattr(contact_packing, "sphere_pairs", lambda contacts: sphere_pairs([]))
    assert_same_arrays(fast, force_arrays(System(model)))


def test_an_overlapping_start_names_the_pair_and_its_depth_as_an_explicit_pair_does():
    """Balls b20 and b21 of a group of 300 start 0.2 mm into each other: the error names the pair,
    its index among the model's pairs and the depth 2 R - distance, as for the explicit pairs."""
    data = balls(300, overlap=2e-4)
    with pytest.raises(ModelError) as group:
        from_dict(data)
    with pytest.raises(ModelError) as pairs:
        from_dict(explicit(data))
    assert str(group.value) == str(pairs.value)
    names = [c["name"] for c in explicit(data)["contacts"]]
    assert f"contacts[{names.index('pile: b20-b21')}].shape_a" in str(group.value)
    assert "contact 'pile: b20-b21': the shapes start interpenetrating 0.0002 m deep" in str(group.value)


def bound(w) -> float:
    """What a pair's warning of its kind grows with as it falls: the impact's contact time [s], the
    step [s] below which it does not tunnel (as written: rounding keeps their order)."""
    if w.kind == "contact_unresolved":
        return float(w.message.split(" lasts ")[1].split(" s,")[0])
    return float(w.message.split("(a step below ")[1].split(" s)")[0])


def test_a_group_warns_once_per_kind_naming_its_worst_pair(monkeypatch):
    """The explicit pairs warn one by one (the same warnings as pair by pair without the sphere
    arrays); the group gives one warning of each kind with the count and its worst pair's warning
    (the shortest contact time, the shortest step that tunnels); the floor pair warns as before."""
    data = balls(60)
    data["settings"]["step"] = 1e-4  # longer than a tenth of any impact between these balls
    group, pairs = from_dict(data), from_dict(explicit(data))
    for settings in (group.settings, dataclasses.replace(group.settings, step=0.2)):
        each = contact_checks.contact_warnings(pairs, settings)
        with monkeypatch.context() as m:
            m.setattr(contact_checks, "sphere_pairs", lambda contacts: sphere_pairs([]))
            assert [w.message for w in contact_checks.contact_warnings(pairs, settings)] == [w.message for w in each]
        warned = contact_checks.contact_warnings(group, settings)
        floor = [w.message for w in each if w.elements == ("floor",)]
        assert [w.message for w in warned if w.elements == ("floor",)] == floor
        kinds = {w.kind for w in each if w.elements != ("floor",)}
        assert kinds == ({"contact_unresolved", "tunnelling"} if settings.step == 0.2 else {"contact_unresolved"})
        for kind in kinds:
            mine = [w for w in each if w.kind == kind and w.elements != ("floor",)]
            (one,) = [w for w in warned if w.kind == kind and w.elements != ("floor",)]
            (worst,) = [w for w in mine if w.elements == one.elements]
            assert bound(worst) == min(map(bound, mine))
            count = f"contact group 'pile': {len(mine)} of its {len(pairs.contacts) - 1} pairs"
            assert one.message == f"{count}; the worst, {worst.message}"
