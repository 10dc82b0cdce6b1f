"""Mesh contact shapes (docs/contact.md, "Mesh shapes"): a tessellated cube settling on its face,
a tessellated ball against the analytic one, an analytic ball on a tessellated box, the checks of a
mesh (closed, no degenerate triangle, size limit), the bounding sphere that skips a pair's points
while apart."""

import numpy as np
import pytest

from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.solver.model import from_dict, mesh_shapes
from MBDWorkbench.solver.model.mesh_shapes import box_mesh, mesh_points, open_edges, sphere_mesh
from MBDWorkbench.solver.numerics import quaternion
from MBDWorkbench.solver.simulate import simulate

G = 9.81
PLANE = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}
BOX = {"type": "box", "center": [0, 0, 0], "size": [0.1, 0.1, 0.1]}
A = 0.1  # cube edge [m]
R = 0.05  # ball radius [m]
K = 1e9  # the pairs' stiffness [N/m^1.5]


def model_of(body: dict, shape_a: dict, shape_b: dict = PLANE, t_end=0.45, step=1e-5, **law):
    pair = {"name": "floor", "body_a": body["name"], "body_b": "ground", "shape_a": shape_a, "shape_b": shape_b}
    pair.update({"stiffness": K, "exponent": 1.5, **law})
    settings = {"t_end": t_end, "step": step, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    return from_dict({"name": "m", "bodies": [body], "contacts": [pair], "settings": settings})


def cube(height: float, mass: float = 1.0) -> dict:
    J = mass * A * A / 6
    return {"name": "cube", "mass": mass, "inertia": np.diag([J] * 3).tolist(), "position": [0, 0, A / 2 + height]}


def ball(height: float, mass: float = 1.0) -> dict:
    J = 0.4 * mass * R * R
    return {"name": "ball", "mass": mass, "inertia": np.diag([J] * 3).tolist(), "position": [0, 0, R + height]}


def test_tessellated_cube_settles_flat_on_its_face_without_jitter_or_energy_gain():
    """12 triangles dropped 5 cm, e = 0.5: it comes to rest on its 4 bottom vertices at the static
    depth (m g / K)^(2/3) (the pair's law shared by its points), level, still; the total energy
    (contact springs in the potential) never grows from one sample to the next."""
    res = simulate(model_of(cube(0.05), box_mesh([A, A, A]), t_end=1.0, restitution=0.5, law="restitution"))
    assert res.status == "completed"
    z = res.position("cube")[:, 2]
    depth = (1.0 * G / K) ** (2 / 3)
    assert z[-1] == pytest.approx(A / 2 - depth, abs=1e-3 * depth)
    last = res.t > 0.8
    assert np.ptp(z[last]) < 1e-3 * depth  # no jitter
    assert np.abs(res.velocity("cube")[last]).max() < 1e-6
    assert np.abs(res.angular_velocity("cube")[last]).max() < 1e-6
    q = res.orientation("cube")[-1]
    assert abs(abs(q[0]) - 1.0) < 1e-12  # level: no rotation
    total = res.energy()["total"]
    assert np.diff(total).max() < 1e-9 * abs(total[0])
    assert res.contact("floor")[-1, 3] == pytest.approx(G, rel=1e-6)


@pytest.mark.parametrize("tilt", [0.0, 0.37])
def test_tessellated_ball_rebounds_like_the_analytic_ball(tilt):
    """A ball tessellated at 0.1 mm (1202 vertices), landing on its pole vertex or turned 0.37
    rad, dropped 0.2 m with e = 0.8: its first apex within 0.5 % of the analytic ball's (measured:
    bench/results/mesh_contact.md) and of e^2 h."""
    law = dict(restitution=0.8, law="restitution")
    analytic = simulate(model_of(ball(0.2), {"type": "sphere", "center": [0, 0, 0], "radius": R}, **law))
    mesh = simulate(model_of(ball(0.2), sphere_mesh(R, 1e-4, tilt), **law))
    apex = [(r.position("ball")[:, 2] - R)[r.t > 0.25].max() / 0.2 for r in (analytic, mesh)]
    assert apex[1] == pytest.approx(apex[0], rel=5e-3)
    assert apex[1] == pytest.approx(0.64, rel=5e-3)


def test_points_against_a_sphere_are_no_farther_apart_than_the_spacing():
    """Every point of a face lies within the spacing of a sample (checked on random points)."""
    m = box_mesh([0.3, 0.2, 0.1])
    V, T = np.array(m["vertices"]), np.array(m["triangles"])
    s = 0.03
    P = mesh_points(V, T, s)
    rng = np.random.default_rng(1)
    for tri in T[rng.integers(0, len(T), 40)]:
        u, v = rng.random(2)
        if u + v > 1:
            u, v = 1 - u, 1 - v
        x = V[tri[0]] + u * (V[tri[1]] - V[tri[0]]) + v * (V[tri[2]] - V[tri[0]])
        assert np.linalg.norm(P - x, axis=1).min() <= s
    assert len(mesh_points(V, T)) == 8  # against a plane: the vertices


def test_sphere_mesh_is_closed_with_vertices_on_the_sphere_and_chords_within_the_deflection():
    m = sphere_mesh(R, 1e-4, 0.3)
    V, T = np.array(m["vertices"]), np.array(m["triangles"])
    assert open_edges(T)[0] is None
    assert np.linalg.norm(V, axis=1) == pytest.approx(R, rel=1e-12)


def bad_pair(shape: dict, other: dict = PLANE) -> dict:
    pair = {"name": "drop", "body_a": "cube", "body_b": "ground", "shape_a": shape, "shape_b": other}
    return {"name": "m", "bodies": [cube(0.1)], "contacts": [{**pair, "stiffness": K}]}


def test_an_open_mesh_is_refused_naming_the_pair_and_the_edge():
    m = box_mesh([A, A, A])
    m["triangles"] = m["triangles"][:-1]
    with pytest.raises(ModelError, match=r"contact 'drop': the mesh is not closed: edge \[\d+, \d+\].* 1 triangle"):
        from_dict(bad_pair(m))


def test_a_degenerate_triangle_is_refused_naming_it():
    m = box_mesh([A, A, A])
    m["vertices"].append(m["vertices"][0])  # a copy of vertex 0: triangle [0, 1, 8] has no area
    m["triangles"][0] = [8, 1, 3]
    m["triangles"].append([0, 1, 8])
    m["triangles"].append([0, 8, 1])
    with pytest.raises(ModelError, match=r"contacts\[0\]\.shape_a\.triangles\[12\].*degenerate"):
        from_dict(bad_pair(m))


def test_bad_indices_and_vertices_are_refused_naming_the_field():
    m = box_mesh([A, A, A])
    m["triangles"][3] = [0, 1, 99]
    with pytest.raises(ModelError, match=r"shape_a\.triangles\[3\].*out of range 0\.\.7"):
        from_dict(bad_pair(m))
    m = box_mesh([A, A, A])
    m["vertices"][2] = [0, "x", 1]
    with pytest.raises(ModelError, match=r"shape_a\.vertices.*\[x, y, z\]"):
        from_dict(bad_pair(m))


def test_a_mesh_beyond_the_size_limit_is_refused_with_the_estimate(monkeypatch):
    """Against a sphere the face samples count: 0.2 R apart on a 1 m box is beyond a limit of 10000."""
    monkeypatch.setattr(mesh_shapes, "MAX_MESH_POINTS", 10_000)
    monkeypatch.setattr("MBDWorkbench.solver.model.contacts.MAX_MESH_POINTS", 10_000)
    big = sphere_mesh(1.0, 1e-4)
    with pytest.raises(ModelError, match=r"needs about \d+ contact points \(\d+ MB\), beyond the limit of 10000"):
        from_dict(bad_pair(big))
    pair = bad_pair(box_mesh([1.0, 1.0, 1.0]), {"type": "sphere", "center": [0, 0, -1], "radius": 0.01})
    with pytest.raises(ModelError, match=r"contact 'drop': a mesh of 12 triangles .* beyond the limit"):
        from_dict(pair)


def test_a_mesh_starting_deep_in_the_plane_is_refused_with_the_depth():
    data = bad_pair(box_mesh([A, A, A]))
    data["bodies"][0]["position"] = [0, 0, A / 2 - 0.01]
    with pytest.raises(ModelError, match=r"contact 'drop': the shapes start interpenetrating 0.01 m deep"):
        from_dict(data)


def test_a_tessellated_cube_bounces_like_the_box_of_a_quarter_stiffness():
    """Dropped flat, its 4 bottom vertices touch together: the pair's law K d^n spread over them
    is the box's 4 corners at K / 4 each. Three bounces with the Flores law (the mesh's points
    skipped by their bounding sphere in flight, their impact speeds reset): the same motion to
    rounding, the same contact forces."""
    law = dict(restitution=0.8, t_end=0.4)
    mesh = simulate(model_of(cube(0.05), box_mesh([A, A, A]), **law))
    box = model_of(cube(0.05), BOX, **law)
    box.contacts[0].stiffness = K / 4
    box = simulate(box)
    assert np.abs(mesh.Y - box.Y).max() < 1e-9
    assert np.abs(mesh.contact("floor")[:, :6] - box.contact("floor")[:, :6]).max() < 1e-6 * G  # forces, depth
    touching = mesh.contact("floor")[:, 3] > 0
    assert np.count_nonzero(np.diff(touching.astype(int)) == 1) >= 3  # three impacts


def test_a_tilted_cube_touches_first_at_its_lowest_vertex_at_the_free_fall_time():
    """Contact onset (solver/events.py) watches a mesh's points, its bounding sphere none: a cube
    turned 0.4 rad about (1, 0.5, 0), so that one vertex is lowest, dropped h = 5 cm: the first
    onset located is that vertex's, at sqrt(2 h / g) with the speed sqrt(2 g h) (the bounding
    sphere touches the floor earlier, its points skipped then have no onset)."""
    axis = np.array([1.0, 0.5, 0.0]) / np.linalg.norm([1.0, 0.5, 0.0])
    q = [np.cos(0.2), *(np.sin(0.2) * axis)]
    mesh, h = box_mesh([A, A, A]), 0.05
    z = (quaternion.matrix(q) @ np.array(mesh["vertices"]).T)[2]
    body = {**cube(0.0), "position": [0, 0, h - z.min()], "orientation": q}
    res = simulate(model_of(body, mesh, t_end=0.11, restitution=0.5, law="restitution"))
    assert res.status == "completed", res.warnings
    onset = res.stops.contacts.events[0]
    assert (onset.contact, onset.point) == ("floor", int(np.argmin(z)))
    assert onset.t == pytest.approx(np.sqrt(2 * h / G), rel=1e-8)
    assert onset.speed == pytest.approx(np.sqrt(2 * G * h), rel=1e-6)


def test_a_contact_group_expands_to_all_pairs_but_jointed_fixed_and_unhandled_ones():
    """Bodies a, b, c (spheres), d (a mesh), a fixed plate f: a-b joined by a revolute joint is
    skipped, f-ground is not a body pair, d-f (mesh-plane) is kept, d-a (mesh-sphere) kept."""
    J = np.diag([1e-4] * 3).tolist()
    bodies = [{"name": n, "mass": 1.0, "inertia": J, "position": [0.3 * k, 0, 1.0]} for k, n in enumerate("abcd")]
    bodies.append({"name": "f", "mass": 1.0, "inertia": J, "grounded": True})
    sphere = {"type": "sphere", "center": [0, 0, 0], "radius": 0.01}
    shapes = {"a": sphere, "b": sphere, "c": sphere, "d": box_mesh([0.02] * 3), "f": PLANE}
    joint = {"name": "hinge", "type": "revolute", "body_i": "a", "body_j": "b", "frame": {"origin": [0.15, 0, 1]}}
    group = {"name": "g", "group": {"bodies": list(shapes)}, "shapes": shapes, "stiffness": 1e6, "restitution": 0.5}
    m = from_dict({"name": "m", "bodies": bodies, "joints": [joint], "contacts": [group]})
    names = sorted(c.name for c in m.contacts)
    assert names == sorted(["g: a-c", "g: a-d", "g: a-f", "g: b-c", "g: b-d", "g: b-f", "g: c-d", "g: c-f", "g: d-f"])
    assert all(c.stiffness == 1e6 and c.restitution == 0.5 for c in m.contacts)
    group["group"]["skip_jointed"] = False
    assert len(from_dict({"name": "m", "bodies": bodies, "joints": [joint], "contacts": [group]}).contacts) == 10
    del shapes["c"]
    with pytest.raises(ModelError, match=r"contacts\[0\]\.shapes.*contact group 'g': no shape for body 'c'"):
        from_dict({"name": "m", "bodies": bodies, "contacts": [group]})
