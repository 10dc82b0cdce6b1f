"""Cost of many contact bodies (issue 33): N steel balls (R = 10 mm) on a grid 30 mm apart,
dropped 5 mm on a plane, N = 10, 20, 40, 80; each on the plane alone, then with a contact group
"all pairs among the balls" (model.contact_groups: N (N - 1) / 2 sphere-sphere pairs more). CPU time
(time.process_time, best of 3) per rk4 step over 0.05 s at 1e-5 s, kernels warm. Writes
bench/results/contact_pairs_scaling.md with the load average.

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
from MBDWorkbench.solver.model import from_dict  # noqa: E402

R, MASS, T_END, STEP = 0.01, 0.033, 0.05, 1e-5
PLANE = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}


def balls_model(n: int, group: bool) -> dict:
    """N balls on a grid above the floor plane; with ``group``, all pairs among them too."""
    side = math.ceil(math.sqrt(n))
    J = 0.4 * MASS * R * R
    bodies, contacts = [], []
    for k in range(n):
        x, y = 0.03 * (k % side), 0.03 * (k // side)
        name = f"b{k}"
        bodies.append({"name": name, "mass": MASS, "inertia": np.diag([J] * 3).tolist(), "position": [x, y, R + 0.005]})
        sphere = {"type": "sphere", "center": [0, 0, 0], "radius": R}
        contacts.append({"name": f"floor {k}", "body_a": name, "body_b": "ground", "shape_a": sphere, "shape_b": PLANE})
    if group:
        shapes = {b["name"]: {"type": "sphere", "center": [0, 0, 0], "radius": R} for b in bodies}
        contacts.append({"name": "balls", "group": {"bodies": list(shapes)}, "shapes": shapes, "restitution": 0.8})
    settings = {"t_end": T_END, "step": STEP, "output_step": 0.01, "integrator": "rk4", "accuracy": False}
    return {"name": "balls", "bodies": bodies, "contacts": contacts, "settings": settings}


def per_step(n: int, group: bool) -> tuple[float, int]:
    """(CPU [us] per step, contact pairs) of the run (best of 3)."""
    model = from_dict(balls_model(n, group))
    best = math.inf
    for _ in range(3):
        t0 = time.process_time()
        simulate(model)
        best = min(best, time.process_time() - t0)
    return best / (T_END / STEP) * 1e6, len(model.contacts)


def main() -> None:
    per_step(4, True)  # compile
    rows = [
        "| N | pairs (plane only) | us per step | pairs (all) | us per step | per body [us] |",
        "|---|---|---|---|---|---|",
    ]
    for n in (10, 20, 40, 80):
        alone, pairs_alone = per_step(n, False)
        both, pairs_all = per_step(n, True)
        rows.append(f"| {n} | {pairs_alone} | {alone:.1f} | {pairs_all} | {both:.1f} | {both / n:.2f} |")
        print(rows[-1], flush=True)
    note = (
        f"`/usr/bin/python3 bench/contact_pairs_scaling.py`; {load_note()}; CPU time per rk4 step "
        "(time.process_time, best of 3), kernels warm.\n"
        f"N steel balls R = {R * 1e3:g} mm on a grid 30 mm apart dropped 5 mm on a plane, {T_END} s at {STEP} s."
    )
    write_page("contact_pairs_scaling", "Contact cost against the number of bodies", note, rows)


if __name__ == "__main__":
    main()
