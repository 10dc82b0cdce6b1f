"""Pairs without an exact kind (docs/contact.md, "Tessellated pairs"): the tessellations of a box, a
face, a cylinder, a cone and a torus (closed, outward, vertices on the exact surface, chord error
within the deflection, against independent signed distances), a cylinder lying on a box at the
cylinder-plane pair's depth, a box's corner pressed into a cylinder's side at the exact depth within
the deflection, a cone resting on a ring, every formerly refused pair dropped with no energy gain,
and the refusals (plane-plane, a tessellation beyond the memory limit)."""

import math

import numpy as np
import pytest

from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.solver.model import from_dict
from MBDWorkbench.solver.model.contacts import Shape, approximated, contact_points, tessellated
from MBDWorkbench.solver.model.mesh_shapes import box_mesh, check_mesh
from MBDWorkbench.solver.model.shape_points import penetration
from MBDWorkbench.solver.model.tessellation import segments, shape_count, shape_mesh
from MBDWorkbench.solver.simulate import simulate

G = 9.81


# ----------------------------------------------------------------------------- independent signed distances
def _frame(axis) -> np.ndarray:
    u = np.asarray(axis, float) / np.linalg.norm(axis)
    a = np.cross(u, [1.0, 0.0, 0.0] if abs(u[0]) < 0.9 else [0.0, 1.0, 0.0])
    a /= np.linalg.norm(a)
    return np.column_stack([a, np.cross(u, a), u])


def box_sdf(X, center, axes, half) -> np.ndarray:
    q = np.abs((X - center) @ axes) - half
    return np.linalg.norm(np.maximum(q, 0.0), axis=1) + np.minimum(q.max(axis=1), 0.0)


def meridian(X, center, axis) -> tuple[np.ndarray, np.ndarray]:
    """(distance from the axis, coordinate along it) of points X."""
    d = X - center
    u = np.asarray(axis, float) / np.linalg.norm(axis)
    s = d @ u
    return np.linalg.norm(d - s[:, None] * u, axis=1), s


def polygon_sdf(P, corners) -> np.ndarray:
    """Signed distance in 2D to a convex polygon (corners counter-clockwise)."""
    best = np.full(len(P), np.inf)
    inside = np.ones(len(P), bool)
    for a, b in zip(corners, np.roll(corners, -1, axis=0)):
        e = b - a
        t = np.clip(((P - a) @ e) / (e @ e), 0.0, 1.0)
        best = np.minimum(best, np.linalg.norm(P - a - t[:, None] * e, axis=1))
        inside &= e[0] * (P[:, 1] - a[1]) - e[1] * (P[:, 0] - a[0]) >= 0.0
    return np.where(inside, -best, best)


def sdf(shape: dict, X: np.ndarray) -> np.ndarray:
    """The exact signed distance [m] of points X to a solid box, face slab, cylinder, cone or torus."""
    if shape["type"] == "box":
        return box_sdf(X, shape["center"], np.eye(3), 0.5 * np.asarray(shape["size"]))
    if shape["type"] == "face":
        n, u = np.asarray(shape["normal"], float), np.asarray(shape["axis"], float)
        axes = np.column_stack([u, np.cross(n, u), n])
        half = [0.5 * shape["length"], 0.5 * shape["width"], shape["depth"]]
        return box_sdf(X, np.asarray(shape["center"]) - shape["depth"] * n, axes, half)
    if shape["type"] == "torus":
        rho, s = meridian(X, shape["center"], shape["axis"])
        return np.hypot(rho - shape["major_radius"], s) - shape["minor_radius"]
    rho, s = meridian(X, shape["center"], shape["axis"])
    h = 0.5 * shape["length"]
    r1, r2 = (shape["radius"], shape["radius"]) if shape["type"] == "cylinder" else (shape["radius1"], shape["radius2"])
    corners = np.array([[-r1, -h], [r1, -h], [r2, h], [-r2, h]] if r2 > 0 else [[-r1, -h], [r1, -h], [0, h]])
    return polygon_sdf(np.column_stack([rho, s]), corners)


