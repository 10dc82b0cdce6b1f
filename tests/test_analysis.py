"""Mechanism analyses: mobility/redundancy, assembly, kinematic analysis, inverse
dynamics, statics, singular configurations, CLI. References are closed forms (tests/oracles),
independent computations (brentq, Grubler counts by hand) or the dynamic simulation."""

import json
import os
import sys

import numpy as np
import pytest
from scipy.optimize import brentq

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from MBDWorkbench.cli import main  # noqa: E402
from MBDWorkbench.solver import System, from_dict, load, simulate  # noqa: E402
from MBDWorkbench.solver.analyses.kinematics import (  # noqa: E402
    SingularConfigurationError,
    accelerations,
    inverse_dynamics,
    kinematic_analysis,
    static_equilibrium,
)
from MBDWorkbench.solver.analyses.mobility import (  # noqa: E402
    independent_rows,
    mobility,
    numerical_rank,
    singular_configurations,
)
from MBDWorkbench.solver.errors import AssemblyError, ModelError  # noqa: E402
from MBDWorkbench.solver.results.files import read_csv  # noqa: E402
from MBDWorkbench.solver.system.assembly import assemble, assemble_initial_state  # noqa: E402
from MBDWorkbench.solver.tolerances import (  # noqa: E402
    ASSEMBLY_TOL,
    PROJECTION_TOL,
    RANK_TOL,
    REDUNDANCY_TOL,
    REPORT_NEAR_SINGULAR,
    SAMPLED_RANK_TOL,
    SINGULAR_TOL,
)
from tests.oracles.four_bar import FourBar  # noqa: E402
from tests.oracles.slider_crank import SliderCrank  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FOUR_BAR = os.path.join(ROOT, "tests", "models", "four_bar_4r.json")
BRICARD = os.path.join(ROOT, "examples", "bricard.json")


# ----------------------------------------------------------------------------- models
def bar_inertia(u, J, Ia=1e-4):
    """Slender bar along u: J about the transverse axes, Ia about its own axis."""
    u = np.asarray(u, float) / np.linalg.norm(u)
    return (J * np.eye(3) + (Ia - J) * np.outer(u, u)).tolist()


def slider_crank_model(sc, theta0=0.3, profile="3*t + 0.4*sin(5*t)", t_end=1.0, output_step=0.05):
    """Spatial slider-crank matching the oracle (x-y plane, gravity -y): crank revolute
    about +z (the motor, ground = body_i), ball joint on the crank pin, universal at the
    slider pin (blocks the rod spin), prismatic slider along +x. Mobility 1."""
    B = sc.r * np.array([np.cos(theta0), np.sin(theta0), 0.0])
    C = np.array([float(sc.slider_position(theta0)), sc.e, 0.0])
    u = (C - B) / sc.l
    return from_dict(
        {
            "name": "slider_crank",
            "gravity": [0, -sc.g, 0],
            "bodies": [
                {
                    "name": "crank",
                    "mass": sc.mc,
                    "position": (sc.rc * B / sc.r).tolist(),
                    "inertia": bar_inertia(B, sc.Jc),
                },
                {
                    "name": "rod",
                    "mass": sc.mr,
                    "position": (B + sc.rod_com * (C - B)).tolist(),
                    "inertia": bar_inertia(u, sc.Jr),
                },
                {"name": "slider", "mass": sc.ms, "position": C.tolist(), "inertia": [1e-3, 1e-3, 1e-3]},
            ],
            "joints": [
                {
                    "name": "crank_pivot",
                    "type": "revolute",
                    "body_i": "ground",
                    "body_j": "crank",
                    "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1]},
                },
                {
                    "name": "crank_pin",
                    "type": "spherical",
                    "body_i": "crank",
                    "body_j": "rod",
                    "frame": {"origin": B.tolist()},
                },
                {
                    "name": "rod_pin",
                    "type": "universal",
                    "body_i": "slider",
                    "body_j": "rod",
                    "frame": {"origin": C.tolist(), "z_axis": u.tolist(), "x_axis": [0, 0, 1]},
                },
                {
                    "name": "slide",
                    "type": "prismatic",
                    "body_i": "ground",
                    "body_j": "slider",
                    "frame": {"origin": C.tolist(), "z_axis": [1, 0, 0]},
                },
            ],
            "drivers": [{"name": "motor", "type": "rotational", "joint": "crank_pivot", "profile": profile}],
            "settings": {"t_end": t_end, "step": 1e-4, "output_step": output_step, "integrator": "rk4"},
        }
    )


