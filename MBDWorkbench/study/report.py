"""The study report: one self-contained HTML page (``report.html``) in the style of the
motion-study report (its CSS and tables, :mod:`..report.html_writer`): what was varied and how,
the engine and wall time, the status of the variants, the range of every KPI, the table of
variants and the plots (embedded as PNG data)."""

from __future__ import annotations

import base64
import datetime
import html
import os

import numpy as np

from ..report.document import Table, g
from ..report.html_writer import CSS, render_table
from ..solver.results.status import FAILED, STATUSES
from . import kpis
from .engine import StudyRun
from .plots import kpi_matrix

REPORT_HTML = "report.html"
MAX_ROWS = 500  # variants listed in the report (study.csv has them all)


def write_report(run: StudyRun, path: str, plots: list[str]) -> str:
    """Write the report of ``run`` to ``path`` with the PNG files ``plots``; returns the path."""
    study = run.study
    e = html.escape
    parts = [
        f"<h1>Design study: {e(study.name)}</h1>",
        f'<p class="note">{e(_when())}; {len(run.rows)} variants of model {e(study.model.get("name", ""))} '
        f"on {e(run.engine)} ({run.workers} worker(s)), wall time {run.elapsed:.2f} s.</p>",
    ]
    if run.cancelled:
        parts.append('<p class="warning">The study was cancelled: the variants not run are marked cancelled.</p>')
    parts += ["<h2>Design</h2>", render_table(_design_table(run))]
    parts += ["<h2>Status of the variants</h2>", render_table(_status_table(run))]
    failed = [r for r in run.rows if r.status == FAILED]
    if failed:
        parts.append(render_table(Table(["variant", "message"], [[r.index, r.message] for r in failed[:50]])))
    parts += ["<h2>KPIs</h2>", render_table(_kpi_table(run))]
    for p in plots:
        parts.append(f'<figure><img alt="{e(os.path.basename(p))}" src="{_data_uri(p)}"></figure>')
    parts += ["<h2>Variants</h2>", render_table(_variants_table(run))]
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{e(study.name)}</title><style>{CSS}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n"
    )
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
    return path


def _when() -> str:
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M")


def _design_table(run: StudyRun) -> Table:
    study = run.study
    design = study.design
    how = design["type"] + ("" if design["type"] == "grid" else f", {design['samples']} samples, seed {design['seed']}")
    rows = [["design", how]]
    for p in study.parameters:
        if p.values is not None:
            text = ", ".join(g(v) if isinstance(v, float) else str(v) for v in p.values)
        else:
            text = ", ".join(f"{k} {g(v)}" if k != "type" else v for k, v in p.distribution.items())
        rows.append([p.path, text])
    rows += [[path, str(value)] for path, value in study.fixed.items()]
    return Table(["", "values"], rows, "Parameters (fixed values last)")


def _status_table(run: StudyRun) -> Table:
    counts = [[s, sum(r.status == s for r in run.rows)] for s in STATUSES]
    return Table(["status", "variants"], [c for c in counts if c[1]], numeric=[1])


def _kpi_table(run: StudyRun) -> Table:
    names, _, Y = kpi_matrix(run)
    rows = []
    for k, name in enumerate(names):
        y = Y[:, k] if len(Y) else np.zeros(0)
        stats = [g(float(f(y))) for f in (np.min, np.mean, np.max)] if len(y) else ["", "", ""]
        rows.append([name, *stats])
    return Table(["KPI", "min", "mean", "max"], rows, "Over the variants with KPIs", numeric=[1, 2, 3])


def _variants_table(run: StudyRun) -> Table:
    study = run.study
    names = kpis.columns(study.outputs, study.model)
    header = ["variant", *(p.path for p in study.parameters), "status", *names]
    rows = []
    for r in run.rows[:MAX_ROWS]:
        values = [
            g(r.values[p.path]) if isinstance(r.values[p.path], float) else r.values[p.path] for p in study.parameters
        ]
        rows.append([r.index, *values, r.status, *(g(v) for v in (r.kpis or [None] * len(names)))])
    caption = f"First {MAX_ROWS} of {len(run.rows)} variants (all in study.csv)" if len(run.rows) > MAX_ROWS else ""
    numeric = [0, *range(1, 1 + len(study.parameters)), *range(2 + len(study.parameters), len(header))]
    return Table(header, rows, caption, numeric)


def _data_uri(path: str) -> str:
    with open(path, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode("ascii")
