"""Bounded plane faces as contact shapes (docs/contact.md, "Bounded faces"): a sphere or a
cylinder against a rectangle of a plane counts only over the rectangle and down to its depth
limit; a Geneva drive (pin in slots) against its closed form (tests/oracles/geneva.py)."""

import math

import numpy as np
import pytest
from oracles import geneva
from oracles.force_jacobians import jacobians_match_central_differences
from oracles.geneva import HALF_INDEX, crank, driver_phase, pin_distance, slot_angle, wheel_rotation

from MBDWorkbench.solver import from_dict, simulate
from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.solver.model.contacts import approximated, tessellated
from MBDWorkbench.solver.system.system import System

G = 9.81
K_BALL = 1e7  # [N/m^1.5]


def face(center, normal, axis, length, width, depth):
    return {"type": "face", "center": center, "normal": normal, "axis": axis, "length": length, "width": width,
            "depth": depth}  # fmt: skip


def ball_model(position, velocity, shape_b, t_end=0.3, step=2e-5, **law):
    """A steel-sized ball (radius 0.01 m, 0.1 kg) over a grounded face, gravity -z."""
    contact = {"name": "c", "body_a": "ball", "body_b": "ground", "stiffness": K_BALL, "restitution": 1.0, **law}
    contact["shape_a"] = {"type": "sphere", "center": [0, 0, 0], "radius": 0.01}
    contact["shape_b"] = shape_b
    return from_dict(
        {
            "name": "ball_on_face",
            "gravity": [0, 0, -G],
            "bodies": [
                {"name": "ball", "mass": 0.1, "inertia": [4e-6] * 3, "position": position, "velocity": velocity}
            ],
            "contacts": [contact],
            "settings": {"t_end": t_end, "step": step, "output_step": 1e-3, "integrator": "rk4"},
        }
    )


TABLE = face([0, 0, 0], [0, 0, 1], [1, 0, 0], 0.2, 0.1, 0.005)  # 0.2 x 0.1 m, x from -0.1 to 0.1


def test_a_ball_rolling_off_a_bounded_face_falls_from_its_edge():
    """A frictionless ball resting on a face (sunk by (m g / K)^(2/3)) slides at 1 m/s towards the
    edge x = 0.1 m: it rests on the face while its lowest point is over the rectangle, then falls
    freely: z = z0 - g (t - t_edge)^2 / 2, t_edge = (0.1 - x0) / v, within one step's time (the
    edge is no event: the face's force ends within the step that crosses it, measured 3.3e-6 s,
    rk4's last stage: h / 6)."""
    sink = (0.1 * G / K_BALL) ** (2 / 3)
    x0, v, z0 = 0.0, 1.0, 0.01 - sink
    res = simulate(ball_model([x0, 0, z0], [v, 0, 0], TABLE, t_end=0.2, penetration_tol=1e-4))
    assert res.status == "completed", res.warnings
    x, z, t = res.position("ball")[:, 0], res.position("ball")[:, 2], res.t
    t_edge = (0.1 - x0) / v
    np.testing.assert_allclose(x, x0 + v * t, atol=1e-9)
    on = t < t_edge - 1e-3
    assert np.abs(z[on] - z0).max() < 0.02 * sink  # resting on the face (the start is its equilibrium)
    off = t > t_edge + 1e-3
    late = z0 - 0.5 * G * (t[off] - t_edge) ** 2  # the fall from the edge
    early = z0 - 0.5 * G * (t[off] - t_edge + 2e-5) ** 2  # from one step before it
    assert np.all((z[off] <= late + 1e-12) & (z[off] >= early))


def test_a_plane_holds_the_ball_where_a_face_lets_it_fall():
    """The same slide on the unbounded plane of the face: the ball stays at z0 past x = 0.1 m."""
    sink = (0.1 * G / K_BALL) ** (2 / 3)
    plane = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}
    res = simulate(ball_model([0.0, 0, 0.01 - sink], [1.0, 0, 0], plane, t_end=0.2, penetration_tol=1e-4))
    assert np.abs(res.position("ball")[:, 2] - (0.01 - sink)).max() < 0.02 * sink


def test_the_far_side_of_a_thin_wall_does_not_push():
    """A ball under a face of depth limit 5 mm (its lowest point 28 mm below the face, its top 8 mm)
    falls freely; the same ball with a 30 mm depth limit is pushed up through the face."""
    start = [0.0, 0.0, -0.018]
    res = simulate(ball_model(start, [0, 0, 0], TABLE, t_end=0.05))
    np.testing.assert_allclose(res.position("ball")[:, 2], -0.018 - 0.5 * G * res.t**2, atol=1e-12)
    deep = face([0, 0, 0], [0, 0, 1], [1, 0, 0], 0.2, 0.1, 0.03)
    res = simulate(ball_model(start, [0, 0, 0], deep, t_end=0.05, penetration_tol=0.1))
    assert res.position("ball")[-1, 2] > 0.0  # out of the face's solid on its top side


