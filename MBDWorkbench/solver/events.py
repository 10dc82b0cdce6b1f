"""Rigid end stops: event location, Newton's impact law and the held stop (docs/joint-limits.md).

Integrator-agnostic: :class:`StopMonitor` wraps the stepper's ``advance`` in
:func:`.simulate.simulate`. Each rigid stop side has an event function, its gap
g = q - q_min or q_max - q (q the joint coordinate of joints.csv [rad or m]). The monitor advances
in whole base steps (the fixed-step integrators' own step; the adaptive ones' nominal step) and
then checks every gap: after every step while a stop is held or the nearest gap would close
within four steps at its current rate, else after up to MAX_CHUNK_STEPS steps (half the time
that gap takes to close at its current rate; a crossing seen after several steps is searched
again one step at a time from their start, with a fresh stepper). A sign change is located by
the Illinois method on the gap re-integrated from the saved start of the step with a fresh
stepper, to EVENT_TIME_TOL relative (of t or the step). There the impact map applies Newton's
law through the constrained system: the impulse that makes the stop coordinate's rate -e times
its approach rate while every other constraint row keeps Phi_q v = -Phi_t,

    [M  A^T] [v+]   [M v-]          A = [Phi_q; c],  c the coordinate's Jacobian row,
    [A   0 ] [-p] = [b   ],         b = [-Phi_t; -e c v-],

solved as (A M^-1 A^T) p = b - A v- (least squares: redundant rows are fine); p's last entry is
the stop impulse [N s or N m s]. The kinetic energy lost goes to work_nonconservative. With e = 0,
or an impact less than MIN_FLIGHT_STEPS steps after the last one on the same stop (a Zeno
sequence of ever smaller bounces), the stop is held: the run goes on with a System whose model
has a constant driver (the stop's lock row, profile = the limit) and a fresh stepper, until the
lock row's multiplier would pull (its sign change, located the same way): the stop is released.

Joint friction's stick/slip switches are events of the same monitor (solver/friction_events.py):
their event functions are checked after every base step, located and applied the same way.
Contact onset (docs/contact.md): the gap of each contact point not touching (minus its
penetration, :class:`.contact_events.ContactGaps`) is an event function too; its sign change is
located the same way and the stepper restarts there, so that no step jumps over the onset into
the contact.
"""

from __future__ import annotations

import copy
import math
from dataclasses import asdict, dataclass, replace

import numpy as np

from . import kernels
from .contact_events import ContactGaps
from .errors import ModelError
from .friction_events import FrictionEvents, share_modes
from .integrators import make_stepper
from .integrators.sample_run import MAX_CHUNK_STEPS  # base steps advanced at most between two checks of the stops
from .model.catalog import COORDINATES
from .model.joint_stops import LIMITED, START_TOL
from .model.schema import Driver, Stop
from .numerics import quaternion
from .numerics.joints import ROW_VECS, eval_row, row_vectors
from .numerics.stop_gaps import stop_gaps
from .state_memo import LastState
from .system.system import System

EVENT_TIME_TOL = 1e-9  # events located to this fraction of max(t, step) [s]
MIN_FLIGHT_STEPS = 4  # an impact this few steps after the last one on the same stop holds it
MAX_LOCATE_ITERATIONS = 200
REFUSING: dict[str, str] = {}  # integrator -> why it cannot simulate rigid stops (none does now)


