"""rk4_tree: RK4 in joint coordinates for open trees (solver/integrators/tree.py).

Checked against independent computations: the body-coordinate KKT system of the other
integrators (accelerations at random states of a branching 3D tree with springs), a 1-DoF ODE
solved by SciPy (a physical pendulum), the closed-form slide along an inclined prismatic joint,
the conserved momentum of a cart-pendulum, and the body-coordinate rk4 on the shipped two-link
chain (positions and reaction loads)."""

from __future__ import annotations

import copy
import json
import os

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.solver.integrators.tree import build_tree, joint_state
from MBDWorkbench.solver.integrators.tree_kernel import FIXED, new_tree_work, tree_accelerations, write_body_state
from MBDWorkbench.solver.integrators.tree_state import joint_state_into
from MBDWorkbench.solver.model import from_dict
from MBDWorkbench.solver.simulate import simulate
from MBDWorkbench.solver.system.system import System

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")


def body(name, mass, position, inertia=None, orientation=(1.0, 0.0, 0.0, 0.0), **kw):
    inertia = inertia if inertia is not None else [[0.02, 0.001, 0.0], [0.001, 0.03, 0.002], [0.0, 0.002, 0.025]]
    return dict(name=name, mass=mass, position=list(position), inertia=inertia, orientation=list(orientation), **kw)


def joint(name, kind, bi, bj, origin, z, x=None):
    frame = dict(origin=list(origin), z_axis=list(z))
    if x is not None:
        frame["x_axis"] = list(x)
    return dict(name=name, type=kind, body_i=bi, body_j=bj, frame=frame)


def branching_tree(springs: bool = True) -> dict:
    """ground -R- a; a -R- b -R- d -F- e; a -P- c (two branches from a; e fixed to d); tilted
    axes, CoGs off the axes, full inertia tensors, a turned body frame; a linear spring c-d and
    a rotational spring on b's joint."""
    q_turned = [np.cos(0.3), np.sin(0.3) * 0.6, 0.0, np.sin(0.3) * 0.8]
    d = dict(
        name="tree",
        gravity=[0.3, -9.81, 0.5],
        bodies=[
            body("a", 2.0, [0.1, 0.3, 0.05]),
            body("b", 1.2, [0.6, 0.4, -0.1], orientation=q_turned),
            body("c", 0.8, [0.2, 0.9, 0.3]),
            body("d", 0.5, [1.1, 0.2, 0.0]),
            body("e", 0.9, [1.3, -0.2, 0.4], orientation=q_turned),
        ],
        joints=[
            joint("base", "revolute", "ground", "a", [0, 0, 0], [0.2, 0.1, 1.0]),
            joint("elbow", "revolute", "a", "b", [0.4, 0.4, 0.0], [1.0, 0.3, 0.2]),
            joint("slide", "prismatic", "a", "c", [0.2, 0.7, 0.2], [0.1, 1.0, 0.4], [1.0, 0.0, 0.0]),
            joint("wrist", "revolute", "d", "b", [0.9, 0.3, -0.05], [0.0, 1.0, 0.3]),
            joint("weld", "fixed", "d", "e", [1.2, 0.0, 0.2], [0.3, 0.0, 1.0]),
        ],
        forces=[],
        settings=dict(t_end=0.5, step=1e-3, output_step=0.05),
    )
    if springs:
        d["forces"] = [
            dict(
                name="spring", type="spring_damper", body_i="c", point_i=[0.2, 0.9, 0.3], body_j="d",
                point_j=[1.1, 0.2, 0.0], stiffness=40.0, damping=0.0, free_length=0.7,
            ),
            dict(name="torsion", type="rotational_spring_damper", joint="elbow", stiffness=3.0, damping=0.0),
        ]  # fmt: skip
    return d


def tree_of(d: dict):
    system = System(from_dict(d))
    return system, build_tree(system, system.Y0), new_tree_work(system.nb)


