"""Cost of joint limits that are never reached (issue 32, item 10): the same chain of revolute
pendulums run with and without far-away angle limits; CPU time (time.process_time, best of
``repeats``) of the integration, compiled kernels warm. Writes bench/results/joint_stops_cost.md.

    /usr/bin/python3 bench/joint_stops_cost.py [--links 5] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from MBDWorkbench.solver import from_dict, simulate  # noqa: E402


def revolute_chain(links: int) -> tuple[list[dict], list[dict]]:
    """(bodies, joints) of a planar chain of ``links`` 0.3 m rods on revolute joints about z, released
    horizontal along x (the chain bench/joint_friction_cost.py uses too)."""
    bodies, joints = [], []
    for k in range(links):
        bodies.append(
            {"name": f"r{k}", "mass": 1.0, "inertia": [1e-4, 7.5e-3, 7.5e-3], "position": [0.3 * k + 0.15, 0, 0]}
        )
        joints.append({"name": f"j{k}", "type": "revolute", "body_i": "ground" if k == 0 else f"r{k - 1}",
                       "body_j": f"r{k}", "frame": {"origin": [0.3 * k, 0, 0], "z_axis": [0, 0, 1],
                                                    "x_axis": [1, 0, 0]}})  # fmt: skip
    return bodies, joints


def chain(links: int, limits: bool, integrator: str, stop: str = "compliant") -> dict:
    """The revolute chain under gravity -y; with ``limits`` every joint gets angle limits of +-3 rad it
    never reaches in 1 s (the first joint swings less than pi / 2, the others less than 3 rad relative)."""
    bodies, joints = revolute_chain(links)
    if limits:
        for joint in joints:
            joint.update(angle_min=-3.0, angle_max=3.0, angle_stop={"model": stop})
    settings = {"t_end": 1.0, "step": 2e-4, "output_step": 0.01, "integrator": integrator}
    return {"gravity": [0, -9.81, 0], "bodies": bodies, "joints": joints, "settings": settings}


def cpu_time(data: dict, repeats: int) -> tuple[float, object]:
    best, res = float("inf"), None
    for _ in range(repeats):
        model = from_dict(data)
        t0 = time.process_time()
        res = simulate(model)
        best = min(best, time.process_time() - t0)
    return best, res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--links", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--stop", choices=("compliant", "rigid"), default="compliant", help="the stop model")
    args = ap.parse_args()
    command = f"python3 bench/joint_stops_cost.py --links {args.links} --repeats {args.repeats} --stop {args.stop}"
    lines = [
        "# Joint limits never reached: cost",
        "",
        f"`{command}`: CPU time (best of the repeats) of a 1 s run of a chain of revolute pendulums, with "
        "and without angle limits of +-3 rad that no joint reaches (machine shared with other jobs).",
        "",
        "| integrator | without [s] | with [s] | ratio | max stop effort |",
        "|---|---|---|---|---|",
    ]
    for integrator in ("rk4", "bdf", "galpha"):
        simulate(from_dict(chain(args.links, True, integrator, args.stop)))  # compile and warm
        plain, _ = cpu_time(chain(args.links, False, integrator), args.repeats)
        limited, res = cpu_time(chain(args.links, True, integrator, args.stop), args.repeats)
        effort = max(abs(res.joint_stop_effort(f"j{k}")).max() for k in range(args.links))
        lines.append(f"| {integrator} | {plain:.3f} | {limited:.3f} | {limited / plain:.3f} | {effort:g} |")
        print(lines[-1], flush=True)
    name = "joint_stops_cost.md" if args.stop == "compliant" else f"joint_stops_cost_{args.stop}.md"
    with open(os.path.join(HERE, "results", name), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
