"""Force elements against closed-form solutions: point forces and torques (global and
body frame, constant and time-dependent), translational and rotational spring-dampers."""

import numpy as np

from MBDWorkbench.solver import from_dict, simulate


def free_body(forces, **body):
    b = {"name": "b", "mass": 2.0, "inertia": [0.1, 0.2, 0.25]}
    b.update(body)
    return from_dict(
        {
            "gravity": [0, 0, 0],
            "bodies": [b],
            "forces": forces,
            "settings": {"t_end": 2.0, "step": 1e-3, "output_step": 0.01},
        }
    )


def test_time_dependent_global_force():
    res = simulate(free_body([{"name": "f", "type": "point_force", "body": "b", "force": ["3*sin(t)", 0, 1.0]}]))
    t = res.t
    v = res.velocity("b")
    np.testing.assert_allclose(v[:, 0], 3 * (1 - np.cos(t)) / 2.0, atol=1e-9)
    np.testing.assert_allclose(res.position("b")[:, 2], t**2 / 4.0, atol=1e-9)
    # work done by the load equals the kinetic energy gained
    e = res.energy()
    np.testing.assert_allclose(e["work_nonconservative"], e["kinetic"], atol=1e-6)


def test_body_frame_torque_about_principal_axis():
    res = simulate(free_body([{"name": "m", "type": "torque", "body": "b", "torque": [0, 0, 0.5], "frame": "body"}]))
    np.testing.assert_allclose(res.angular_velocity("b")[:, 2], 0.5 * res.t / 0.25, atol=1e-9)


def test_off_centre_force_produces_torque():
    """A global force F along y at a point r = (0.5, 0, 0) from the CoG: the body starts
    with angular acceleration r x F / Izz about z (checked early, small rotation)."""
    res = simulate(
        free_body([{"name": "f", "type": "point_force", "body": "b", "point": [0.5, 0, 0], "force": [0, 1.0, 0]}]),
        t_end=0.01,
        output_step=0.001,
    )
    np.testing.assert_allclose(res.angular_velocity("b")[:, 2], 0.5 * res.t / 0.25, rtol=1e-6, atol=1e-12)


def test_body_frame_force_rotates_with_the_body():
    """A body spinning at w about z with a body-frame force along its x axis: the CoG
    moves on a circle, v = F/(m w) (sin wt, 1 - cos wt)."""
    w, F, m = 3.0, 0.6, 2.0
    res = simulate(
        free_body(
            [{"name": "f", "type": "point_force", "body": "b", "force": [F, 0, 0], "frame": "body"}],
            angular_velocity=[0, 0, w],
        )
    )
    t = res.t
    v = res.velocity("b")
    np.testing.assert_allclose(v[:, 0], F / (m * w) * np.sin(w * t), atol=1e-8)
    np.testing.assert_allclose(v[:, 1], F / (m * w) * (1 - np.cos(w * t)), atol=1e-8)


def test_translational_spring_damper_oscillator():
    k, c, m, x0 = 50.0, 2.0, 2.0, 0.1
    model = free_body(
        [
            {
                "name": "s",
                "type": "spring_damper",
                "body_i": "ground",
                "point_i": [-1, 0, 0],
                "body_j": "b",
                "point_j": [x0, 0, 0],
                "stiffness": k,
                "damping": c,
                "free_length": 1.0,
            }
        ],
        position=[x0, 0, 0],
    )
    res = simulate(model)
    wn, zeta = np.sqrt(k / m), c / (2 * np.sqrt(k * m))
    wd = wn * np.sqrt(1 - zeta**2)
    t = res.t
    x = x0 * np.exp(-zeta * wn * t) * (np.cos(wd * t) + zeta * wn / wd * np.sin(wd * t))
    np.testing.assert_allclose(res.position("b")[:, 0], x, atol=1e-9)
    e = res.energy()
    assert np.abs(e["balance"]).max() < 1e-6 * e["total"][0]


def test_rotational_spring_damper_on_revolute():
    """A disc on a revolute about z with a torsional spring-damper, started with an
    angular velocity: theta(t) of a damped oscillator with I = Izz."""
    k, c, I, w0 = 4.0, 0.05, 0.25, 1.5
    model = from_dict(
        {
            "gravity": [0, 0, -9.81],
            "bodies": [{"name": "disc", "mass": 2.0, "inertia": [0.14, 0.14, I], "angular_velocity": [0, 0, w0]}],
            "joints": [
                {
                    "name": "axle",
                    "type": "revolute",
                    "body_i": "ground",
                    "body_j": "disc",
                    "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]},
                }
            ],
            "forces": [
                {"name": "torsion", "type": "rotational_spring_damper", "joint": "axle", "stiffness": k, "damping": c}
            ],
            "settings": {"t_end": 3.0, "step": 1e-3, "output_step": 0.01},
        }
    )
    res = simulate(model)
    wn, zeta = np.sqrt(k / I), c / (2 * np.sqrt(k * I))
    wd = wn * np.sqrt(1 - zeta**2)
    theta = w0 / wd * np.exp(-zeta * wn * res.t) * np.sin(wd * res.t)
    R = res.rotation("disc")
    np.testing.assert_allclose(np.arctan2(R[:, 1, 0], R[:, 0, 0]), theta, atol=1e-8)
    # the axle carries the weight and no moment about its axis
    F, T = res.reaction("axle")
    np.testing.assert_allclose(F[:, 2], 2.0 * 9.81, rtol=1e-9)
    e = res.energy()
    assert e["work_nonconservative"][-1] < 0
    assert np.abs(e["balance"]).max() < 1e-5 * e["total"][0]
