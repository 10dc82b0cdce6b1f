"""Cost of joint limits that are never reached (issue 32, item 10): the same chain of revolute
pendulums run with and without far-away angle limits, compliant and rigid; CPU time
(time.process_time, best of ``repeats``, the runs of a row interleaved so that a change of the
machine's load falls on all of them) of the run without the accuracy estimate's companion,
compiled kernels warm. Writes bench/results/joint_stops_cost.md.

    /usr/bin/python3 bench/joint_stops_cost.py [--links 5] [--repeats 7]
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
    settings = {"t_end": 1.0, "step": 2e-4, "output_step": 0.01, "integrator": integrator, "accuracy": False}
    return {"gravity": [0, -9.81, 0], "bodies": bodies, "joints": joints, "settings": settings}


def cpu_time(data: dict, repeats: int) -> tuple[float, object]:
    """(best CPU time [s] of ``repeats`` runs of the model ``data``, the last run's Results)."""
    best, res = float("inf"), None
    for _ in range(repeats):
        model = from_dict(data)
        t0 = time.process_time()
        res = simulate(model)
        best = min(best, time.process_time() - t0)
    return best, res


STOPS = ("compliant", "rigid")
INTEGRATORS = ("rk4", "bdf", "galpha", "cros")


def row(links: int, integrator: str, repeats: int) -> tuple[list[float], float]:
    """([CPU time without limits, with compliant, with rigid limits] [s], the largest stop effort
    [N m] of the limited runs), the three runs interleaved ``repeats`` times."""
    models = [chain(links, False, integrator)] + [chain(links, True, integrator, stop) for stop in STOPS]
    for data in models:
        simulate(from_dict(data))  # compile and warm
    best, effort = [float("inf")] * len(models), 0.0
    for _ in range(repeats):
        for i, data in enumerate(models):
            cpu, res = cpu_time(data, 1)
            best[i] = min(best[i], cpu)
            if i:
                effort = max(effort, *(abs(res.joint_stop_effort(f"j{k}")).max() for k in range(links)))
    return best, effort


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--links", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--integrators", nargs="+", default=list(INTEGRATORS), choices=INTEGRATORS)
    args = ap.parse_args()
    command = f"python3 bench/joint_stops_cost.py --links {args.links} --repeats {args.repeats}"
    load = [os.getloadavg()[0]]
    rows = []
    for integrator in args.integrators:
        (plain, compliant, rigid), effort = row(args.links, integrator, args.repeats)
        rows.append(f"| {integrator} | {plain:.3f} | {compliant:.3f} | {compliant / plain:.3f} | {rigid:.3f} | "
                    f"{rigid / plain:.3f} | {effort:g} |")  # fmt: skip
        print(rows[-1], flush=True)
        load.append(os.getloadavg()[0])
    lines = [
        "# Joint limits never reached: cost",
        "",
        f"`{command}`: CPU time (best of the repeats, the three runs of a row interleaved) of a 1 s run "
        f"(step 2e-4 s) of a chain of {args.links} revolute pendulums, without limits and with angle limits "
        "of +-3 rad that no joint reaches, compliant or rigid; no accuracy estimate (its companion would "
        f"run the same model). Load average (1 min) {min(load):.1f}-{max(load):.1f} during the run, 2 CPUs.",
        "",
        "| integrator | without [s] | compliant [s] | ratio | rigid [s] | ratio | max stop effort [N m] |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]
    with open(os.path.join(HERE, "results", "joint_stops_cost.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
