"""Stops, joint friction and contacts: ours beside MuJoCo and Exudyn, against closed forms.

Issue 32 item 8, issue 33 item 7; the companion of bench/peers.py for events. Each scene against
its closed form or an independent SciPy solution, and CPU steps per second (time.process_time of the integration;
MuJoCo through its native ``mj_step(model, data, nstep)`` loop between samples; Exudyn's
``SolveDynamic`` with RK44, sensors in memory, its models in bench/peers_events_exudyn.py), with
the CPU time of ours over each code's for the same simulated time and step.

* stop: a rod pendulum (m 1 kg, L 0.5 m, pin at its end, gravity -y) released horizontal onto a
  stop at STOP_ANGLE. Reference: the 1-DoF pendulum solved by SciPy (rtol 1e-12) with the stop's
  event located, its impact speed w1 = sqrt(2 m g c |sin q_stop| / I) and Newton's rebound -e w1.
  Ours rigid (located event, e = 0.5) and compliant (the IMPACT law, its default contact time);
  MuJoCo's hinge ``range`` (a soft limit: solref (time constant, damping ratio), here the damping
  ratio that gives e = 0.5 for a linear spring-damper, and its default solref).
* ball: a steel ball (R 0.05 m, 1 kg) dropped from 0.2 m onto a plane: apex heights against
  e^(2n) h and touch times against the rigid-impact closed form; ours with the restitution law
  (e = 0.8, Hertz stiffness from steel), MuJoCo's sphere-plane contact with the solref damping
  ratio of e = 0.8.
* friction: a bar on a pin with Coulomb friction (mu 0.3, r 20 mm) released 0.5 rad from the
  vertical: its turning points against SciPy with the load-dependent torque mu r N (ours) and the
  constant one mu r m g (MuJoCo's ``frictionloss``).
* hertz: the same ball hitting the plane at 1 m/s without gravity: peak force and contact
  duration against Hertz's closed form ([Johnson] 11.4); MuJoCo's contact is a linear
  spring-damper (solref < 0: given stiffness), here with the stiffness whose linear contact lasts
  Hertz's duration, so its peak force shows the law's difference.
* block: a 0.1 m cube pushed at 1 m/s on the floor with Coulomb friction mu 0.3: stopping distance
  v^2 / (2 mu g) and stopping time v / (mu g); ours on its 8 corners (box-plane), MuJoCo's box geom
  on a plane (friction 0.3, condim 3, default solref), Exudyn on 4 corner spheres.
* cam, box: the cam-follower and the settling box, in bench/peers_events_cambox.py (run after these).
* geneva: the Geneva drive, in bench/peers_events_geneva.py (run last).

Exudyn's models (a CoordinateSpringDamperExt's linear limit stop and constant friction, contacts by
ContactSphereTriangle) are in bench/peers_events_exudyn.py. Runs in .venv-bench (bench/peer_venv.py
installs mujoco and exudyn). Writes bench/results/peers_events.md.

    /usr/bin/python3 bench/peers_events.py [--repeats 3] [--only friction]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from bench.peer_venv import ensure_modules  # noqa: E402

if __name__ == "__main__":
    sys.exudynFast = True  # Exudyn's module without range checks (its fastest documented path)
    ensure_modules({"mujoco": "mujoco==4.0.0", "exudyn": "exudyn==1.13.6"}, __file__)
    sys.modules.setdefault("bench.peers_events", sys.modules[__name__])  # one GOALS for the cam and box scenes

import mujoco  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

from bench import peers_events_exudyn as exudyn_scenes  # noqa: E402
from bench.page_splice import splice  # noqa: E402
from MBDWorkbench.solver import from_dict, simulate  # noqa: E402
from MBDWorkbench.solver.model.contacts import MATERIALS  # noqa: E402

G = 9.81
ROD_M, ROD_L, STOP_ANGLE, STOP_E = 1.0, 0.5, -1.2, 0.5  # [kg, m, rad, -]
ROD_I = ROD_M * ROD_L**2 / 3.0  # about the pin [kg m^2]
ROD = {"m": ROD_M, "L": ROD_L, "g": G, "angle_min": STOP_ANGLE}
GOALS: list[str] = []  # the rows of the issue-33 goals table, one per scene
BALL_R, BALL_M, DROP_H, BALL_E, HERTZ_V = 0.05, 1.0, 0.2, 0.8, 1.0
BALL = {"R": BALL_R, "m": BALL_M}
E_STAR = 1.0 / (2 * (1 - MATERIALS["steel"][1] ** 2) / MATERIALS["steel"][0])  # steel on steel [Pa]


def damping_ratio(e: float) -> float:
    """The damping ratio of a linear spring-damper contact whose rebound ratio is e."""
    return -math.log(e) / math.sqrt(math.pi**2 + math.log(e) ** 2)


# ----------------------------------------------------------------------------- references
def stop_reference(t_end: float) -> dict:
    """The rigid stop pendulum by SciPy: first impact time [s], impact speed [rad/s], the angle at t_end."""
    c = ROD_L / 2

    def rhs(t, y):
        return [y[1], -ROD_M * G * c * math.cos(y[0]) / ROD_I]

    def hit(t, y):
        return y[0] - STOP_ANGLE

    hit.terminal, hit.direction = True, -1
    sol = solve_ivp(rhs, (0, t_end), [0.0, 0.0], events=hit, rtol=1e-12, atol=1e-12, method="DOP853")
    t1, w1 = float(sol.t_events[0][0]), float(sol.y_events[0][0][1])
    after = solve_ivp(rhs, (t1, t_end), [STOP_ANGLE, -STOP_E * w1], events=hit, rtol=1e-12, atol=1e-12, method="DOP853")
    t2 = float(after.t_events[0][0]) if len(after.t_events[0]) else math.nan
    closed = math.sqrt(2 * ROD_M * G * c * abs(math.sin(STOP_ANGLE)) / ROD_I)
    return {"t1": t1, "w1": abs(w1), "w1_closed": closed, "t2": t2}


def hertz_reference(v: float) -> tuple[float, float]:
    """(peak force [N], contact duration [s]) of Hertz's sphere-on-half-space impact at speed v."""
    d_max = (15 * BALL_M * v**2 / (16 * E_STAR * math.sqrt(BALL_R))) ** 0.4
    return 4.0 / 3.0 * E_STAR * math.sqrt(BALL_R) * d_max**1.5, 2.94 * d_max / v


