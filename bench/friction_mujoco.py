"""Joint friction side by side with MuJoCo (issue 32, item 8): a balanced wheel spun at w0 on a
horizontal axle with Coulomb pin friction. Its pin carries m g, so the friction torque is the
constant T_f = mu r m g in both codes (ours: from the reaction; MuJoCo: ``frictionloss = T_f``)
and the closed form is theta = w0 t - T_f t^2 / (2 I) until t_stop = I w0 / T_f, then rest.
Motion agreement against the closed form, the angle it rests at, creep after the stop, and CPU
steps/s. MuJoCo's frictionloss is a constant torque (not load-dependent), so a swinging pendulum,
whose pin load varies, is not compared. Runs in .venv-bench (bench/peer_venv.py installs mujoco).

    /usr/bin/python3 bench/friction_mujoco.py
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from bench.peer_venv import ensure_modules  # noqa: E402
from bench.results_page import write_page  # noqa: E402

ensure_modules({"mujoco": "mujoco==4.0.0"}, __file__)
import mujoco  # noqa: E402

from MBDWorkbench.solver import from_dict, simulate  # noqa: E402

M, I_AXIS, R_PIN, MU, W0, G, H, T_END = 2.0, 0.02, 0.01, 0.2, 10.0, 9.81, 1e-3, 6.0
T_F = MU * R_PIN * M * G
T_STOP = I_AXIS * W0 / T_F


def closed_form(t: np.ndarray) -> np.ndarray:
    s = np.minimum(t, T_STOP)
    return W0 * s - T_F * s**2 / (2 * I_AXIS)


def ours() -> tuple[np.ndarray, np.ndarray, float, int]:
    axle = {"name": "axle", "type": "revolute", "body_i": "ground", "body_j": "wheel",
            "frame": {"origin": [0, 0, 0], "z_axis": [1, 0, 0], "x_axis": [0, 1, 0]},
            "friction": {"mu_s": MU, "pin_radius": R_PIN}}  # fmt: skip
    wheel = {"name": "wheel", "mass": M, "inertia": [I_AXIS, 0.01, 0.01], "angular_velocity": [W0, 0, 0]}
    settings = {"t_end": T_END, "step": H, "output_step": 0.01, "integrator": "rk4", "accuracy": False}
    model = from_dict({"gravity": [0, 0, -G], "bodies": [wheel], "joints": [axle], "settings": settings})
    start = time.process_time()
    res = simulate(model)
    cpu = time.process_time() - start
    return res.t, res.joint_coordinate("axle")[:, 0], cpu, res.steps


def theirs() -> tuple[np.ndarray, np.ndarray, float, int]:
    xml = (
        f'<mujoco><option timestep="{H}" integrator="RK4" gravity="0 0 -{G}"/><worldbody><body name="w">'
        f'<joint name="axle" type="hinge" axis="1 0 0" frictionloss="{T_F}"/>'
        f'<inertial pos="0 0 0" mass="{M}" diaginertia="{I_AXIS} 0.01 0.01"/></body></worldbody></mujoco>'
    )
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    data.qvel[0] = W0
    steps, every = int(round(T_END / H)), int(round(0.01 / H))
    t, q = [0.0], [0.0]
    start = time.process_time()
    for k in range(1, steps + 1):
        mujoco.mj_step(model, data)
        if k % every == 0:
            t.append(data.time), q.append(float(data.qpos[0]))
    return np.array(t), np.array(q), time.process_time() - start, steps


def main() -> None:
    rows = []
    for name, run in (("MBD Workbench rk4", ours), (f"MuJoCo {mujoco.__version__} RK4", theirs)):
        t, q, cpu, steps = run()
        err = float(np.max(np.abs(q - closed_form(t))))
        after = t > T_STOP + 0.05
        creep = float(np.ptp(q[after])) if after.any() else float("nan")
        rows.append(f"| {name} | {err:.2e} | {q[-1]:.6f} | {creep:.2e} | {steps / cpu:.0f} |")
        print(rows[-1], flush=True)
    note = (
        f"`bench/friction_mujoco.py`: a balanced wheel (m {M} kg, I {I_AXIS} kg m^2) spun at {W0} rad/s on a "
        f"horizontal axle, pin friction mu {MU} on r {R_PIN} m: T_f = mu r m g = {T_F:.5f} N m (MuJoCo: "
        f"frictionloss), stops at {T_STOP:.4f} s at {closed_form(np.array([T_STOP]))[0]:.6f} rad; h = {H} s, "
        f"{T_END} s, samples every 0.01 s; CPU time on a shared, loaded machine."
    )
    table = [
        "| code | max error vs closed form [rad] | final angle [rad] | creep after the stop [rad] | steps/s |",
        "|---|---|---|---|---|",
        *rows,
    ]
    after = (
        "MuJoCo's frictionloss is a soft constraint (regularised by solref/solimp), ours a lock row in the KKT "
        "solve switched at the step where the slip reverses; MuJoCo's is a constant torque, ours follows the "
        "joint's reaction (the same here: the pin carries m g)."
    )
    write_page("friction_mujoco", "Joint friction: MBD Workbench and MuJoCo", note, table, (after,))


if __name__ == "__main__":
    main()
