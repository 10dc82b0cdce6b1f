"""Contact onset as events of solver/events.py (docs/contact.md, "Contact onset located in time").

Each contact point not touching has one event function, its gap [m] (minus its penetration):
the StopMonitor of events.py locates its sign change (Illinois, to EVENT_TIME_TOL) and calls
:meth:`ContactGaps.touch` there, then restarts the stepper, so that no step jumps over the onset
into the contact. The gaps come from one compiled call (numerics.onset_gaps), made once per
state: with the broad phase, those of the pairs it finds near only (the others cannot touch
before the next check).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import asdict, dataclass

import numpy as np

from . import kernels
from .numerics.contact_forces import BOUND
from .numerics.forces import CONTACT
from .numerics.onset_gaps import closing_time as onset_closing
from .numerics.onset_gaps import event_values, onset_gaps
from .state_memo import LastState

WATCH_MARGIN = 1.0  # the pairs watched: their proxies' spheres, grown by this fraction of their radii, overlap


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
    step (:meth:`closing_time`). ``h`` [s]: the base step; ``memo``: the monitor's memo of the last
    state. A mesh pair's BOUND element (its bounding sphere, numerics.contact_forces) is no event:
    while it is apart, its points take its gap and rate (a lower bound of theirs, as the force loop
    skips them), so they have no onset. With the broad phase (numerics.broad_phase), only the points
    of the pairs it finds near are watched (numerics.onset_gaps): the others are apart by more than a
    margin, and :meth:`closing_time` counts the time they take at least to close it."""

    def __init__(self, system, h: float, memo: LastState | None = None) -> None:
        self.pair_of = list(getattr(system, "contact_pair", []))  # the pair of each element, ascending
        self.count = len(self.pair_of)
        S = system.static
        self.first = int(S.force_start[CONTACT]) if self.count else 0
        flags = S.force_flag[self.first : self.first + self.count]
        self.bounds = {int(e) for e in np.flatnonzero(flags == BOUND)}
        self.keys = [("contact", e) for e in range(self.count)]
        self.h = h
        self.touching: np.ndarray | None = None  # bool per element, set at the first look at a state
        self.touched_at = np.full(self.count, -math.inf)  # [s] each touching point's located onset
        self.events: list[ContactOnset] = []
        self.memo = memo if memo is not None else LastState()
        self.world, self.order = np.zeros_like(S.bp_world), S.bp_order.copy()  # this broad phase's own state
        self.pinned = np.zeros((0, 2), dtype=np.int64)  # element ranges always evaluated (:meth:`pin`)

    def _state(self, system, Y: np.ndarray) -> tuple:
        """(gap [m], rate [m/s] of every contact element: +inf, 0 unwatched; the watched event elements;
        the far time [s]) at state Y, read-only, once per state (numerics.onset_gaps)."""
        return self.memo.get(Y, ("contact", id(system), self.pinned.tobytes()), lambda: self._compute(system, Y))

    def _compute(self, system, Y: np.ndarray) -> tuple:
        S, nb = system.static, system.nb
        Y = np.ascontiguousarray(Y, dtype=float)
        gaps, rates, watched = np.full(self.count, np.inf), np.zeros(self.count), np.empty(self.count, np.int64)
        args = (Y, nb, np.empty((max(nb, 1), 3, 3)), S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_flag)
        bp = (S.bp_body, S.bp_centre, S.bp_radius, S.bp_key, S.bp_first, S.bp_end, S.bp_always)
        count, far = kernels.fast_call(
            onset_gaps, *args, self.first, *bp, self.world, self.order, WATCH_MARGIN, self.pinned, gaps, rates, watched
        )
        return gaps, rates, watched[:count], float(far)

    def pin(self, keys: list) -> None:
        """Evaluate the pairs of these event keys' elements at every state, watched or not (while an
        onset is located), until ``pin([])``."""
        ranges = set()
        for _, e in (k for k in keys if isinstance(k, tuple) and k[0] == "contact"):
            ck = self.pair_of[e]
            ranges.add((self.first + bisect_left(self.pair_of, ck), self.first + bisect_right(self.pair_of, ck)))
        self.pinned = np.array(sorted(ranges), dtype=np.int64).reshape(-1, 2)

    def values(self, system, Y: np.ndarray) -> dict:
        """The event function of each watched contact point: its gap [m] while apart, 1 while touching
        (an unwatched point: apart, its gap positive)."""
        if not self.count:
            return {}
        gaps, _, watched, _ = self._state(system, Y)
        if self.touching is None:
            self.touching = gaps <= 0.0
        values = np.empty(len(watched))
        kernels.fast_call(event_values, gaps, watched, self.touching, values)
        return dict(zip(map(self.keys.__getitem__, watched.tolist()), values.tolist()))

    def closing_time(self, system, t: float, Y: np.ndarray) -> float:
        """The time [s] until the nearest point touches or, touching, opens at its current rate
        (inf: none); the touching points whose gap has opened at (t, Y) are watched again. The pairs
        not watched count twice their far time (the monitor checks again within half of this: before
        any of them can touch)."""
        if not self.count:
            return math.inf
        gaps, rates, watched, far = self._state(system, Y)
        if self.touching is None:
            self.touching = gaps <= 0.0
        closing = kernels.fast_call(
            onset_closing, gaps, rates, watched, self.touching, self.touched_at, t, 0.5 * self.h
        )
        return min(2.0 * far, closing)

    def touch(self, key: tuple, t: float, Y: np.ndarray, system) -> None:
        """Record the located onset of contact point key[1] at (t, Y)."""
        e = key[1]
        self.touching[e] = True
        self.touched_at[e] = t
        rate = self._state(system, Y)[1][e]
        ck = self.pair_of[e]
        first = bisect_left(self.pair_of, ck)
        point = e - first - (1 if first in self.bounds else 0)  # a mesh's points counted after its BOUND
        self.events.append(ContactOnset(t, system.model.contacts[ck].name, point, max(0.0, -float(rate))))
