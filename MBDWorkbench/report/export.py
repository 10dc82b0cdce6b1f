"""Machine-readable exports beside the report: every time series as one JSON file (keys
are the results CSV headers, units in brackets), the peak-load table and the user points
as CSV."""

from __future__ import annotations

import csv
import json

import numpy as np

from ..solver.results import files as fmt
from . import derived
from .data import ReportData
from .derived import CheckedPoint

GROUPS = tuple((f.removesuffix(".csv"), f) for f in fmt.FILES)  # (timeseries.json group, results CSV)


def _list(a):
    a = np.asarray(a, dtype=float)
    return [float(x) if np.isfinite(x) else None for x in a]


def point_columns(data: ReportData, points: list[CheckedPoint]) -> dict[str, np.ndarray]:
    """{header: array} of the points' position [m], velocity [m/s] and acceleration [m/s^2]."""
    cols = {fmt.TIME: data.t}
    for label, body, local in points:
        kin = derived.point_kinematics(data, body, local)
        for key, prefix, unit in (("position", "", "m"), ("velocity", "v", "m/s"), ("acceleration", "a", "m/s^2")):
            for c, n in enumerate("xyz"):
                cols[f"{label}.{prefix}{n} [{unit}]"] = kin[key][:, c]
    return cols


def write_timeseries_json(data: ReportData, points: list[CheckedPoint], path: str) -> str:
    """All series: {"model", "source", "points": {label: {body, local_point_m}},
    "series": {group: {header: [values]}}}; null marks a non-finite value."""
    series = {g: {h: _list(v) for h, v in data.tables[f].items()} for g, f in GROUPS}
    if points:
        series["points"] = {h: _list(v) for h, v in point_columns(data, points).items()}
    doc = dict(
        model=data.model.name,
        source=data.source,
        units="SI, given in brackets in every key",
        points={label: dict(body=body, local_point_m=[float(x) for x in p]) for label, body, p in points},
        series=series,
    )
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def write_points_csv(data: ReportData, points: list[CheckedPoint], path: str) -> str:
    """The user points' position [m], velocity [m/s] and acceleration [m/s^2] as CSV."""
    return fmt.write_csv(path, point_columns(data, points))


def write_peaks_csv(peaks: list[dict], path: str) -> str:
    """The peak-load table; components in the joint frame carried by body_i."""
    head = [
        "joint",
        "type",
        "F_max [N]",
        "t_F [s]",
        "Fx [N]",
        "Fy [N]",
        "Fz [N]",
        "T_max [N m]",
        "t_T [s]",
        "Tx [N m]",
        "Ty [N m]",
        "Tz [N m]",
    ]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        for p in peaks:
            w.writerow(
                [p["joint"], p["type"]]
                + [f"{v:.10g}" for v in [p["F_max"], p["t_F"], *p["F"], p["T_max"], p["t_T"], *p["T"]]]
            )
    return path
