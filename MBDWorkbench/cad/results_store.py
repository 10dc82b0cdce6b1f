"""Results kept with the document, and read back for animation and plots.

A run's results directory (the CSV files, summary.json and model.json of
docs/results-format.md, plus ``placements.json``: the body -> part mapping of
:func:`document_model.document_model`) is zipped into the Simulation's ``ResultsArchive``
(an ``App::PropertyFileIncluded``): FreeCAD stores the file inside the .FCStd, so the
results survive save and reopen. :class:`StoredResults` reads such an archive (SI units).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..solver import accuracy
from ..solver.results import files as fmt
from .archive import check_results_archive, open_archive, read_entry
from .mass_properties import CadError

if TYPE_CHECKING:
    import FreeCAD as App

    from ..solver.results.results import Results

PLACEMENTS = "placements.json"


def summary_lines(summary: dict) -> list[str]:
    """Human-readable summary of a run (list of lines) from a summary dict."""
    lines = ["status: %s" % summary.get("status")]
    if summary.get("message"):
        lines.append("message: %s" % summary["message"])
    lines += [
        "integrator: %s, %d steps, wall time %.3f s"
        % (summary.get("integrator"), summary.get("steps", 0), summary.get("wall_time_s", 0.0)),
        "samples: %d, t = %.6g .. %.6g s"
        % (summary.get("samples", 0), summary.get("t_start") or 0.0, summary.get("t_end") or 0.0),
        "max violation: %.3e m, %.3e rad"
        % (summary.get("max_position_violation_m", 0.0), summary.get("max_angle_violation_rad", 0.0)),
    ]
    if summary.get("integrated_violation"):  # cros: the samples are its state closed onto the constraints
        pos, ang = summary["integrated_violation"]
        lines.append("integrated state before closing the samples: %.3e m, %.3e rad" % (pos, ang))
    lines.append("energy drift (relative): %.3e" % summary.get("energy_drift", 0.0))
    lines.append("accuracy: %s" % accuracy.describe(summary.get("accuracy"), accuracy.why_no_estimate(summary)))
    return lines


def write_archive(
    res: Results, mapping: dict, zip_path: str, progress: Callable[[int, int], None] | None = None
) -> str:
    """Write the results files of ``res`` plus placements.json into the zip ``zip_path``, a chunk
    of rows at a time (memory independent of the run's length); ``progress(rows, rows in all)``."""
    return fmt.write_zip(res, zip_path, {PLACEMENTS: json.dumps(mapping, indent=1)}, progress)


def store_results(
    sim: App.DocumentObject, res: Results, mapping: dict, progress: Callable[[int, int], None] | None = None
) -> StoredResults:
    """Keep ``res`` (solver Results) with the document in Simulation ``sim``; return the
    StoredResults read back from the stored file. ``progress(rows, rows in all)`` while writing."""
    prepared = PreparedResults(res, mapping, "%s_results.zip" % sim.Name, progress)
    return prepared.store(sim)


class PreparedResults:
    """A run's archive written and read back ahead of storing it, off FreeCAD's GUI thread
    (zipping and parsing the CSV files of a long run takes about a second, which would stall
    the event loop); :meth:`store` then only hands the file to the document (GUI thread)."""

    def __init__(
        self, res: Results, mapping: dict, name: str, progress: Callable[[int, int], None] | None = None
    ) -> None:
        self.summary = res.summary()
        self.folder = tempfile.mkdtemp(prefix="mbd_archive_")
        try:
            self.path = write_archive(res, mapping, os.path.join(self.folder, name), progress)
            self.stored = StoredResults(self.path)
        except BaseException:
            self.discard()
            raise

    @classmethod
    def from_archive(cls, path: str) -> PreparedResults:
        """An archive another process wrote alone in its temporary folder (which :meth:`discard`
        removes), read back here (off FreeCAD's GUI thread)."""
        prepared = cls.__new__(cls)
        prepared.folder, prepared.path = os.path.dirname(os.path.abspath(path)), path
        try:
            prepared.stored = StoredResults(path)
        except BaseException:
            prepared.discard()
            raise
        prepared.summary = prepared.stored.summary
        return prepared

    def store(self, sim: App.DocumentObject) -> StoredResults:
        """Keep the archive in Simulation ``sim`` (FreeCAD copies the file into the document)
        and return its StoredResults, now naming the document's copy; the temporary folder is removed."""
        try:
            sim.ResultsArchive = self.path
            sim.ResultsSummary = summary_lines(self.summary)
            self.stored.path = self.stored.source = sim.ResultsArchive
        finally:
            self.discard()
        return self.stored

    def discard(self) -> None:
        """Remove the temporary folder (an archive never stored)."""
        shutil.rmtree(self.folder, ignore_errors=True)


def load_results(sim: App.DocumentObject) -> StoredResults | None:
    """StoredResults of a Simulation, or None when it has none."""
    path = getattr(sim, "ResultsArchive", "") or ""
    if not path or not os.path.isfile(path):
        return None
    return StoredResults(path)


def load_summary(sim: App.DocumentObject) -> dict | None:
    """summary.json of a Simulation's stored results (None without results), read alone (its
    size checked, its CRC too): the tables stay packed, so the GUI thread can call this for a
    long run. CadError when the archive is damaged."""
    path = getattr(sim, "ResultsArchive", "") or ""
    if not path or not os.path.isfile(path):
        return None
    what = f"results archive {path}: corrupt, truncated or too large"
    with open_archive(path, what) as archive:
        data = read_entry(archive, fmt.SUMMARY, what)
    try:
        return json.loads(data.decode("utf-8"))
    except ValueError as exc:
        raise CadError(f"{what}: summary.json is not valid JSON ({exc})") from None


class StoredResults(fmt.ResultTables):
    """Results read from an archive (the one results reader): time series in SI units with
    the accessors of a Results (see docs/results-format.md), ``mapping`` (placements.json) and ``model``
    (model.json as a dict).
    A zip is checked first (:func:`archive.check_results_archive`: entry sizes within
    ``solver.model.limits``, CRCs), so a damaged or oversized archive is refused before it is read."""

    def __init__(self, path: str) -> None:
        if zipfile.is_zipfile(path):
            check_results_archive(path)
        try:
            files = fmt.read_results(path, extras=(PLACEMENTS,))
        except fmt.ResultsFileError as exc:
            raise CadError("results archive %s" % exc) from None
        super().__init__(files.tables, files.summary, path)
        self.path = path
        self.mapping = files.extras[PLACEMENTS]
        self.model = files.model  # model.json as a dict (None when absent)

    def part_placements(self, k: int) -> dict[str, App.Placement]:
        """{part object name: global App.Placement} of the moving bodies' parts at sample k."""
        from .placement import placement_from_pose

        out = {}
        for name, info in self.mapping.get("bodies", {}).items():
            if info.get("grounded") or name not in self.body_names:
                continue
            pose = placement_from_pose(self.position(name)[k] * 1e3, self.orientation(name)[k])
            offset = placement_from_pose(info["offset_position_mm"], info["offset_quaternion"])
            out[info["part"]] = pose.multiply(offset)
        return out
