"""contacts.csv's columns from the compiled kernel (results/contacts.py, contact_rows) against the
per-sample Python path it replaced (tests/oracles/contact_sample.py) at every output sample of runs
with every pair kind (sphere-plane, sphere-sphere, sphere-cylinder, a box's corners, a cylinder's
slices, a mesh's points behind its bounding sphere), friction, both force signs, and a rigid stop."""

import numpy as np
from oracles.contact_sample import contact_sample as reference

from MBDWorkbench.solver import sample_path
from MBDWorkbench.solver.model import from_dict
from MBDWorkbench.solver.model.mesh_shapes import box_mesh
from MBDWorkbench.solver.results import contacts, results
from MBDWorkbench.solver.simulate import simulate

PLANE = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}
FRICTION = {"mu_s": 0.4, "mu_k": 0.3, "slip_speed": 1e-3}


def body(name: str, position: list, velocity: list, spin: list = (0, 0, 0)) -> dict:
    return {"name": name, "mass": 1.0, "inertia": [1e-3, 1e-3, 1e-3], "position": position, "velocity": velocity,
            "angular_velocity": list(spin)}  # fmt: skip


def pair(name: str, a: str, b: str, shape_a: dict, shape_b: dict, **law) -> dict:
    return {"name": name, "body_a": a, "body_b": b, "shape_a": shape_a, "shape_b": shape_b, "stiffness": 1e7, **law}


def sphere(r: float, center=(0, 0, 0)) -> dict:
    return {"type": "sphere", "center": list(center), "radius": r}


def model() -> dict:
    """Bodies dropping onto the floor and each other while sliding and spinning: each pair is apart
    at first, then touches (the mesh cube's bounding sphere apart, then its points)."""
    cylinder = {"type": "cylinder", "center": [0, 0, 0], "axis": [1, 0, 0], "radius": 0.03, "length": 0.1}
    post = {"type": "cylinder", "center": [0.15, 0, 0], "axis": [0, 0, 1], "radius": 0.05, "length": 1.0}
    bodies = [
        body("ball", [0, 0, 0.06], [0.5, 0, -0.3], (0, 5, 0)),
        body("ball2", [0, 0, 0.17], [0.5, 0.2, 0], (3, 0, 0)),
        body("cube", [1, 0, 0.1], [0.3, 0.1, 0], (1, 2, 0.5)),
        body("roller", [2, 0, 0.04], [0, 0.4, 0], (0, 0, 1)),
        body("box", [3, 0, 0.06], [0.6, 0, 0], (0.5, 0, 0)),
        body("rod", [-1.25, 0, 1], [0, 0, 0]),
    ]
    pairs = [
        pair("floor", "ball", "ground", sphere(0.05), PLANE, **FRICTION),
        pair("stack", "ball2", "ball", sphere(0.05), sphere(0.05), **FRICTION),
        pair("post", "ground", "ball2", post, sphere(0.05), **FRICTION),
        pair("mesh", "cube", "ground", box_mesh([0.1, 0.1, 0.1]), PLANE, **FRICTION),
        pair("roll", "ground", "roller", PLANE, cylinder, **FRICTION),
        pair("box", "ground", "box", PLANE, {"type": "box", "center": [0, 0, 0], "size": [0.1, 0.1, 0.1]}),
    ]
    pin = {"name": "pin", "type": "revolute", "body_i": "ground", "body_j": "rod", "angle_max": 0.5,
           "frame": {"origin": [-1.5, 0, 1], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]},
           "angle_stop": {"model": "rigid", "restitution": 0.5}}  # fmt: skip
    settings = {"t_end": 0.3, "step": 1e-4, "output_step": 2e-3, "integrator": "rk4", "accuracy": False}
    return {"gravity": [0, 0, -9.81], "bodies": bodies, "contacts": pairs, "joints": [pin], "settings": settings}


def test_compiled_contact_columns_match_the_per_sample_path(monkeypatch):
    seen = []

    def both(system, Y, layout=None):
        vecs = system.static.force_vecs
        before = vecs.copy()
        expected = reference(system, Y)
        after, vecs[...] = vecs.copy(), before
        got = contacts.contact_sample(system, Y, layout)
        scale = np.maximum(1.0, np.abs(expected).max(axis=0))
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12 * float(scale.max()))
        np.testing.assert_array_equal(vecs, after)  # the same peaks restarted, the same impact speeds kept
        seen.append(expected)
        return got

    monkeypatch.setattr(results, "contact_sample", both)
    monkeypatch.setattr(sample_path, "ENABLED", False)  # record() per sample (record_many: test_record_many.py)
    res = simulate(from_dict(model()))
    assert res.status.startswith("completed")
    assert any(e["kind"] == "impact" for e in res.stop_events)
    seen = np.array(seen)  # (samples, pairs, 11)
    assert len(seen) == len(res.t)
    normal, slip, depth = seen[:, :, 3], seen[:, :, 9], seen[:, :, 5]
    assert (normal[0] == 0).all() and (depth[0] == 0).all(), "every pair starts apart"
    assert (normal.max(axis=0) > 1.0).all(), "every pair touches"
    assert (slip.max(axis=0)[[0, 1, 2, 3, 4]] > 1e-2).all(), "the pairs with friction slip"
