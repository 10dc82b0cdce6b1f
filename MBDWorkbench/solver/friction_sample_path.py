"""The fast path of :func:`.simulate.simulate`'s loop on a model with joint friction: many output
samples per compiled call (integrators.friction_samples.friction_samples) for the euler,
symplectic_euler and rk4 friction steppers (integrators/friction.py) while no friction event
function changes sign; an interval in which one does is undone and left to the slow path, which
locates the event (solver/events.py, solver/friction_events.py).

It applies to joint friction whose contacts have one channel each (revolute angle, prismatic
slide: the compiled event functions are then FrictionEvents.values' arithmetic), without rigid
stops, contact points or stiction patches, settings.projection or coupler rows; the other runs
with friction take the slow path. sample_path.ENABLED switches it off as well.
"""

from __future__ import annotations

import numpy as np

from . import kernels, sample_path
from .integrators.friction import FrictionEuler, FrictionFixedStep, FrictionRK4, FrictionSymplecticEuler
from .integrators.friction_samples import friction_samples
from .sample_path import SamplePath

FRICTION_STEPPERS = (FrictionEuler, FrictionSymplecticEuler, FrictionRK4)


def sample_path_for(system, settings, cancel_check_s: float) -> SamplePath:
    """The fast path of a run on ``system``: :class:`FrictionSamplePath` with joint friction."""
    cls = SamplePath if system.friction is None else FrictionSamplePath
    return cls(system, settings, cancel_check_s)


def one_channel_joints(friction) -> bool:
    """Whether every friction contact is a joint's with one channel (no stiction patch)."""
    return friction.patches is None and all(len(c.channels) == 1 for c in friction.contacts)


class FrictionSamplePath(SamplePath):
    """:class:`.sample_path.SamplePath` on the friction steppers' compiled loop."""

    def __init__(self, system, settings, cancel_check_s: float) -> None:
        super().__init__(system, settings, cancel_check_s)
        self.admitted = one_channel_joints(system.friction)

    def eligible(self, stepper, stops, t: float) -> bool:
        """Whether the next interval from t [s] may try the fast path."""
        if not sample_path.ENABLED or not self.admitted or self.projection or self.couplers:
            return False
        if type(stepper) not in FRICTION_STEPPERS or type(stepper).advance is not FrictionFixedStep.advance:
            return False
        if not stepper.can_stop_at_friction_events or stops is None:
            return False
        if self.skip > 0:
            self.skip -= 1
            return False
        return (
            stops.started
            and not stops.stops
            and not stops.held
            and not stops.contacts.count
            and t >= stops.fine_until
            and stepper.system is stops.active
            and not stepper.events.in_passage
        )

    def _run(self, stepper, stops, t: float, Y: np.ndarray, times: np.ndarray, acc: np.ndarray, pace_steps: int) -> int:
        """The compiled call of :meth:`advance` (friction_samples); returns the rows done."""
        system, friction = stepper.system, stepper.system.friction
        return kernels.fast_call(
            friction_samples, stepper.method, float(t), Y, times, self.h, int(pace_steps), int(self.budget),
            system.static, system.work, friction.arrays, friction.kernel_state(), acc, self.out_Y, self.out_acc,
            self.out_memory, self.info,
        )  # fmt: skip
