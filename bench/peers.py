"""Ours and the peers (Exudyn, MuJoCo) side by side in one run: steps per second, agreement on
the motion, and work-precision (error against a converged reference vs wall time).

Cases: the chain of N revolute links of bench/solver_speed.py (N = 2, 10, 50, 200, 1000; links
0.2 m, 0.5 kg, axes alternating y/z, straight along x at rest, gravity -z) and the slider-crank
example (examples/slider_crank.json).

Codes (each at the same fixed step h unless adaptive):

* ours rk4 (redundant coordinates, Baumgarte ODE form), ours galpha at fixed h (the adaptive
  galpha's step control off) and ours cros (fixed h); ours rk4_tree (joint coordinates,
  articulated-body algorithm: open trees only, so the chains and not the slider-crank);
* Exudyn 1.13.6 generalized-alpha (Euler-parameter rigid bodies + joints, index 3, its faster
  linear solver) and Exudyn RK44 on the minimal-coordinate ObjectKinematicTree (its explicit
  solvers cannot solve joint constraints; bench/exudyn_compare.py explains);
* MuJoCo RK4 (minimal coordinates: nested bodies with hinge joints, contacts off), stepped in C
  by ``mujoco.rollout`` (no Python per step). MuJoCo has no slider-crank here: a closed loop
  needs its soft equality constraints, which do not hold the loop exactly.

Steps per second: the best of ``--repeats`` interleaved runs, without output (ours: output
step = t_end; ``res.wall_time``, assembly excluded). Long cases run a shorter time span so that
one run takes about a second; the steps/s are per step regardless. Agreement: the tip of the
last link (slider position for the slider-crank) at the end, against ours rk4.

Work-precision: for the slider-crank (motor torque at 2 s [N m]: the crank turns at a constant
speed, so every position is fixed by the kinematics and only the loads measure the dynamics) and
the N = 50 chain (tip position at 1 s [m]), each
code at a ladder of steps (tolerances for radau) against a reference = ours rk4 at h = 1e-5 s,
itself checked against Exudyn RK44 (chain) / Exudyn GA (slider-crank) at the finest step.

Run: /usr/bin/python3 bench/peers.py [--sizes 2 10 50 200 1000] [--repeats 3] [--no-wp] [--rewrite]
If exudyn or mujoco are not importable the script creates .venv-bench/ in the repo root (system
site packages, so numpy/scipy/numba are the system ones) with them installed and re-runs itself
there. Writes bench/results/peers.{md,json} and bench/results/peers_work_precision.png.
Not part of the test suite.
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
PINS = {"exudyn": "exudyn==1.13.6", "mujoco": "mujoco==4.0.0"}


if __name__ == "__main__":
    from bench.peer_venv import ensure_modules

    ensure_modules(PINS, __file__)

import exudyn as exu  # noqa: E402
import mujoco  # noqa: E402
import numpy as np  # noqa: E402

from bench.exudyn_compare import (  # noqa: E402
    LINK,
    MASS,
    exu_chain_bodies,
    exu_chain_tree,
    exu_settings,
    exu_slider_crank,
)
from bench.solver_speed import chain  # noqa: E402
from MBDWorkbench.solver import load, simulate  # noqa: E402
from MBDWorkbench.solver.integrators import METHODS  # noqa: E402
from MBDWorkbench.solver.integrators.galpha import GAlphaStepper  # noqa: E402

J_LINK = MASS * LINK**2 / 12
TARGET_RUN_S = 1.0  # each timed run should take about this long


class FixedGAlpha(GAlphaStepper):
    """Our galpha at a fixed step h (its step-size control off), for the same-h comparison."""

    def __init__(self, system, settings, t0, Y0):
        super().__init__(system, settings, t0, Y0, adaptive=False)


# ----------------------------------------------------------------------------- MuJoCo
def mujoco_chain_xml(n: int, h: float) -> str:
    """MJCF of the chain: nested bodies, hinge k about y (even k) or z (odd k) at the link's start."""
    body = ""
    for k in reversed(range(n)):
        axis = "0 1 0" if k % 2 == 0 else "0 0 1"
        pos = "0 0 0" if k == 0 else f"{LINK} 0 0"
        body = (
            f'<body name="L{k}" pos="{pos}"><joint type="hinge" axis="{axis}"/>'
            f'<inertial pos="{LINK / 2} 0 0" mass="{MASS}" diaginertia="1e-4 {J_LINK} {J_LINK}"/>{body}</body>'
        )
    return (
        f'<mujoco><option timestep="{h}" integrator="RK4" gravity="0 0 -9.81"><flag contact="disable"/></option>'
        f"<worldbody>{body}</worldbody></mujoco>"
    )


