"""The broad phase of the contact pairs (docs/contact.md, "Cost"): the pairs it skips are truly
apart, so a run moves the same with and without it."""

import importlib
import itertools

import numpy as np
import pytest

from MBDWorkbench.solver.model import from_dict
from MBDWorkbench.solver.model.mesh_shapes import sphere_mesh
from MBDWorkbench.solver.numerics.broad_phase import candidate_pairs
from MBDWorkbench.solver.simulate import simulate
from MBDWorkbench.solver.system import broad_phase
from MBDWorkbench.solver.system.system import System

simulate_module = importlib.import_module("MBDWorkbench.solver.simulate")  # the module, not the function
R, MASS = 0.01, 0.033  # ball radius [m], mass [kg]
PLANE = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}


def brute_force(world: np.ndarray, radius: np.ndarray, keys: list, grow: float) -> set:
    """The keyed pairs whose spheres (radii times ``grow``) overlap, every pair tested."""
    n = len(radius)
    out = set()
    for u, v in itertools.combinations(range(n), 2):
        if u * n + v in keys and np.linalg.norm(world[u] - world[v]) <= grow * (radius[u] + radius[v]):
            out.add(keys.index(u * n + v))
    return out


def test_the_sweep_finds_exactly_the_overlapping_spheres_as_they_move():
    """Random spheres moved 40 times (the kept order re-sorted, the sweep axis switching when
    they spread along another axis), with and without a margin: the candidates are the pairs
    whose spheres overlap, found by testing every pair."""
    rng = np.random.default_rng(7)
    n = 60
    world = rng.uniform(0.0, 1.0, (n, 3)) * [1.0, 0.3, 0.3]
    radius = rng.uniform(0.01, 0.08, n)
    keys = sorted(rng.choice(n * n, 900, replace=False).tolist())
    keys = sorted({min(k // n, k % n) * n + max(k // n, k % n) for k in keys if k // n != k % n})
    key = np.array(keys, dtype=np.int64)
    order = np.append(np.arange(n), 0).astype(np.int64)
    axes = set()
    for step in range(40):
        world += rng.normal(0.0, 0.02, (n, 3))
        if step == 20:
            world[:, 1] *= 10.0  # now spread along y
        for margin in (0.0, 1.0):
            found = candidate_pairs(world, radius, order, key, margin)
            assert len(set(found.tolist())) == len(found)
            assert set(found.tolist()) == brute_force(world, radius, keys, 1.0 + margin)
        axes.add(int(order[n]))
        assert sorted(order[:n].tolist()) == list(range(n))
    assert axes == {0, 1}


def pile(n: int, friction: float = 0.3) -> dict:
    """n steel balls in two staggered layers 1 mm apart, 3 mm over a floor, one of them a
    tessellated ball (mesh-sphere pairs), neighbours closing, all pairs among them and the floor's
    plane in one group."""
    J = np.diag([0.4 * MASS * R * R] * 3).tolist()
    bodies, shapes = [], {"ground": PLANE}
    side = int(np.ceil(np.sqrt(n / 2)))
    for k in range(n):
        layer, cell = divmod(k, side * side)
        x, y = 0.021 * (cell % side) + 0.0105 * layer, 0.021 * (cell // side) + 0.0105 * layer
        z = R + 0.003 + 0.0155 * layer  # 1.5 mm above the lower layer, thrown down on it
        v = [0.1 * (-1) ** cell, 0.0, -0.3 * layer]  # neighbours closing at 0.2 m/s
        bodies.append({"name": f"b{k}", "mass": MASS, "inertia": J, "position": [x, y, z], "velocity": v})
        shapes[f"b{k}"] = {"type": "sphere", "center": [0, 0, 0], "radius": R}
    shapes["b0"] = sphere_mesh(R, 2e-4)
    group = {"name": "pile", "group": {"bodies": list(shapes)}, "shapes": shapes, "stiffness": 5e8, "exponent": 1.5}
    group.update({"restitution": 0.6, "mu_s": friction})
    settings = {"t_end": 0.02, "step": 2e-5, "output_step": 0.005, "integrator": "rk4", "accuracy": False}
    return {"name": "pile", "bodies": bodies, "contacts": [group], "settings": settings}


def run(model: dict, broad: bool, monkeypatch) -> tuple:
    """The run of ``model`` with the broad phase on any number of pairs, or off. An output interval
    is never split by wall time (simulate's pacing: both runs take the same chunks of steps)."""
    monkeypatch.setattr(simulate_module, "CANCEL_CHECK_S", 1e9)
    monkeypatch.setattr(broad_phase, "MIN_PAIRS", 1 if broad else 10**9)
    res = simulate(from_dict(model))
    assert bool(res.system.static.bp_key.shape[0]) == broad
    return res


def test_a_pile_of_balls_moves_the_same_with_and_without_the_broad_phase(monkeypatch):
    """14 balls on a floor (105 pairs: 91 of two balls, 13 of them a tessellated ball and a sphere)
    dropped in a pile with friction: the states, the contact forces and the located onsets agree to 1e-12 with every
    pair evaluated and with the broad phase, which evaluates fewer than a third of the pairs."""
    model = pile(14)
    every, broad = run(model, False, monkeypatch), run(model, True, monkeypatch)
    assert broad.status == every.status and broad.status.startswith("completed")
    scale = np.abs(every.Y).max(axis=0) + 1e-3
    assert np.abs(broad.Y - every.Y).max(axis=0).max() <= 1e-12 * scale.max()
    assert np.max(np.abs(broad.Y - every.Y) / scale) < 1e-12
    forces = np.array([every.contact(n) for n in every.contact_names])
    assert np.abs(np.array([broad.contact(n) for n in broad.contact_names]) - forces).max() < 1e-12 * forces.max()
    ball_pairs = [k for k, n in enumerate(every.contact_names) if "ground" not in n]
    assert (forces[ball_pairs, :, 10].max(axis=1) > 1.0).sum() > 10  # the balls pushed on each other
    onsets, broad_onsets = every.stops.contacts.events, broad.stops.contacts.events
    assert len(onsets) == len(broad_onsets) > 14
    assert all(
        a.contact == b.contact and a.point == b.point and abs(a.t - b.t) < 1e-12 for a, b in zip(onsets, broad_onsets)
    )
    S = broad.system.static
    assert S.bp_key.shape[0] == 91 and S.bp_live[0] < 91 / 3


def test_a_pair_crossing_the_broad_phase_within_one_step_collides_as_without_it(monkeypatch):
    """Two balls, no gravity, 0.1 mm apart at 4 m/s (one rk4 step of 5e-5 s covers 0.2 mm), e = 1: their
    spheres are apart at the start (no candidate) and overlap within the first step; the onset is
    located at gap / v, the balls exchange their velocities, as with every pair evaluated."""
    J = np.diag([0.4 * MASS * R * R] * 3).tolist()
    gap, v = 1e-4, 4.0
    bodies = [
        {"name": "a", "mass": MASS, "inertia": J, "position": [0, 0, 0], "velocity": [v, 0, 0]},
        {"name": "b", "mass": MASS, "inertia": J, "position": [2 * R + gap, 0, 0]},
    ]
    sphere = {"type": "sphere", "center": [0, 0, 0], "radius": R}
    group = {"name": "two", "group": {"bodies": ["a", "b"]}, "shapes": {"a": sphere, "b": sphere}, "stiffness": 1e6}
    settings = {"t_end": 0.004, "step": 5e-5, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    model = {"name": "two", "bodies": bodies, "contacts": [group], "gravity": [0, 0, 0], "settings": settings}
    every, broad = run(model, False, monkeypatch), run(model, True, monkeypatch)
    system = System(from_dict(model))
    system.evaluate(0.0, system.Y0)
    assert system.static.bp_live[0] == 0  # apart at the start: not a candidate
    assert np.max(np.abs(broad.Y - every.Y)) < 1e-12 * v
    (onset,) = broad.stops.contacts.events
    assert onset.t == pytest.approx(gap / v, rel=1e-8)
    va, vb = (broad.Y[-1, 14 + 6 * k] for k in range(2))
    assert abs(va) < 1e-4 * v and vb == pytest.approx(v, rel=1e-4)


def test_an_implicit_integrator_moves_the_pile_the_same_with_and_without_the_broad_phase(monkeypatch):
    """galpha (its residual through the broad phase, its complex-step Jacobians over every pair): 8
    balls of the pile agree to 1e-12 with and without the broad phase."""
    model = pile(8)
    model["settings"].update(integrator="galpha", t_end=0.01)
    every, broad = run(model, False, monkeypatch), run(model, True, monkeypatch)
    assert broad.status == every.status and broad.status.startswith("completed")
    assert np.max(np.abs(broad.Y - every.Y) / (np.abs(every.Y).max(axis=0) + 1e-3)) < 1e-12
    assert len(broad.stops.contacts.events) == len(every.stops.contacts.events) > 8
