"""The cheap paths of limits that are not reached (issue 32, item 10): the compiled gap function of
the rigid stops (numerics/stop_gaps.py) against the joint coordinates and rates of the run's own
results, and the idle test of a compliant stop (numerics/forces.joint_stop_idle) against the
stop's law: idle exactly where the law gives no effort."""

import math

import numpy as np
import pytest

from MBDWorkbench.solver import from_dict, simulate
from MBDWorkbench.solver.events import StopMonitor, rigid_stops
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
