"""The results format in one place (docs/results-format.md): the file names, the column
headers of each CSV, summary.json and model.json; the writers (:class:`ResultsWriter`, a
folder written while a run goes, checked, locked and renamed into place; a zip) and one
reader (a folder, or a zip of one as the FreeCAD document keeps it) whose
:class:`ResultTables` offers the accessors of :class:`~.results.Results` in SI units.
Writers format a chunk of rows at a time (:func:`tables` of a window of the Results), so
their memory does not grow with the number of samples."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ModelError, SimulationError
from ..model import catalog, limits
from ..model.catalog import COORDINATES
from ..numerics import quaternion
from .contacts import contact_headers
from .events_table import EVENTS, event_texts
from .output_folder import OutputFolder

# A :class:`~.results.Results` (read through its public accessors). Not imported: results.py
# imports this module to write itself, and the format sits below the in-memory results.
Results = Any

TIME = "time [s]"
BODIES, JOINTS, DRIVERS, VIOLATIONS, ENERGY = "bodies.csv", "joints.csv", "drivers.csv", "violations.csv", "energy.csv"
FILES = (BODIES, JOINTS, DRIVERS, VIOLATIONS, ENERGY)
CONTACTS = "contacts.csv"  # written when the model has contact pairs (results.contacts)
SUMMARY, MODEL = "summary.json", "model.json"
DIGITS = 10  # significant digits of the CSV numbers

BODY_QUANTITIES = {
    "position": (("x", "y", "z"), "m"),
    "orientation": (("qw", "qx", "qy", "qz"), "-"),
    "velocity": (("vx", "vy", "vz"), "m/s"),
    "angular_velocity": (("wx", "wy", "wz"), "rad/s"),
}
VIOLATION_UNITS = {"position": "m", "angle": "rad", "velocity": "m/s", "angular_velocity": "rad/s"}
ENERGY_KEYS = ("kinetic", "potential", "total", "work_drivers", "work_nonconservative", "balance")

Table = dict  # {column header: (K,) array}, in file column order


class ResultsFileError(ModelError):
    """A results folder or zip that is missing, damaged or lacks a file or column; ``path`` names it."""


# ----------------------------------------------------------------------------- column headers
def body_headers(body: str, quantity: str) -> list[str]:
    """Headers of one quantity of BODY_QUANTITIES in bodies.csv, e.g. ``crank.x [m]``."""
    names, unit = BODY_QUANTITIES[quantity]
    return [f"{body}.{n} [{unit}]" for n in names]


def reaction_headers(joint: str, frame: str = "joint") -> tuple[list[str], list[str]]:
    """Force [N] and torque [N m] headers in joints.csv: joint frame, or global axes for any other ``frame``."""
    sfx = "" if frame == "joint" else "_global"
    return [f"{joint}.F{n}{sfx} [N]" for n in "xyz"], [f"{joint}.T{n}{sfx} [N m]" for n in "xyz"]


def magnitude_headers(joint: str) -> list[str]:
    """Headers of |F| [N] and |T| [N m] (joint frame) in joints.csv."""
    return [f"{joint}.F_magnitude [N]", f"{joint}.T_magnitude [N m]"]


def coupling_header(joint: str) -> str:
    """Header of a coupler joint's coupling force [N] in joints.csv (its row's multiplier; docs/model-format.md)."""
    return f"{joint}.coupling_force [N]"


def coordinate_headers(joint: str, coordinate: str) -> tuple[str, str]:
    """Headers of a joint coordinate (a key of catalog.COORDINATES) and of its rate in
    joints.csv, e.g. ``hinge.angle [rad]`` and ``hinge.angle_rate [rad/s]``."""
    c = COORDINATES[coordinate]
    return f"{joint}.{c.name} [{c.unit}]", f"{joint}.{c.name}_rate [{c.rate_unit}]"


def joint_effort_headers(joint: str, coordinate: str) -> tuple[str, str]:
    """Headers of the end stops' and the viscous damping's effort on a limited or damped joint
    coordinate in joints.csv, e.g. ``hinge.angle_stop [N m]`` and ``hinge.angle_damping [N m]``."""
    unit = catalog.EFFORT_UNITS["torque" if COORDINATES[coordinate].unit == "rad" else "force"]
    return f"{joint}.{coordinate}_stop [{unit}]", f"{joint}.{coordinate}_damping [{unit}]"


def friction_headers(joint: str, joint_type: str) -> tuple[list[str], list[str]]:
    """Headers of a joint's friction in joints.csv (docs/joint-friction.md): its efforts, one per
    channel (``J.angle_friction [N m]``, ``J.displacement_friction [N]``; spherical
    ``J.friction_Tx [N m]``, ...), then ``J.friction_normal [N]``, ``J.friction_state [-]``
    (1 stick, 0 slip) and ``J.friction_power [W]``."""
    efforts = {
        "revolute": [f"{joint}.angle_friction [N m]"],
        "cylindrical": [f"{joint}.angle_friction [N m]", f"{joint}.displacement_friction [N]"],
        "prismatic": [f"{joint}.displacement_friction [N]"],
        "spherical": [f"{joint}.friction_T{n} [N m]" for n in "xyz"],
    }[joint_type]
    return efforts, [f"{joint}.friction_normal [N]", f"{joint}.friction_state [-]", f"{joint}.friction_power [W]"]


def effort_unit(driver_type: str) -> str:
    """Unit of a driver's effort, from its record (catalog.DRIVERS): 'N m' rotational, 'N' linear."""
    return catalog.DRIVERS[driver_type].effort_unit


