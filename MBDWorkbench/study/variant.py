"""One variant: a model dict simulated in this process (a Dask task on a worker). Never
imports FreeCAD. Whatever goes wrong becomes the row's status and message, never an exception:
a failed variant is a row of the study, not its end."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

from ..solver.errors import AssemblyError, ModelError, SimulationError
from ..solver.results.status import FAILED
from . import kpis


@dataclass
class Row:
    """One variant's row of study.csv: its ``index``, parameter ``values``, run ``status``
    (solver.results.status.STATUSES), ``message``, number of run ``warnings``, KPI values (empty when
    the run did not complete), ``wall_time`` [s] of the simulation and the Dask ``worker`` that
    ran it ("" in the client)."""

    index: int
    values: dict
    status: str
    message: str = ""
    warnings: int = 0
    kpis: list = field(default_factory=list)
    wall_time: float = 0.0
    worker: str = ""


def run_variant(model: dict, values: dict, outputs: list[dict], index: int, save_dir: str | None = None) -> Row:
    """Simulate the variant ``index`` (``model``: its model dict, ``values``: its parameters,
    for the row) and compute its KPIs; ``save_dir``: write its full results there too."""
    row = _run(model, values, outputs, index, save_dir)
    row.worker = _worker_address()
    return row


def _run(model: dict, values: dict, outputs: list[dict], index: int, save_dir: str | None) -> Row:
    from ..solver.model import from_dict
    from ..solver.simulate import simulate

    clock = time.perf_counter()
    try:
        res = simulate(from_dict(model))
    except (ModelError, AssemblyError) as e:
        return Row(index, values, FAILED, f"invalid variant: {e}", wall_time=time.perf_counter() - clock)
    except SimulationError as e:
        status = getattr(e.results, "status", FAILED)
        return Row(index, values, status, str(e), _warnings(e.results), wall_time=time.perf_counter() - clock)
    except Exception as e:  # noqa: BLE001 - a bug in one variant is reported in its row
        return Row(
            index, values, FAILED, f"internal error: {type(e).__name__}: {e}", wall_time=time.perf_counter() - clock
        )
    wall = time.perf_counter() - clock
    try:
        values_out = kpis.evaluate(res, outputs)
        if save_dir is not None:
            res.write(os.path.join(save_dir, f"{index:04d}"))
    except Exception as e:  # noqa: BLE001
        return Row(index, values, FAILED, f"KPI or results: {type(e).__name__}: {e}", _warnings(res), wall_time=wall)
    message = "; ".join(str(w) for w in res.warnings)
    return Row(index, values, res.status, message, len(res.warnings), values_out, wall)


def _worker_address() -> str:
    """The address of the Dask worker running this task, "" outside a worker."""
    if "distributed" not in sys.modules:
        return ""
    try:
        from distributed import get_worker

        return get_worker().address
    except ValueError:  # not in a worker
        return ""


def _warnings(res) -> int:
    return len(getattr(res, "warnings", []) or [])


def warm_up(model: dict):
    """Run ``model`` for one output step so that Numba's kernels are compiled (or loaded from
    the on-disk cache the processes of a machine share); returns its Results, or None when it
    fails (the variants report their own errors)."""
    from ..solver.model import from_dict
    from ..solver.simulate import simulate

    try:
        m = from_dict(model)
        return simulate(m, t_end=m.settings.output_step, accuracy=False)  # compiles; no estimate needed
    except Exception:  # noqa: BLE001
        return None


def warm_worker(model: dict) -> tuple[float, str]:
    """:func:`warm_up` on a worker: its wall time [s] (a cache hit where the file system is
    shared) and the worker's :func:`code_digest`."""
    clock = time.perf_counter()
    warm_up(model)
    return time.perf_counter() - clock, code_digest()


def code_digest() -> str:
    """SHA-1 of the sources of the MBDWorkbench this process imports (solver and study)."""
    from ..solver._cache import source_digest

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return source_digest(os.path.join(package, "solver")) + source_digest(os.path.join(package, "study"))
