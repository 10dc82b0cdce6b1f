"""The contact onset events watch only the pairs the broad phase finds near (solver/contact_events.py,
numerics/onset_gaps.py): the located onsets are the same as with every pair watched."""

import importlib

import numpy as np
import pytest

from MBDWorkbench.solver import contact_events
from MBDWorkbench.solver.model import from_dict
from MBDWorkbench.solver.simulate import simulate
from MBDWorkbench.solver.system import broad_phase
from MBDWorkbench.solver.system.system import System
from tests.test_contact_broad_phase import MASS, R, pile

simulate_module = importlib.import_module("MBDWorkbench.solver.simulate")  # the module, not the function
EVERY = 1e9  # a margin that makes every pair of spheres near: every point watched


def run(model: dict, margin: float, monkeypatch):
    """The run of ``model`` with the broad phase on and the onset events watching the pairs within
    ``margin`` (times their radii)."""
    monkeypatch.setattr(simulate_module, "CANCEL_CHECK_S", 1e9)
    monkeypatch.setattr(broad_phase, "MIN_PAIRS", 1)
    monkeypatch.setattr(contact_events, "WATCH_MARGIN", margin)
    return simulate(from_dict(model))


def same_onsets(a, b) -> bool:
    return len(a) == len(b) and all(
        x.contact == y.contact and x.point == y.point and abs(x.t - y.t) < 1e-12 and abs(x.speed - y.speed) < 1e-9
        for x, y in zip(a, b)
    )


def test_a_pile_has_the_same_onsets_watching_the_near_pairs_only(monkeypatch):
    """14 balls dropped in a pile (105 pairs, 13 of them a tessellated ball's): the same located onsets
    (pair, point, time to 1e-12 s, approach speed) and states as with every point watched, while
    the balls' mesh checked through its bounding sphere."""
    model = pile(14)
    every, near = run(model, EVERY, monkeypatch), run(model, contact_events.WATCH_MARGIN, monkeypatch)
    assert near.status == every.status and near.status.startswith("completed")
    assert len(every.stops.contacts.events) > 14
    assert same_onsets(every.stops.contacts.events, near.stops.contacts.events)
    assert np.max(np.abs(near.Y - every.Y) / (np.abs(every.Y).max(axis=0) + 1e-3)) < 1e-12


def test_the_watch_covers_the_floor_and_the_neighbours_within_the_margin(monkeypatch):
    """36 balls on a 6 x 6 grid 30 mm apart over a floor (666 pairs): the points watched at the start
    are those of the 36 floor pairs (a plane: no proxy, always) and of the 60 pairs of grid
    neighbours (gap 10 mm, within the margin: R = 10 mm); diagonal neighbours (gap 22 mm) are not."""
    monkeypatch.setattr(broad_phase, "MIN_PAIRS", 1)
    J = np.diag([0.4 * MASS * R * R] * 3).tolist()
    names = [f"b{i}{j}" for i in range(6) for j in range(6)]
    bodies = [{"name": n, "mass": MASS, "inertia": J, "position": [0.03 * int(n[1]), 0.03 * int(n[2]), R + 1e-3]}
              for n in names]  # fmt: skip
    shapes = {n: {"type": "sphere", "center": [0, 0, 0], "radius": R} for n in names}
    shapes["ground"] = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}
    group = {"name": "grid", "group": {"bodies": list(shapes)}, "shapes": shapes}
    system = System(from_dict({"name": "grid", "bodies": bodies, "contacts": [group]}))
    gaps = contact_events.ContactGaps(system, 1e-4)
    watched = {system.model.contacts[gaps.pair_of[k[1]]].name for k in gaps.values(system, system.Y0)}
    neighbours = {f"grid: {a}-{b}" for a in names for b in names
                  if a < b and abs(int(a[1]) - int(b[1])) + abs(int(a[2]) - int(b[2])) == 1}  # fmt: skip
    assert len(system.model.contacts) == 666 and len(neighbours) == 60
    assert watched == neighbours | {f"grid: {n}-ground" for n in names}


def test_a_pair_unwatched_that_closes_within_one_step_has_its_onset(monkeypatch):
    """Two balls 0.1 mm apart closing at 4 m/s (one rk4 step of 5e-5 s covers 0.2 mm), watched only
    once their spheres overlap (margin 0): unwatched at the start, the onset within the first step
    is located at gap / v as with the pair watched, and the run is the same (output at every step:
    both take the same steps; the far pairs shorten the spans between checks, and an output interval's
    last step is fitted to it, so chunks of other lengths move the states by the integration error)."""
    J = np.diag([0.4 * MASS * R * R] * 3).tolist()
    gap, v = 1e-4, 4.0
    bodies = [
        {"name": "a", "mass": MASS, "inertia": J, "position": [0, 0, 0], "velocity": [v, 0, 0]},
        {"name": "b", "mass": MASS, "inertia": J, "position": [2 * R + gap, 0, 0]},
        {"name": "c", "mass": MASS, "inertia": J, "position": [0, 0.5, 0]},
    ]
    sphere = {"type": "sphere", "center": [0, 0, 0], "radius": R}
    shapes = {"a": sphere, "b": sphere, "c": sphere}
    group = {"name": "three", "group": {"bodies": list(shapes)}, "shapes": shapes, "stiffness": 1e6}
    settings = {"t_end": 0.004, "step": 5e-5, "output_step": 5e-5, "integrator": "rk4", "accuracy": False}
    model = {"name": "two", "bodies": bodies, "contacts": [group], "gravity": [0, 0, 0], "settings": settings}
    every, near = run(model, EVERY, monkeypatch), run(model, 0.0, monkeypatch)
    monkeypatch.setattr(contact_events, "WATCH_MARGIN", 0.0)
    system = System(from_dict(model))
    start = contact_events.ContactGaps(system, 5e-5)
    assert start.values(system, system.Y0) == {}  # nothing watched at the start
    (onset,) = near.stops.contacts.events
    assert onset.t == pytest.approx(gap / v, rel=1e-8) and onset.contact == "three: a-b"
    assert same_onsets(every.stops.contacts.events, near.stops.contacts.events)
    assert np.max(np.abs(near.Y - every.Y)) < 1e-12 * v
