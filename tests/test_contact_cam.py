"""A cam and follower through contact pairs (docs/contact.md) against closed forms: an eccentric
circular cam (radius R, eccentricity E) turned at constant speed w by a driver, a follower on a
vertical prismatic joint pressed down by a preloaded spring (preload P, stiffness k), zero gravity.

The cam's centre is at (E cos wt, E sin wt) (the run starts at the quarter turn where the follower's
acceleration is zero: a consistent start). A flat follower's face rides on the cam's top,
y = R + E sin wt (lift E (1 + sin wt) above its lowest); a roller (radius r) rides at
y = E sin wt + sqrt((R + r)^2 - E^2 cos^2 wt). The contact force is F = P + k lift + m y'' (the
follower's equation), so the follower leaves the cam where that turns negative: for the flat
follower first at the top, m E w^2 > P + 2 k E (the preload plus the spring at the highest lift).
"""

import math

import numpy as np
import pytest

from MBDWorkbench.solver import from_dict, simulate

R, E, R_ROLLER = 0.04, 0.01, 0.01  # cam radius, eccentricity, roller radius [m]
MASS, K_SPRING, PRELOAD = 0.5, 2000.0, 20.0  # follower [kg], spring [N/m], preload [N]
K_LINE = 1e8  # the line contact's stiffness [N/m] (n = 1)
STEP = 1.5e-5  # [s]: 30 steps per period of the follower on the contact stiffness
Y_TOP = 0.2  # the spring's fixed end [m]


def flat_lift_speed():
    """w [rad/s] where a flat follower first leaves: m E w^2 = P + 2 k E."""
    return math.sqrt((PRELOAD + 2 * K_SPRING * E) / (MASS * E))


def roller_path(theta):
    """The roller centre's height [m] and its first and second derivatives in the cam angle."""
    c, s = np.cos(theta), np.sin(theta)
    root = np.sqrt((R + R_ROLLER) ** 2 - (E * c) ** 2)
    y = E * s + root
    dy = E * c + E * E * c * s / root
    d2y = -E * s + E * E * (c * c - s * s) / root - (E * E * c * s) ** 2 / root**3
    return y, dy, d2y


def roller_lift_speed():
    """w [rad/s] where a roller follower first leaves: the least w with m w^2 y''(th) + P + k lift(th) = 0
    over the turn (y'' < 0 where the cam pulls away), from the closed-form path on a fine grid."""
    theta = np.linspace(0.0, 2 * np.pi, 200001)
    y, _, d2y = roller_path(theta)
    lift = y - y.min()
    pulling = d2y < 0
    return float(np.sqrt(np.min((PRELOAD + K_SPRING * lift[pulling]) / (-MASS * d2y[pulling]))))


def cam_model(w, follower="flat", turns=0.75, output_step=1e-3, integrator="rk4"):
    """The cam turning at w [rad/s] from the quarter turn (cam centre at (E, 0)), the follower in
    equilibrium on it with its velocity on the cam's profile."""
    if follower == "flat":
        y0, v0, a0 = R, E * w, 0.0  # the face's height, its rate E w cos(0) and acceleration
        shape = {"type": "plane", "point": [0, 0, 0], "normal": [0, -1, 0]}  # the face at the body's origin
    else:
        y_r, dy, d2y = roller_path(0.0)
        y0, v0, a0 = float(y_r), float(dy) * w, float(d2y) * w * w
        shape = {"type": "cylinder", "center": [0, 0, 0], "axis": [0, 0, 1], "radius": R_ROLLER, "length": 0.01}
    spring0 = PRELOAD + K_SPRING * (y0 - (R - E if follower == "flat" else roller_path(np.pi * 1.5)[0]))
    force0 = spring0 + MASS * a0
    cos0 = 1.0 if follower == "flat" else math.sqrt(1.0 - (E / (R + R_ROLLER)) ** 2)  # the normal's tilt
    y0 -= force0 / (K_LINE * cos0**2)  # the equilibrium penetration
    axle = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
    slide = {"origin": [0, y0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]}
    spring_length = Y_TOP - y0
    return from_dict(
        {
            "name": "cam",
            "gravity": [0, 0, 0],
            "bodies": [
                {"name": "cam", "mass": 2.0, "inertia": [1e-3, 1e-3, 2e-3], "angular_velocity": [0, 0, w]},
                {
                    "name": "follower",
                    "mass": MASS,
                    "inertia": [1e-4, 1e-4, 1e-4],
                    "position": [0, y0, 0],
                    "velocity": [0, v0, 0],
                },
            ],
            "joints": [
                {"name": "axle", "type": "revolute", "body_i": "ground", "body_j": "cam", "frame": axle},
                {"name": "slide", "type": "prismatic", "body_i": "ground", "body_j": "follower", "frame": slide},
            ],
            "drivers": [{"name": "motor", "type": "rotational", "joint": "axle", "profile": f"{w!r}*t"}],
            "forces": [
                {
                    "name": "spring",
                    "type": "spring_damper",
                    "body_i": "ground",
                    "body_j": "follower",
                    "point_i": [0, Y_TOP, 0],
                    "point_j": [0, y0, 0],
                    "stiffness": K_SPRING,
                    "damping": 0.0,
                    "free_length": spring_length + spring0 / K_SPRING,
                }
            ],
            "contacts": [
                {
                    "name": "cam_follower",
                    "body_a": "cam",
                    "body_b": "follower",
                    "shape_a": {
                        "type": "cylinder",
                        "center": [E, 0, 0],
                        "axis": [0, 0, 1],
                        "radius": R,
                        "length": 2e-2,
                    },
                    "shape_b": shape,
                    "stiffness": K_LINE,
                    "restitution": 0.5,
                    "penetration_tol": 1e-5,
                }
            ],
            "settings": {
                "t_end": turns * 2 * math.pi / w,
                "step": STEP,
                "output_step": output_step,
                "integrator": integrator,
                "accuracy": False,
            },
        }
    )


