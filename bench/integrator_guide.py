"""Speed and accuracy of every integrator at its default settings, for the integrator guide of
docs/solver.md ("Which integrator").

Per (model, integrator), through ``simulate()`` (the entry a user calls; the Numba kernels
compiled beforehand by a short run): CPU and wall time, steps taken, steps per CPU second, the
largest position error against a reference, the energy error of conservative models
(:func:`quality.energy_error`: |E - E(0) - works| / energy exchanged), the largest position
violation (for cros: of the state it integrates) and the status. Models (examples/*.json,
at their own settings, t_end below):

- pendulum (open tree, 1 body, 4 s): reference the 1-DoF ODE of tests/oracles/pendulum.py
  (DOP853, rtol 1e-12), the bob's position;
- two_link (open tree, [R3]'s double pendulum, 4 s): reference the minimal-coordinate ODE of
  tests/oracles/two_link.py (DOP853, rtol 1e-12), the tip of link 2;
- slider_crank (closed loop, a motor driver and a spring, 2 s): reference radau at
  rtol 1e-11, atol 1e-13, every body's position; also the motor torque error [N m];
- bricard (over-constrained closed loop, 1 DoF, 2 s): reference radau at rtol 1e-11,
  atol 1e-13, every body's position;
- two_link_k1e6, two_link_k1e7 (two_link with a torsion spring of 1e6 or 1e7 N m/rad at the
  elbow, relaxed at the start: an elbow mode of about 2,100 or 6,700 rad/s, on either side of
  explicit RK4's stability limit 2.8 / h at h = 1e-3 s; 2 s): reference radau at rtol 1e-11,
  atol 1e-13 (k = 1e6), rk4 at h = 1e-4 s (k = 1e7: radau at rtol 1e-11 resolves the elbow
  mode with over 1e5 steps per second; measured against rk4 at 5e-5 s), every body's position.

Run: /usr/bin/python3 bench/integrator_guide.py [--models pendulum two_link] [--integrators rk4 galpha]
Writes bench/results/integrator_guide.{md,json}.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from oracles.pendulum import pendulum_ode_solution  # noqa: E402
from oracles.two_link import two_link_solution  # noqa: E402

from bench.results_page import commit  # noqa: E402
from MBDWorkbench.solver import from_dict, load, quality, simulate  # noqa: E402
from MBDWorkbench.solver.errors import ModelError, SimulationError  # noqa: E402
from MBDWorkbench.solver.integrators import names  # noqa: E402

RESULTS = os.path.join(ROOT, "bench", "results")
T_END = {
    "pendulum": 4.0,
    "two_link": 4.0,
    "slider_crank": 2.0,
    "bricard": 2.0,
    "two_link_k1e6": 2.0,
    "two_link_k1e7": 2.0,
}
STIFF_ELBOW = {"two_link_k1e6": 1e6, "two_link_k1e7": 1e7}  # N m/rad
TIGHT = dict(integrator="radau", rtol=1e-11, atol=1e-13)
# radau at rtol 1e-11 resolves the 6,700 rad/s elbow mode (over 2e5 steps per second): rk4 at small
# steps instead (omega h = 0.67), checked against half that step
FINE_RK4 = dict(integrator="rk4", step=1e-4, check_limits=False)


def example(name: str):
    """An example by name; ``two_link_k1e6``/``k1e7``: two_link with a stiff torsion spring at the
    elbow (relaxed at the start)."""
    if name not in STIFF_ELBOW:
        return load(os.path.join(ROOT, "examples", name + ".json"))
    with open(os.path.join(ROOT, "examples", "two_link.json")) as f:
        data = json.load(f)
    spring = dict(name="stiff", type="rotational_spring_damper", joint="elbow", stiffness=STIFF_ELBOW[name])
    data["forces"] = data.get("forces", []) + [spring]
    data["name"] = name
    return from_dict(data)


# ----------------------------------------------------------------------------- references
def pendulum_error(res) -> float:
    """Largest |bob position - closed form| [m]: released from the horizontal, theta from the
    downward vertical, effective inertia m L^2 + Jc (Jc = 4e-5 kg m^2)."""
    ref = pendulum_ode_solution(np.pi / 2, res.t, m=1.0, L=1.0, g=9.81, Jc=4e-5)
    expected = np.stack([np.sin(ref.theta), -np.cos(ref.theta)], axis=1)
    return float(np.abs(res.position("bob")[:, [0, 2]] - expected).max())


def two_link_error(res) -> float:
    """Largest |tip of link 2 - minimal-coordinate reference| [m]."""
    ref = two_link_solution(t_end=float(res.t[-1]))
    return float(np.abs(res.point("link2", [0.5, 0.0, 0.0])[:, :2] - ref.end_effector(res.t)).max())


def body_positions(res) -> np.ndarray:
    return np.stack([res.position(b) for b in res.body_names], axis=1)


class Reference:
    """Every body's position (and the drivers' efforts) of a tight run: radau at rtol 1e-11,
    atol 1e-13, or ``settings``."""

    def __init__(self, name: str, settings: dict = TIGHT) -> None:
        started = time.perf_counter()
        self.res = simulate(example(name), t_end=T_END[name], **settings)
        self.wall = time.perf_counter() - started

    def error(self, res) -> float:
        """Over the samples a run reached (one that failed stops early; same output times)."""
        n = len(res.t)
        return float(np.abs(body_positions(res) - body_positions(self.res)[:n]).max())

    def effort_error(self, res) -> float | None:
        drivers = res.driver_names
        if not drivers:
            return None
        n = len(res.t)
        return max(float(np.abs(res.driver_effort(d) - self.res.driver_effort(d)[:n]).max()) for d in drivers)


# ----------------------------------------------------------------------------- one run
def measure(name: str, integrator: str, reference) -> dict:
    model = example(name)
    row = dict(model=name, integrator=integrator)
    try:
        simulate(model, integrator=integrator, t_end=20 * model.settings.step)  # compile outside the timing
    except ModelError as e:  # rk4_tree on a closed loop or a driven model
        return dict(row, refused=str(e)[:120])
    except SimulationError:  # a blow-up: measured below
        pass
    started, cpu = time.perf_counter(), time.process_time()
    try:
        res = simulate(model, integrator=integrator, t_end=T_END[name])
    except SimulationError as e:
        res = e.results
        row["error"] = str(e)[:160]
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    vpos, _ = res.max_violation()
    if res.integrated_violation is not None:  # cros: its samples are closed onto the joints
        vpos = max(vpos, res.integrated_violation[0])
    effort = reference.effort_error(res) if isinstance(reference, Reference) else None
    return dict(
        row,
        status=res.status,
        warnings=sorted({w.kind for w in res.warnings}),
        t_reached=float(res.t[-1]),
        wall_s=wall,
        cpu_s=cpu,
        steps=int(res.steps),
        steps_per_s=res.steps / cpu,
        position_error_m=reference.error(res) if isinstance(reference, Reference) else reference(res),
        effort_error_Nm=effort,
        energy_error=quality.energy_error(res)[0] if quality.is_conservative(model) else None,
        violation_m=vpos,
    )


def reference_for(name: str):
    if name == "pendulum":
        return pendulum_error
    if name == "two_link":
        return two_link_error
    if name == "two_link_k1e7":
        return Reference(name, FINE_RK4)
    return Reference(name)


# ----------------------------------------------------------------------------- output
def fmt(x, spec: str = ".1e") -> str:
    return "-" if x is None else format(x, spec)


REFERENCE_TEXT = {
    "pendulum": "closed form (1-DoF ODE, DOP853 rtol 1e-12): bob position",
    "two_link": "minimal-coordinate ODE (DOP853 rtol 1e-12): tip of link 2",
    "slider_crank": "radau rtol 1e-11, atol 1e-13: every body's position; motor torque",
    "bricard": "radau rtol 1e-11, atol 1e-13: every body's position",
    "two_link_k1e6": "radau rtol 1e-11, atol 1e-13: every body's position",
    "two_link_k1e7": "rk4 at h = 1e-4 s: every body's position",
}


SETTINGS_TEXT = (
    "A shared machine: the process's CPU time is the measure (steps/s = steps / CPU s); wall times are "
    "inflated by the load. Through `simulate()`, after a short run that compiled the kernels; the "
    "examples' settings: fixed-step integrators (euler, symplectic_euler, rk4, rk4_tree, cros) at "
    "h = 1e-3 s, SciPy's (bdf, radau, lsoda) and galpha (adaptive) at rtol 1e-6, atol 1e-8. Energy "
    "error: |E - E(0) - works| / energy exchanged (conservative models only). Violation: largest "
    "position violation (cros: of the state it integrates; its samples are closed onto the joints)."
)


def table(rows: list, model: str) -> list:
    lines = [
        f"### {model} ({T_END[model]:g} s; reference: {REFERENCE_TEXT[model]})",
        "",
        "| integrator | CPU [s] | wall [s] | steps | steps/s (CPU) | position error [m] | motor torque error [N m] "
        "| energy error | violation [m] | status |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["model"] != model:
            continue
        if "refused" in r:
            lines.append(f"| {r['integrator']} | - | - | - | - | - | - | - | - | refused (not an open tree) |")
            continue
        status = r["status"] + (f" ({', '.join(r['warnings'])})" if r["warnings"] else "")
        if r["status"] == "failed":  # errors of a blown-up state say nothing
            r = dict(r, position_error_m=None, effort_error_Nm=None, energy_error=None, violation_m=None)
        if r["t_reached"] < T_END[model] - 1e-9:
            status += f", stopped at t = {r['t_reached']:g} s"
        lines.append(
            f"| {r['integrator']} | {r['cpu_s']:.3f} | {r['wall_s']:.3f} | {r['steps']} | {r['steps_per_s']:,.0f} | "
            f"{fmt(r['position_error_m'])} | {fmt(r['effort_error_Nm'])} | {fmt(r['energy_error'])} | "
            f"{fmt(r['violation_m'])} | {status} |"
        )
    return lines + [""]


def write_markdown(data: dict) -> None:
    runs, rows = data["runs"], data["rows"]
    lines = ["# Every integrator at its default settings (bench/integrator_guide.py)", "", SETTINGS_TEXT, ""]
    for meta in runs:
        lines.append(
            f"- {', '.join(meta['models'])}: {meta['date']}, commit {meta['commit']}, Python {meta['python']}, "
            f"{meta['cpus']} CPUs, load average {meta['load_start']:.1f} at the start, "
            f"{meta['load_end']:.1f} at the end."
        )
    lines.append("")
    for name in dict.fromkeys(r["model"] for r in rows):
        lines += table(rows, name)
        notes = []
        if name in data.get("reference_wall_s", {}):
            notes.append(f"the reference run took {data['reference_wall_s'][name]:.1f} s (wall)")
        if name in data.get("reference_error_m", {}):
            notes.append(f"it differs from the same at half the step by {data['reference_error_m'][name]:.1e} m")
        if notes:
            lines += ["Reference: " + "; ".join(notes) + ".", ""]
    with open(os.path.join(RESULTS, "integrator_guide.md"), "w") as f:
        f.write("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", nargs="+", default=list(T_END))
    ap.add_argument("--integrators", nargs="+", default=list(names()))
    ap.add_argument("--render", action="store_true", help="only rewrite the .md from the .json")
    args = ap.parse_args()
    path = os.path.join(RESULTS, "integrator_guide.json")
    saved = dict(runs=[], rows=[], reference_wall_s={}, reference_error_m={})
    if os.path.exists(path):
        with open(path) as f:
            saved = json.load(f)
    if args.render:
        return write_markdown(saved)
    meta = dict(
        models=args.models,
        date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        commit=commit(),
        python=platform.python_version(),
        cpus=os.cpu_count(),
        load_start=os.getloadavg()[0],
    )
    rows = [r for r in saved["rows"] if r["model"] not in args.models]
    reference_wall, checks = saved["reference_wall_s"], saved.get("reference_error_m", {})
    for name in args.models:
        reference = reference_for(name)
        if isinstance(reference, Reference):
            reference_wall[name] = reference.wall
        if name == "two_link_k1e7":  # the reference's own error: against half its step
            half = Reference(name, dict(FINE_RK4, step=FINE_RK4["step"] / 2))
            checks[name] = half.error(reference.res)
        for integrator in args.integrators:
            rows.append(measure(name, integrator, reference))
            print(json.dumps(rows[-1]), flush=True)
    meta["load_end"] = os.getloadavg()[0]
    with open(path, "w") as f:
        runs = [m for m in saved["runs"] if set(m["models"]) - set(args.models)] + [meta]
        data = dict(runs=runs, reference_wall_s=reference_wall, reference_error_m=checks, rows=rows)
        json.dump(data, f, indent=1)
    write_markdown(data)


if __name__ == "__main__":
    main()
