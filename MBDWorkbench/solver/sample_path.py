"""The fast path of :func:`.simulate.simulate`'s loop over the output times: many samples per
compiled call (integrators.sample_run.run_samples) while nothing but fixed explicit steps can happen.

It applies to the euler, symplectic_euler, rk4 and rk4_tree (integrators/tree_samples.py)
integrators without settings.projection, coupler rows (gears, belts, racks, lead screws: their
angles' branch memory is not kept per sample), joint friction or a held rigid stop, and covers the
intervals in which the StopMonitor (solver/events.py) would neither locate an event nor shorten its
chunk (free rigid stops and contact points far from closing); the other intervals, and every other
run, take the slow path, which gives the same steps.
``ENABLED`` switches it off (the tests compare both); ``calls`` counts the compiled calls.
"""

from __future__ import annotations

import time

import numpy as np

from . import kernels
from .contact_events import WATCH_MARGIN
from .integrators.base import equal_steps
from .integrators.explicit import EulerStepper, FixedStepStepper, RK4Stepper, SymplecticEulerStepper
from .integrators.sample_run import BUDGET, FAILED, run_samples
from .integrators.tree import TreeRK4Stepper
from .integrators.tree_samples import run_tree_samples
from .numerics.joints import COUPLERS, ROW_VECS

ENABLED = True  # tests switch it off to compare with the slow path
calls = 0  # compiled calls made (all runs); the tests count them
ROWS_PER_CALL = 2048  # output samples at most per call
MEMORY_VALUES = 2_000_000  # force elements' memory values kept per call at most (fewer rows with many)
MAX_SKIP = 16  # intervals left to the slow path at most after calls that did none
STEPPERS = (EulerStepper, SymplecticEulerStepper, RK4Stepper, TreeRK4Stepper)


