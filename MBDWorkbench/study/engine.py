"""Run the variants of a study: in this process (``serial``, the reference path) or as
independent Dask tasks, on a ``dask.distributed.LocalCluster`` of worker processes started here
or on an existing cluster (``scheduler``, e.g. ``tcp://host:8786``).

The client warms Numba's on-disk cache (one short run of the first variant) before submitting,
so workers of this machine load compiled kernels instead of compiling; then every worker warms
once (a cache hit where it shares the file system, a compile where it does not), so the
variants' wall times hold no start-up; the warm-up is a worker plugin (:mod:`.warm`), so workers
that join later warm before their first variant too. Dask retries the
tasks of a lost worker; a variant that fails is a row with its status and message. Ctrl-C
(KeyboardInterrupt) or ``cancel()`` cancels the variants not finished: their rows are marked
``cancelled`` and the finished rows are kept."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..solver.errors import ModelError
from ..solver.numerics.cold_start import python_executable
from ..solver.results.status import CANCELLED, FAILED
from .designs import variants
from .kpis import check_columns
from .spec import Study, variant_model
from .variant import Row, code_digest, run_variant, warm_up

WORKER_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}
POLL_S = 0.05  # wall time [s] between two looks at the unfinished tasks (and cancel())

SCHEDULER_TIMEOUT_S = 30.0  # default wait [s] for an existing scheduler (--scheduler-timeout)

ProgressFn = Callable[[int, int, int, float], None]  # (done, total, failed, elapsed [s])


@dataclass
class StudyRun:
    """The outcome of a study: one Row per variant (in design order), whether it was cancelled,
    the engine used, its number of workers and the wall times [s] of the whole run and of the
    variants' part (after start-up and warm-up)."""

    study: Study
    rows: list[Row]
    cancelled: bool = False
    engine: str = "serial"
    workers: int = 1
    elapsed: float = 0.0
    variants_elapsed: float = 0.0
    notes: list[str] = field(default_factory=list)


def run_study(
    study: Study,
    workers: int | None = None,
    scheduler: str | None = None,
    serial: bool = False,
    progress: ProgressFn | None = None,
    cancel: Callable[[], bool] | None = None,
    on_row: Callable[[Row], None] | None = None,
    save_dir: str | None = None,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_S,
    inform: Callable[[str], None] | None = None,
) -> StudyRun:
    """Run every variant of ``study``; ``workers``: worker processes of the local cluster
    (default: the number of CPUs); ``scheduler``: address of an existing cluster instead;
    ``serial``: run in this process. ``on_row(row)`` is called as each variant finishes;
    ``save_dir``: write each variant's full results to ``save_dir/NNNN``; ``scheduler_timeout``
    [s]: how long to wait for the scheduler; ``inform(line)`` receives notes meant for the user
    while the study runs (the local cluster's dashboard link)."""
    clock = time.perf_counter()
    values = variants(study)
    models = [variant_model(study, v) for v in values]
    warm = warm_up(models[0])
    if warm is not None:
        check_columns(warm, study.outputs)
    jobs = [(m, v, study.outputs, i, save_dir) for i, (m, v) in enumerate(zip(models, values))]
    if serial:
        run = _run_serial(study, jobs, progress, cancel, on_row)
    else:
        run = _run_dask(study, jobs, workers, scheduler, progress, cancel, on_row, scheduler_timeout, inform or _ignore)
    run.elapsed = time.perf_counter() - clock
    return run


def _ignore(_line: str) -> None:
    """No one to inform."""


def _run_serial(study, jobs, progress, cancel, on_row) -> StudyRun:
    rows: list[Row | None] = [None] * len(jobs)
    tracker = _Tracker(len(jobs), progress, on_row)
    cancelled = False
    try:
        for job in jobs:
            if cancel is not None and cancel():
                cancelled = True
                break
            row = run_variant(*job)
            if row.status == CANCELLED:  # Ctrl-C inside the run: simulate turned it into Cancelled
                cancelled = True
                break
            rows[row.index] = row
            tracker.add(row)
    except KeyboardInterrupt:
        cancelled = True
    return StudyRun(study, _complete(rows, jobs), cancelled, "serial", 1, variants_elapsed=tracker.elapsed())


def _run_dask(study, jobs, workers, scheduler, progress, cancel, on_row, timeout, inform) -> StudyRun:
    from distributed import Client

    cluster = _local_cluster(workers) if not scheduler else None
    client = _connect(scheduler, timeout) if scheduler else Client(cluster)
    plugin = f"mbd-warm-up-{uuid.uuid4().hex[:12]}"
    try:
        if cluster is not None:
            inform(_dashboard_note(client))
        _warm_workers(client, jobs[0][0], plugin)
        first = _checked_warm_up(client, plugin, scheduler)
        run = _gather(client, study, jobs, progress, cancel, on_row)
        warm = _checked_warm_up(client, plugin, scheduler)  # with the workers that joined meanwhile
        run.notes.append("worker warm-up [s]: " + ", ".join(f"{t:.2f}" for t, _ in warm.values()))
        run.engine = ("dask " + scheduler) if scheduler else "dask local cluster"
        run.workers = len(first.keys() | warm.keys())
        return run
    finally:
        with contextlib.suppress(Exception):  # the plugin stays on an existing scheduler otherwise
            client.unregister_worker_plugin(plugin)
        client.close()
        if cluster is not None:
            cluster.close()


