"""Interpreted start on a cold cache (issues 12 and 14).

Numba compiles the kernels of a first solve for tens of seconds when its on-disk cache is empty
(a fresh install, or any edit of the solver's sources). Meanwhile a small model can be solved
with the very same kernels run as Python (:mod:`.jit`'s twins). So, when the cache holds no
compiled entry kernel for the run's integrator, :func:`interpreted_until_compiled`

1. starts a background process (:mod:`..fill_cache`) that solves the same model for two steps,
   which compiles every kernel of the run into the cache;
2. runs the kernels interpreted in this process meanwhile;
3. switches to the compiled kernels (loaded from the cache) at the first kernel call after the
   background process has finished, so long runs continue at full speed.

The results are those of the compiled kernels up to rounding (tests/test_cold_start.py). The
background process outlives a short run (the next solve finds the cache filled). Integrators
without an ``entry_kernel`` (SciPy's) compile in process as before.

The command line and the GUI's Solve ask for it; the Python API's ``simulate`` does when called
with ``interpret_while_compiling=True`` (a benchmark's warm-up run must compile). The environment
variable ``MBD_COLD_START`` (``interpret`` or ``compile``) overrides every caller.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager

from . import jit

MODE_ENV = "MBD_COLD_START"
RECHECK_S = 1.0
_jobs: dict = {}  # integrator -> Popen of the background compile
_misses: dict = {}  # id(kernel) -> time.monotonic() of the last cache miss


def enabled(requested: bool = True) -> bool:
    """Whether a cold start runs interpreted: ``MBD_COLD_START`` (``interpret`` / ``compile``)
    when set, else the caller's choice."""
    mode = os.environ.get(MODE_ENV, "").strip().lower()
    return mode == "interpret" if mode in ("interpret", "compile") else requested


def is_cached(kernel) -> bool:
    """Whether ``kernel`` is compiled in this process or has an entry in Numba's on-disk cache
    for this machine. Unknown (an unexpected Numba version): True, i.e. compile as before.
    A miss is remembered for RECHECK_S (the index is a file read)."""
    if kernel.overloads:
        return True
    missed = _misses.get(id(kernel))
    if missed is not None and time.monotonic() - missed < RECHECK_S:
        return False
    if _on_disk(kernel):
        return True
    _misses[id(kernel)] = time.monotonic()
    return False


def _on_disk(kernel) -> bool:
    try:
        index = kernel._cache._cache_file._load_index()
        from numba.core.registry import cpu_target

        magic = cpu_target.target_context.codegen().magic_tuple()
    except Exception:  # noqa: BLE001 - Numba internals changed: no interpreted start
        return True
    return any(key[1] == magic for key in index)


def call(kernel, *args):
    """A one-off call of ``kernel`` from Python outside a run (e.g. model checks): interpreted
    while its cache is cold (compiling it would cost seconds; the run's background process
    compiles it), else compiled."""
    if enabled() and not jit.interpreting() and not is_cached(kernel):
        with jit.errstate():
            return jit.twin(kernel)(*args)
    return kernel(*args)


def python_executable() -> str:
    """The Python interpreter of this process: sys.executable, or when that is not a Python (a
    FreeCAD binary embedding it) the python3.X / python3 of sys.exec_prefix."""
    if os.path.basename(sys.executable).startswith("python"):
        return sys.executable
    folder = os.path.join(sys.exec_prefix, "bin")
    for name in (f"python{sys.version_info.major}.{sys.version_info.minor}", "python3"):
        if os.access(os.path.join(folder, name), os.X_OK):
            return os.path.join(folder, name)
    return sys.executable


BACKGROUND_NICENESS = 10  # the background compile yields the CPU to the GUI and to the solve it serves


def _lower_priority() -> list[str]:
    """The command prefix that runs the background compile at a lower CPU priority (``nice``; none
    where there is no such program): on 2 cores, it would otherwise take its share from the GUI's
    event loop and from the interpreted run while they start."""
    nice = shutil.which("nice")
    return [nice, "-n", str(BACKGROUND_NICENESS)] if nice else []


def fill_in_background(model, integrator: str) -> subprocess.Popen | None:
    """The background process that fills the cache for ``model`` solved with ``integrator``
    (the one already running for it, if any); None if it cannot start."""
    job = _jobs.get(integrator)
    if job is not None and job.poll() is None:
        return job
    folder = tempfile.mkdtemp(prefix="mbd_cold_start_")
    path = os.path.join(folder, "model.json")
    with open(path, "w") as f:
        json.dump(model.to_dict(), f)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    env[MODE_ENV] = "compile"
    try:
        job = subprocess.Popen(
            [*_lower_priority(), python_executable(), "-m", "MBDWorkbench.solver.fill_cache", path, integrator],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return None
    _jobs[integrator] = job
    return job


def background_job(integrator: str) -> subprocess.Popen | None:
    """The background compile started for ``integrator`` in this process, if any."""
    return _jobs.get(integrator)


YIELD_EVERY_S, YIELD_SLEEP_S = 0.02, 0.001  # [s] while interpreting with other threads: sleep this long this often


def yielding(done):
    """``done`` (called at every kernel call from Python while interpreting) that first sleeps
    YIELD_SLEEP_S every YIELD_EVERY_S when the process has other threads: the interpreted kernels'
    NumPy/LAPACK calls release and retake Python's lock so often that a thread waiting for it
    (FreeCAD's GUI) may not get it for half a second (bench/results/gui_gaps.md)."""
    last = [time.perf_counter()]

    def check() -> bool:
        now = time.perf_counter()
        if now - last[0] >= YIELD_EVERY_S and threading.active_count() > 1:
            time.sleep(YIELD_SLEEP_S)
            last[0] = time.perf_counter()
        return done()

    return check


@contextmanager
def interpreted_until_compiled(model, stepper_class, requested: bool = True):
    """Run the kernels interpreted inside the block while a background process compiles them,
    if the cache is cold for ``stepper_class`` and the interpreted start is :func:`enabled`;
    yields True if it does."""
    kernel = getattr(stepper_class, "entry_kernel", None)
    if kernel is None or not enabled(requested) or jit.interpreting() or is_cached(kernel):
        yield False
        return
    job = fill_in_background(model, stepper_class.name)
    if job is None:
        yield False
        return
    jit.start_interpreting(yielding(lambda: job.poll() is not None))
    try:
        yield True
    finally:
        jit.stop_interpreting()
