"""Steps per second of the ODE-form solver: an N-link spatial pendulum chain (revolute
joints with alternating axes, h = 1e-3 s, 1 s) for N = 2, 10, 50, 200, and the
slider-crank example. Writes bench/results/solver_speed.{md,json}.

Run: /usr/bin/python3 bench/solver_speed.py [--integrator rk4]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from MBDWorkbench.solver import from_dict, load, simulate  # noqa: E402
from MBDWorkbench.solver.model import Model  # noqa: E402
from MBDWorkbench.solver.results.results import Results  # noqa: E402


def chain_dict(n: int, link: float = 0.2, mass: float = 0.5) -> dict:
    """The model file (dict) of :func:`chain`."""
    J = mass * link**2 / 12
    bodies, joints = [], []
    for k in range(n):
        bodies.append({"name": f"L{k}", "mass": mass, "inertia": [1e-4, J, J], "position": [(k + 0.5) * link, 0, 0]})
        axis = [0, 1, 0] if k % 2 == 0 else [0, 0, 1]
        joints.append(
            {
                "name": f"R{k}",
                "type": "revolute",
                "body_i": "ground" if k == 0 else f"L{k - 1}",
                "body_j": f"L{k}",
                "frame": {"origin": [k * link, 0, 0], "z_axis": axis, "x_axis": [1, 0, 0]},
            }
        )
    return {
        "name": f"chain{n}",
        "gravity": [0, 0, -9.81],
        "bodies": bodies,
        "joints": joints,
        "settings": {"t_end": 1.0, "step": 1e-3, "output_step": 0.01},
    }


def chain(n: int, link: float = 0.2, mass: float = 0.5) -> Model:
    """N uniform links (length ``link`` m) along x, joined by revolutes whose axes
    alternate between y and z, the first hinged to the ground; gravity -z."""
    return from_dict(chain_dict(n, link, mass))


def measure(model: Model, integrator: str, repeats: int = 3) -> Results:
    """Best wall time of the integration (assembly excluded) and the steps done."""
    simulate(model, t_end=0.01, integrator=integrator)  # compile / warm up
    best = None
    for _ in range(repeats):
        res = simulate(model, integrator=integrator)
        best = res if best is None or res.wall_time < best.wall_time else best
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--integrator", default="rk4")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    args = ap.parse_args()
    cases = [(f"chain N={n}", chain(n)) for n in (2, 10, 50, 200)]
    cases.append(("slider-crank", load(os.path.join(ROOT, "examples", "slider_crank.json"))))
    rows = []
    for name, model in cases:
        res = measure(model, args.integrator)
        vpos, vang = res.max_violation()
        rows.append(
            dict(
                case=name,
                bodies=len(model.bodies),
                equations=res.system.m,
                steps=res.steps,
                wall_s=res.wall_time,
                steps_per_s=res.steps / res.wall_time,
                max_violation_m=vpos,
                energy_drift=res.energy_drift(),
            )
        )
        print(f"{name:14s} {rows[-1]['steps_per_s']:10.0f} steps/s  ({res.wall_time:.3f} s)", flush=True)
    os.makedirs(args.out, exist_ok=True)
    meta = dict(
        integrator=args.integrator,
        h=1e-3,
        t_end=1.0,
        output_step=0.01,
        python=platform.python_version(),
        machine=platform.machine(),
        cpus=os.cpu_count(),
        date=time.strftime("%Y-%m-%d"),
    )
    with open(os.path.join(args.out, "solver_speed.json"), "w") as f:
        json.dump(dict(meta=meta, rows=rows), f, indent=2)
    with open(os.path.join(args.out, "solver_speed.md"), "w") as f:
        f.write(f"# Solver speed ({args.integrator}, h = 1e-3 s, 1 s simulated, output every 0.01 s)\n\n")
        f.write(
            f"{meta}\n\n| case | bodies | equations | steps | wall [s] | steps/s | max violation [m] | energy drift |\n"
        )
        f.write("|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write(
                f"| {r['case']} | {r['bodies']} | {r['equations']} | {r['steps']} | {r['wall_s']:.4f} | "
                f"{r['steps_per_s']:.0f} | {r['max_violation_m']:.2e} | {r['energy_drift']:.2e} |\n"
            )


if __name__ == "__main__":
    main()
