"""Cost of one evaluation of the compiled friction solve (issue 33 item 7): CPU time per
``friction_solve`` call (numerics/friction_solve.py, called in a compiled loop, so no hand-over
of the arrays is counted) and per rk4 step of ``friction_steps`` (integrators/friction_kernel.py,
one compiled call for all steps: 4 solves a step) on the friction pendulum of
bench/peers_events.py, on the four joints with friction of tests/test_friction_compiled.py
(revolute, cylindrical, prismatic, spherical, all slipping) and on bench/joint_friction_cost.py's
3-link chain; time.process_time, best of ``repeats``, compiled kernels warm. Writes
bench/results/friction_solve_cost.md.

    /usr/bin/python3 bench/friction_solve_cost.py [--repeats 5] [--calls 20000]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from bench.joint_friction_cost import chain  # noqa: E402
from bench.results_page import commit, load_note, write_page  # noqa: E402
from MBDWorkbench.solver import from_dict  # noqa: E402
from MBDWorkbench.solver.integrators.friction_kernel import friction_steps  # noqa: E402
from MBDWorkbench.solver.numerics.friction_solve import friction_solve  # noqa: E402
from MBDWorkbench.solver.numerics.jit import njit  # noqa: E402
from MBDWorkbench.solver.system.system import System  # noqa: E402


def pendulum() -> dict:
    """bench/peers_events.py's bar on a pin with Coulomb pin friction (mu 0.3, r 20 mm), 0.5 rad out."""
    pin = {"name": "pin", "type": "revolute", "body_i": "ground", "body_j": "arm",
           "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]},
           "friction": {"mu_s": 0.3, "mu_k": 0.3, "pin_radius": 0.02}}  # fmt: skip
    arm = {"name": "arm", "mass": 1.0, "inertia": [0.01, 0.01, 0.02],
           "position": [0.5 * math.sin(0.5), -0.5 * math.cos(0.5), 0.0]}  # fmt: skip
    settings = {"t_end": 3.0, "step": 1e-3, "integrator": "rk4", "accuracy": False}
    return {"gravity": [0, -9.81, 0], "bodies": [arm], "joints": [pin], "settings": settings}


def four_joints() -> dict:
    from test_friction_compiled import four_joints_model

    return four_joints_model()


BEFORE = (
    "Before the work arrays (commit 5ab49f4, load average 7.0, same runs): 11.2 / 56.1 us (pendulum), 62.5 / 232 "
    "(four joints), 34.4 / 148 (3-link chain) per solve / per rk4 step. The solve allocated ~15 arrays a call "
    "(the dense Jacobian, G, the Gram matrix, its factor and inverse by np.sum over slices, the fixed point's "
    "iterates) and counted the references of S, W and F (~90 arrays) in each of its helpers, the fixed point's "
    "per iteration; the rk4 stages returned the whole output. Now the evaluation writes into F.work without "
    "reference counts (numerics/jit.py), the stages into its rows, and friction_steps packs the output where it "
    "returns: the same results to the bit."
)
CHUNK = 250  # rk4 steps of 0.1 ms per friction_steps call, from the start (every contact still slips)
MODELS = {
    "friction pendulum (1 body, 5 rows, 1 channel)": pendulum,
    "four joints with friction (4 bodies, 14 rows, 8 channels)": four_joints,
    "3-link chain, pin friction (3 bodies, 15 rows, 3 channels)": lambda: chain(3, True, "rk4"),
}


@njit(cache=True)
def _solves(n, t, Y, S, W, F, state):
    """``n`` calls of friction_solve at (t, Y); returns the last one's status."""
    modes, senses, refs, has_ref, pn, pf, pc, pr = state
    status = 0
    for _ in range(n):
        status = friction_solve(t, Y, S, W, F, modes, senses, refs, has_ref, pn, pf, pc, pr)[0]
    return status


def started(data: dict):
    """(system, Y0, its friction's kernel state) of the model ``data`` after the modes' start, all slipping."""
    system = System(from_dict(data))
    Y0 = system.Y0.copy()
    system.friction.start(0.0, Y0)
    system.friction.modes[:] = 0  # SLIP everywhere: the fixed point runs
    return system, Y0, system.friction.kernel_state()


def best_of(repeats: int, run) -> float:
    """Best CPU time [s] of ``repeats`` calls of ``run()`` (after one warm-up call)."""
    run()
    best = math.inf
    for _ in range(repeats):
        t0 = time.process_time()
        run()
        best = min(best, time.process_time() - t0)
    return best


def costs(data: dict, repeats: int, calls: int) -> tuple[float, float]:
    """(CPU us per friction_solve call, CPU us per rk4 step of friction_steps) of the model ``data``."""
    system, Y0, state = started(data)
    S, W, F = system.static, system.work, system.friction.arrays
    solve = best_of(repeats, lambda: _solves(calls, 0.01, Y0, S, W, F, state)) / calls
    chunks = calls // (4 * CHUNK)

    def run():
        for _ in range(chunks):
            Y, acc = Y0.copy(), np.zeros(6)
            out = friction_steps(0.0, CHUNK * 1e-4, CHUNK, 1e-4, 2, Y, S, W, F, state, acc, False)
            assert out[0] == 0 and out[2] == CHUNK, out[:4]

    return 1e6 * solve, 1e6 * best_of(repeats, run) / (chunks * CHUNK)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    rows = ["| model | us per friction_solve | us per rk4 step (friction_steps) |", "|---|---|---|"]
    for name, model in MODELS.items():
        solve, step = costs(model(), args.repeats, args.calls)
        rows.append(f"| {name} | {solve:.2f} | {step:.2f} |")
        print(rows[-1], flush=True)
    note = (f"`/usr/bin/python3 bench/friction_solve_cost.py --repeats {args.repeats} --calls {args.calls}` at "
            f"{commit()}, {load_note()}. CPU time (time.process_time), best of {args.repeats}, compiled kernels warm: "
            f"{args.calls} solves at the start state in one compiled loop; {args.calls // 4} rk4 steps of 0.1 ms "
            f"in friction_steps calls of {CHUNK} steps from the start (every contact slipping: the fixed point on "
            "the loads runs).")  # fmt: skip
    title = "Cost of the compiled friction solve (bench/friction_solve_cost.py)"
    write_page("friction_solve_cost", title, note, rows, (BEFORE,))


if __name__ == "__main__":
    main()
