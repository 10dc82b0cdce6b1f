"""KPIs of one variant computed from its Results (docs/studies.md, "Outputs").

Each output of a study is one of :data:`KINDS`; :func:`columns` names its study.csv columns
(units in brackets) and :func:`evaluate` computes them from a ``solver.results.Results``:

* ``peak_reaction`` (``joint``, default every joint): peak |F| [N] and |T| [N m] of the joint
  reaction (joint frame) and the times [s] they occur;
* ``peak_effort`` / ``rms_effort`` (``driver``, default every driver): peak |effort| and its
  time, time-weighted RMS of the effort [N m or N];
* ``max_violation``: largest position [m] and angular [rad] constraint violation;
* ``energy_drift``: relative energy drift (``Results.energy_drift``);
* ``column``: any column of the results files (header as in docs/results-format.md, e.g.
  ``slider.x [m]``) ``at`` a time [s] (linear interpolation) or reduced by ``max`` / ``min``.
"""

from __future__ import annotations

import numpy as np

from ..solver.errors import ModelError

KINDS = ("peak_reaction", "peak_effort", "rms_effort", "max_violation", "energy_drift", "column")
DEFAULT_OUTPUTS = [{"kpi": "peak_reaction"}, {"kpi": "peak_effort"}, {"kpi": "max_violation"}, {"kpi": "energy_drift"}]


def check_outputs(items: object, model: dict, where: str = "outputs") -> list[dict]:
    """The study's outputs, each with its joints / drivers made explicit; ModelError naming the
    field at fault (``outputs[2].joint``)."""
    if items is None:
        items = DEFAULT_OUTPUTS
    if not isinstance(items, list) or not items:
        raise ModelError(where, "must be a non-empty list of KPIs")
    joints = [j["name"] for j in model.get("joints", [])]
    drivers = [d["name"] for d in model.get("drivers", [])]
    return [_check_output(o, f"{where}[{k}]", joints, drivers) for k, o in enumerate(items)]


def _check_output(o: object, where: str, joints: list[str], drivers: list[str]) -> dict:
    if not isinstance(o, dict) or o.get("kpi") not in KINDS:
        raise ModelError(f"{where}.kpi", f"must be one of {', '.join(KINDS)}")
    kind = o["kpi"]
    allowed = {"kpi", *_FIELDS[kind]}
    for key in sorted(set(o) - allowed):
        raise ModelError(f"{where}.{key}", f"unknown field of a '{kind}' KPI")
    if kind == "peak_reaction":
        return {"kpi": kind, "joints": _names(o, "joint", joints, where)}
    if kind in ("peak_effort", "rms_effort"):
        return {"kpi": kind, "drivers": _names(o, "driver", drivers, where)}
    if kind == "column":
        return _check_column(o, where)
    return {"kpi": kind}


_FIELDS = {
    "peak_reaction": ("joint",),
    "peak_effort": ("driver",),
    "rms_effort": ("driver",),
    "max_violation": (),
    "energy_drift": (),
    "column": ("column", "at", "reduce"),
}


def _names(o: dict, key: str, known: list[str], where: str) -> list[str]:
    if key not in o:
        return list(known)
    name = o[key]
    if name not in known:
        raise ModelError(f"{where}.{key}", f"no {key} named {name!r} in the model (names: {', '.join(known)})")
    return [name]


def _check_column(o: dict, where: str) -> dict:
    if not isinstance(o.get("column"), str) or not o["column"]:
        raise ModelError(f"{where}.column", "must be a results column header such as 'slider.x [m]'")
    if ("at" in o) == ("reduce" in o):
        raise ModelError(where, "give either 'at' (a time [s]) or 'reduce' ('max' or 'min')")
    if "at" in o and (isinstance(o["at"], bool) or not isinstance(o["at"], (int, float)) or not o["at"] >= 0):
        raise ModelError(f"{where}.at", f"must be a time >= 0 [s], got {o['at']!r}")
    if "reduce" in o and o["reduce"] not in ("max", "min"):
        raise ModelError(f"{where}.reduce", f"must be 'max' or 'min', got {o['reduce']!r}")
    return dict(o)


