"""Background process of the interpreted start (:mod:`.cold_start`): two steps of a model,
which compile the run's kernels into Numba's on-disk cache.

Run: python -m MBDWorkbench.solver.fill_cache <model.json> <integrator> (the file is deleted)."""

from __future__ import annotations

import os
import sys

from .model import load
from .simulate import simulate


def fill(path: str, integrator: str) -> None:
    """Solve the model in ``path`` for two steps with ``integrator``, then delete the file and its folder."""
    try:
        model = load(path)
        step = model.settings.step
        simulate(model, t_end=2 * step, output_step=step, integrator=integrator)
    finally:
        os.remove(path)
        os.rmdir(os.path.dirname(path))


if __name__ == "__main__":
    fill(sys.argv[1], sys.argv[2])
