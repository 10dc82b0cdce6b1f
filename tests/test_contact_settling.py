"""A box dropped tilted and spinning on a plane (docs/contact.md) settles on a face: no jitter once
at rest, the mechanical energy never grows, its face flat on the floor at the static penetration."""

import math

import numpy as np
import pytest

from MBDWorkbench.solver import from_dict, simulate
from MBDWorkbench.solver.model.contacts import is_line, tessellated
from MBDWorkbench.solver.numerics import quaternion

G = 9.81
SIZE = (0.1, 0.06, 0.04)  # [m]
MASS = 1.0
K_CORNER = 1e6  # [N/m^1.5]


def box_model(integrator, t_end=2.0):
    """The box 0.05 m above the floor, tilted 0.3 and 0.2 rad about x and y, turning at 3 rad/s,
    restitution 0.5 (calibrated law), friction 0.5."""
    a, b, c = SIZE
    inertia = [MASS * (b * b + c * c) / 12, MASS * (a * a + c * c) / 12, MASS * (a * a + b * b) / 12]
    q = np.empty(4)
    quaternion.quat_mul(quaternion.from_axis_angle([1, 0, 0], 0.3), quaternion.from_axis_angle([0, 1, 0], 0.2), q)
    corners = np.array([[sx * a, sy * b, sz * c] for sx in (-0.5, 0.5) for sy in (-0.5, 0.5) for sz in (-0.5, 0.5)])
    lowest = float(min((quaternion.matrix(q) @ x)[2] for x in corners))
    box = {
        "name": "box",
        "mass": MASS,
        "inertia": inertia,
        "position": [0, 0, 0.05 - lowest],
        "orientation": [float(x) for x in q],
        "angular_velocity": [1.0, -2.0, 2.0],
    }
    pair = {
        "name": "floor",
        "body_a": "box",
        "body_b": "ground",
        "shape_a": {"type": "box", "center": [0, 0, 0], "size": list(SIZE)},
        "shape_b": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
        "stiffness": K_CORNER,
        "restitution": 0.5,
        "law": "restitution",
        "mu_s": 0.5,
    }
    settings = {"t_end": t_end, "step": 1e-4, "output_step": 1e-3, "integrator": integrator, "accuracy": False}
    if integrator != "rk4":
        settings.update(rtol=1e-6, atol=1e-9)
    return from_dict({"name": "box", "bodies": [box], "contacts": [pair], "settings": settings})


@pytest.mark.parametrize("integrator", ["rk4", "radau", "bdf"])
def test_dropped_box_settles_on_a_face_without_jitter_or_energy_gain(integrator):
    """After 1.5 s the box rests: speeds below 1e-4 m/s and 1e-3 rad/s, one body axis vertical within
    1e-4 rad, its centre at the half edge minus the static penetration of four corners
    (m g / (4 K))^(2/3); the mechanical energy (kinetic + potential, the contact springs' included)
    never grows by more than 1e-4 of the drop's energy between samples. bdf: its Newton iteration's
    round-off at rest once halved its step to 1e-15 s (integrators/scipy_ivp.QuietBDF)."""
    res = simulate(box_model(integrator))
    assert res.status == "completed", res.warnings
    energy = res.energy()
    total = energy["kinetic"] + energy["potential"]
    drop = MASS * G * 0.05
    assert np.diff(total).max() <= 1e-4 * drop
    rest = res.t >= 1.5
    assert np.abs(res.velocity("box")[rest]).max() < 1e-4
    assert np.abs(res.angular_velocity("box")[rest]).max() < 1e-3
    A = quaternion.matrix(res.orientation("box")[-1])
    k = int(np.argmax(np.abs(A[2])))  # the body axis along the global z
    assert math.acos(min(1.0, abs(A[2, k]))) < 1e-4
    static = (MASS * G / (4 * K_CORNER)) ** (2 / 3)
    assert res.position("box")[-1, 2] == pytest.approx(0.5 * SIZE[k] - static, abs=1e-3 * static)


@pytest.mark.parametrize("integrator", ["rk4", "radau"])
def test_contact_onset_is_located_at_the_free_fall_time(integrator):
    """A ball dropped 0.2 m (rk4: exact for a free fall): its located touch at sqrt(2 h / g) within
    1e-8 relative (measured 2.3e-10 for rk4, 4e-14 for radau), at the approach speed sqrt(2 g h)."""
    h, radius = 0.2, 0.05
    ball = {"name": "ball", "mass": 1.0, "inertia": [1e-3, 1e-3, 1e-3], "position": [0, 0, radius + h]}
    pair = {
        "name": "floor",
        "body_a": "ball",
        "body_b": "ground",
        "shape_a": {"type": "sphere", "center": [0, 0, 0], "radius": radius},
        "shape_b": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
    }
    settings = {"t_end": 0.21, "step": 1e-5, "output_step": 1e-3, "integrator": integrator, "accuracy": False}
    if integrator != "rk4":
        settings.update(rtol=1e-9, atol=1e-12)
    res = simulate(from_dict({"name": "drop", "bodies": [ball], "contacts": [pair], "settings": settings}))
    onset = res.stops.contacts.events[0]
    assert onset.contact == "floor"
    assert onset.t == pytest.approx(math.sqrt(2 * h / G), rel=1e-8)
    assert onset.speed == pytest.approx(math.sqrt(2 * G * h), rel=1e-6)


def test_crossed_cylinders_are_the_mesh_pair_of_their_tessellations():
    """Cylinder-cylinder is exact for parallel axes: crossed ones are tessellated (not a line contact;
    tests/test_contact_tessellated.py)."""
    model = box_model("rk4").to_dict()
    model["contacts"][0]["shape_a"] = {
        "type": "cylinder",
        "center": [0, 0, 0],
        "axis": [1, 0, 0],
        "radius": 0.02,
        "length": 0.1,
    }
    model["contacts"][0]["shape_b"] = {
        "type": "cylinder",
        "center": [0, 0, 0],
        "axis": [0, 1, 0],
        "radius": 0.02,
        "length": 0.2,
    }
    model["bodies"].append({"name": "bar", "mass": 1.0, "inertia": [1e-3, 1e-3, 1e-3], "position": [0, 0, -0.5]})
    model["contacts"][0]["body_b"] = "bar"
    c = from_dict(model).contacts[0]
    assert tessellated(c) and not is_line(c)