# ----------------------------------------------------------------------------- ours
def ours_stop(model: str, h: float, t_end: float, integrator: str = "rk4") -> dict:
    rod = {"name": "rod", "mass": ROD_M, "inertia": [1e-4, ROD_M * ROD_L**2 / 12, ROD_M * ROD_L**2 / 12],
           "position": [ROD_L / 2, 0, 0]}  # fmt: skip
    stop = {"model": "rigid", "restitution": STOP_E} if model == "rigid" else {"model": "compliant"}
    pin = {"name": "pin", "type": "revolute", "body_i": "ground", "body_j": "rod",
           "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]},
           "angle_min": STOP_ANGLE, "angle_stop": stop}  # fmt: skip
    settings = {"t_end": t_end, "step": h, "output_step": 1e-3, "integrator": integrator, "accuracy": False}
    res, cpu = run_ours({"gravity": [0, -G, 0], "bodies": [rod], "joints": [pin], "settings": settings})
    q, w = res.joint_coordinate("pin")[:, 0], res.joint_coordinate_rate("pin")[:, 0]
    impacts = [e for e in res.stop_events if e["kind"] == "impact"]
    return {"t": res.t, "q": q, "w": w, "cpu": cpu, "steps": res.steps, "impacts": impacts}


def ball_model(t_end: float, h: float, height: float, speed: float, gravity: float) -> dict:
    J = 0.4 * BALL_M * BALL_R**2
    pair = {"name": "floor", "body_a": "ball", "body_b": "ground", "law": "restitution", "restitution": BALL_E,
            "shape_a": {"type": "sphere", "center": [0, 0, 0], "radius": BALL_R},
            "shape_b": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}}  # fmt: skip
    ball = {"name": "ball", "mass": BALL_M, "inertia": [J, J, J], "position": [0, 0, BALL_R + height],
            "velocity": [0, 0, -speed]}  # fmt: skip
    settings = {"t_end": t_end, "step": h, "output_step": min(1e-4, t_end / 400), "integrator": "rk4",
                "accuracy": False}  # fmt: skip
    return {"gravity": [0, 0, -gravity], "bodies": [ball], "contacts": [pair], "settings": settings}


def ours_ball(t_end: float, h: float) -> dict:
    res, cpu = run_ours(ball_model(t_end, h, DROP_H, 0.0, G))
    return {"t": res.t, "z": res.position("ball")[:, 2] - BALL_R, "cpu": cpu, "steps": res.steps}


def ours_hertz(h: float) -> dict:
    data = ball_model(4e-4, h, 2e-5, HERTZ_V, 0.0)
    data["contacts"][0].update(law="flores", restitution=1.0)
    res, cpu = run_ours(data, output_step=1e-6)
    c = res.contact("floor")
    return {"t": res.t, "force": c[:, 3], "peak": float(c[:, 10].max()), "cpu": cpu, "steps": res.steps}


def exudyn_contact(e: float, impact_model: int, mu: float = 0.0) -> dict:
    """Exudyn's ContactSphereTriangle law for the steel ball: Hertz's K [N/m^1.5], n = 1.5, e, friction mu."""
    return {"contactStiffness": 4.0 / 3.0 * E_STAR * math.sqrt(BALL_R), "contactStiffnessExponent": 1.5,
            "restitutionCoefficient": e, "impactModel": impact_model, "dynamicFriction": mu}  # fmt: skip


def rank(ours: float, peer: float) -> str:
    """'yes' (ours' error below 0.9 x the closer peer's), 'tie' (within 10 %) or 'no'."""
    return "yes" if ours < 0.9 * peer else "tie" if ours <= 1.1 * peer else "no"


def goal(label: str, err: dict, names: list, outs: dict, bare: float, fmt) -> None:
    """Add the scene's row to GOALS: the errors (tuples, smaller is closer) of ours, MuJoCo and Exudyn
    (``names``), whether ours is the closest in each, and the CPU time ratios ours / Exudyn and
    ours / MuJoCo, with the samples and (in brackets) for ours' integration only (CPU ``bare`` [s])."""
    ours, mujoco, exudyn = names
    closest = "; ".join(rank(e, min(m, x)) for e, m, x in zip(err[ours], err[mujoco], err[exudyn]))
    cpu, exu_cpu, mj_cpu = outs[ours]["cpu"], outs[exudyn]["cpu"], outs[mujoco]["cpu"]
    GOALS.append(
        f"| {label} | {fmt(err[ours])} | {fmt(err[mujoco])} | {fmt(err[exudyn])} | {closest} | "
        f"{cpu / exu_cpu:.2f} ({bare / exu_cpu:.2f}) | {cpu / mj_cpu:.2f} ({bare / mj_cpu:.2f}) |"
    )


BARE = {"on": False}  # ours with one output sample at t_end (its integration cost without the samples')


