"""Cost of the contact force element (issue 33): the drop test (examples/drop_test.json) run for
0.2 s with rk4 at its step, with its contact pairs, each pair alone, none, and nine spring-dampers
in their place; CPU time (time.process_time, best of ``repeats``) per step, kernels warm; and the
cost of contacts.csv's values per output sample (a Python loop over the contact points).
Writes bench/results/contact_cost.md.

    /usr/bin/python3 bench/contact_cost.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from MBDWorkbench.solver import simulate  # noqa: E402
from MBDWorkbench.solver.model import load  # noqa: E402
from MBDWorkbench.solver.model.schema import Force  # noqa: E402
from MBDWorkbench.solver.results.contacts import contact_sample  # noqa: E402
from MBDWorkbench.solver.system.system import System  # noqa: E402

T_END = 0.2


def per_step(model, repeats: int) -> float:
    """CPU time [us] per step of a T_END run (best of ``repeats``)."""
    simulate(model, accuracy=False, t_end=0.01)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        simulate(model, accuracy=False, t_end=T_END, output_step=0.01)
        best = min(best, time.process_time() - t0)
    return best / (T_END / model.settings.step) * 1e6


def variants(base) -> dict:
    """{label: model} of the drop test's variants."""
    out = {"both pairs (9 contact points)": base}
    for k, c in enumerate(base.contacts):
        m = copy.deepcopy(base)
        m.contacts = [m.contacts[k]]
        out[f"{c.name} only ({'1 point' if c.shape_a.type == 'sphere' else '8 points'})"] = m
    none = copy.deepcopy(base)
    none.contacts = []
    out["no contacts (free fall)"] = none
    springs = copy.deepcopy(none)
    for k in range(9):
        f = Force(name=f"s{k}", type="spring_damper")
        f.body_i, f.body_j, f.point_i, f.point_j = "block", "ground", [0.1, 0, 0.14], [0.1, 0, 0.2 + 0.01 * k]
        f.stiffness, f.damping, f.free_length = 1.0, 0.1, None
        springs.forces.append(f)
    out["nine spring-dampers instead"] = springs
    return out


def sample_cost(model, repeats: int = 200) -> float:
    """CPU time [us] of contacts.csv's values at one sample (after system.evaluate)."""
    system = System(model)
    Y = system.Y0.copy()
    system.evaluate(0.0, Y)
    contact_sample(system, Y)
    t0 = time.process_time()
    for _ in range(repeats):
        contact_sample(system, Y)
    return (time.process_time() - t0) / repeats * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    base = load(os.path.join(os.path.dirname(HERE), "examples", "drop_test.json"))
    lines = [
        "# Contact force element: cost",
        "",
        f"`python3 bench/contact_cost.py --repeats {args.repeats}`: CPU time per rk4 step (step "
        f"{base.settings.step:g} s, {T_END:g} s run, best of the repeats, kernels warm) of the drop test "
        "(examples/drop_test.json) and its variants; the machine was shared with other jobs (load 8-10).",
        "",
        "| model | CPU per step [us] |",
        "|---|---|",
    ]
    for label, model in variants(base).items():
        lines.append(f"| {label} | {per_step(model, args.repeats):.2f} |")
    lines += [
        "",
        f"contacts.csv's values at one output sample (Python loop over the 9 contact points): "
        f"{sample_cost(base):.0f} us of CPU.",
        "",
    ]
    path = os.path.join(HERE, "results", "contact_cost.md")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
