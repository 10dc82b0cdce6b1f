"""Contact onset as events of solver/events.py (docs/contact.md, "Contact onset located in time").

Each contact point not touching has one event function, its gap [m] (minus its penetration):
the StopMonitor of events.py locates its sign change (Illinois, to EVENT_TIME_TOL) and calls
:meth:`ContactGaps.touch` there, then restarts the stepper, so that no step jumps over the onset
into the contact. The gaps of all points come from one compiled call
(numerics.contact_forces.contact_gaps), made once per state.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from .numerics import quaternion
from .numerics.contact_forces import BOUND, contact_gaps
from .numerics.forces import CONTACT


@dataclass
class ContactOnset:
    """A located contact onset: time [s], the pair, its contact point (index within the pair) and
    the approach speed [m/s] there."""

    t: float
    contact: str
    point: int
    speed: float

    def as_dict(self) -> dict:
        return asdict(self)


class ContactGaps:
    """The gaps [m] of a System's contact points as event functions of :class:`.events.StopMonitor`: keys
    ("contact", e) for contact element e. A point is watched while apart; its located onset
    (:meth:`touch`) makes it touching until its gap is positive again at a check, after its onset's
    step (:meth:`closing_time`). ``h`` [s]: the base step. A mesh pair's BOUND element (its
    bounding sphere, numerics.contact_forces) is no event: while it is apart, its points take its
    gap and rate (a lower bound of theirs, as the force loop skips them), so they have no onset."""

    def __init__(self, system, h: float) -> None:
        self.count = len(getattr(system, "contact_pair", []))
        first = int(system.static.force_start[CONTACT]) if self.count else 0
        flags = system.static.force_flag[first : first + self.count] if self.count else []
        self.bounds = {e for e in range(self.count) if flags[e] == BOUND}
        self.points = np.array([e for e in range(self.count) if e not in self.bounds], dtype=int)  # the events
        self.keys = [("contact", int(e)) for e in self.points]
        self.h = h
        self.touching: set[int] | None = None  # set at the first look at a state
        self.touched_at: dict[int, float] = {}  # [s] each touching point's located onset
        self.events: list[ContactOnset] = []
        self.last: tuple | None = None  # (system, Y, gaps, rates) of the last state looked at

    def _gaps(self, system, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(gap [m], its rate [m/s]) of every contact element at state Y (the points of a BOUND
        element apart: its own), read-only; computed once per state (the monitor's check asks for
        the values, then the closing time, at the same state)."""
        if self.last is not None and self.last[0] is system and np.array_equal(self.last[1], Y):
            return self.last[2], self.last[3]
        S, nb = system.static, system.nb
        A = quaternion.matrices(Y[: 7 * nb].reshape(nb, 7)[:, 3:]) if nb else np.zeros((0, 3, 3))
        Y = np.array(Y, dtype=float)  # a copy: the caller's Y changes in place
        gaps, rates = np.empty(self.count), np.empty(self.count)
        first = int(S.force_start[CONTACT])
        contact_gaps(Y, nb, A, S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_flag, first, gaps, rates)
        gaps.flags.writeable = rates.flags.writeable = False
        self.last = (system, Y, gaps, rates)
        return gaps, rates

    def values(self, system, Y: np.ndarray) -> dict:
        """The event function of each contact point: its gap [m] while apart, 1 while touching."""
        if not self.count:
            return {}
        gaps = self._gaps(system, Y)[0]
        if self.touching is None:
            self.touching = {e for e in range(self.count) if gaps[e] <= 0.0}
        touching = np.zeros(self.count, dtype=bool)
        touching[list(self.touching)] = True
        return dict(zip(self.keys, np.where(touching[self.points], 1.0, gaps[self.points]).tolist()))

    def closing_time(self, system, t: float, Y: np.ndarray) -> float:
        """The time [s] until the nearest point touches or, touching, opens at its current rate
        (inf: none); the touching points whose gap has opened at (t, Y) are watched again."""
        if not self.count:
            return math.inf
        gaps, rates = self._gaps(system, Y)
        if self.touching is None:
            self.touching = {e for e in range(self.count) if gaps[e] <= 0.0}
        onset = self.touched_at
        self.touching = {e for e in self.touching if gaps[e] <= 0.0 or t < onset.get(e, -math.inf) + 0.5 * self.h}
        gaps, rates = gaps[self.points], rates[self.points]
        moving = rates * gaps < 0.0  # closing or opening
        return float(np.min(gaps[moving] / -rates[moving])) if moving.any() else math.inf

    def touch(self, key: tuple, t: float, Y: np.ndarray, system) -> None:
        """Record the located onset of contact point key[1] at (t, Y)."""
        e = key[1]
        self.touching.add(e)
        self.touched_at[e] = t
        rate = self._gaps(system, Y)[1][e]
        ck = system.contact_pair[e]
        first = system.contact_pair.index(ck)
        point = e - first - (1 if first in self.bounds else 0)  # a mesh's points counted after its BOUND
        self.events.append(ContactOnset(t, system.model.contacts[ck].name, point, max(0.0, -float(rate))))
