"""Results kept with the document, and read back for animation and plots.

A run's results directory (the CSV files, summary.json and model.json of
docs/results-format.md, plus ``placements.json``: the body -> part mapping of
:func:`document_model.document_model`) is zipped into the Simulation's ``ResultsArchive``
(an ``App::PropertyFileIncluded``): FreeCAD stores the file inside the .FCStd, so the
results survive save and reopen. :class:`StoredResults` reads such an archive (SI units).
"""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import tempfile
import zipfile

import numpy as np

from .mass_properties import CadError

CSV_FILES = ("bodies.csv", "joints.csv", "drivers.csv", "violations.csv", "energy.csv")


def summary_lines(summary):
    """Human-readable summary of a run (list of lines) from a summary dict."""
    lines = ["status: %s" % summary.get("status")]
    if summary.get("message"):
        lines.append("message: %s" % summary["message"])
    lines += [
        "integrator: %s, %d steps, wall time %.3f s" % (summary.get("integrator"), summary.get("steps", 0),
                                                        summary.get("wall_time_s", 0.0)),
        "samples: %d, t = %.6g .. %.6g s" % (summary.get("samples", 0), summary.get("t_start") or 0.0,
                                             summary.get("t_end") or 0.0),
        "max violation: %.3e m, %.3e rad" % (summary.get("max_position_violation_m", 0.0),
                                             summary.get("max_angle_violation_rad", 0.0)),
        "energy drift (relative): %.3e" % summary.get("energy_drift", 0.0),
    ]
    return lines


def write_archive(res, mapping, zip_path):
    """Write the results directory of ``res`` plus placements.json into ``zip_path``."""
    tmp = tempfile.mkdtemp(prefix="mbd_results_")
    try:
        res.write(tmp)
        with open(os.path.join(tmp, "placements.json"), "w") as f:
            json.dump(mapping, f, indent=1)
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
            for name in sorted(os.listdir(tmp)):
                z.write(os.path.join(tmp, name), name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return zip_path


def store_results(sim, res, mapping):
    """Keep ``res`` (solver Results) with the document in Simulation ``sim``; return the
    StoredResults read back from the stored file."""
    tmp = tempfile.mkdtemp(prefix="mbd_archive_")
    try:
        path = write_archive(res, mapping, os.path.join(tmp, "%s_results.zip" % sim.Name))
        sim.ResultsArchive = path  # FreeCAD copies the file into the document
        sim.ResultsSummary = summary_lines(res.summary())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return StoredResults(sim.ResultsArchive)


def load_results(sim):
    """StoredResults of a Simulation, or None when it has none."""
    path = getattr(sim, "ResultsArchive", "") or ""
    if not path or not os.path.isfile(path):
        return None
    return StoredResults(path)


def _read_csv(text, name):
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        raise CadError("results archive: %s is empty" % name)
    header, data = rows[0], rows[1:]
    arr = np.array(data, dtype=float).reshape(len(data), len(header))
    return {h: arr[:, c] for c, h in enumerate(header)}


class StoredResults:
    """Results read from an archive: time series in SI units (see docs/results-format.md)."""

    def __init__(self, path):
        self.path = path
        try:
            with zipfile.ZipFile(path) as z:
                names = set(z.namelist())
                missing = [n for n in CSV_FILES + ("summary.json", "placements.json") if n not in names]
                if missing:
                    raise CadError("results archive %s lacks %s" % (path, ", ".join(missing)))
                self.tables = {n: _read_csv(z.read(n).decode(), n) for n in CSV_FILES}
                self.summary = json.loads(z.read("summary.json").decode())
                self.mapping = json.loads(z.read("placements.json").decode())
                self.model_dict = json.loads(z.read("model.json").decode()) if "model.json" in names else {}
        except zipfile.BadZipFile as exc:
            raise CadError("results archive %s is damaged: %s" % (path, exc)) from None
        self.t = self.tables["bodies.csv"]["time [s]"]
        self.body_names = list(self.summary.get("bodies", []))
        self.joint_names = list(self.summary.get("joints", []))
        self.driver_names = list(self.summary.get("drivers", []))

    def __len__(self):
        return len(self.t)

    def _cols(self, table, names):
        data = self.tables[table]
        try:
            return np.column_stack([data[n] for n in names])
        except KeyError as exc:
            raise CadError("results: column %s missing in %s" % (exc, table)) from None

    def position(self, body):
        """CoG position [m], (K, 3)."""
        return self._cols("bodies.csv", ["%s.%s [m]" % (body, c) for c in "xyz"])

    def orientation(self, body):
        """Quaternion [qw, qx, qy, qz], (K, 4)."""
        return self._cols("bodies.csv", ["%s.%s [-]" % (body, c) for c in ("qw", "qx", "qy", "qz")])

    def reaction(self, joint):
        """(force [N], torque [N m]) in the joint frame, each (K, 3)."""
        F = self._cols("joints.csv", ["%s.F%s [N]" % (joint, c) for c in "xyz"])
        T = self._cols("joints.csv", ["%s.T%s [N m]" % (joint, c) for c in "xyz"])
        return F, T

    def driver_unit(self, driver):
        return "N m" if ("%s.effort [N m]" % driver) in self.tables["drivers.csv"] else "N"

    def driver_effort(self, driver):
        """Driver torque [N m] or force [N], (K,)."""
        return self.tables["drivers.csv"]["%s.effort [%s]" % (driver, self.driver_unit(driver))]

    def violation(self, name):
        """dict position [m], angle [rad], velocity [m/s], angular_velocity [rad/s] of a joint/driver."""
        d = self.tables["violations.csv"]
        units = {"position": "m", "angle": "rad", "velocity": "m/s", "angular_velocity": "rad/s"}
        return {k: d["%s.%s [%s]" % (name, k, u)] for k, u in units.items()}

    def energy(self):
        """dict kinetic, potential, total, work_drivers, work_nonconservative, balance [J]."""
        d = self.tables["energy.csv"]
        return {h.split(" [")[0]: v for h, v in d.items() if h != "time [s]"}

    def index_at(self, t):
        """Index of the sample nearest to time ``t`` [s]."""
        return int(np.clip(np.searchsorted(self.t, t - 1e-12), 0, len(self.t) - 1)) if len(self.t) else 0

    def part_placements(self, k):
        """{part object name: global App.Placement} of the moving bodies' parts at sample k."""
        from .document_model import placement_from_pose
        out = {}
        for name, info in self.mapping.get("bodies", {}).items():
            if info.get("grounded") or name not in self.body_names:
                continue
            pose = placement_from_pose(self.position(name)[k] * 1e3, self.orientation(name)[k])
            offset = placement_from_pose(info["offset_position_mm"], info["offset_quaternion"])
            out[info["part"]] = pose.multiply(offset)
        return out