SHAPES = {
    "box": {"type": "box", "center": [0.01, 0.0, 0.0], "size": [0.06, 0.05, 0.04]},
    "face": {"type": "face", "center": [0, 0, 0], "normal": [0, 0.6, 0.8], "axis": [1, 0, 0], "length": 0.08,
             "width": 0.06, "depth": 0.01},
    "cylinder": {"type": "cylinder", "center": [0, 0, 0.01], "axis": [1, 1, 0], "radius": 0.02, "length": 0.08},
    "cone": {"type": "cone", "center": [0, 0, 0], "axis": [0, 0, 1], "radius1": 0.03, "radius2": 0.0, "length": 0.05},
    "frustum": {"type": "cone", "center": [0, 0, 0], "axis": [0, 1, 0], "radius1": 0.01, "radius2": 0.03,
                "length": 0.04},
    "torus": {"type": "torus", "center": [0, 0, 0], "axis": [0, 0.6, 0.8], "major_radius": 0.03, "minor_radius": 0.01},
}  # fmt: skip


def model_shape(d: dict) -> Shape:
    return Shape(**{k: (list(v) if isinstance(v, list) else v) for k, v in d.items()})


@pytest.mark.parametrize("name", sorted(SHAPES))
@pytest.mark.parametrize("deflection", [1e-3, 1e-4])
def test_a_tessellation_is_closed_outward_on_the_surface_and_within_the_deflection(name, deflection):
    """Every vertex on the exact surface (1e-12 m); 12 points on each triangle (corners' means, edge
    midpoints, centroid) within the deflection of it, the worst beyond a fifth of it where the shape
    is curved (the segments are not needlessly many); each triangle's normal points out (the exact
    signed distance grows along it); closed with no degenerate triangle; the count known beforehand."""
    shape = SHAPES[name]
    V, T = shape_mesh(model_shape(shape), deflection, 0.01, "shape", "pair")
    assert (len(V), len(T)) == shape_count(model_shape(shape), deflection, 0.01)
    check_mesh(V, T, "shape", "pair")
    np.testing.assert_allclose(sdf(shape, V), 0.0, atol=1e-12)
    A, B, C = V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]
    weights = [(1, 0, 0), (0.5, 0.5, 0), (0, 0.5, 0.5), (0.5, 0, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.6, 0.2, 0.2)]
    weights += [(0.2, 0.6, 0.2), (0.2, 0.2, 0.6), (0.25, 0.75, 0), (0, 0.25, 0.75), (0.75, 0, 0.25), (0.1, 0.45, 0.45)]
    X = np.concatenate([a * A + b * B + c * C for a, b, c in weights])
    error = np.abs(sdf(shape, X))
    assert error.max() <= deflection
    if name not in ("box", "face"):
        assert error.max() > 0.2 * deflection
    n = np.cross(B - A, C - A)
    n /= np.linalg.norm(n, axis=1)[:, None]
    centroid, h = (A + B + C) / 3.0, 1e-7
    assert (sdf(shape, centroid + h * n) > sdf(shape, centroid - h * n)).all()


def test_straight_edges_are_divided_at_the_spacing_and_curves_at_the_deflection():
    V, _ = shape_mesh(model_shape(SHAPES["cylinder"]), 1e-4, 0.01, "shape", "pair")
    rings = segments(0.02, 1e-4)
    assert rings == math.ceil(math.pi / math.acos(1 - 1e-4 / 0.02))
    assert len(V) == rings * (8 + 1) + 2  # 0.08 m in 8 parts of 0.01 m, two cap centres


# ----------------------------------------------------------------------------- pairs
def body(name: str, z: float, mass: float = 1.0, q=(1.0, 0.0, 0.0, 0.0)) -> dict:
    inertia = np.diag([1e-3, 1e-3, 1e-3]).tolist()
    return {"name": name, "mass": mass, "inertia": inertia, "position": [0, 0, z], "orientation": list(q)}


