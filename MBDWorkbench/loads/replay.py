"""Load sets of a run read back from its results files (a report's ``ReportData``, the
document's stored results): each sample asked for is evaluated again by the solver at its
stored state (positions, orientations, velocities), which gives its accelerations, multipliers
and reactions together, so the load set of a body is in equilibrium at that state. A stored
state has the results files' 10 significant digits: the loads agree with the run's own to
about that precision (exactly what an ODE-form run computed at that state)."""

from __future__ import annotations

import numpy as np

from ..solver.results.results import Results
from ..solver.system.system import System
from .body_loads import LoadCase, body_load_case


class ReplayedRun:
    """Load cases of a run given by its ``model``, sample times ``t`` [s] (K,) and solver states
    ``Y`` (K, 13 N) (principal body frames, as ``ReportData.Y``); each sample is evaluated once,
    when first asked for."""

    def __init__(self, model, t: np.ndarray, Y: np.ndarray) -> None:
        self.model, self.t, self.Y = model, np.asarray(t, float), np.asarray(Y, float)
        self.system = System(model)
        self.body_names = [b.name for b in self.system.moving]
        self._runs: dict[int, Results] = {}
        self._all: Results | None = None

    def __len__(self) -> int:
        return len(self.t)

    def sample(self, k: int) -> Results:
        """A one-sample Results holding sample ``k`` evaluated again."""
        k = int(k) % len(self.t)
        if k not in self._runs:
            self._runs[k] = self._evaluated([k])
        return self._runs[k]

    def results(self) -> Results:
        """A Results holding every sample evaluated again (its reactions, multipliers and
        accelerations over the whole run: what ``critical_instants`` and ``worst_instants`` read)."""
        if self._all is None:
            self._all = self._evaluated(range(len(self.t)))
        return self._all

    def _evaluated(self, samples) -> Results:
        """A Results of the given samples, each recorded by the solver at its stored state (the
        quaternions renormalised: the files keep 10 digits)."""
        nb = self.system.nb
        run = Results(self.system, self.model.settings)
        for k in samples:
            Y = self.Y[k].copy()
            q = Y[: 7 * nb].reshape(nb, 7)
            q[:, 3:] /= np.linalg.norm(q[:, 3:], axis=1)[:, None]
            Y[: 7 * nb] = q.reshape(-1)
            run.record(float(self.t[k]), Y, np.zeros(6))
        return run

    def load_case(self, body: str, k: int) -> LoadCase:
        """The load set of ``body`` at sample ``k`` (its ``index`` is ``k``)."""
        case = body_load_case(self.sample(k), body, 0)
        case.index = int(k) % len(self.t)
        return case


def replayed(data) -> ReplayedRun:
    """:class:`ReplayedRun` of anything with ``model``, ``t`` and ``Y`` (a ReportData)."""
    return ReplayedRun(data.model, data.t, data.Y)