def mujoco_runner(n: int, h: float, steps: int):
    """(run() -> (seconds, tip [m])) for the MuJoCo chain over ``steps`` steps of h."""
    from mujoco import rollout

    model = mujoco.MjModel.from_xml_string(mujoco_chain_xml(n, h))
    data = mujoco.MjData(model)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    state0 = np.empty(mujoco.mj_stateSize(model, spec))
    mujoco.mj_getState(model, data, state0, spec)

    def tip(state):
        d = mujoco.MjData(model)
        mujoco.mj_setState(model, d, state, spec)
        mujoco.mj_forward(model, d)
        last = model.nbody - 1
        return d.xpos[last] + d.xmat[last].reshape(3, 3) @ [LINK, 0.0, 0.0]

    def run():
        t0 = time.perf_counter()
        states, _ = rollout.rollout(model, data, state0, nstep=steps)
        return time.perf_counter() - t0, tip(states[0, -1])

    return run


# ----------------------------------------------------------------------------- runners
def ours_run(model, integrator: str, t_end: float, h: float, observe, **kw):
    """run() -> (seconds, observation) of ours without output over [0, t_end] at step h."""

    def run():
        saved = METHODS["galpha"]
        if integrator == "galpha_fixed":
            METHODS["galpha"] = FixedGAlpha
        try:
            res = simulate(
                model,
                integrator="galpha" if integrator == "galpha_fixed" else integrator,
                t_end=t_end,
                step=h,
                output_step=t_end,
                **kw,
            )
        finally:
            METHODS["galpha"] = saved
        return res.wall_time, observe(res)

    return run


def exu_run(mbs, observe, t_end: float, steps: int, solver, sparse: bool):
    def run():
        s = exu_settings(t_end, steps, sparse)
        t0 = time.perf_counter()
        mbs.SolveDynamic(s, solverType=solver)
        return time.perf_counter() - t0, observe()

    return run


def best_of(runs: dict, repeats: int) -> dict:
    """Interleaved repeats of each run; {name: (best seconds, observation of the last run)}."""
    best = {k: (float("inf"), None) for k in runs}
    for _ in range(repeats):
        for k, run in runs.items():
            t, obs = run()
            best[k] = (min(best[k][0], t), obs)
    return best


MUJOCO_MAX_DEPTH = 400  # MuJoCo's XML parser refuses deeper nesting (XML_ELEMENT_DEPTH_EXCEEDED at N = 1000)


def chain_tip(n):
    return lambda res: np.asarray(res.point(f"L{n - 1}", [LINK / 2, 0, 0])[-1])


def chain_gap(ends) -> float:
    """Largest gap [m] of the chain's revolute joints (link k's start against link k - 1's end, the
    first against the origin): the position part of their constraint violation. ``ends(k)`` = the
    (start, end) points of link k."""
    prev, gap = np.zeros(3), 0.0
    for start, end in ends:
        gap = max(gap, float(np.linalg.norm(np.asarray(start) - prev)))
        prev = np.asarray(end)
    return gap


def without_gap(run):
    """A minimal-coordinate run (its joints cannot open): its observation (tip) with a NaN gap."""

    def wrapped():
        seconds, tip = run()
        return seconds, np.r_[tip, np.nan]

    return wrapped