@pytest.mark.parametrize(
    "shape, field",
    [
        (face([0, 0, 0], [0, 0, 1], [1, 0, 0.01], 0.2, 0.1, 0.005), "axis"),
        (face([0, 0, 0], [0, 0, 1], [1, 0, 0], 0.2, 0.0, 0.005), "width"),
        (face([0, 0, 0], [0, 0, 1], [1, 0, 0], 0.2, 0.1, 0.0), "depth"),
    ],
)
def test_a_bad_face_is_refused_naming_the_field(shape, field):
    with pytest.raises(ModelError) as exc:
        ball_model([0, 0, 0.02], [0, 0, 0], shape)
    assert exc.value.path == f"contacts[0].shape_b.{field}" and "contact 'c'" in exc.value.message


def test_a_mesh_against_a_face_is_the_mesh_pair_of_their_tessellations():
    mesh = {"type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
            "triangles": [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]}  # fmt: skip
    d = ball_model([0, 0, 0.02], [0, 0, 0], TABLE).to_dict()
    d["contacts"][0]["shape_a"] = mesh
    d["contacts"][0]["shape_b"] = TABLE
    d["contacts"][0]["deflection"] = 1e-3
    c = from_dict(d).contacts[0]
    assert tessellated(c) and (approximated(c).shape_a.type, approximated(c).shape_b.type) == ("mesh", "mesh")


# ----------------------------------------------------------------------------- Geneva drive
A_CENTRES = 0.1  # centre distance [m]
R_PIN, PIN_LENGTH = 0.005, 0.01  # the pin [m]
CLEARANCE = 5e-5  # [m] between the pin and each wall of a slot
SLOT_IN, THICKNESS = 0.02, 0.012  # the slots' bottom, the wheel's thickness [m]
WHEEL_OUT = math.sqrt(A_CENTRES**2 - crank(A_CENTRES) ** 2)  # the walls end where the pin enters and leaves [m]
OMEGA = 2 * math.pi  # the driver's speed [rad/s]: one turn per second
K_LINE, STEP = 1e8, 2e-5  # the pin's line stiffness [N/m] (n = 1); [s]: 60 steps per period on it
J_WHEEL, C_WHEEL = 3.5e-3, 0.02  # wheel inertia [kg m^2], bearing damping [N m s/rad]


def slot_walls(k: int) -> list[dict]:
    """The two walls of slot k of the wheel (its centre line at 45 + 90 k deg), in the wheel's frame."""
    psi = math.pi / 4 + k * math.pi / 2
    s, p = np.array([math.cos(psi), math.sin(psi), 0.0]), np.array([-math.sin(psi), math.cos(psi), 0.0])
    middle, half = 0.5 * (SLOT_IN + WHEEL_OUT) * s, R_PIN + CLEARANCE
    return [
        face(
            (middle + side * half * p).tolist(), (-side * p).tolist(), s.tolist(), WHEEL_OUT - SLOT_IN, THICKNESS, R_PIN
        )
        for side in (1, -1)
    ]


