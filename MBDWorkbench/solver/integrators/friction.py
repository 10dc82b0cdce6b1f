"""The ODE-form integrators on a model with joint friction (system/friction.py): the same
schemes (euler, symplectic_euler, rk4, bdf, radau, lsoda) on the friction-consistent dense
solve with the contacts' current stick/slip modes. The modes are set once at the start and then
switched only at the events located by solver/events.py (solver/friction_events.py), which
restarts the stepper. galpha, cros and rk4_tree refuse such a model (:func:`friction_stepper`)."""

from __future__ import annotations

import numpy as np

from .. import kernels
from ..errors import ModelError
from ..numerics.friction_solve import ILL_CONDITIONED, NOT_CONVERGED
from ..numerics.jit import interpreting
from ..system.friction import described
from .base import Stepper, equal_steps
from .explicit import EulerStepper, RK4Stepper, SymplecticEulerStepper
from .friction_kernel import friction_steps, symplectic_euler_update
from .power import account_power
from .scipy_ivp import BDFStepper, LSODAStepper, RadauStepper


class FrictionFixedStep:
    """Mixin of the fixed-step schemes: the step loop in Python on the friction solve."""

    def __init__(self, system, settings, t0: float, Y0: np.ndarray) -> None:
        super().__init__(system, settings, t0, Y0)
        if not system.friction.started:
            system.friction.start(t0, Y0)

    stops_at_friction_events = False  # set by the events' monitor (events.py) around its chunks
    stopped_early = False  # the last advance stopped at a friction event's step, before t_next

    @property
    def can_stop_at_friction_events(self) -> bool:
        """Whether advance can stop after the step where a friction event function changes sign
        (the compiled loop checks them after every step; the monitor then takes longer chunks)."""
        return self.system.friction.compiled and not interpreting()

    def advance(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray) -> tuple[float, int]:
        """Integrate Y in place from t to t_next [s] (or to the end of the step where a friction
        event function changed sign, with :attr:`stops_at_friction_events`: :attr:`stopped_early`);
        returns (time reached [s], status)."""
        n, h = equal_steps(t_next - t, self.h)
        first, self.stopped_early = 0, False
        if self.can_stop_at_friction_events and Y.flags.c_contiguous:
            first, t, status = self._compiled_steps(t, Y, t_next, n, h, acc)
            if status != ILL_CONDITIONED and status != NOT_CONVERGED:
                self.stopped_early = status == kernels.OK and first < n
                return t, status
        return self._python_steps(t, Y, t_next, first, n, h, acc)

    def _compiled_steps(self, t, Y, t_next, n, h, acc) -> tuple[int, float, int]:
        """The steps in one compiled call (integrators/friction_kernel.py); returns (steps done, time
        reached [s], status). The evaluation at the end is kept for the event check there."""
        friction, sys = self.system.friction, self.system
        state = friction.kernel_state()
        status, _, done, t, last = kernels.fast_call(
            friction_steps, float(t), float(t_next), n, float(h), self.method, Y, sys.static, sys.work,
            friction.arrays, state, acc, self.stops_at_friction_events,
        )  # fmt: skip
        self.steps += done
        if status == kernels.OK:
            friction.keep(t, Y, friction.evaluation(last, t, state[0]))
        return done, t, status

    def _python_steps(self, t, Y, t_next, first, n, h, acc) -> tuple[float, int]:
        """Steps first..n-1 in Python, each evaluation a call of the friction solve."""
        friction = self.system.friction
        for step in range(first, n):
            ev = friction.solve_current(t, Y)
            account_power(acc, t, ev.Pdrv, ev.Pnc)
            self._step(t, Y, h, ev.Ydot)
            kernels.fast_call(kernels.normalize_quaternions_arrays, self.system.nb, Y)
            if not np.all(np.isfinite(Y)):
                return t, kernels.NOT_FINITE
            t = t + h if step < n - 1 else t_next
            self.steps += 1
        return t_next, kernels.OK

    def _step(self, t: float, Y: np.ndarray, h: float, k0: np.ndarray) -> None:
        if self.method == 0:
            Y += h * k0
        elif self.method == 1:
            symplectic_euler_update(Y, h, k0, self.system.nb)
        else:
            solve = self.system.friction.derivative
            k1 = solve(t + 0.5 * h, Y + 0.5 * h * k0)
            k2 = solve(t + 0.5 * h, Y + 0.5 * h * k1)
            k3 = solve(t + h, Y + h * k2)
            Y += h / 6.0 * (k0 + 2.0 * k1 + 2.0 * k2 + k3)


class FrictionEuler(FrictionFixedStep, EulerStepper):
    """Explicit Euler with joint friction."""


class FrictionSymplecticEuler(FrictionFixedStep, SymplecticEulerStepper):
    """Symplectic Euler with joint friction."""


class FrictionRK4(FrictionFixedStep, RK4Stepper):
    """RK4 with joint friction."""


class FrictionSciPy:
    """Mixin of SciPy's solvers: the modes set at the start (a fresh solver after an event)."""

    def __init__(self, system, settings, t0: float, Y0: np.ndarray) -> None:
        if not system.friction.started:
            system.friction.start(t0, Y0)
        super().__init__(system, settings, t0, Y0)


class FrictionBDF(FrictionSciPy, BDFStepper):
    """BDF with joint friction."""


class FrictionRadau(FrictionSciPy, RadauStepper):
    """Radau IIA with joint friction."""


class FrictionLSODA(FrictionSciPy, LSODAStepper):
    """LSODA with joint friction."""


FRICTION_METHODS: dict[str, type[Stepper]] = {
    cls.name: cls
    for cls in (FrictionEuler, FrictionSymplecticEuler, FrictionRK4, FrictionBDF, FrictionRadau, FrictionLSODA)
}


def friction_stepper(system, name: str) -> type[Stepper]:
    """The stepper class of integrator ``name`` for a model with joint friction; ModelError
    naming the joint and the integrators that handle friction when ``name`` does not."""
    cls = FRICTION_METHODS.get(name)
    if cls is None:
        c = system.friction.contacts[0]
        what = "friction with stiction (friction_law 'stiction')" if c.type == "contact" else "friction"
        alternative = " or friction_law 'regularised'" if c.type == "contact" else ""
        raise ModelError(
            "settings.integrator",
            f"{described(c)} has {what}, which the {name} integrator does not handle (its stick rows "
            f"are switched in the ODE form); use one of {', '.join(FRICTION_METHODS)}{alternative}",
        )
    return cls