def random_joint_state(T, seed: int, speed: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Random joint coordinates and rates (0 for fixed joints, which have none)."""
    rng = np.random.default_rng(seed)
    free = T.kind != FIXED
    return free * rng.normal(size=free.size), free * speed * rng.normal(size=free.size)


def body_state(system, T, TW, q, qd) -> np.ndarray:
    Y = system.Y0.copy()
    write_body_state(q, qd, T, TW, Y)
    return Y


def test_joint_states_are_consistent_and_read_back():
    system, T, TW = tree_of(branching_tree())
    q, qd = random_joint_state(T, 1)
    Y = body_state(system, T, TW, q, qd)
    assert np.abs(system.constraint_residual(0.0, Y)).max() < 1e-13
    _, J, _, rate = system.constraint_jacobian(0.0, Y)
    assert np.abs(J @ Y[7 * system.nb :] + rate).max() < 1e-12  # velocities satisfy the joints
    q2, qd2 = joint_state(T, Y)
    np.testing.assert_allclose(q2, q, atol=1e-12)
    np.testing.assert_allclose(qd2, qd, atol=1e-12)
    np.testing.assert_allclose(body_state(system, T, TW, *joint_state(T, system.Y0)), system.Y0, atol=1e-12)


@pytest.mark.parametrize("seed", [2, 3])
def test_the_compiled_joint_state_is_the_numpy_one(seed):
    """tree_state.joint_state_into (rk4_tree's restarts) reads q, qd as joint_state does, on a
    consistent state and on one moved off the joints (the nearest values), revolute and prismatic."""
    system, T, TW = tree_of(branching_tree())
    assert {0, 1} <= set(T.kind.tolist())  # both kinds read
    Y = body_state(system, T, TW, *random_joint_state(T, seed, speed=3.0))
    for moved in (Y, Y + 1e-3 * np.random.default_rng(seed).normal(size=Y.size)):
        q, qd = np.empty(system.nb), np.empty(system.nb)
        joint_state_into(moved, T.parent, T.kind, T.Fp, T.op, T.GT, T.oc, np.empty((system.nb, 3, 3)), q, qd)
        q0, qd0 = joint_state(T, moved)
        np.testing.assert_allclose(q, q0, rtol=0, atol=1e-13)
        np.testing.assert_allclose(qd, qd0, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_accelerations_equal_the_body_coordinate_kkt_solution(seed):
    """The articulated-body accelerations, turned into body accelerations (central differences
    of the body state along q + qd e + qdd e^2 / 2), equal the KKT solution of the body
    coordinates (System.derivative) at a consistent state, springs included."""
    system, T, TW = tree_of(branching_tree())
    q, qd = random_joint_state(T, seed, speed=2.0)
    Y = body_state(system, T, TW, q, qd)
    qdd = np.zeros(system.nb)
    tree_accelerations(0.0, q, qd, T, TW, system.static, qdd)
    eps = 1e-4
    ahead = body_state(system, T, TW, q + qd * eps + 0.5 * qdd * eps**2, qd + qdd * eps)
    behind = body_state(system, T, TW, q - qd * eps + 0.5 * qdd * eps**2, qd - qdd * eps)
    tree_acc = (ahead - behind)[7 * system.nb :] / (2 * eps)
    kkt_acc = system.derivative(0.0, Y)[7 * system.nb :]
    assert np.abs(kkt_acc).max() > 1.0
    np.testing.assert_allclose(tree_acc, kkt_acc, atol=1e-6 * np.abs(kkt_acc).max())


def physical_pendulum(theta0: float) -> dict:
    """One link hinged at the origin about z, CoG at d = 0.4 m, released at theta0 from below."""
    d = 0.4
    pos = [d * np.sin(theta0), -d * np.cos(theta0), 0.0]
    return dict(
        name="pendulum",
        gravity=[0.0, -9.81, 0.0],
        bodies=[body("bob", 1.5, pos, inertia=[[0.01, 0, 0], [0, 0.02, 0], [0, 0, 0.03]])],
        joints=[joint("pivot", "revolute", "ground", "bob", [0, 0, 0], [0, 0, 1])],
        settings=dict(t_end=2.0, step=1e-3, output_step=0.1),
    )


def test_physical_pendulum_follows_its_ode():
    theta0, m, d, J = 2.5, 1.5, 0.4, 0.03
    res = simulate(from_dict(physical_pendulum(theta0)), integrator="rk4_tree")
    assert res.status == "completed"

    def rhs(t, y):
        return [y[1], -m * 9.81 * d / (J + m * d * d) * np.sin(y[0])]

    ode = solve_ivp(rhs, (0.0, 2.0), [theta0, 0.0], t_eval=res.t, rtol=1e-12, atol=1e-12)
    expect = np.column_stack([d * np.sin(ode.y[0]), -d * np.cos(ode.y[0])])
    assert np.abs(res.position("bob")[:, :2] - expect).max() < 1e-9


def test_inclined_slide_is_exact():
    """A body on a prismatic joint along the unit a, gravity g, initial speed v0 along a:
    s = v0 t + (g . a) t^2 / 2, which RK4 integrates exactly."""
    a = np.array([0.6, 0.0, 0.8])
    g = np.array([0.0, -3.0, -9.81])
    v0 = 1.7
    d = dict(
        name="slide",
        gravity=list(g),
        bodies=[body("block", 2.0, [0.1, 0.2, 0.3], velocity=list(v0 * a))],
        joints=[joint("rail", "prismatic", "ground", "block", [0.1, 0.2, 0.3], list(a), [0.0, 1.0, 0.0])],
        settings=dict(t_end=1.0, step=1e-2, output_step=0.25),
    )
    res = simulate(from_dict(d), integrator="rk4_tree")
    s = v0 * res.t + 0.5 * (g @ a) * res.t**2
    expect = np.array([0.1, 0.2, 0.3]) + s[:, None] * a
    assert np.abs(res.position("block") - expect).max() < 1e-12


def test_cart_pendulum_keeps_its_horizontal_momentum():
    """Cart on a horizontal rail, pendulum hinged to it: no horizontal external force."""
    d = dict(
        name="cart_pendulum",
        gravity=[0.0, 0.0, -9.81],
        bodies=[
            body("cart", 3.0, [0.0, 0.0, 0.0]),
            body("pole", 0.7, [0.3, 0.0, 0.2]),
        ],
        joints=[
            joint("rail", "prismatic", "ground", "cart", [0, 0, 0], [1, 0, 0], [0, 1, 0]),
            joint("hinge", "revolute", "cart", "pole", [0, 0, 0], [0, 1, 0]),
        ],
        settings=dict(t_end=2.0, step=1e-3, output_step=0.05),
    )
    res = simulate(from_dict(d), integrator="rk4_tree")
    assert res.status == "completed"
    px = 3.0 * res.velocity("cart")[:, 0] + 0.7 * res.velocity("pole")[:, 0]
    swing = np.ptp(res.velocity("pole")[:, 0])
    assert swing > 1.0 and np.abs(px).max() < 1e-10


def test_branching_tree_run_keeps_energy_and_joints():
    res = simulate(from_dict(branching_tree()), integrator="rk4_tree", t_end=1.0)
    assert res.status == "completed", res.warnings
    system = res.system
    assert max(np.abs(system.constraint_residual(0.0, Y)).max() for Y in res.Y) < 1e-12
    ref = simulate(from_dict(branching_tree()), integrator="rk4", t_end=1.0, step=2e-4)
    assert np.abs(res.Y[:, : 7 * system.nb] - ref.Y[:, : 7 * system.nb]).max() < 1e-6


def test_two_link_positions_and_loads_equal_the_body_coordinates():
    with open(os.path.join(EXAMPLES, "two_link.json")) as f:
        d = json.load(f)
    tree = simulate(from_dict(d), integrator="rk4_tree", t_end=1.0, step=1e-3)
    body_coords = simulate(from_dict(d), integrator="rk4", t_end=1.0, step=1e-4)
    assert tree.status == "completed"
    assert np.abs(tree.position("link2") - body_coords.position("link2")).max() < 1e-8
    for name in ("base", "elbow"):
        got, ref = np.hstack(tree.reaction(name, "global")), np.hstack(body_coords.reaction(name, "global"))
        assert np.abs(ref).max() > 1.0 and np.abs(got - ref).max() < 1e-6 * np.abs(ref).max()


def with_change(d: dict, change) -> dict:
    d = copy.deepcopy(d)
    change(d)
    return d


@pytest.mark.parametrize(
    "change, paths, words",
    [
        (lambda d: d["joints"].append(joint("loop", "revolute", "d", "ground", [1, 1, 1], [0, 0, 1])),
         ("joints[0]", "joints[1]", "joints[3]", "joints[5]"), "closes a loop"),  # any joint of the loop
        (lambda d: d["joints"][1].update(type="spherical"), ("joints[1].type",), "'elbow' is spherical"),
        (lambda d: d["bodies"].append(body("loose", 1.0, [3, 3, 3])), ("settings.integrator",),
         "'loose' is not joined"),
    ],
)  # fmt: skip
def test_models_that_are_not_open_trees_are_refused_by_name(change, paths, words):
    with pytest.raises(ModelError) as err:
        simulate(from_dict(with_change(branching_tree(springs=False), change)), integrator="rk4_tree")
    assert err.value.path in paths and words in str(err.value) and "use rk4" in str(err.value)