def pair_model(bodies, shape_a, shape_b, body_b="ground", t_end=0.2, step=2e-5, **law) -> object:
    pair = {"name": "pair", "body_a": bodies[0]["name"], "body_b": body_b, "shape_a": shape_a, "shape_b": shape_b}
    pair.update({"stiffness": 1e7, "restitution": 0.5, "law": "restitution", "deflection": 1e-3, **law})
    settings = {"t_end": t_end, "step": step, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    return from_dict({"name": "m", "bodies": bodies, "contacts": [pair], "settings": settings})


R_ROLL = 0.02
ROLL = {"type": "cylinder", "center": [0, 0, 0], "axis": [1, 0, 0], "radius": R_ROLL, "length": 0.1}
TABLE = {"type": "box", "center": [0, 0, -0.05], "size": [0.3, 0.3, 0.1]}  # its top at z = 0
FLOOR = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}


def test_a_cylinder_lying_on_a_box_rests_at_the_depth_of_the_cylinder_plane_pair():
    """A roller (r = 20 mm, 1 kg) dropped 0.1 mm onto a box's top, line law K = 1e7 N/m, n = 1: the
    exact cylinder-plane pair rests at d = m g / K; the tessellated pair (1 mm deflection: 10
    segments) on a facet of its 10-gon, at r cos(pi / 10) - m g / K, within the deflection of the
    exact pair's height; a 'contact' warning names the pair and the deflection."""
    bodies = [body("roll", R_ROLL + 1e-4)]
    exact = simulate(pair_model(bodies, ROLL, FLOOR, exponent=1.0))
    mesh = simulate(pair_model(bodies, ROLL, TABLE, exponent=1.0))
    assert exact.status == "completed", exact.warnings
    assert exact.position("roll")[-1, 2] == pytest.approx(R_ROLL - G / 1e7, abs=1e-9)
    assert mesh.status == "completed_with_warnings"
    assert [w.kind for w in mesh.warnings] == ["contact"]
    assert "contact 'pair': cylinder-box has no exact kind" in mesh.warnings[0].message
    assert "vertices only, deflection 1 mm" in mesh.warnings[0].message
    assert segments(R_ROLL, 1e-3) == 10
    z = mesh.position("roll")[-1, 2]
    assert z == pytest.approx(R_ROLL * math.cos(math.pi / 10) - G / 1e7, abs=1e-9)
    assert abs(z - exact.position("roll")[-1, 2]) <= 1e-3
    assert mesh.contact("pair")[-1, :3] == pytest.approx(exact.contact("pair")[-1, :3], abs=1e-6)  # on body_a


@pytest.mark.parametrize("angle", [0.0, 0.1, 0.37, 1.0])
def test_a_box_corner_pressed_into_a_cylinders_side_is_as_deep_as_the_exact_one_within_the_deflection(angle):
    """A cube (edge 40 mm) whose lowest corner is 1 mm inside a grounded cylinder's side (r = 50 mm,
    axis x) at an angle about the axis: the pair's initial penetration (python-fcl and the kernel's
    signed distance of the cylinder's tessellation) lies within the deflection below the exact depth
    r - rho of the corner (the tessellation is inscribed), and the kernel's (contacts.csv at t = 0)
    is the same."""
    r, depth, deflection = 0.05, 1e-3, 1e-4
    cylinder = {"type": "cylinder", "center": [0, 0, 0], "axis": [1, 0, 0], "radius": r, "length": 0.3}
    half = 0.02 * math.sqrt(3.0)  # the cube's centre to its corners
    direction = np.array([0.0, math.sin(angle), math.cos(angle)])
    corner = (r - depth) * direction
    # the cube turned so that its diagonal (1, 1, 1) points from the corner out along `direction`
    e = np.array([1.0, 1.0, 1.0]) / math.sqrt(3.0)
    axis = np.cross(-e, direction)
    turn = math.atan2(np.linalg.norm(axis), float(-e @ direction))
    axis = axis / np.linalg.norm(axis)
    q = [math.cos(turn / 2), *(math.sin(turn / 2) * axis)]
    cube = body("cube", 0.0, mass=5.0, q=q)
    cube["position"] = (corner + half * direction).tolist()
    shape = {"type": "box", "center": [0, 0, 0], "size": [0.04, 0.04, 0.04]}
    model = pair_model([cube], shape, cylinder, t_end=1e-4, step=1e-5, penetration_tol=0.01, deflection=deflection)
    model.gravity = [0.0, 0.0, 0.0]
    deepest = max(penetration(p) for p in contact_points(model, model.contacts[0]))
    assert depth - deflection <= deepest <= depth + 1e-12
    res = simulate(model)
    assert res.contact("pair")[0, 5] == pytest.approx(deepest, abs=1e-12)