def columns(outputs: list[dict], model: dict) -> list[str]:
    """The study.csv columns of the outputs, in order."""
    units = {d["name"]: "N m" if d["type"] == "rotational" else "N" for d in model.get("drivers", [])}
    names: list[str] = []
    for o in outputs:
        kind = o["kpi"]
        if kind == "peak_reaction":
            for j in o["joints"]:
                names += [f"{j}.peak_F [N]", f"{j}.peak_F_time [s]", f"{j}.peak_T [N m]", f"{j}.peak_T_time [s]"]
        elif kind == "peak_effort":
            for d in o["drivers"]:
                names += [f"{d}.peak_effort [{units[d]}]", f"{d}.peak_effort_time [s]"]
        elif kind == "rms_effort":
            names += [f"{d}.rms_effort [{units[d]}]" for d in o["drivers"]]
        elif kind == "max_violation":
            names += ["max_violation_position [m]", "max_violation_angle [rad]"]
        elif kind == "energy_drift":
            names.append("energy_drift [-]")
        else:
            names.append(column_name(o))
    return names


def column_name(o: dict) -> str:
    """study.csv column of a 'column' KPI: ``slider.x [m] at 1.5 s`` or ``max slider.x [m]``."""
    return f"{o['column']} at {o['at']:g} s" if "at" in o else f"{o['reduce']} {o['column']}"


def evaluate(res, outputs: list[dict]) -> list[float]:
    """The KPI values of a run (same order as :func:`columns`)."""
    values: list[float] = []
    t = res.t
    for o in outputs:
        kind = o["kpi"]
        if kind == "peak_reaction":
            for j in o["joints"]:
                for v in res.reaction(j):
                    values += _peak(t, np.linalg.norm(v, axis=1))
        elif kind == "peak_effort":
            for d in o["drivers"]:
                values += _peak(t, np.abs(res.driver_effort(d)))
        elif kind == "rms_effort":
            values += [_rms(t, res.driver_effort(d)) for d in o["drivers"]]
        elif kind == "max_violation":
            values += list(res.max_violation())
        elif kind == "energy_drift":
            values.append(res.energy_drift())
        else:
            values.append(_column_value(res, o))
    return [float(v) for v in values]


def _peak(t: np.ndarray, a: np.ndarray) -> list[float]:
    k = int(np.argmax(a))
    return [a[k], t[k]]


def _rms(t: np.ndarray, e: np.ndarray) -> float:
    """Time-weighted RMS (trapezoidal rule) of the samples ``e`` at times ``t`` [s]."""
    if len(t) < 2:
        return abs(float(e[0])) if len(e) else float("nan")
    sq = e.astype(float) ** 2
    return float(np.sqrt(np.sum(0.5 * (sq[1:] + sq[:-1]) * np.diff(t)) / (t[-1] - t[0])))


def result_column(res, header: str) -> np.ndarray:
    """The column ``header`` of the results files of a run (KeyError when absent)."""
    from ..solver.results.files import tables

    for table in tables(res).values():
        if header in table:
            return np.asarray(table[header], float)
    raise KeyError(header)


def _column_value(res, o: dict) -> float:
    a = result_column(res, o["column"])
    if "reduce" in o:
        return float(a.max() if o["reduce"] == "max" else a.min())
    if not res.t[0] - 1e-12 <= o["at"] <= res.t[-1] + 1e-12:
        raise ValueError(f"{column_name(o)}: the run covers {res.t[0]:g} .. {res.t[-1]:g} s")
    return float(np.interp(o["at"], res.t, a))


def check_columns(res, outputs: list[dict]) -> None:
    """ModelError naming the output whose column the results of ``res`` lack."""
    from ..solver.results.files import tables

    headers = [h for table in tables(res).values() for h in table]
    for k, o in enumerate(outputs):
        if o["kpi"] == "column" and o["column"] not in headers:
            near = [h for h in headers if h.split(".")[0] == o["column"].split(".")[0]][:8] or headers[1:9]
            raise ModelError(f"outputs[{k}].column", f"no results column {o['column']!r} (e.g. {', '.join(near)})")
