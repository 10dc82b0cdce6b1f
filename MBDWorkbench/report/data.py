"""What a report needs, read back from a results directory (CSV + summary.json +
model.json, written by ``Results.write``): ``ReportData`` and ``load_results_dir``.

An in-memory ``Results`` goes through the same path (``from_results`` writes it to a
temporary directory first), so a report made right after a run and one made later from
the saved directory show the same numbers.
"""
import json
import os
import tempfile

import numpy as np

from ..solver import quaternion
from ..solver.errors import ModelError
from ..solver.io import FILES, read_csv

TIME = "time [s]"


class ReportError(ModelError):
    """Bad report input or output; ``path`` names the file, directory or field at fault."""


class ReportData:
    """Time series of one run plus its model and summary, with accessors in SI units.

    ``tables[file]`` maps the CSV headers of ``file`` (e.g. ``"crank.x [m]"``) to arrays
    of length K (number of samples)."""

    def __init__(self, model, summary, tables, source):
        self.model = model
        self.summary = summary
        self.tables = tables
        self.source = source
        self.t = tables["bodies.csv"][TIME]
        self.body_names = [b.name for b in model.bodies if not b.grounded]
        self.joint_names = [j.name for j in model.joints]
        self.driver_names = [d.name for d in model.drivers]

    def __len__(self):
        return len(self.t)

    def col(self, file, header):
        """One column; ReportError naming the file and the column if it is absent."""
        try:
            return self.tables[file][header]
        except KeyError:
            raise ReportError(os.path.join(self.source, file),
                              f"column '{header}' is missing (results written for another model?)") from None

    def _vec(self, file, prefix, names, unit):
        return np.column_stack([self.col(file, f"{prefix}.{n} [{unit}]") for n in names])

    # ------------------------------------------------------------------ bodies
    def position(self, body):
        """CoG position [m], global, (K, 3)."""
        return self._vec("bodies.csv", body, "xyz", "m")

    def orientation(self, body):
        """Unit quaternions [qw, qx, qy, qz] of the body's own frame, (K, 4)."""
        q = self._vec("bodies.csv", body, ("qw", "qx", "qy", "qz"), "-")
        return q / np.linalg.norm(q, axis=1, keepdims=True)

    def rotation(self, body):
        """Rotation matrices of the body's own frame, (K, 3, 3)."""
        return quaternion.matrices(self.orientation(body))

    def velocity(self, body):
        """CoG velocity [m/s], global, (K, 3)."""
        return self._vec("bodies.csv", body, ("vx", "vy", "vz"), "m/s")

    def angular_velocity(self, body):
        """Angular velocity [rad/s], global axes, (K, 3)."""
        return self._vec("bodies.csv", body, ("wx", "wy", "wz"), "rad/s")

    # ------------------------------------------------------------------ joints, drivers
    def reaction(self, joint, frame="joint"):
        """Force [N] and torque [N m] (about the joint origin) that body_i exerts on
        body_j, in the joint frame of body_i or in 'global' axes: two (K, 3) arrays."""
        sfx = "" if frame == "joint" else "_global"
        F = np.column_stack([self.col("joints.csv", f"{joint}.F{n}{sfx} [N]") for n in "xyz"])
        T = np.column_stack([self.col("joints.csv", f"{joint}.T{n}{sfx} [N m]") for n in "xyz"])
        return F, T

    def driver_unit(self, driver):
        """'N m' for a rotational driver, 'N' for a linear one."""
        return "N m" if self.model.drivers[self.driver_names.index(driver)].type == "rotational" else "N"

    def effort(self, driver):
        """Driver torque [N m] or force [N] applied to body_j, (K,)."""
        return self.col("drivers.csv", f"{driver}.effort [{self.driver_unit(driver)}]")

    def power(self, driver):
        """Mechanical power [W] delivered by the driver, (K,)."""
        return self.col("drivers.csv", f"{driver}.power [W]")

    def violation(self, name):
        """Max |violation| of a joint's or driver's equations per sample: dict of
        position [m], angle [rad], velocity [m/s], angular_velocity [rad/s]."""
        units = (("position", "m"), ("angle", "rad"), ("velocity", "m/s"), ("angular_velocity", "rad/s"))
        return {k: self.col("violations.csv", f"{name}.{k} [{u}]") for k, u in units}

    def energy(self):
        """Dict of kinetic, potential, total, work_drivers, work_nonconservative and
        balance = total - total(0) - works [J], each (K,)."""
        keys = ("kinetic", "potential", "total", "work_drivers", "work_nonconservative", "balance")
        return {k: self.col("energy.csv", f"{k} [J]") for k in keys}


# ----------------------------------------------------------------------------- loading
def load_results_dir(directory, model=None):
    """Read a results directory into ReportData.

    ``model`` (a Model, a model dict or a JSON path) defaults to the directory's
    model.json; if given it must describe the same mechanism as model.json and the CSV
    columns (bodies, joints, forces, drivers, gravity; settings may differ). Raises
    ReportError naming the missing, truncated or mismatching file or field."""
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        raise ReportError(directory, "results directory does not exist")
    summary = _read_json(os.path.join(directory, "summary.json"), "summary.json is missing: not a results directory")
    saved = _saved_model(directory)
    if model is None:
        if saved is None:
            raise ReportError(os.path.join(directory, "model.json"), "missing; pass the model explicitly")
        model = saved
    else:
        model = _as_model(model)
        if saved is not None:
            _compare_models(model, saved, os.path.join(directory, "model.json"))
    tables = {f: _read_table(os.path.join(directory, f)) for f in FILES}
    _check_consistency(model, summary, tables, directory)
    data = ReportData(model, summary, tables, directory)
    _check_columns(data, directory)
    return data


