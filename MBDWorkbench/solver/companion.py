"""Background process of the accuracy estimate (:mod:`.accuracy`): the companion run.

Run: python -m MBDWorkbench.solver.companion <folder>; the folder holds model.json (the model
with the companion's settings); the process writes samples.npz (:func:`.accuracy.samples_of`)
and outcome.json ({"status", "message"}) into it."""

from __future__ import annotations

import json
import os
import sys

import numpy as np

from .accuracy import samples_of
from .errors import ModelError, SimulationError
from .model.parse import load
from .simulate import simulate


def run(folder: str) -> dict:
    """Solve the model of ``folder`` without an estimate of its own (interpreted on a cold cache
    when MBD_COLD_START says so: accuracy.Companion); write its samples; return the outcome
    {status, message}."""
    try:
        res = simulate(load(os.path.join(folder, "model.json")), accuracy=False, interpret_while_compiling=True)
    except (ModelError, SimulationError) as e:
        return {"status": getattr(getattr(e, "results", None), "status", "failed"), "message": str(e)}
    np.savez(os.path.join(folder, "samples.npz"), **samples_of(res))
    return {"status": res.status, "message": res.message}


if __name__ == "__main__":
    where = sys.argv[1]
    try:
        outcome = run(where)
    except Exception as e:  # noqa: BLE001 - reported to the main run as the reason of no estimate
        outcome = {"status": "failed", "message": f"{type(e).__name__}: {e}"}
    with open(os.path.join(where, "outcome.json"), "w") as f:
        json.dump(outcome, f)
