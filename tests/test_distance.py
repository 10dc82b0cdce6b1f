"""Distance joint (rod): a point mass on a rod from a fixed point is the ideal pendulum (period
from the elliptic integral, rod tension m g cos(theta) + m L theta'^2), the spherical pendulum
keeps its energy and its angular momentum about the vertical (and follows the minimal-coordinate
ODE), the complex-step Jacobian of the index-3 integrators matches central differences, the
rod removes one degree of freedom, its tension is joints.csv's Fz, bad input is refused."""

import csv

import numpy as np
import pytest
from oracles import pendulum as pend_oracle
from scipy.integrate import solve_ivp

from MBDWorkbench.solver import ModelError, from_dict, kernels, simulate
from MBDWorkbench.solver.analyses.mobility import grubler_count, mobility
from MBDWorkbench.solver.integrators import jacobians as ik
from MBDWorkbench.solver.system.system import System

G, M, L = 9.81, 2.0, 0.8  # gravity [m/s^2], bob mass [kg], rod length [m]


def pendulum(theta0: float = np.pi / 2, t_end: float = 1.7, frame: dict | None = None, **settings) -> dict:
    """A point mass M on a rod of length L from the origin (ground), released from rest at
    theta0 from the downward vertical, swinging in the x-z plane (gravity -z)."""
    bob = [L * np.sin(theta0), 0.0, -L * np.cos(theta0)]
    return {
        "name": "rod_pendulum",
        "gravity": [0, 0, -G],
        "bodies": [{"name": "bob", "mass": M, "point_mass": True, "position": bob}],
        "joints": [
            {
                "name": "rod",
                "type": "distance",
                "body_i": "ground",
                "body_j": "bob",
                **(frame or {"frame": {"origin": [0, 0, 0]}}),
            }
        ],
        "settings": {"t_end": t_end, "output_step": 1e-3, **settings},
    }