def effort_header(driver: str, unit: str) -> str:
    """Header of a driver's effort in drivers.csv."""
    return f"{driver}.effort [{unit}]"


def power_header(driver: str) -> str:
    """Header of a driver's power [W] in drivers.csv."""
    return f"{driver}.power [W]"


def violation_headers(name: str) -> dict[str, str]:
    """{position, angle, velocity, angular_velocity: header} of a joint or driver in violations.csv."""
    return {k: f"{name}.{k} [{u}]" for k, u in VIOLATION_UNITS.items()}


def energy_headers() -> dict[str, str]:
    """{ENERGY_KEYS item: header [J]} of energy.csv."""
    return {k: f"{k} [J]" for k in ENERGY_KEYS}


# ----------------------------------------------------------------------------- tables of a Results
def tables(res: Results) -> dict[str, Table]:
    """Every CSV of a Results (full precision): {file name: {header: (K,) array}}. A window of a
    Results (``res.window(start, stop)``) gives the rows of those samples."""
    t = res.t
    return {name: _TABLES[name](res, t) for name in table_names(res)}


def table_names(res: Results) -> tuple[str, ...]:
    """The CSV files of a Results: FILES, and contacts.csv when its model has contact pairs."""
    return FILES + ((CONTACTS,) if getattr(res, "contact_names", None) else ())


def _body_table(res: Results, t: np.ndarray) -> Table:
    table = {TIME: t}
    for b in res.body_names:
        for quantity in BODY_QUANTITIES:
            table.update(zip(body_headers(b, quantity), getattr(res, quantity)(b).T))
    return table


def _joint_table(res: Results, t: np.ndarray) -> Table:
    table = {TIME: t}
    for j in res.joint_names:
        for frame in ("joint", "global"):
            for headers, values in zip(reaction_headers(j, frame), res.reaction(j, frame)):
                table.update(zip(headers, values.T))
        table.update(zip(magnitude_headers(j), (np.linalg.norm(v, axis=1) for v in res.reaction(j))))
        if res.is_coupler(j):
            table[coupling_header(j)] = res.coupling_force(j)
        values, rates = res.joint_coordinate(j), res.joint_coordinate_rate(j)
        for c, name in enumerate(res.joint_coordinate_names(j)):
            value_header, rate_header = coordinate_headers(j, name)
            table[value_header], table[rate_header] = values[:, c], rates[:, c]
        stop, damping = res.joint_stop_effort(j), res.joint_damping_effort(j)
        for c, name in enumerate(res.joint_coordinate_names(j)):
            if name in res.limited_coordinates(j):
                table.update(zip(joint_effort_headers(j, name), (stop[:, c], damping[:, c])))
        if j in res.friction_joints():
            f = res.joint_friction(j)
            efforts, others = friction_headers(j, res.model.joints[res.joint_names.index(j)].type)
            table.update(zip(efforts, f["effort"].T))
            table.update(zip(others, (f["normal"], f["state"], f["power"])))
    return table


