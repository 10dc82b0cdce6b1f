"""Generate the shipped JSON example models (SI units) from their defining parameters.

Run: /usr/bin/python3 examples/make_examples.py  (rewrites examples/*.json)
"""

import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from MBDWorkbench.solver.model.builders import revolute_z, rod  # noqa: E402


def pendulum():
    """Simple pendulum: a 1 kg bob (small sphere) on a 1 m massless arm, released horizontal."""
    r = 0.01
    J = 0.4 * 1.0 * r * r
    return {
        "name": "pendulum",
        "description": "Simple pendulum released from the horizontal (L = 1 m, m = 1 kg).",
        "gravity": [0, 0, -9.81],
        "bodies": [{"name": "bob", "mass": 1.0, "inertia": [J, J, J], "position": [1.0, 0, 0]}],
        "joints": [
            {
                "name": "pivot",
                "type": "revolute",
                "body_i": "ground",
                "body_j": "bob",
                "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]},
            }
        ],
        "settings": {"t_end": 4.0, "step": 1e-3, "output_step": 0.01, "integrator": "rk4"},
    }


def two_link():
    """The two-link chain of [R3] sections 4-5: two uniform links m = 1 kg, L = 1 m, J = m L^2/12, hinged to the
    fixed base and to each other, released at rest from absolute angles 0.3 and -1.0 rad
    (measured from the horizontal x axis), gravity along -y."""
    q1, q2, L = 0.3, -1.0, 1.0
    p1 = (L * math.cos(q1), L * math.sin(q1))
    return {
        "name": "two_link",
        "description": __doc_two_link,
        "gravity": [0, -9.81, 0],
        "bodies": [rod("link1", 1.0, L, (0, 0), q1), rod("link2", 1.0, L, p1, q2)],
        "joints": [
            revolute_z("base", "ground", "link1", (0, 0, 0)),
            revolute_z("elbow", "link1", "link2", (p1[0], p1[1], 0)),
        ],
        "settings": {"t_end": 10.0, "step": 1e-3, "output_step": 0.01, "integrator": "rk4"},
    }


__doc_two_link = (
    "Two-link chain of [R3] sections 4-5: links m = 1 kg, L = 1 m, J = mL^2/12, "
    "released from 0.3 and -1.0 rad (absolute, from the x axis), gravity -y."
)


def slider_crank():
    """Crank r = 0.5 m, rod l = 1.5 m, slider on the x axis; the crank is driven at
    theta = pi t; a spring k = 20 N/m along the guide pulls the slider towards x = 1.5 m.
    The crank pin is spherical and the rod-slider pin universal (rod axis z, slider axis
    -y), so the spatial model has no redundant constraints: 5 + 3 + 4 + 5 + 1 = 18."""
    r, l = 0.5, 1.5
    xs = r + l
    return {
        "name": "slider_crank",
        "description": "Slider-crank driven at theta = pi t with a 20 N/m spring along the guide.",
        "gravity": [0, -9.81, 0],
        "bodies": [
            rod("crank", 1.0, r, (0, 0), 0.0),
            rod("rod", 1.0, l, (r, 0), 0.0),
            {"name": "slider", "mass": 1.0, "inertia": [0.01, 0.01, 0.01], "position": [xs, 0, 0]},
        ],
        "joints": [
            revolute_z("crank_pivot", "ground", "crank", (0, 0, 0)),
            {
                "name": "crank_pin",
                "type": "spherical",
                "body_i": "crank",
                "body_j": "rod",
                "frame": {"origin": [r, 0, 0]},
            },
            {
                "name": "rod_pin",
                "type": "universal",
                "body_i": "rod",
                "body_j": "slider",
                "frame": {"origin": [xs, 0, 0], "z_axis": [1, 0, 0], "x_axis": [0, 0, 1]},
            },
            {
                "name": "guide",
                "type": "prismatic",
                "body_i": "ground",
                "body_j": "slider",
                "frame": {"origin": [xs, 0, 0], "z_axis": [1, 0, 0], "x_axis": [0, 1, 0]},
            },
        ],
        "forces": [
            {
                "name": "spring",
                "type": "spring_damper",
                "body_i": "ground",
                "point_i": [0, 0, 0],
                "body_j": "slider",
                "point_j": [xs, 0, 0],
                "stiffness": 20.0,
                "damping": 0.0,
                "free_length": 1.5,
            }
        ],
        "drivers": [
            {
                "name": "motor",
                "type": "rotational",
                "joint": "crank_pivot",
                "profile": {"type": "constant_speed", "speed": math.pi},
            }
        ],
        "settings": {"t_end": 2.0, "step": 1e-3, "output_step": 0.01, "integrator": "rk4"},
    }


