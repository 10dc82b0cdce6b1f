"""True stiction (friction_law 'stiction') on more pairs than against a plane's fixed frame
(docs/contact.md, "True stiction"): a tessellated box on an incline (mesh-plane), a ball resting in
a V of two balls and rolling off a ball (sphere-sphere), a ball rolling down two round rails
(sphere-cylinder), against closed forms; a pair that stays regularised is refused naming it.

An incline is a level floor under gravity tilted by theta: g = (g sin theta, 0, -g cos theta)."""

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from MBDWorkbench.solver import from_dict, simulate
from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.solver.model.mesh_shapes import box_mesh

G = 9.81
A_BOX, M_BOX, K_BOX = 0.1, 1.0, 1e6  # edge [m], mass [kg], stiffness of the mesh pair [N/m^1.5]
R_BALL, M_BALL, K_BALL = 0.02, 0.25, 1e8  # the moving ball: radius [m], mass [kg]; K [N/m^1.5]
J_BALL = 0.4 * M_BALL * R_BALL**2


def gravity(theta: float) -> list:
    return [G * math.sin(theta), 0.0, -G * math.cos(theta)]


def settings(t_end: float, step: float = 1e-3, output: float = 0.01) -> dict:
    return {"t_end": t_end, "step": step, "output_step": output, "integrator": "rk4", "accuracy": False}


def ball(position, mass=M_BALL, J=J_BALL, velocity=(0.0, 0.0, 0.0)) -> dict:
    return {"name": "ball", "mass": mass, "inertia": np.diag([J] * 3).tolist(), "position": list(position),
            "velocity": list(velocity)}  # fmt: skip


def law(friction_law="stiction", mu_s=0.5, mu_k=0.4, K=K_BALL) -> dict:
    return {"stiffness": K, "restitution": 0.5, "mu_s": mu_s, "mu_k": mu_k, "friction_law": friction_law,
            "penetration_tol": 1e-3}  # fmt: skip


def sphere(radius: float, center=(0.0, 0.0, 0.0)) -> dict:
    return {"type": "sphere", "center": list(center), "radius": radius}


def travel(res, body: str, t0: float) -> float:
    """The largest distance [m] of the body's centre from its place at t0 [s], over t >= t0."""
    x = res.position(body)[res.t >= t0 - 1e-9]
    return float(np.linalg.norm(x - x[0], axis=1).max())


# ----------------------------------------------------------------------------- mesh-plane
def mesh_box_model(theta: float, mu_s=0.5, mu_k=0.4, t_end=1.0, friction_law="stiction"):
    """A 0.1 m cube given as a mesh (8 vertices, 12 triangles) on the floor, pressed in to the
    depth that carries its weight: the mesh's points share the pair's law, K d_max^1.5 = m g cos."""
    d0 = (M_BOX * G * math.cos(theta) / K_BOX) ** (2 / 3)
    J = M_BOX * A_BOX**2 / 6
    cube = {"name": "block", "mass": M_BOX, "inertia": np.diag([J] * 3).tolist(), "position": [0, 0, A_BOX / 2 - d0]}
    contact = {"name": "floor", "body_a": "ground", "body_b": "block",
               "shape_a": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
               "shape_b": box_mesh([A_BOX] * 3), **law(friction_law, mu_s, mu_k, K_BOX)}  # fmt: skip
    return from_dict({"name": "mesh box", "gravity": gravity(theta), "bodies": [cube], "contacts": [contact],
                      "settings": settings(t_end)})  # fmt: skip


def test_tessellated_box_below_the_friction_angle_does_not_creep():
    """tan(20 deg) = 0.36 < mu_s = 0.5: no slip from the start, less than 1e-9 m from 1 s to 3 s."""
    theta = math.radians(20.0)
    res = simulate(mesh_box_model(theta, t_end=3.0))
    assert res.status == "completed"
    assert res.friction_events == []
    assert travel(res, "block", 1.0) < 1e-9


