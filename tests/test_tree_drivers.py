"""rk4_tree with drivers (solver/integrators/tree.py, hybrid dynamics in tree_kernel.py): a driven
joint follows its profile exactly and its driver effort is what the joint must supply.

Checked against closed forms (a rod pendulum driven at constant speed and along a sine: torque
I_O theta'' + m g c cos(theta)) and the body-coordinate rk4 (a driven cam pressing a follower on a
prismatic joint through a contact pair, tests/test_contact_cam.py's model)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_contact_cam import cam_model

from MBDWorkbench.solver import ModelError, from_dict, simulate

G, M_ROD, L_ROD = 9.81, 1.2, 0.5  # [m/s^2, kg, m]: a rod pinned at one end
C_ROD, I_PIN = L_ROD / 2, M_ROD * L_ROD**2 / 3  # its CoG's distance [m] and inertia about the pin [kg m^2]
PIN = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
PROFILES = {  # profile, theta(t), theta''(t) [rad, rad/s^2]
    "constant speed": ("2.5*t", lambda t: 2.5 * t, lambda t: 0.0 * t),
    "sine": ("0.8*sin(3*t)", lambda t: 0.8 * np.sin(3 * t), lambda t: -7.2 * np.sin(3 * t)),
}


def driven_pendulum(profile: str, integrator: str = "rk4_tree", reversed_joint: bool = False, **settings) -> dict:
    """The rod (along x, gravity -y) on a z pin driven by ``profile``; ``reversed_joint``: the pin
    joins rod (body_i) to ground (body_j), so the driver's angle is the ground's turn seen from the rod."""
    inertia = [1e-4, M_ROD * L_ROD**2 / 12, M_ROD * L_ROD**2 / 12]  # about its CoG [kg m^2]
    rod = {"name": "rod", "mass": M_ROD, "inertia": inertia, "position": [C_ROD, 0, 0]}
    sides = ("rod", "ground") if reversed_joint else ("ground", "rod")
    pin = {"name": "pin", "type": "revolute", "body_i": sides[0], "body_j": sides[1], "frame": PIN}
    motor = {"name": "motor", "type": "rotational", "joint": "pin", "profile": profile}
    run = {"t_end": 1.0, "step": 1e-3, "output_step": 0.01, "integrator": integrator, **settings}
    return {"gravity": [0, -G, 0], "bodies": [rod], "joints": [pin], "drivers": [motor], "settings": run}


@pytest.mark.parametrize("reversed_joint", [False, True])
@pytest.mark.parametrize("name", list(PROFILES))
def test_driven_pendulum_torque_matches_the_closed_form(name, reversed_joint):
    """The pin angle follows the profile exactly (1e-12 rad); the driver's torque is
    I_O theta'' + m g c cos(theta) (1e-9 of its peak; on the reversed joint the driver turns the
    ground against the rod: angle and torque change sign); the energy balance, with the driver's
    work, stays closed."""
    profile, theta, acc = PROFILES[name]
    res = simulate(from_dict(driven_pendulum(profile, reversed_joint=reversed_joint)))
    assert res.status == "completed", res.warnings
    sign = -1.0 if reversed_joint else 1.0
    rod_angle = sign * theta(res.t)
    assert np.abs(res.joint_coordinate("pin")[:, 0] - theta(res.t)).max() < 1e-12
    x, y = res.position("rod")[:, 0], res.position("rod")[:, 1]
    assert np.abs(x - C_ROD * np.cos(rod_angle)).max() < 1e-12 and np.abs(y - C_ROD * np.sin(rod_angle)).max() < 1e-12
    torque = I_PIN * sign * acc(res.t) + M_ROD * G * C_ROD * np.cos(rod_angle)  # on the rod about z
    effort = res.driver_effort("motor").reshape(-1)
    assert np.abs(effort - sign * torque).max() < 1e-9 * np.abs(torque).max()
    e = res.energy()
    assert np.abs(e["balance"]).max() < 1e-6 * np.abs(e["kinetic"] + e["potential"] - e["potential"][0]).max()


def test_driven_pendulum_efforts_inside_the_stepper():
    """The kernel's own effort (TreeWork.tau, hybrid dynamics) at a state off the samples equals the
    closed form: the torque the stepper's work accounting integrates."""
    from MBDWorkbench.solver.integrators.tree import build_tree, set_drive_offsets
    from MBDWorkbench.solver.integrators.tree_kernel import new_tree_work, tree_accelerations
    from MBDWorkbench.solver.system.system import System

    system = System(from_dict(driven_pendulum("0.8*sin(3*t)")))
    T, TW = build_tree(system, system.Y0), new_tree_work(system.nb)
    set_drive_offsets(T, system, 0.0, np.zeros(1))
    q, qd, qdd = np.array([5.0]), np.array([7.0]), np.zeros(1)  # overwritten by the profile
    t = 0.37
    Pnc, Pdrv = tree_accelerations(t, q, qd, T, TW, system.static, qdd)
    theta, rate, acc = 0.8 * math.sin(3 * t), 2.4 * math.cos(3 * t), -7.2 * math.sin(3 * t)
    assert (q[0], qd[0], qdd[0]) == pytest.approx((theta, rate, acc), rel=1e-14)
    torque = I_PIN * acc + M_ROD * G * C_ROD * math.cos(theta)
    assert TW.tau[0] == pytest.approx(torque, rel=1e-12)
    assert Pdrv == pytest.approx(torque * rate, rel=1e-12) and Pnc == 0.0


def test_driven_cam_tree_matches_the_body_coordinates():
    """The cam of tests/test_contact_cam.py driven at 10 rad/s pressing the flat follower (a 2-body tree:
    driven revolute, free prismatic, a contact pair): rk4_tree's follower height and contact force
    equal rk4's in body coordinates to their integration error (same step)."""
    tree = simulate(cam_model(10.0, turns=0.25, integrator="rk4_tree"))
    body = simulate(cam_model(10.0, turns=0.25, integrator="rk4"))
    assert tree.status == "completed", tree.warnings
    y_tree, y_body = tree.position("follower")[:, 1], body.position("follower")[:, 1]
    lift = y_body.max() - y_body.min()
    assert lift > 5e-3 and np.abs(y_tree - y_body).max() < 1e-9
    f_tree, f_body = tree.contact("cam_follower")[:, 3], body.contact("cam_follower")[:, 3]
    assert np.abs(f_body).max() > 10.0 and np.abs(f_tree - f_body).max() < 1e-5 * np.abs(f_body).max()
    e_tree, e_body = tree.driver_effort("motor").reshape(-1), body.driver_effort("motor").reshape(-1)
    assert np.abs(e_body).max() > 0.1 and np.abs(e_tree - e_body).max() < 1e-5 * np.abs(e_body).max()


def test_two_drivers_on_one_joint_and_drivers_on_other_joints_are_refused_by_name():
    """rk4_tree takes one driver per revolute or prismatic joint: a second one, or a driver on a
    cylindrical joint (not a tree joint), is refused naming the joint."""
    d = driven_pendulum("2*t")
    d["drivers"].append({"name": "motor2", "type": "rotational", "joint": "pin", "profile": "3*t"})
    with pytest.raises(ModelError, match="'pin'"):
        simulate(from_dict(d), allow_overdriven=True)
    d = driven_pendulum("2*t")
    d["joints"][0]["type"] = "cylindrical"
    with pytest.raises(ModelError, match="'pin' is cylindrical"):
        simulate(from_dict(d))