def spring_pendulum(m=2.0, L=0.8, k=20.0, g=9.81):
    """Bob on a revolute about +y at the origin, starting horizontal (+x), with a
    torsional spring relaxed there; gravity -z turns it down by theta: k theta = m g L cos(theta)."""
    return from_dict(
        {
            "name": "spring_pendulum",
            "gravity": [0, 0, -g],
            "bodies": [{"name": "bob", "mass": m, "inertia": [1e-3, 1e-3, 1e-3], "position": [L, 0, 0]}],
            "joints": [
                {
                    "name": "pivot",
                    "type": "revolute",
                    "body_i": "ground",
                    "body_j": "bob",
                    "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]},
                }
            ],
            "forces": [{"name": "spring", "type": "rotational_spring_damper", "joint": "pivot", "stiffness": k}],
        }
    )


@pytest.fixture(scope="module")
def sc():
    return SliderCrank(r=0.5, l=1.5, e=0.1)


def crank_motion(t, theta0=0.3):
    """theta, theta', theta'' of the profile 3 t + 0.4 sin(5 t) added to theta0."""
    return theta0 + 3 * t + 0.4 * np.sin(5 * t), 3 + 2 * np.cos(5 * t), -10 * np.sin(5 * t)


# ----------------------------------------------------------------------------- mobility
def test_rank_helpers_on_known_matrix():
    A = np.array([[1.0, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 2]])
    assert numerical_rank(A) == 3
    kept, dropped = independent_rows(A)
    assert kept == [0, 1, 3] and dropped == [2]


def test_spatial_four_bar_grubler_rank_and_redundancy():
    rep = mobility(load(FOUR_BAR))
    assert rep.grubler == 6 * 3 - 4 * 5 == -2
    assert rep.mobility == 1 and rep.rank_joints == 17
    assert len(rep.redundant) == 3
    assert all(e["kind"] == "joint" for e in rep.redundant)
    text = rep.text()
    assert "-2" in text and "J4" in text and "Redundant joint equations (3)" in text
    # the suggested relaxations really remove the redundancy and keep the mobility
    assert sum(r.removes for r in rep.relaxations) == 3 and rep.relaxed_redundancy == 0
    d = load(FOUR_BAR).to_dict()
    for r in rep.relaxations:
        j = next(j for j in d["joints"] if j["name"] == r.joint)
        j["type"] = r.new
        if r.new == "universal":  # the report's frame: x <- old z, z <- old x
            z = j["frame"]["z_axis"]
            x = [1.0, 0.0, 0.0] if abs(z[0]) < 0.9 else [0.0, 1.0, 0.0]
            x = np.cross(z, x).tolist()
            j["frame"] = {"origin": j["frame"]["origin"], "z_axis": x, "x_axis": z}
    relaxed = mobility(from_dict(d))
    assert relaxed.mobility == 1 and relaxed.redundant == []
    assert relaxed.grubler == 1


def test_example_spatial_four_bar():
    rep = mobility(load(os.path.join(ROOT, "examples", "four_bar_spatial.json")))
    assert (rep.grubler, rep.mobility, len(rep.redundant)) == (-2, 1, 3)


