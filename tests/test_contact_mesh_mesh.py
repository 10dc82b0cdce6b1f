"""Mesh against mesh (docs/contact.md, "Mesh against mesh"): the compiled signed distance against a
brute-force oracle (distance to each triangle, sign by the winding number) and python-fcl's
distance; a tessellated cube resting on a tessellated table at the closed-form depth; two
tessellated balls colliding head-on like the analytic balls; the refusals (starting
interpenetrated, python-fcl missing) and the locator of .venv-contact."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.solver.model import from_dict, mesh_pairs
from MBDWorkbench.solver.model.mesh_shapes import box_mesh, mesh_arrays, sphere_mesh
from MBDWorkbench.solver.numerics.mesh_distance import signed_distances
from MBDWorkbench.solver.simulate import simulate

G, K, A = 9.81, 1e9, 0.1  # gravity [m/s^2], stiffness [N/m^1.5], cube edge [m]
TABLE = box_mesh([1.0, 0.8, 0.25], [0, 0, -0.125])  # its top face at z = 0
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def torus_mesh(R: float, r: float, n: int = 16, m: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """A closed, outward tessellated torus about the z axis (a mesh with concave parts)."""
    u, v = np.meshgrid(2 * np.pi * np.arange(n) / n, 2 * np.pi * np.arange(m) / m, indexing="ij")
    V = np.stack([(R + r * np.cos(v)) * np.cos(u), (R + r * np.cos(v)) * np.sin(u), r * np.sin(v)], -1).reshape(-1, 3)
    at = lambda i, j: (i % n) * m + j % m  # noqa: E731
    T = [[at(i, j), at(i + 1, j), at(i + 1, j + 1)] for i in range(n) for j in range(m)]
    T += [[at(i, j), at(i + 1, j + 1), at(i, j + 1)] for i in range(n) for j in range(m)]
    return mesh_arrays(V.tolist(), T, "mesh", "torus")


def _segment(x, p, q) -> float:
    t = np.clip((x - p) @ (q - p) / ((q - p) @ (q - p)), 0.0, 1.0)
    return float(np.linalg.norm(x - p - t * (q - p)))


def oracle(V: np.ndarray, T: np.ndarray, x: np.ndarray) -> float:
    """Signed distance [m]: the nearest triangle by projection onto its plane (inside it) or its three
    sides, the sign from the winding number (solid angles, van Oosterom and Strackee 1983)."""
    best, winding = math.inf, 0.0
    for tri in T:
        a, b, c = V[tri]
        n = np.cross(b - a, c - a)
        n /= np.linalg.norm(n)
        y = x - ((x - a) @ n) * n
        inside = all(np.cross(q - p, y - p) @ n >= 0 for p, q in ((a, b), (b, c), (c, a)))
        best = min(best, abs((x - a) @ n) if inside else min(_segment(x, a, b), _segment(x, b, c), _segment(x, c, a)))
        p, q, s = a - x, b - x, c - x
        lp, lq, ls = np.linalg.norm(p), np.linalg.norm(q), np.linalg.norm(s)
        winding += 2 * math.atan2(p @ np.cross(q, s), lp * lq * ls + (p @ q) * ls + (p @ s) * lq + (q @ s) * lp)
    return -best if winding > 2 * math.pi else best


@pytest.mark.parametrize("shape", ["ball", "torus"])
def test_the_kernels_signed_distance_matches_the_brute_force_oracle(shape):
    """Points within 30 % of the size about the surface, inside and out, of a convex ball and of a torus."""
    if shape == "ball":
        mesh = sphere_mesh(0.05, 4e-3, tilt=0.3)
        V, T = np.asarray(mesh["vertices"]), np.asarray(mesh["triangles"])
    else:
        V, T = torus_mesh(0.05, 0.02)
    rng = np.random.default_rng(7)
    size = np.ptp(V, axis=0).max()
    X = V[rng.integers(len(V), size=60)] + rng.normal(scale=0.1 * size, size=(60, 3))
    X = np.vstack([X, V[:5], (V[T[:5]].mean(axis=1))])  # on vertices and faces: 0
    got = signed_distances(mesh_pairs.data_array(mesh_pairs.mesh_data(V, T)), 0, X, math.inf)
    want = np.array([oracle(V, T, x) for x in X])
    assert np.sign(want[:60]).min() < 0 < np.sign(want[:60]).max()  # both sides sampled
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_the_kernels_distance_outside_matches_python_fcl():
    fcl = mesh_pairs.collision_library("test")
    V, T = torus_mesh(0.05, 0.02)
    model = fcl.BVHModel()
    model.beginModel(len(V), len(T))
    model.addSubModel(V, T.astype(np.int32))
    model.endModel()
    mesh = fcl.CollisionObject(model, fcl.Transform())
    X = np.random.default_rng(3).uniform(-0.09, 0.09, size=(60, 3))
    got = signed_distances(mesh_pairs.data_array(mesh_pairs.mesh_data(V, T)), 0, X, math.inf)
    for x, s in zip(X, got):
        if s > 1e-6:
            probe = fcl.CollisionObject(fcl.Sphere(1e-9), fcl.Transform(x))
            assert s == pytest.approx(
                fcl.distance(probe, mesh, fcl.DistanceRequest(), fcl.DistanceResult()) + 1e-9, abs=1e-9
            )


def cube_on_table(height: float, t_end: float = 1.0) -> object:
    cube = {"name": "cube", "mass": 1.0, "inertia": np.diag([2e-3, 2e-3, 3e-3]).tolist(), "position": [0, 0, height]}
    pair = {"name": "pair", "body_a": "cube", "body_b": "ground", "shape_a": box_mesh([A, A, A]), "shape_b": TABLE}
    pair.update({"stiffness": K, "exponent": 1.5, "restitution": 0.5, "law": "restitution"})
    settings = {"t_end": t_end, "step": 1e-5, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    return from_dict({"name": "m", "bodies": [cube], "contacts": [pair], "settings": settings})


def test_a_tessellated_cube_rests_on_a_tessellated_table_at_the_closed_form_depth():
    """As the mesh-box test (tests/test_contact_more_pairs.py) with the table a mesh of 12 triangles:
    the cube's 4 bottom corners in the table's top face carry its weight at the shared law's depth
    (m g / K)^(2/3), level, the pair's force m g."""
    res = simulate(cube_on_table(A / 2 + 0.05))
    assert res.status == "completed", res.warnings
    late = res.t > 0.8
    assert np.abs(res.velocity("cube")[late]).max() < 1e-6 and np.abs(res.angular_velocity("cube")[late]).max() < 1e-6
    depth = (G / K) ** (2 / 3)
    assert res.position("cube")[-1, 2] == pytest.approx(A / 2 - depth, abs=1e-3 * depth)
    assert abs(abs(res.orientation("cube")[-1, 0]) - 1.0) < 1e-12
    assert res.contact("pair")[-1, 3] == pytest.approx(G, rel=1e-6)


