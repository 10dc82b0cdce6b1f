"""Coupler joints (gear, belt, rack_pinion, screw) against closed forms written here.

Each mechanism turns on fixed revolutes / slides on fixed prismatic joints, so its motion has
one degree of freedom and closed-form constant accelerations under a constant torque:

- gear pair (radii r1, r2, inertias J1, J2 about the axes, torque T on gear 1):
  alpha1 = T / (J1 + J2 (r1/r2)^2), omega2 = -(r1/r2) omega1, tooth force J2 alpha2 / r2;
- belt: the same with omega2 = +(r1/r2) omega1;
- rack and pinion (pinion radius r, inertia Jp, rack mass m): alpha = T / (Jp + m r^2),
  rack speed = r omega, force on the rack m r alpha;
- screw (pitch p, screw inertia Js, nut mass m): the nut advances p / 2 pi per radian; with an
  axial load F = 2 pi T / p against the nut the lossless screw stays at rest (thrust = F).

The gears turn several times with ratio 2.5 (the angles of the coupler rows are unwrapped
over turns), with rk4 (index-1) and galpha (index-3).
"""

import math

import numpy as np
import pytest

from MBDWorkbench.solver import from_dict, simulate
from MBDWorkbench.solver.errors import ModelError

R1, R2 = 0.05, 0.02  # pitch radii [m]: ratio 2.5
J1, J2 = 0.01, 0.004  # inertias about the gear axes [kg m^2]
TURNS = 3.0  # turns of gear 1 in T_END
T_END = 1.0
ALPHA1 = 2 * math.pi * TURNS * 2 / T_END**2  # angular acceleration of gear 1 [rad/s^2]


def _disc(name, position, j_axis, mass=1.0, axis=2):
    inertia = np.diag([0.6 * j_axis] * 3)
    inertia[axis, axis] = j_axis
    return {"name": name, "mass": mass, "inertia": inertia.tolist(), "position": list(position)}


def _revolute(name, body, origin, axis=(0, 0, 1)):
    return {
        "name": name,
        "type": "revolute",
        "body_i": "ground",
        "body_j": body,
        "frame": {"origin": list(origin), "z_axis": list(axis)},
    }


def _settings(integrator):
    if integrator == "rk4":
        return {"t_end": T_END, "step": 1e-3, "output_step": 0.01, "integrator": "rk4"}
    return {"t_end": T_END, "step": 1e-3, "output_step": 0.01, "integrator": "galpha", "rtol": 1e-8, "atol": 1e-10}


def gear_model(jtype, integrator, torque):
    """Gear 1 about global z at the origin, gear 2 about global z at (R1 + R2, 0, 0)."""
    frame = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
    return from_dict(
        {
            "gravity": [0, 0, 0],
            "bodies": [_disc("g1", (0, 0, 0), J1), _disc("g2", (R1 + R2, 0, 0), J2)],
            "joints": [
                _revolute("r1", "g1", (0, 0, 0)),
                _revolute("r2", "g2", (R1 + R2, 0, 0)),
                {"name": "mesh", "type": jtype, "body_i": "g1", "body_j": "g2", "frame_i": frame, "frame_j": frame}
                | {"radius_i": R1, "radius_j": R2},
            ],
            "forces": [{"name": "T", "type": "torque", "body": "g1", "torque": [0, 0, torque]}],
            "settings": _settings(integrator),
        }
    )


def _turn_angle(res, body):
    """Rotation [rad] of a body about global z, unwrapped over the samples."""
    A = res.rotation(body)
    return np.unwrap(np.arctan2(A[:, 1, 0], A[:, 0, 0]))


