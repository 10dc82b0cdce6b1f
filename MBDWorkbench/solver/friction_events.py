"""Joint friction's stick/slip switches as events of solver/events.py (docs/joint-friction.md).

Each friction contact k has one event function, after its mode (system/friction.py):

* slipping: the slip velocity along its slip direction, g = sense s for one channel (the fixed
  sense of the mode), g = u . s for several (u the slip's direction when it was last seen
  moving): it crosses zero where the joint comes to rest;
* sticking: g = mu_s N - |F|, the static capacity left (F the friction the lock rows need):
  it crosses zero where the joint breaks away.

A rigid stop's impact changes the slip velocities at once: :meth:`FrictionEvents.renew` then
gives every slipping contact its new sense (or lets it stick when the impact left it at rest).

The StopMonitor of events.py locates a crossing (Illinois, to EVENT_TIME_TOL) and calls
:meth:`FrictionEvents.apply` there, then restarts the stepper. At rest, the joint sticks if the
friction needed to hold it is at most mu_s N (its rates projected to zero, kind ``stick``), else
it slips on, its rates projected to zero and its sense set by its tendency (kind ``reverse``); a
sticking joint breaks away into slip in the sense of its tendency (kind ``slip``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from .system.friction import REST_SPEED, SLIP, STICK

REST_FRACTION = 1e-6  # several channels: at rest where |s| is below this fraction of the speed u was seen at


@dataclass
class FrictionEvent:
    """One located switch of a joint's friction: ``time`` [s], ``kind`` stick, slip (breakaway)
    or reverse (a stop where it cannot stick), ``speed`` [m/s] the slip speed at the contact
    before the switch, ``load`` [N] the friction force needed to hold the joint there and
    ``normal`` [N] its load N (it sticks while load <= mu_s N); ``element`` ``joint``, or
    ``contact`` for a contact pair's patch with stiction (``joint`` is then the pair's name)."""

    time: float
    joint: str
    kind: str
    speed: float
    load: float
    normal: float
    element: str = "joint"

    def as_dict(self) -> dict:
        return asdict(self)


def _element(c) -> str:
    """``contact`` for a contact pair's patch, else ``joint``."""
    return "contact" if c.type == "contact" else "joint"


def share_modes(friction, base) -> None:
    """Let ``friction`` (of a System derived from ``base``'s model, e.g. with a held stop) use
    ``base``'s modes and senses, so a switch in either holds in both."""
    friction.modes, friction.senses, friction.refs, friction.started = base.modes, base.senses, base.refs, True


class FrictionEvents:
    """The event functions of a System's friction contacts and the maps applied at their events."""

    def __init__(self, friction) -> None:
        n = len(friction.contacts)
        self.keys = [("friction", k) for k in range(n)]
        self.refs = friction.refs  # several channels: unit slip direction u (None: not yet seen moving)
        self.ref_speed = np.zeros(n)  # [m/s] |s| where u was taken
        self.events: list[FrictionEvent] = []

    def values(self, friction, t: float, Y: np.ndarray) -> dict:
        """{key: event function} of every contact at (t [s], Y) (module docstring)."""
        ev = friction.solve_current(t, Y)
        friction.keep(t, Y, ev)
        out = {}
        for k, c in enumerate(friction.contacts):
            if friction.modes[k] == STICK:
                out[self.keys[k]] = friction.margin(k, ev)
            else:
                out[self.keys[k]] = self._approach(k, friction.senses[k], friction.slip(c, ev))
        return out

    def _approach(self, k: int, sense: float, s: np.ndarray) -> float:
        """Slipping contact k's event function: its slip velocity s [m/s] along its direction."""
        if len(s) == 1:
            return float(sense * s[0]) if sense else abs(float(s[0]))
        speed = float(np.linalg.norm(s))
        if self.refs[k] is None:
            if speed <= REST_SPEED:
                return speed
            self.refs[k], self.ref_speed[k] = s / speed, speed
        return float(self.refs[k] @ s)

    def apply(self, friction, key, t: float, Y: np.ndarray, acc: np.ndarray) -> None:
        """Apply contact ``key``'s event at (t, Y): Y's velocities and acc's non-conservative work
        [J] updated in place, the event recorded."""
        k = key[1]
        c = friction.contacts[k]
        ev = friction.solve(t, Y)
        s = friction.slip(c, ev)
        speed = float(np.linalg.norm(s))
        if friction.modes[k] == STICK:
            friction.modes[k] = SLIP
            friction.set_sense(k, t, Y)
            self.refs[k] = None
            self.events.append(
                FrictionEvent(t, c.joint, "slip", speed, friction.needed(c, ev), ev.normal[k], _element(c))
            )
            return
        if len(s) > 1 and speed > max(REST_SPEED, REST_FRACTION * self.ref_speed[k]):
            self.refs[k], self.ref_speed[k] = s / speed, speed  # turned, not stopped: a new direction
            return
        trial = friction.modes.copy()
        trial[k] = STICK
        held = friction.solve(t, Y, trial)
        load, normal = friction.needed(c, held), float(held.normal[k])
        self.refs[k] = None
        if load <= c.mu_s * normal:
            friction.modes[k] = STICK
            acc[4] += friction.project(t, Y)
            self.events.append(FrictionEvent(t, c.joint, "stick", speed, load, normal, _element(c)))
            return
        acc[4] += friction.project(t, Y, c.channels)
        friction.set_sense(k, t, Y)
        self.events.append(FrictionEvent(t, c.joint, "reverse", speed, load, normal, _element(c)))

    def renew(self, friction, t: float, Y: np.ndarray, acc: np.ndarray) -> None:
        """After a jump of the velocities at t [s] (a rigid stop's impulse): each slipping contact
        takes the sense of its new slip; one at rest sticks if it can (kind ``stick``), else takes
        its tendency's sense."""
        ev = friction.solve(t, Y)
        for k, c in enumerate(friction.contacts):
            if friction.modes[k] == STICK:
                continue
            self.refs[k] = None
            s = friction.slip(c, ev)
            if np.linalg.norm(s) <= REST_SPEED and friction.holds(k, t, Y):
                friction.modes[k] = STICK
                acc[4] += friction.project(t, Y)
                load = friction.needed(c, friction.solve(t, Y))
                self.events.append(
                    FrictionEvent(t, c.joint, "stick", float(np.linalg.norm(s)), load, ev.normal[k], _element(c))
                )
            else:
                friction.set_sense(k, t, Y)
