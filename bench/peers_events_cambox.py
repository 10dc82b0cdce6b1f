"""The cam-follower and the settling box of issue 33 item 6: ours beside MuJoCo and Exudyn (item 7).

Two scenes of bench/peers_events.py's page (its main runs them after its own; this script runs these
two alone and puts their rows and sections into bench/results/peers_events.md, keeping the rest):

* cam: an eccentric circular cam (radius R, eccentricity E) turning at w from its lowest point and
  a flat follower on a vertical slide pressed down by a preloaded spring (preload P, stiffness k),
  no gravity. Closed form (rigid contact): lift E (1 - cos wt), normal force
  F = (P + k lift + m E w^2 cos wt) / (1 + k / K) (the follower's equation; 1 + k / K: the face
  sinks by F / K on the contact's stiffness K); the follower first leaves the cam at its top when
  m E w^2 > P + 2 k E. Ours: the cam on a revolute joint driven at w (tests/test_contact_cam.py);
  the peers' cam a flywheel (inertia 1e4 kg m^2: the contact's torque changes its speed by below
  1e-6), since neither's explicit integrator takes a driving constraint. MuJoCo: the cam a capsule
  (its cylindrical side is the cam's circle; MuJoCo's cylinder-box contact is its general convex
  one, and chatters at this stiffness: the extra row) against a box, a soft contact of ours'
  stiffness and a damping ratio 1; Exudyn: ObjectContactSphereTriangle between the cam's circle and
  the face (bench/peers_events_cambox_exudyn.py), ours' K and restitution.
* box: a box dropped tilted and spinning onto a plane settles on a face (tests/test_contact_settling.py):
  its speeds once at rest (after 1.5 s), the largest step of its mechanical energy between samples
  (kinetic + gravity + the contact's elastic energy where the code has one), and the resting
  depth against the static penetration of four corners, (m g / (4 K))^(2/3) for a Hertz
  corner law K d^1.5. MuJoCo: its box geom on a plane (friction 0.5, condim 3, default solref: a
  soft constraint with no elastic energy and no Hertz law); Exudyn: a contact sphere of 10 mm in
  each of the 8 corners (ObjectContactSphereTriangle, K d^1.5, restitution 0.5, friction 0.5; a
  sphere of 1 mm, as the block's, is pushed through the floor by the first impact's 4 mm).

Timing as bench/peers_events.py: CPU time of the integration, best of ``--repeats``, the same step
in the three codes.

    /usr/bin/python3 bench/peers_events_cambox.py [--repeats 3] [--only cam]
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

import mujoco  # noqa: E402

from bench import peers_events as pe  # noqa: E402
from bench import peers_events_cambox_exudyn as exudyn_scenes  # noqa: E402
from MBDWorkbench.solver.numerics import quaternion  # noqa: E402

# ----------------------------------------------------------------------------- the cam
CAM = {"R": 0.04, "E": 0.01, "m": 0.5, "k": 2000.0, "P": 20.0, "K": 1e8, "I_cam": 1e4}  # [m, m, kg, N/m, N, N/m]
CAM_H, CAM_W, CAM_E = 1.5e-5, 10.0, 0.5  # step [s] (30 per period of the follower on K), low speed [rad/s], e


def cam_closed_form(w: float, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(lift [m], normal force [N]) of the rigid cam profile at times t."""
    E, m, k, P, K = (CAM[x] for x in "EmkPK")
    lift = E * (1 - np.cos(w * t))
    return lift, (P + k * lift + m * E * w * w * np.cos(w * t)) / (1 + k / K)


def lift_off_speed() -> float:
    """w [rad/s] where the flat follower first leaves the cam: m E w^2 = P + 2 k E."""
    return math.sqrt((CAM["P"] + 2 * CAM["k"] * CAM["E"]) / (CAM["m"] * CAM["E"]))


def lift_off_turn(w: float) -> float:
    """The cam's turns from its lowest point where the normal force first reaches 0 at w [rad/s]
    (above the lift-off speed): cos wt = -(P + k E) / (m E w^2 - k E)."""
    E, m, k, P = (CAM[x] for x in "EmkP")
    return math.acos(-(P + k * E) / (m * E * w * w - k * E)) / (2 * math.pi)