def test_tessellated_box_above_the_friction_angle_slides_at_g_sin_minus_mu_k_cos():
    """tan(30 deg) = 0.58 > mu_s = 0.5: it slides at a = g (sin t - mu_k cos t) within 1e-6."""
    theta, mu_k = math.radians(30.0), 0.4
    res = simulate(mesh_box_model(theta, mu_k=mu_k))
    assert res.status == "completed"
    t, v = res.t, res.velocity("block")[:, 0]
    i, j = np.searchsorted(t, [0.5, 1.0])
    assert (v[j] - v[i]) / (t[j] - t[i]) == pytest.approx(G * (math.sin(theta) - mu_k * math.cos(theta)), rel=1e-6)


# ----------------------------------------------------------------------------- sphere-sphere
def depth(load: float, K: float = K_BALL) -> float:
    """Penetration [m] carrying ``load`` [N] with K d^1.5."""
    return (load / K) ** (2 / 3)


def v_model(theta: float, friction_law="stiction", t_end=3.0):
    """The ball (R_BALL) resting on two grounded balls (radius 0.03 m) at x = -+0.025 m, the contact
    normals 30 deg from vertical, pressed in to carry its weight; gravity tilted by theta in the
    plane of the three centres."""
    R, a = 0.03, 0.025
    alpha = math.asin(a / (R + R_BALL))
    d0 = depth(M_BALL * G / (2 * math.cos(alpha)))
    height = math.sqrt((R + R_BALL - d0) ** 2 - a**2)
    contacts = [
        {"name": name, "body_a": "ground", "body_b": "ball", "shape_a": sphere(R, (x, 0.0, 0.0)),
         "shape_b": sphere(R_BALL), **law(friction_law)}
        for name, x in (("left", -a), ("right", a))
    ]  # fmt: skip
    return from_dict({"name": "V", "gravity": gravity(theta), "bodies": [ball((0.0, 0.0, height))],
                      "contacts": contacts, "settings": settings(t_end)})  # fmt: skip


def test_ball_in_a_v_of_two_balls_does_not_creep():
    """Gravity tilted 10 deg towards one ball. With both contacts stuck the ball can only roll about
    the line through its contact points (across the tilt), so it is held where it was pressed in:
    it moves less than 1e-9 m from 1 s to 3 s. With the regularised law it slips on to where the
    normal forces alone balance gravity (inside the normals' +-30 deg), 1.5 um away (measured),
    creeping on after 1 s (more than 0.1 um)."""
    theta = math.radians(10.0)
    res = simulate(v_model(theta))
    assert res.status == "completed"
    assert res.friction_events == []
    assert travel(res, "ball", 1.0) < 1e-9
    creeping = simulate(v_model(theta, "regularised"))
    assert travel(creeping, "ball", 1.0) > 1e-7


def rolling_off(phi0: float, L: float, lever: float, t: np.ndarray) -> np.ndarray:
    """The angle [rad] from the top of a ball rolling without slipping off a fixed ball, its centre
    at distance L [m], its contact point at ``lever`` [m] from its centre:
    L (1 + J / (m lever^2)) phi'' = g sin phi (rigid: L = R + r, lever = r)."""
    inertia = 1 + J_BALL / (M_BALL * lever**2)
    sol = solve_ivp(lambda _, y: [y[1], G * math.sin(y[0]) / (L * inertia)], (0, t[-1]), [phi0, 0.0],
                    t_eval=t, rtol=1e-12, atol=1e-14)  # fmt: skip
    return sol.y[0]


