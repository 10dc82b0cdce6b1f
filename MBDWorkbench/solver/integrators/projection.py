"""Constraint projection of the ODE-form integrators and the warnings of their constraint solve.

* ``settings.projection``: after each output time the state is projected back onto the
  position and velocity constraints (:func:`project_after_output`).
* Near singular positions the kernels project after every step by themselves
  (``kernels.end_of_step``); :class:`RankEvents` turns what they noted (near-singular
  passages, rank changes) into a run warning naming the joints, and :func:`singular_stop` the
  SimulationError of a solve that cannot go on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import kernels
from ..errors import AssemblyError, SimulationError
from ..quality import NEAR_SINGULAR_ACCURACY
from ..system.assembly import assemble, project_velocities
from ..tolerances import ODE_NEAR_SINGULAR, PROJECTION_TOL
from .base import Stepper

if TYPE_CHECKING:
    from ..model.schema import Settings
    from ..system.system import System


def project_state(system: System, Y: np.ndarray, t: float) -> None:
    """Project positions onto Phi = 0 (minimum-norm steps in raw coordinates, m and rad) and
    velocities onto Phi_q v = -Phi_t (mass-weighted) at time t [s]; Y is modified in place."""
    try:
        Yp = assemble(system, Y, t, tol=PROJECTION_TOL, scaled=False)
    except AssemblyError as e:
        raise SimulationError(f"projection failed at t = {t:.6g} s: {e}", time=t, worst_joints=e.worst) from None
    Y[:] = project_velocities(system, Yp, t)


def project_after_output(system: System, settings: Settings, stepper: Stepper, t: float, Y: np.ndarray) -> Stepper:
    """Project Y at the output time t [s] if settings.projection is set and the stepper
    integrates the index-1 form (index-3 steppers keep Phi = 0 themselves and are left
    alone, as is rk4_tree, whose joint coordinates have no constraint to drift from). Returns the
    stepper to continue with (``stepper.restart``)."""
    if not settings.projection or stepper.index != 1:
        return stepper
    project_state(system, Y, t)
    return stepper.restart(t, Y)


# ----------------------------------------------------------------------------- rank events
def _quoted(names: list[str], count: int = 6) -> str:
    shown = ", ".join(f"'{n}'" for n in names[:count])
    return shown + (", ..." if len(names) > count else "")


def dependent_joints(system: System, t: float, Y: np.ndarray) -> list[str]:
    """Joints/drivers whose kept rows form the (near) dependency at (t, Y): those with a weight
    above 5 % of the largest in the left singular vector of the smallest singular value of the
    kept rows of J (each row scaled to unit length in the rank metric of the kernels,
    System._rank_metric), in model order."""
    rows = np.nonzero(system.kept_rows())[0]
    if not len(rows):
        return []
    J = system.constraint_jacobian(t, Y)[1][rows] * np.sqrt(system.static.rank_w.reshape(-1))
    J /= np.maximum(np.linalg.norm(J, axis=1), 1e-300)[:, None]
    u = np.abs(np.linalg.svd(J, full_matrices=False)[0][:, -1])
    weights = np.zeros(len(system.model.joints) + len(system.model.drivers))
    np.maximum.at(weights, system.row_owner[rows], u)
    return [system.owner_name(int(k)) for k in np.nonzero(weights > 0.05 * weights.max())[0]]


def singular_stop(system: System, t: float, Y: np.ndarray, what: str) -> SimulationError:
    """The SimulationError of an ODE-form solve that cannot go on at time t [s] (``what``
    says why), naming the joints of the dependency there."""
    names = dependent_joints(system, t, Y) if np.all(np.isfinite(Y)) else []
    return SimulationError(
        f"simulation stopped at t = {t:.6g} s: {what}; joints involved: {_quoted(names) or 'unknown'}",
        time=t,
        worst_joints=[(n, 0.0) for n in names],
    )


class RankEvents:
    """Reads the rank state of the ODE-form solve (kernels W.ctl) after each advance and keeps
    the stepper's warning about it: one summary of the passages near singular positions and the
    rank changes there (updated in place; its time is that of the closest approach). Rows
    redundant at the start and rank changes at output times are the quality gate's warnings
    (quality.start_of_run, quality.gate), not repeated here."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.changes = 0.0
        self.passages: list[float] = []  # start times [s]
        self.in_passage = False
        self.worst = (np.inf, 0.0, [])  # (sine, time, joints) of the closest approach
        self.projected_steps = 0.0
        self.rank_changes = 0

    def read(self, stepper: Stepper) -> None:
        """Turn what the kernels noted since the last call into warnings on ``stepper``."""
        ctl = self.system.work.ctl
        if ctl[kernels.CTL_RANK] < 0:
            return
        if ctl[kernels.CTL_CHANGES] > self.changes:
            self.changes = ctl[kernels.CTL_CHANGES]
            self._rank_change(ctl)
        near = ctl[kernels.CTL_NEAR_T] >= 0
        if near:
            self._passage(stepper, ctl)
            ctl[kernels.CTL_NEAR_T], ctl[kernels.CTL_NEAR_MIN] = -1.0, 1.0
        self.in_passage = near

    def _rank_change(self, ctl: np.ndarray) -> None:
        """Count the rank changes (not other rows of a redundant set dropped at the same rank). The
        'rank_change' warning itself is the quality gate's, at the output times (quality.gate);
        the stepper's count goes into its near_singular summary."""
        if int(ctl[kernels.CTL_RANK]) != int(ctl[kernels.CTL_RANK_BEFORE]):
            self.rank_changes += 1

    def _passage(self, stepper: Stepper, ctl: np.ndarray) -> None:
        system = self.system
        t0 = float(ctl[kernels.CTL_NEAR_T])
        if not self.in_passage:
            self.passages.append(t0)
        sine = float(np.sqrt(max(ctl[kernels.CTL_NEAR_MIN], 0.0)))
        if sine < self.worst[0]:
            t_min, y = float(ctl[kernels.CTL_NEAR_MIN_T]), system.work.y_near.copy()
            self.worst = (sine, t_min, dependent_joints(system, t_min, y))
        self.projected_steps = ctl[kernels.CTL_NEAR_STEPS]
        old = [w for w in stepper.warnings if w.kind == "near_singular" and w.message.startswith("passed near")]
        for w in old:
            stepper.warnings.remove(w)
        times = ", ".join(f"{t:.4g}" for t in self.passages[:8]) + (", ..." if len(self.passages) > 8 else "")
        sine, t_worst, names = self.worst
        stepper.warn(
            "near_singular",
            f"passed near a singular position {len(self.passages)} time(s) (t = {times} s; closest at "
            f"t = {t_worst:.4g} s, sine {sine:.2g} < {ODE_NEAR_SINGULAR:g}, joints {_quoted(names)}): the constraint "
            f"rows were re-ranked ({self.rank_changes} rank change(s)) and the state projected onto the "
            f"constraints after each of those {int(self.projected_steps)} steps. {NEAR_SINGULAR_ACCURACY}",
            t_worst,
            tuple(names),
        )