def test_a_cone_dropped_on_a_ring_rests_on_it_without_passing_through():
    """A cone (base radius 60 mm, apex up, 0.5 kg) dropped 2 mm onto a grounded torus (R = 50 mm,
    r = 15 mm, lying flat): its base comes to rest on the tube's top, z = r, within the deflection
    and the law's depth, and never sinks below it by more than that."""
    cone = {"type": "cone", "center": [0, 0, 0], "axis": [0, 0, 1], "radius1": 0.06, "radius2": 0.0, "length": 0.04}
    ring = {"type": "torus", "center": [0, 0, 0], "axis": [0, 0, 1], "major_radius": 0.05, "minor_radius": 0.015}
    z0 = 0.015 + 0.02 + 2e-3  # the cone's centre: its base 2 mm above the ring
    res = simulate(pair_model([body("cone", z0, mass=0.5)], cone, ring, t_end=0.2, step=5e-5))
    assert res.status == "completed_with_warnings" and [w.kind for w in res.warnings] == ["contact"]
    base = res.position("cone")[:, 2] - 0.02
    law_depth = (0.5 * G / 1e7) ** (1 / 1.5)
    assert base.min() > 0.015 - 1e-3 - 20 * law_depth  # the impact's depth: a few times the resting one
    assert base[-1] == pytest.approx(0.015 - law_depth, abs=1e-3)
    assert np.abs(res.velocity("cone")[-1]).max() < 1e-3


# ----------------------------------------------------------------------------- every formerly refused pair
def shifted(shape: dict, dz: float) -> dict:
    out = dict(shape)
    if shape["type"] == "mesh":
        out["vertices"] = (np.asarray(shape["vertices"]) + [0, 0, dz]).tolist()
    elif shape["type"] == "plane":
        out["point"] = [0, 0, shape["point"][2] + dz]
    else:
        out["center"] = [0, 0, shape["center"][2] + dz]
    return out


DROP = {  # shape, its lowest and highest z [m] about its body's origin
    "box": ({"type": "box", "center": [0, 0, 0], "size": [0.06, 0.05, 0.04]}, -0.02, 0.02),
    "cylinder": ({"type": "cylinder", "center": [0, 0, 0], "axis": [1, 0.2, 0], "radius": 0.02, "length": 0.08},
                 -0.02, 0.02),
    "cone": ({"type": "cone", "center": [0, 0, 0], "axis": [0, 0, 1], "radius1": 0.03, "radius2": 0.01,
              "length": 0.04}, -0.02, 0.02),
    "torus": ({"type": "torus", "center": [0, 0, 0], "axis": [0, 0, 1], "major_radius": 0.03,
               "minor_radius": 0.01}, -0.01, 0.01),
    "mesh": (box_mesh([0.05, 0.05, 0.03]), -0.015, 0.015),
    "plane": (FLOOR, None, 0.0),
}  # fmt: skip
FACE_UP = {"type": "face", "center": [0, 0, 0], "normal": [0, 0, 1], "axis": [1, 0, 0], "length": 0.08,
           "width": 0.06, "depth": 0.01}  # fmt: skip
REFUSED_BEFORE = [
    ("box", "cylinder"), ("box", "cone"), ("box", "torus"), ("cone", "cone"), ("cone", "cylinder"),
    ("cone", "torus"), ("torus", "torus"), ("torus", "cylinder"), ("box", "face"), ("mesh", "face"),
    ("mesh", "torus"), ("mesh", "cone"), ("torus", "face"), ("cone", "face"), ("face", "face"), ("face", "plane"),
]  # fmt: skip


def drop_shape(kind: str, upper: bool) -> tuple[dict, float, float]:
    if kind == "face":  # a face on the falling body looks down, its slab above it
        face = dict(FACE_UP, normal=[0, 0, -1]) if upper else FACE_UP
        return face, (0.0 if upper else -0.02), (0.02 if upper else 0.0)
    return DROP[kind]