@pytest.mark.parametrize("integrator", ["rk4", "galpha"])
@pytest.mark.parametrize("jtype,sign", [("gear", -1.0), ("belt", 1.0)])
def test_gear_pair_speed_ratio_and_tooth_force_over_turns(jtype, sign, integrator):
    ratio = R1 / R2
    torque = ALPHA1 * (J1 + J2 * ratio**2)
    res = simulate(gear_model(jtype, integrator, torque))
    t = res.t
    w1, w2 = res.angular_velocity("g1")[:, 2], res.angular_velocity("g2")[:, 2]
    tol = 1e-6 if integrator == "rk4" else 1e-5
    np.testing.assert_allclose(w1, ALPHA1 * t, atol=tol * ALPHA1)
    np.testing.assert_allclose(w2, sign * ratio * w1, atol=tol * ALPHA1 * ratio)
    th1, th2 = _turn_angle(res, "g1"), _turn_angle(res, "g2")
    assert th1[-1] == pytest.approx(2 * math.pi * TURNS, rel=1e-5)  # several turns, ratio 2.5
    np.testing.assert_allclose(th2, sign * ratio * th1, atol=1e-6 * abs(th2[-1]))
    # tooth force: the multiplier; the load on gear 2 about its axis is -sign r2 lambda = J2 alpha2
    alpha2 = sign * ratio * ALPHA1
    expected = -sign * J2 * alpha2 / R2
    np.testing.assert_allclose(res.coupling_force("mesh")[1:], expected, rtol=1e-4)
    assert abs(expected) == pytest.approx((torque - J1 * ALPHA1) / R1, rel=1e-12)  # torque / pitch radius, net of J1
    assert max(res.max_violation()) < 1e-6


def rack_model(integrator, torque, radius=0.03, mass=2.0, j_pinion=0.002):
    """Pinion about global z at the origin; rack along global x at y = -radius."""
    rack_frame = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
    pinion_frame = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
    return from_dict(
        {
            "gravity": [0, 0, 0],
            "bodies": [_disc("pinion", (0, 0, 0), j_pinion), _disc("rack", (0, -radius, 0), 0.01, mass=mass)],
            "joints": [
                _revolute("pivot", "pinion", (0, 0, 0)),
                {
                    "name": "slide",
                    "type": "prismatic",
                    "body_i": "ground",
                    "body_j": "rack",
                    "frame": {"origin": [0, -radius, 0], "z_axis": [1, 0, 0]},
                },
                {
                    "name": "mesh",
                    "type": "rack_pinion",
                    "body_i": "rack",
                    "body_j": "pinion",
                    "frame_i": rack_frame,
                    "frame_j": pinion_frame,
                    "radius": radius,
                },
            ],
            "forces": [{"name": "T", "type": "torque", "body": "pinion", "torque": [0, 0, torque]}],
            "settings": _settings(integrator),
        }
    )


@pytest.mark.parametrize("integrator", ["rk4", "galpha"])
def test_rack_speed_is_radius_times_pinion_speed(integrator):
    r, m, jp, torque = 0.03, 2.0, 0.002, 0.4
    res = simulate(rack_model(integrator, torque, r, m, jp))
    alpha = torque / (jp + m * r**2)
    w = res.angular_velocity("pinion")[:, 2]
    v = res.velocity("rack")[:, 0]
    np.testing.assert_allclose(w, alpha * res.t, atol=1e-5 * alpha)
    np.testing.assert_allclose(v, r * w, atol=1e-6 * r * alpha)
    x = res.position("rack")[:, 0]
    np.testing.assert_allclose(x, r * _turn_angle(res, "pinion"), atol=1e-7)
    np.testing.assert_allclose(res.coupling_force("mesh")[1:], m * r * alpha, rtol=1e-4)  # force on the rack