def _driver_table(res: Results, t: np.ndarray) -> Table:
    table = {TIME: t}
    for d, drv in zip(res.driver_names, res.model.drivers):
        table[effort_header(d, effort_unit(drv.type))] = res.driver_effort(d)
        table[power_header(d)] = res.driver_power(d)
    return table


def _violation_table(res: Results, t: np.ndarray) -> Table:
    table = {TIME: t}
    for name in res.joint_names + res.driver_names:
        v = res.violation(name)
        table.update((h, v[k]) for k, h in violation_headers(name).items())
    return table


def _energy_table(res: Results, t: np.ndarray) -> Table:
    e = res.energy()
    return {TIME: t, **{h: e[k] for k, h in energy_headers().items()}}


def _contact_table(res: Results, t: np.ndarray) -> Table:
    table = {TIME: t}
    for pair in res.contact_names:
        table.update(zip(contact_headers(pair), res.contact(pair).T))
    return table


_TABLES = {
    BODIES: _body_table,
    JOINTS: _joint_table,
    DRIVERS: _driver_table,
    VIOLATIONS: _violation_table,
    ENERGY: _energy_table,
    CONTACTS: _contact_table,
}


def as_stored(tables_: dict[str, Table]) -> dict[str, Table]:
    """The tables rounded to DIGITS significant digits: exactly what a reader gets back from the files."""
    return {
        name: {h: np.array([f"{v:.{DIGITS}g}" for v in col], dtype=float) for h, col in table.items()}
        for name, table in tables_.items()
    }


def summary_document(res: Results) -> dict:
    """summary.json of a Results: its summary plus the list of files."""
    summary = res.summary()
    summary["files"] = list(table_names(res)) + [MODEL] + list(event_texts(summary))
    return summary


# ----------------------------------------------------------------------------- writing
CHUNK_VALUES = limits.CHUNK_VALUES  # numbers per chunk of CSV rows: writing holds ~20 MB, whatever the run's length

# What a results folder holds: the only names an existing folder may hold to be replaced with overwrite.
RESULT_NAMES = (*FILES, SUMMARY, MODEL)  # every results folder's files (plus contacts.csv, events.csv)


def header_text(table: Table) -> str:
    """The header row of a CSV (quoted where a name needs it)."""
    out = io.StringIO(newline="")
    csv.writer(out).writerow(list(table))
    return out.getvalue()


def rows_text(table: Table) -> str:
    """The rows of a CSV: the columns zipped into lines of DIGITS significant digits."""
    columns = list(table.values())
    if not columns or not len(columns[0]):
        return ""
    data = np.column_stack([np.asarray(c, dtype=float) for c in columns])
    line = ",".join([f"%.{DIGITS}g"] * data.shape[1]) + "\r\n"
    return "".join([line % tuple(row) for row in data.tolist()])


def csv_text(table: Table) -> str:
    """A CSV: one header row, then the columns zipped into rows of DIGITS significant digits."""
    return header_text(table) + rows_text(table)