def _local_cluster(workers: int | None):
    """A LocalCluster of ``workers`` processes (default: the CPUs), its dashboard on the
    loopback interface when bokeh is installed."""
    from distributed import LocalCluster

    # the workers inherit both: Ctrl-C is the client's to handle; they import this MBDWorkbench
    with _sigint_ignored(), _package_first_on_path():
        return LocalCluster(
            n_workers=workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address="127.0.0.1:0" if dashboard_missing() is None else None,
            silence_logs=logging.ERROR,
            env=WORKER_ENV,
        )


def dashboard_missing() -> str | None:
    """Why the Dask dashboard cannot run here (None when it can: bokeh is importable)."""
    import importlib.util

    if importlib.util.find_spec("bokeh") is None:
        return "bokeh is not installed (pip install bokeh, or apt install python3-bokeh)"
    return None


def _dashboard_note(client) -> str:
    """The line telling where the local cluster's dashboard is, or why there is none."""
    why = dashboard_missing()
    link = client.dashboard_link if why is None else None
    if link:
        return f"Dask dashboard: {link}"
    return f"Dask dashboard: not available: {why or 'the cluster did not start it'}"


def _connect(scheduler: str, timeout: float):
    """A Client of the scheduler at ``scheduler``; ModelError naming it when it does not answer
    within ``timeout`` [s]."""
    from distributed import Client

    try:
        return Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as e:
        raise ModelError(
            "--scheduler",
            f"no Dask scheduler answered at {scheduler} within {timeout:g} s ({type(e).__name__}); "
            "start one there (`dask scheduler` and `dask worker ADDRESS`, docs/studies.md), "
            "raise --scheduler-timeout, or leave --scheduler out to run on a local cluster",
        ) from None


def _warm_workers(client, model: dict, plugin: str) -> None:
    """Every worker, present or joining later, warms with ``model`` before it takes a variant."""
    from .warm import WarmUp

    client.register_worker_plugin(WarmUp(model, plugin), name=plugin)


def _checked_warm_up(client, plugin: str, scheduler: str | None) -> dict[str, tuple[float, str]]:
    """{worker: (warm-up wall time [s], code digest)} of the workers there now that finished
    their warm-up (one still joining has none yet, and takes no variant before it has); ModelError
    when one imports other sources than this client."""
    from .warm import warm_record

    records = {w: r for w, r in client.run(warm_record, plugin).items() if r is not None}
    _check_same_code({w: digest for w, (_, digest) in records.items()}, scheduler)
    return records


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while worker processes are started (in the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _package_first_on_path() -> Iterator[None]:
    """While worker processes start (they copy sys.path): the folder holding this MBDWorkbench
    first on sys.path (FreeCAD puts its installed workbench in front, which may be another
    version), and a Python interpreter to start them with (inside FreeCAD, sys.executable is
    FreeCAD itself)."""
    import multiprocessing.spawn as spawn

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, root)
    executable = spawn.get_executable()
    spawn.set_executable(python_executable())
    try:
        yield
    finally:
        spawn.set_executable(executable)
        sys.path.remove(root)


def _check_same_code(digests: dict[str, str], scheduler: str | None) -> None:
    """ModelError naming the workers whose MBDWorkbench sources differ from the client's."""
    mine = code_digest()
    other = sorted(w for w, d in digests.items() if d != mine)
    if other:
        raise ModelError(
            "--scheduler" if scheduler else "workers",
            f"worker(s) {', '.join(other)} import another version of MBDWorkbench than this client "
            "(put this checkout first on their PYTHONPATH)",
        )


def _gather(client, study, jobs, progress, cancel, on_row) -> StudyRun:
    """Submit every job, collect the rows as they finish."""
    token = uuid.uuid4().hex[:12]
    tracker = _Tracker(len(jobs), progress, on_row)
    futures = {
        client.submit(run_variant, *job, key=f"mbd-variant-{token}-{job[3]:05d}", pure=False): job[3] for job in jobs
    }
    rows: list[Row | None] = [None] * len(jobs)
    pending, cancelled = set(futures), False
    try:
        while pending:
            if cancel is not None and cancel():
                cancelled = True
                break
            done = {f for f in pending if f.done()}
            if not done:
                time.sleep(POLL_S)
                continue
            pending -= done
            for fut in sorted(done, key=futures.get):
                row = _row_of(fut, futures[fut], jobs)
                rows[row.index] = row
                tracker.add(row)
    except KeyboardInterrupt:
        cancelled = True
    if pending:
        client.cancel(list(pending))
    return StudyRun(study, _complete(rows, jobs), cancelled, variants_elapsed=tracker.elapsed())


def _row_of(fut, index: int, jobs) -> Row:
    """The row a finished future holds; a task Dask gave up on (e.g. its workers kept dying) is a failed row."""
    try:
        return fut.result()
    except Exception as e:  # noqa: BLE001 - KilledWorker and the like
        return Row(index, jobs[index][1], FAILED, f"engine: {type(e).__name__}: {e}")


def _complete(rows: list[Row | None], jobs) -> list[Row]:
    """Rows of the variants not run (cancelled study) marked as cancelled."""
    return [
        r if r is not None else Row(i, jobs[i][1], CANCELLED, "not run: study cancelled") for i, r in enumerate(rows)
    ]


class _Tracker:
    """Counts finished variants and reports the progress."""

    def __init__(self, total: int, progress: ProgressFn | None, on_row: Callable[[Row], None] | None) -> None:
        self.total, self.progress, self.on_row = total, progress, on_row
        self.done = self.failed = 0
        self.start = time.perf_counter()

    def add(self, row: Row) -> None:
        self.done += 1
        self.failed += row.status == FAILED
        if self.on_row is not None:
            self.on_row(row)
        if self.progress is not None:
            self.progress(self.done, self.total, self.failed, self.elapsed())

    def elapsed(self) -> float:
        return time.perf_counter() - self.start