def screw_model(integrator, torque, thrust, pitch=0.004, mass=0.5, j_screw=1e-4):
    """Screw about global z at the origin; nut sliding along global z; axial force on the nut."""
    frame = {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
    return from_dict(
        {
            "gravity": [0, 0, 0],
            "bodies": [_disc("screw", (0, 0, 0), j_screw), _disc("nut", (0, 0, 0.05), 1e-4, mass=mass)],
            "joints": [
                _revolute("bearing", "screw", (0, 0, 0)),
                {
                    "name": "guide",
                    "type": "prismatic",
                    "body_i": "ground",
                    "body_j": "nut",
                    "frame": {"origin": [0, 0, 0.05], "z_axis": [0, 0, 1]},
                },
                {
                    "name": "thread",
                    "type": "screw",
                    "body_i": "nut",
                    "body_j": "screw",
                    "frame_i": frame,
                    "frame_j": frame,
                    "pitch": pitch,
                },
            ],
            "forces": [
                {"name": "T", "type": "torque", "body": "screw", "torque": [0, 0, torque]},
                {"name": "F", "type": "point_force", "body": "nut", "force": [0, 0, thrust]},
            ],
            "settings": _settings(integrator) | {"t_end": 0.2},
        }
    )


@pytest.mark.parametrize("integrator", ["rk4", "galpha"])
def test_screw_thrust_is_two_pi_torque_over_pitch(integrator):
    """A torque T on the screw advances the nut by -p theta / 2 pi; the axial force 2 pi T / p
    along +z on the nut holds it: nothing moves and the row carries the thrust."""
    pitch, torque = 0.004, 0.3
    thrust = 2 * math.pi * torque / pitch
    res = simulate(screw_model(integrator, torque, thrust, pitch))
    assert np.abs(res.velocity("nut")).max() < 1e-9
    assert np.abs(res.angular_velocity("screw")).max() < 1e-9
    np.testing.assert_allclose(np.abs(res.coupling_force("thread")), thrust, rtol=1e-9)


def test_screw_advance_per_turn_under_torque():
    """Without the axial force: the nut advances -pitch / 2 pi per radian of the screw, and
    alpha = T / (Js + m (p / 2 pi)^2)."""
    pitch, m, js, torque = 0.004, 0.5, 1e-4, 0.01
    res = simulate(screw_model("rk4", torque, 0.0, pitch, m, js))
    lead = pitch / (2 * math.pi)
    alpha = torque / (js + m * lead**2)
    np.testing.assert_allclose(res.angular_velocity("screw")[:, 2], alpha * res.t, atol=1e-6 * alpha)
    z = res.position("nut")[:, 2] - 0.05
    np.testing.assert_allclose(z, -lead * _turn_angle(res, "screw"), atol=1e-9)
    np.testing.assert_allclose(np.abs(res.coupling_force("thread")[1:]), m * lead * alpha, rtol=1e-4)


@pytest.mark.parametrize(
    "change,message",
    [
        ({"radius_j": None}, "give 'radius_j'"),
        ({"radius_i": -0.01}, "must be a positive number"),
        ({"pitch": 0.01}, "only screw joints take 'pitch'"),
    ],
)
def test_coupler_parameters_are_checked(change, message):
    d = gear_model("gear", "rk4", 1.0).to_dict()
    mesh = d["joints"][2]
    for k, v in change.items():
        if v is None:
            mesh.pop(k)
        else:
            mesh[k] = v
    with pytest.raises(ModelError, match=message) as err:
        from_dict(d)
    assert "joints[2]" in str(err.value)


def test_gear_needs_centres_apart():
    d = gear_model("gear", "rk4", 1.0).to_dict()
    d["joints"][2]["frame_j"]["origin"] = [-(R1 + R2), 0, 0.01]  # gear 2's frame at gear 1's centre
    with pytest.raises(ModelError, match="apart across the z axes"):
        from_dict(d)


def test_coupling_force_is_written_to_joints_csv_and_the_report(tmp_path):
    """joints.csv carries the screw's thrust (2 pi T / p, lossless) as ``thread.coupling_force [N]``;
    read back it is the same, and the report lists its peak under "Coupling loads"."""
    from MBDWorkbench.report.data import load_results_dir
    from MBDWorkbench.report.derived import coupling_peaks
    from MBDWorkbench.report.document import coupling_blocks
    from MBDWorkbench.solver.results.files import coupling_header, read_results

    pitch, torque = 0.004, 0.3
    thrust = 2 * math.pi * torque / pitch
    res = simulate(screw_model("rk4", torque, thrust, pitch))
    res.write(str(tmp_path))
    joints = read_results(tmp_path).tables["joints.csv"]
    np.testing.assert_allclose(np.abs(joints[coupling_header("thread")]), thrust, rtol=1e-9)
    assert [h for h in joints if "coupling_force" in h] == [coupling_header("thread")]  # couplers only

    data = load_results_dir(tmp_path)
    assert len(data.joint_names) > 1 and [j for j in data.joint_names if data.is_coupler(j)] == ["thread"]
    (peak,) = coupling_peaks(data)
    assert peak["joint"] == "thread" and abs(peak["force"]) == pytest.approx(thrust, rel=1e-9)
    (heading, table) = coupling_blocks([peak])
    assert heading.text == "Coupling loads" and table.rows[0][0] == "thread"
