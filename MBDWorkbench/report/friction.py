"""The joint friction of a run, from its samples (joints.csv's friction columns,
docs/joint-friction.md): per joint the peak friction effort, the time spent sticking and the
energy the friction dissipated (trapezoidal over the output samples)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..solver.results.files import JOINTS

if TYPE_CHECKING:
    from .data import ReportData


def friction_losses(data: ReportData) -> list[dict]:
    """Per joint with friction columns: joint, peak effort (signed, largest magnitude over its
    channels) with its header and time [s], peak load N [N], share of the run spent sticking,
    dissipated energy [J] (<= 0: taken out)."""
    headers = list(data.tables[JOINTS])
    out = []
    for joint in data.joint_names:
        state_header = f"{joint}.friction_state [-]"
        if state_header not in headers:
            continue
        efforts = [h for h in headers if h.startswith(f"{joint}.") and ("_friction [" in h or ".friction_T" in h)]
        best = max(efforts, key=lambda h: float(np.max(np.abs(data.col(JOINTS, h)), initial=0.0)))
        effort = data.col(JOINTS, best)
        k = int(np.argmax(np.abs(effort))) if len(effort) else 0
        power, state = data.col(JOINTS, f"{joint}.friction_power [W]"), data.col(JOINTS, state_header)
        t = data.t
        out.append(
            dict(
                joint=joint,
                header=best[len(joint) + 1 :],
                peak=float(effort[k]) if len(effort) else 0.0,
                t=float(t[k]) if len(t) else 0.0,
                normal=float(np.max(data.col(JOINTS, f"{joint}.friction_normal [N]"), initial=0.0)),
                stick=_time_share(state > 0.5, t),
                work=float(np.sum(0.5 * (power[1:] + power[:-1]) * np.diff(t))) if len(t) > 1 else 0.0,
            )
        )
    return out


def _time_share(mask: np.ndarray, t: np.ndarray) -> float:
    """The share of the run's time [0, 1] where mask holds (sample intervals whose both ends hold)."""
    if len(t) < 2 or t[-1] <= t[0]:
        return float(mask.all()) if len(mask) else 0.0
    both = mask[1:] & mask[:-1]
    return float(np.sum(np.diff(t)[both]) / (t[-1] - t[0]))
