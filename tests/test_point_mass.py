"""Point masses: a bob on a spherical joint at the tip of a rod body is the compound pendulum with
m L^2 added; a bead on a straight wire and a mass on an inclined plane (joints to the ground
whose angular equations hold trivially) follow their closed forms; joints, drivers and forces
that would turn a point mass are refused; the JSON form round-trips."""

import numpy as np
import pytest
from oracles import pendulum as pend_oracle

from MBDWorkbench.solver import ModelError, from_dict, simulate
from MBDWorkbench.solver.analyses.kinematics import kinematic_analysis, static_equilibrium
from MBDWorkbench.solver.analyses.mobility import grubler_count, mobility
from MBDWorkbench.solver.model.geometry import joint_rows
from MBDWorkbench.solver.system.system import System

G = 9.81
ROD_M, ROD_L, BOB_M = 1.5, 0.9, 0.6  # rod body [kg, m], bob [kg]


def crossings(t: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Times where x changes sign (linear interpolation)."""
    k = np.nonzero(np.sign(x[:-1]) != np.sign(x[1:]))[0]
    return t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])


def rod_and_bob(**settings) -> dict:
    """A uniform rod (x axis) pivoted at the origin by a revolute about y, a point mass on a
    spherical joint at its tip; released from the horizontal, gravity -z."""
    inertia = ROD_M * ROD_L**2 / 12
    return {
        "gravity": [0, 0, -G],
        "bodies": [
            {"name": "rod", "mass": ROD_M, "inertia": [1e-4, inertia, inertia], "position": [ROD_L / 2, 0, 0]},
            {"name": "bob", "mass": BOB_M, "point_mass": True, "position": [ROD_L, 0, 0]},
        ],
        "joints": [
            {
                "name": "pivot",
                "type": "revolute",
                "body_i": "ground",
                "body_j": "rod",
                "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0]},
            },
            {"name": "ball", "type": "spherical", "body_i": "rod", "body_j": "bob", "frame": {"origin": [ROD_L, 0, 0]}},
        ],
        "settings": {"t_end": 1.6, "output_step": 1e-3, **settings},
    }


def compound_pendulum() -> dict:
    """Oracle parameters of the rod with the bob: total mass, pivot to CoG [m], inertia about the CoG."""
    pivot_inertia = ROD_M * ROD_L**2 / 3 + BOB_M * ROD_L**2  # rod about its end + the bob's m L^2
    mass = ROD_M + BOB_M
    arm = (ROD_M * ROD_L / 2 + BOB_M * ROD_L) / mass  # pivot to the common centre of gravity
    return dict(m=mass, L=arm, g=G, Jc=pivot_inertia - mass * arm**2)


@pytest.mark.parametrize("integrator,settings", [("rk4", dict(step=1e-3)), ("radau", dict(rtol=1e-10, atol=1e-12))])
def test_bob_on_a_ball_joint_adds_m_L2_to_the_compound_pendulum(integrator, settings):
    res = simulate(from_dict(rod_and_bob(integrator=integrator, **settings)))
    exact = pend_oracle.pendulum_period(np.pi / 2, **compound_pendulum())
    tc = crossings(res.t, res.position("bob")[:, 0])
    assert 2 * (tc[1] - tc[0]) == pytest.approx(exact, rel=1e-6)
    np.testing.assert_allclose(res.position("bob"), res.point("rod", [ROD_L / 2, 0, 0]), atol=1e-8)
    assert np.all(res.angular_velocity("bob") == 0.0)


@pytest.mark.parametrize("integrator", ["galpha", "cros"])
def test_bob_on_a_ball_joint_with_the_index3_integrators(integrator):
    """A short run (the index-3 steps cost milliseconds each): the swing angle against the
    minimal-coordinate ODE of the compound pendulum."""
    res = simulate(from_dict(rod_and_bob(integrator=integrator, t_end=0.4, step=5e-4, rtol=1e-8, atol=1e-10)))
    bob = res.position("bob")
    theta = np.arctan2(bob[:, 0], -bob[:, 2])
    ref = pend_oracle.pendulum_ode_solution(np.pi / 2, res.t, **compound_pendulum())
    assert np.abs(theta - ref.theta).max() < 1e-5
    assert np.all(res.orientation("bob") == [1.0, 0.0, 0.0, 0.0])


def test_point_mass_degrees_of_freedom():
    model = from_dict(rod_and_bob())
    assert grubler_count(model) == (2, 8, 0, 1)
    rep = mobility(model)
    assert (rep.n_point_masses, rep.grubler, rep.mobility, rep.redundant) == (1, 1, 1, [])
    assert System(model).dofs == 9


# ----------------------------------------------------------------------------- joints to the ground
def inclined(jtype: str, alpha: float, **extra) -> dict:
    """A point mass at the origin on a wire (prismatic, z axis up the slope) or a plane (planar,
    z axis its normal) inclined by alpha about y, with the ground as body_i."""
    slope = [np.cos(alpha), 0.0, np.sin(alpha)]
    normal = [-np.sin(alpha), 0.0, np.cos(alpha)]
    return {
        "gravity": [0, 0, -G],
        "bodies": [{"name": "bead", "mass": 0.4, "point_mass": True, **extra}],
        "joints": [
            {
                "name": "guide",
                "type": jtype,
                "body_i": "ground",
                "body_j": "bead",
                "frame": {"origin": [0, 0, 0], "z_axis": slope if jtype == "prismatic" else normal},
            }
        ],
        "settings": {"t_end": 1.0, "output_step": 0.05},
    }


def test_bead_on_an_inclined_wire_slides_with_g_sin_alpha():
    alpha = 0.5
    model = from_dict(inclined("prismatic", alpha))
    assert joint_rows(model, model.joints[0]) == (2, 3)  # the two DP2 rows; the angular ones hold trivially
    assert grubler_count(model)[3] == 1
    res = simulate(model, integrator="rk4")
    s = -0.5 * G * np.sin(alpha) * res.t**2  # along the wire, up the slope positive
    np.testing.assert_allclose(res.position("bead"), np.outer(s, [np.cos(alpha), 0, np.sin(alpha)]), atol=1e-9)
    force, torque = res.reaction("guide", "global")  # the wire's normal force, m g cos(alpha)
    np.testing.assert_allclose(
        force, np.tile(0.4 * G * np.cos(alpha) * np.array([-np.sin(alpha), 0, np.cos(alpha)]), (len(res), 1)), atol=1e-9
    )


def test_driven_bead_needs_the_driver_force_of_newton():
    alpha = 0.3
    d = inclined("prismatic", alpha)
    d["drivers"] = [{"name": "push", "type": "linear", "joint": "guide", "profile": "0.5*t^2"}]
    res = simulate(from_dict(d), integrator="rk4")
    np.testing.assert_allclose(res.driver_effort("push"), 0.4 * (1.0 + G * np.sin(alpha)), rtol=1e-9)
    np.testing.assert_allclose(res.joint_coordinate("guide")[:, 0], 0.5 * res.t**2, atol=1e-9)


def test_driven_bead_kinematic_analysis_and_a_bead_on_a_spring_in_equilibrium():
    """The analyses solve on the point mass's 3 coordinates: inverse dynamics gives Newton's
    driver force, statics the spring stretch m g sin(alpha) / k (closed forms)."""
    alpha, m, k, l0 = 0.3, 0.4, 100.0, 0.5
    d = inclined("prismatic", alpha)
    d["drivers"] = [{"name": "push", "type": "linear", "joint": "guide", "profile": "0.5*t^2"}]
    res = kinematic_analysis(from_dict(d))
    np.testing.assert_allclose(res.driver_effort("push"), m * (1.0 + G * np.sin(alpha)), rtol=1e-9)
    d = inclined("prismatic", alpha)
    top = 1.0 / np.cos(alpha)  # a spring from the wire's point at 1/cos(alpha) up the slope
    slope = np.array([np.cos(alpha), 0.0, np.sin(alpha)])
    spring = dict(name="k", type="spring_damper", body_i="ground", point_i=list(top * slope), body_j="bead")
    d["forces"] = [dict(spring, point_j=[0, 0, 0], stiffness=k, free_length=l0)]
    res = static_equilibrium(from_dict(d))
    stretch = m * G * np.sin(alpha) / k
    np.testing.assert_allclose(res.position("bead")[0], (top - l0 - stretch) * slope, atol=1e-9)
    assert res.equilibrium["stable"]


def test_mass_on_an_inclined_plane_moves_with_the_tangential_gravity():
    alpha, v0 = 0.4, np.array([0.0, 1.5, 0.0])
    res = simulate(from_dict(inclined("planar", alpha, velocity=list(v0))), integrator="radau", rtol=1e-10, atol=1e-12)
    n = np.array([-np.sin(alpha), 0.0, np.cos(alpha)])
    g = np.array([0, 0, -G])
    a = g - np.dot(g, n) * n
    np.testing.assert_allclose(res.position("bead"), np.outer(res.t, v0) + 0.5 * np.outer(res.t**2, a), atol=1e-8)


def test_revolute_at_the_centre_pins_the_point_mass():
    d = inclined("revolute", 0.0)
    model = from_dict(d)
    assert joint_rows(model, model.joints[0]) == (0, 1, 2)
    res = simulate(model, integrator="galpha")
    np.testing.assert_allclose(res.position("bead"), 0.0, atol=1e-12)
    np.testing.assert_allclose(res.reaction("guide", "global")[0], np.tile([0, 0, 0.4 * G], (len(res), 1)), rtol=1e-9)


# ----------------------------------------------------------------------------- refusals
def refused(d: dict, path: str, *texts: str) -> None:
    with pytest.raises(ModelError) as e:
        from_dict(d)
    assert e.value.path == path, e.value
    for text in texts:
        assert text in e.value.message, e.value


def test_revolute_not_at_the_centre_is_refused():
    d = rod_and_bob()
    d["joints"][1]["type"] = "revolute"  # at the bob's centre, but its axes would turn the bob with the rod
    refused(d, "joints[1]", "joint 'ball' (revolute)", "would turn point mass 'bob'")
    d = inclined("revolute", 0.0, position=[0.2, 0.0, 0.0])
    refused(d, "joints[0]", "joint 'guide'", "point mass 'bead' 0.2 m from its centre")


def test_spherical_joint_off_the_centre_is_refused():
    d = rod_and_bob()
    d["joints"][1]["frame"]["origin"] = [ROD_L, 0, 0.05]
    refused(d, "joints[1]", "joint 'ball'", "attaches to point mass 'bob' 0.05 m from its centre")


def test_point_mass_as_the_plane_carrier_is_refused_with_a_hint():
    d = inclined("prismatic", 0.2)
    j = d["joints"][0]
    j["body_i"], j["body_j"] = "bead", "ground"
    refused(d, "joints[0]", "would turn point mass 'bead'", "make the point mass body_j")


@pytest.mark.parametrize(
    "edit,path,text",
    [
        (
            lambda d: d["bodies"][0].update(inertia=[1e-3, 1e-3, 1e-3]),
            "bodies[0].inertia",
            "a point mass has no inertia",
        ),
        (
            lambda d: d["bodies"][0].update(angular_velocity=[0, 0, 1.0]),
            "bodies[0].angular_velocity",
            "does not rotate",
        ),
        (lambda d: d["bodies"][0].update(point_mass="yes"), "bodies[0].point_mass", "must be true or false"),
        (
            lambda d: d.update(forces=[{"name": "twist", "type": "torque", "body": "bead", "torque": [0, 0, 1]}]),
            "forces[0].body",
            "a torque cannot act on point mass 'bead'",
        ),
        (
            lambda d: d.update(
                forces=[
                    {"name": "push", "type": "point_force", "body": "bead", "point": [0, 0.1, 0], "force": [1, 0, 0]}
                ]
            ),
            "forces[0].point",
            "force 'push': attaches to point mass 'bead' 0.1 m",
        ),
        (
            lambda d: d.update(
                forces=[
                    {
                        "name": "k",
                        "type": "spring_damper",
                        "body_i": "ground",
                        "point_i": [1, 0, 0],
                        "body_j": "bead",
                        "point_j": [0, 0, 0.3],
                        "stiffness": 10,
                    }
                ]
            ),
            "forces[0].point_j",
            "point mass 'bead' 0.3 m",
        ),
        (
            lambda d: d.update(drivers=[{"name": "spin", "type": "rotational", "joint": "guide", "profile": "t"}]),
            "drivers[0].joint",
            "would turn point mass 'bead'",
        ),
        (
            lambda d: d.update(
                forces=[{"name": "coil", "type": "rotational_spring_damper", "joint": "guide", "stiffness": 1}]
            ),
            "forces[0].joint",
            "joint 'guide' cannot turn point mass 'bead'",
        ),
    ],
)
def test_what_would_turn_a_point_mass_is_refused(edit, path, text):
    d = inclined("cylindrical", 0.0)
    edit(d)
    refused(d, path, text)


def test_accepted_loads_at_the_centre():
    """A force at the centre (global or body axes) and a spring to the centre act on the point mass."""
    d = inclined("planar", 0.0)  # the plane z = 0, the mass at the origin
    d["gravity"] = [0, 0, 0]
    d["forces"] = [
        {"name": "push", "type": "point_force", "body": "bead", "force": [0.8, 0, 0], "frame": "body"},
        {
            "name": "k",
            "type": "spring_damper",
            "body_i": "ground",
            "point_i": [0, 1, 0],
            "body_j": "bead",
            "point_j": [0, 0, 0],
            "stiffness": 0.0,
        },
    ]
    res = simulate(from_dict(d), integrator="rk4")
    np.testing.assert_allclose(res.position("bead")[:, 0], 0.5 * 2.0 * res.t**2, atol=1e-10)  # a = 0.8 N / 0.4 kg


def test_json_round_trip_and_python_api():
    model = from_dict(rod_and_bob())
    d = model.to_dict()
    bob, rod = d["bodies"][1], d["bodies"][0]
    assert bob["point_mass"] is True and "inertia" not in bob and "point_mass" not in rod
    again = from_dict(d)
    assert again.body("bob").point_mass and again.body("bob").inertia == [[0.0] * 3] * 3
    from MBDWorkbench.solver import Body

    api = Body("bob", 0.6, point_mass=True, position=[ROD_L, 0, 0])
    assert api.inertia == [[0.0] * 3] * 3