class SamplePath:
    """The fast path of one run: its buffers, the steps per call (about ``cancel_check_s`` of
    wall time each) and when to try again after a call that did no interval."""

    def __init__(self, system, settings, cancel_check_s: float) -> None:
        n = len(system.Y0)
        self.projection = bool(settings.projection)
        # a coupler row's branch memory (row_vecs[:, UNWRAP]) is not kept per sample nor undone: the slow path
        self.couplers = not COUPLERS.isdisjoint(system.static.row_kind.tolist())
        self.h = float(settings.step)
        self.cancel_check_s = cancel_check_s
        self.budget = 1000  # steps per call, until timed
        self.timed = False  # the first call compiles
        self.skip, self.backoff = 0, 0
        forces = system.static.force_vecs.shape[0]
        self.rows = max(1, min(ROWS_PER_CALL, MEMORY_VALUES // max(1, 6 * forces)))
        self.out_Y, self.out_acc = np.empty((self.rows, n)), np.empty((self.rows, 6))
        self.out_memory = np.empty((self.rows, forces, 2, 3))
        self.info = np.zeros(4, dtype=np.int64)

    def eligible(self, stepper, stops, t: float) -> bool:
        """Whether the next interval from t [s] may try the fast path."""
        if not ENABLED or self.projection or self.couplers or type(stepper) not in STEPPERS:
            return False
        if stepper.system.friction is not None:
            return False
        if type(stepper).advance not in (FixedStepStepper.advance, TreeRK4Stepper.advance):  # a test's probe
            return False
        if self.skip > 0:
            self.skip -= 1
            return False
        if getattr(stepper, "events", None) is not None and stepper.events.in_passage:  # read after its interval
            return False
        if stops is None:
            return True
        contacts = stops.contacts
        return (
            stops.started
            and not stops.held
            and stops.friction is None
            and t >= stops.fine_until
            and stepper.system is stops.active
            and (not contacts.count or contacts.touching is not None)
            and not len(contacts.pinned)
        )

    def advance(self, stepper, stops, t: float, Y: np.ndarray, times: np.ndarray, acc: np.ndarray, pace_steps: int):
        """Integrate Y and acc in place from t [s] through as many of ``times`` [s] as the fast
        path may; returns (rows done, their states (rows, n), work integrals (rows, 6), force
        elements' memory (rows, elements, 2, 3), status, time reached [s] if a step failed)."""
        global calls
        times = np.ascontiguousarray(times[: self.rows], dtype=float)
        started = time.perf_counter()
        rows = self._run(stepper, stops, t, Y, times, acc, pace_steps)
        calls += 1
        self._timed(time.perf_counter() - started)
        why, steps, status, failed_steps = (int(v) for v in self.info)
        stepper.steps += steps
        if getattr(stepper, "events", None) is not None:
            stepper.events.read(stepper)
        # a call that did none: the next interval tried again, then 1, 2, 4 ... MAX_SKIP left to the slow path
        self.skip, self.backoff = (0, 0) if rows else (self.backoff, min(max(1, 2 * self.backoff), MAX_SKIP))
        t_reached = float(times[rows - 1]) if rows else t
        if why == FAILED:
            t_reached += failed_steps * equal_steps(times[rows] - t_reached, self.h)[1]
        return rows, self.out_Y[:rows], self.out_acc[:rows], self.out_memory[:rows], status, t_reached

    def _run(self, stepper, stops, t: float, Y: np.ndarray, times: np.ndarray, acc: np.ndarray, pace_steps: int) -> int:
        """The compiled call of :meth:`advance` (run_samples; run_tree_samples for rk4_tree); returns the rows."""
        system = stepper.system
        if isinstance(stepper, TreeRK4Stepper):
            return self._tree_call(stepper, stops, t, Y, times, acc, pace_steps)
        return kernels.fast_call(
            run_samples, stepper.method, float(t), Y, times, self.h, int(pace_steps), int(self.budget),
            system.static, system.work, acc, stepper.scratch, *self._guards(system, stops, Y, stepper.scratch[0]),
            self.out_Y, self.out_acc,
            self.out_memory, self.info,
        )  # fmt: skip

    def _tree_call(self, stepper, stops, t: float, Y: np.ndarray, times: np.ndarray, acc: np.ndarray, pace_steps: int):
        """run_tree_samples on rk4_tree's joint coordinates (integrators/tree_samples.py); returns the rows done."""
        system, q = stepper.system, stepper.q
        return kernels.fast_call(
            run_tree_samples, float(t), q, stepper.qd, stepper.tree, stepper.work, Y, times, self.h,
            int(pace_steps), int(self.budget), system.static, system.work, acc,
            *self._guards(system, stops, Y, np.zeros((0, 1))), np.empty((2, len(q))), np.zeros((0, 1)),
            self.out_Y, self.out_acc, self.out_memory, self.info,
        )  # fmt: skip

    def _timed(self, elapsed: float) -> None:
        """Steps per call so that one lasts about cancel_check_s (as simulate._Pace)."""
        if self.timed and (elapsed > self.cancel_check_s or self.info[0] == BUDGET):
            steps = max(1, int(self.info[1]))
            self.budget = max(1, min(1_000_000, int(steps * self.cancel_check_s / max(elapsed, 1e-9))))
        self.timed = True

    def _guards(self, system, stops, Y: np.ndarray, k4: np.ndarray) -> tuple:
        """run_samples' stops, contacts and saved arguments (empty arrays where there are none); k4:
        the stepper's stage scratch (run_fixed's k)."""
        n = len(Y)
        if stops is None:
            packed = (np.zeros(0, np.int64),) * 3 + (np.zeros((0, ROW_VECS, 3)), np.zeros(0), np.zeros(0))
            packed += (np.zeros((1, 3, 3)), np.zeros((0, 2, 6)))
        else:
            packed = stops.packed
        k = len(packed[0])
        stop_args = (*packed, np.empty(k), np.empty(k), np.empty(k))
        count = 0 if stops is None else stops.contacts.count
        S = system.static
        if count:
            c = stops.contacts
            world, order, pinned, touching, touched_at, first = (
                c.world, c.order, c.pinned, c.touching, c.touched_at, c.first
            )  # fmt: skip
        else:
            world, order, first = np.zeros_like(S.bp_world), S.bp_order.copy(), 0
            pinned, touching, touched_at = np.zeros((0, 2), np.int64), np.zeros(0, bool), np.zeros(0)
        contact_args = (
            first, world, order, WATCH_MARGIN, pinned, np.empty(count), np.empty(count), np.empty(count, np.int64),
            touching, np.empty((max(system.nb, 1), 3, 3)), touched_at, np.empty(count), np.empty(count),
            np.empty(count), np.array([0.0, np.inf]),
        )  # fmt: skip
        W = system.work
        saved = tuple(a.copy() for a in (W.keep, W.keep_prev, W.ref, W.ctl, W.y_near, W.ratio))
        saved += (np.empty(n), np.empty(6), world.copy(), order.copy(), touching.copy(), S.force_vecs[:, 3:5].copy())
        saved += (np.empty(k4.shape[1]),)
        return stop_args, contact_args, saved