def run_ours(model: dict, **overrides):
    """(results, CPU time [s]) of simulate(); output at t_end only while BARE is on."""
    if BARE["on"]:
        overrides["output_step"] = model["settings"]["t_end"]
    built = from_dict(model)  # not timed, like the peers' model building (MuJoCo's XML, Exudyn's Assemble)
    return timed(lambda: simulate(built, **overrides))


def integration_only(run, repeats: int) -> dict:
    """The best of ``run`` (one of ours) with its output at t_end only."""
    BARE["on"] = True
    try:
        return best(run, repeats)
    finally:
        BARE["on"] = False


def bare_row(name: str, out: dict, columns: int, ratio: str) -> str:
    """The table row of an integration-only run: steps/s and the CPU ratio cell in the last two of ``columns``."""
    dashes = " | ".join(["-"] * (columns - 3))
    row = f"| {name}, output at t_end only | {dashes} | {out['steps'] / out['cpu']:,.0f} | {ratio} |"
    print(row, flush=True)
    return row


def timed(run):
    start = time.process_time()
    out = run()
    return out, time.process_time() - start


# ----------------------------------------------------------------------------- MuJoCo
def mujoco_stop(h: float, t_end: float, solref: str | None) -> dict:
    ref = f' solreflimit="{solref}"' if solref else ""
    xml = (
        f'<mujoco><compiler angle="radian"/><option timestep="{h}" integrator="RK4" gravity="0 -{G} 0"/>'
        "<worldbody><body>"
        f'<joint name="pin" type="hinge" axis="0 0 1" limited="true" range="{STOP_ANGLE} 3.1"{ref}/>'
        f'<inertial pos="{ROD_L / 2} 0 0" mass="{ROD_M}" diaginertia="1e-4 {ROD_L**2 / 12} {ROD_L**2 / 12}"/>'
        "</body></worldbody></mujoco>"
    )
    model = mujoco.MjModel.from_xml_string(xml)
    out = mujoco_run_from(model, mujoco.MjData(model), t_end, max(1, int(round(1e-3 / h))))
    return {"t": out["rows"][:, 0], "q": out["rows"][:, 1], "w": out["rows"][:, 2], **out}


def mujoco_ball(h: float, t_end: float, height: float, speed: float, gravity: float, solref: str) -> dict:
    J = 0.4 * BALL_M * BALL_R**2
    xml = (
        f'<mujoco><option timestep="{h}" integrator="RK4" gravity="0 0 -{gravity}"/><worldbody>'
        f'<geom type="plane" size="1 1 0.1" solref="{solref}"/><body pos="0 0 {BALL_R + height}"><freejoint/>'
        f'<geom type="sphere" size="{BALL_R}" solref="{solref}" mass="{BALL_M}"/>'
        f'<inertial pos="0 0 0" mass="{BALL_M}" diaginertia="{J} {J} {J}"/></body></worldbody></mujoco>'
    )
    every = max(1, int(round(min(1e-4, t_end / 400) / h)))
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    data.qvel[2] = -speed
    steps, rows, cpu = int(round(t_end / h)), [(0.0, height, 0.0)], 0.0  # the start: no force
    for _ in range(steps // every):
        start = time.process_time()
        mujoco.mj_step(model, data, every)
        cpu += time.process_time() - start
        mujoco.mj_forward(model, data)  # the contact force at the sample (not timed)
        f = np.zeros(6)
        force = 0.0
        for k in range(data.ncon):
            mujoco.mj_contactForce(model, data, k, f)
            force += f[0]
        rows.append((data.time, float(data.qpos[2]) - BALL_R, force))
    rows = np.array(rows)
    return {"t": rows[:, 0], "z": rows[:, 1], "force": rows[:, 2], "cpu": cpu, "steps": steps}


# ----------------------------------------------------------------------------- measures
def crossings(t, x, direction):
    """Times [s] where x crosses 0 downwards (-1) or upwards (+1), linearly interpolated."""
    s = np.sign(x)
    idx = [i for i in np.nonzero(s[:-1] * s[1:] < 0)[0] if np.sign(x[i + 1] - x[i]) == direction]
    return np.array([t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i]) for i in idx])


def apexes(z):
    i = np.nonzero((z[1:-1] > z[:-2]) & (z[1:-1] >= z[2:]) & (z[1:-1] > 0))[0] + 1
    return z[i]


def stop_measures(run: dict) -> dict:
    """The first two impact times, the first impact speed and rebound speed, the deepest angle past the
    stop. Ours rigid: its located events; the others: the downward crossings of the stop angle, the
    largest rates towards the stop before the first touch and away from it within 0.1 s after."""
    t, q, w = run["t"], run["q"], run["w"]
    overshoot = float(STOP_ANGLE - q.min())
    if run.get("impacts"):
        first, second = run["impacts"][0], run["impacts"][1]
        return {"t1": first["t"], "t2": second["t"], "w1": first["impact_speed"], "rebound": first["rebound_speed"],
                "overshoot": overshoot}  # fmt: skip
    touch = crossings(t, q - STOP_ANGLE, -1)
    if not len(touch):
        return {"t1": math.nan, "t2": math.nan, "w1": math.nan, "rebound": math.nan, "overshoot": overshoot}
    i1 = int(np.argmax(t >= touch[0]))
    window = (t > t[i1]) & (t < t[i1] + 0.1)
    t2 = float(touch[1]) if len(touch) > 1 else math.nan
    w1, rebound = float(np.abs(w[: i1 + 1]).max()), float(w[window].max())
    return {"t1": float(touch[0]), "t2": t2, "w1": w1, "rebound": rebound, "overshoot": overshoot}