def chain_observe(n):
    """(tip position [m] at the end, joint gap [m] at the end, the integrated state's largest
    position violation [m] where the samples are its projection onto the joints (cros), else NaN)
    of our run, as one array."""

    def observe(res):
        ends = ((res.point(f"L{k}", [s * LINK / 2, 0, 0])[-1] for s in (-1, 1)) for k in range(n))
        behind = np.nan if res.integrated_violation is None else res.integrated_violation[0]
        return np.r_[chain_tip(n)(res), chain_gap(ends), behind]

    return observe


def exu_chain_observe(mbs, tip):
    """chain_observe for Exudyn's rigid-body chain (its bodies in order)."""
    bodies = [i for i in range(mbs.systemData.NumberOfObjects()) if mbs.GetObject(i)["objectType"] == "RigidBody"]

    def point(b, x):
        return mbs.GetObjectOutputBody(b, exu.OutputVariableType.Position, localPosition=[x, 0, 0])

    return lambda: np.r_[tip(), chain_gap((point(b, -LINK / 2), point(b, LINK / 2)) for b in bodies)]


def span_for(n: int, h: float) -> float:
    """Simulated time [s] of one timed run: 1 s, shorter for long chains (a run about TARGET_RUN_S)."""
    est_step_s = 2e-5 * n + 5e-6  # rough cost of our slowest fixed-step code per step
    steps = max(50, min(1000, int(TARGET_RUN_S / est_step_s)))
    return steps * h


# ----------------------------------------------------------------------------- steps per second
def chain_speed(n: int, repeats: int, h: float = 1e-3) -> dict:
    t_end = span_for(n, h)
    steps = int(round(t_end / h))
    model = chain(n)
    observe = chain_observe(n)
    runs = {
        "ours_rk4": ours_run(model, "rk4", t_end, h, observe),
        "ours_galpha": ours_run(model, "galpha_fixed", t_end, h, observe),
        "ours_cros": ours_run(model, "cros", t_end, h, observe),
        "ours_rk4_tree": ours_run(model, "rk4_tree", t_end, h, observe),
    }
    if n <= MUJOCO_MAX_DEPTH:  # the chain is nested bodies, one XML level each
        runs["mujoco_rk4"] = without_gap(mujoco_runner(n, h, steps))
    _, bodies, bodies_tip = exu_chain_bodies(n)
    bodies_observe = exu_chain_observe(bodies, bodies_tip)
    runs["exu_ga"] = exu_run(bodies, bodies_observe, t_end, steps, exu.DynamicSolverType.GeneralizedAlpha, n > 10)
    if n <= 200:  # the kinematic tree factorises a dense N x N mass matrix per stage: hours at N = 1000
        _, tree, tree_tip = exu_chain_tree(n)
        runs["exu_rk44"] = without_gap(exu_run(tree, tree_tip, t_end, steps, exu.DynamicSolverType.RK44, False))
    for run in runs.values():  # warm up (compiles ours)
        run()
    best = best_of(runs, repeats)
    ref = best["ours_rk4"][1][:3]
    return dict(
        case=f"chain N={n}",
        steps=steps,
        h=h,
        steps_per_s={k: steps / t for k, (t, _) in best.items()},
        tip_diff_vs_ours_rk4={k: float(np.linalg.norm(np.asarray(obs)[:3] - ref)) for k, (_, obs) in best.items()},
        joint_gap={k: float(obs[3]) for k, (_, obs) in best.items() if np.isfinite(obs[3])},
        integrated_gap={k: float(obs[4]) for k, (_, obs) in best.items() if len(obs) > 4 and np.isfinite(obs[4])},
    )