def balls(shape: dict, v: float = 0.5) -> object:
    bodies = [{"name": n, "mass": 1.0, "inertia": np.diag([1e-3] * 3).tolist(), "position": [0, 0, s * 0.0501],
               "velocity": [0, 0, -s * v]} for n, s in (("a", -1), ("b", 1))]  # fmt: skip
    pair = {"name": "pair", "body_a": "a", "body_b": "b", "shape_a": shape, "shape_b": shape, "stiffness": K}
    pair.update({"exponent": 1.5, "restitution": 0.8, "law": "restitution"})
    settings = {"t_end": 1.2e-3, "step": 1e-6, "output_step": 2e-6, "integrator": "rk4", "accuracy": False}
    return from_dict({"name": "m", "bodies": bodies, "contacts": [pair], "gravity": [0, 0, 0], "settings": settings})


def test_two_tessellated_balls_collide_head_on_like_the_analytic_balls():
    """R = 50 mm balls meeting pole to pole at 1 m/s, tessellated at 1 mm chord deflection (224
    triangles): the depth is the deepest vertex's below the other mesh's facets, whose sag near the
    pole is a fraction of the deflection, and the normal the vertices' normals interpolated (about
    radial). Rebound speed within 0.2 %, sideways speed below 0.2 % of it, peak force within 2 %
    and duration within 2 % of the analytic sphere-sphere pair's."""
    exact = simulate(balls({"type": "sphere", "center": [0, 0, 0], "radius": 0.05}))
    mesh = simulate(balls(sphere_mesh(0.05, 1e-3)))
    assert exact.status == mesh.status == "completed"
    assert exact.velocity("b")[-1] == pytest.approx([0, 0, 0.4], abs=1e-5)  # e v
    assert mesh.velocity("b")[-1, 2] == pytest.approx(0.4, rel=2e-3)
    assert np.linalg.norm(mesh.velocity("b")[-1, :2]) < 2e-3 * 0.4
    F_exact, F_mesh = exact.contact("pair")[:, 3], mesh.contact("pair")[:, 3]
    assert F_mesh.max() == pytest.approx(F_exact.max(), rel=0.02)
    duration = [np.ptp(res.t[F > 0]) for res, F in ((exact, F_exact), (mesh, F_mesh))]
    assert duration[1] == pytest.approx(duration[0], rel=0.02)


def test_a_pair_starting_interpenetrated_is_refused_with_its_depth():
    """The cube's bottom 1 mm inside the table: the deepest vertex's depth, 1 mm, in the error."""
    with pytest.raises(ModelError, match=r"contact 'pair': the shapes start interpenetrating 0\.001 m deep"):
        cube_on_table(A / 2 - 1e-3)


def test_the_initial_gap_is_python_fcls_distance_between_the_meshes():
    """Apart, every vertex's initial penetration is minus the meshes' gap (the tunnelling check's)."""
    from MBDWorkbench.solver.model.contacts import contact_points
    from MBDWorkbench.solver.model.shape_points import penetration

    model = cube_on_table(A / 2 + 0.03)
    assert max(penetration(p) for p in contact_points(model, model.contacts[0])) == pytest.approx(-0.03, abs=1e-12)


def test_without_python_fcl_the_pair_is_refused_with_the_install_command(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "fcl", None)  # import fcl raises ImportError
    monkeypatch.setattr(mesh_pairs, "ROOT", str(tmp_path))  # no .venv-contact there
    with pytest.raises(ModelError, match=r"contact 'pair': a mesh against a mesh needs .*python-fcl.*contact_venv\.sh"):
        cube_on_table(A / 2 + 0.05)


def test_the_locator_imports_python_fcl_from_the_venv_with_the_system_numpy():
    """A fresh Python without .venv-contact on its path finds python-fcl there; NumPy stays Debian's."""
    code = (
        "import numpy, sys; from MBDWorkbench.solver.model.mesh_pairs import collision_library; "
        "f = collision_library('x'); print(f.__file__); print(numpy.__file__)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    fcl_file, numpy_file = out.split()
    assert ".venv-contact" in fcl_file and ".venv-contact" not in numpy_file