def from_results(results):
    """ReportData of an in-memory Results (written to a temporary directory and read back)."""
    if not len(results):
        raise ReportError("results", "the run has no samples: nothing to report")
    with tempfile.TemporaryDirectory(prefix="mbd_report_") as tmp:
        results.write(tmp)
        data = load_results_dir(tmp)
    data.source = "in-memory results"
    return data


def _read_json(path, missing):
    if not os.path.isfile(path):
        raise ReportError(path, missing)
    try:
        with open(path) as f:
            return json.load(f)
    except json.JSONDecodeError as e:
        raise ReportError(path, f"not valid JSON (truncated file?): {e}") from None


def _saved_model(directory):
    path = os.path.join(directory, "model.json")
    if not os.path.isfile(path):
        return None
    from ..solver.model import from_dict
    data = _read_json(path, "")
    try:
        return from_dict(data)
    except ModelError as e:
        raise ReportError(path, f"invalid model: {e}") from None


def _as_model(model):
    from ..solver.model import Model, from_dict, load
    if isinstance(model, Model):
        return model
    if isinstance(model, dict):
        return from_dict(model)
    if isinstance(model, (str, os.PathLike)):
        if not os.path.isfile(model):
            raise ReportError(os.fspath(model), "model file not found")
        return load(model)
    raise ReportError("model", f"expected a Model, a dict or a JSON path, got {type(model).__name__}")


def _compare_models(model, saved, path):
    """Raise if ``model`` and the saved model differ in anything but settings/name."""
    a, b = model.to_dict(), saved.to_dict()
    for key in ("bodies", "joints", "forces", "drivers", "gravity"):
        where = _first_difference(a.get(key), b.get(key), key)
        if where is not None:
            raise ReportError(path, f"the given model does not match the model the results were computed "
                                    f"with: {where}")


def _first_difference(x, y, path):
    """JSON path and values of the first difference between two JSON-like values."""
    if isinstance(x, dict) and isinstance(y, dict):
        for k in list(x) + [k for k in y if k not in x]:
            d = _first_difference(x.get(k), y.get(k), f"{path}.{k}")
            if d is not None:
                return d
        return None
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for k, (u, v) in enumerate(zip(x, y)):
            d = _first_difference(u, v, _item_path(path, k, u))
            if d is not None:
                return d
        return None
    if isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool):
        return None if abs(x - y) <= 1e-12 * max(1.0, abs(x), abs(y)) else f"{path} is {x!r}, results have {y!r}"
    if isinstance(x, list) and isinstance(y, list):
        return f"{path} has {len(x)} entries, results have {len(y)}"
    return None if x == y else f"{path} is {x!r}, results have {y!r}"


def _item_path(path, k, item):
    name = item.get("name") if isinstance(item, dict) else None
    return f"{path}[{k}]" + (f" ('{name}')" if name else "")


def _read_table(path):
    try:
        return read_csv(path)
    except ModelError as e:
        raise ReportError(e.path, e.message) from None
    except ValueError as e:
        raise ReportError(path, f"cannot read the numbers (truncated or corrupted file?): {e}") from None


def _check_consistency(model, summary, tables, directory):
    """Same bodies/joints/drivers in model and summary; equal, complete sample times."""
    lists = (("bodies", [b.name for b in model.bodies if not b.grounded]),
             ("joints", [j.name for j in model.joints]), ("drivers", [d.name for d in model.drivers]))
    for key, names in lists:
        have = summary.get(key)
        if have is not None and list(have) != names:
            raise ReportError(os.path.join(directory, "summary.json"),
                              f"the model does not match the results: model {key} {names}, results {key} {list(have)}")
    n = summary.get("samples")
    t_ref = None
    for f in FILES:
        tab = tables[f]
        path = os.path.join(directory, f)
        if TIME not in tab:
            raise ReportError(path, f"no '{TIME}' column")
        t = tab[TIME]
        if n is not None and len(t) != n:
            raise ReportError(path, f"has {len(t)} samples, summary.json says {n} (truncated file?)")
        if len(t) == 0:
            raise ReportError(path, "has no samples")
        if np.any(~np.isfinite(t)) or np.any(np.diff(t) <= 0):
            raise ReportError(path, "time column is not strictly increasing")
        if t_ref is not None and (len(t) != len(t_ref) or not np.allclose(t, t_ref, rtol=0, atol=1e-9 * max(1.0, abs(t_ref[-1])))):
            raise ReportError(path, f"sample times differ from {FILES[0]} (files from different runs?)")
        t_ref = t


def _check_columns(data, directory):
    """Touch every column the report reads so a mismatch fails before anything is written."""
    for b in data.body_names:
        data.position(b), data.orientation(b), data.velocity(b), data.angular_velocity(b)
    for j in data.joint_names:
        data.reaction(j), data.reaction(j, "global")
    for d in data.driver_names:
        data.effort(d), data.power(d)
    for name in data.joint_names + data.driver_names:
        data.violation(name)
    data.energy()
