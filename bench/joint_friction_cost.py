"""Cost of joint friction and contact stiction (issues 32 and 33): the same chain of revolute
pendulums run without friction, with Coulomb pin friction on the compiled solve
(numerics/friction_solve.py, integrators/friction_kernel.py) and on the NumPy reference
(JointFriction.compiled off); and the box of tests/test_contact_stiction.py on a 20 degree incline
(true stiction: it sticks) on both paths. CPU time (time.process_time, best of ``repeats``) per
step, compiled kernels warm. Writes bench/results/joint_friction_cost.md.

    /usr/bin/python3 bench/joint_friction_cost.py [--links 3] [--repeats 3]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from bench.joint_stops_cost import cpu_time, revolute_chain  # noqa: E402
from bench.results_page import load_note, write_page  # noqa: E402
from MBDWorkbench.solver import simulate  # noqa: E402
from MBDWorkbench.solver.system.friction import JointFriction  # noqa: E402


def chain(links: int, friction: bool, integrator: str) -> dict:
    """joint_stops_cost's revolute chain under gravity -y; with ``friction`` every pin has mu 0.1 on a
    5 mm radius, 10 mm long pin."""
    bodies, joints = revolute_chain(links)
    if friction:
        for joint in joints:
            joint["friction"] = {"mu_s": 0.1, "pin_radius": 0.005, "pin_length": 0.01}
    settings = {"t_end": 0.5, "step": 1e-3, "output_step": 0.01, "integrator": integrator, "accuracy": False}
    return {"gravity": [0, -9.81, 0], "bodies": bodies, "joints": joints, "settings": settings}


def on_path(compiled: bool, run, *args):
    """``run(*args)`` with the compiled friction solve on or off."""
    JointFriction.compiled = compiled
    try:
        return run(*args)
    finally:
        JointFriction.compiled = True


def box_cost(repeats: int, compiled: bool) -> tuple[float, int]:
    """(best CPU time [s], steps) of the box sticking on a 20 degree incline for 1 s (rk4, 1 ms)."""
    from test_contact_stiction import box_model

    best, steps = math.inf, 0
    for _ in range(repeats + 1):  # the first one warms up
        model = box_model(math.radians(20.0), t_end=1.0)
        t0 = time.process_time()
        res = on_path(compiled, simulate, model)
        best, steps = min(best, time.process_time() - t0), res.steps
    return best, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for integrator in ("rk4", "bdf"):
        plain, res0 = cpu_time(chain(args.links, False, integrator), args.repeats)
        fast, res1 = on_path(True, cpu_time, chain(args.links, True, integrator), args.repeats)
        slow, res2 = on_path(False, cpu_time, chain(args.links, True, integrator), args.repeats)
        us = [1e6 * plain / res0.steps, 1e6 * fast / res1.steps, 1e6 * slow / res2.steps]
        rows.append(
            f"| {args.links}-link chain, {integrator} | {res0.steps} | {us[0]:.0f} | {res1.steps} | {us[1]:.0f} | "
            f"{us[1] / us[0]:.1f}x | {us[2]:.0f} | {us[2] / us[1]:.1f}x |"
        )
        print(rows[-1], flush=True)
    (fast, n1), (slow, n2) = box_cost(args.repeats, True), box_cost(args.repeats, False)
    rows.append(
        f"| box on 20 deg, stiction, rk4 | - | - | {n1} | {1e6 * fast / n1:.0f} | - | {1e6 * slow / n2:.0f} | "
        f"{slow / n2 / (fast / n1):.1f}x |"
    )
    print(rows[-1], flush=True)
    note = (
        f"`bench/joint_friction_cost.py`: a planar chain of {args.links} rods on revolute joints, 0.5 s, without and "
        "with Coulomb pin friction (mu 0.1, r 5 mm, L 10 mm) on every joint, outputs every 10 ms; the box of "
        "tests/test_contact_stiction.py sticking on a 20 degree incline for 1 s (its 4 corners' patch with true "
        f"stiction). CPU time (best of {args.repeats}) per step, compiled kernels warm; compiled: the friction "
        "solve and the fixed-step loop in Numba (the default), reference: the NumPy solve (`JointFriction.compiled` "
        f"off); {load_note()} at the end (2 CPUs shared with other jobs: CPU times inflate under load)."
    )
    table = [
        "| model | steps | us/step without friction | steps with friction | us/step compiled | cost vs without | "
        "us/step reference | reference / compiled |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ]
    after = (
        "The compiled path evaluates the forces, the constraint rows, the friction channels and the dense KKT "
        "solve with its fixed point on the friction loads in one kernel (no LAPACK: a Cholesky factor in loops), "
        "and the fixed-step schemes take their steps in one compiled call, checking the stick/slip event "
        "functions after every step and stopping at the step where one changes sign, where the events' monitor "
        "locates the switch. bdf, radau and lsoda call the compiled solve once per evaluation."
    )
    write_page("joint_friction_cost", "Cost of joint friction and contact stiction", note, table, (after,))


if __name__ == "__main__":
    main()