def slider_crank_speed(repeats: int) -> dict:
    model = load(os.path.join(ROOT, "examples", "slider_crank.json"))
    t_end, h = model.settings.t_end, model.settings.step
    steps = int(round(t_end / h))

    def observe(res):
        return np.array([res.position("slider")[-1][0]])

    _, mbs, exu_observe = exu_slider_crank(model)
    runs = {
        "ours_rk4": ours_run(model, "rk4", t_end, h, observe),
        "ours_galpha": ours_run(model, "galpha_fixed", t_end, h, observe),
        "ours_cros": ours_run(model, "cros", t_end, h, observe),
        "exu_ga": exu_run(
            mbs, lambda: np.array([exu_observe()[0]]), t_end, steps, exu.DynamicSolverType.GeneralizedAlpha, False
        ),
    }
    for run in runs.values():
        run()
    best = best_of(runs, repeats)
    ref = best["ours_rk4"][1]
    return dict(
        case="slider-crank",
        steps=steps,
        h=h,
        steps_per_s={k: steps / t for k, (t, _) in best.items()},
        tip_diff_vs_ours_rk4={k: float(np.linalg.norm(np.asarray(obs) - ref)) for k, (_, obs) in best.items()},
    )


# ----------------------------------------------------------------------------- work-precision
STEPS = (4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4)
RTOLS = (1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9)


def work_precision(case: str) -> dict:
    """{code: [(wall s, error m), ...]} and the reference check, for 'slider-crank' or 'chain50'."""
    if case == "chain50":
        n = 50
        model, t_end, observe = chain(n), 1.0, chain_tip(n)
    else:  # the crank is driven at constant speed: positions are kinematic, the motor torque is dynamics
        model = load(os.path.join(ROOT, "examples", "slider_crank.json"))
        t_end = model.settings.t_end

        def observe(res):
            return np.array([float(res.driver_effort("motor")[-1])])

    ref = ours_run(model, "rk4", t_end, 1e-5, observe)()[1]
    curves: dict[str, list] = {}

    def add(name, run):
        try:
            run()  # warm up
            secs, obs = run()
        except Exception as exc:  # a code that fails at this step is left out of the curve, and said so
            print(f"  {case} {name}: {type(exc).__name__}: {str(exc)[:120]}", flush=True)
            return
        curves.setdefault(name.split("@")[0], []).append((secs, float(np.linalg.norm(np.asarray(obs) - ref))))

    for h in STEPS:
        steps = int(round(t_end / h))
        for code in ("rk4", "galpha_fixed", "cros") + (("rk4_tree",) if case == "chain50" else ()):
            add(f"ours_{code}@{h}", ours_run(model, code, t_end, h, observe))
        if case == "chain50":
            _, bodies, tip = exu_chain_bodies(n)
            add(f"exu_ga@{h}", exu_run(bodies, tip, t_end, steps, exu.DynamicSolverType.GeneralizedAlpha, True))
            _, tree, tree_tip = exu_chain_tree(n)
            add(f"exu_rk44@{h}", exu_run(tree, tree_tip, t_end, steps, exu.DynamicSolverType.RK44, False))
            add(f"mujoco_rk4@{h}", mujoco_runner(n, h, steps))
        else:
            _, mbs, ob = exu_slider_crank(model)
            add(
                f"exu_ga@{h}",
                exu_run(
                    mbs, lambda ob=ob: np.array([ob()[1]]), t_end, steps, exu.DynamicSolverType.GeneralizedAlpha, False
                ),
            )
    for rtol in RTOLS:
        add(f"ours_radau@{rtol}", ours_run(model, "radau", t_end, 1e-3, observe, rtol=rtol, atol=rtol * 1e-2))
    check = _reference_check(case, model, t_end, ref)
    unit = "m (tip position)" if case == "chain50" else "N m (motor torque)"
    return dict(case=case, unit=unit, reference="ours rk4, h = 1e-5 s", reference_check=check, curves=curves)