@dataclass
class StopEvent:
    """One located event of a rigid stop: ``kind`` impact, hold or release; speeds [rad/s or m/s]
    of the coordinate towards the stop before and away from it after; ``impulse`` [N m s or N s]
    on the coordinate (positive: increasing it); ``effort`` [N m or N] the held stop's load then."""

    t: float
    joint: str
    coordinate: str
    side: str
    kind: str
    impact_speed: float = 0.0
    rebound_speed: float = 0.0
    impulse: float = 0.0
    effort: float = 0.0

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class RigidStop:
    """One side ('min' or 'max') of a joint coordinate's rigid stop; ``sign`` +1 for min, -1 for max."""

    joint: str
    coordinate: str
    side: str
    limit: float
    restitution: float
    sign: float
    kind: int
    bi: int
    bj: int
    vecs: np.ndarray

    @property
    def key(self) -> str:
        return f"{self.joint}.{self.coordinate}_{self.side}"

    def measure(self, nb: int, Y: np.ndarray) -> tuple[float, np.ndarray]:
        """(gap [rad or m], the coordinate's Jacobian row (6 nb)) at state Y."""
        A = quaternion.matrices(Y[: 7 * nb].reshape(nb, 7)[:, 3:]) if nb else np.zeros((0, 3, 3))
        jac = np.zeros((1, 2, 6))
        q = eval_row(0, self.kind, self.bi, self.bj, self.vecs, Y, nb, A, jac)[0]
        row = np.zeros(6 * nb)
        for b, side in ((self.bi, 0), (self.bj, 1)):
            if b >= 0:
                row[6 * b : 6 * b + 6] += jac[0, side]
        return self.sign * (float(q) - self.limit), row


def rigid_stops(system) -> list[RigidStop]:
    """The sides of the rigid stops of a System's joints (none: the run needs no monitor)."""
    out = []
    joints = {j.name: jk for jk, j in enumerate(system.model.joints)}
    for law in getattr(system, "stop_laws", []):
        if not law.rigid:
            continue
        jk = joints[law.joint]
        j = system.model.joints[jk]
        spec = COORDINATES[law.coordinate].row
        vecs = row_vectors(spec, system.joint_frames[jk])[None].astype(float)
        for side, limit, sign in (("min", law.lower, 1.0), ("max", law.upper, -1.0)):
            if math.isfinite(limit):
                bi, bj = system.body_index(j.body_i), system.body_index(j.body_j)
                out.append(
                    RigidStop(law.joint, law.coordinate, side, limit, law.restitution, sign, spec[0], bi, bj, vecs)
                )
    return out


def monitor(system, settings) -> StopMonitor | None:
    """The StopMonitor of a run with rigid stops or joint friction (None without); ModelError when
    the integrator cannot hold a stop."""
    stops = rigid_stops(system)
    if not stops and system.friction is None and not len(getattr(system, "contact_pair", [])):
        return None
    if stops and settings.integrator in REFUSING:
        joint = stops[0].joint
        raise ModelError(
            "settings.integrator",
            f"joint '{joint}' has a rigid stop, which integrator {settings.integrator} cannot simulate: "
            f"{REFUSING[settings.integrator]}, or give the stop model 'compliant'",
        )
    return StopMonitor(system, settings, stops)


def _packed(stops: list[RigidStop], nb: int) -> tuple:
    """The stop sides as the arrays of :func:`.stop_gaps.stop_gaps` (kind, bi, bj, vecs, sign, limit)
    and its scratch (A, jac)."""
    kind = np.array([s.kind for s in stops], np.int64)
    bi, bj = np.array([s.bi for s in stops], np.int64), np.array([s.bj for s in stops], np.int64)
    vecs = np.concatenate([s.vecs for s in stops]) if stops else np.zeros((0, ROW_VECS, 3))  # friction alone
    sign, limit = np.array([s.sign for s in stops]), np.array([s.limit for s in stops])
    return kind, bi, bj, vecs, sign, limit, np.zeros((max(nb, 1), 3, 3)), np.zeros((len(stops), 2, 6))