def crossings(t: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Times where x changes sign (linear interpolation)."""
    k = np.nonzero(np.sign(x[:-1]) != np.sign(x[1:]))[0]
    return t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])


def angle_and_rate(res) -> tuple[np.ndarray, np.ndarray]:
    """Pendulum angle from the downward vertical [rad] and its rate [rad/s] from the bob's state."""
    p, v = res.position("bob"), res.velocity("bob")
    return np.arctan2(p[:, 0], -p[:, 2]), (p[:, 0] * v[:, 2] - p[:, 2] * v[:, 0]) / L**2


# settings giving the period to 1e-6 (measured: rk4 2e-10, bdf 1e-10, radau 2e-10, galpha 4e-7, cros 4e-7)
INTEGRATORS = {
    "rk4": dict(step=1e-3),
    "bdf": dict(rtol=1e-10, atol=1e-12),
    "radau": dict(rtol=1e-10, atol=1e-12),
    "galpha": dict(rtol=1e-9, atol=1e-11),
    "cros": dict(step=2.5e-4),  # second order: 1e-3 gives 7e-6
}
# Rod tension (a multiplier) relative to its maximum 3 M g: the ODE-form integrators solve for it
# exactly at each state (measured < 1e-9); the index-3 multipliers carry the integrators' own
# errors (measured: CROS 1.3e-4, generalized-alpha 2e-3 in short transients after step-size
# changes, median 3e-7).
TENSION_TOL = {"rk4": 1e-8, "bdf": 1e-8, "radau": 1e-8, "galpha": 5e-3, "cros": 5e-4}


@pytest.mark.parametrize("integrator", sorted(INTEGRATORS))
def test_point_mass_on_a_rod_is_the_ideal_pendulum(integrator):
    res = simulate(from_dict(pendulum(integrator=integrator, **INTEGRATORS[integrator])))
    assert res.status == "completed"
    tc = crossings(res.t, res.position("bob")[:, 0])
    assert len(tc) == 2
    exact = pend_oracle.pendulum_period(np.pi / 2, m=M, L=L, g=G, Jc=0.0)
    assert 2 * (tc[1] - tc[0]) == pytest.approx(exact, rel=1e-6)
    theta, rate = angle_and_rate(res)
    tension = M * G * np.cos(theta) + M * L * rate**2  # at the simulated states
    force, torque = res.reaction("rod")
    assert np.abs(force[:, 2] - tension).max() < TENSION_TOL[integrator] * 3 * M * G
    assert np.abs(force[:, :2]).max() < 1e-9 * M * G and np.abs(torque).max() < 1e-9 * M * G * L
    # the point mass never turns and has no rotational kinetic energy
    assert np.all(res.orientation("bob") == [1.0, 0.0, 0.0, 0.0])
    assert np.all(res.angular_velocity("bob") == 0.0)
    speed2 = np.sum(res.velocity("bob") ** 2, axis=1)
    np.testing.assert_allclose(res.energy()["kinetic"], 0.5 * M * speed2, rtol=1e-14, atol=0)


def test_tension_at_the_bottom_is_three_weights_and_in_joints_csv(tmp_path):
    """Released from the horizontal: T = 3 M g at the bottom (closed form), the rod's Fz column."""
    res = simulate(from_dict(pendulum(integrator="rk4", step=1e-3)))
    res.write(str(tmp_path))
    rows = list(csv.DictReader(open(tmp_path / "joints.csv")))
    fz = np.array([float(r["rod.Fz [N]"]) for r in rows])
    theta, _ = angle_and_rate(res)
    k = np.argmin(np.abs(theta))  # the sample nearest the bottom (theta ~ 1e-3 rad)
    assert abs(theta[k]) < 5e-3
    assert fz[k] == pytest.approx(M * G * (3 * np.cos(theta[k]) - 2 * np.cos(np.pi / 2)), rel=1e-8)
    assert float(rows[k]["rod.F_magnitude [N]"]) == pytest.approx(fz[k], rel=1e-9)
    assert min(fz) > 0  # a swinging pendulum's rod is always in tension


def test_explicit_length_and_local_anchors():
    """Local frames on each side and a given length: the rod pulls the bob to that length at the start."""
    d = pendulum(theta0=0.3, t_end=0.05, frame={"frame_i": {"origin": [0, 0, 0]}, "frame_j": {"origin": [0, 0, 0]}})
    d["joints"][0]["length"] = 0.7
    res = simulate(from_dict(d), integrator="rk4")
    np.testing.assert_allclose(np.linalg.norm(res.position("bob"), axis=1), 0.7, atol=1e-9)
    assert res.assembly[0]["moved_m"] == pytest.approx(0.1, rel=1e-6)  # moved along the rod


# ----------------------------------------------------------------------------- spherical pendulum
def spherical_reference(theta0: float, phidot0: float, t: np.ndarray) -> np.ndarray:
    """Bob positions of the spherical pendulum from its minimal coordinates (theta from the
    downward vertical, phi about it): theta'' = sin cos phi'^2 - g/L sin, phi' = h / sin^2."""
    h = np.sin(theta0) ** 2 * phidot0  # angular momentum about the vertical / (M L^2)

    def rhs(_t, y):
        th, thd, _phi = y
        phid = h / np.sin(th) ** 2
        return [thd, np.sin(th) * np.cos(th) * phid**2 - G / L * np.sin(th), phid]

    sol = solve_ivp(rhs, (0, t[-1]), [theta0, 0.0, 0.0], t_eval=t, rtol=1e-12, atol=1e-12, method="DOP853")
    th, _, phi = sol.y
    return L * np.stack([np.sin(th) * np.cos(phi), np.sin(th) * np.sin(phi), -np.cos(th)], axis=1)


@pytest.mark.parametrize(
    "integrator,settings,tol", [("rk4", dict(step=1e-3), 1e-9), ("galpha", dict(rtol=1e-8, atol=1e-10), 1e-5)]
)
def test_spherical_pendulum_keeps_energy_and_vertical_angular_momentum(integrator, settings, tol):
    theta0, phidot0 = 1.0, 2.5
    d = pendulum(theta0=theta0, t_end=2.0, integrator=integrator, **settings)
    d["bodies"][0]["velocity"] = [0.0, L * np.sin(theta0) * phidot0, 0.0]
    res = simulate(from_dict(d))
    p, v = res.position("bob"), res.velocity("bob")
    energy = 0.5 * M * np.sum(v**2, axis=1) + M * G * p[:, 2]
    lz = M * (p[:, 0] * v[:, 1] - p[:, 1] * v[:, 0])
    e_scale, lz0 = M * G * L, M * L**2 * np.sin(theta0) ** 2 * phidot0
    assert np.abs(energy - energy[0]).max() < tol * e_scale
    assert np.abs(lz - lz0).max() < tol * abs(lz0)
    assert np.abs(res.energy()["balance"]).max() < tol * e_scale  # the results' own energy balance
    assert np.abs(p[:, 1]).max() > 0.3 * L  # a true 3D motion
    np.testing.assert_allclose(p, spherical_reference(theta0, phidot0, res.t), atol=10 * tol * L)


# ----------------------------------------------------------------------------- index-3 Jacobian
def two_rods_model() -> dict:
    """Two rigid bodies and a point mass linked by rods with off-centre anchors (rotations matter)."""
    q = [np.cos(0.2), np.sin(0.2) * 0.6, 0.0, np.sin(0.2) * 0.8]
    return {
        "bodies": [
            {
                "name": "a",
                "mass": 1.2,
                "inertia": [0.3, 0.2, 0.25, 0.01, 0.02, 0.0],
                "position": [0.4, 0.1, -0.2],
                "orientation": q,
            },
            {
                "name": "b",
                "mass": 0.7,
                "inertia": [0.1, 0.15, 0.2],
                "position": [1.1, -0.3, 0.2],
                "velocity": [0.1, 0.4, -0.2],
                "angular_velocity": [0.5, -1.0, 2.0],
            },
            {"name": "p", "mass": 0.3, "point_mass": True, "position": [1.5, 0.5, -0.4], "velocity": [0.3, 0, 0.1]},
        ],
        "joints": [
            {
                "name": "r0",
                "type": "distance",
                "body_i": "ground",
                "body_j": "a",
                "frame": {"origin": [0.1, 0.2, 0.3]},
                "point_j": [0.5, 0.0, -0.1],
            },
            {
                "name": "r1",
                "type": "distance",
                "body_i": "a",
                "body_j": "b",
                "frame_i": {"origin": [0.2, -0.1, 0.05]},
                "frame_j": {"origin": [-0.1, 0.2, 0.0]},
            },
            {
                "name": "r2",
                "type": "distance",
                "body_i": "p",
                "body_j": "b",
                "frame": {"origin": [1.5, 0.5, -0.4]},
                "point_j": [1.2, -0.2, 0.1],
                "length": 0.9,
            },
        ],
    }


def test_complex_step_jacobian_of_distance_rows_matches_central_differences():
    system = System(from_dict(two_rods_model()))
    S, W, Y, t = system.static, system.work, system.Y0.copy(), 0.2
    m, n6 = system.m, 6 * system.nb
    lam = np.random.default_rng(5).normal(size=m)
    nK, nD = ik.triplet_capacity(S, m)
    Kb = (np.zeros(nK, np.int64), np.zeros(nK, np.int64), np.zeros(nK))
    Db = (np.zeros(nD, np.int64), np.zeros(nD, np.int64), np.zeros(nD))
    nK, _ = ik.force_jacobians(t, Y, S, W, lam, np.ones(m, bool), *Kb, *Db)
    K = np.zeros((n6, n6))
    np.add.at(K, (Kb[0][:nK], Kb[1][:nK]), Kb[2][:nK])

    def constraint_force(x):
        Yx = np.empty_like(Y)
        ik.apply_increment(S.nb, Y, x, Yx)
        kernels.update_rotations(S, Yx, W.A)
        kernels.forces(t, Yx, S, W, W.Q)
        return W.Q.copy() - system.constraint_jacobian(t, Yx)[1].T @ lam

    eps, Kfd = 1e-6, np.zeros((n6, n6))
    for c in range(n6):
        e = np.zeros(n6)
        e[c] = eps
        Kfd[:, c] = (constraint_force(e) - constraint_force(-e)) / (2 * eps)
    np.testing.assert_allclose(K, Kfd, atol=1e-7 * (1 + np.abs(Kfd).max()))
    assert np.abs(K[:, 6 * 2 + 3 : 6 * 2 + 6]).max() == 0.0  # nothing depends on the point mass's rotation


def test_rods_between_bodies_run_with_the_index3_integrators():
    """Three rods, gravity: the index-3 runs agree with rk4; generalized-alpha keeps the rods'
    lengths exactly, CROS to O(h^2) (measured 2.4e-5 m)."""
    d = two_rods_model()
    d["settings"] = {"t_end": 0.5, "output_step": 0.05}
    ref = simulate(from_dict(d), integrator="rk4", step=2e-4)
    for integrator, tol, closure in (("galpha", 5e-6, 1e-10), ("cros", 1e-4, 1e-4)):
        res = simulate(from_dict(d), integrator=integrator, step=1e-3, rtol=1e-9, atol=1e-11)
        assert res.max_violation()[0] < closure
        for b in ("a", "b", "p"):
            np.testing.assert_allclose(res.position(b), ref.position(b), atol=tol)


# ----------------------------------------------------------------------------- mobility and input
def test_a_rod_removes_one_degree_of_freedom():
    model = from_dict(two_rods_model())
    assert grubler_count(model) == (3, 3, 0, 6 + 6 + 3 - 3)
    rep = mobility(model)
    assert (rep.grubler, rep.mobility, rep.redundant) == (12, 12, [])
    assert "6 x 2 + 3 x 1 - 3 = 12" in rep.text()
    pend = mobility(from_dict(pendulum()))
    assert (pend.grubler, pend.mobility) == (2, 2)  # the spherical pendulum


@pytest.mark.parametrize(
    "edit,path,text",
    [
        (lambda j: j.update(length=0.0), "joints[0].length", "length must be a positive"),
        (lambda j: j.update(length=-1.0), "joints[0].length", "length must be a positive"),
        (lambda j: j.update(point_j=[0.0, 0.0, 0.0]), "joints[0]", "its two points coincide"),
        (lambda j: j.update(frame={"origin": [L, 0.0, 0.0]}), "joints[0]", "its two points coincide"),
        (
            lambda j: (
                j.pop("frame"),
                j.update(frame_i={"origin": [0, 0, 0]}, frame_j={"origin": [0, 0, 0]}, point_j=[1, 0, 0]),
            ),
            "joints[0].point_j",
            "goes with a global 'frame'",
        ),
        (lambda j: j.update(body_i="bob", body_j="ground"), "joints[0].point_j", "give 'point_j'"),
    ],
)
def test_bad_distance_joints_are_refused(edit, path, text):
    d = pendulum()
    edit(d["joints"][0])
    with pytest.raises(ModelError) as e:
        from_dict(d)
    assert e.value.path == path and text in e.value.message and "joint 'rod'" in e.value.message


def test_length_belongs_to_distance_joints_only():
    d = pendulum()
    d["joints"][0].update(type="spherical", length=1.0)
    with pytest.raises(ModelError, match="only distance joints take 'length'"):
        from_dict(d)
