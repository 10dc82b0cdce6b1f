"""Contact onsets as events (solver/contact_events.py): their gaps computed once per state, and the
located onsets written to summary.json's contact_events and to events.csv (docs/results-format.md)."""

import json
import math

import pytest

from MBDWorkbench.solver import contact_events, from_dict, simulate
from MBDWorkbench.solver.results.events_table import COLUMNS, EVENTS, read_events
from MBDWorkbench.solver.system.system import System

G = 9.81
RADIUS = 0.05  # [m]


def ball_drop(heights=(0.2,), t_end=0.21, contacts=True):
    """Balls of radius RADIUS dropped from ``heights`` [m] onto the floor, 0.3 m apart (rk4, step 1e-5 s)."""
    bodies = len(heights)
    balls = [
        {"name": f"ball{b}", "mass": 1.0, "inertia": [1e-3] * 3, "position": [0.3 * b, 0, RADIUS + h]}
        for b, h in enumerate(heights)
    ]
    pairs = [
        {
            "name": f"floor{b}",
            "body_a": f"ball{b}",
            "body_b": "ground",
            "shape_a": {"type": "sphere", "center": [0, 0, 0], "radius": RADIUS},
            "shape_b": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
        }
        for b in range(bodies)
    ]
    settings = {"t_end": t_end, "step": 1e-5, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    return from_dict({"name": "drop", "bodies": balls, "contacts": pairs if contacts else [], "settings": settings})


def test_the_gaps_are_computed_once_per_state(monkeypatch):
    """A check asks for the event values, then the closing time, at the same state: one compiled
    gap call; a new state gets a new one, with the gap of the ball above the floor (z - R) and its
    rate (the ball's vertical speed)."""
    calls = []
    compute = contact_events.ContactGaps._compute
    monkeypatch.setattr(contact_events.ContactGaps, "_compute", lambda *a: calls.append(1) or compute(*a))
    system = System(ball_drop())
    gaps = contact_events.ContactGaps(system, 1e-5)
    Y = system.Y0.copy()
    (value,) = gaps.values(system, Y).values()
    assert value == pytest.approx(0.2, abs=1e-12)
    assert gaps.closing_time(system, 0.0, Y) == math.inf  # at rest: nothing closes
    assert len(calls) == 1
    Y[2], Y[9] = RADIUS + 0.1, -2.0  # 0.1 m above, falling at 2 m/s
    assert gaps.closing_time(system, 0.0, Y) == pytest.approx(0.1 / 2.0, rel=1e-12)
    (value,) = gaps.values(system, Y).values()
    assert value == pytest.approx(0.1, abs=1e-12)
    assert len(calls) == 2


def test_contact_onsets_are_in_the_summary_and_events_csv(tmp_path):
    """Two balls dropped 0.2 m and 0.1 m: each onset at its free-fall time sqrt(2 h / g) (1e-8
    relative) at the approach speed sqrt(2 g h), in summary.json's contact_events and in
    events.csv (kind contact, the pair, the point, the speed as impact_speed), in time order; a
    contact-only model has no stop_events."""
    res = simulate(ball_drop(heights=(0.2, 0.1)))
    folder = res.write(str(tmp_path / "run"))
    summary = json.load(open(f"{folder}/summary.json"))
    assert "stop_events" not in summary and "friction_events" not in summary
    assert EVENTS in summary["files"]
    events = summary["contact_events"]
    assert [(e["contact"], e["point"]) for e in events] == [("floor1", 0), ("floor0", 0)]
    text = open(f"{folder}/{EVENTS}", newline="", encoding="utf-8").read()
    assert text.splitlines()[0].split(",") == list(COLUMNS)
    rows = read_events(text)
    for row, event, height in zip(rows, events, (0.1, 0.2)):
        assert (row["kind"], row["contact"], row["point"], row["joint"]) == ("contact", event["contact"], 0, "")
        assert row["time [s]"] == pytest.approx(event["t"], rel=1e-14)
        assert row["time [s]"] == pytest.approx(math.sqrt(2 * height / G), rel=1e-8)
        assert row["impact_speed"] == pytest.approx(math.sqrt(2 * G * height), rel=1e-6)
        assert row["impulse"] is None and row["load"] is None


def test_a_run_without_contact_pairs_has_no_contact_events():
    """No contact pair: no contact_events key (and no events.csv without stops or friction)."""
    assert "contact_events" not in simulate(ball_drop(t_end=0.01, contacts=False)).summary()