def test_bricard_mobility_one_although_grubler_zero():
    model = load(BRICARD)
    rep = mobility(model)
    assert rep.grubler == 6 * 5 - 6 * 5 == 0
    assert rep.mobility == 1 and len(rep.redundant) == 1
    # independent evidence: under gravity it really moves with its joints closed
    res = simulate(model, t_end=0.5, output_step=0.05, step=1e-3)
    p3 = res.point("link3", [0.0, 0.0, 0.5])  # link3 ends at P3 = (1, -1, 1)
    assert np.linalg.norm(p3[-1] - p3[0]) > 0.05
    assert max(res.max_violation()) < 1e-6
    later = mobility(model, Y=res.Y[-1], t=res.t[-1])
    assert later.mobility == 1 and len(later.redundant) == 1


def test_mobility_with_drivers(sc):
    rep = mobility(slider_crank_model(sc))
    assert (rep.grubler, rep.mobility, rep.mobility_driven, rep.redundant) == (1, 1, 0, [])


# ----------------------------------------------------------------------------- assembly
def test_assembly_from_perturbed_placements():
    model = load(FOUR_BAR)
    sys_ = System(model)
    Y = sys_.Y0.copy()
    rng = np.random.default_rng(1)
    for b in range(sys_.nb):
        Y[7 * b : 7 * b + 3] += rng.normal(0, 0.02, 3)
        Y[7 * b + 3 : 7 * b + 7] += rng.normal(0, 0.05, 4)
    Ya = assemble(sys_, Y)
    phi = sys_.constraint_jacobian(0.0, Ya)[0]
    assert np.max(np.abs(phi)) < 1e-10
    # the coupler/rocker pin (J3) satisfies the four-bar loop closure of the oracle
    crank = np.arctan2(*(Ya[7 * 0 : 7 * 0 + 3][[1, 0]]))  # CoG direction of the crank
    B = sys_.joint_frames[2]["oj"]
    from MBDWorkbench.solver.numerics.quaternion import matrix

    pB = Ya[14:17] + matrix(Ya[17:21]) @ B
    fb = FourBar(d=0.30, a=0.10, b=0.35, c=0.25)
    assert np.allclose(pB[:2], fb.points(crank)["B"], atol=1e-9)


def test_unassemblable_mechanism_names_joints():
    d = load(FOUR_BAR).to_dict()
    j4 = next(j for j in d["joints"] if j["name"] == "J4")
    rocker = next(b for b in d["bodies"] if b["name"] == "rocker")
    local = (np.array(j4["frame"]["origin"]) - rocker["position"]).tolist()
    del j4["frame"]  # rocker end on a ground pivot out of reach (1.5 m instead of 0.3 m)
    j4["frame_i"] = {"origin": local, "z_axis": [0, 0, 1]}
    j4["frame_j"] = {"origin": [1.5, 0.0, 0.0], "z_axis": [0, 0, 1]}
    model = from_dict(d)
    with pytest.raises(AssemblyError) as e:
        mobility(model)
    msg = str(e.value)
    assert "does not assemble" in msg and "open by" in msg
    assert any(name in msg for name in ("'J1'", "'J2'", "'J3'", "'J4'"))
    with pytest.raises(AssemblyError):
        kinematic_analysis(model)


def test_initial_state_is_the_one_assembly_plus_projected_velocities():
    sys_ = System(load(FOUR_BAR))
    Y = sys_.Y0.copy()
    rng = np.random.default_rng(2)
    Y[: 7 * sys_.nb] += rng.normal(0, 0.01, 7 * sys_.nb)
    Y[7 * sys_.nb :] = rng.normal(0, 1.0, 6 * sys_.nb)
    Y1, report = assemble_initial_state(sys_, Y)
    n = 7 * sys_.nb
    assert np.array_equal(Y1[:n], assemble(sys_, Y)[:n])
    _, _, _, rate = sys_.constraint_jacobian(0.0, Y1)
    assert np.max(np.abs(rate)) < 1e-10  # Phi_q v + Phi_t = 0
    assert [m["body"] for m in report] == [b.name for b in sys_.moving]
    for b, m in enumerate(report):
        assert m["moved_m"] == pytest.approx(np.linalg.norm(Y1[7 * b : 7 * b + 3] - Y[7 * b : 7 * b + 3]))
        assert m["rotated_rad"] > 0.0