def stop_section(repeats: int) -> list[str]:
    h, t_end = 1e-4, 1.5
    ref = stop_reference(t_end)
    zeta = damping_ratio(STOP_E)
    codes = {
        "ours rk4, rigid stop (e 0.5)": lambda: ours_stop("rigid", h, t_end),
        "ours rk4, compliant stop (default t_c 10 ms)": lambda: ours_stop("compliant", h, t_end),
        "ours rk4_tree, rigid stop (e 0.5)": lambda: ours_stop("rigid", h, t_end, "rk4_tree"),
        "ours rk4_tree, compliant stop (default t_c 10 ms)": lambda: ours_stop("compliant", h, t_end, "rk4_tree"),
        f"MuJoCo RK4, range, solreflimit 0.01 {zeta:.3f} (e 0.5)": lambda: mujoco_stop(h, t_end, f"0.01 {zeta}"),
        "MuJoCo RK4, range, default solref": lambda: mujoco_stop(h, t_end, None),
        "Exudyn RK44, limit stop of a CoordinateSpringDamperExt (linear, 10 ms, e 0.5)": lambda: exudyn_scenes.stop(
            ROD, h, t_end, *exudyn_scenes.linear_stop(ROD_I, STOP_E, 0.01)
        ),
    }
    outs = {name: best(run, repeats) for name, run in codes.items()}
    rigid, compliant = (outs[k]["cpu"] for k in list(codes)[:2])
    rows, err = [], {}
    for name, out in outs.items():
        m = stop_measures(out)
        err[name] = (abs(m["t1"] - ref["t1"]), abs(m["rebound"] / (STOP_E * ref["w1"]) - 1))
        rows.append(
            f"| {name} | {m['t1'] - ref['t1']:+.2e} | {m['t2'] - ref['t2']:+.2e} | "
            f"{m['w1'] / ref['w1_closed'] - 1:+.2e} | "
            f"{m['rebound'] / (STOP_E * ref['w1']):.3f} | {m['overshoot']:.2e} | {out['steps'] / out['cpu']:,.0f} | "
            f"{rigid / out['cpu']:.2f} / {compliant / out['cpu']:.2f} |"
        )
        print(rows[-1], flush=True)
    names = list(codes)
    for ours, label in zip(names[:4], ("rigid", "compliant", "rk4_tree rigid", "rk4_tree compliant")):
        bare = integration_only(codes[ours], repeats)
        rows.append(bare_row(ours, bare, 8, f"{rigid / bare['cpu']:.2f} / {compliant / bare['cpu']:.2f}"))
        goal(f"stop, ours {label}: 1st impact time [s]; rebound / (e w1) - 1", err, [ours, names[4], names[6]],
             outs, bare["cpu"], lambda e: f"{e[0]:.1e}; {e[1]:.1e}")  # fmt: skip
    return [
        "## A pendulum released onto a stop",
        "",
        f"Rod pendulum m {ROD_M} kg, L {ROD_L} m (I {ROD_I:.5f} kg m^2 about the pin), released horizontal onto a "
        f"stop at {STOP_ANGLE} rad; h = {h} s, {t_end} s, samples every 1 ms. Reference (SciPy DOP853, rtol 1e-12, "
        f"event located): impact at {ref['t1']:.9f} s at {ref['w1']:.9f} rad/s (closed form "
        f"{ref['w1_closed']:.9f}); Newton's rebound e w1 = {STOP_E * ref['w1']:.6f} rad/s, second impact at "
        f"{ref['t2']:.9f} s. Ours rigid: its located events (time, impact and rebound speed); the others: the "
        "sample crossings of the stop angle (linearly interpolated, samples every 1 ms), the largest rate before "
        "the touch and the largest rate away from the stop within 0.1 s after it. Overshoot: the deepest angle "
        "past the stop. Ours rk4 integrates the rod's 7 body coordinates with the pin's 5 constraint rows (a KKT "
        "solve per stage); ours rk4_tree its one joint angle (articulated-body algorithm; the held stop a driven "
        "coordinate).",
        "",
        "Exudyn's stop is the linear spring-damper of its CoordinateSpringDamperExt, given the stiffness and damping "
        "of a 10 ms contact that rebounds at e = 0.5 (k = I w_n^2, d = 2 zeta I w_n), a soft stop like MuJoCo's.",
        "",
        "| code | 1st impact time - reference [s] | 2nd impact time - reference [s] | impact speed / closed form - 1 | "
        "rebound / (e w1) | overshoot [rad] | steps/s (CPU) | CPU ours rigid / this, ours compliant / this |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ]


def ball_section(repeats: int) -> list[str]:
    h, t_end = 1e-5, 0.9
    zeta = damping_ratio(BALL_E)
    v0 = math.sqrt(2 * G * DROP_H)
    codes = {
        "ours rk4 (Hertz, restitution law e 0.8)": lambda: ours_ball(t_end, h),
        f"MuJoCo RK4 (solref 0.002 {zeta:.4f})": lambda: mujoco_ball(h, t_end, DROP_H, 0.0, G, f"0.002 {zeta}"),
        "Exudyn RK44 (ContactSphereTriangle, Hertz K and n, impact model 2, e 0.8)": lambda: exudyn_scenes.ball(
            BALL, h, t_end, DROP_H, 0.0, G, exudyn_contact(BALL_E, 2), min(1e-4, t_end / 400)
        ),
    }
    outs = {name: best(run, repeats) for name, run in codes.items()}
    rows, err, names = [], {}, list(codes)
    for name, out in outs.items():
        heights = apexes(out["z"])[:3] / DROP_H
        expected = BALL_E ** (2 * np.arange(1, len(heights) + 1))
        touch = crossings(out["t"], out["z"], -1)
        touch_ref = math.sqrt(2 * DROP_H / G) + np.cumsum([0.0] + [2 * BALL_E**n * v0 / G for n in range(1, 3)])
        n = min(len(touch), 3)
        dt = np.abs(touch[:n] - touch_ref[:n]).max() if n else math.nan
        rel = np.abs(heights / expected - 1).max() if len(heights) else math.nan
        err[name] = (rel, dt)
        rows.append(
            f"| {name} | {', '.join(f'{x:.4f}' for x in heights)} | {rel:.2e} | {dt:.2e} | "
            f"{out['steps'] / out['cpu']:,.0f} | {outs[names[0]]['cpu'] / out['cpu']:.2f} |"
        )
        print(rows[-1], flush=True)
    bare = integration_only(codes[names[0]], repeats)
    rows.insert(1, bare_row(names[0], bare, 6, f"{outs[names[0]]['cpu'] / bare['cpu']:.2f}"))
    goal("ball: apex error (relative); touch-time error [s]", err, names, outs, bare["cpu"],
         lambda e: f"{e[0]:.1e}; {e[1]:.1e}")  # fmt: skip
    return [
        "## A ball dropped on a plane",
        "",
        f"Steel ball R {BALL_R} m, {BALL_M} kg, dropped from {DROP_H} m onto a plane, e = {BALL_E}; h = {h} s, "
        f"{t_end} s, samples every 1e-4 s. Closed form: apexes e^(2n) h = "
        f"{', '.join(f'{BALL_E ** (2 * n):.4f}' for n in (1, 2, 3))} (of h), touches at sqrt(2h/g) + "
        "sum 2 e^n v0 / g (rigid impacts).",
        "",
        "| code | apex / h | largest apex error (relative) | largest touch-time error [s] | steps/s (CPU) | "
        "CPU ours / this |",
        "|---|---|---|---|---|---|",
        *rows,
    ]


def hertz_section(repeats: int) -> list[str]:
    h = 5e-7
    peak, duration = hertz_reference(HERTZ_V)
    k_lin = BALL_M * (math.pi / duration) ** 2  # the linear spring whose contact lasts Hertz's duration
    codes = {
        "ours rk4 (Hertz from steel's E, nu)": lambda: ours_hertz(h),
        f"MuJoCo RK4 (solref -{k_lin:.4g} 0: linear, same duration)": lambda: mujoco_ball(
            h, 4e-4, 2e-5, HERTZ_V, 0.0, f"-{k_lin} 0"
        ),
        "Exudyn RK44 (ContactSphereTriangle, Hertz K and n, impact model 0, no damping)": lambda: exudyn_scenes.ball(
            BALL, h, 4e-4, 2e-5, HERTZ_V, 0.0, exudyn_contact(1.0, 0), 1e-6
        ),
    }
    outs = {name: best(run, repeats) for name, run in codes.items()}
    rows, err, names = [], {}, list(codes)
    for name, out in outs.items():
        force = out["force"]
        on = out["t"][force > 1e-9 * force.max()]
        top = out.get("peak", float(force.max()))
        err[name] = (abs(top / peak - 1), abs((on[-1] - on[0]) / duration - 1))
        rows.append(
            f"| {name} | {top:.2f} | {top / peak - 1:+.2e} | {(on[-1] - on[0]) * 1e6:.2f} | "
            f"{(on[-1] - on[0]) / duration - 1:+.2e} | {out['steps'] / out['cpu']:,.0f} | "
            f"{outs[names[0]]['cpu'] / out['cpu']:.2f} |"
        )
        print(rows[-1], flush=True)
    bare = integration_only(codes[names[0]], repeats)
    rows.insert(1, bare_row(names[0], bare, 7, f"{outs[names[0]]['cpu'] / bare['cpu']:.2f}"))
    goal("hertz: peak force, duration (relative errors)", err, names, outs, bare["cpu"],
         lambda e: f"{e[0]:.1e}; {e[1]:.1e}")  # fmt: skip
    return [
        "## Hertz impact of a sphere on a plane",
        "",
        f"The same ball hitting the plane at {HERTZ_V} m/s without gravity; h = {h} s, samples every 1e-6 s "
        f"(duration: the span of the samples with a force, so to about 1 us). Hertz [Johnson] 11.4, E* = "
        f"{E_STAR:.4g} Pa: peak {peak:.2f} N, duration {duration * 1e6:.2f} us. MuJoCo's contact force is linear "
        "in the penetration (no Hertz law), given here the stiffness whose contact lasts Hertz's duration. "
        "Exudyn's: K d^1.5 with Hertz's K = 4/3 E* sqrt(R), no damping; its peak: the largest sample (every 1 us, "
        "ours: its peak between the states of its steps, docs/contact.md 'Results').",
        "",
        "| code | peak force [N] | peak / Hertz - 1 | duration [us] | duration / Hertz - 1 | steps/s (CPU) | "
        "CPU ours / this |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]


# ----------------------------------------------------------------------------- block sliding to rest
CUBE_A, CUBE_V0, CUBE_MU, CUBE_K = 0.1, 1.0, 0.3, 1e7  # [m, m/s, -, N/m^1.5]; mass BALL_M


def ours_block(h: float, t_end: float) -> dict:
    J = BALL_M * CUBE_A**2 / 6
    cube = {"name": "block", "mass": BALL_M, "inertia": [J, J, J], "position": [0, 0, CUBE_A / 2],
            "velocity": [CUBE_V0, 0, 0]}  # fmt: skip
    pair = {"name": "floor", "body_a": "ground", "body_b": "block", "stiffness": CUBE_K, "restitution": 0.5,
            "shape_a": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
            "shape_b": {"type": "box", "center": [0, 0, 0], "size": [CUBE_A] * 3},
            "mu_s": CUBE_MU, "mu_k": CUBE_MU, "slip_speed": 1e-3}  # fmt: skip
    settings = {"t_end": t_end, "step": h, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    model = {"gravity": [0, 0, -G], "bodies": [cube], "contacts": [pair], "settings": settings}
    res, cpu = run_ours(model)
    return {"t": res.t, "x": res.position("block")[:, 0], "vx": res.velocity("block")[:, 0], "cpu": cpu,
            "steps": res.steps}  # fmt: skip


def mujoco_block(h: float, t_end: float) -> dict:
    J = BALL_M * CUBE_A**2 / 6
    xml = (
        f'<mujoco><option timestep="{h}" integrator="RK4" gravity="0 0 -{G}"/><worldbody>'
        f'<geom type="plane" size="1 1 0.1" friction="{CUBE_MU} 0 0"/><body pos="0 0 {CUBE_A / 2}"><freejoint/>'
        f'<geom type="box" size="{CUBE_A / 2} {CUBE_A / 2} {CUBE_A / 2}" friction="{CUBE_MU} 0 0"/>'
        f'<inertial pos="0 0 0" mass="{BALL_M}" diaginertia="{J} {J} {J}"/></body></worldbody></mujoco>'
    )
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    data.qvel[0] = CUBE_V0
    out = mujoco_run_from(model, data, t_end, max(1, int(round(1e-3 / h))))
    return {"t": out["rows"][:, 0], "x": out["rows"][:, 1], "vx": out["rows"][:, 2], **out}


def block_section(repeats: int) -> list[str]:
    h, t_end, slow = 1e-4, 0.6, 0.01
    distance, t_slow = CUBE_V0**2 / (2 * CUBE_MU * G), (CUBE_V0 - slow) / (CUBE_MU * G)
    law = {"contactStiffness": CUBE_K, "contactStiffnessExponent": 1.5, "restitutionCoefficient": 0.5, "impactModel": 2,
           "dynamicFriction": CUBE_MU, "frictionProportionalZone": 1e-3}  # fmt: skip
    codes = {
        "ours rk4 (box on plane: 8 corners, K 1e7, slip speed 1 mm/s)": lambda: ours_block(h, t_end),
        "MuJoCo RK4 (box geom on plane, condim 3, default solref)": lambda: mujoco_block(h, t_end),
        "Exudyn RK44 (4 corner ContactSphereTriangle, K 1e7, zone 1 mm/s)": lambda: exudyn_scenes.block(
            CUBE_A, BALL_M, CUBE_V0, G, h, t_end, law, 1e-3
        ),
    }
    outs = {name: best(run, repeats) for name, run in codes.items()}
    rows, err, names = [], {}, list(codes)
    for name, out in outs.items():
        t, x, vx = out["t"], out["x"], out["vx"]
        reach = crossings(t, vx - slow, -1)
        t_cross = float(reach[0]) if len(reach) else math.nan
        err[name] = (abs(x[-1] / distance - 1), abs(t_cross - t_slow))
        rows.append(
            f"| {name} | {x[-1]:.5f} | {x[-1] / distance - 1:+.2e} | {t_cross - t_slow:+.2e} | "
            f"{abs(vx[-1]):.1e} | {out['steps'] / out['cpu']:,.0f} | {outs[names[0]]['cpu'] / out['cpu']:.2f} |"
        )
        print(rows[-1], flush=True)
    bare = integration_only(codes[names[0]], repeats)
    rows.insert(1, bare_row(names[0], bare, 7, f"{outs[names[0]]['cpu'] / bare['cpu']:.2f}"))
    goal("block: stopping distance (relative); time to 0.01 m/s [s]", err, names, outs, bare["cpu"],
         lambda e: f"{e[0]:.1e}; {e[1]:.1e}")  # fmt: skip
    return [
        "## A block sliding to rest",
        "",
        f"A {CUBE_A} m cube of {BALL_M} kg resting on the floor, pushed at {CUBE_V0} m/s along x, Coulomb friction "
        f"mu {CUBE_MU}; h = {h} s, {t_end} s, samples every 1 ms. Closed form: stopping distance v^2 / (2 mu g) = "
        f"{distance:.5f} m; it slows to {slow} m/s at (v - {slow}) / (mu g) = {t_slow:.5f} s (the sample crossing, "
        "interpolated). Each code's friction is regularised near zero slip (ours and Exudyn's: 1 mm/s; MuJoCo's: "
        "its soft constraint).",
        "",
        "| code | x at the end [m] | distance / closed form - 1 | time to 0.01 m/s - closed form [s] | "
        "final speed [m/s] | steps/s (CPU) | CPU ours / this |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]


# ----------------------------------------------------------------------------- friction pendulum
ARM_L, ARM_I_CG, THETA0, MU, PIN_R = 0.5, 0.02, 0.5, 0.3, 0.02  # [m, kg m^2, rad, -, m]; mass ROD_M
ARM_I = ARM_I_CG + ROD_M * ARM_L**2  # about the pin [kg m^2]


def pin_load(theta: float, rate: float, acc: float) -> float:
    """|F| [N] of the pin on the bar: m (a_cg - g) in the tangent and radial components."""
    f_t = ROD_M * (ARM_L * acc + G * math.sin(theta))
    f_p = -ROD_M * (ARM_L * rate**2 + G * math.cos(theta))
    return math.hypot(f_t, f_p)


def friction_turning_points(load_dependent: bool, t_end: float) -> list[tuple[float, float]]:
    """[(t, theta)] of the bar released at THETA0 from the downward vertical, by SciPy (rtol 1e-12):
    I theta'' = -m g L sin theta - s mu r N, N the pin load (load_dependent) or m g (a constant torque)."""

    def rhs(t, y, s):
        acc = 0.0
        for _ in range(12 if load_dependent else 1):  # a contraction by mu r m L / I ~ 0.03
            load = pin_load(y[0], y[1], acc) if load_dependent else ROD_M * G
            acc = (-ROD_M * G * ARM_L * math.sin(y[0]) - s * MU * PIN_R * load) / ARM_I
        return [y[1], acc]

    t, theta, points = 0.0, THETA0, []
    while t < t_end and ARM_L * abs(math.sin(theta)) > MU * PIN_R:
        s = -math.copysign(1.0, theta)
        turn = lambda t, y, s: y[1]  # noqa: E731
        turn.terminal, turn.direction = True, -s
        sol = solve_ivp(rhs, (t, t_end), [theta, 0.0], args=(s,), events=turn, rtol=1e-12, atol=1e-14,
                        first_step=1e-6)  # fmt: skip
        if not sol.t_events[0].size:
            break
        t, theta = float(sol.t_events[0][0]), float(sol.y_events[0][0][0])
        points.append((t, theta))
    return points


def sampled_turning_points(t: np.ndarray, q: np.ndarray, w: np.ndarray) -> list[tuple[float, float]]:
    """[(t, theta)] at the sign changes of the rate (parabola through three samples)."""
    out = []
    for k in np.nonzero(w[1:-1] * w[2:] < 0)[0] + 1:
        a, b, c = q[k - 1 : k + 2]
        d = a - 2 * b + c
        shift = 0.5 * (a - c) / d if d else 0.0
        out.append((float(t[k] + shift * (t[1] - t[0])), float(b - 0.25 * (a - c) * shift)))
    return out


def ours_friction(h: float, t_end: float) -> dict:
    pin = {"name": "pin", "type": "revolute", "body_i": "ground", "body_j": "arm",
           "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]},
           "friction": {"mu_s": MU, "mu_k": MU, "pin_radius": PIN_R}}  # fmt: skip
    arm = {"name": "arm", "mass": ROD_M, "inertia": [0.01, 0.01, ARM_I_CG],
           "position": [ARM_L * math.sin(THETA0), -ARM_L * math.cos(THETA0), 0.0]}  # fmt: skip
    settings = {"t_end": t_end, "step": h, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    res, cpu = run_ours({"gravity": [0, -G, 0], "bodies": [arm], "joints": [pin], "settings": settings})
    q, w = THETA0 + res.joint_coordinate("pin")[:, 0], res.joint_coordinate_rate("pin")[:, 0]
    return {"points": sampled_turning_points(res.t, q, w), "cpu": cpu, "steps": res.steps}


def mujoco_friction(h: float, t_end: float) -> dict:
    xml = (
        f'<mujoco><compiler angle="radian"/><option timestep="{h}" integrator="RK4" gravity="0 -{G} 0"/>'
        f'<worldbody><body><joint name="pin" type="hinge" axis="0 0 1" frictionloss="{MU * PIN_R * ROD_M * G}"/>'
        f'<inertial pos="0 {-ARM_L} 0" mass="{ROD_M}" diaginertia="0.01 0.01 {ARM_I_CG}"/></body></worldbody>'
        "</mujoco>"
    )
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    data.qpos[0] = THETA0
    out = mujoco_run_from(model, data, t_end, max(1, int(round(1e-3 / h))))
    rows = out["rows"]
    return {"points": sampled_turning_points(rows[:, 0], rows[:, 1], rows[:, 2]), **out}


def mujoco_run_from(model, data, t_end: float, every: int, coordinate: int = 0) -> dict:
    """Step (model, data) to t_end, sampling (t, qpos[c], qvel[c]) of ``coordinate`` c every ``every`` steps."""
    mujoco.mj_forward(model, data)
    steps, c = int(round(t_end / model.opt.timestep)), coordinate
    rows, cpu = [(0.0, float(data.qpos[c]), float(data.qvel[c]))], 0.0
    for _ in range(steps // every):
        start = time.process_time()
        mujoco.mj_step(model, data, every)
        cpu += time.process_time() - start
        rows.append((data.time, float(data.qpos[c]), float(data.qvel[c])))
    return {"rows": np.array(rows), "cpu": cpu, "steps": steps}


FRICTION_ZONE = 1e-3  # Exudyn's frictionProportionalZone [rad/s]


def exudyn_friction(bar: dict, h: float, t_end: float) -> dict:
    out = exudyn_scenes.friction(bar, h, t_end, MU * PIN_R * ROD_M * G, FRICTION_ZONE)
    return {"points": sampled_turning_points(out["t"], out["q"], out["w"]), **out}


def point_errors(points: list, ref: list) -> tuple[float, float, int]:
    """(largest angle [rad] and time [s] differences of the turning points, how many compared)."""
    n = min(len(points), len(ref))
    if not n:
        return math.nan, math.nan, 0
    dq = max(abs(a[1] - b[1]) for a, b in zip(points[:n], ref[:n]))
    return dq, max(abs(a[0] - b[0]) for a, b in zip(points[:n], ref[:n])), n


def friction_section(repeats: int) -> list[str]:
    h, t_end = 1e-3, 3.0
    load_ref, torque_ref = friction_turning_points(True, t_end), friction_turning_points(False, t_end)
    bar = {"m": ROD_M, "L": ARM_L, "I_cg": ARM_I_CG, "g": G, "theta0": THETA0}
    exudyn = f"Exudyn RK44 (CoordinateSpringDamperExt, mu r m g, zone {FRICTION_ZONE} rad/s)"
    codes = {"ours rk4 (pin friction from the reaction)": lambda: ours_friction(h, t_end),
             "MuJoCo RK4 (frictionloss = mu r m g)": lambda: mujoco_friction(h, t_end),
             exudyn: lambda: exudyn_friction(bar, h, t_end)}  # fmt: skip
    outs = {name: best(run, repeats) for name, run in codes.items()}
    rows, err, names = [], {}, list(codes)
    for name, out in outs.items():
        cells = []
        for ref in (load_ref, torque_ref):
            dq, dt, n = point_errors(out["points"], ref)
            cells.append(f"{dq:.1e} / {dt:.1e} ({n} of {len(ref)})")
            err.setdefault(name, (dq, dt) if n == len(ref) else (math.inf, math.inf))
        rows.append(
            f"| {name} | {len(out['points'])} | {' | '.join(cells)} | {out['steps'] / out['cpu']:,.0f} | "
            f"{outs[names[0]]['cpu'] / out['cpu']:.2f} |"
        )
        print(rows[-1], flush=True)
    bare = integration_only(codes[names[0]], repeats)
    rows.insert(1, bare_row(names[0], bare, 6, f"{outs[names[0]]['cpu'] / bare['cpu']:.2f}"))
    goal("friction: turning angle [rad]; time [s] vs the load-dependent reference", err, names, outs, bare["cpu"],
         lambda e: f"{e[0]:.1e}; {e[1]:.1e}")  # fmt: skip
    return [
        "## A pendulum with Coulomb pin friction",
        "",
        f"A bar (m {ROD_M} kg, CoG {ARM_L} m from the pin, I_cg {ARM_I_CG} kg m^2) released {THETA0} rad from the "
        f"downward vertical, pin friction mu {MU} on r {PIN_R} m; h = {h} s, {t_end} s, samples every 1 ms; "
        "turning points from the samples (parabola). Two SciPy references (rtol 1e-12, each half swing to its "
        "turning point): the friction torque mu r N with N the pin's reaction (what ours models) and the "
        "constant torque mu r m g (what MuJoCo's frictionloss and Exudyn's friction force are: neither has a "
        "friction loaded by the joint's reaction). Errors: largest angle [rad] / time [s] difference of the "
        "turning points. Exudyn: the regularised friction (its case for explicit integrators; the bristle model "
        "is its case for implicit ones), proportional to the rate below the zone speed.",
        "",
        "| code | turning points | vs load-dependent reference | vs constant-torque reference | steps/s (CPU) | "
        "CPU ours / this |",
        "|---|---|---|---|---|---|",
        *rows,
    ]


def best(run, repeats: int) -> dict:
    """The run of ``repeats`` with the least CPU time (after one run that compiles and warms)."""
    run()
    outs = [run() for _ in range(repeats)]
    return min(outs, key=lambda o: o["cpu"])


SECTIONS = {"stop": stop_section, "friction": friction_section, "ball": ball_section, "hertz": hertz_section,
            "block": block_section}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", choices=list(SECTIONS), help="rerun one scene; its part of the page is replaced")
    args = ap.parse_args()
    if args.only:
        return splice(os.path.join(HERE, "results", "peers_events.md"), SECTIONS[args.only](args.repeats), GOALS)
    load = [os.getloadavg()[0]]
    sections = []
    from bench import peers_events_cambox as cambox  # the cam and the settling box (they use this module's helpers)
    from bench import peers_events_geneva as geneva  # the Geneva drive (the same)

    for section in (*SECTIONS.values(), *cambox.SCENES, geneva.section):
        sections += ["", *section(args.repeats)]
        load.append(os.getloadavg()[0])
    head = [
        "# Stops, friction and contacts: ours, MuJoCo and Exudyn (bench/peers_events.py)",
        "",
        f"MuJoCo {mujoco.__version__}, Exudyn {exudyn_scenes.exu.__version__} ({exudyn_scenes.module()} module); "
        f"CPU time (time.process_time) of the integration, best of {args.repeats}; load average (1 min) "
        f"{min(load):.1f}-{max(load):.1f} during the run, 2 CPUs shared with other jobs. CPU ours / this: ours' CPU "
        "time over this code's for the same simulated time and step (below 1: ours is faster). Timed: ours' "
        "simulate() (the model built before), MuJoCo's mj_step calls (the samples read between them not timed), "
        "Exudyn's SolveDynamic (after Assemble; its sensors in memory included). Ours' rows 'output at t_end "
        "only' are the same run with one output sample: its integration without the per-sample costs "
        "(results recorded at each sample, the event checks at each output time; bench/results/sample_cost.md).",
        "",
        "## Issue 33's goals, scene by scene",
        "",
        "Goal: faster than Exudyn (CPU ours / Exudyn below 1), within 3x of MuJoCo (CPU ours / MuJoCo at most 3), "
        "closer to the closed form than both (errors as in the scene's table: smaller is closer; 'tie': within "
        "10 % of the closer peer's). In brackets: ours' integration only (its row 'output at t_end only').",
        "",
        "| scene: errors | ours | MuJoCo | Exudyn | ours closest | CPU ours / Exudyn | CPU ours / MuJoCo |",
        "|---|---|---|---|---|---|---|",
        *GOALS,
    ]
    with open(os.path.join(HERE, "results", "peers_events.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(head + sections) + "\n")


if __name__ == "__main__":
    main()
