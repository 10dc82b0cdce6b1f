"""The cheap paths of limits that are not reached (issue 32, item 10): the compiled gap function of
the rigid stops (numerics/stop_gaps.py) against the joint coordinates and rates of the run's own
results, the idle test of a compliant stop (numerics/forces.joint_stop_idle) against the
stop's law: idle exactly where the law gives no effort; runs with idle stops equal to those
without; the index-3 Jacobian triplets of a stop: a fixed pattern within its joint's, and exact."""

import importlib
import math

import numpy as np
import pytest

from MBDWorkbench.solver import from_dict, kernels, simulate
from MBDWorkbench.solver.events import StopMonitor, rigid_stops
from MBDWorkbench.solver.integrators import jacobians as ik
from MBDWorkbench.solver.numerics.forces import JOINT_STOP, force_element_idle
from MBDWorkbench.solver.numerics.joints import body_side
from MBDWorkbench.solver.numerics.quaternion import matrices
from MBDWorkbench.solver.system.system import System

FRAME = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}


def swinging_model(stop: dict, damping: float = 0.0) -> dict:
    """A pendulum arm on a z pivot (angle limits -2.5 .. 2.5 rad) carrying a slider on a prismatic
    guide along the arm (travel limits -0.3 .. 0.3 m), released horizontal with the slider moving."""
    pivot = {"name": "pivot", "type": "revolute", "body_i": "ground", "body_j": "arm", "frame": FRAME,
             "angle_min": -2.5, "angle_max": 2.5, "angle_stop": stop, "angle_damping": damping}  # fmt: skip
    guide = {"name": "guide", "type": "prismatic", "body_i": "arm", "body_j": "slider",
             "frame": {"origin": [0.4, 0, 0], "z_axis": [1, 0, 0], "x_axis": [0, 1, 0]},
             "travel_min": -0.3, "travel_max": 0.3, "travel_stop": stop}  # fmt: skip
    arm = {"name": "arm", "mass": 1.0, "inertia": [0.01, 0.02, 0.02], "position": [0.3, 0, 0]}
    slider = {"name": "slider", "mass": 0.5, "inertia": [0.001] * 3, "position": [0.4, 0, 0], "velocity": [0.4, 0, 0]}
    settings = {"t_end": 0.6, "step": 1e-3, "output_step": 0.05, "integrator": "rk4", "accuracy": False}
    return {"gravity": [0, -9.81, 0], "bodies": [arm, slider], "joints": [pivot, guide], "settings": settings}


def test_compiled_gaps_are_the_coordinates_distance_to_their_limits():
    """At every sample of a swinging run: gap = q - q_min or q_max - q and its rate +-dq/dt, q and
    dq/dt from joints.csv's coordinates (Results), for an angle and a displacement."""
    res = simulate(from_dict(swinging_model({"model": "rigid"})))
    monitor = StopMonitor(res.system, res.settings, rigid_stops(res.system))
    nb = res.system.nb
    for k in range(len(res.t)):
        Y = res.Y[k]
        gaps, rates = monitor._gaps(Y)
        for s, gap, rate in zip(monitor.stops, gaps, rates):
            names = res.joint_coordinate_names(s.joint)
            c = names.index(s.coordinate)
            q, qdot = res.joint_coordinate(s.joint)[k, c], res.joint_coordinate_rate(s.joint)[k, c]
            assert gap == pytest.approx(s.sign * (q - s.limit), abs=1e-12)
            assert rate == pytest.approx(s.sign * qdot, abs=1e-12)
        assert nb == 2


def turned_about_z(q: np.ndarray, angle: float) -> np.ndarray:
    """The quaternion q turned by ``angle`` [rad] about the global z axis."""
    c, s = math.cos(angle / 2), math.sin(angle / 2)
    w, x, y, z = q
    return np.array([c * w - s * z, c * x - s * y, c * y + s * x, c * z + s * w])


@pytest.mark.parametrize("angle", [-3.0, -2.5001, -2.4999, 0.0, 2.4999, 2.5001, 3.0])
def test_compliant_stop_is_idle_exactly_inside_its_limits(angle):
    """The pendulum turned to ``angle``: the stop element is idle inside [-2.5, 2.5] rad and not beyond;
    with viscous damping or a rigid stop's (the default) infinite limits as documented."""
    compliant = {"model": "compliant"}
    for stop, damping, idle in ((compliant, 0.0, -2.5 <= angle <= 2.5), (compliant, 0.1, False), ({}, 0.0, True)):
        system = System(from_dict(swinging_model(stop, damping)))
        Y = system.Y0.copy()
        arm = system.body_index("arm")
        Y[7 * arm + 3 : 7 * arm + 7] = turned_about_z(Y[7 * arm + 3 : 7 * arm + 7], angle)
        S = system.static
        k = int(S.force_start[JOINT_STOP])  # the pivot's angle: the first stop element
        A = matrices(Y[: 7 * system.nb].reshape(system.nb, 7)[:, 3:])
        vecs = S.force_vecs.copy()
        sides = body_side(Y, system.nb, S.force_bi[k]), body_side(Y, system.nb, S.force_bj[k])
        p = tuple(float(x) for x in S.force_par[k])
        assert force_element_idle(JOINT_STOP, k, A, *sides, vecs, p, int(S.force_flag[k])) == idle