def test_ball_rolls_off_a_ball_without_slipping_until_mu_s_n_is_reached():
    """A ball set 0.1 rad off the top of a grounded ball (R 0.05 m) rolls off without slipping while
    the friction needed, F / N = 2 sin phi / (17 cos phi - 10 cos phi0) (rolling, energy), is below
    mu_s = 0.5: contacts.csv's slip speed below 1e-9 m/s (measured 5e-11) and its angle on the
    rolling closed form (lever and centre distance at the initial compression) within 1e-4 rad
    (measured 1.1e-5); then one 'slip' event, at the closed-form angle 0.7335 rad within 1e-3 rad
    (measured 2e-4, its angle read from the 1 ms samples), its load mu_s N."""
    R, phi0, mu_s = 0.05, 0.1, 0.5
    d0 = depth(M_BALL * G * math.cos(phi0))
    L = R + R_BALL - d0
    contact = {"name": "top", "body_a": "ground", "body_b": "ball", "shape_a": sphere(R), "shape_b": sphere(R_BALL),
               **law(mu_s=mu_s)}  # fmt: skip
    centre = (L * math.sin(phi0), 0.0, L * math.cos(phi0))
    model = from_dict({"name": "off the top", "gravity": [0, 0, -G], "bodies": [ball(centre)], "contacts": [contact],
                       "settings": settings(0.3, step=1e-4, output=1e-3)})  # fmt: skip
    res = simulate(model)
    assert res.status == "completed"
    (event,) = res.friction_events
    assert event["kind"] == "slip" and event["joint"] == "top"
    assert event["load"] == pytest.approx(mu_s * event["normal"], rel=1e-9)
    x = res.position("ball")
    phi = np.arctan2(x[:, 0], x[:, 2])
    breakaway = brentq(lambda p: 2 * math.sin(p) / (17 * math.cos(p) - 10 * math.cos(phi0)) - mu_s, 0.2, 0.8)
    assert np.interp(event["time"], res.t, phi) == pytest.approx(breakaway, abs=1e-3)
    rolled = res.t < event["time"]
    assert res.contact("top")[rolled, 9].max() < 1e-9
    closed = rolling_off(phi0, L, R_BALL - d0 / 2, res.t[rolled])
    assert np.abs(phi[rolled] - closed).max() < 1e-4


# ----------------------------------------------------------------------------- sphere-cylinder
def test_ball_rolls_down_two_round_rails_at_the_rolling_closed_form():
    """Two grounded rails (cylinders of radius 5 mm along x, 30 mm apart) tilted 20 deg along x: the
    ball rolls about the line through its two contact points, at h = (r - d/2) cos(alpha) below its
    centre (alpha the normals' angle from vertical): a = g sin t / (1 + J / (m h^2)) within 1e-6,
    no slip (below 1e-9 m/s) and no stick/slip switch."""
    theta, rho, b = math.radians(20.0), 0.005, 0.015
    load = M_BALL * G * math.cos(theta)
    d0 = 0.0
    for _ in range(50):  # the compressed geometry: sin alpha = b / (rho + r - d), 2 N cos alpha = load
        alpha = math.asin(b / (rho + R_BALL - d0))
        d0 = depth(load / (2 * math.cos(alpha)))
    height = (rho + R_BALL - d0) * math.cos(alpha)
    rails = [
        {"name": name, "body_a": "ground", "body_b": "ball",
         "shape_a": {"type": "cylinder", "center": [0.0, y, 0.0], "axis": [1, 0, 0], "radius": rho, "length": 2.0},
         "shape_b": sphere(R_BALL), **law()}
        for name, y in (("rail1", -b), ("rail2", b))
    ]  # fmt: skip
    model = from_dict({"name": "rails", "gravity": gravity(theta), "bodies": [ball((0.0, 0.0, height))],
                       "contacts": rails, "settings": settings(0.5, step=1e-4)})  # fmt: skip
    res = simulate(model)
    assert res.status == "completed"
    assert res.friction_events == []
    h = (R_BALL - d0 / 2) * math.cos(alpha)
    closed = G * math.sin(theta) / (1 + J_BALL / (M_BALL * h**2))
    t, v = res.t, res.velocity("ball")[:, 0]
    i, j = np.searchsorted(t, [0.1, 0.5])
    assert (v[j] - v[i]) / (t[j] - t[i]) == pytest.approx(closed, rel=1e-6)
    assert max(res.contact(name)[:, 9].max() for name in ("rail1", "rail2")) < 1e-9


