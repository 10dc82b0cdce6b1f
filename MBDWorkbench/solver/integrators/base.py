"""The stepper contract shared by every integrator (modelled on scipy.integrate's OdeSolver).

A stepper advances the state vector ``Y = [q, v]`` of a :class:`~..system.System`
(q = [x, y, z, qw, qx, qy, qz] per body, v = [v global (m/s), w body (rad/s)] per body)
from one output time to the next. :func:`..simulate.simulate` owns the loop, the sampling
and the results; a stepper only integrates.

Contract for a subclass:

* class attribute ``name`` (the settings/CLI name, the key in ``integrators.METHODS``);
  ``label`` (for reports and messages), ``formulation`` (which equations it integrates, for
  reports) and ``index`` (1: acceleration-level constraints with Baumgarte feedback,
  3: position-level constraints, 0: no constraint equations, joint coordinates) are copied
  from its ``catalog.INTEGRATORS`` record;
* ``__init__(system, settings, t0, Y0)`` calls ``Stepper.__init__``, checks its settings
  (ModelError naming the field) and prepares; it must not modify ``system`` beyond its
  work arrays;
* ``advance(t, Y, t_next, acc) -> (t_reached, status)`` integrates Y in place from t to
  t_next [s], adding the driver and non-conservative work to ``acc`` (see
  :func:`.power.account_power`); status is a ``kernels`` status code (OK on success);
* ``steps`` counts the accepted steps; ``warnings`` lists :class:`..status.RunWarning` for
  the user, added with ``warn(kind, message, time, elements)`` (simulate copies them into
  ``Results.warnings``);
* ``multipliers(t, Y)`` returns the Lagrange multipliers of all m constraint rows that
  the stepper itself computed at the output time t (index-3 integrators), or None: then
  the results take them from the index-1 KKT solve at (t, Y);
* ``published_state(t, Y)`` returns the state to record at the output time t: Y itself, or
  (cros) Y closed onto the constraints; then ``integrated`` (a :class:`..quality.IntegratedViolation`)
  keeps the violation of the integrated Y for the quality gate;
* ``restart(t, Y)`` returns the stepper to continue with after Y was changed outside the
  stepper at time t (projection): ``self`` for one-step methods.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

import numpy as np

from ..model.catalog import INDEX1_FORMULATION, INTEGRATORS, default_rtol, default_step
from ..results.status import RunWarning

if TYPE_CHECKING:
    from ..model.schema import Settings
    from ..system.system import System


def equal_steps(span: float, h_max: float) -> tuple[int, float]:
    """(n, h): the fewest equal steps h [s] of at most h_max (1e-9 relative slack) covering span [s]."""
    n = max(1, int(np.ceil(span / h_max - 1e-9)))
    return n, span / n


class Stepper:
    """Base class of the integrators (see the module docstring for the contract)."""

    name: str = ""
    label: str = ""
    formulation: str = INDEX1_FORMULATION
    index: int = 1
    entry_kernel = None  # the compiled kernel whose cache entry shows a warm cache (solver/numerics/cold_start.py)

    def __init_subclass__(cls, **kwargs) -> None:
        """Copy label, formulation and index from the catalogue record of ``cls.name``."""
        super().__init_subclass__(**kwargs)
        spec = INTEGRATORS.get(cls.__dict__.get("name", ""))
        if spec is not None:
            cls.label, cls.formulation, cls.index = spec.label, spec.formulation, spec.index

    def __init__(self, system: System, settings: Settings, t0: float, Y0: np.ndarray) -> None:
        self.system, self.settings = system, settings
        self.steps = 0
        self.warnings: list[RunWarning] = []
        self.integrated = None  # quality.IntegratedViolation of the integrated state, where it is not published

    def warn(self, kind: str, message: str, time: float | None = None, elements: tuple[str, ...] = ()) -> None:
        """Add a warning (kind in ``status.WARNING_KINDS``), once per distinct message."""
        if all(w.message != message for w in self.warnings):
            self.warnings.append(RunWarning(kind, message, time, tuple(elements)))

    def advance(self, t: float, Y: np.ndarray, t_next: float, acc: np.ndarray) -> tuple[float, int]:
        """Integrate Y in place from t to t_next [s]; returns (time reached [s], status)."""
        raise NotImplementedError

    def multipliers(self, t: float, Y: np.ndarray) -> np.ndarray | None:
        """Multipliers of all constraint rows computed by the stepper at output time t, or None."""
        return None

    def published_state(self, t: float, Y: np.ndarray) -> np.ndarray:
        """The state to record at output time t [s] (Y, the integrated state, unless a subclass says otherwise)."""
        return Y

    def restart(self, t: float, Y: np.ndarray) -> Stepper:
        """The stepper to continue with after Y was changed from outside at time t [s]."""
        return self


def own_settings(settings: Settings, name: str) -> Settings:
    """``settings`` with step and rtol None set to integrator ``name``'s defaults (simulate() resolves them
    first, Settings.resolved; a stepper built directly resolves them here, for itself)."""
    if settings.step is not None and settings.rtol is not None:
        return settings
    out = copy.copy(settings)
    if out.step is None:
        out.step = default_step(name, out.t_end)
    if out.rtol is None:
        out.rtol = default_rtol(name)
    return out
