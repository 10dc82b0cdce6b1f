"""Cost and accuracy of mesh-mesh contact (issue 33 item 2, docs/contact.md "Mesh against mesh"):
CPU time per force evaluation (System.derivative: the whole right-hand side, kernels warm) of two
balls R = 50 mm in contact, tessellated at 1, 0.1 and 0.05 mm chord deflection, against the
analytic sphere-sphere pair; the first ball's velocity after a head-on impact at 1 m/s (e = 0.8:
0.4 m/s) and the peak force, vs the analytic pair's. Writes bench/results/mesh_mesh_contact.md.

    /usr/bin/python3 bench/mesh_mesh_contact.py
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench.results_page import load_note, write_page  # noqa: E402
from MBDWorkbench.solver import simulate  # noqa: E402
from MBDWorkbench.solver.model import from_dict  # noqa: E402
from MBDWorkbench.solver.model.mesh_shapes import sphere_mesh  # noqa: E402
from MBDWorkbench.solver.system import System  # noqa: E402

R, K, V = 0.05, 1e9, 0.5  # radius [m], stiffness [N/m^1.5], each ball's speed [m/s]


def balls(shape: dict, gap: float, t_end: float = 1.2e-3) -> object:
    bodies = [{"name": n, "mass": 1.0, "inertia": np.diag([1e-3] * 3).tolist(), "position": [0, 0, s * (R + gap / 2)],
               "velocity": [0, 0, -s * V]} for n, s in (("a", -1), ("b", 1))]  # fmt: skip
    pair = {"name": "pair", "body_a": "a", "body_b": "b", "shape_a": shape, "shape_b": shape, "stiffness": K}
    pair.update({"exponent": 1.5, "restitution": 0.8, "law": "restitution", "penetration_tol": 1e-4})
    settings = {"t_end": t_end, "step": 1e-6, "output_step": 2e-6, "integrator": "rk4", "accuracy": False}
    return from_dict({"name": "m", "bodies": bodies, "contacts": [pair], "gravity": [0, 0, 0], "settings": settings})


def cpu_per_evaluation(model, budget: float = 1.0) -> float:
    """CPU seconds of one System.derivative at the model's initial state."""
    system = System(model)
    Y = system._initial_state()
    system.derivative(0.0, Y)
    count, start = 0, time.process_time()
    while time.process_time() - start < budget:
        system.derivative(0.0, Y)
        count += 1
    return (time.process_time() - start) / count


def row(label: str, shape: dict, reference: tuple | None) -> tuple[str, tuple]:
    touching = cpu_per_evaluation(balls(shape, -2e-5))  # 10 um deep each way
    near = cpu_per_evaluation(balls(shape, 1e-4))  # 0.1 mm apart: the bounding spheres too
    res = simulate(balls(shape, 2e-4))
    v, peak = res.velocity("b")[-1], res.contact("pair")[:, 3].max()
    side = np.linalg.norm(v[:2])
    n = len(shape.get("vertices", [1]))
    vs = "" if reference is None else f" ({v[2] / reference[0] - 1:+.3%})"
    ps = "" if reference is None else f" ({peak / reference[1] - 1:+.2%})"
    text = (f"| {label} | {2 * n} | {touching * 1e6:.1f} | {near * 1e6:.1f} | {v[2]:.5f}{vs} | {side:.2e} "
            f"| {peak:.1f}{ps} |")  # fmt: skip
    print(text, flush=True)
    return text, (v[2], peak)


def main() -> None:
    rows = [
        "| shape | contact points | CPU per evaluation, in contact [us] | the same, 0.1 mm apart (bounding spheres "
        "apart) [us] | rebound speed [m/s] (vs analytic) | sideways speed [m/s] | peak force [N] (vs analytic) |",
        "|---|---|---|---|---|---|---|",
    ]
    text, reference = row("analytic spheres", {"type": "sphere", "center": [0, 0, 0], "radius": R}, None)
    rows.append(text)
    for deflection in (1e-3, 1e-4, 5e-5):
        rows.append(row(f"meshes, deflection {deflection * 1e3:g} mm", sphere_mesh(R, deflection), reference)[0])
    note = (
        f"`/usr/bin/python3 bench/mesh_mesh_contact.py`; {load_note()}; CPU time (time.process_time) of one "
        "System.derivative (the whole right-hand side), kernels warm. Two 1 kg balls R = 50 mm meeting pole to "
        f"pole, K = {K:g} N/m^1.5, n = 1.5, restitution law e = 0.8, {2 * V:g} m/s closing speed, rk4 at 1e-6 s. "
        "Contact points: the vertices of both meshes."
    )
    write_page("mesh_mesh_contact", "Mesh-mesh contact: two tessellated balls against the analytic pair", note, rows)


if __name__ == "__main__":
    main()