def _reference_check(case, model, t_end, ref) -> dict:
    """The reference against an independent code at its finest step here (h = 1e-5 s)."""
    h = 1e-5
    steps = int(round(t_end / h))
    if case == "chain50":
        _, tree, tip = exu_chain_tree(50)
        tree.SolveDynamic(exu_settings(t_end, steps), solverType=exu.DynamicSolverType.RK44)
        return dict(code="Exudyn RK44 (kinematic tree), h = 1e-5 s", difference=float(np.linalg.norm(tip() - ref)))
    _, mbs, ob = exu_slider_crank(model)
    mbs.SolveDynamic(exu_settings(t_end, steps), solverType=exu.DynamicSolverType.GeneralizedAlpha)
    return dict(code="Exudyn generalized-alpha, h = 1e-5 s", difference=float(abs(ob()[1] - ref[0])))


def fastest_at(curves: dict, error: float) -> list[tuple[str, float]]:
    """Each code's wall time [s] to reach ``error`` (log-log interpolation along its curve), fastest first."""
    out = []
    for code, pts in curves.items():
        pts = sorted(pts)
        ok = [(t, e) for t, e in pts if e <= error]
        if ok:
            out.append((code, ok[0][0]))
    return sorted(out, key=lambda x: x[1])


# ----------------------------------------------------------------------------- report
CODES = ["ours_rk4", "ours_rk4_tree", "ours_galpha", "ours_cros", "exu_ga", "exu_rk44", "mujoco_rk4"]
LABELS = dict(
    ours_rk4="ours rk4",
    ours_rk4_tree="ours rk4_tree (joint coordinates)",
    ours_galpha="ours galpha (fixed h)",
    ours_cros="ours cros",
    exu_ga="Exudyn GA",
    exu_rk44="Exudyn RK44 (tree)",
    mujoco_rk4="MuJoCo RK4",
)


