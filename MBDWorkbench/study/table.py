"""study.csv: one row per variant: ``variant``, the parameters (by path), ``status``,
``warnings``, the KPIs (units in brackets), ``wall_time [s]``, ``message``. Numbers are written
with Python's shortest round-trip form, so they read back bit for bit."""

from __future__ import annotations

import csv
import math

from . import kpis
from .engine import StudyRun

STUDY_CSV = "study.csv"


def header(run: StudyRun) -> list[str]:
    """The columns of study.csv."""
    study = run.study
    return (
        ["variant"]
        + [p.path for p in study.parameters]
        + ["status", "warnings"]
        + kpis.columns(study.outputs, study.model)
        + ["wall_time [s]", "message"]
    )


def rows(run: StudyRun) -> list[list]:
    """The rows of study.csv as Python values (KPIs empty for a variant that did not complete)."""
    n_kpis = len(kpis.columns(run.study.outputs, run.study.model))
    out = []
    for r in run.rows:
        values = [r.values[p.path] for p in run.study.parameters]
        kpi = r.kpis if r.kpis else [None] * n_kpis
        out.append([r.index, *values, r.status, r.warnings, *kpi, r.wall_time, " ".join(r.message.split())])
    return out


def write_csv(run: StudyRun, path: str) -> None:
    """Write study.csv to ``path``."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header(run))
        w.writerows([[_text(v) for v in row] for row in rows(run)])


def _text(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else str(v)
    return str(v)


def read_csv(path: str) -> tuple[list[str], list[dict]]:
    """(columns, rows) of a study.csv; numeric fields as float (empty as None), others as text."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        columns = next(reader)
        return columns, [dict(zip(columns, (_value(c, v) for c, v in zip(columns, row)))) for row in reader]


def _value(column: str, text: str) -> object:
    if column in ("status", "message"):
        return text
    if text == "":
        return None
    try:
        return float(text)
    except ValueError:
        return text