def write_csv(path: str, table: Table) -> str:
    """Write one table as a CSV file; returns the path."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write(csv_text(table))
    return path


def chunk_samples(res: Results) -> int:
    """Samples per chunk of rows: about CHUNK_VALUES numbers over all the CSVs."""
    width = sum(len(table) for table in tables(res.window(0, min(1, len(res)))).values())
    return max(1, CHUNK_VALUES // width)


class ResultsWriteError(SimulationError):
    """The results could not be written (disk full, I/O error): the temporary folder is removed
    and the old results folder kept. ``path`` names the results folder; ``results`` holds the
    in-memory results of the run, if any."""

    def __init__(self, path: str, error: OSError, results: object | None = None) -> None:
        self.path = path
        super().__init__(f"results could not be written to {path}: {error.strerror or error}", results=results)


class ResultsWriter:
    """Writes the results folder of one run while it runs (docs/results-format.md, "Writing
    results"). Created before the run: the folder is checked and locked (OutputTargetError,
    a ModelError, if it may not be written). :meth:`append` streams the new samples into the
    CSVs of a temporary folder beside the target, a chunk of rows at a time; :meth:`commit`
    writes the rest and summary.json and renames the folder into place; :meth:`abort` drops it.
    An OSError while writing aborts and raises ResultsWriteError."""

    def __init__(self, directory: str | os.PathLike, overwrite: bool = False) -> None:
        self.folder = OutputFolder(directory, overwrite, (*RESULT_NAMES, CONTACTS, EVENTS), "results")
        self.path = self.folder.target
        self.written = 0  # samples in the files
        self.chunk = 0  # samples per chunk (set at the first write)
        self._files: dict[str, io.BufferedWriter] = {}

    @property
    def closed(self) -> bool:
        """True once committed or aborted."""
        return self.folder.closed

    def append(self, res: Results) -> None:
        """Write the samples not yet written when a chunk of them is due (and the first
        sample at once, so the files exist from the start of the run)."""
        pending = len(res) - self.written
        if not self.closed and pending > 0 and (not self.written or pending >= self.chunk):
            self._write_upto(res, len(res))

    def write_all(self, res: Results, progress: Callable[[int, int], None] | None = None) -> None:
        """Write every sample not yet written, chunk by chunk; ``progress(written, samples)`` after each."""
        while not self.closed and (not self._files or self.written < len(res)):
            self._write_upto(res, min(len(res), self.written + max(1, self.chunk)))
            if progress is not None:
                progress(self.written, len(res))

    def commit(self, res: Results) -> str:
        """Write the remaining samples, summary.json (the run's status as it is now) and rename
        the folder into place; returns its path. Nothing is done after a failed write (aborted)."""
        if self.closed:
            return self.path
        try:
            self.write_all(res)
            with self._guard(res):
                summary = summary_document(res)
                texts = {SUMMARY: json.dumps(summary, indent=2, default=float), **event_texts(summary)}
                for name, text in texts.items():
                    self._files[name] = open(os.path.join(self.folder.temp, name), "wb")
                    self._files[name].write(text.encode())
                self._close_files(sync=True)
                self.folder.commit()
        except BaseException:
            self.abort()  # the old folder stays
            raise
        return self.path

    def abort(self) -> None:
        """Drop the temporary folder and release the lock; the old folder (if any) is left as it was."""
        self._close_files(sync=False)
        self.folder.abort()

    # ------------------------------------------------------------------ internals
    def _write_upto(self, res: Results, stop: int) -> None:
        """Write samples [written, stop) into every CSV, all or none of them (a chunk cut by
        an exception is taken back, so a later commit writes it whole)."""
        with self._guard(res):
            if not self._files:
                self._start(res)
            window = res.window(self.written, stop)
            marks = {name: f.tell() for name, f in self._files.items()}
            try:
                for name, table in tables(window).items():
                    self._files[name].write(rows_text(table).encode())
                for f in self._files.values():
                    f.flush()
            except BaseException:
                self._take_back(marks)
                raise
            self.written = stop

    def _start(self, res: Results) -> None:
        """model.json and the CSV headers."""
        with open(os.path.join(self.folder.temp, MODEL), "wb") as f:
            f.write(json.dumps(res.model.to_dict(), indent=2).encode())
        first, files = tables(res.window(0, min(1, len(res)))), {}
        for name in first:
            files[name] = open(os.path.join(self.folder.temp, name), "wb")
            files[name].write(header_text(first[name]).encode())
        self._files, self.chunk = files, chunk_samples(res)

    def _take_back(self, marks: dict[str, int]) -> None:
        for name, f in self._files.items():
            try:
                f.seek(marks[name])
                f.truncate()
            except OSError:
                pass

    @contextlib.contextmanager
    def _guard(self, res: Results) -> Iterator[None]:
        try:
            yield
        except OSError as exc:
            self.abort()
            raise ResultsWriteError(self.path, exc, res) from exc

    def _close_files(self, sync: bool) -> None:
        """Close the open files; with ``sync`` flush them to disk first (OSError raised)."""
        files, self._files = self._files, {}
        try:
            if sync:
                for f in files.values():
                    f.flush()
                    os.fsync(f.fileno())
        finally:
            for f in files.values():
                with contextlib.suppress(OSError):
                    f.close()


def write_results(
    res: Results,
    directory: str | os.PathLike,
    overwrite: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> str:
    """Write every file of a Results into the folder ``directory`` as a whole (ResultsWriter:
    checked, locked, written beside it and renamed into place; an existing results folder is
    replaced unless ``overwrite`` is False); ``progress(written, samples)`` after each chunk.
    Returns the folder's path."""
    writer = ResultsWriter(directory, overwrite)
    try:
        writer.write_all(res, progress)
        return writer.commit(res)
    finally:
        writer.abort()  # nothing left to drop after a commit


def write_zip(
    res: Results,
    zip_path: str,
    extras: dict[str, str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> str:
    """Write the results of ``res`` plus ``extras`` ({file name: text}) into one zip file (written
    beside it, then renamed onto it); ``progress(rows, rows in all)`` after each chunk. Returns its path."""
    texts = {MODEL: json.dumps(res.model.to_dict(), indent=2), **(extras or {})}
    summary = summary_document(res)
    texts.update({SUMMARY: json.dumps(summary, indent=2, default=float), **event_texts(summary)})
    folder, name = os.path.split(os.path.abspath(zip_path))
    fd, partial = tempfile.mkstemp(prefix=f".{name}.", suffix=".partial", dir=folder)
    os.close(fd)
    done, total = 0, len(table_names(res)) * len(res)
    try:
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
            for entry in sorted([*table_names(res), *texts]):
                if entry in texts:
                    z.writestr(entry, texts[entry])
                    continue
                with z.open(entry, "w", force_zip64=True) as f:
                    for rows in _csv_chunks(res, entry):
                        f.write(rows[1].encode())
                        done += rows[0]
                        if progress is not None:
                            progress(done, total)
        os.replace(partial, zip_path)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return zip_path


def _csv_chunks(res: Results, name: str) -> Iterator[tuple[int, str]]:
    """One CSV of ``res`` as (samples, text) pieces: the header, then a chunk of rows at a time."""
    build, step = _TABLES[name], chunk_samples(res)
    first = res.window(0, min(1, len(res)))
    yield 0, header_text(build(first, first.t))
    for start in range(0, len(res), step):
        window = res.window(start, min(len(res), start + step))
        yield len(window), rows_text(build(window, window.t))


# ----------------------------------------------------------------------------- reading
@dataclass
class ResultsFiles:
    """What a results folder or zip holds: ``tables`` {CSV file: Table}, ``summary``
    (summary.json), ``model`` (model.json as a dict, None when absent), ``extras``
    {file name: parsed JSON} of the extra files asked for, and ``source`` (the path read)."""

    source: str
    tables: dict
    summary: dict
    model: dict | None
    extras: dict


def read_results(path: str | os.PathLike, extras: tuple[str, ...] = ()) -> ResultsFiles:
    """Read a results folder or a zip of one (plus the JSON files named in ``extras``).
    Raises ResultsFileError naming the missing, damaged or truncated file."""
    path = os.fspath(path)
    source = _Source(path)
    try:
        summary = _read_json(source, SUMMARY, "summary.json is missing: not a results directory")
        model = _read_json(source, MODEL, None)
        tables_ = {name: _read_table(source, name) for name in (*FILES, CONTACTS) if name in FILES or source.has(name)}
        more = {name: _read_json(source, name, "results file is missing") for name in extras}
    except zipfile.BadZipFile as exc:
        raise ResultsFileError(path, f"damaged results archive: {exc}") from None
    finally:
        source.close()
    return ResultsFiles(path, tables_, summary, model, more)


class _Source:
    """The files of a results folder or zip, by name."""

    def __init__(self, path: str) -> None:
        self.path, self.zip = path, None
        if os.path.isdir(path):
            return
        if not os.path.exists(path):
            raise ResultsFileError(path, "results directory does not exist")
        try:
            self.zip = zipfile.ZipFile(path)
        except zipfile.BadZipFile as exc:
            raise ResultsFileError(path, f"not a results directory nor a zip of one: {exc}") from None

    def where(self, name: str) -> str:
        return os.path.join(self.path, name)

    def has(self, name: str) -> bool:
        return name in self.zip.namelist() if self.zip else os.path.isfile(self.where(name))

    def text(self, name: str) -> str:
        if self.zip:
            return self.zip.read(name).decode("utf-8")
        with open(self.where(name), newline="", encoding="utf-8") as f:
            return f.read()

    def close(self) -> None:
        if self.zip:
            self.zip.close()


def _read_json(source: _Source, name: str, missing: str | None):
    """Parsed JSON file; None when absent and ``missing`` is None, else ResultsFileError(missing)."""
    if not source.has(name):
        if missing is None:
            return None
        raise ResultsFileError(source.where(name), missing)
    try:
        return json.loads(source.text(name))
    except json.JSONDecodeError as e:
        raise ResultsFileError(source.where(name), f"not valid JSON (truncated file?): {e}") from None


def _read_table(source: _Source, name: str) -> Table:
    if not source.has(name):
        raise ResultsFileError(source.where(name), "results file is missing")
    return parse_csv(source.text(name), source.where(name))


def read_csv(path: str) -> Table:
    """Read one CSV file into {column header: numpy array} (ResultsFileError if missing, empty or ragged)."""
    if not os.path.isfile(path):
        raise ResultsFileError(path, "results file is missing")
    with open(path, newline="", encoding="utf-8") as f:
        return parse_csv(f.read(), path)


def parse_csv(text: str, path: str) -> Table:
    """{column header: numpy array} of a CSV text; ResultsFileError naming ``path`` if it is
    empty, ragged or holds something other than numbers."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        raise ResultsFileError(path, "results file is empty")
    header, data = rows[0], rows[1:]
    for k, row in enumerate(data):
        if len(row) != len(header):
            raise ResultsFileError(
                path, f"line {k + 2} has {len(row)} values, the header has {len(header)} (truncated file?)"
            )
    try:
        arr = np.array(data, dtype=float).reshape(len(data), len(header))
    except ValueError as e:
        raise ResultsFileError(path, f"cannot read the numbers (truncated or corrupted file?): {e}") from None
    return {h: arr[:, c] for c, h in enumerate(header)}


# ----------------------------------------------------------------------------- accessors
class ResultTables:
    """Sampled results held as tables ({CSV file: Table}, SI units) with the accessors of a
    :class:`~.results.Results`; ``source`` names where they came from (for error messages).
    Names of bodies, joints and drivers come from the summary."""

    error = ResultsFileError  # raised (path, message) for a missing column

    def __init__(self, tables_: dict[str, Table], summary: dict, source: str) -> None:
        self.tables, self.summary, self.source = tables_, summary, source
        self.t = self.col(BODIES, TIME)
        self.body_names = list(summary.get("bodies", []))
        self.joint_names = list(summary.get("joints", []))
        self.driver_names = list(summary.get("drivers", []))
        self.accuracy = summary.get("accuracy")  # the accuracy record (docs/results-format.md), None without one

    def __len__(self) -> int:
        return len(self.t)

    def col(self, file: str, header: str) -> np.ndarray:
        """One column (K,); ``error`` naming the file and the column if it is absent."""
        try:
            return self.tables[file][header]
        except KeyError:
            raise self.error(
                os.path.join(self.source, file), f"column '{header}' is missing (results written for another model?)"
            ) from None

    def _cols(self, file: str, headers: list[str]) -> np.ndarray:
        return np.column_stack([self.col(file, h) for h in headers])

    def position(self, body: str) -> np.ndarray:
        """CoG position [m], global, (K, 3)."""
        return self._cols(BODIES, body_headers(body, "position"))

    def orientation(self, body: str) -> np.ndarray:
        """Unit quaternions [qw, qx, qy, qz] of the body's own frame, (K, 4)."""
        q = self._cols(BODIES, body_headers(body, "orientation"))
        return q / np.linalg.norm(q, axis=1, keepdims=True)

    def rotation(self, body: str) -> np.ndarray:
        """Rotation matrices of the body's own frame, (K, 3, 3)."""
        return quaternion.matrices(self.orientation(body))

    def velocity(self, body: str) -> np.ndarray:
        """CoG velocity [m/s], global, (K, 3)."""
        return self._cols(BODIES, body_headers(body, "velocity"))

    def angular_velocity(self, body: str) -> np.ndarray:
        """Angular velocity [rad/s], global axes, (K, 3)."""
        return self._cols(BODIES, body_headers(body, "angular_velocity"))

    def reaction(self, joint: str, frame: str = "joint") -> tuple[np.ndarray, np.ndarray]:
        """Force [N] and torque [N m] (about the joint origin) that body_i exerts on body_j,
        in the joint frame carried by body_i or in 'global' axes: two (K, 3) arrays."""
        F, T = reaction_headers(joint, frame)
        return self._cols(JOINTS, F), self._cols(JOINTS, T)

    def is_coupler(self, joint: str) -> bool:
        """True when joints.csv has the joint's coupling force (a coupler joint)."""
        return coupling_header(joint) in self.tables[JOINTS]

    def coupling_force(self, joint: str) -> np.ndarray:
        """Coupling force [N] of a coupler joint (gear, belt, rack_pinion, screw), (K,)."""
        return self.col(JOINTS, coupling_header(joint))

    def joint_coordinate_names(self, joint: str) -> tuple[str, ...]:
        """Names of the joint's coordinates (keys of catalog.COORDINATES) in joints.csv;
        empty for a joint type without coordinates or results written before they existed."""
        return tuple(c for c in COORDINATES if coordinate_headers(joint, c)[0] in self.tables[JOINTS])

    def joint_coordinate(self, joint: str) -> np.ndarray:
        """Relative coordinates of a joint [rad or m] (angles unwrapped), (K, n), n =
        len(joint_coordinate_names(joint))."""
        return self._coordinate_cols(joint, 0)

    def joint_coordinate_rate(self, joint: str) -> np.ndarray:
        """Rates of the joint's coordinates [rad/s or m/s], (K, n)."""
        return self._coordinate_cols(joint, 1)

    def _coordinate_cols(self, joint: str, which: int) -> np.ndarray:
        headers = [coordinate_headers(joint, c)[which] for c in self.joint_coordinate_names(joint)]
        return self._cols(JOINTS, headers) if headers else np.zeros((len(self.t), 0))

    def joint_stop_effort(self, joint: str) -> np.ndarray:
        """Effort of the end stops on each joint coordinate [N m or N], (K, n); 0 where joints.csv
        has none (no limits, or results written before these columns existed)."""
        return self._joint_effort_cols(joint, 0)

    def joint_damping_effort(self, joint: str) -> np.ndarray:
        """Effort of the viscous joint damping on each joint coordinate [N m or N], (K, n)."""
        return self._joint_effort_cols(joint, 1)

    def _joint_effort_cols(self, joint: str, which: int) -> np.ndarray:
        names = self.joint_coordinate_names(joint)
        out = np.zeros((len(self.t), len(names)))
        for c, name in enumerate(names):
            header = joint_effort_headers(joint, name)[which]
            if header in self.tables[JOINTS]:
                out[:, c] = self.col(JOINTS, header)
        return out

    def driver_unit(self, driver: str) -> str:
        """Unit of the driver's effort column: 'N m' for a rotational driver, 'N' for a linear one."""
        units = [u for u in catalog.EFFORT_UNITS.values() if effort_header(driver, u) in self.tables[DRIVERS]]
        return units[0] if units else catalog.EFFORT_UNITS["force"]

    def driver_effort(self, driver: str) -> np.ndarray:
        """Driver torque [N m] or force [N] applied to body_j, (K,)."""
        return self.col(DRIVERS, effort_header(driver, self.driver_unit(driver)))

    def driver_power(self, driver: str) -> np.ndarray:
        """Mechanical power [W] delivered by the driver, (K,)."""
        return self.col(DRIVERS, power_header(driver))

    def violation(self, name: str) -> dict[str, np.ndarray]:
        """Max |violation| of a joint's or driver's equations per sample: dict of
        position [m], angle [rad], velocity [m/s], angular_velocity [rad/s]."""
        return {k: self.col(VIOLATIONS, h) for k, h in violation_headers(name).items()}

    def energy(self) -> dict[str, np.ndarray]:
        """Dict of ENERGY_KEYS [J] (balance = total - total(0) - works), each (K,)."""
        return {k: self.col(ENERGY, h) for k, h in energy_headers().items()}

    def index_at(self, t: float) -> int:
        """Index of the sample nearest to time ``t`` [s] (the first at or after it)."""
        return int(np.clip(np.searchsorted(self.t, t - 1e-12), 0, len(self.t) - 1)) if len(self.t) else 0