def four_bar_spatial():
    """A four-bar with four revolutes with parallel axes (Grubler: -2, true mobility 1):
    ground d = 1.0 m, crank a = 0.3 m at 60 deg, coupler b = 1.0 m, rocker c = 0.8 m,
    the crank given an initial spin of 2 rad/s; redundant constraints."""
    d, a, b, c, th2 = 1.0, 0.3, 1.0, 0.8, math.radians(60)
    A = (a * math.cos(th2), a * math.sin(th2))
    # B lies at distance b from A and c from (d, 0): circle intersection, upper branch
    dx, dy = d - A[0], -A[1]
    dist = math.hypot(dx, dy)
    along = (b * b - c * c + dist * dist) / (2 * dist)
    h = math.sqrt(b * b - along * along)
    ux, uy = dx / dist, dy / dist
    B = (A[0] + along * ux - h * uy, A[1] + along * uy + h * ux)
    th3 = math.atan2(B[1] - A[1], B[0] - A[0])
    th4 = math.atan2(B[1], B[0] - d)
    crank = rod("crank", 0.5, a, (0, 0), th2)
    crank["angular_velocity"] = [0, 0, 2.0]
    crank["velocity"] = [-2.0 * crank["position"][1], 2.0 * crank["position"][0], 0.0]
    return {
        "name": "four_bar_spatial",
        "description": four_bar_spatial.__doc__.strip(),
        "gravity": [0, -9.81, 0],
        "bodies": [crank, rod("coupler", 1.0, b, A, th3), rod("rocker", 0.8, c, (d, 0), th4)],
        "joints": [
            revolute_z("crank_pivot", "ground", "crank", (0, 0, 0)),
            revolute_z("crank_coupler", "crank", "coupler", (A[0], A[1], 0)),
            revolute_z("coupler_rocker", "coupler", "rocker", (B[0], B[1], 0)),
            revolute_z("rocker_pivot", "ground", "rocker", (d, 0, 0)),
        ],
        "settings": {"t_end": 3.0, "step": 1e-3, "output_step": 0.01, "integrator": "rk4"},
    }


def spinning_top():
    """A symmetric top (cone-like: m = 0.5 kg, CoG 0.05 m above the tip, axial 2.5e-4,
    transverse 1.0e-3 kg m^2) on a spherical joint at its tip, tilted 0.3 rad from the
    vertical and spinning at 150 rad/s about its own axis: it precesses."""
    m, l, tilt, spin = 0.5, 0.05, 0.3, 150.0
    axis = [math.sin(tilt), 0.0, math.cos(tilt)]
    q = [math.cos(tilt / 2), 0.0, math.sin(tilt / 2), 0.0]
    return {
        "name": "spinning_top",
        "description": spinning_top.__doc__.strip(),
        "gravity": [0, 0, -9.81],
        "bodies": [
            {
                "name": "top",
                "mass": m,
                "inertia": [1.0e-3, 1.0e-3, 2.5e-4],
                "position": [l * axis[0], 0.0, l * axis[2]],
                "orientation": q,
                "angular_velocity": [spin * axis[0], 0.0, spin * axis[2]],
            }
        ],
        "joints": [
            {"name": "tip", "type": "spherical", "body_i": "ground", "body_j": "top", "frame": {"origin": [0, 0, 0]}}
        ],
        "settings": {"t_end": 2.0, "step": 2e-4, "output_step": 0.005, "integrator": "rk4"},
    }


def drop_test():
    """A steel ball (radius 20 mm) and an aluminium block (40 mm cube) dropped from 0.1 m onto a
    steel floor (contact pairs, docs/contact.md): the ball rebounds at e = 0.7 (Hertz stiffness from
    the materials); the block lands tilted, on an edge then a face, and slides to rest under friction."""
    r, a = 0.02, 0.04
    m_ball, m_block = 7850 * 4 / 3 * math.pi * r**3, 2700 * a**3
    floor = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}
    tilt = 0.2
    return {
        "name": "drop_test",
        "description": drop_test.__doc__.strip(),
        "gravity": [0, 0, -9.81],
        "bodies": [
            {
                "name": "ball",
                "mass": m_ball,
                "inertia": [0.4 * m_ball * r * r] * 3,
                "position": [0.0, 0.0, r + 0.1],
                "velocity": [0.2, 0.0, 0.0],
            },
            {
                "name": "block",
                "mass": m_block,
                "inertia": [m_block * a * a / 6] * 3,
                "position": [0.1, 0.0, a + 0.1],
                "orientation": [math.cos(tilt / 2), math.sin(tilt / 2), 0.0, 0.0],
                "velocity": [0.3, 0.0, 0.0],
            },
        ],
        "contacts": [
            {
                "name": "ball_floor",
                "body_a": "ball",
                "body_b": "ground",
                "shape_a": {"type": "sphere", "center": [0, 0, 0], "radius": r},
                "shape_b": floor,
                "restitution": 0.7,
                "law": "restitution",
                "mu_s": 0.3,
            },
            {
                "name": "block_floor",
                "body_a": "block",
                "body_b": "ground",
                "shape_a": {"type": "box", "center": [0, 0, 0], "size": [a, a, a]},
                "shape_b": floor,
                "stiffness": 1e8,
                "restitution": 0.3,
                "mu_s": 0.4,
                "mu_k": 0.3,
                "material_a": "aluminium",
            },
        ],
        "settings": {"t_end": 1.0, "step": 5e-6, "output_step": 0.002, "integrator": "rk4"},
    }


EXAMPLES = {
    "pendulum": pendulum,
    "two_link": two_link,
    "slider_crank": slider_crank,
    "four_bar_spatial": four_bar_spatial,
    "spinning_top": spinning_top,
    "drop_test": drop_test,
}


def write_examples(examples: dict) -> None:
    """Write examples/<name>.json of each {name: function returning the model dict}."""
    for name, make in examples.items():
        path = os.path.join(HERE, name + ".json")
        with open(path, "w") as f:
            json.dump(make(), f, indent=2)
            f.write("\n")
        print("wrote", path)


def main():
    write_examples(EXAMPLES)


if __name__ == "__main__":
    main()