@pytest.mark.parametrize("upper,lower", REFUSED_BEFORE)
def test_every_pair_formerly_refused_runs_a_drop_with_no_energy_gain(upper, lower):
    """The upper shape's body (0.5 kg, turned 0.1 rad) dropped 3 mm onto the lower, grounded, e = 0.5:
    it touches (the pair's force appears), its energy while apart never exceeds the start's (1e-6 of
    the drop's), and its lowest point never goes 2 mm below the lower shape's top."""
    shape_a, bottom, _ = drop_shape(upper, True)
    shape_b, _, top = drop_shape(lower, False)
    q = (math.cos(0.05), math.sin(0.05), 0.0, 0.0)
    z = top + 3e-3 - bottom + 0.02 * math.sin(0.1)  # clear of the lower shape when turned
    model = pair_model([body("upper", z, mass=0.5, q=q)], shape_a, shape_b, t_end=0.08)
    assert tessellated(model.contacts[0])
    res = simulate(model)
    assert res.status == "completed_with_warnings" and [w.kind for w in res.warnings] == ["contact"]
    F = res.contact("pair")[:, 3]
    assert F.max() > 0.0
    e = res.energy()
    motion = (e["kinetic"] + e["potential"])[F == 0.0]
    assert motion.max() - motion[0] <= 1e-6 * 0.5 * G * 3e-3
    assert res.position("upper")[:, 2].min() > top - bottom - 2e-3  # level, its lowest point 2 mm deep


def test_two_planes_are_still_refused_naming_the_pair():
    with pytest.raises(ModelError, match=r"contact 'pair': plane-plane is not handled"):
        pair_model([body("slab", 0.1)], FLOOR, FLOOR)


def test_a_tessellation_beyond_the_memory_limit_is_refused_with_its_estimate():
    """A cylinder at 1e-11 m of deflection: about 1e5 segments a ring, refused before any array is made."""
    with pytest.raises(ModelError, match=r"contact 'pair'.*the tessellation of the shape.*contact points \(\d+ MB\)"):
        pair_model([body("roll", 0.1)], ROLL, TABLE, deflection=1e-11)


def test_a_pairs_tessellations_leave_it_unchanged_and_its_exact_pairs_are_not_tessellated():
    model = pair_model([body("roll", 0.03)], ROLL, TABLE)
    c = model.contacts[0]
    meshes = approximated(c)
    assert (c.shape_a.type, c.shape_b.type) == ("cylinder", "box")
    assert (meshes.shape_a.type, meshes.shape_b.type) == ("mesh", "mesh")
    assert model.to_dict()["contacts"][0]["deflection"] == 1e-3
    exact = pair_model([body("roll", 0.03)], ROLL, FLOOR)
    assert not tessellated(exact.contacts[0])


def test_a_rod_dropped_across_a_rod_rests_on_it_at_the_sum_of_their_radii():
    """Crossed cylinders (no exact kind at the start): a rod (r = 15 mm, axis x, 0.5 kg) dropped 2 mm
    across a grounded rod (r = 20 mm, axis y): from 0.15 s on its axis stays r1 + r2 above the
    other's within twice the deflection and the law's depth, and never passes through; parallel rods keep
    their exact line pair."""
    upper = {"type": "cylinder", "center": [0, 0, 0], "axis": [1, 0, 0], "radius": 0.015, "length": 0.1}
    lower = {"type": "cylinder", "center": [0, 0, -0.02], "axis": [0, 1, 0], "radius": 0.02, "length": 0.2}
    z0 = 0.015 + 2e-3
    model = pair_model([body("rod", z0, mass=0.5)], upper, lower, t_end=0.2, step=5e-5)
    assert tessellated(model.contacts[0])
    res = simulate(model)
    assert res.status == "completed_with_warnings" and [w.kind for w in res.warnings] == ["contact"]
    law_depth = (0.5 * G / 1e7) ** (1 / 1.5)
    z = res.position("rod")[:, 2]
    assert np.abs(z[res.t > 0.15] - (0.015 - law_depth)).max() <= 2e-3  # resting (rocking about y) on the rod
    assert z.min() > 0.015 - 2e-3 - 20 * law_depth
    parallel = pair_model([body("rod", z0, mass=0.5)], upper, dict(lower, axis=[1, 0, 0]), t_end=0.01)
    assert not tessellated(parallel.contacts[0])