def test_raw_metric_assembly_meets_the_projection_tolerance():
    sys_ = System(load(FOUR_BAR))
    Y = sys_.Y0.copy()
    Y[: 7 * sys_.nb] += np.random.default_rng(3).normal(0, 1e-4, 7 * sys_.nb)
    Yp = assemble(sys_, Y, tol=PROJECTION_TOL, scaled=False)
    assert np.max(np.abs(sys_.constraint_jacobian(0.0, Yp)[0])) < PROJECTION_TOL


def test_tolerances_are_ordered_by_purpose():
    assert PROJECTION_TOL < ASSEMBLY_TOL  # projection repeats at every output time
    assert REDUNDANCY_TOL < RANK_TOL < SAMPLED_RANK_TOL  # exact redundancy < diagnosis < drifting samples
    assert SINGULAR_TOL <= REPORT_NEAR_SINGULAR  # the report warns before the kinematics stops


# ----------------------------------------------------------------------------- kinematics
def test_slider_crank_kinematics_closed_form(sc):
    res = kinematic_analysis(slider_crank_model(sc))
    th, thd, thdd = crank_motion(res.t)
    ref = sc.kinematics(th, thd, thdd)
    acc_slider = accelerations(res, "slider")[0]
    assert np.allclose(res.position("slider")[:, 0], ref["x"], atol=1e-10)
    assert np.allclose(res.velocity("slider")[:, 0], ref["xd"], atol=1e-9)
    assert np.allclose(acc_slider[:, 0], ref["xdd"], atol=1e-8)
    u0 = (np.array([float(sc.slider_position(0.3)), sc.e, 0.0]) - sc.r * np.array([np.cos(0.3), np.sin(0.3), 0])) / sc.l
    d = res.rotation("rod") @ u0
    assert np.allclose(np.arctan2(d[:, 1], d[:, 0]), ref["phi"], atol=1e-10)
    assert np.allclose(res.angular_velocity("rod")[:, 2], ref["phid"], atol=1e-9)
    assert np.allclose(accelerations(res, "rod")[1][:, 2], ref["phidd"], atol=1e-8)
    assert np.allclose(res.position("crank")[:, :2], ref["Gc"], atol=1e-10)
    assert max(res.max_violation()) < 1e-10


def test_slider_crank_inverse_dynamics_vs_oracle_and_simulation(sc):
    model = slider_crank_model(sc)
    res = inverse_dynamics(model)
    th, thd, thdd = crank_motion(res.t)
    tau = sc.motor_torque(th, thd, thdd)
    assert np.allclose(res.driver_effort("motor"), tau, atol=1e-9 * np.abs(tau).max())
    sim = simulate(model, integrator="rk4", step=1e-4)
    assert np.allclose(sim.t, res.t)
    assert np.allclose(sim.driver_effort("motor"), res.driver_effort("motor"), atol=1e-6 * np.abs(tau).max())
    # the slide reaction balances the slider: horizontal force of the rod only, weight + rod force vertically
    F_slide = res.reaction("slide", "global")[0]
    a_s = accelerations(res, "slider")[0]
    F_rod = res.reaction("rod_pin", "global")[0]  # slider (body_i) on rod (body_j)
    # Newton for the slider: m a = F_slide - F_rod + m g
    g = np.array([0.0, -sc.g, 0.0])
    assert np.allclose(sc.ms * a_s, F_slide - F_rod + sc.ms * g, atol=1e-8)


