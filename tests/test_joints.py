"""Every joint and driver row: Jacobian against central finite differences of Phi along
random motions, gamma against the numerical second time derivative, at random
(unassembled) configurations, with either side moving or ground."""

import numpy as np
import pytest

from MBDWorkbench.solver import from_dict
from MBDWorkbench.solver.model.catalog import JOINTS
from MBDWorkbench.solver.numerics.quaternion import rotate_by_body_vector
from MBDWorkbench.solver.system.system import System

rng = np.random.default_rng(7)


def _rand_frame():
    z = rng.normal(size=3)
    x = rng.normal(size=3)
    return {"origin": list(rng.normal(size=3) * 0.3), "z_axis": list(z), "x_axis": list(x)}


def _rand_body(name):
    q = rng.normal(size=4)
    inertia = [[0.3, 0.01, 0.02], [0.01, 0.2, 0.0], [0.02, 0.0, 0.25]]
    return {
        "name": name,
        "mass": 1.0 + rng.random(),
        "inertia": inertia,
        "position": list(rng.normal(size=3)),
        "orientation": list(q / np.linalg.norm(q)),
    }


def _model(jtype, ground_side=None, driver=None):
    bodies = [_rand_body("a"), _rand_body("b")]
    bi, bj = "a", "b"
    if ground_side == "i":
        bi = "ground"
    elif ground_side == "j":
        bj = "ground"
    d = {
        "bodies": bodies,
        "joints": [
            {
                "name": "J",
                "type": jtype,
                "body_i": bi,
                "body_j": bj,
                "frame_i": _rand_frame(),
                "frame_j": _rand_frame(),
                **{k: 0.02 + 0.1 * rng.random() for k in JOINTS[jtype].parameters},  # coupler radii, pitch [m]
            }
        ],
    }
    if driver:
        d["drivers"] = [{"name": "D", "type": driver, "joint": "J", "profile": "0.3*sin(2*t) + 0.1*t^2"}]
    return from_dict(d)


def _move(system, Y, vel, eps):
    """Pose after time eps with constant global linear and body-frame angular velocity."""
    Y = Y.copy()
    for b in range(system.nb):
        Y[7 * b : 7 * b + 3] += eps * vel[6 * b : 6 * b + 3]
        q = Y[7 * b + 3 : 7 * b + 7].copy()
        rotate_by_body_vector(q, eps * vel[6 * b + 3 : 6 * b + 6], Y[7 * b + 3 : 7 * b + 7])
    return Y


def _check(model, t=0.37):
    system = System(model)
    Y = system.Y0.copy()
    vel = rng.normal(size=6 * system.nb)
    Y[7 * system.nb :] = vel
    phi0, J, gamma, rate = system.constraint_jacobian(t, Y)
    h = 1e-4
    phis = [system.constraint_jacobian(t + k * h, _move(system, Y, vel, k * h))[0] for k in (-2, -1, 1, 2)]
    d1 = (phis[0] - 8 * phis[1] + 8 * phis[2] - phis[3]) / (12 * h)
    d2 = (phis[1] - 2 * phi0 + phis[2]) / h**2
    scale = 1.0 + np.abs(d1).max()
    np.testing.assert_allclose(rate, d1, atol=1e-7 * scale)
    np.testing.assert_allclose(-gamma, d2, atol=2e-5 * (1 + np.abs(d2).max()))
    return system, J, vel, rate


@pytest.mark.parametrize("jtype", sorted(JOINTS))
@pytest.mark.parametrize("ground_side", [None, "i", "j"])
def test_joint_rows_against_finite_differences(jtype, ground_side):
    _check(_model(jtype, ground_side))


@pytest.mark.parametrize(
    "jtype,driver",
    [("revolute", "rotational"), ("cylindrical", "rotational"), ("prismatic", "linear"), ("cylindrical", "linear")],
)
@pytest.mark.parametrize("ground_side", [None, "i"])
def test_driver_rows_against_finite_differences(jtype, driver, ground_side):
    system, J, vel, rate = _check(_model(jtype, ground_side, driver))
    # the driver row has an explicit time derivative -f'(t)
    t = 0.37
    fdot = 0.6 * np.cos(2 * t) + 0.2 * t
    assert rate[-1] - J[-1] @ vel == pytest.approx(-fdot, abs=1e-12)


def test_jacobian_columns_are_velocity_directions():
    """Moving one body along one velocity component changes Phi by that column only."""
    system = System(_model("revolute"))
    Y = system.Y0.copy()
    _, J, _, _ = system.constraint_jacobian(0.0, Y)
    for c in range(12):
        e = np.zeros(12)
        e[c] = 1.0
        h = 1e-6
        dp = (
            system.constraint_jacobian(0.0, _move(system, Y, e, h))[0]
            - system.constraint_jacobian(0.0, _move(system, Y, e, -h))[0]
        ) / (2 * h)
        np.testing.assert_allclose(J[:, c], dp, atol=1e-7)


def test_row_counts_match_joint_freedoms():
    removed = {
        "spherical": 3,
        "revolute": 5,
        "prismatic": 5,
        "cylindrical": 4,
        "planar": 3,
        "fixed": 6,
        "universal": 4,
        "distance": 1,
        "parallel": 2,
        "angle": 1,
        "perpendicular": 1,
        "point_in_plane": 1,
        "point_on_line": 2,
        "line_in_plane": 2,
        "point_line_distance": 1,
        "line_line_distance": 3,
        "gear": 1,
        "belt": 1,
        "rack_pinion": 1,
        "screw": 1,
    }
    assert {k: v.equations for k, v in JOINTS.items()} == removed
