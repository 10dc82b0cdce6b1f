"""Background process of the interpreted start (:mod:`.cold_start`): two steps of a model (with
and without the fast sample path), which compile the run's kernels into Numba's on-disk cache.

Processes filling the same cache take turns (an exclusive lock on ``fill.lock`` in the cache
folder): several runs started on a cold cache (a script calling the command line in a loop)
compile once, the later processes find the kernels cached and end.

Run: python -m MBDWorkbench.solver.fill_cache <model.json> <integrator> (the file is deleted)."""

from __future__ import annotations

import contextlib
import os
import sys

from . import sample_path
from .integrators import METHODS
from .model.parse import load
from .numerics.cold_start import is_cached
from .simulate import simulate


@contextlib.contextmanager
def _turn():
    """Hold the cache folder's fill lock (none where there is no folder or no fcntl)."""
    import numba

    folder = numba.config.CACHE_DIR
    try:
        import fcntl

        f = open(os.path.join(folder, "fill.lock"), "a")
    except (ImportError, OSError, TypeError):
        yield
        return
    with f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def fill(path: str, integrator: str) -> None:
    """Solve the model in ``path`` for two steps with ``integrator`` unless its kernels are
    cached by then; delete the file and its folder."""
    try:
        with _turn():
            model = load(path)
            if not is_cached(METHODS[integrator].entry_kernel):
                step = model.settings.resolved().step
                for fast in (True, False):  # the fast sample path's kernel, then the slow path's (sample_path.py)
                    sample_path.ENABLED = fast
                    simulate(model, t_end=2 * step, output_step=step, integrator=integrator, accuracy=False)
    finally:
        os.remove(path)
        os.rmdir(os.path.dirname(path))


if __name__ == "__main__":
    fill(sys.argv[1], sys.argv[2])
