"""CPU cost per step of rk4_tree's compiled step loop (``tree_kernel.run_tree``, n steps a call),
issue 33 item 7: the peers' stop pendulum of bench/peers_events.py (its compliant stop, a free swing
of 0.2 s that does not reach the stop), the driven cam of bench/peers_events_cambox.py (rk4_tree, the
cam driven) and a 10-link revolute chain (bench/joint_stops_cost.py, no limits). Each case: the
stepper built as simulate() builds it, then run_tree from the same start nsteps at a time; CPU
time (time.process_time) per step, best of ``repeats``, kernels warm. Runs are kept per ``--label``
in bench/results/tree_step_cost.json and the page bench/results/tree_step_cost.md shows them side
by side (before / after a change). Run in .venv-bench (the scenes' modules import mujoco).

    .venv-bench/bin/python bench/tree_step_cost.py --label after [--repeats 7]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench import joint_stops_cost, peers_events, peers_events_cambox  # noqa: E402
from bench.results_page import RESULTS, commit, load_note, write_page  # noqa: E402
from MBDWorkbench.solver import from_dict  # noqa: E402
from MBDWorkbench.solver.integrators import make_stepper  # noqa: E402
from MBDWorkbench.solver.integrators.tree_kernel import run_tree  # noqa: E402
from MBDWorkbench.solver.system import System  # noqa: E402


class _Model(Exception):
    """Carries the model dict a scene function hands to run_ours (captured, not run)."""


def _capture(model: dict, **_):
    raise _Model(model)


def scene_model(scene, *args, **kwargs) -> dict:
    """The model dict the bench scene function ``scene`` would simulate."""
    saved, peers_events.run_ours = peers_events.run_ours, _capture
    try:
        scene(*args, **kwargs)
    except _Model as m:
        return m.args[0]
    finally:
        peers_events.run_ours = saved
    raise RuntimeError(f"{scene.__name__} did not build a model")


def cases() -> dict:
    """name -> (model dict, steps per run_tree call)."""
    w = peers_events_cambox.CAM_W
    return {
        "stop pendulum (1 joint angle, free swing, h 1e-4 s)": (
            scene_model(peers_events.ours_stop, "compliant", 1e-4, 1.5, "rk4_tree"), 2000),
        "driven cam (2 joint coordinates, cam driven, contact)": (
            scene_model(peers_events_cambox.ours_cam, w, 2 * np.pi / w, 1e-3, integrator="rk4_tree"), 2000),
        "10-link revolute chain": (joint_stops_cost.chain(10, False, "rk4_tree"), 1000),
    }  # fmt: skip


def us_per_step(data: dict, nsteps: int, repeats: int) -> float:
    """Best CPU time per step [us] of run_tree over nsteps from the model's start."""
    system = System(from_dict(data))
    settings = system.model.settings
    st = make_stepper(system, settings, 0.0, system.Y0.copy())
    acc, Y = np.zeros(6), system.Y0.copy()
    best = float("inf")
    for _ in range(repeats + 1):  # the first a warm-up
        q, qd = st.q.copy(), st.qd.copy()
        t0 = time.process_time()
        done, status = run_tree(0.0, q, qd, settings.step, nsteps, st.tree, st.work, system.static, acc, Y)
        best = min(best, time.process_time() - t0)
        assert done == nsteps and status == 0, (done, status)
    return best / nsteps * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--label", default="this tree")
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    path = os.path.join(RESULTS, "tree_step_cost.json")
    runs = json.load(open(path)) if os.path.exists(path) else {}
    load = os.getloadavg()[0]
    row = {name: us_per_step(d, n, args.repeats) for name, (d, n) in cases().items()}
    runs[args.label] = {"us": row, "load": [load, os.getloadavg()[0]], "commit": commit()}
    with open(path, "w") as f:
        json.dump(runs, f, indent=1)
    labels = list(runs)
    table = ["| case | " + " | ".join(f"{lb} [us/step]" for lb in labels) + " |", "|---" * (len(labels) + 1) + "|"]
    for name in row:
        table.append(f"| {name} | " + " | ".join(f"{runs[lb]['us'].get(name, float('nan')):.3f}" for lb in labels)
                     + " |")  # fmt: skip
    loads = "; ".join(
        f"{lb}: commit {r['commit']}, load {r['load'][0]:.1f}-{r['load'][1]:.1f}" for lb, r in runs.items()
    )
    note = (f"CPU time (time.process_time) per step of `run_tree` (nsteps a call, kernels warm), best of "
            f"{args.repeats}; 2 CPUs shared with other jobs, {load_note()} at the end. Runs: {loads}.")  # fmt: skip
    write_page("tree_step_cost", "rk4_tree: CPU per step of the compiled step loop (bench/tree_step_cost.py)", note,
               table)  # fmt: skip


if __name__ == "__main__":
    main()
