"""Dynamics of the pairs against a box, a cylinder's side, of a torus and of a cone
(docs/contact.md, "Shapes and pairs"): a tessellated cube resting on a box-shaped table, a
tessellated ball resting on a cylinder, a ball on a box like a ball on a plane, a ring dropped
flat and tilted on a plane, a ball seated in a ring, a cone's first touch; each against its closed
form."""

import math

import numpy as np
import pytest
from scipy.optimize import brentq

from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.solver.model import from_dict
from MBDWorkbench.solver.model.contacts import contact_points, tessellated
from MBDWorkbench.solver.model.mesh_shapes import box_mesh, sphere_mesh
from MBDWorkbench.solver.model.shape_points import MESH_MESH
from MBDWorkbench.solver.numerics import quaternion
from MBDWorkbench.solver.simulate import simulate

G = 9.81
K = 1e9  # the pairs' stiffness [N/m^1.5]
PLANE = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}
TABLE = {"type": "box", "center": [0, 0, -0.125], "size": [1.0, 0.8, 0.25]}  # its top face at z = 0
A = 0.1  # cube edge [m]
R, r = 0.05, 0.01  # a ring's centre-circle and tube radii [m]


def body(name: str, position, orientation=(1.0, 0.0, 0.0, 0.0), mass: float = 1.0, J: float = 2e-3) -> dict:
    return {"name": name, "mass": mass, "inertia": np.diag([J, J, 1.5 * J]).tolist(), "position": list(position),
            "orientation": list(orientation)}  # fmt: skip


def model_of(b: dict, shape_a: dict, shape_b: dict, t_end=1.0, step=1e-5, integrator="rk4", **law) -> object:
    pair = {"name": "pair", "body_a": b["name"], "body_b": "ground", "shape_a": shape_a, "shape_b": shape_b}
    pair.update({"stiffness": K, "exponent": 1.5, "restitution": 0.5, "law": "restitution", **law})
    pair = {key: value for key, value in pair.items() if value is not None}  # None: the field left out
    settings = {"t_end": t_end, "step": step, "output_step": 1e-3, "integrator": integrator, "accuracy": False}
    return from_dict({"name": "m", "bodies": [b], "contacts": [pair], "settings": settings})


def resting(res, name: str) -> None:
    """Still at the end: speeds below 1e-6 m/s and rad/s."""
    assert res.status == "completed", res.warnings
    assert np.abs(res.velocity(name)[res.t > 0.8 * res.t[-1]]).max() < 1e-6
    assert np.abs(res.angular_velocity(name)[res.t > 0.8 * res.t[-1]]).max() < 1e-6


def test_a_tessellated_cube_rests_on_a_box_shaped_table_at_the_closed_form_depth():
    """12 triangles sampled every 0.2 x the table's thinnest edge (its bottom face: 12 points)
    dropped 5 cm: it rests level on the table's top face at the depth (m g / K)^(2/3) of the
    pair's shared law, the force m g."""
    res = simulate(model_of(body("cube", [0, 0, A / 2 + 0.05]), box_mesh([A, A, A]), TABLE))
    resting(res, "cube")
    depth = (G / K) ** (2 / 3)
    assert res.position("cube")[-1, 2] == pytest.approx(A / 2 - depth, abs=1e-3 * depth)
    assert abs(abs(res.orientation("cube")[-1, 0]) - 1.0) < 1e-12  # level
    assert res.contact("pair")[-1, 3] == pytest.approx(G, rel=1e-6)


def test_a_ball_on_a_box_moves_as_on_the_plane_of_its_top_face():
    """A ball (Hertz: R* = its radius) dropped 0.1 m on the table's top face, e = 0.8: the same
    motion as on the plane z = 0 to rounding, the same contact forces."""
    ball = {"type": "sphere", "center": [0, 0, 0], "radius": 0.02}
    law = dict(stiffness=None, exponent=None, restitution=0.8, t_end=0.45)
    runs = [simulate(model_of(body("ball", [0.1, 0.2, 0.12]), ball, other, **law)) for other in (TABLE, PLANE)]
    assert runs[0].status == "completed"
    assert np.abs(runs[0].Y - runs[1].Y).max() < 1e-12
    assert np.abs(runs[0].contact("pair") - runs[1].contact("pair")).max() < 1e-9 * runs[1].contact("pair").max()
    rising = runs[0].velocity("ball")[:, 2] > 0
    assert np.count_nonzero(np.diff(rising.astype(int)) == 1) >= 2  # two impacts


def test_a_tessellated_ball_rests_on_a_cylinders_side_on_its_pole():
    """A ball tessellated at 1 mm (114 vertices, its pole vertex lowest) dropped 1 cm on the top
    of a grounded cylinder (radius 0.1, axis x): it rests above the cylinder's top line by
    R - (m g / K)^(2/3)."""
    cylinder = {"type": "cylinder", "center": [0, 0, -0.1], "axis": [1, 0, 0], "radius": 0.1, "length": 0.4}
    res = simulate(model_of(body("ball", [0, 0, 0.05 + 0.01]), sphere_mesh(0.05, 1e-3), cylinder, t_end=0.6))
    resting(res, "ball")
    assert res.position("ball")[-1] == pytest.approx([0, 0, 0.05 - (G / K) ** (2 / 3)], abs=1e-3 * (G / K) ** (2 / 3))
    assert res.contact("pair")[-1, 3] == pytest.approx(G, rel=1e-6)


