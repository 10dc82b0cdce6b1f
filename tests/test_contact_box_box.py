"""Box-box and sphere-cone contact (docs/contact.md, "Shapes and pairs"; numerics/contact_solids.py):
the compiled kernel's depth against the separating-axis depth of two boxes and against brute-force
sampling of a cone; a cube resting on a box and a cube turned 45 deg resting on the edge crossings at
their closed-form depths; crossed edges touching at the free-fall time; no energy gain when elastic;
a ball's first touch on a cone's side and its rest on a frustum's cap."""

import math

import numpy as np
import pytest
from oracles.force_jacobians import jacobians_match_central_differences
from scipy.optimize import brentq

from MBDWorkbench.solver.model import from_dict
from MBDWorkbench.solver.model import shape_points as sp
from MBDWorkbench.solver.model.contacts import Shape
from MBDWorkbench.solver.model.shape_points import element_vectors, penetration
from MBDWorkbench.solver.numerics import contact_forces as cf
from MBDWorkbench.solver.numerics import quaternion
from MBDWorkbench.solver.simulate import simulate
from MBDWorkbench.solver.system.system import System

GROUND = (-1, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
RNG = np.random.default_rng(1033)
G, K, A = 9.81, 1e9, 0.1  # gravity [m/s^2], the pairs' stiffness [N/m^1.5], the cube's edge [m]
ORIGIN = (np.zeros(3), np.eye(3))


def kernel(p) -> tuple:
    """(d [m], normal, contact point [m]) of the compiled kernel for a point given globally."""
    same = lambda x: np.asarray(x, float)  # noqa: E731  both sides on the ground: global coordinates
    vecs, radius_j = element_vectors(p, same, same, same, same)
    par = (1.0, 1.5, 0.0, 0.0, 0.0, 1e-3, p.radius_i, radius_j)
    d, n, x = cf.contact_geometry(np.zeros((1, 3, 3)), GROUND, GROUND, vecs[None], 0, p.kind, par)
    return d, np.array(n), np.array(x)


def rotation() -> np.ndarray:
    q, _ = np.linalg.qr(RNG.normal(size=(3, 3)))
    return q * np.sign(np.linalg.det(q))


def test_kinds_agree_with_the_kernel():
    assert (sp.BOX_BOX, sp.SPHERE_CONE) == (cf.BOX_BOX, cf.SPHERE_CONE) == (10, 11)


def separating_axis_depth(c_i, R_i, h_i, c_j, R_j, h_j) -> float:
    """The penetration depth of two boxes: the smallest overlap of their projections on the 15 axes
    (3 face normals of each, 9 edge cross products) [Gottschalk's separating-axis theorem]."""
    axes = [R_i[:, k] for k in range(3)] + [R_j[:, k] for k in range(3)]
    axes += [np.cross(R_i[:, a], R_j[:, b]) for a in range(3) for b in range(3)]
    overlaps = []
    for L in axes:
        if np.linalg.norm(L) > 1e-9:
            L = L / np.linalg.norm(L)
            overlaps.append(h_i @ np.abs(L @ R_i) + h_j @ np.abs(L @ R_j) - abs(L @ (c_i - c_j)))
    return min(overlaps)


def box_pair(c_i, R_i, h_i, c_j, R_j, h_j) -> list:
    box_i, box_j = (Shape("box", center=[0, 0, 0], size=list(2 * h)) for h in (h_i, h_j))
    return sp.pair_points("i", box_i, "j", box_j, ((c_i, R_i), (c_j, R_j)))


def test_box_box_depth_is_the_separating_axis_depth():
    """Two boxes (half extents 5-30 cm) turned at random, box i placed along a random direction where
    the separating-axis depth is 1 mm: the deepest of the pair's points (8 + 8 vertices, 144 edge
    pairs) is that depth within 1e-9 m, and every point's depth is the model's ``penetration``; apart
    by 1 mm, every point's gap is positive."""
    for _ in range(60):
        R_i, R_j, h_i, h_j = rotation(), rotation(), RNG.uniform(0.05, 0.3, 3), RNG.uniform(0.05, 0.3, 3)
        u = RNG.normal(size=3)
        u /= np.linalg.norm(u)
        boxes = (R_i, h_i, np.zeros(3), R_j, h_j)
        for depth in (1e-3, -1e-3):
            t = brentq(lambda t, u=u, b=boxes, d=depth: separating_axis_depth(t * u, *b) - d, 0, 2, xtol=1e-14)
            points = box_pair(t * u, R_i, h_i, np.zeros(3), R_j, h_j)
            d = [kernel(p)[0] for p in points]
            assert d == pytest.approx([penetration(p) for p in points], abs=1e-13)
            if depth > 0:
                assert max(d) == pytest.approx(depth, abs=1e-9)
            else:
                assert max(d) < 0


def test_the_45_deg_turned_cube_touches_at_its_eight_edge_crossings():
    """A cube turned 45 deg about z on an equal cube, 0.1 mm deep: no vertex is inside the other
    cube; the 8 points where the edges cross, (+-a/2, +-(a/sqrt(2) - a/2)) and their mirror images,
    are 0.1 mm deep along z, the contact points at their middles."""
    turned = quaternion.matrix(quaternion.from_axis_angle([0, 0, 1], math.pi / 4))
    h = np.full(3, A / 2)
    points = box_pair(np.array([0, 0, A - 1e-4]), turned, h, np.zeros(3), np.eye(3), h)
    touching = [kernel(p) for p in points if kernel(p)[0] > 0]
    assert len(touching) == 8 and all(p.radius_i > 0 for p in points if kernel(p)[0] > 0)  # edge pairs only
    c = A / math.sqrt(2) - A / 2
    expected = {(sx * a, sy * b) for sx in (-1, 1) for sy in (-1, 1) for a, b in ((A / 2, c), (c, A / 2))}
    for d, n, x in touching:
        assert d == pytest.approx(1e-4, rel=1e-9)
        assert n == pytest.approx([0, 0, 1], abs=1e-12)
        assert x[2] == pytest.approx(A / 2 - 0.5e-4, abs=1e-12)
        assert min(math.dist(x[:2], e) for e in expected) < 1e-12


def body(name: str, position, orientation=(1.0, 0.0, 0.0, 0.0), size=(A, A, A), mass=1.0, **extra) -> dict:
    a, b, c = size
    inertia = [mass * (b * b + c * c) / 12, mass * (a * a + c * c) / 12, mass * (a * a + b * b) / 12]
    return {"name": name, "mass": mass, "inertia": inertia, "position": list(position),
            "orientation": [float(x) for x in orientation], **extra}  # fmt: skip


def model_of(bodies: list, shape_a: dict, shape_b: dict, body_b="ground", t_end=0.6, step=1e-5, **law) -> object:
    pair = {"name": "pair", "body_a": bodies[0]["name"], "body_b": body_b, "shape_a": shape_a, "shape_b": shape_b}
    pair.update({"stiffness": K, "exponent": 1.5, "restitution": 0.5, "law": "restitution", **law})
    settings = {"t_end": t_end, "step": step, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    return from_dict({"name": "m", "bodies": bodies, "contacts": [pair], "settings": settings})


def cube(size=(A, A, A), center=(0, 0, 0)) -> dict:
    return {"type": "box", "center": list(center), "size": list(size)}


def resting(res, name: str) -> None:
    """Still at the end: speeds below 1e-6 m/s and rad/s."""
    assert res.status == "completed", res.warnings
    assert np.abs(res.velocity(name)[res.t > 0.8 * res.t[-1]]).max() < 1e-6
    assert np.abs(res.angular_velocity(name)[res.t > 0.8 * res.t[-1]]).max() < 1e-6


def test_a_cube_rests_on_a_larger_box_at_the_closed_form_depth():
    """A cube dropped 2 cm on a grounded box (1 x 0.8 x 0.25 m, top face z = 0) off its centre: it
    rests level on its 4 bottom vertices at the depth (m g / K)^(2/3) of the pair's shared law, the
    force m g."""
    res = simulate(model_of([body("cube", [0.2, -0.1, A / 2 + 0.02])], cube(), cube((1, 0.8, 0.25), (0, 0, -0.125))))
    resting(res, "cube")
    depth = (G / K) ** (2 / 3)
    assert res.position("cube")[-1] == pytest.approx([0.2, -0.1, A / 2 - depth], abs=1e-3 * depth)
    assert abs(abs(res.orientation("cube")[-1, 0]) - 1.0) < 1e-12
    assert res.contact("pair")[-1, 3] == pytest.approx(G, rel=1e-6)


def test_a_cube_turned_45_deg_rests_on_the_edge_crossings_at_the_closed_form_depth():
    """A cube turned 45 deg about z dropped 1 cm on an equal grounded cube: no vertex of either meets
    a face; the 8 edge crossings carry it level at the depth (m g / K)^(2/3), the force m g at the
    middle of the top face."""
    q = quaternion.from_axis_angle([0, 0, 1], math.pi / 4)
    res = simulate(model_of([body("cube", [0, 0, A / 2 + 0.01], q)], cube(), cube(center=(0, 0, -A / 2))))
    resting(res, "cube")
    depth = (G / K) ** (2 / 3)
    assert res.position("cube")[-1] == pytest.approx([0, 0, A / 2 - depth], abs=1e-3 * depth)
    assert res.contact("pair")[-1, 3] == pytest.approx(G, rel=1e-6)


def crossed(z: float) -> tuple:
    """(orientation of a cube turned 45 deg about x, then 30 deg about z: its lowest edge horizontal at
    z - a / sqrt(2); the grounded base turned 45 deg about y: its top edge along y at a / sqrt(2))."""
    q = np.empty(4)
    turn = quaternion.from_axis_angle([0, 0, 1], math.pi / 6)
    quaternion.quat_mul(turn, quaternion.from_axis_angle([1, 0, 0], 0.25 * math.pi), q)
    return q, body("base", [0, 0, 0], quaternion.from_axis_angle([0, 1, 0], math.pi / 4), grounded=True)


@pytest.mark.parametrize("integrator", ["rk4", "galpha"])
def test_crossed_edges_touch_at_the_free_fall_time_of_the_lowest_edge(integrator):
    """A cube turned 45 deg about x, then 30 deg about z (its lowest edge horizontal), dropped on a
    grounded cube turned 45 deg about y (its top edge along y): the edges cross; the first touch is
    at sqrt(2 gap / g), gap = z - sqrt(2) a, within 1e-8; also with galpha (its Jacobians by complex
    steps through the crossing)."""
    z = 0.2
    q, base = crossed(z)
    model = model_of([body("cube", [0, 0, z], q), base], cube(), cube(), body_b="base", t_end=0.2)
    res = simulate(model, integrator=integrator)
    assert res.status == "completed", res.warnings
    onset = res.stops.contacts.events[0]
    gap = z - math.sqrt(2) * A
    assert onset.t == pytest.approx(math.sqrt(2 * gap / G), rel=1e-8)
    assert onset.speed == pytest.approx(math.sqrt(2 * G * gap), rel=1e-6)


def test_a_box_bouncing_on_a_box_gains_no_energy_when_elastic_and_frictionless():
    """A 0.1 x 0.06 x 0.04 box tilted 0.3 and 0.2 rad, spinning, dropped 5 cm on a grounded box, e = 1,
    no friction: its energy (kinetic + gravity) while apart never exceeds the start's by 1e-4 of the
    drop's energy (the points' switching between features does not pump energy)."""
    q = np.empty(4)
    quaternion.quat_mul(quaternion.from_axis_angle([1, 0, 0], 0.3), quaternion.from_axis_angle([0, 1, 0], 0.2), q)
    size = (0.1, 0.06, 0.04)
    b = body("box", [0, 0, 0.05 + 0.06], q, size, angular_velocity=[1.0, -2.0, 2.0])
    res = simulate(model_of([b], cube(size), cube((1, 0.8, 0.25), (0, 0, -0.125)), restitution=1.0, t_end=0.5))
    assert res.status == "completed", res.warnings
    e = res.energy()
    apart = res.contact("pair")[:, 3] == 0.0
    assert np.count_nonzero(np.diff(apart.astype(int)) == 1) >= 2  # at least two impacts
    motion = (e["kinetic"] + e["potential"])[apart]
    assert motion.max() - motion[0] <= 1e-4 * G * 0.05


# ----------------------------------------------------------------------------- sphere-cone
def cone_surface(c, u, half, r1, r2, n=400) -> np.ndarray:
    """Samples of a cone's side and caps (about 2 mm apart for the sizes below)."""
    a = np.cross(u, [1.0, 0.0, 0.0] if abs(u[0]) < 0.9 else [0.0, 1.0, 0.0])
    a /= np.linalg.norm(a)
    b = np.cross(u, a)
    f, s = np.meshgrid(np.linspace(0, 2 * np.pi, n), np.linspace(-1, 1, n))
    out = []
    for radius, at in ((r1 + (r2 - r1) * (s + 1) / 2, s * half), (np.abs(s) * r1, -half), (np.abs(s) * r2, half)):
        ring = (radius * np.cos(f))[..., None] * a + (radius * np.sin(f))[..., None] * b
        x = c + ring + (at * np.ones_like(f))[..., None] * u
        out.append(x.reshape(-1, 3))
    return np.concatenate(out)


@pytest.mark.parametrize("radii", [(0.12, 0.05), (0.1, 0.0)])
def test_sphere_cone_is_the_signed_distance_to_the_solid_cone(radii):
    """A frustum and a cone (length 0.3 m) turned at random, balls (radius 0.04) inside and outside:
    the kernel's depth is r - the signed distance to the nearest of the side's and caps' samples, its
    witness point x - (r - d) n lies on the surface, the model's ``penetration`` agrees."""
    r1, r2 = radii
    half, radius = 0.15, 0.04
    for _ in range(25):
        R = rotation()
        c, u = np.array([0.1, -0.2, 0.05]), R[:, 2]
        surface = cone_surface(c, u, half, r1, r2)
        local = RNG.uniform([-0.2, -0.2, -0.25], [0.2, 0.2, 0.25])
        x = c + R @ local
        shape = Shape("cone", center=list(c), axis=list(u), radius1=r1, radius2=r2, length=2 * half)
        p = sp.pair_points("s", Shape("sphere", center=list(x), radius=radius), "c", shape, (ORIGIN, ORIGIN))[0]
        d, n, at = kernel(p)
        s, w = local[2], math.hypot(local[0], local[1])
        inside = abs(s) <= half and w <= r1 + (r2 - r1) * (s + half) / (2 * half)
        nearest = np.linalg.norm(surface - x, axis=1).min()
        assert d == pytest.approx(radius + (nearest if inside else -nearest), abs=2.5e-3)
        assert d == pytest.approx(penetration(p), abs=1e-13)
        witness = x - (radius - d) * n
        assert np.linalg.norm(surface - witness, axis=1).min() < 2.5e-3


CONE = {"type": "cone", "center": [0, 0, 0], "axis": [0, 0, 1], "radius1": 0.04, "radius2": 0.0, "length": 0.1}
BALL = {"type": "sphere", "center": [0, 0, 0], "radius": 0.02}


def test_a_ball_dropped_beside_a_cones_apex_touches_its_side_at_the_free_fall_time():
    """A ball (radius 2 cm) dropped 1.5 cm off the axis of a grounded cone (base radius 4 cm, apex up
    at z = 0.05): it first touches the side when its centre is R from the side's line, its height
    there solved in the meridian plane, at the free-fall time of that height, within 1e-8."""
    e, z0, R = 0.015, 0.2, 0.02
    apex, base = np.array([0.05, 0.0]), np.array([-0.05, 0.04])  # (z, rho) of the side's ends

    def distance(z):
        p, t = np.array([z, e]), base - apex
        f = min(1.0, max(0.0, (p - apex) @ t / (t @ t)))
        return np.linalg.norm(p - apex - f * t) - R

    z_touch = brentq(distance, 0.05, z0, xtol=1e-15)
    res = simulate(model_of([body("ball", [e, 0, z0])], BALL, CONE, t_end=0.2))
    assert res.status == "completed", res.warnings
    onset = res.stops.contacts.events[0]
    assert onset.t == pytest.approx(math.sqrt(2 * (z0 - z_touch) / G), rel=1e-8)


def test_a_ball_rests_on_a_frustums_top_cap_at_the_closed_form_depth():
    """A ball dropped 1 cm on the flat top (radius 3 cm) of a grounded frustum: it rests on the cap at
    the depth (m g / K)^(2/3), as on a plane."""
    frustum = dict(CONE, radius2=0.03)
    res = simulate(model_of([body("ball", [0.01, 0.005, 0.05 + 0.02 + 0.01])], BALL, frustum, t_end=0.6))
    resting(res, "ball")
    depth = (G / K) ** (2 / 3)
    assert res.position("ball")[-1] == pytest.approx([0.01, 0.005, 0.07 - depth], abs=1e-3 * depth)
    assert res.contact("pair")[-1, 3] == pytest.approx(G, rel=1e-6)


def pressed(shape_a: dict, shape_b: dict, position_a, orientation_a, orientation_b, velocity_a) -> System:
    """Body a pressed into body b (both moving, sliding and spinning, approaching), with damping and
    friction."""
    bodies = [
        body("a", position_a, orientation_a, velocity=velocity_a, angular_velocity=[1.0, 2.0, -3.0]),
        body("b", [0, 0, 0], orientation_b, mass=2.0, velocity=[-0.1, 0.2, 0.01], angular_velocity=[0.5, -0.2, 0.4]),
    ]
    law = {"stiffness": 1e7, "exponent": 1.5, "restitution": 0.7, "mu_s": 0.4, "mu_k": 0.3, "slip_speed": 0.05}
    pair = {"name": "c", "body_a": "a", "body_b": "b", "shape_a": shape_a, "shape_b": shape_b, **law}
    return System(from_dict({"name": "pressed", "bodies": bodies, "contacts": [{**pair, "penetration_tol": 1e-3}]}))


def test_crossed_edges_and_a_ball_on_a_cone_have_the_jacobians_of_central_differences():
    """Crossed edges pressed 0.1 mm (one point touching, so the shared law's scale is 1) and a ball
    pressed 0.1 mm into a cone's side: the implicit integrators' Jacobians are those of the kernels."""
    q, base = crossed(0.0)
    z = math.sqrt(2) * A - 1e-4
    pressed_cubes = pressed(cube(), cube(), [0, 0, z], q, base["orientation"], [0.3, -0.1, -0.05])
    jacobians_match_central_differences(pressed_cubes, pressed_cubes.model.gravity)
    side = np.array([0.04, 0.1]) / math.hypot(0.1, 0.04)  # the side's outward normal (z, rho)
    centre = np.array([0.0, 0.02]) + (0.02 - 1e-4) * side  # over the side's middle (z 0, rho 0.02)
    upright = (1.0, 0.0, 0.0, 0.0)
    ball = pressed(BALL, CONE, [centre[1], 0, centre[0]], upright, upright, [-0.3, -0.1, -0.05])
    jacobians_match_central_differences(ball, ball.model.gravity)