def test_redundant_four_bar_kinematics_closed_form():
    d = load(FOUR_BAR).to_dict()
    d["drivers"] = [{"name": "crank_motor", "type": "rotational", "joint": "J1", "profile": "2*t"}]
    res = kinematic_analysis(from_dict(d), t_end=1.0, output_step=0.1)
    fb = FourBar(d=0.30, a=0.10, b=0.35, c=0.25)
    th2 = np.radians(60.0) + 2 * res.t
    _, th4, _, w4, _, al4 = fb.accelerations(th2, np.full_like(th2, 2.0), np.zeros_like(th2))
    u = np.array(fb.points(np.radians(60.0))["B"]) - [0.3, 0.0]
    u = np.r_[u, 0.0] / np.linalg.norm(u)
    d4 = res.rotation("rocker") @ u
    assert np.allclose(np.arctan2(d4[:, 1], d4[:, 0]), th4, atol=1e-10)
    assert np.allclose(res.angular_velocity("rocker")[:, 2], w4, atol=1e-9)
    assert np.allclose(accelerations(res, "rocker")[1][:, 2], al4, atol=1e-8)


# ----------------------------------------------------------------------------- statics
def test_statics_spring_pendulum_closed_form():
    m, L, k, g = 2.0, 0.8, 20.0, 9.81
    res = static_equilibrium(spring_pendulum(m, L, k, g))
    theta = brentq(lambda th: k * th - m * g * L * np.cos(th), 0.0, np.pi / 2)
    p = res.position("bob")[0]
    assert abs(np.arctan2(-p[2], p[0]) - theta) < 1e-9
    assert res.equilibrium["stable"]
    F, T = res.reaction("pivot", "global")
    assert np.allclose(F[0], [0.0, 0.0, m * g], atol=1e-8)  # the pivot carries the weight
    assert np.allclose(T[0], 0.0, atol=1e-8)  # the spring carries the torque


def test_statics_hanging_pendulum_settles_down():
    model = spring_pendulum(k=20.0)
    model.forces = []
    res = static_equilibrium(model)
    assert np.allclose(res.position("bob")[0], [0.0, 0.0, -0.8], atol=1e-9)
    assert res.equilibrium["stable"]


def test_statics_slider_crank_holding_torque(sc):
    """Drivers held: the motor torque equals the oracle's static torque dV/dtheta."""
    res = static_equilibrium(slider_crank_model(sc, theta0=0.3, profile="0.5"))
    assert np.isclose(res.driver_effort("motor")[0], sc.static_torque(0.8), atol=1e-9)
    W = (sc.mc + sc.mr + sc.ms) * sc.g
    ground = sum(res.reaction(j, "global")[0][0] for j in ("crank_pivot", "slide"))
    assert np.allclose(ground, [0.0, W, 0.0], atol=1e-8)


def test_statics_two_link_hangs_straight_down():
    """Released at 0.3 and -1.0 rad, a two-link chain settles hanging (a global descent
    from an indefinite start, not a local Newton solve)."""
    res = static_equilibrium(load(os.path.join(ROOT, "examples", "two_link.json")))
    assert np.allclose(res.position("link1")[0], [0.0, -0.5, 0.0], atol=1e-9)
    assert np.allclose(res.position("link2")[0], [0.0, -1.5, 0.0], atol=1e-9)
    assert res.equilibrium["stable"]


def test_statics_refuses_two_motors_in_conflict_on_a_four_bar(tmp_path, capsys):
    """Two motors on a 1-DoF four-bar: the split of the holding torque between them is arbitrary, so statics
    refuses the model as simulate, kinematics and inverse dynamics do (exit 2), naming the second motor."""
    d = json.load(open(os.path.join(ROOT, "examples", "four_bar_spatial.json")))
    d["drivers"] = [
        {"name": "crank_motor", "type": "rotational", "joint": "crank_pivot", "profile": "0"},
        {"name": "rocker_motor", "type": "rotational", "joint": "rocker_pivot", "profile": "0"},
    ]
    with pytest.raises(ModelError, match="'rocker_motor' on joint 'rocker_pivot' over-drives") as e:
        static_equilibrium(from_dict(d))
    assert e.value.path == "drivers[1]"
    path = tmp_path / "overdriven.json"
    path.write_text(json.dumps(d))
    assert main(["statics", str(path), "--out", str(tmp_path / "s")]) == 2
    assert "rocker_motor" in capsys.readouterr().err
    d["drivers"].pop()  # one motor: a unique holding torque
    assert static_equilibrium(from_dict(d)).status == "completed"


