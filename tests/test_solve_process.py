"""The solver process FreeCAD's Solve runs in (MBDWorkbench/solver/solve_process.py): its results
are the in-process solver's, a cancel keeps the samples so far, errors come back with their class
and attributes, several jobs run in one process, and closing its input ends it."""

import copy
import json
import os
import shutil
import time

import numpy as np
import pytest

from MBDWorkbench.solver import Cancelled, from_dict, simulate
from MBDWorkbench.solver.results import files
from MBDWorkbench.solver.results.status import CANCELLED, COMPLETED, OverdrivenError
from MBDWorkbench.solver.solve_process import SolverProcess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PENDULUM = json.load(open(os.path.join(ROOT, "examples", "pendulum.json")))


def pendulum(**settings) -> dict:
    d = copy.deepcopy(PENDULUM)
    d["settings"].update(settings, accuracy=False)
    return d


@pytest.fixture(scope="module")
def process():
    p = SolverProcess()
    assert p.ready.wait(600), "the solver process did not get ready"
    yield p
    p.close()
    p.process.wait(30)


def test_results_are_the_in_process_solvers(process):
    model = from_dict(pendulum(t_end=0.3, output_step=0.01))
    outcome = process.solve(model, "results.zip", {"extra.json": '{"a": 1}'})
    try:
        assert outcome.error is None and outcome.status == COMPLETED
        stored = files.read_results(outcome.archive, extras=("extra.json",))
        here = simulate(model)
        there = files.ResultTables(stored.tables, stored.summary, outcome.archive)
        body = here.body_names[0]
        assert len(there) == len(here) == 31
        np.testing.assert_allclose(there.position(body), here.position(body), rtol=1e-9, atol=1e-12)  # CSV digits
        assert stored.extras["extra.json"] == {"a": 1} and stored.summary["status"] == COMPLETED
    finally:
        shutil.rmtree(os.path.dirname(outcome.archive), ignore_errors=True)


def test_cancel_keeps_the_samples_so_far(process):
    model = from_dict(pendulum(t_end=200.0, output_step=0.01, step=1e-4))
    asked = []

    def cancel():
        if process.progress is not None and not asked:
            asked.append(time.perf_counter())
        return bool(asked)

    outcome = process.solve(model, "results.zip", {}, cancel=cancel)
    ended = time.perf_counter()
    try:
        assert isinstance(outcome.error, Cancelled) and outcome.status == CANCELLED
        assert outcome.error.results.status == CANCELLED and len(outcome.error.results) == 0
        samples = files.read_results(outcome.archive).summary["samples"]
        assert 1 <= samples < 20000
        assert ended - asked[0] < 5.0  # the run stops soon after the cancel
    finally:
        if outcome.archive:
            shutil.rmtree(os.path.dirname(outcome.archive), ignore_errors=True)


def test_a_refusal_comes_back_with_its_class_and_attributes(process):
    d = pendulum(t_end=0.2)
    d["drivers"] = [
        {"name": "m1", "type": "rotational", "joint": "pivot", "profile": "2*t"},
        {"name": "m2", "type": "rotational", "joint": "pivot", "profile": "3*t"},
    ]
    outcome = process.solve(from_dict(d), "results.zip", {})
    assert isinstance(outcome.error, OverdrivenError) and outcome.archive is None
    assert outcome.error.drivers == ["m1", "m2"] and "'m1'" in str(outcome.error)
    assert process.alive()  # the next job runs in the same process
    again = process.solve(from_dict(pendulum(t_end=0.05)), "results.zip", {})
    assert again.error is None
    shutil.rmtree(os.path.dirname(again.archive), ignore_errors=True)


def test_closing_its_input_ends_the_process():
    p = SolverProcess()
    p.close()
    assert p.process.wait(120) == 0
    assert not p.alive()


def test_a_killed_process_is_an_error_not_a_hang():
    """The child killed mid-run (out of memory, a crash): solve() raises instead of waiting forever."""
    import signal

    p = SolverProcess()
    model = from_dict(pendulum(t_end=200.0, output_step=0.01, step=1e-4))

    def kill_once_running():
        if p.progress is not None and p.alive():
            os.kill(p.process.pid, signal.SIGKILL)
        return False

    with pytest.raises(RuntimeError, match="the solver process ended unexpectedly"):
        p.solve(model, "results.zip", {}, cancel=kill_once_running)
    assert not p.alive()
