"""What a report needs: ``ReportData``, the time series of one run with its model and
summary, built from an in-memory ``Results`` (``from_results``, no files involved) or read
from a results folder or zip (``load_results_dir``, through the one reader of
:mod:`MBDWorkbench.solver.results.files`). Both hold the numbers the results files hold
(10 significant digits), so a report made right after a run and one made later from the
saved folder show the same numbers.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

import numpy as np

from ..solver.errors import ModelError
from ..solver.model import Model, from_dict, load
from ..solver.numerics import quaternion
from ..solver.results import files as fmt
from ..solver.system.system import System

if TYPE_CHECKING:
    from ..solver.results.results import Results

TIME = fmt.TIME


class ReportError(ModelError):
    """Bad report input or output; ``path`` names the file, directory or field at fault."""


class ReportData(fmt.ResultTables):
    """Time series of one run plus its model and summary, with the accessors of a Results in
    SI units (``tables[file]`` maps the CSV headers of ``file``, e.g. ``"crank.x [m]"``, to
    arrays of length K). It also offers what the solver analyses read from a Results:
    ``model``, ``t`` [s], ``Y`` (solver states) and ``system``."""

    error = ReportError

    def __init__(self, model: Model, summary: dict, tables: dict, source: str, Y: np.ndarray | None = None) -> None:
        super().__init__(tables, summary, source)
        self.model = model
        self.body_names = [b.name for b in model.bodies if not b.grounded]
        self.joint_names = [j.name for j in model.joints]
        self.driver_names = [d.name for d in model.drivers]
        self._Y = Y
        self._system = None

    @property
    def system(self) -> System:
        """The solver System of the model (built once)."""
        if self._system is None:
            self._system = System(self.model)
        return self._system

    @property
    def Y(self) -> np.ndarray:
        """Solver states (K, 13 N) (principal body frames): the run's own, or rebuilt from the
        sampled body poses and velocities."""
        if self._Y is None:
            self._Y = self._states()
        return self._Y

    def _states(self) -> np.ndarray:
        system = self.system
        nb = system.nb
        Y = np.zeros((len(self), 13 * nb))
        for b, name in enumerate(self.body_names):
            A = self.rotation(name) @ system.R_principal[b]
            Y[:, 7 * b : 7 * b + 3] = self.position(name)
            Y[:, 7 * b + 3 : 7 * b + 7] = [quaternion.from_matrix(a) for a in A]
            o = 7 * nb + 6 * b
            Y[:, o : o + 3] = self.velocity(name)
            Y[:, o + 3 : o + 6] = np.einsum("kji,kj->ki", A, self.angular_velocity(name))
        return Y

    def driver_unit(self, driver: str) -> str:
        """'N m' for a rotational driver, 'N' for a linear one (from the model)."""
        return fmt.effort_unit(self.model.drivers[self.driver_names.index(driver)].type)


# ----------------------------------------------------------------------------- loading
def load_results_dir(path: str | os.PathLike, model: Model | dict | str | None = None) -> ReportData:
    """Read a results folder (or a zip of one) into ReportData.

    ``model`` (a Model, a model dict or a JSON path) defaults to the saved model.json; if
    given it must describe the same mechanism as model.json and the CSV columns (bodies,
    joints, forces, drivers, gravity; settings may differ). Raises ReportError naming the
    missing, truncated or mismatching file or field."""
    path = os.fspath(path)
    try:
        files = fmt.read_results(path)
    except fmt.ResultsFileError as e:
        raise ReportError(e.path, e.message) from None
    saved = _saved_model(files.model, os.path.join(path, fmt.MODEL))
    if model is None:
        if saved is None:
            raise ReportError(os.path.join(path, fmt.MODEL), "missing; pass the model explicitly")
        model = saved
    else:
        model = _as_model(model)
        if saved is not None:
            _compare_models(model, saved, os.path.join(path, fmt.MODEL))
    _check_consistency(model, files.summary, files.tables, path)
    return _check_columns(ReportData(model, files.summary, files.tables, path))


def from_results(results: Results) -> ReportData:
    """ReportData of an in-memory Results: its tables and summary as the results files would
    hold them, its own states; nothing is written."""
    if not len(results):
        raise ReportError("results", "the run has no samples: nothing to report")
    source = "in-memory results"
    summary = json.loads(json.dumps(fmt.summary_document(results), default=float))
    tables = fmt.as_stored(fmt.tables(results))
    _check_consistency(results.model, summary, tables, source)
    return _check_columns(ReportData(results.model, summary, tables, source, Y=results.Y))


def _saved_model(saved: dict | None, path: str) -> Model | None:
    if saved is None:
        return None
    try:
        return from_dict(saved)
    except ModelError as e:
        raise ReportError(path, f"invalid model: {e}") from None


def _as_model(model):
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
            raise ReportError(path, f"the given model does not match the model the results were computed with: {where}")


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


def _check_consistency(model, summary, tables, directory):
    """Same bodies/joints/drivers in model and summary; equal, complete sample times."""
    lists = (
        ("bodies", [b.name for b in model.bodies if not b.grounded]),
        ("joints", [j.name for j in model.joints]),
        ("drivers", [d.name for d in model.drivers]),
    )
    for key, names in lists:
        have = summary.get(key)
        if have is not None and list(have) != names:
            raise ReportError(
                os.path.join(directory, "summary.json"),
                f"the model does not match the results: model {key} {names}, results {key} {list(have)}",
            )
    n = summary.get("samples")
    t_ref = None
    for f in fmt.FILES:
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
        same = t_ref is None or (
            len(t) == len(t_ref) and np.allclose(t, t_ref, rtol=0, atol=1e-9 * max(1.0, abs(t_ref[-1])))
        )
        if not same:
            raise ReportError(path, f"sample times differ from {fmt.FILES[0]} (files from different runs?)")
        t_ref = t


def _check_columns(data: ReportData) -> ReportData:
    """Touch every column the report reads so a mismatch fails before anything is written."""
    for b in data.body_names:
        data.position(b), data.orientation(b), data.velocity(b), data.angular_velocity(b)
    for j in data.joint_names:
        data.reaction(j), data.reaction(j, "global")
    for d in data.driver_names:
        data.driver_effort(d), data.driver_power(d)
    for name in data.joint_names + data.driver_names:
        data.violation(name)
    data.energy()
    return data