def cam_start(w: float) -> float:
    """The face's height y0 [m] at the start: the cam's top R - E minus the penetration under F(0)."""
    return CAM["R"] - CAM["E"] - float(cam_closed_form(w, np.zeros(1))[1][0]) / CAM["K"]


def ours_cam(w: float, t_end: float, sample: float, flywheel: bool = False, integrator: str = "rk4") -> dict:
    """Ours: the cam driven at w (a rotational driver), or a flywheel as the peers' (``flywheel``)."""
    R, E, m, k, P = (CAM[x] for x in "REmkP")
    y0, top = cam_start(w), 0.2  # the face's start height, the spring's fixed end [m]
    spring = {"name": "spring", "type": "spring_damper", "body_i": "ground", "body_j": "follower",
              "point_i": [0, top, 0], "point_j": [0, y0, 0], "stiffness": k, "damping": 0.0,
              "free_length": top - (R - E) + P / k}  # fmt: skip
    pair = {"name": "cam", "body_a": "cam", "body_b": "follower", "stiffness": CAM["K"], "restitution": CAM_E,
            "shape_a": {"type": "cylinder", "center": [0, -E, 0], "axis": [0, 0, 1], "radius": R, "length": 0.02},
            "shape_b": {"type": "plane", "point": [0, 0, 0], "normal": [0, -1, 0]},
            "penetration_tol": 1e-5}  # fmt: skip
    motor = {"name": "motor", "type": "rotational", "joint": "axle", "profile": f"{w!r}*t"}
    inertia = [0.5 * CAM["I_cam"], 0.5 * CAM["I_cam"], CAM["I_cam"]] if flywheel else [1e-3, 1e-3, 2e-3]
    model = {
        "gravity": [0, 0, 0],
        "bodies": [{"name": "cam", "mass": 2.0, "inertia": inertia, "angular_velocity": [0, 0, w]},
                   {"name": "follower", "mass": m, "inertia": [1e-4] * 3, "position": [0, y0, 0]}],
        "joints": [{"name": "axle", "type": "revolute", "body_i": "ground", "body_j": "cam",
                    "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}},
                   {"name": "slide", "type": "prismatic", "body_i": "ground", "body_j": "follower",
                    "frame": {"origin": [0, y0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]}}],
        "drivers": [] if flywheel else [motor],
        "forces": [spring],
        "contacts": [pair],
        "settings": {"t_end": t_end, "step": CAM_H, "output_step": sample, "integrator": integrator, "accuracy": False},
    }  # fmt: skip
    res, cpu = pe.run_ours(model)
    return {"t": res.t[1:], "y": res.position("follower")[1:, 1], "force": res.contact("cam")[1:, 3], "cpu": cpu,
            "steps": res.steps}  # fmt: skip


def cam_solref() -> str:
    """MuJoCo's solref (-stiffness, -damping) whose contact on the follower has ours' natural frequency
    sqrt(K / m) and a damping ratio 1: its acceleration a = -d (b v + k r) with b = damping / d_max,
    k = stiffness / d_max^2 (d = 0.9, d_max = 0.95: the default solimp)."""
    d, d_max, w_n = 0.9, 0.95, math.sqrt(CAM["K"] / CAM["m"])
    return f"-{w_n**2 * d_max**2 / d:.6g} -{2 * w_n * d_max / d:.6g}"


def mujoco_cam(w: float, t_end: float, sample: float, shape: str = "capsule") -> dict:
    R, E, m, k, P = (CAM[x] for x in "REmkP")
    sol = cam_solref()
    xml = (
        f'<mujoco><option timestep="{CAM_H}" integrator="RK4" gravity="0 0 0"/><worldbody>'
        f'<body><joint type="hinge" axis="0 0 1" armature="{CAM["I_cam"]}"/>'
        f'<geom type="{shape}" size="{R} 0.01" pos="0 {-E} 0" condim="1" solref="{sol}"/>'
        '<inertial pos="0 0 0" mass="2" diaginertia="1e-3 1e-3 2e-3"/></body>'
        f'<body><joint type="slide" axis="0 1 0" stiffness="{k}" springref="{R - E - P / k}"/>'
        f'<geom type="box" size="0.05 0.005 0.02" pos="0 0.005 0" condim="1" solref="{sol}"/>'
        f'<inertial pos="0 0 0" mass="{m}" diaginertia="1e-4 1e-4 1e-4"/></body></worldbody></mujoco>'
    )
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    data.qpos[1], data.qvel[0] = cam_start(w), w
    every, steps = max(1, int(round(sample / CAM_H))), int(round(t_end / CAM_H))
    rows, cpu, f = [], 0.0, np.zeros(6)
    for _ in range(steps // every):
        start = time.process_time()
        mujoco.mj_step(model, data, every)
        cpu += time.process_time() - start
        mujoco.mj_forward(model, data)  # the contact force at the sample (not timed)
        force = 0.0
        for c in range(data.ncon):
            mujoco.mj_contactForce(model, data, c, f)
            force += f[0]
        rows.append((data.time, float(data.qpos[1]), force))
    rows = np.array(rows)
    return {"t": rows[:, 0], "y": rows[:, 1], "force": rows[:, 2], "cpu": cpu, "steps": steps}


def exudyn_cam(w: float, t_end: float, sample: float) -> dict:
    law = {"contactStiffness": CAM["K"], "contactStiffnessExponent": 1.0, "restitutionCoefficient": CAM_E,
           "impactModel": 2, "dynamicFriction": 0.0}  # fmt: skip
    return exudyn_scenes.cam({**CAM, "y0": cam_start(w)}, w, CAM_H, t_end, law, sample)


CAM_CODES = {
    "ours rk4 (cylinder on plane, K 1e8 N/m, e 0.5; cam driven)": ours_cam,
    "MuJoCo RK4 (capsule on box, ours' stiffness, damping ratio 1)": mujoco_cam,
    "Exudyn RK44 (ContactSphereTriangle, K 1e8 N/m, impact model 2, e 0.5)": exudyn_cam,
}


def leaves(run, w: float) -> str:
    """'stays', or 'leaves at <turns>' (the cam's turns from the start at the first step where the normal
    force is 0): the follower on the cam for 1.5 turns at w [rad/s], the force read at every step."""
    out = run(w, 3 * math.pi / w, CAM_H)
    off = np.nonzero(out["force"] <= 0.0)[0]
    return f"leaves at {w * out['t'][off[0]] / (2 * math.pi):.2f}" if len(off) else "stays"


def cam_section(repeats: int) -> list[str]:
    w, t_end = CAM_W, 2 * math.pi / CAM_W
    codes = {name: (lambda run=run: run(w, t_end, 1e-3)) for name, run in CAM_CODES.items()}
    codes[f"ours rk4 (the same, the cam a flywheel of {CAM['I_cam']:g} kg m^2 as the peers')"] = lambda: ours_cam(
        w, t_end, 1e-3, flywheel=True
    )
    tree = "ours rk4_tree (the flywheel cam as the peers', in joint coordinates)"
    codes[tree] = lambda: ours_cam(w, t_end, 1e-3, flywheel=True, integrator="rk4_tree")
    driven = "ours rk4_tree (the cam driven, in joint coordinates)"
    codes[driven] = lambda: ours_cam(w, t_end, 1e-3, integrator="rk4_tree")
    codes["MuJoCo RK4 (cylinder on box, the same solref)"] = lambda: mujoco_cam(w, t_end, 1e-3, "cylinder")
    load = [os.getloadavg()[0]]
    outs = {name: pe.best(run, repeats) for name, run in codes.items()}
    w_lift = lift_off_speed()
    rows, err, names = [], {}, list(codes)
    for name, out in outs.items():
        lift, force = cam_closed_form(w, out["t"])
        e_lift = float(np.abs(out["y"] - (CAM["R"] - CAM["E"]) - lift).max())
        e_force = float(np.abs(out["force"] / force - 1).max())
        err[name] = (e_lift, e_force)
        run = CAM_CODES.get(name)
        off = f"{leaves(run, 0.99 * w_lift)} / {leaves(run, 1.01 * w_lift)}" if run else "- / -"
        rows.append(
            f"| {name} | {e_lift:.2e} | {e_force:.2e} | {off} | {out['steps'] / out['cpu']:,.0f} | "
            f"{outs[names[0]]['cpu'] / out['cpu']:.2f} |"
        )
        print(rows[-1], flush=True)
    bare = pe.integration_only(codes[names[0]], repeats)
    rows.insert(1, pe.bare_row(names[0], bare, 6, f"{outs[names[0]]['cpu'] / bare['cpu']:.2f}"))
    tree_bare = {}
    for name in (tree, driven):
        tree_bare[name] = pe.integration_only(codes[name], repeats)
        ratio = f"{outs[names[0]]['cpu'] / tree_bare[name]['cpu']:.2f}"
        at = rows.index(next(r for r in rows if r.startswith(f"| {name} |"))) + 1
        rows.insert(at, pe.bare_row(name, tree_bare[name], 6, ratio))
    load.append(os.getloadavg()[0])
    pe.goal("cam: lift vs rigid profile [m]; normal force (relative)", err, [names[0], names[1], names[2]], outs,
            bare["cpu"], lambda e: f"{e[0]:.1e}; {e[1]:.1e}")  # fmt: skip
    pe.goal("cam: the same, ours rk4_tree on the peers' flywheel model", err, [tree, names[1], names[2]], outs,
            tree_bare[tree]["cpu"], lambda e: f"{e[0]:.1e}; {e[1]:.1e}")  # fmt: skip
    pe.goal("cam: the same, ours rk4_tree on the driven cam", err, [driven, names[1], names[2]], outs,
            tree_bare[driven]["cpu"], lambda e: f"{e[0]:.1e}; {e[1]:.1e}")  # fmt: skip
    R, E, m, k, P, K = (CAM[x] for x in "REmkPK")
    return [
        "## A cam and flat follower",
        "",
        f"An eccentric circular cam (R {R} m, eccentricity {E} m) turning at {w} rad/s from its lowest point, a "
        f"flat follower ({m} kg) on a vertical slide pressed on it by a spring (k {k} N/m, preload {P} N), no "
        f"gravity, contact stiffness K {K:g} N/m (linear); h = {CAM_H} s, one turn, samples every 1 ms (MuJoCo "
        "and Exudyn: every 67 steps, 1.005 ms). Closed form: lift E (1 - cos wt), normal force F = "
        "(P + k lift + m E w^2 cos wt) / (1 + k / K); errors: the largest over the samples. Lift-off: the "
        f"follower first leaves the cam at m E w^2 = P + 2 k E, w = {w_lift:.3f} rad/s; each code run 1.5 turns "
        "at 0.99 and 1.01 of it, the normal force read at every step ('leaves at': the cam's turns from the "
        "start at the first step with no force; the closed form at 1.01 x: "
        f"{lift_off_turn(1.01 * w_lift):.3f}, where F first reaches 0 before the top at 0.5).",
        "",
        f"Ours' cam is driven at w (a rotational driver); the peers' is a flywheel ({CAM['I_cam']:g} kg m^2), "
        "as neither's explicit integrator takes a driving constraint (ours' flywheel rows: the peers' model; "
        "rk4_tree integrates it in its two joint coordinates, as Exudyn's kinematic tree, with no constraint "
        "rows to solve; it also integrates ours' driven cam, the cam's angle prescribed). "
        f"MuJoCo's solref {cam_solref()}: the natural frequency of ours' K on the follower, damping ratio 1 (with "
        "e 0.5's ratio, 0.215, its start rings: normal force error 7 %). Its soft constraint sinks less than "
        "F / K, so its lift is closer to the rigid profile than a contact of stiffness K can be: ours' and "
        "Exudyn's lift error is the compliance F / K (6e-7 m at 60 N; ours within 1e-3 of it, "
        "tests/test_contact_cam.py). MuJoCo's follower leaves the cam by about 1e-9 m at a few steps near "
        "0.26 turn from 0.3 x the lift-off speed on (none at 0.1 x; the same with damping ratio 0.215, no "
        "damping, or solref 0.0002 1 and 0.001 1), so it does not show the lift-off speed; its cylinder-box "
        "contact (MuJoCo's general convex collision) chatters at this stiffness (the last row). Load average "
        f"(1 min) {min(load):.1f}-{max(load):.1f} during this scene.",
        "",
        "| code | lift - rigid profile [m] | normal force / closed form - 1 | at 0.99 / 1.01 x the lift-off speed "
        "| steps/s (CPU) | CPU ours / this |",
        "|---|---|---|---|---|---|",
        *rows,
    ]


# ----------------------------------------------------------------------------- the settling box
BOX = {"size": (0.1, 0.06, 0.04), "m": 1.0, "K": 1e6, "g": pe.G, "drop": 0.05}  # [m, kg, N/m^1.5, m/s^2, m]
BOX_H, BOX_T, BOX_REST, BOX_E, BOX_MU = 1e-4, 2.0, 1.5, 0.5, 0.5  # step, end, at rest from [s]; e, mu
BOX_LATE = 0.5  # [s]: after the bounces (the energy steps without the impacts)


def box_start() -> dict:
    """The box 0.05 m above the floor, tilted 0.3 and 0.2 rad about x and y, turning at (1, -2, 2) rad/s."""
    a, b, c = BOX["size"]
    m = BOX["m"]
    q = np.empty(4)
    quaternion.quat_mul(quaternion.from_axis_angle([1, 0, 0], 0.3), quaternion.from_axis_angle([0, 1, 0], 0.2), q)
    A = quaternion.matrix(q)
    corners = np.array([[sx * a, sy * b, sz * c] for sx in (-0.5, 0.5) for sy in (-0.5, 0.5) for sz in (-0.5, 0.5)])
    lowest = float((corners @ A.T)[:, 2].min())
    inertia = [m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12]
    return {**BOX, "q": q, "A": A, "inertia": inertia, "position": [0.0, 0.0, BOX["drop"] - lowest],
            "omega": np.array([1.0, -2.0, 2.0]), "corners": corners}  # fmt: skip


def ours_box() -> dict:
    s = box_start()
    box = {"name": "box", "mass": s["m"], "inertia": s["inertia"], "position": s["position"],
           "orientation": [float(x) for x in s["q"]], "angular_velocity": [float(x) for x in s["omega"]]}  # fmt: skip
    pair = {"name": "floor", "body_a": "box", "body_b": "ground", "stiffness": s["K"], "restitution": BOX_E,
            "law": "restitution", "mu_s": BOX_MU,
            "shape_a": {"type": "box", "center": [0, 0, 0], "size": list(s["size"])},
            "shape_b": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}}  # fmt: skip
    settings = {"t_end": BOX_T, "step": BOX_H, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    res, cpu = pe.run_ours({"bodies": [box], "contacts": [pair], "settings": settings})
    A = np.array([quaternion.matrix(q) for q in res.orientation("box")])
    return {"t": res.t, "x": res.position("box"), "v": res.velocity("box"), "w": res.angular_velocity("box"),
            "A": A, "energy": res.energy()["total"], "cpu": cpu, "steps": res.steps}  # fmt: skip


def mujoco_box() -> dict:
    s = box_start()
    half = " ".join(f"{x / 2}" for x in s["size"])
    xml = (
        f'<mujoco><option timestep="{BOX_H}" integrator="RK4" gravity="0 0 -{s["g"]}"/><worldbody>'
        f'<geom type="plane" size="1 1 0.1" friction="{BOX_MU} 0 0"/><body><freejoint/>'
        f'<geom type="box" size="{half}" friction="{BOX_MU} 0 0"/><inertial pos="0 0 0" mass="{s["m"]}" '
        f'diaginertia="{" ".join(str(x) for x in s["inertia"])}"/></body></worldbody></mujoco>'
    )
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    data.qpos[:] = [*s["position"], *s["q"]]
    data.qvel[:] = [0, 0, 0, *(s["A"].T @ s["omega"])]  # a free joint's angular velocity: in the body's axes
    mujoco.mj_forward(model, data)
    every, steps = int(round(1e-3 / BOX_H)), int(round(BOX_T / BOX_H))
    rows, cpu = [data.qpos.copy().tolist() + data.qvel.copy().tolist() + [0.0]], 0.0
    for _ in range(steps // every):
        start = time.process_time()
        mujoco.mj_step(model, data, every)
        cpu += time.process_time() - start
        rows.append(data.qpos.tolist() + data.qvel.tolist() + [data.time])
    rows = np.array(rows)
    A = np.array([quaternion.matrix(q) for q in rows[:, 3:7]])
    w = np.einsum("kij,kj->ki", A, rows[:, 10:13])  # to global axes
    return {"t": rows[:, 13], "x": rows[:, 0:3], "v": rows[:, 7:10], "w": w, "A": A, "cpu": cpu, "steps": steps}


def exudyn_box() -> dict:
    law = {"contactStiffness": BOX["K"], "contactStiffnessExponent": 1.5, "restitutionCoefficient": BOX_E,
           "impactModel": 2, "dynamicFriction": BOX_MU, "frictionProportionalZone": 1e-3}  # fmt: skip
    return exudyn_scenes.box(box_start(), BOX_H, BOX_T, law, BOX_RADIUS)


BOX_RADIUS = 0.01  # Exudyn's corner spheres [m]: deeper than the impact's penetration (4 mm)


def box_energy(out: dict, s: dict, corner_spheres: bool) -> np.ndarray:
    """Kinetic + gravity [J] at the samples, plus the elastic K d^2.5 / 2.5 of Exudyn's corner spheres."""
    w_body = np.einsum("kji,kj->ki", out["A"], out["w"])
    energy = (
        0.5 * s["m"] * (out["v"] ** 2).sum(1)
        + 0.5 * (w_body**2 * s["inertia"]).sum(1)
        + s["m"] * s["g"] * out["x"][:, 2]
    )
    if corner_spheres:
        half = np.asarray(s["size"]) / 2 - BOX_RADIUS
        inner = s["corners"] / np.asarray(s["size"]) * 2 * half  # the sphere centres in the body
        z = out["x"][:, 2:3] + np.einsum("kj,cj->kc", out["A"][:, 2, :], inner)
        energy += (s["K"] * np.maximum(BOX_RADIUS - z, 0.0) ** 2.5 / 2.5).sum(1)
    return energy


def box_measures(out: dict, s: dict, energy: np.ndarray) -> dict:
    """Speeds at rest, the largest energy step / the drop's energy, the tilt of the nearest body axis
    from vertical [rad] and the depth below the half edge [m], at the end."""
    rest = out["t"] >= BOX_REST
    A = out["A"][-1]
    k = int(np.argmax(np.abs(A[2])))  # the body axis along the global z
    depth = 0.5 * s["size"][k] - float(out["x"][-1, 2])
    return {"v": float(np.abs(out["v"][rest]).max()), "w": float(np.abs(out["w"][rest]).max()),
            "step": float(np.diff(energy).max()) / (s["m"] * s["g"] * s["drop"]),
            "late": float(np.diff(energy)[out["t"][1:] >= BOX_LATE].max()) / (s["m"] * s["g"] * s["drop"]),
            "tilt": math.asin(min(1.0, math.hypot(A[0, k], A[1, k]))), "depth": depth}  # fmt: skip


def box_section(repeats: int) -> list[str]:
    s = box_start()
    codes = {
        "ours rk4 (box on plane, K 1e6 N/m^1.5, restitution law e 0.5, mu 0.5)": ours_box,
        "MuJoCo RK4 (box geom on plane, friction 0.5, condim 3, default solref)": mujoco_box,
        "Exudyn RK44 (8 corner spheres of 10 mm, ContactSphereTriangle, K 1e6 N/m^1.5, model 2, e 0.5, mu 0.5)": (
            exudyn_box
        ),
    }
    load = [os.getloadavg()[0]]
    outs = {name: pe.best(run, repeats) for name, run in codes.items()}
    static = (s["m"] * s["g"] / (4 * s["K"])) ** (2 / 3)
    rows, err, names = [], {}, list(codes)
    for i, (name, out) in enumerate(outs.items()):
        energy = out["energy"] if "energy" in out else box_energy(out, s, i == 2)
        m = box_measures(out, s, energy)
        hertz = i != 1  # MuJoCo's soft contact has no Hertz law: no closed form for its depth here
        e_depth = abs(m["depth"] / static - 1) if hertz else math.inf
        err[name] = (m["v"], max(m["step"], 0.0), e_depth)
        versus = f"{m['depth'] / static - 1:+.1e}" if hertz else "-"
        rows.append(
            f"| {name} | {m['v']:.1e} / {m['w']:.1e} | {m['step']:+.1e} | {m['late']:+.1e} | {m['tilt']:.1e} | "
            f"{m['depth'] * 1e6:.1f} | {versus} | {out['steps'] / out['cpu']:,.0f} | "
            f"{outs[names[0]]['cpu'] / out['cpu']:.2f} |"
        )
        print(rows[-1], flush=True)
    bare = pe.integration_only(codes[names[0]], repeats)
    rows.insert(1, pe.bare_row(names[0], bare, 9, f"{outs[names[0]]['cpu'] / bare['cpu']:.2f}"))
    load.append(os.getloadavg()[0])

    def cells(e):
        return f"{e[0]:.1e}; {e[1]:.1e}; {e[2]:.1e}" if math.isfinite(e[2]) else f"{e[0]:.1e}; {e[1]:.1e}; -"

    pe.goal("box: speed at rest [m/s]; energy gain / drop; depth vs Hertz (relative)", err, names, outs, bare["cpu"],
            cells)  # fmt: skip
    return [
        "## A box dropped on a plane settles on a face",
        "",
        f"A box {' x '.join(str(x) for x in s['size'])} m of {s['m']} kg dropped from {s['drop']} m (its lowest "
        "corner), tilted 0.3 and 0.2 rad about x and y and turning at (1, -2, 2) rad/s, onto a plane, restitution "
        f"{BOX_E}, friction {BOX_MU}; h = {BOX_H} s, {BOX_T} s, samples every 1 ms. At rest: the largest speed and "
        f"angular speed after {BOX_REST} s (closed form 0: no jitter). Energy step: the largest increase of the "
        f"mechanical energy between two samples over the drop's energy m g {s['drop']} (no energy gain: at most 0; "
        "ours: its energy.csv, the contact's elastic energy included; Exudyn: kinetic + gravity + K d^2.5 / 2.5 of "
        "its corner spheres; MuJoCo: kinetic + gravity only, its soft contact has no elastic energy, so the "
        "energy it stores in a contact shows as a gain when the box rebounds: its largest steps come in the first "
        f"rebound, hence the column after {BOX_LATE} s, when the bounces are over). Tilt: the angle of the body axis "
        "nearest the vertical at the end. Resting depth: the half edge minus the centre's height, against four "
        f"corners' Hertz static penetration (m g / (4 K))^(2/3) = {static * 1e6:.1f} um (K d^1.5; MuJoCo's soft "
        f"contact has no such law). Load average (1 min) {min(load):.1f}-{max(load):.1f} during this scene.",
        "",
        "| code | speed / angular speed at rest [m/s, rad/s] | largest energy step / drop | the same after "
        f"{BOX_LATE} s | tilt at the end [rad] | resting depth [um] | depth / Hertz - 1 | steps/s (CPU) | "
        "CPU ours / this |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
    ]


# ----------------------------------------------------------------------------- the page
SCENES = (cam_section, box_section)  # bench/peers_events.py's main runs them after its own
SECTIONS = ("## A cam and flat follower", "## A box dropped on a plane settles on a face")
GOAL_ROWS = ("| cam:", "| box:")


def splice(page: str, goal_rows: list[str], sections: list[list[str]], scenes: tuple[int, ...] = (0, 1)) -> str:
    """The page with the goal rows and sections of the ``scenes`` (indices in SCENES) put in place of
    their earlier ones (new ones: the rows after the goals table's last row, the sections at the end),
    the rest kept."""
    lines = page.rstrip("\n").split("\n")
    own = tuple(GOAL_ROWS[k] for k in scenes)
    old = [k for k, x in enumerate(lines) if x.startswith(own)]
    if old:
        at = old[0]
    else:
        at = lines.index("## Issue 33's goals, scene by scene")
        while not lines[at].startswith("|"):  # the goals table's first line
            at += 1
        while at < len(lines) and lines[at].startswith("|"):  # past its last row
            at += 1
    lines = lines[:at] + goal_rows + [x for x in lines[at:] if not x.startswith(own)]
    for section in sections:
        if section[0] in lines:
            start = lines.index(section[0])
            end = next((k for k in range(start + 1, len(lines)) if lines[k].startswith("## ")), len(lines))
            lines[start:end] = section + ([""] if end < len(lines) else [])
        else:
            lines += ["", *section]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", choices=["cam", "box"], help="rerun one scene; the other's rows are kept")
    args = ap.parse_args()
    scenes = (0, 1) if args.only is None else (["cam", "box"].index(args.only),)
    sections = [SCENES[k](args.repeats) for k in scenes]
    path = os.path.join(HERE, "results", "peers_events.md")
    with open(path, encoding="utf-8") as f:
        page = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(splice(page, pe.GOALS, sections, scenes))


if __name__ == "__main__":
    main()