def test_statics_over_constrained_four_bar_minimises_potential():
    fb = FourBar(d=0.30, a=0.10, b=0.35, c=0.25)
    masses = {"crank": 0.5, "coupler": 1.0, "rocker": 0.8}

    def V(th2):  # gravity -y, uniform bars
        p = fb.points(th2)
        ys = (0.5 * p["A"][1], 0.5 * (p["A"][1] + p["B"][1]), 0.5 * p["B"][1])
        return 9.81 * sum(m * y for m, y in zip(masses.values(), ys))

    grid = np.linspace(-np.pi, np.pi, 3601)
    th_min = grid[np.argmin([V(x) for x in grid])]
    res = static_equilibrium(load(FOUR_BAR))
    c = res.position("crank")[0]
    assert abs(np.angle(np.exp(1j * (np.arctan2(c[1], c[0]) - th_min)))) < 2e-3  # grid spacing
    ref = np.array([V(x) for x in np.arctan2(c[1], c[0]) + np.array([-1e-3, 0.0, 1e-3])])
    assert ref[1] <= ref[0] and ref[1] <= ref[2]  # a minimum of the potential
    F1 = res.reaction("J1", "global")[0][0]  # ground on crank
    F4 = res.reaction("J4", "global")[0][0]  # rocker on ground
    assert np.allclose(F1 - F4, [0.0, 9.81 * sum(masses.values()), 0.0], atol=1e-8)


# ----------------------------------------------------------------------------- bad input
def test_over_driven_mechanism_names_driver(sc):
    d = slider_crank_model(sc).to_dict()
    d["drivers"].append({"name": "piston", "type": "linear", "joint": "slide", "profile": "0.1*t"})
    model = from_dict(d)
    rep = mobility(model)
    assert [e["name"] for e in rep.over_driving] == ["piston"]
    with pytest.raises(ModelError) as e:
        kinematic_analysis(model)
    assert e.value.path == "drivers[1]" and "'piston'" in str(e.value) and "over-drives" in str(e.value)


def test_not_fully_driven_is_rejected():
    with pytest.raises(ModelError) as e:
        kinematic_analysis(load(FOUR_BAR))
    assert "not fully driven" in str(e.value) and "mobility 1" in str(e.value)


def test_singular_configuration_dead_centre(tmp_path):
    """The slider drives the crank into the dead centre (x = r + l at t = 1 s)."""
    sc0 = SliderCrank(r=0.5, l=1.5, e=0.0)
    d = slider_crank_model(sc0, theta0=0.6).to_dict()
    dx = sc0.r + sc0.l - float(sc0.slider_position(0.6))
    d["drivers"] = [{"name": "piston", "type": "linear", "joint": "slide", "profile": f"{dx!r}*sin(pi*t/2)"}]
    with pytest.raises(SingularConfigurationError) as e:
        kinematic_analysis(from_dict(d), t_end=1.0, output_step=0.1)
    msg = str(e.value)
    assert e.value.time == pytest.approx(1.0) and "singular configuration" in msg
    assert "'piston'" in msg and "'crank_pivot'" in msg
    assert len(e.value.results) == 10  # samples before the dead centre are kept
    x = e.value.results.position("slider")[:, 0]
    assert np.allclose(x, float(sc0.slider_position(0.6)) + dx * np.sin(np.pi * e.value.results.t / 2), atol=1e-10)
    path = tmp_path / "dead.json"
    from_dict(d).save(str(path))
    assert (
        main(["kinematics", str(path), "--t-end", "1", "--output-step", "0.1", "--quiet", "--out", str(tmp_path / "k")])
        == 4  # failed
    )
    assert len(read_csv(str(tmp_path / "k" / "bodies.csv"))["time [s]"]) == 10


