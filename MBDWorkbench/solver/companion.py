"""Background process of the accuracy estimate (:mod:`.accuracy`): the companion runs, where this
process cannot fork them (:func:`.accuracy.can_fork`: inside FreeCAD, several threads, no fork).

Run: python -m MBDWorkbench.solver.companion <folder>; the folder holds model.json (the model
with the companion's base settings) and legs.json (the setting overrides of each companion run);
the process writes samples<i>.npz (:func:`.accuracy.samples_of`) and outcome.json
([{"status", "message"}] per run) into it."""

from __future__ import annotations

import json
import os
import sys

from .accuracy import solve_legs
from .model.parse import load
from .simulate import simulate


def run(folder: str) -> list[dict]:
    """Solve the model of ``folder`` once per leg, without an estimate of its own (interpreted on
    a cold cache when MBD_COLD_START says so: accuracy.Companion); write the samples and
    outcomes (:func:`.accuracy.solve_legs`)."""
    model = load(os.path.join(folder, "model.json"))
    with open(os.path.join(folder, "legs.json")) as f:
        legs = json.load(f)

    def leg(overrides: dict):
        return lambda: simulate(model, accuracy=False, interpret_while_compiling=True, **overrides)

    return solve_legs(folder, [leg(o) for o in legs])


if __name__ == "__main__":
    where = sys.argv[1]
    try:
        run(where)
    except Exception as e:  # noqa: BLE001 - reported to the main run as the reason of no estimate
        with open(os.path.join(where, "outcome.json"), "w") as f:
            json.dump([{"status": "failed", "message": f"{type(e).__name__}: {e}"}], f)
