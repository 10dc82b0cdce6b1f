"""The joint stops and joint damping of a run, from its samples (joints.csv's stop and damping
efforts, docs/joint-limits.md): contact events and the work of each limited or damped coordinate.
Sample-based: an event is a run of samples with the coordinate past a limit, so contacts shorter
than the output step may be missed and the speeds are those of the samples around it. Rigid stops'
events are located by the solver instead (summary.json's stop_events, solver/events.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..solver.model.joint_stops import LIMITED, stop_model

if TYPE_CHECKING:
    from .data import ReportData


def limited_coordinates(data: ReportData) -> list[tuple[str, str]]:
    """(joint, coordinate) of every coordinate with limits or damping in the model."""
    out = []
    for j in data.model.joints:
        for c in LIMITED.values():
            if any(getattr(j, k) is not None for k in (c.low, c.high, c.damping)):
                out.append((j.name, c.coordinate))
    return out


def stop_events(data: ReportData) -> list[dict]:
    """Each contact with a stop: joint, coordinate, start and end time [s], impact speed (the rate
    at the last sample before it) and rebound speed (at the first sample after it) [rad/s or
    m/s], peak effort [N m or N] (signed, largest magnitude)."""
    events = []
    for joint, coordinate in limited_coordinates(data):
        c = data.joint_coordinate_names(joint).index(coordinate)
        effort, rate = data.joint_stop_effort(joint)[:, c], data.joint_coordinate_rate(joint)[:, c]
        q, spec = data.joint_coordinate(joint)[:, c], LIMITED[coordinate]
        if stop_model(data.model, data.model.joint(joint), coordinate)[0] == "rigid":
            continue  # its events are located (summary.json's stop_events)
        low, high = (getattr(data.model.joint(joint), k) for k in (spec.low, spec.high))
        past = (
            np.zeros(len(q), bool) | (q < low if low is not None else False) | (q > high if high is not None else False)
        )
        on = np.concatenate([[False], past, [False]])
        starts, ends = np.nonzero(on[1:] & ~on[:-1])[0], np.nonzero(~on[1:] & on[:-1])[0]
        for a, b in zip(starts, ends):
            k = a + int(np.argmax(np.abs(effort[a:b])))
            events.append(
                dict(
                    joint=joint,
                    coordinate=coordinate,
                    start=float(data.t[a]),
                    end=float(data.t[b - 1]),
                    impact=float(rate[max(a - 1, 0)]),
                    rebound=float(rate[b]) if b < len(rate) else float("nan"),
                    peak=float(effort[k]),
                )
            )
    return sorted(events, key=lambda e: e["start"])


def stop_losses(data: ReportData) -> list[dict]:
    """Per limited or damped coordinate: peak stop effort and its time, the work of the stops and
    of the viscous damping over the run [J] (trapezoidal over the samples; negative: taken out)."""
    out = []
    for joint, coordinate in limited_coordinates(data):
        c = data.joint_coordinate_names(joint).index(coordinate)
        stop, damping = data.joint_stop_effort(joint)[:, c], data.joint_damping_effort(joint)[:, c]
        rate = data.joint_coordinate_rate(joint)[:, c]
        k = int(np.argmax(np.abs(stop)))
        out.append(
            dict(
                joint=joint,
                coordinate=coordinate,
                peak=float(stop[k]),
                t=float(data.t[k]),
                stop_work=float(_trapezoid(stop * rate, data.t)) if len(rate) > 1 else 0.0,
                damping_work=float(_trapezoid(damping * rate, data.t)) if len(rate) > 1 else 0.0,
            )
        )
    return out


def _trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    """The trapezoidal integral of y over x (NumPy 1.x and 2.x)."""
    return float(np.sum(0.5 * (y[1:] + y[:-1]) * np.diff(x)))