def test_change_point_crossing_between_samples():
    """Parallelogram four-bar (a = c = 0.1 m, b = d = 0.3 m) driven from -0.35 rad at
    1 rad/s: all links are collinear at t = 0.35 s, between two samples."""
    a, d = 0.1, 0.3
    A = a * np.array([np.cos(-0.35), np.sin(-0.35), 0.0])
    B = A + [d, 0.0, 0.0]
    pts = {"crank": ([0, 0, 0], A), "coupler": (A, B), "rocker": ([d, 0, 0], B)}
    bodies = [
        {
            "name": n,
            "mass": 1.0,
            "position": (0.5 * (np.array(p) + q)).tolist(),
            "inertia": bar_inertia(np.array(q) - p, 1e-2),
        }
        for n, (p, q) in pts.items()
    ]
    pivots = [
        ("J1", "ground", "crank", [0, 0, 0]),
        ("J2", "crank", "coupler", A.tolist()),
        ("J3", "coupler", "rocker", B.tolist()),
        ("J4", "rocker", "ground", [d, 0, 0]),
    ]
    joints = [
        {"name": n, "type": "revolute", "body_i": i, "body_j": j, "frame": {"origin": o}} for n, i, j, o in pivots
    ]
    model = from_dict(
        {
            "name": "parallelogram",
            "bodies": bodies,
            "joints": joints,
            "drivers": [{"name": "m", "type": "rotational", "joint": "J1", "profile": "t"}],
        }
    )
    with pytest.raises(SingularConfigurationError) as e:
        kinematic_analysis(model, t_end=0.7, output_step=0.1)
    assert "between t = 0.3 s and 0.4 s" in str(e.value) and len(e.value.results) == 4


def test_singular_configurations_along_a_run():
    """Crank driven at pi rad/s from 0.3 rad: if the slide were the input, the dead
    centres theta = pi, 2 pi (t = (k pi - 0.3)/pi) would be singular."""
    sc0 = SliderCrank(r=0.5, l=1.5, e=0.0)
    res = simulate(slider_crank_model(sc0, 0.3, "pi*t", t_end=2.0, output_step=0.05), step=1e-3)
    scan = singular_configurations(res, inputs=["slide"])
    expected = [(np.pi - 0.3) / np.pi, (2 * np.pi - 0.3) / np.pi]
    assert len(scan.times) == 2 and np.allclose(scan.times, expected, atol=1e-3)
    assert singular_configurations(res).times == []  # the crank input is never singular
    # a sample exactly at a dead centre is flagged as singular
    res2 = simulate(slider_crank_model(sc0, 0.0, "pi*t", t_end=1.0, output_step=0.25), step=1e-3)
    assert np.allclose(singular_configurations(res2, inputs=["slide"]).singular, [0.0, 1.0])


# ----------------------------------------------------------------------------- results / CLI
def test_cli_analyze_and_inverse_dynamics(tmp_path, capsys, sc):
    assert main(["analyze", FOUR_BAR]) == 0
    out = capsys.readouterr().out
    assert "6 x 3 - 20 = -2" in out and "Mobility (degrees of freedom): 1" in out
    assert main(["analyze", FOUR_BAR, "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["mobility"] == 1 and len(rep["redundant"]) == 3
    path = tmp_path / "sc.json"
    slider_crank_model(sc).save(str(path))
    out_dir = tmp_path / "id"
    assert main(["inverse-dynamics", str(path), "--out", str(out_dir), "--quiet"]) == 0
    cols = read_csv(str(out_dir / "drivers.csv"))
    th, thd, thdd = crank_motion(cols["time [s]"])
    assert np.allclose(cols["motor.effort [N m]"], sc.motor_torque(th, thd, thdd), atol=1e-7)
    assert json.load(open(out_dir / "summary.json"))["status"] == "completed"
    assert main(["kinematics", FOUR_BAR, "--out", str(tmp_path / "k")]) == 2
    pend = tmp_path / "pend.json"
    spring_pendulum().save(str(pend))
    assert main(["statics", str(pend), "--out", str(tmp_path / "st")]) == 0
    joints = read_csv(str(tmp_path / "st" / "joints.csv"))
    assert np.isclose(joints["pivot.Fz_global [N]"][0], 2.0 * 9.81)