class StopMonitor:
    """Advances a stepper in whole base steps, locating and applying the rigid stops' events."""

    def __init__(self, system, settings, stops: list[RigidStop]) -> None:
        self.base, self.settings, self.stops = system, settings, stops
        self.h = float(settings.step)
        self.nb = system.nb
        self.held: tuple[int, ...] = ()  # indices of the held stops, in the order they were taken
        self.systems = {(): system}
        self.events: list[StopEvent] = []
        self.last_impact = {}
        self.fine_until = -math.inf  # [s] one step at a time until then (a crossing was seen before it)
        self.held_at: dict[float, dict[str, float]] = {}  # output time [s] -> {stop key: held load [N m or N]}
        self.started = False  # the start's gaps checked (:meth:`_start_on_stops`)
        self.friction = FrictionEvents(system.friction) if system.friction is not None else None
        self.packed = _packed(stops, self.nb)  # the arguments of the compiled gap function
        self.memo = LastState()  # the last state's stop and contact gaps
        self.contacts = ContactGaps(system, self.h, self.memo)
        self._last_values: tuple | None = None  # (t, state, system, values) of the last check, until an event

    def _gaps(self, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(gap [rad or m], its rate [rad/s or m/s]) of every stop side at state Y, in one compiled call;
        the last state's kept (:class:`.state_memo.LastState`). The arrays returned are read-only."""
        return self.memo.get(Y, "stops", lambda: self._stop_gaps(Y))

    def _stop_gaps(self, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        kind, bi, bj, vecs, sign, limit, A, jac = self.packed
        gaps, rates = np.empty(len(kind)), np.empty(len(kind))
        Y = np.ascontiguousarray(Y, dtype=float)
        kernels.fast_call(stop_gaps, kind, bi, bj, vecs, sign, limit, Y, self.nb, A, jac, gaps, rates)
        return gaps, rates

    # ------------------------------------------------------------------ the active system
    @property
    def active(self):
        """The System integrated now: the model's, plus one lock row per held stop."""
        if self.held not in self.systems:
            self.systems[self.held] = self._held_system(self.held)
        return self.systems[self.held]

    def _held_system(self, held: tuple[int, ...]):
        model = copy.copy(self.base.model)
        model.drivers = list(model.drivers)
        model.joints = [copy.copy(j) for j in model.joints]
        for k in held:
            s = self.stops[k]
            kind = "rotational" if s.coordinate == "angle" else "linear"
            model.drivers.append(Driver(f"{s.key} (held)", kind, s.joint, float(s.limit)))
            joint, field = model.joint(s.joint), LIMITED[s.coordinate].stop  # the lock row is no user's driver:
            setattr(joint, field, replace(getattr(joint, field) or Stop(), model="rigid"))  # the stop stays rigid
        system = System(model, dropped=self.base.dropped)
        if system.friction is not None:
            share_modes(system.friction, self.base.friction)
        return system

    def _fresh(self, t: float, Y: np.ndarray, old=None):
        """A new stepper on the active system from (t, Y), keeping ``old``'s steps and warnings."""
        stepper = make_stepper(self.active, self.settings, t, Y)
        if old is not None:
            stepper.steps, stepper.warnings = old.steps, old.warnings
        return stepper

    # ------------------------------------------------------------------ event functions
    def _push(self, k: int, t: float, Y: np.ndarray) -> float:
        """Load [N m or N] the held stop k takes (positive: pushing away from the limit)."""
        system = self.active
        lam = system.evaluate(t, Y)["lam"]
        row = self.base.m + self.held.index(k)
        return -self.stops[k].sign * float(lam[row])

    def _values(self, t: float, Y: np.ndarray) -> dict[int, float]:
        """Event function of each stop at (t, Y): the gap of a free stop, the push of a held one."""
        out = dict(enumerate(self._gaps(Y)[0].tolist())) if self.stops else {}
        for k in self.held:
            out[k] = self._push(k, t, Y)
        if self.friction is not None:
            out.update(self.friction.values(self.active.friction, t, Y))
        if self.contacts.count:
            out.update(self.contacts.values(self.active, Y))
        return out

    def _check(self, t: float, Y: np.ndarray) -> dict[int, float]:
        """:meth:`_values` at (t, Y), the last check's if it was at the same time, state and active
        system with no event since (the next output interval's first check)."""
        state, system = Y.tobytes(), self.active
        last = self._last_values
        if last is not None and last[0] == t and last[1] == state and last[2] is system:
            return last[3]
        values = self._values(t, Y)
        self._last_values = (t, state, system, values)
        return values

    def _start_on_stops(self, Y: np.ndarray) -> None:
        """A start past a limit by at most START_TOL (accepted as the CAD's tolerance) starts on the
        stop: its limit is moved onto the start, so its gap starts at 0 and the first step into
        it is an event (a gap starting below 0 would never change sign). Further past (the
        assembly moved it there): ModelError naming the joint."""
        self.started = True
        for s in self.stops:
            gap = s.measure(self.nb, Y)[0]
            if gap < -START_TOL:
                raise ModelError(
                    f"joints.{s.joint}",
                    f"joint '{s.joint}': the assembled start lies {-gap:.3g} past its {s.coordinate} {s.side} limit "
                    f"{s.limit:g} (more than {START_TOL:g})",
                )
            while gap < 0.0:
                s.limit = float(np.nextafter(s.limit + s.sign * gap, -s.sign * np.inf))
                gap = s.measure(self.nb, Y)[0]
        self.packed = _packed(self.stops, self.nb)  # the compiled gaps see the moved limits
        self.memo.state = None

    # ------------------------------------------------------------------ the loop
    def start(self, Y: np.ndarray) -> None:
        """The looks at the start state Y that the first :meth:`advance` would make before its first
        step (the start on the stops, which contact points touch), so that the fast path may take the
        first output interval."""
        if not self.started:
            self._start_on_stops(Y)
        if self.contacts.count and self.contacts.touching is None:
            self.contacts.values(self.active, Y)  # sets the touching points

    def advance(self, stepper, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray, step):
        """Advance from t to t_next [s] as ``step(stepper, t, Y, t1, acc)`` does, a few base steps at
        a time (:meth:`_chunk`), with the stops' events located and applied; returns (stepper, t
        reached, status)."""
        eps = 1e-12 * max(1.0, abs(t_next))
        self.start(Y)  # (done by simulate before its first interval)
        f0 = self._check(t, Y)
        while t < t_next - eps:
            t1 = min(t + self._chunk(t, Y, stepper), t_next)
            t1 = t_next if t_next - t1 < 0.5 * self.h else t1
            Y0, acc0 = Y.copy(), acc.copy()
            stops_itself = getattr(stepper, "can_stop_at_friction_events", False)
            stepper.stops_at_friction_events = stops_itself
            t_reached, status = step(stepper, t, Y, t1, acc)
            if stops_itself:
                stepper.stops_at_friction_events = False
            if status != kernels.OK:
                return stepper, t_reached, status
            if getattr(stepper, "stopped_early", False):  # at the step where a friction event function crossed
                t1 = t_reached
            f1 = self._check(t1, Y)
            crossed = [k for k, g in f1.items() if g < 0.0 <= f0.get(k, 1.0)]  # sign changes (absent: apart)
            if not crossed:
                t, f0 = t1, f1
                continue
            if t1 - t > 1.5 * self.h:  # redo these steps one at a time: the event is located within one
                Y[:], acc[:], self.fine_until = Y0, acc0, t1
                stepper = self._fresh(t, Y, stepper)
                continue
            stepper, t = self._handle(stepper, crossed, t, Y0, acc0, t1, Y, acc, step)
            f0 = self._check(t, Y)
        return stepper, t_next, kernels.OK

    def _chunk(self, t: float, Y: np.ndarray, stepper=None) -> float:
        """The span [s] to advance before the next check: whole base steps, one while a stop is held,
        else up to half the time the nearest free stop's gap takes to close at its current rate
        (at most MAX_CHUNK_STEPS): the check is at every step near a stop, rarer far from one.
        With friction, one step unless the stepper stops itself at the step where a friction event
        function changes sign (integrators/friction.py, compiled)."""
        closing = math.inf
        if self.contacts.count:  # first: it updates the touching points
            closing = self.contacts.closing_time(self.active, t, Y)
        friction_steps = self.friction is not None and not getattr(stepper, "can_stop_at_friction_events", False)
        if self.held or t < self.fine_until or friction_steps:
            return self.h
        if self.stops:
            gaps, rates = self._gaps(Y)
            closing = min([closing] + [g / -r for g, r in zip(gaps.tolist(), rates.tolist()) if r < 0.0])
        steps = int(min(0.5 * closing / self.h, MAX_CHUNK_STEPS))
        return max(1, steps) * self.h

    def _handle(self, stepper, crossed, t0, Y0, acc0, t1, Y, acc, step):
        """Locate the first of the ``crossed`` events in [t0, t1], apply it there (Y, acc updated in
        place); returns (the stepper to go on with, its time [s])."""

        def trial(tau: float) -> tuple[np.ndarray, np.ndarray, dict]:
            Yt, acct = Y0.copy(), acc0.copy()
            if tau > t0:
                _, status = step(self._fresh(t0, Yt), t0, Yt, tau, acct)
                if status != kernels.OK:
                    raise ArithmeticError(f"the re-integration to locate a stop event failed at t = {tau:.9g} s")
            return Yt, acct, self._values(tau, Yt)

        self.contacts.pin(crossed)  # the crossed contact points evaluated at every trial, near or not
        try:
            return self._locate(stepper, crossed, trial, t0, t1, Y, acc)
        finally:
            self.contacts.pin([])

    def _locate(self, stepper, crossed: list, trial, t0: float, t1: float, Y: np.ndarray, acc: np.ndarray):
        """The Illinois search of :meth:`_handle` (``trial(tau)``: the state and event values at tau)."""

        def first(values: dict) -> float:  # positive until the first of the crossed events
            return min(values[m] for m in crossed)

        a, b = t0, t1
        Ya, acca, fa = trial(t0)
        fb = self._values(t1, Y)
        Fa, Fb = first(fa), first(fb)
        tol = EVENT_TIME_TOL * max(abs(t1), self.h)
        kept = 0  # +1: a was kept last time, -1: b was (Illinois: halve the twice-kept end's value)
        for _ in range(MAX_LOCATE_ITERATIONS):
            if b - a <= tol or Fa * (b - a) <= tol * (Fa - Fb):  # bracket, or a's gap at the secant's rate
                break
            c = b - Fb * (b - a) / (Fb - Fa) if Fb != Fa else 0.5 * (a + b)
            c = min(max(c, a + 0.01 * tol), b - 0.01 * tol)
            Yc, accc, fc = trial(c)
            if first(fc) < 0.0:
                b, Fb, fb = c, first(fc), fc
                Fa, kept = (0.5 * Fa if kept == 1 else Fa), 1
            else:
                a, Fa, Ya, acca = c, first(fc), Yc, accc
                Fb, kept = (0.5 * Fb if kept == -1 else Fb), -1
        k = min(crossed, key=lambda m: fb[m])
        Y[:], acc[:] = Ya, acca
        return self._apply(k, stepper, a, Y, acc), a

    # ------------------------------------------------------------------ event maps
    def _apply(self, k: int, stepper, t: float, Y: np.ndarray, acc: np.ndarray):
        """Apply event k at (t, Y): release a held stop, or an impact (and maybe hold), or a
        friction switch (friction_events.py), or a contact point's onset."""
        self._last_values = None
        if k in self.friction_keys:
            self.friction.apply(self.active.friction, k, t, Y, acc)
            return self._fresh(t, Y, stepper)
        if isinstance(k, tuple) and k[0] == "contact":  # a contact point's onset
            self.contacts.touch(k, t, Y, self.active)
            return self._fresh(t, Y, stepper)
        s = self.stops[k]
        if k in self.held:
            self.held = tuple(m for m in self.held if m != k)
            self.events.append(StopEvent(t, s.joint, s.coordinate, s.side, "release"))
            return self._fresh(t, Y, stepper)
        zeno = t - self.last_impact.get(k, -math.inf) < MIN_FLIGHT_STEPS * self.h
        hold = s.restitution == 0.0 or zeno
        e = 0.0 if hold else s.restitution
        speed, rebound, impulse = self._impact(s, e, t, Y, acc)
        self.last_impact[k] = t
        self.events.append(StopEvent(t, s.joint, s.coordinate, s.side, "impact", speed, rebound, impulse))
        if hold:
            self.held = (*self.held, k)
            self.events.append(StopEvent(t, s.joint, s.coordinate, s.side, "hold", effort=self._push(k, t, Y)))
        if self.friction is not None:  # the impulse changed the slip velocities
            self.friction.renew(self.active.friction, t, Y, acc)
        return self._fresh(t, Y, stepper)

    def _impact(self, s: RigidStop, e: float, t: float, Y: np.ndarray, acc: np.ndarray):
        """Newton's impact law through the active system (module docstring); Y's velocities and
        acc's non-conservative work [J] updated. Returns (impact speed, rebound speed [rad/s or m/s],
        impulse [N m s or N s])."""
        system, nb = self.active, self.nb
        v = Y[7 * nb :].copy()
        _, row = s.measure(nb, Y)
        rows, target = [row], [-e * float(row @ v)]
        if system.m:
            _, J, _, _ = system.constraint_jacobian(t, Y)
            dt = 1e-7 * max(1.0, abs(t))
            phi_t = (system.constraint_residual(t + dt, Y) - system.constraint_residual(t - dt, Y)) / (2 * dt)
            rows, target = [*J, row], [*(-phi_t), target[0]]
        A, target = np.array(rows), np.array(target)
        minv = system.static.minv.reshape(-1)
        C = (A * minv) @ A.T
        p = np.linalg.lstsq(C, target - A @ v, rcond=1e-12)[0]
        v_new = v + minv * (A.T @ p)
        mass = system.mass6.reshape(-1)
        acc[4] += 0.5 * float(mass @ (v_new * v_new) - mass @ (v * v))
        Y[7 * nb :] = v_new
        return -s.sign * float(row @ v), s.sign * float(row @ v_new), float(p[-1])

    @property
    def friction_keys(self) -> list:
        """The keys of the friction contacts' event functions (none without friction)."""
        return [] if self.friction is None else self.friction.keys

    @property
    def friction_events(self) -> list:
        """The located friction switches (friction_events.FrictionEvent)."""
        return [] if self.friction is None else self.friction.events

    # ------------------------------------------------------------------ output
    def multipliers(self, stepper, t: float, Y: np.ndarray):
        """The multipliers of the model's constraint rows at output time t [s] (the stepper's, or
        the KKT solve's of the active system while a stop is held); records the held stops' loads."""
        if not self.held:
            return stepper.multipliers(t, Y)
        lam = stepper.multipliers(t, Y)
        if lam is None:
            lam = self.active.evaluate(t, Y)["lam"]
        m = self.base.m
        self.held_at[t] = {self.stops[k].key: -self.stops[k].sign * float(lam[m + i]) for i, k in enumerate(self.held)}
        return np.asarray(lam[:m], float)

    def derivative(self, t: float, Y: np.ndarray) -> np.ndarray | None:
        """The state derivative at (t [s], Y) while a stop is held (its lock rows acting), else None."""
        return self.active.evaluate(t, Y)["Ydot"] if self.held else None

    def held_wrench(self, joint: str, coordinate: str, t: float, Y: np.ndarray) -> np.ndarray:
        """Generalized force (nb, 6) of the joint coordinate's held stops at output time t [s] and
        state Y, as a force element's (global force at each CoG, torque in its principal frame)."""
        Q = np.zeros(6 * self.nb)
        for s in self.stops:
            if s.joint == joint and s.coordinate == coordinate:
                Q += s.sign * self.held_at.get(float(t), {}).get(s.key, 0.0) * s.measure(self.nb, Y)[1]
        return Q.reshape(self.nb, 6)

    def held_effort(self, joint: str, coordinate: str, times: np.ndarray) -> np.ndarray:
        """Effort [N m or N] of the joint coordinate's held rigid stops at the output times [s]
        (positive: increasing the coordinate; 0 where no stop is held)."""
        sides = [(s.key, s.sign) for s in self.stops if s.joint == joint and s.coordinate == coordinate]
        loads = [self.held_at.get(float(t), {}) for t in times]  # pushing away from the limit: max pushes down
        return np.array([sum(sign * load.get(key, 0.0) for key, sign in sides) for load in loads])
