"""Warnings found while building a model (``Model.warnings``, e.g. a joint the Assembly import
left out) reach the run: its status, summary.json and the model's JSON (where they are not kept)."""

import copy
import json
import os

from MBDWorkbench.solver import from_dict, load, simulate
from MBDWorkbench.solver.results.status import COMPLETED, COMPLETED_WITH_WARNINGS, RunWarning

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PENDULUM = json.load(open(os.path.join(ROOT, "examples", "pendulum.json")))
DROPPED = RunWarning("joint_dropped", "Assembly 'Assembly': joint 'Pivot' is not in the model: ...", None, ("Pivot",))


def short_pendulum():
    d = copy.deepcopy(PENDULUM)
    d["settings"].update(t_end=0.05)
    return from_dict(d)


def test_a_model_warning_makes_the_run_completed_with_warnings(tmp_path):
    clean = simulate(short_pendulum())
    assert clean.status == COMPLETED and clean.warnings == []
    model = short_pendulum()
    model.warnings = [DROPPED]
    out = str(tmp_path / "run")
    res = simulate(model, out_dir=out)
    assert res.status == COMPLETED_WITH_WARNINGS and res.warnings == [DROPPED]
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    assert summary["status"] == COMPLETED_WITH_WARNINGS
    assert [RunWarning.from_dict(w) for w in summary["warnings"]] == [DROPPED]
    assert "warnings" not in model.to_dict()
    assert load(os.path.join(out, "model.json")).warnings == []