def write(out_dir: str, meta: dict, speed: list, wp: list) -> None:
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "peers.json"), "w") as f:
        json.dump(dict(meta=meta, speed=speed, work_precision=wp), f, indent=1)
    lines = [
        "# Ours vs Exudyn and MuJoCo, one run (bench/peers.py)",
        "",
        f"{meta['date']}, {meta['versions']}, {meta['cpus']} CPUs, load average at start {meta['load_start']}, "
        f"at end {meta['load_end']}. Steps per second without output, best of {meta['repeats']} interleaved runs.",
        "",
        "## Steps per second at h = 1e-3 s",
        "",
        "| case | steps | " + " | ".join(LABELS[c] for c in CODES) + " |",
        "|---|---|" + "---|" * len(CODES),
    ]
    for r in speed:
        cells = [f"{r['steps_per_s'][c]:,.0f}" if c in r["steps_per_s"] else "-" for c in CODES]
        lines.append(f"| {r['case']} | {r['steps']} | " + " | ".join(cells) + " |")
    lines += ["", "## Ratios (ours / peer steps per second; > 1: ours faster)", ""]
    pairs = [
        ("ours_rk4", "mujoco_rk4"),
        ("ours_rk4_tree", "mujoco_rk4"),
        ("ours_rk4", "exu_rk44"),
        ("ours_rk4_tree", "exu_rk44"),
        ("ours_galpha", "exu_ga"),
        ("ours_cros", "exu_ga"),
        ("ours_rk4", "exu_ga"),
    ]
    lines += ["| case | " + " | ".join(f"{LABELS[a]} / {LABELS[b]}" for a, b in pairs) + " |"]
    lines += ["|---|" + "---|" * len(pairs)]
    for r in speed:
        sps = r["steps_per_s"]
        cells = [f"{sps[a] / sps[b]:.2f}" if a in sps and b in sps else "-" for a, b in pairs]
        lines.append(f"| {r['case']} | " + " | ".join(cells) + " |")
    lines += ["", "## Agreement: end position against ours rk4 [m]", ""]
    lines += ["| case | " + " | ".join(LABELS[c] for c in CODES if c != "ours_rk4") + " |"]
    lines += ["|---|" + "---|" * (len(CODES) - 1)]
    for r in speed:
        d = r["tip_diff_vs_ours_rk4"]
        lines.append(
            f"| {r['case']} | " + " | ".join(f"{d[c]:.1e}" if c in d else "-" for c in CODES if c != "ours_rk4") + " |"
        )
    lines += ["", "## Joint gap at the end [m] (chain: the revolutes' position violation)", ""]
    lines += [
        "Of the recorded state. Ours cros records its state closed onto the joints (docs/index3.md, 'The samples'); "
        "the last column is the largest position violation of the state it integrates, over the run.",
        "",
    ]
    gap_codes = ["ours_rk4", "ours_rk4_tree", "ours_galpha", "ours_cros", "exu_ga"]
    head = [LABELS[c] for c in gap_codes] + ["ours cros, integrated state"]
    lines += ["| case | " + " | ".join(head) + " |", "|---|" + "---|" * len(head)]
    for r in speed:
        if "joint_gap" in r:
            g, behind = r["joint_gap"], r.get("integrated_gap", {}).get("ours_cros")
            cells = [f"{g[c]:.1e}" if c in g else "-" for c in gap_codes] + [f"{behind:.1e}" if behind else "-"]
            lines.append(f"| {r['case']} | " + " | ".join(cells) + " |")
    lines += ["", "## Issue 14's targets in this run", ""] + target_lines(speed, wp)
    lines += ["", "## Work-precision", "", "![work-precision](peers_work_precision.png)", ""]
    for w in wp:
        chk = w["reference_check"]
        lines += [f"### {w['case']}", ""]
        if w["case"] == "slider-crank":
            lines += [
                "The crank turns at a prescribed speed, so the slider-crank's motion is pure kinematics and every "
                "code gets the positions right; the motor torque (a constraint multiplier) is what differs: it "
                "measures the accuracy of the loads an engineer reads. Index-3 schemes get their own multipliers "
                "to a lower order than positions (Exudyn GA here); ours galpha and cros report the multipliers of "
                "their state (KKT at the velocities projected onto the velocity constraints, docs/index3.md), "
                "as exact as the positions, which the kinematics fix here.",
                "",
            ]
        lines += [
            f"Reference: {w['reference']}; against {chk['code']}: {chk['difference']:.1e} {w['unit']}.",
            "",
            f"| code | (wall s, error {w['unit']}) from coarse to fine |",
            "|---|---|",
        ]
        for code, pts in w["curves"].items():
            lines.append(f"| {code} | " + ", ".join(f"({t:.3g}, {e:.1e})" for t, e in pts) + " |")
        for target in (1e-4, 1e-6):
            order = fastest_at(w["curves"], target)
            text = ", ".join(f"{c} {t:.3g} s" for c, t in order) or "none reached it"
            lines.append(f"\nFastest to an error <= {target:g} {w['unit']}: {text}.")
        lines.append("")
    with open(os.path.join(out_dir, "peers.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if wp:
        plot(os.path.join(out_dir, "peers_work_precision.png"), wp)


GAP_FLOOR = 1e-12  # m: joint gaps below this are rounding (a link of 0.2 m), so "no worse" holds below it


def _ratios(speed: list, a: str, b: str, cases=lambda case: True) -> dict:
    return {
        r["case"]: r["steps_per_s"][a] / r["steps_per_s"][b]
        for r in speed
        if a in r["steps_per_s"] and b in r["steps_per_s"] and cases(r["case"])
    }


def _verdict(ratios: dict, at_least: float) -> str:
    cells = ", ".join(f"{case} {v:.3f}" for case, v in ratios.items())
    short = [case for case, v in ratios.items() if v < at_least]
    return f"{'met' if ratios and not short else 'not met'} ({cells})"


def target_lines(speed: list, wp: list) -> list[str]:
    """Issue 14's targets measurable in this run, each with its ratios and met / not met."""
    n_of = lambda case: int(case.split("=")[1]) if case.startswith("chain") else None  # noqa: E731
    out = [
        f"- galpha (fixed h) at least Exudyn GA's steps/s: {_verdict(_ratios(speed, 'ours_galpha', 'exu_ga'), 1.0)}.",
        f"- cros at least Exudyn GA's steps/s: {_verdict(_ratios(speed, 'ours_cros', 'exu_ga'), 1.0)}.",
    ]
    for code in ("ours_galpha", "ours_cros"):
        worse = []
        for r in speed:
            g = r.get("joint_gap", {})
            if code in g and "exu_ga" in g and g[code] > max(g["exu_ga"], GAP_FLOOR):
                worse.append(f"{r['case']} {g[code]:.1e} m against {g['exu_ga']:.1e} m")
        text = "met" if not worse else "not met (" + "; ".join(worse) + ")"
        out.append(f"- {LABELS[code]}'s joint gap no worse than Exudyn GA's (or below {GAP_FLOOR:g} m): {text}.")
    for code in ("ours_rk4", "ours_rk4_tree"):
        name = LABELS[code].replace("ours ", "")
        out.append(f"- {name} at least 0.5x MuJoCo RK4: {_verdict(_ratios(speed, code, 'mujoco_rk4'), 0.5)}.")
        at_10 = _ratios(speed, code, "exu_rk44", lambda case: (n_of(case) or 0) >= 10)
        out.append(f"- {name} at least Exudyn RK44 (tree) at N >= 10: {_verdict(at_10, 1.0)}.")
    for w in wp:
        order = fastest_at(w["curves"], 1e-6)
        first = order[0][0] if order else "none"
        text = "met" if first.startswith("ours") else "not met"
        out.append(f"- {w['case']}: ours fastest to an error of 1e-6 {w['unit']}: {text} (fastest: {first}).")
    out.append(
        "- Per-step linearity (N = 1000 / N = 100), cold start and no slowdown are measured by "
        "bench/large_start.py, bench/cold_start.py and bench/kkt_compare.py (their results files)."
    )
    return out


def plot(path: str, wp: list) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(wp), figsize=(6 * len(wp), 4.5), squeeze=False)
    for ax, w in zip(axes[0], wp):
        for code, pts in w["curves"].items():
            t, e = zip(*pts)
            ax.loglog(t, np.maximum(e, 1e-16), "o-", label=code)
        ax.set_title(w["case"])
        ax.set_xlabel("wall time [s]")
        ax.set_ylabel("error at the end [%s]" % w["unit"])
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[2, 10, 50, 200, 1000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-wp", action="store_true", help="skip the work-precision part")
    ap.add_argument("--wp-cases", nargs="+", default=["slider-crank", "chain50"], choices=["slider-crank", "chain50"])
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--rewrite", action="store_true", help="only rewrite peers.md and the plot from --out's peers.json")
    args = ap.parse_args()
    if args.rewrite:
        with open(os.path.join(args.out, "peers.json")) as f:
            saved = json.load(f)
        write(args.out, saved["meta"], saved["speed"], saved["work_precision"])
        return
    import numba
    import scipy

    meta = dict(
        date=time.strftime("%Y-%m-%d"),
        cpus=os.cpu_count(),
        repeats=args.repeats,
        load_start=round(os.getloadavg()[0], 2),
        versions=f"Exudyn {exu.__version__}, MuJoCo {mujoco.__version__}, numpy {np.__version__}, "
        f"numba {numba.__version__}, scipy {scipy.__version__}, Python {platform.python_version()}",
    )
    speed = []
    for n in args.sizes:
        speed.append(chain_speed(n, args.repeats))
        print(speed[-1]["case"], {k: round(v) for k, v in speed[-1]["steps_per_s"].items()}, flush=True)
    speed.append(slider_crank_speed(args.repeats))
    print("slider-crank", {k: round(v) for k, v in speed[-1]["steps_per_s"].items()}, flush=True)
    wp = [] if args.no_wp else [work_precision(case) for case in args.wp_cases]
    meta["load_end"] = round(os.getloadavg()[0], 2)
    write(args.out, meta, speed, wp)
    print(f"wrote {os.path.join(args.out, 'peers.md')}")


if __name__ == "__main__":
    main()