def follower_height(res, w, follower):
    """(the follower's height [m], its rigid closed form, the follower's load F [N] along its slide,
    cos of the contact normal's angle to the slide: the normal force is F / cos, the height lower
    by the penetration F / (K_LINE cos^2))."""
    y = res.position("follower")[:, 1]
    theta = w * res.t
    if follower == "flat":
        rigid, accel = R + E * np.sin(theta), -E * np.sin(theta) * w * w
        lift, cos = E * (1 + np.sin(theta)), np.ones_like(theta)
    else:
        rigid, _, d2y = roller_path(theta)
        accel, lift = d2y * w * w, rigid - roller_path(np.pi * 1.5)[0]
        cos = np.sqrt(1.0 - (E * np.cos(theta) / (R + R_ROLLER)) ** 2)
    force = PRELOAD + K_SPRING * lift + MASS * accel
    return y, rigid, force, cos


@pytest.mark.parametrize("follower", ["flat", "roller"])
def test_follower_lift_follows_the_cam_profile_at_low_speed(follower):
    """At w = 10 rad/s (m E w^2 is 1 % of the lift-off speed's): the follower's height
    is the rigid cam profile within the largest compliance F / (K_LINE cos^2) (6e-7 m against a
    lift of 0.02 m), and the profile minus the penetration within 0.1 % of that compliance
    (measured 2.5e-4); the normal force in contacts.csv is F / cos within 1e-4 (measured 2e-5)."""
    w = 10.0
    res = simulate(cam_model(w, follower, turns=1.0))
    assert res.status == "completed", res.warnings
    y, rigid, force, cos = follower_height(res, w, follower)
    sink = force / (K_LINE * cos**2)
    compliance = sink.max()
    assert compliance < 1e-6
    assert np.abs(y - rigid).max() <= compliance
    assert np.abs(y - (rigid - sink)).max() <= 1e-3 * compliance
    c = res.contact("cam_follower")
    np.testing.assert_allclose(c[:, 3], force / cos, rtol=1e-4)  # contacts.csv's normal force


def separates(w, follower):
    """Whether the follower leaves the cam within a turn and a half at w [rad/s] (its contact
    force, sampled at every step, reaches 0)."""
    res = simulate(cam_model(w, follower, turns=1.5, output_step=STEP))
    assert res.status == "completed", res.warnings
    return bool(res.contact("cam_follower")[:, 3].min() <= 0.0)


@pytest.mark.parametrize("follower", ["flat", "roller"])
def test_follower_first_leaves_the_cam_at_the_closed_form_speed(follower):
    """The speed of first separation, bracketed by runs, within 1 % of the closed form (flat:
    sqrt((P + 2 k E) / (m E)); roller: from its path's y'')."""
    w_lift = flat_lift_speed() if follower == "flat" else roller_lift_speed()
    assert not separates(0.99 * w_lift, follower)
    assert separates(1.01 * w_lift, follower)
