"""The README's first command (tools/demo.sh) leaves the compiled kernels in the cache (issue 36):
it compiles them (tools/install_workbench.py --warm-foreground) before anything else runs, for the
default integrator and that of every shipped example, so a new user's first Solve loads them
(bench/results/cold_start.md: the measured times)."""

import glob
import json
import os
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import install_workbench  # noqa: E402

from MBDWorkbench.solver.integrators import METHODS  # noqa: E402
from MBDWorkbench.solver.model import Settings  # noqa: E402


def demo_commands() -> list[list[str]]:
    lines = open(os.path.join(ROOT, "tools", "demo.sh")).read().splitlines()
    return [shlex.split(line) for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_demo_compiles_the_kernels_before_the_showcase_runs():
    commands = demo_commands()
    warm = [k for k, c in enumerate(commands) if "tools/install_workbench.py" in c and "--warm-foreground" in c]
    run = [k for k, c in enumerate(commands) if "MBDWorkbench" in c and "simulate" in c]
    assert warm and run and warm[0] < run[0], commands


def test_the_warm_up_covers_the_default_and_every_example_integrator():
    wanted = {Settings().integrator}
    for path in glob.glob(os.path.join(ROOT, "examples", "*.json")):
        wanted.add(json.load(open(path)).get("settings", {}).get("integrator", Settings().integrator))
    compiled = {name for name in wanted if METHODS[name].entry_kernel is not None}
    assert compiled <= set(install_workbench.WARM_INTEGRATORS), (compiled, install_workbench.WARM_INTEGRATORS)