def chain_model(limits: str | None, integrator: str) -> dict:
    """Three 0.3 m rods on z revolutes released horizontal; ``limits`` ('compliant', 'rigid' or None):
    angle limits of +-3 rad on every joint, which no joint reaches in the 0.05 s run."""
    bodies, joints = [], []
    for k in range(3):
        bodies.append(
            {"name": f"r{k}", "mass": 1.0, "inertia": [1e-4, 7.5e-3, 7.5e-3], "position": [0.3 * k + 0.15, 0, 0]}
        )
        joint = {"name": f"j{k}", "type": "revolute", "body_i": "ground" if k == 0 else f"r{k - 1}", "body_j": f"r{k}",
                 "frame": {"origin": [0.3 * k, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}}  # fmt: skip
        if limits:
            joint.update(angle_min=-3.0, angle_max=3.0, angle_stop={"model": limits})
        joints.append(joint)
    settings = {"t_end": 0.05, "step": 1e-3, "output_step": 0.01, "integrator": integrator, "accuracy": False}
    return {"gravity": [0, -9.81, 0], "bodies": bodies, "joints": joints, "settings": settings}


@pytest.mark.parametrize("integrator", ["rk4", "bdf", "galpha", "cros"])
def test_limits_never_reached_leave_the_run_unchanged(integrator, monkeypatch):
    """Idle stops add nothing: the same states to the last bit as without limits, compliant or rigid."""
    run = importlib.import_module("MBDWorkbench.solver.simulate")  # the module (the package exports the function)
    monkeypatch.setattr(run, "CANCEL_CHECK_S", math.inf)  # no output interval split on a loaded machine
    plain = simulate(from_dict(chain_model(None, integrator)))
    for stop in ("compliant", "rigid"):
        res = simulate(from_dict(chain_model(stop, integrator)))
        assert res.status == "completed" and np.array_equal(res.Y, plain.Y)
    assert np.abs(plain.Y[-1] - plain.Y[0]).max() > 1e-3  # it moved


def jacobian_triplets(system: System, Y: np.ndarray) -> tuple[tuple, tuple]:
    """The (rows, columns, values) of the K and D triplets of the index-3 integrators at (0, Y), no load
    in the joints (lam = 0)."""
    S, W, m = system.static, system.work, system.m
    nK, nD = ik.triplet_capacity(S, m)
    Kb = (np.zeros(nK, np.int64), np.zeros(nK, np.int64), np.zeros(nK))
    Db = (np.zeros(nD, np.int64), np.zeros(nD, np.int64), np.zeros(nD))
    nK, nD = ik.force_jacobians(0.0, Y, S, W, np.zeros(m), np.ones(m, bool), *Kb, *Db)
    return tuple(a[:nK] for a in Kb), tuple(a[:nD] for a in Db)


def test_stops_of_angles_keep_the_pattern_of_the_joints():
    """An angle's stop couples only the rotations and angular velocities of its joint's bodies, which
    the joint's rows couple already: idle, its triplets add no new entry to the iteration matrix's
    pattern (which would widen its band)."""
    plain = System(from_dict(chain_model(None, "galpha")))
    (Kr, Kc, _), (Dr, Dc, _) = jacobian_triplets(plain, plain.Y0)
    for stop in ("compliant", "rigid"):
        system = System(from_dict(chain_model(stop, "galpha")))
        (kr, kc, kv), (dr, dc, dv) = jacobian_triplets(system, system.Y0)
        assert len(kr) > len(Kr) and len(dr) > len(Dr)  # the stops' blocks are there
        assert not kv.any() and not dv[len(Dr) :].any()  # idle: zeros (the gyroscopic blocks come last)
        pattern = set(zip(Kr.tolist(), Kc.tolist())) | set(zip(Dr.tolist(), Dc.tolist()))
        assert set(zip(kr.tolist(), kc.tolist())) | set(zip(dr.tolist(), dc.tolist())) <= pattern


def test_a_stop_writes_the_same_triplets_idle_and_pushing_and_they_are_its_derivatives():
    """The pendulum's angle stop, inside its limits (idle: zeros) and 0.1 rad past its maximum (pushing),
    with the slider's stop idle: the same triplet indices in the same order; pushing, K and D equal
    central differences of the generalized forces (in the local increments of the index-3 integrators)."""
    system = System(from_dict(swinging_model({"model": "compliant"})))
    S, W, nb, n6 = system.static, system.work, system.nb, 6 * system.nb
    Y0 = system.Y0.copy()
    arm = system.body_index("arm")
    Y = Y0.copy()
    Y[7 * arm + 3 : 7 * arm + 7] = turned_about_z(Y[7 * arm + 3 : 7 * arm + 7], 2.6)
    idle, pushing = jacobian_triplets(system, Y0), jacobian_triplets(system, Y)
    for a, b in zip(idle, pushing):
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    K, D = np.zeros((n6, n6)), np.zeros((n6, n6))
    np.add.at(K, pushing[0][:2], pushing[0][2])
    np.add.at(D, pushing[1][:2], pushing[1][2])

    def forces(Yx):
        kernels.update_rotations(S, Yx, W.A)
        kernels.forces(0.0, Yx, S, W, W.Q)
        return W.Q.copy()

    eps, Kfd, Dfd = 1e-6, np.zeros_like(K), np.zeros_like(D)
    for c in range(n6):
        e = np.zeros(n6)
        e[c] = eps
        moved = [np.empty_like(Y), np.empty_like(Y)]
        ik.apply_increment(nb, Y, e, moved[0])
        ik.apply_increment(nb, Y, -e, moved[1])
        Kfd[:, c] = (forces(moved[0]) - forces(moved[1])) / (2 * eps)
        Yp, Ym = Y.copy(), Y.copy()
        Yp[7 * nb + c] += eps
        Ym[7 * nb + c] -= eps
        Dfd[:, c] = (forces(Yp) - forces(Ym)) / (2 * eps)
    for exact, fd in ((K, Kfd), (D, Dfd)):  # (D and Dfd: with the gyroscopic terms)
        assert np.abs(exact).max() > 0.1
        assert np.abs(exact - fd).max() < 1e-6 * np.abs(exact).max()
