"""Motion-study reports: a self-contained HTML file and a PDF with the same content,
JSON/CSV exports and a stick-figure animation, from a Results object or a results
directory or zip (no FreeCAD needed).

    from MBDWorkbench.report import write_report, load_results_dir
    write_report(results, "report_dir", points=[("crank", [0.05, 0, 0])])
    write_report("slider_crank_results", "report_dir")          # from a saved run
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence

from ..solver.model import Model
from ..solver.results.results import Results
from . import derived, document, export
from .animation import View, have_pillow, write_gif, write_strip
from .data import ReportData, ReportError, from_results, load_results_dir
from .derived import UserPoint
from .free_body import free_body_blocks
from .html_writer import write_html
from .pdf_writer import write_pdf
from .structural import structural_blocks

__all__ = ["write_report", "load_results_dir", "report_files", "ReportData", "ReportError"]


def report_files(points: bool = False, animation: str | None = "auto") -> list[str]:
    """Names of the files write_report creates (same order as its returned paths)."""
    names = ["report.html", "report.pdf", "timeseries.json", "peak_loads.csv"]
    if points:
        names.append("points.csv")
    kind = _animation_kind(animation)
    if kind:
        names.append("motion.gif" if kind == "gif" else "motion_strip.png")
    return names


def _animation_kind(animation):
    if animation in (None, False, "none"):
        return None
    if animation == "auto":
        return "gif" if have_pillow() else "png"
    if animation not in ("gif", "png"):
        raise ReportError("animation", f"must be 'auto', 'gif', 'png' or None, got {animation!r}")
    if animation == "gif" and not have_pillow():
        raise ReportError("animation", "a GIF needs Pillow (Debian package python3-pil); use 'png'")
    return animation


def _as_data(results, model):
    if isinstance(results, ReportData):
        return results
    if isinstance(results, (str, os.PathLike)):
        return load_results_dir(results, model)
    if isinstance(results, Results):
        return from_results(results)
    raise ReportError("results", f"expected Results, ReportData or a results directory, got {type(results).__name__}")


def write_report(
    results: Results | ReportData | str | os.PathLike,
    directory: str | os.PathLike,
    points: Sequence[UserPoint] | None = None,
    overwrite: bool = False,
    view: View = None,
    model: Model | dict | str | None = None,
    animation: str | None = "auto",
    structural: Sequence[dict] = (),
) -> list[str]:
    """Write the report of a run into ``directory``; returns the list of written paths.

    results: a Results, a ReportData or a results directory or zip (then ``model`` may give
    the model; default its model.json). points: [(body, [x, y, z] m in the body
    frame about its CoG), ...] whose path, velocity and acceleration are plotted.
    view: None (best-fitting plane), 'xy', 'xz', 'yz', ... or a normal vector, for the
    stick figures. animation: 'auto' (GIF if Pillow is available, else a PNG strip),
    'gif', 'png' or None. structural: fem-loads summaries (docs/fem.md) for a "Structural
    check" section. Existing files are never replaced unless ``overwrite``;
    every input is checked before anything is written."""
    data = _as_data(results, model)
    pts = derived.check_points(data, points)
    names = report_files(bool(pts), animation)
    directory = os.fspath(directory)
    targets = [os.path.join(directory, n) for n in names]
    _check_targets(directory, targets, overwrite)
    blocks = document.build(data, pts, view, names, free_body_blocks(data, view) + structural_blocks(structural))
    os.makedirs(directory, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".report-", dir=directory)
    try:
        _render(data, pts, view, blocks, names, tmp)
        for n, target in zip(names, targets):
            if not overwrite and os.path.exists(target):
                raise ReportError(target, "appeared while the report was written; not replaced")
            os.replace(os.path.join(tmp, n), target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return targets


def _check_targets(directory, targets, overwrite):
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise ReportError(directory, "exists and is not a directory")
    if overwrite:
        return
    for t in targets:
        if os.path.exists(t):
            raise ReportError(t, "already exists; not overwritten (pass overwrite=True to replace it)")


def _render(data, pts, view, blocks, names, out):
    title = f"Motion-study report: {data.model.name}"

    def p(name: str) -> str:
        return os.path.join(out, name)

    write_html(blocks, p("report.html"), title)
    write_pdf(blocks, p("report.pdf"), title)
    export.write_timeseries_json(data, pts, p("timeseries.json"))
    export.write_peaks_csv(derived.peak_loads(data), p("peak_loads.csv"))
    if "points.csv" in names:
        export.write_points_csv(data, pts, p("points.csv"))
    if "motion.gif" in names:
        write_gif(data, p("motion.gif"), view)
    elif "motion_strip.png" in names:
        write_strip(data, p("motion_strip.png"), view)