def ring(center=(0.0, 0.0, 0.0)) -> dict:
    return {"type": "torus", "center": list(center), "axis": [0, 0, 1], "major_radius": R, "minor_radius": r}


@pytest.mark.parametrize("integrator", ["rk4", "galpha"])
def test_a_ring_dropped_flat_touches_at_the_free_fall_time_and_rests_at_the_closed_form_depth(integrator):
    """A torus (R 5 cm, r 1 cm) dropped flat from h = 2 cm: its 8 arcs touch together at
    sqrt(2 h / g) (the onset located), it rests level at the depth (m g / K)^(2/3) of the pair's
    law shared by the arcs; also with galpha (its Jacobians by complex steps through the arcs)."""
    h = 0.02
    res = simulate(model_of(body("ring", [0, 0, r + h]), ring(), PLANE, integrator=integrator))
    resting(res, "ring")
    onset = res.stops.contacts.events[0]
    assert onset.t == pytest.approx(math.sqrt(2 * h / G), rel=1e-8)
    depth = (G / K) ** (2 / 3)
    assert res.position("ring")[-1, 2] == pytest.approx(r - depth, abs=1e-3 * depth)
    assert abs(abs(res.orientation("ring")[-1, 0]) - 1.0) < 1e-12
    assert res.contact("pair")[-1, 3] == pytest.approx(G, rel=1e-6)


def test_a_tilted_ring_touches_first_at_its_exact_lowest_point():
    """Turned 0.3 rad about (1, 0.4, 0): its tube circle's lowest point, z_c - R sin(0.3), between
    two arc middles, touches at the free-fall time of the exact gap (a point sampled at the arc
    middles would touch later)."""
    axis = np.array([1.0, 0.4, 0.0]) / np.linalg.norm([1.0, 0.4, 0.0])
    q = [math.cos(0.15), *(math.sin(0.15) * axis)]
    z_c, gap = 0.05, 0.05 - R * math.sin(0.3) - r
    res = simulate(model_of(body("ring", [0, 0, z_c], q), ring(), PLANE, t_end=0.11))
    assert res.status == "completed", res.warnings
    onset = res.stops.contacts.events[0]
    assert onset.t == pytest.approx(math.sqrt(2 * gap / G), rel=1e-8)
    assert onset.speed == pytest.approx(math.sqrt(2 * G * gap), rel=1e-6)


def test_a_ball_seated_in_a_ring_rests_where_its_contact_circle_carries_its_weight():
    """A ball (radius 0.05) dropped along the axis of a grounded ring (R 5 cm, r 1 cm): it touches
    the 8 arcs alike and rests at the height z where the shared law's force, along the line from
    the tube circle to the ball's centre, carries m g: K d^1.5 z / sqrt(R^2 + z^2) = m g,
    d = 0.06 - sqrt(R^2 + z^2)."""
    ball = {"type": "sphere", "center": [0, 0, 0], "radius": 0.05}
    z0 = math.sqrt(0.06**2 - R**2)
    res = simulate(model_of(body("ball", [0, 0, z0 + 0.01]), ball, ring()))
    resting(res, "ball")

    def excess(z):
        d = 0.06 - math.hypot(R, z)
        return K * d**1.5 * z / math.hypot(R, z) - G

    z = brentq(excess, 0.5 * z0, z0 * (1 - 1e-12), xtol=1e-15)
    assert res.position("ball")[-1] == pytest.approx([0, 0, z], abs=1e-3 * (z0 - z))


def test_a_tilted_cone_touches_first_at_its_lowest_rim_point():
    """A cone (radii 0.04 and 0, length 0.1), turned 0.5 rad: its base rim's lowest point touches
    the plane at the free-fall time of that point's height."""
    cone = {"type": "cone", "center": [0, 0, 0], "axis": [0, 0, 1], "radius1": 0.04, "radius2": 0.0, "length": 0.1}
    q = [math.cos(0.25), math.sin(0.25), 0.0, 0.0]
    u = quaternion.matrix(np.array(q)) @ np.array([0.0, 0.0, 1.0])
    z_c = 0.1
    gap = z_c - 0.05 * u[2] - 0.04 * math.sqrt(1 - u[2] ** 2)
    res = simulate(model_of(body("cone", [0, 0, z_c], q), cone, PLANE, t_end=0.15))
    assert res.status == "completed", res.warnings
    onset = res.stops.contacts.events[0]
    assert onset.t == pytest.approx(math.sqrt(2 * gap / G), rel=1e-8)


def test_a_torus_against_a_box_is_the_mesh_pair_of_their_tessellations():
    """No exact kind (tests/test_contact_tessellated.py): the pair's points are MESH_MESH vertices."""
    model = model_of(body("ring", [0, 0, 1]), ring(), TABLE)
    assert tessellated(model.contacts[0])
    assert {p.kind for p in contact_points(model, model.contacts[0])} >= {MESH_MESH}


def test_a_torus_or_a_cone_without_a_stiffness_is_refused():
    with pytest.raises(ModelError, match=r"contact 'pair': needs a stiffness"):
        model_of(body("ring", [0, 0, 1]), ring(), PLANE, stiffness=None)