def test_a_pair_without_true_stiction_is_refused_naming_it():
    """A ball on a box (sphere-box) keeps the regularised law: friction_law 'stiction' is refused,
    naming the contact and the field."""
    contact = {"name": "ball_on_box", "body_a": "ball", "body_b": "ground", "shape_a": sphere(R_BALL),
               "shape_b": {"type": "box", "center": [0, 0, -0.05], "size": [0.2, 0.2, 0.1]}, **law()}  # fmt: skip
    with pytest.raises(ModelError, match="ball_on_box.*friction_law 'stiction' is handled for") as info:
        from_dict({"name": "refused", "bodies": [ball((0.0, 0.0, R_BALL))], "contacts": [contact]})
    assert info.value.path == "contacts[0].friction_law"


def test_point_motion_is_the_rate_of_the_contact_point_and_normal():
    """numerics/contact_patch.point_motion's x' and n' (a complex step) against central differences
    of the contact geometry along the motion (positions moved by +-h v, orientations turned by
    +-h w in the body frame), for a sphere-sphere and a sphere-cylinder pair whose shapes sit off
    their bodies' centres and all bodies move and spin: within 1e-6 of their size (the differences'
    truncation, h = 1e-5 s at rates of about 70 /s: measured 3e-7)."""
    from MBDWorkbench.solver.kernels import update_rotations_arrays
    from MBDWorkbench.solver.numerics.contact_patch import point_motion
    from MBDWorkbench.solver.numerics.forces import CONTACT
    from MBDWorkbench.solver.numerics.quaternion import rotate_by_body_vector
    from MBDWorkbench.solver.system.system import System

    bodies = [dict(ball((0.0, 0.0, 0.0)), name=name, position=list(at), orientation=list(q))
              for name, at, q in (("a", (0, 0, 0), (1, 0, 0, 0)), ("b", (0.01, 0.02, 0.05), (0.9, 0.1, 0.3, 0.2)),
                                  ("pin", (0.06, -0.01, 0.0), (0.8, -0.2, 0.1, 0.4)))]  # fmt: skip
    pin = {"type": "cylinder", "center": [0.0, 0.01, 0.0], "axis": [0.3, 0.2, 1.0], "radius": 0.01, "length": 0.2}
    contacts = [
        {"name": "balls", "body_a": "a", "body_b": "b", "shape_a": sphere(R_BALL, (0.003, 0.0, 0.001)),
         "shape_b": sphere(0.015, (0.0, -0.002, 0.004)), **law("regularised")},
        {"name": "on_pin", "body_a": "a", "body_b": "pin", "shape_a": sphere(R_BALL, (0.003, 0.0, 0.001)),
         "shape_b": pin, **law("regularised")},
    ]  # fmt: skip
    system = System(from_dict({"name": "motion", "bodies": bodies, "contacts": contacts}))
    S, nb = system.static, system.nb
    rng = np.random.default_rng(3)
    Y = system.Y0.copy()
    Y[7 * nb :] = rng.normal(size=6 * nb)  # [m/s, rad/s]

    def moved(h):
        Z = Y.copy()
        for b in range(nb):
            o = 7 * nb + 6 * b
            Z[7 * b : 7 * b + 3] += h * Y[o : o + 3]
            rotate_by_body_vector(Y[7 * b + 3 : 7 * b + 7].copy(), h * Y[o + 3 : o + 6], Z[7 * b + 3 : 7 * b + 7])
        A = np.zeros((nb, 3, 3))
        update_rotations_arrays(nb, Z, A)
        return Z, A

    first, h = int(S.force_start[CONTACT]), 1e-5
    for k in (first, first + 1):
        out, plus, minus = np.zeros((4, 3)), np.zeros((4, 3)), np.zeros((4, 3))
        for state, target in ((0.0, out), (h, plus), (-h, minus)):
            point_motion(*_args(S, nb, *moved(state)), k, target)
        assert np.abs(out[2] - (plus[0] - minus[0]) / (2 * h)).max() < 1e-6 * np.abs(out[2]).max()
        assert np.abs(out[3] - (plus[1] - minus[1]) / (2 * h)).max() < 1e-6 * np.abs(out[3]).max()


def _args(S, nb, Y, A) -> tuple:
    return Y, nb, A, S.force_bi, S.force_bj, S.force_vecs, S.force_par, S.force_flag
