"""Events side by side with MuJoCo (issue 32 item 8, issue 33 item 7; the companion of
bench/peers.py for stops and contacts): each scene against its closed form or an independent
SciPy solution, and CPU steps per second (time.process_time of the integration; MuJoCo through
its native ``mj_step(model, data, nstep)`` loop between samples).

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

Exudyn is not compared here yet: its ObjectContactSphereSphere (a sphere of radius 1000 m as the
plane, Hertz exponent 1.5, impact model 2) stopped at the contact onset with RK44 and with
generalized-alpha ("adaptive step reduction reached minimum step size"); its limit stops
(CoordinateSpringDamperExt on a KinematicTree coordinate) were not tried. Runs in .venv-bench
(bench/peer_venv.py installs mujoco). Writes bench/results/peers_events.md.

    /usr/bin/python3 bench/peers_events.py [--repeats 3]
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
    ensure_modules({"mujoco": "mujoco==4.0.0"}, __file__)

from scipy.integrate import solve_ivp  # noqa: E402

from MBDWorkbench.solver import from_dict, simulate  # noqa: E402
from MBDWorkbench.solver.model.contacts import MATERIALS  # noqa: E402

G = 9.81
ROD_M, ROD_L, STOP_ANGLE, STOP_E = 1.0, 0.5, -1.2, 0.5  # [kg, m, rad, -]
ROD_I = ROD_M * ROD_L**2 / 3.0  # about the pin [kg m^2]
BALL_R, BALL_M, DROP_H, BALL_E, HERTZ_V = 0.05, 1.0, 0.2, 0.8, 1.0
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
def ours_stop(model: str, h: float, t_end: float) -> dict:
    rod = {"name": "rod", "mass": ROD_M, "inertia": [1e-4, ROD_M * ROD_L**2 / 12, ROD_M * ROD_L**2 / 12],
           "position": [ROD_L / 2, 0, 0]}  # fmt: skip
    stop = {"model": "rigid", "restitution": STOP_E} if model == "rigid" else {}
    pin = {"name": "pin", "type": "revolute", "body_i": "ground", "body_j": "rod",
           "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]},
           "angle_min": STOP_ANGLE, "angle_stop": stop}  # fmt: skip
    settings = {"t_end": t_end, "step": h, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    res, cpu = timed(lambda: simulate(from_dict({"gravity": [0, -G, 0], "bodies": [rod], "joints": [pin],
                                                 "settings": settings})))  # fmt: skip
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
    res, cpu = timed(lambda: simulate(from_dict(ball_model(t_end, h, DROP_H, 0.0, G))))
    return {"t": res.t, "z": res.position("ball")[:, 2] - BALL_R, "cpu": cpu, "steps": res.steps}


def ours_hertz(h: float) -> dict:
    data = ball_model(4e-4, h, 2e-5, HERTZ_V, 0.0)
    data["contacts"][0].update(law="flores", restitution=1.0)
    res, cpu = timed(lambda: simulate(from_dict(data), output_step=1e-6))
    c = res.contact("floor")
    return {"t": res.t, "force": c[:, 3], "peak": float(c[:, 10].max()), "cpu": cpu, "steps": res.steps}


def timed(run):
    start = time.process_time()
    out = run()
    return out, time.process_time() - start


# ----------------------------------------------------------------------------- MuJoCo
def mujoco_run(xml: str, t_end: float, every: int, read) -> dict:
    """Step a MuJoCo model to t_end, ``read(data)`` every ``every`` steps; CPU time of the steps."""
    import mujoco

    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    steps = int(round(t_end / model.opt.timestep))
    rows, cpu = [(0.0, *read(data))], 0.0
    for _ in range(steps // every):
        start = time.process_time()
        mujoco.mj_step(model, data, every)
        cpu += time.process_time() - start
        rows.append((data.time, *read(data)))
    return {"rows": np.array(rows), "cpu": cpu, "steps": steps}


def mujoco_stop(h: float, t_end: float, solref: str | None) -> dict:
    ref = f' solreflimit="{solref}"' if solref else ""
    xml = (
        f'<mujoco><compiler angle="radian"/><option timestep="{h}" integrator="RK4" gravity="0 -{G} 0"/>'
        "<worldbody><body>"
        f'<joint name="pin" type="hinge" axis="0 0 1" limited="true" range="{STOP_ANGLE} 3.1"{ref}/>'
        f'<inertial pos="{ROD_L / 2} 0 0" mass="{ROD_M}" diaginertia="1e-4 {ROD_L**2 / 12} {ROD_L**2 / 12}"/>'
        "</body></worldbody></mujoco>"
    )
    out = mujoco_run(xml, t_end, max(1, int(round(1e-3 / h))), lambda d: (float(d.qpos[0]), float(d.qvel[0])))
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

    def read(d):
        force = float(d.efc_force.sum()) if d.nefc else 0.0
        return float(d.qpos[2]) - BALL_R, force

    import mujoco

    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    data.qvel[2] = -speed
    steps, rows, cpu = int(round(t_end / h)), [], 0.0
    mujoco.mj_forward(model, data)
    rows.append((0.0, *read(data)))
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
        f"MuJoCo RK4, range, solreflimit 0.01 {zeta:.3f} (e 0.5)": lambda: mujoco_stop(h, t_end, f"0.01 {zeta}"),
        "MuJoCo RK4, range, default solref": lambda: mujoco_stop(h, t_end, None),
    }
    rows = []
    for name, run in codes.items():
        out = best(run, repeats)
        m = stop_measures(out)
        rows.append(
            f"| {name} | {m['t1'] - ref['t1']:+.2e} | {m['t2'] - ref['t2']:+.2e} | "
            f"{m['w1'] / ref['w1_closed'] - 1:+.2e} | "
            f"{m['rebound'] / (STOP_E * ref['w1']):.3f} | {m['overshoot']:.2e} | {out['steps'] / out['cpu']:,.0f} |"
        )
        print(rows[-1], flush=True)
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
        "past the stop.",
        "",
        "| code | 1st impact time - reference [s] | 2nd impact time - reference [s] | impact speed / closed form - 1 | "
        "rebound / (e w1) | overshoot [rad] | steps/s (CPU) |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]


def ball_section(repeats: int) -> list[str]:
    h, t_end = 1e-5, 0.9
    zeta = damping_ratio(BALL_E)
    v0 = math.sqrt(2 * G * DROP_H)
    codes = {
        "ours rk4 (Hertz, restitution law e 0.8)": lambda: ours_ball(t_end, h),
        f"MuJoCo RK4 (solref 0.002 {zeta:.4f})": lambda: mujoco_ball(h, t_end, DROP_H, 0.0, G, f"0.002 {zeta}"),
    }
    rows = []
    for name, run in codes.items():
        out = best(run, repeats)
        heights = apexes(out["z"])[:3] / DROP_H
        expected = BALL_E ** (2 * np.arange(1, len(heights) + 1))
        touch = crossings(out["t"], out["z"], -1)
        touch_ref = math.sqrt(2 * DROP_H / G) + np.cumsum([0.0] + [2 * BALL_E**n * v0 / G for n in range(1, 3)])
        n = min(len(touch), 3)
        dt = np.abs(touch[:n] - touch_ref[:n]).max() if n else math.nan
        rel = np.abs(heights / expected - 1).max() if len(heights) else math.nan
        rows.append(
            f"| {name} | {', '.join(f'{x:.4f}' for x in heights)} | {rel:.2e} | {dt:.2e} | "
            f"{out['steps'] / out['cpu']:,.0f} |"
        )
        print(rows[-1], flush=True)
    return [
        "## A ball dropped on a plane",
        "",
        f"Steel ball R {BALL_R} m, {BALL_M} kg, dropped from {DROP_H} m onto a plane, e = {BALL_E}; h = {h} s, "
        f"{t_end} s, samples every 1e-4 s. Closed form: apexes e^(2n) h = "
        f"{', '.join(f'{BALL_E ** (2 * n):.4f}' for n in (1, 2, 3))} (of h), touches at sqrt(2h/g) + "
        "sum 2 e^n v0 / g (rigid impacts).",
        "",
        "| code | apex / h | largest apex error (relative) | largest touch-time error [s] | steps/s (CPU) |",
        "|---|---|---|---|---|",
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
    }
    rows = []
    for name, run in codes.items():
        out = best(run, repeats)
        force = out["force"]
        on = out["t"][force > 1e-9 * force.max()]
        top = out.get("peak", float(force.max()))
        rows.append(
            f"| {name} | {top:.2f} | {top / peak - 1:+.2e} | {(on[-1] - on[0]) * 1e6:.2f} | "
            f"{(on[-1] - on[0]) / duration - 1:+.2e} | {out['steps'] / out['cpu']:,.0f} |"
        )
        print(rows[-1], flush=True)
    return [
        "## Hertz impact of a sphere on a plane",
        "",
        f"The same ball hitting the plane at {HERTZ_V} m/s without gravity; h = {h} s, samples every 1e-6 s "
        f"(duration: the span of the samples with a force, so to about 1 us). Hertz [Johnson] 11.4, E* = "
        f"{E_STAR:.4g} Pa: peak {peak:.2f} N, duration {duration * 1e6:.2f} us. MuJoCo's contact force is linear "
        "in the penetration (no Hertz law), given here the stiffness whose contact lasts Hertz's duration.",
        "",
        "| code | peak force [N] | peak / Hertz - 1 | duration [us] | duration / Hertz - 1 | steps/s (CPU) |",
        "|---|---|---|---|---|---|",
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
    res, cpu = timed(lambda: simulate(from_dict({"gravity": [0, -G, 0], "bodies": [arm], "joints": [pin],
                                                 "settings": settings})))  # fmt: skip
    q, w = THETA0 + res.joint_coordinate("pin")[:, 0], res.joint_coordinate_rate("pin")[:, 0]
    return {"points": sampled_turning_points(res.t, q, w), "cpu": cpu, "steps": res.steps}


def mujoco_friction(h: float, t_end: float) -> dict:
    xml = (
        f'<mujoco><compiler angle="radian"/><option timestep="{h}" integrator="RK4" gravity="0 -{G} 0"/>'
        f'<worldbody><body><joint name="pin" type="hinge" axis="0 0 1" frictionloss="{MU * PIN_R * ROD_M * G}"/>'
        f'<inertial pos="0 {-ARM_L} 0" mass="{ROD_M}" diaginertia="0.01 0.01 {ARM_I_CG}"/></body></worldbody>'
        "</mujoco>"
    )
    import mujoco

    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    data.qpos[0] = THETA0
    out = mujoco_run_from(model, data, t_end, max(1, int(round(1e-3 / h))))
    rows = out["rows"]
    return {"points": sampled_turning_points(rows[:, 0], rows[:, 1], rows[:, 2]), **out}


def mujoco_run_from(model, data, t_end: float, every: int) -> dict:
    """Step (model, data) to t_end, sampling (t, qpos[0], qvel[0]) every ``every`` steps."""
    import mujoco

    mujoco.mj_forward(model, data)
    steps = int(round(t_end / model.opt.timestep))
    rows, cpu = [(0.0, float(data.qpos[0]), float(data.qvel[0]))], 0.0
    for _ in range(steps // every):
        start = time.process_time()
        mujoco.mj_step(model, data, every)
        cpu += time.process_time() - start
        rows.append((data.time, float(data.qpos[0]), float(data.qvel[0])))
    return {"rows": np.array(rows), "cpu": cpu, "steps": steps}


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
    rows = []
    for name, run in (("ours rk4 (pin friction from the reaction)", lambda: ours_friction(h, t_end)),
                      ("MuJoCo RK4 (frictionloss = mu r m g)", lambda: mujoco_friction(h, t_end))):  # fmt: skip
        out = best(run, repeats)
        cells = []
        for ref in (load_ref, torque_ref):
            dq, dt, n = point_errors(out["points"], ref)
            cells.append(f"{dq:.1e} / {dt:.1e} ({n} of {len(ref)})")
        rows.append(f"| {name} | {len(out['points'])} | {' | '.join(cells)} | {out['steps'] / out['cpu']:,.0f} |")
        print(rows[-1], flush=True)
    return [
        "## A pendulum with Coulomb pin friction",
        "",
        f"A bar (m {ROD_M} kg, CoG {ARM_L} m from the pin, I_cg {ARM_I_CG} kg m^2) released {THETA0} rad from the "
        f"downward vertical, pin friction mu {MU} on r {PIN_R} m; h = {h} s, {t_end} s, samples every 1 ms; "
        "turning points from the samples (parabola). Two SciPy references (rtol 1e-12, each half swing to its "
        "turning point): the friction torque mu r N with N the pin's reaction (what ours models) and the "
        "constant torque mu r m g (what MuJoCo's frictionloss is). Errors: largest angle [rad] / time [s] "
        "difference of the turning points.",
        "",
        "| code | turning points | vs load-dependent reference | vs constant-torque reference | steps/s (CPU) |",
        "|---|---|---|---|---|",
        *rows,
    ]


def best(run, repeats: int) -> dict:
    """The run of ``repeats`` with the least CPU time (after one run that compiles and warms)."""
    run()
    outs = [run() for _ in range(repeats)]
    return min(outs, key=lambda o: o["cpu"])


def main() -> None:
    import mujoco

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    load = [os.getloadavg()[0]]
    sections = []
    for section in (stop_section, friction_section, ball_section, hertz_section):
        sections += ["", *section(args.repeats)]
        load.append(os.getloadavg()[0])
    head = [
        "# Stops, friction and contacts: ours and MuJoCo (bench/peers_events.py)",
        "",
        f"MuJoCo {mujoco.__version__}; CPU time (time.process_time) of the integration, best of {args.repeats}; "
        f"load average (1 min) {min(load):.1f}-{max(load):.1f} during the run, 2 CPUs shared with other jobs.",
    ]
    with open(os.path.join(HERE, "results", "peers_events.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(head + sections) + "\n")


if __name__ == "__main__":
    main()
