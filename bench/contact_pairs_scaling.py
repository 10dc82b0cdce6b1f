"""Cost of many contact bodies (issue 33, docs/contact.md "Cost"): N steel balls (R = 10 mm) on a grid
21 mm apart (1 mm gaps), 0.05 mm over a floor plane, thrown sideways at up to 0.1 m/s so that
neighbours collide; N floor pairs and a contact group "all pairs among the balls" (N (N - 1) / 2
sphere-sphere pairs), N = 10, 30, 100, 300, 1000. Each N with every pair evaluated (the force pass as
before the broad phase; not at N = 1000: about 10 min) and with the broad phase (numerics/broad_phase.py):

- the rk4 steps alone (the stepper's compiled loop: forces, contacts; no onset events), CPU per step
  (time.process_time, best of 3), over 0.01 s at 1e-5 s, kernels warm;
- the whole run (simulate: model checks, System, onset events, contact samples), CPU per step;
- the setup apart (CPU, once): from_dict (reading and checking the model), System(model) and the
  start-of-run contact warnings (contact_checks.contact_warnings).

Writes bench/results/contact_pairs_scaling.md with the load average.

    /usr/bin/python3 bench/contact_pairs_scaling.py
"""

from __future__ import annotations

import math
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.results_page import load_note, write_page  # noqa: E402
from MBDWorkbench.solver import simulate  # noqa: E402
from MBDWorkbench.solver.contact_checks import contact_warnings  # noqa: E402
from MBDWorkbench.solver.integrators import make_stepper  # noqa: E402
from MBDWorkbench.solver.model import from_dict  # noqa: E402
from MBDWorkbench.solver.system import broad_phase  # noqa: E402
from MBDWorkbench.solver.system.system import System  # noqa: E402

R, MASS, T_END, STEP = 0.01, 0.033, 0.01, 1e-5
PLANE = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}
SIZES = (10, 30, 100, 300, 1000)
ALL_PAIRS_UP_TO = 300  # the every-pair runs beyond: minutes per step count


def balls_model(n: int) -> dict:
    """N balls on a grid just above the floor, thrown sideways; floor pairs and one group of all
    pairs among the balls."""
    rng = np.random.default_rng(1)
    side = math.ceil(math.sqrt(n))
    J = np.diag([0.4 * MASS * R * R] * 3).tolist()
    bodies, contacts, shapes = [], [], {}
    for k in range(n):
        name, (vx, vy) = f"b{k}", rng.uniform(-0.1, 0.1, 2)
        position = [0.021 * (k % side), 0.021 * (k // side), R + 5e-5]
        bodies.append({"name": name, "mass": MASS, "inertia": J, "position": position, "velocity": [vx, vy, 0]})
        shapes[name] = {"type": "sphere", "center": [0, 0, 0], "radius": R}
        contacts.append({"name": f"floor {k}", "body_a": name, "body_b": "ground", "shape_a": shapes[name]})
        contacts[-1].update(shape_b=PLANE, restitution=0.8)
    contacts.append({"name": "balls", "group": {"bodies": list(shapes)}, "shapes": shapes, "restitution": 0.8})
    settings = {"t_end": T_END, "step": STEP, "output_step": T_END / 2, "integrator": "rk4", "accuracy": False}
    return {"name": "balls", "bodies": bodies, "contacts": contacts, "settings": settings}


def stepping(model, repeats: int = 3) -> tuple[float, int]:
    """(CPU [us] per rk4 step of the stepper alone, best of ``repeats``; pairs evaluated at the end:
    the candidates and floor pairs, or all)."""
    best, system = math.inf, None
    for _ in range(repeats):
        system = System(model)
        Y, acc = system.Y0.copy(), np.zeros(6)
        stepper = make_stepper(system, model.settings, 0.0, Y)
        t0 = time.process_time()
        stepper.advance(0.0, Y, T_END, acc)
        best = min(best, time.process_time() - t0)
    S = system.static
    evaluated = int(S.bp_live[0]) + len(S.bp_always) if S.bp_key.shape[0] else len(model.contacts)
    return best / (T_END / STEP) * 1e6, evaluated


def whole_run(model) -> float:
    """CPU [us] per step of the whole simulate() (setup, onset events and samples included)."""
    t0 = time.process_time()
    simulate(model)
    return (time.process_time() - t0) / (T_END / STEP) * 1e6


def setup(n: int) -> tuple[float, float, float]:
    """CPU [s] of from_dict, System(model) and the start-of-run contact warnings of N balls."""
    data = balls_model(n)
    t0 = time.process_time()
    model = from_dict(data)
    t1 = time.process_time()
    System(model)
    t2 = time.process_time()
    contact_warnings(model, model.settings)
    return t1 - t0, t2 - t1, time.process_time() - t2


def measure(n: int, broad: bool) -> tuple[float, int, float]:
    broad_phase.MIN_PAIRS = 16 if broad else 10**9
    model = from_dict(balls_model(n))
    steps, evaluated = stepping(model)
    return steps, evaluated, whole_run(model)


def main() -> None:
    measure(10, True)  # compile
    measure(10, False)
    rows = [
        "| N | pairs | steps alone, all pairs [us/step] | with the broad phase [us/step] | pairs evaluated "
        "at the end | per ball [us] | whole run, all pairs [us/step] | with the broad phase [us/step] "
        "| from_dict [s] | System [s] | warnings [s] | setup per pair [us] |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for n in SIZES:
        before, _, run_before = measure(n, False) if n <= ALL_PAIRS_UP_TO else (math.nan, 0, math.nan)
        after, evaluated, run_after = measure(n, True)
        read, system, warn = setup(n)
        pairs = n + n * (n - 1) // 2
        rows.append(
            f"| {n} | {pairs} | {before:.1f} | {after:.1f} | {evaluated} | {after / n:.2f} | {run_before:.0f} "
            f"| {run_after:.0f} | {read:.3f} | {system:.3f} | {warn:.3f} | {(read + system + warn) / pairs * 1e6:.1f} |"
        )
        print(rows[-1], flush=True)
    note = (
        f"`/usr/bin/python3 bench/contact_pairs_scaling.py`; {load_note()}; "
        "CPU time (time.process_time), kernels warm.\n"
        f"N steel balls R = {R * 1e3:g} mm on a grid 21 mm apart, 0.05 mm over a floor, thrown sideways at up to "
        f"0.1 m/s; N floor pairs and one group of all pairs among the balls; rk4, {T_END} s at {STEP} s. "
        "*Steps alone*: the stepper's compiled loop (forces and contacts, no onset events), best of 3. "
        "*Whole run*: simulate() (model checks, System, onset events, contact samples), once. "
        "*Setup*: from_dict, System(model) and the start-of-run contact warnings, once each (CPU). "
        f"The every-pair runs only up to N = {ALL_PAIRS_UP_TO} (nan beyond)."
    )
    write_page("contact_pairs_scaling", "Contact cost against the number of bodies", note, rows)


if __name__ == "__main__":
    main()