def geneva_model(turns: float = 3.0, integrator: str = "rk4", step: float = STEP) -> object:
    """The driver (pin at angle -90 deg from the line O -> W: a dwell) turning at OMEGA, the wheel
    at rest with its slots at 45 + 90 k deg; a contact pair per slot wall."""
    r = crank(A_CENTRES)
    axle = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
    hub = {"origin": [A_CENTRES, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
    pin = {"type": "cylinder", "center": [0, -r, 0], "axis": [0, 0, 1], "radius": R_PIN, "length": PIN_LENGTH}
    contacts = [
        {"name": f"slot{k}_{w}", "body_a": "driver", "body_b": "wheel", "shape_a": pin, "shape_b": wall,
         "stiffness": K_LINE, "restitution": 0.5}
        for k in range(4) for w, wall in enumerate(slot_walls(k))
    ]  # fmt: skip
    return from_dict(
        {
            "name": "geneva",
            "gravity": [0, 0, 0],
            "bodies": [
                {"name": "driver", "mass": 0.5, "inertia": [2e-4, 2e-4, 4e-4]},
                {"name": "wheel", "mass": 1.5, "inertia": [2e-3, 2e-3, J_WHEEL], "position": [A_CENTRES, 0, 0]},
            ],
            "joints": [
                {"name": "crank", "type": "revolute", "body_i": "ground", "body_j": "driver", "frame": axle},
                {"name": "hub", "type": "revolute", "body_i": "ground", "body_j": "wheel", "frame": hub},
            ],
            "drivers": [{"name": "motor", "type": "rotational", "joint": "crank", "profile": f"{OMEGA!r}*t"}],
            "forces": [{"name": "bearing", "type": "rotational_spring_damper", "joint": "hub", "damping": C_WHEEL}],
            "contacts": contacts,
            "settings": {"t_end": turns * 2 * math.pi / OMEGA, "step": step, "output_step": 2e-3,
                         "integrator": integrator, "accuracy": False},
        }
    )  # fmt: skip


def wheel_angle(res) -> np.ndarray:
    """The wheel's rotation [rad] about +z from its start (unwrapped)."""
    q = res.orientation("wheel")
    return np.unwrap(2 * np.arctan2(q[:, 3], q[:, 0]))


def index_tolerance(phi) -> np.ndarray:
    """The oracle's bound [rad] on the wheel's distance from the rigid closed form (play and compression)."""
    r = crank(A_CENTRES)
    return geneva.index_tolerance(phi, A_CENTRES, r, CLEARANCE, K_LINE, J_WHEEL, C_WHEEL, OMEGA)


def test_geneva_wheel_indexes_a_quarter_turn_per_driver_turn_along_the_closed_form():
    """Three driver turns: the wheel follows beta(phi) while the pin is in a slot, within the
    play and the contact's compression over rho (index_tolerance: 0.04-0.11 deg; measured up to
    95 % of it, just after the pin goes over to the other wall), and is still (within the play
    at the exit, CLEARANCE / r = 0.04 deg) while the pin is out; it ends 270 deg round. The
    pin's normal force is the closed-form torque on the wheel over rho."""
    res = simulate(geneva_model())
    assert res.status == "completed", res.warnings
    r, theta = crank(A_CENTRES), -math.pi / 2 + OMEGA * res.t
    beta = wheel_angle(res)
    expected = wheel_rotation(theta, A_CENTRES, r)
    phi = driver_phase(theta)
    error = np.abs(beta - expected)
    assert np.all(error <= index_tolerance(phi))
    dwell = np.abs(phi) > HALF_INDEX + 0.05
    assert error[dwell].max() <= CLEARANCE / r
    np.testing.assert_allclose(beta[-1], -3 * math.pi / 2, atol=CLEARANCE / r)
    # contacts.csv: the pin's normal force on the walls drives the wheel, F rho = |J beta'' + c beta'|
    # (closed form), within 1 % (measured 0.1-0.4 %) away from the impacts at the pin's entry and
    # where it goes over to the other wall (phi -45 to -30 and 2 to 17 deg)
    force = sum(res.contact(f"slot{k}_{w}")[:, 3] for k in range(4) for w in range(2))
    steady = ((phi > math.radians(-30)) & (phi < math.radians(-5))) | (
        (phi > math.radians(17)) & (phi < math.radians(42))
    )
    h, p = 1e-4, phi[steady]
    ahead, here, behind = (slot_angle(p + dp, A_CENTRES, r) for dp in (h, 0.0, -h))
    rate = (ahead - behind) / (2 * h) * OMEGA
    accel = (ahead - 2 * here + behind) / h**2 * OMEGA**2
    drive = np.abs(J_WHEEL * accel + C_WHEEL * rate) / pin_distance(p, A_CENTRES, r)
    np.testing.assert_allclose(force[steady], drive, rtol=0.01)


@pytest.mark.parametrize("first", ["sphere", "cylinder"])
def test_face_contact_jacobians_of_the_implicit_integrators_match_central_differences(first):
    """A sphere or a tilted pin pressed 0.1 mm into a face of another moving body, both sliding and
    spinning, with damping and friction: the complex-step Jacobians of the generalized force
    (positions and velocities, integrators/jacobians.py) against central differences of the kernels."""
    shape = {"type": "sphere", "center": [0, 0, 0], "radius": 0.01}
    if first == "cylinder":
        shape = {"type": "cylinder", "center": [0, 0, 0], "axis": [1, 0.2, 0.01], "radius": 0.01, "length": 0.03}
    block = face([0.01, 0, -0.02], [0, 0, 1], [1, 1, 0], 0.1, 0.08, 0.005)
    d = {
        "name": "pressed",
        "gravity": [0, 0, -G],
        "bodies": [
            {"name": "pin", "mass": 0.2, "inertia": [1e-5, 2e-5, 3e-5], "position": [0, 0, 0.0099],
             "velocity": [0.3, -0.1, -0.05], "angular_velocity": [1.0, 2.0, -3.0]},
            {"name": "block", "mass": 1.0, "inertia": [1e-3, 2e-3, 3e-3], "position": [0, 0, 0.02],
             "velocity": [-0.1, 0.2, 0.01], "angular_velocity": [0.5, -0.2, 0.4]},
        ],
        "contacts": [{"name": "c", "body_a": "pin", "body_b": "block", "shape_a": shape, "shape_b": block,
                      "stiffness": 1e7, "exponent": 1.5, "restitution": 0.7, "mu_s": 0.4, "mu_k": 0.3,
                      "slip_speed": 0.05, "penetration_tol": 1e-3}],
    }  # fmt: skip
    jacobians_match_central_differences(System(from_dict(d)))
