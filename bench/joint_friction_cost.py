"""Cost of joint friction (issue 32, item 3): the same chain of revolute pendulums run with and
without Coulomb pin friction; CPU time (time.process_time, best of ``repeats``) per step, compiled
kernels warm. The friction path is a dense solve in NumPy with a fixed point per evaluation
(solver/system/friction.py), not a compiled kernel. Writes bench/results/joint_friction_cost.md.

    /usr/bin/python3 bench/joint_friction_cost.py [--links 3] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.joint_stops_cost import cpu_time, revolute_chain  # noqa: E402
from bench.results_page import load_note, write_page  # noqa: E402


def chain(links: int, friction: bool, integrator: str) -> dict:
    """joint_stops_cost's revolute chain under gravity -y; with ``friction`` every pin has mu 0.1 on a
    5 mm radius, 10 mm long pin."""
    bodies, joints = revolute_chain(links)
    if friction:
        for joint in joints:
            joint["friction"] = {"mu_s": 0.1, "pin_radius": 0.005, "pin_length": 0.01}
    settings = {"t_end": 0.5, "step": 1e-3, "output_step": 0.01, "integrator": integrator, "accuracy": False}
    return {"gravity": [0, -9.81, 0], "bodies": bodies, "joints": joints, "settings": settings}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for integrator in ("rk4", "bdf"):
        plain, res0 = cpu_time(chain(args.links, False, integrator), args.repeats)
        rubbed, res1 = cpu_time(chain(args.links, True, integrator), args.repeats)
        rows.append(
            f"| {integrator} | {res0.steps} | {1e6 * plain / res0.steps:.0f} | {res1.steps} | "
            f"{1e6 * rubbed / res1.steps:.0f} | {rubbed / plain:.1f}x |"
        )
        print(rows[-1], flush=True)
    note = (
        f"`bench/joint_friction_cost.py`: a planar chain of {args.links} rods on revolute joints, 0.5 s, with "
        "and without Coulomb pin friction (mu 0.1, r 5 mm, L 10 mm) on every joint; CPU time (best of "
        f"{args.repeats}) per accepted step, compiled kernels warm; "
        f"{load_note()} at the end."
    )
    table = [
        "| integrator | steps | us/step | steps with friction | us/step with friction | cost |",
        "|---|---|---|---|---|---|",
        *rows,
    ]
    after = (
        "The friction path solves the KKT system densely in NumPy with a fixed point on the friction "
        "loads at every evaluation (solver/system/friction.py; its Gram matrix inverted after a Cholesky "
        "check, not by LAPACK's eigh) and checks the stick/slip event functions after every step "
        "(solver/friction_events.py); the compiled kernels are not used for the step. A compiled "
        "friction kernel is the way to close this gap."
    )
    write_page("joint_friction_cost", "Cost of joint friction", note, table, (after,))


if __name__ == "__main__":
    main()
