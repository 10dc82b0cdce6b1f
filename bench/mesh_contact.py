"""Accuracy and cost of mesh contact (issue 33, docs/contact.md "Mesh shapes"): a tessellated steel
ball (model.mesh_shapes.sphere_mesh, chord deflection 1, 0.1, 0.01 mm; landing on its pole vertex
or turned 0.37 rad) against the analytic ball with the same law (Hertz's K of the analytic ball,
e = 0.8): the rebound of a 0.2 m drop and the peak force and duration of a 1 m/s impact without
gravity; an analytic ball dropped on a tessellated box (face samples); CPU per rk4 step against the
number of contact points. Writes bench/results/mesh_contact.md.

    /usr/bin/python3 bench/mesh_contact.py
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
from MBDWorkbench.solver.model.contacts import MATERIALS  # noqa: E402
from MBDWorkbench.solver.model.mesh_shapes import box_mesh, sphere_mesh  # noqa: E402

R, MASS, H, E, G = 0.05, 1.0, 0.2, 0.8, 9.81
E_STAR = 1.0 / (2 * (1 - MATERIALS["steel"][1] ** 2) / MATERIALS["steel"][0])
K_HERTZ = 4.0 / 3.0 * E_STAR * math.sqrt(R)
PLANE = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}


def ball_model(shape: dict, other: dict = PLANE, speed: float = 0.0, height: float = H, t_end: float = 0.45):
    """A 1 kg ball of radius R whose bottom is ``height`` above the contact at z = 0, falling (or
    at ``speed`` without gravity when speed > 0); rk4 at 1e-5 s (5e-7 s without gravity)."""
    J = 0.4 * MASS * R * R
    pair = {"name": "floor", "body_a": "ball", "body_b": "ground", "shape_a": shape, "shape_b": other}
    pair.update(stiffness=K_HERTZ, exponent=1.5, restitution=E if speed == 0 else 1.0, law="restitution")
    ball = {"name": "ball", "mass": MASS, "inertia": np.diag([J] * 3).tolist(), "position": [0, 0, R + height]}
    ball["velocity"] = [0, 0, -speed]
    step, out = (1e-5, 1e-4) if speed == 0 else (5e-7, 1e-6)
    settings = {"t_end": t_end, "step": step, "output_step": out, "integrator": "rk4", "accuracy": False}
    data = {"name": "ball", "bodies": [ball], "contacts": [pair], "settings": settings}
    if speed > 0:
        data["gravity"] = [0, 0, 0]
    return from_dict(data)


def first_apex(res) -> float:
    """The first rebound apex over the drop height (z of the ball's bottom)."""
    z = res.position("ball")[:, 2] - R
    up = np.nonzero((z[1:-1] > z[:-2]) & (z[1:-1] >= z[2:]) & (z[1:-1] > 0))[0] + 1
    return float(z[up[0]] / H) if up.size else math.nan


def impact(shape: dict) -> tuple[float, float, float]:
    """(peak normal force [N], contact duration [s], CPU [s]) of a 1 m/s impact without gravity."""
    t0 = time.process_time()
    res = simulate(ball_model(shape, speed=1.0, height=2e-5, t_end=4e-4))
    cpu = time.process_time() - t0
    c = res.contact("floor")
    touching = res.t[c[:, 3] > 0]
    return float(c[:, 3].max()), float(touching[-1] - touching[0]) if touching.size else 0.0, cpu


def drop(shape: dict, other: dict = PLANE) -> tuple[float, float, int]:
    """(first apex / H, CPU [s] per step, contact points) of the 0.2 m drop."""
    model = ball_model(shape, other)
    t0 = time.process_time()
    res = simulate(model)
    cpu = time.process_time() - t0
    from MBDWorkbench.solver.model.contacts import contact_points

    return first_apex(res), cpu / (0.45 / 1e-5), len(contact_points(model, model.contacts[0]))


def main() -> None:
    analytic = {"type": "sphere", "center": [0, 0, 0], "radius": R}
    drop(analytic)  # compile
    ref_apex, ref_cpu, _ = drop(analytic)
    ref_peak, ref_time, _ = impact(analytic)
    d_max = (15 * MASS / (16 * E_STAR * math.sqrt(R))) ** 0.4
    rows = [
        "| shape | points | apex / H (e^2 = 0.64) | peak force [N] (vs analytic) | duration [us] (vs analytic) "
        "| CPU per step [us] |",
        "|---|---|---|---|---|---|",
        f"| analytic sphere | 1 | {ref_apex:.4f} | {ref_peak:.1f} | {ref_time * 1e6:.1f} | {ref_cpu * 1e6:.2f} |",
    ]
    for deflection in (1e-3, 1e-4, 1e-5):
        for tilt in (0.0, 0.37):
            mesh = sphere_mesh(R, deflection, tilt)
            apex, cpu, n = drop(mesh)
            peak, duration, _ = impact(mesh)
            rows.append(
                f"| mesh, deflection {deflection * 1e3:g} mm, {'pole down' if tilt == 0 else 'turned 0.37 rad'} "
                f"| {n} | {apex:.4f} ({apex / ref_apex - 1:+.2%}) | {peak:.1f} ({peak / ref_peak - 1:+.1%}) "
                f"| {duration * 1e6:.1f} ({duration / ref_time - 1:+.1%}) | {cpu * 1e6:.2f} |"
            )
            print(rows[-1], flush=True)
    block = box_mesh([0.4, 0.4, 0.1], [0, 0, -0.05])
    apex, cpu, n = drop(analytic, block)
    rows.append(f"| analytic ball on a tessellated box (face samples) | {n} | {apex:.4f} ({apex / ref_apex - 1:+.2%}) "
                f"| | | {cpu * 1e6:.2f} |")  # fmt: skip
    note = (
        f"`/usr/bin/python3 bench/mesh_contact.py`; {load_note()}; CPU time (time.process_time), kernels warm. "
        f"Steel ball R = {R} m, 1 kg, Hertz K = {K_HERTZ:.4g} N/m^1.5 of the analytic ball, shared by the mesh's "
        f"points in contact (the patch law, docs/contact.md 'Mesh shapes'), restitution law e = {E}. "
        f"Drop from {H} m, rk4 at 1e-5 s; impact at 1 m/s without gravity, rk4 at 5e-7 s (Hertz's closed "
        f"form: peak {K_HERTZ * d_max**1.5:.1f} N, duration {2.94 * d_max * 1e6:.1f} us)."
    )
    write_page("mesh_contact", "Mesh contact: a tessellated ball against the analytic one", note, rows)


if __name__ == "__main__":
    main()
