"""Direct index-3 integrators (MBDWorkbench/solver/integrators/{dae,cros,galpha}.py): CROS and
generalized-alpha against the minimal-coordinate oracles of [R3] section 6, the exact sparse Jacobian against
central differences, redundant constraints, projection and bad input."""

import math

import numpy as np
import pytest
from oracles.four_bar import FourBar
from oracles.slider_crank import SliderCrank
from oracles.two_link import two_link_solution

from bench.study.index3_models import four_bar, slider_crank, two_link
from MBDWorkbench.cad.results_store import summary_lines
from MBDWorkbench.report.document import integrated_violation_text
from MBDWorkbench.solver import ModelError, SimulationError, from_dict, kernels, simulate
from MBDWorkbench.solver.integrators import jacobians as ik
from MBDWorkbench.solver.integrators import make_stepper
from MBDWorkbench.solver.integrators.cros import CROSStepper
from MBDWorkbench.solver.integrators.dae import rank_analysis
from MBDWorkbench.solver.integrators.galpha import GAlphaStepper
from MBDWorkbench.solver.model import Settings
from MBDWorkbench.solver.numerics import quaternion
from MBDWorkbench.solver.numerics.joints import ANGLE, DP1, DP2, POINT, jacobian_reads_positions
from MBDWorkbench.solver.numerics.quaternion import quat_mul
from MBDWorkbench.solver.system.assembly import assemble_initial_state
from MBDWorkbench.solver.system.system import System

SPRING_CRANK = SliderCrank(r=0.5, l=1.5, k=20.0, x0=1.5)


def chain_closure(res):
    """Max geometric gap [m] of the two revolutes of the two-link chain, per sample."""
    base = np.linalg.norm(res.point("link1", [-0.5, 0, 0]), axis=1)
    elbow = np.linalg.norm(res.point("link1", [0.5, 0, 0]) - res.point("link2", [-0.5, 0, 0]), axis=1)
    return np.maximum(base, elbow)


def tip_of(system, Y):
    """Tip of link 2 (x, y) from a raw state."""
    r, q = system.user_pose(Y)
    from MBDWorkbench.solver.numerics.quaternion import matrix

    return (r[1] + matrix(q[1]) @ np.array([0.5, 0.0, 0.0]))[:2]


# ----------------------------------------------------------------------------- order
@pytest.mark.parametrize("curvature,closure_order,largest", [(0.5, 3, (3e-5, 1e-6)), (0.0, 2, (3e-4, 1e-4))])
def test_cros_closure_order_and_tip_second_order(monkeypatch, curvature, closure_order, largest):
    # the constraint row removes Phi - h^2/2 gamma (cros_kernel.solve): the residual a step
    # leaves is the O(h^3) rest of the Taylor series, so the gap falls 8x per halving of h; seed
    # 003's row (CURVATURE = 0), -Phi alone, leaves the O(h^2) curvature: 4x. The integrated state's
    # gap: the samples of the released integrator are that state closed onto the joints
    monkeypatch.setattr(CROSStepper, "CURVATURE", curvature)
    monkeypatch.setattr(CROSStepper, "PROJECT_OUTPUT", False)
    ref = two_link_solution(t_end=1.0)
    closure, tip = [], []
    for h in (4e-3, 2e-3, 1e-3):
        res = simulate(two_link(), integrator="cros", t_end=1.0, step=h, output_step=h)
        closure.append(chain_closure(res).max())
        tip.append(np.abs(res.point("link2", [0.5, 0, 0])[:, :2] - ref.end_effector(res.t)).max())
    closure_ratios = np.array(closure[:-1]) / np.array(closure[1:])
    tip_ratios = np.array(tip[:-1]) / np.array(tip[1:])
    factor = 2**closure_order
    assert np.all((closure_ratios > 0.87 * factor) & (closure_ratios < 1.15 * factor)), (closure, closure_ratios)
    assert np.all((tip_ratios > 3.5) & (tip_ratios < 4.6)), (tip, tip_ratios)
    assert tip[-1] < largest[0] and closure[-1] < largest[1]


def test_galpha_fixed_step_is_second_order_and_closes_exactly():
    ref = two_link_solution(t_end=1.0)
    errs = []
    for h in (2e-3, 1e-3):
        model = two_link(settings={"integrator": "galpha", "step": h})
        system = System(model)
        Y, _ = assemble_initial_state(system, system.Y0.copy())
        stepper = GAlphaStepper(system, model.settings, 0.0, Y, adaptive=False)
        acc, err = np.zeros(6), 0.0
        for k in range(50):
            stepper.advance(0.02 * k, Y, 0.02 * (k + 1), acc)
            err = max(err, np.abs(tip_of(system, Y) - ref.end_effector([0.02 * (k + 1)])[0]).max())
            assert np.abs(system.constraint_jacobian(0.02 * (k + 1), Y)[0]).max() < 1e-10
        errs.append(err)
    assert 3.5 < errs[0] / errs[1] < 4.6, errs


def test_cros_violation_reaches_a_plateau_without_drift(monkeypatch):
    monkeypatch.setattr(CROSStepper, "PROJECT_OUTPUT", False)  # the integrated state's gap
    res = simulate(two_link(), integrator="cros", t_end=12.0, step=2e-3, output_step=2e-3)
    c = chain_closure(res)
    windows = [c[(res.t >= a) & (res.t <= a + 3.0)].max() for a in (0.0, 3.0, 6.0, 9.0)]
    assert max(windows[2:]) < 1.3 * max(windows[:2]), windows
    assert max(windows) < 5e-5  # 1.4e-5 m (3e-4 m with seed 003's row, without the curvature term)
    assert res.energy_drift() < 2.5e-3  # CROS dissipates slowly: ~1.3e-3 of the kinetic energy in 12 s


def test_cros_publishes_its_state_closed_onto_the_joints(monkeypatch):
    # the samples are the integrated state projected onto Phi = 0 and Phi_q v + Phi_t = 0; the
    # integration goes on from its own state, so the motion is the unprojected run's
    ref = two_link_solution(t_end=1.0)
    runs = {}
    for closed in (True, False):
        monkeypatch.setattr(CROSStepper, "PROJECT_OUTPUT", closed)
        runs[closed] = simulate(two_link(), integrator="cros", t_end=1.0, step=2e-3, output_step=0.01)
    closed, integrated = runs[True], runs[False]
    assert chain_closure(integrated).max() > 1e-7  # O(h^3) of the scheme: 2.9e-6 m
    assert chain_closure(closed).max() < 1e-14
    rate = np.abs(np.asarray(closed._stack("rate"))).max()
    assert rate < 1e-12 < np.abs(np.asarray(integrated._stack("rate"))).max()
    tip = {k: np.abs(r.point("link2", [0.5, 0, 0])[:, :2] - ref.end_effector(r.t)).max() for k, r in runs.items()}
    assert tip[True] < 1.05 * tip[False], tip  # the projection removes a part of the error normal to the joints
    gap = np.abs(closed.point("link1", [0, 0, 0]) - integrated.point("link1", [0, 0, 0])).max()
    assert gap < 1e-5  # the same motion, moved by the scheme's O(h^3) gap
    assert closed.status == integrated.status == "completed"
    # the summary keeps the integrated state's violation: that of the unprojected run (same motion)
    assert np.allclose(closed.summary()["integrated_violation"], integrated.max_violation(), rtol=1e-6, atol=0)
    assert integrated.summary()["integrated_violation"] is None
    # and the report and the workbench's summary say so

    pos = closed.summary()["integrated_violation"][0]
    (line,) = [x for x in summary_lines(closed.summary()) if x.startswith("integrated state")]
    assert f"{pos:.3e} m" in line
    assert "integrated state" in integrated_violation_text(closed.summary())
    assert integrated_violation_text(integrated.summary()) == ""


def test_cros_integrated_violation_reaches_the_quality_gate():
    # the samples are closed onto the joints, but the state behind them is not: a violation
    # tolerance below its gap (2.9e-6 m at h = 2 ms) must still be reported
    res = simulate(
        two_link(settings={"violation_tol": 1e-7}), integrator="cros", t_end=1.0, step=2e-3, output_step=0.01
    )
    assert chain_closure(res).max() < 1e-14
    assert res.status == "completed_with_warnings"
    (w,) = [w for w in res.warnings if w.kind == "violation"]
    assert "integrated state" in w.message and w.elements == ("elbow", "base"), w  # worst first
    relaxed = simulate(
        two_link(settings={"violation_tol": 1e-4}), integrator="cros", t_end=1.0, step=2e-3, output_step=0.01
    )
    assert relaxed.status == "completed"


# ----------------------------------------------------------------------------- multipliers
def test_cros_reports_the_motor_torque_of_its_state():
    # constant crank speed: the motor torque against the oracle. CROS reports at output times the
    # multipliers of its state closed onto the constraints (Index3Stepper._close, then the KKT
    # solve): the constraints fix this motion, so the closed state and its torque are exact to
    # rounding. The integrated state's multipliers (KKT at its velocities projected onto
    # Phi_q v + Phi_t = 0) were 4.7e-7 and 5.9e-8 N m off, the step's combination
    # Re(lam + a h zeta_lam) 5.0e-2 and 2.5e-2 N m.
    for h in (2e-3, 1e-3):
        res = simulate(slider_crank(), integrator="cros", t_end=1.0, step=h, output_step=0.01)
        late = res.t > 0.1
        tau = SPRING_CRANK.torque_constant_speed(res.t[late])
        assert np.abs(res.driver_effort("motor")[late] - tau).max() < 1e-11 * np.abs(tau).max(), h


def test_galpha_with_step_size_control_reports_the_motor_torque_of_its_state():
    # every change of step excites generalized-alpha's (-rho_inf)^n multiplier mode: its Newton
    # multipliers were off by up to 2.05 N m (of 5.07) at default settings; the state's are exact
    # to rounding here (the constraints fix the motion)
    res = simulate(slider_crank(), integrator="galpha", t_end=2.0, output_step=0.01)
    assert res.status == "completed"
    late = res.t > 0.1
    tau = SPRING_CRANK.torque_constant_speed(res.t[late])
    assert np.abs(res.driver_effort("motor")[late] - tau).max() < 1e-9 * np.abs(tau).max()


def test_cros_reactions_and_velocities_are_second_order_against_rk4():
    # the two-link chain moves freely: its reactions and velocities against rk4's (Schur complement
    # of the index-1 form, another code path) at h = 1e-5. The step's multiplier combination was
    # first order (0.56 N of 87 N at h = 1 ms); so were the integrated state's velocities, which
    # leave the velocity constraints by O(h) (7e-2 m/s at 1 ms): the samples are closed onto them
    ref = simulate(two_link(), integrator="rk4", t_end=1.0, step=1e-5, output_step=0.01)
    names = [j.name for j in two_link().joints]
    errs, verrs = [], []
    for h in (2e-3, 1e-3):
        res = simulate(two_link(), integrator="cros", t_end=1.0, step=h, output_step=0.01)
        errs.append(max(np.abs(res.reaction(n)[0] - ref.reaction(n)[0]).max() for n in names))
        verrs.append(max(np.abs(res.velocity(b) - ref.velocity(b)).max() for b in ("link1", "link2")))
    assert errs[1] < 3e-2 and 3.5 < errs[0] / errs[1] < 4.6, errs
    assert verrs[1] < 2e-3 and 3.5 < verrs[0] / verrs[1] < 4.6, verrs


@pytest.mark.parametrize("integrator,rho", [("cros", 0.8), ("galpha", 0.0), ("galpha", 0.8)])
@pytest.mark.parametrize("theta", [0.4, 1.3, 2.2])
def test_static_driver_multiplier_equals_dU_dtheta_after_motion(integrator, rho, theta):
    # the crank turns by 0.3 rad (smooth step) and is then held: at rest the driver
    # effort equals dU/dtheta along the constraint manifold (gravity + guide spring).
    # (generalized-alpha with rho_inf > 0 damps its own excited multiplier mode only as
    # rho_inf^n, see test_galpha_multiplier_settles_as_rho_inf_power_n: 0.3-5 % here at
    # rho_inf = 0.8; it reports the multipliers of its state, Index3Stepper.state_multipliers)
    model = slider_crank(theta0=theta - 0.3, profile="step(t, 0, 0, 0.3, 0.3)")
    res = simulate(model, integrator=integrator, t_end=0.6, step=1e-3, output_step=0.05, rho_inf=rho)
    assert res.status == "completed"
    expected = SPRING_CRANK.static_torque(theta)
    assert res.driver_effort("motor")[-1] == pytest.approx(expected, rel=1e-8, abs=1e-10)
    # galpha at rho_inf = 0.8: its velocity violation also decays only as rho_inf^n (2.5e-6 m/s here)
    assert np.abs(res.velocity("slider")[-1]).max() < (1e-5 if (integrator, rho) == ("galpha", 0.8) else 1e-9)


@pytest.mark.parametrize("theta", [0.4, 1.0, 1.6, 2.2])
def test_static_driver_multiplier_held_from_rest(theta):
    for integrator in ("cros", "galpha"):
        res = simulate(
            slider_crank(theta0=theta, profile=0.0), integrator=integrator, t_end=0.2, step=1e-3, output_step=0.05
        )
        assert res.driver_effort("motor") == pytest.approx(
            np.full(len(res), SPRING_CRANK.static_torque(theta)), rel=1e-9
        )


def test_galpha_multiplier_settles_as_rho_inf_power_n():
    # after the motion stops (t = 0.3 s) the index-3 multiplier error of the fixed-step
    # scheme decays like n rho_inf^n: 20 more steps of 5 ms at rho_inf = 0.5 -> < 1e-4
    model = slider_crank(
        theta0=1.0, profile="step(t, 0, 0, 0.3, 0.3)", settings={"integrator": "galpha", "step": 5e-3, "rho_inf": 0.5}
    )
    system = System(model)
    Y, _ = assemble_initial_state(system, system.Y0.copy())
    stepper = GAlphaStepper(system, model.settings, 0.0, Y, adaptive=False)
    drv = int(np.nonzero(system.static.row_prog >= 0)[0][0])
    acc, errors = np.zeros(6), []
    for k in range(6):
        stepper.advance(0.1 * k, Y, 0.1 * (k + 1), acc)
        errors.append(abs(-stepper.lam[list(stepper.active_rows).index(drv)] - SPRING_CRANK.static_torque(1.3)))
    assert errors[4] < 1e-4 * errors[3] and errors[5] < 1e-9 * abs(SPRING_CRANK.static_torque(1.3))


@pytest.mark.parametrize("integrator,tol", [("cros", 0.01), ("galpha", 2e-3)])
def test_driver_effort_and_power_balance_in_motion(integrator, tol):
    res = simulate(slider_crank(), integrator=integrator, t_end=1.0, step=5e-4, output_step=0.01, rtol=1e-8, atol=1e-8)
    tau = SPRING_CRANK.torque_constant_speed(res.t)
    late = res.t > 0.1
    assert np.abs(res.driver_effort("motor") - tau)[late].max() < tol * np.abs(tau).max()
    e = res.energy()
    assert np.abs(e["balance"]).max() < tol * np.abs(e["work_drivers"]).max()
    x = SPRING_CRANK.slider_position(np.pi * res.t)
    assert np.abs(res.position("slider")[:, 0] - x).max() < 1e-5


# ----------------------------------------------------------------------------- Jacobian
def _rich_model():
    """Five bodies, every joint type, springs, dampers, rotational springs, loads in both
    frames and two drivers, at a random (unassembled) state with random velocities."""
    rng = np.random.default_rng(7)

    def body(name, p):
        q = rng.normal(size=4)
        return {
            "name": name,
            "mass": 1.0 + rng.random(),
            "inertia": list(0.5 + 0.3 * rng.random(3)),
            "position": p,
            "orientation": list(q / np.linalg.norm(q)),
            "velocity": list(rng.normal(size=3)),
            "angular_velocity": list(rng.normal(size=3)),
        }

    def frame(o):
        z = rng.normal(size=3)
        return {"origin": o, "z_axis": list(z), "x_axis": list(np.cross(z, rng.normal(size=3)))}

    joints = [
        ("revolute", "ground", "a"),
        ("prismatic", "a", "b"),
        ("cylindrical", "b", "c"),
        ("universal", "c", "d"),
        ("planar", "d", "e"),
        ("spherical", "e", "a"),
        ("fixed", "ground", "e"),
    ]
    return from_dict(
        {
            "gravity": [0.3, -9.81, 0.1],
            "bodies": [body(n, p) for n, p in zip("abcde", ([0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 1], [2, 1, 1]))],
            "joints": [
                {"name": f"j{k}", "type": t, "body_i": i, "body_j": j, "frame": frame(list(rng.random(3)))}
                for k, (t, i, j) in enumerate(joints)
            ],
            "forces": [
                {
                    "name": "s1",
                    "type": "spring_damper",
                    "body_i": "a",
                    "point_i": [0.2, 0.1, 0],
                    "body_j": "c",
                    "point_j": [1, 1.2, 0.1],
                    "stiffness": 30,
                    "damping": 2,
                    "free_length": 0.7,
                },
                {
                    "name": "s2",
                    "type": "spring_damper",
                    "body_i": "ground",
                    "point_i": [0, 2, 0],
                    "body_j": "d",
                    "point_j": [0, 1, 1.1],
                    "stiffness": 10,
                    "damping": 1,
                },
                {
                    "name": "r1",
                    "type": "rotational_spring_damper",
                    "joint": "j2",
                    "stiffness": 5,
                    "damping": 0.5,
                    "free_angle": 0.2,
                },
                {"name": "r2", "type": "rotational_spring_damper", "joint": "j0", "stiffness": 3, "damping": 0.2},
                {
                    "name": "f1",
                    "type": "point_force",
                    "body": "b",
                    "point": [1.1, 0.1, 0],
                    "force": ["sin(t)", 2, "t^2"],
                    "frame": "body",
                },
                {"name": "f2", "type": "point_force", "body": "c", "force": [1, "cos(3*t)", 0]},
                {"name": "t1", "type": "torque", "body": "d", "torque": [0.5, "t", 1], "frame": "global"},
                {"name": "t2", "type": "torque", "body": "a", "torque": [0.5, "t", 1], "frame": "body"},
            ],
            "drivers": [
                {"name": "d1", "type": "rotational", "joint": "j0", "profile": "sin(2*t)"},
                {"name": "d2", "type": "linear", "joint": "j1", "profile": "0.1*t"},
            ],
        }
    )


def test_residual_jacobian_is_exact_against_central_differences():
    system = System(_rich_model())
    S, W, Y, t = system.static, system.work, system.Y0.copy(), 0.37
    m, n6 = system.m, 6 * system.nb
    lam = np.random.default_rng(3).normal(size=m)
    nK, nD = ik.triplet_capacity(S, m)
    Kb = (np.zeros(nK, np.int64), np.zeros(nK, np.int64), np.zeros(nK))
    Db = (np.zeros(nD, np.int64), np.zeros(nD, np.int64), np.zeros(nD))
    nK, nD = ik.force_jacobians(t, Y, S, W, lam, np.ones(m, bool), *Kb, *Db)
    K, D = np.zeros((n6, n6)), np.zeros((n6, n6))
    np.add.at(K, (Kb[0][:nK], Kb[1][:nK]), Kb[2][:nK])
    np.add.at(D, (Db[0][:nD], Db[1][:nD]), Db[2][:nD])
    Qt = np.zeros(n6)
    ik.load_rate(t, Y, S, W, Qt)
    _, Jq, _, _ = system.constraint_jacobian(t, Y)

    def residual(Yx, tx=t):
        """F_v = Q - Phi_q^T lam and Phi from the real kernels."""
        kernels.update_rotations(S, Yx, W.A)
        kernels.forces(tx, Yx, S, W, W.Q)
        phi, J, _, _ = system.constraint_jacobian(tx, Yx)
        return W.Q.copy() - J.T @ lam, phi

    def moved(x):
        out = np.empty_like(Y)
        ik.apply_increment(S.nb, Y, x, out)
        return out

    eps = 1e-6
    Kfd, Dfd, Jfd = np.zeros_like(K), np.zeros_like(D), np.zeros_like(Jq)
    for c in range(n6):
        e = np.zeros(n6)
        e[c] = eps
        (fp, pp), (fm, pm) = residual(moved(e)), residual(moved(-e))
        Kfd[:, c], Jfd[:, c] = (fp - fm) / (2 * eps), (pp - pm) / (2 * eps)
        Yp, Ym = Y.copy(), Y.copy()
        Yp[7 * system.nb + c] += eps
        Ym[7 * system.nb + c] -= eps
        Dfd[:, c] = (residual(Yp)[0] - residual(Ym)[0]) / (2 * eps)
    Qt_fd = (residual(Y, t + eps)[0] - residual(Y, t - eps)[0]) / (2 * eps)
    for exact, fd in ((K, Kfd), (D, Dfd), (Jq, Jfd), (Qt, Qt_fd)):
        assert np.abs(exact).max() > 0.1
        assert np.abs(exact - fd).max() < 1e-7 * np.abs(exact).max()


def test_analytic_force_jacobians_equal_the_complex_steps_triplet_by_triplet():
    """The joints whose rows are all POINT, DP1 or DP2 (here every joint: revolute, prismatic,
    cylindrical, universal, planar, spherical, fixed) take their K blocks from
    joints.add_force_jacobian: the same triplets, in the same order, as the complex steps of their
    rows (jacobians.element_blocks), at a random state and multipliers."""
    system = System(_rich_model())
    S, W, Y, t = system.static, system.work, system.Y0.copy(), 0.37
    kernels.update_rotations(S, Y, W.A)
    lam = np.random.default_rng(5).normal(size=system.m)
    active = np.ones(system.m, bool)
    buf = (
        np.zeros((2, 3), complex),
        np.zeros((2, 3, 3), complex),
        np.zeros((2, 6), complex),
        np.zeros(12, complex),
        np.zeros((2, 6), complex),
        np.zeros(6),
    )
    empty = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    k, kinds = 0, set()
    while k < system.m:
        k_end = ik._row_group_end(S.row_bi, S.row_bj, k)
        if ik.rows_have_force_jacobians(S.row_kind, active, k, k_end):
            kinds |= set(S.row_kind[k:k_end].tolist())
            exact = (np.zeros(144, np.int64), np.zeros(144, np.int64), np.zeros(144))
            stepped = (np.zeros(144, np.int64), np.zeros(144, np.int64), np.zeros(144))
            n = ik.row_blocks(
                k, k_end, Y, S.nb, S.row_bi, S.row_bj, S.row_kind, S.row_vecs, W.A, lam, active, *exact, 0,
                np.zeros((2, 2, 6, 6)),
            )  # fmt: skip
            n_cs, _ = ik.element_blocks(ik.ROW, k, k_end, t, Y, S, W.A, lam, active, False, *stepped, 0, *empty, 0, buf)
            assert n == n_cs > 0
            assert np.array_equal(exact[0][:n], stepped[0][:n]) and np.array_equal(exact[1][:n], stepped[1][:n])
            scale = np.abs(stepped[2][:n]).max()
            assert scale > 0.01  # not an empty block (the lone driver row's is the smallest, 0.026)
            assert np.abs(exact[2][:n] - stepped[2][:n]).max() < 1e-13 * scale
        else:
            assert set(S.row_kind[k:k_end].tolist()) - {POINT, DP1, DP2}  # a driver row
        k = k_end
    assert kinds == {POINT, DP1, DP2}


def test_rows_said_not_to_read_positions_have_a_jacobian_free_of_them():
    # the complex-step K leaves out the dr columns of these rows (jacobians.element_blocks)
    system = System(_rich_model())
    Y, t, nb = system.Y0.copy(), 0.37, system.nb
    free = np.array([not jacobian_reads_positions(k) for k in system.static.row_kind])
    assert {POINT, DP1, ANGLE} <= set(system.static.row_kind[free].tolist())
    assert DP2 in set(system.static.row_kind[~free].tolist())
    moved = Y.copy()
    for b in range(nb):
        moved[7 * b : 7 * b + 3] += np.random.default_rng(b).normal(size=3)
    J0, J1 = system.constraint_jacobian(t, Y)[1], system.constraint_jacobian(t, moved)[1]
    assert np.abs(J1[free] - J0[free]).max() < 1e-14
    assert np.abs(J1[~free] - J0[~free]).max(axis=1).min() > 1e-3  # every other row kind here does read them


def test_lie_kinematic_block_matches_the_exact_dexp_inverse():
    # x_theta' = T(x)^-1 w; its derivative at x = 0 is -w^/2
    w = np.array([0.3, -1.2, 0.7])

    def tinv(x):
        th = np.linalg.norm(x)
        X = np.array([[0, -x[2], x[1]], [x[2], 0, -x[0]], [-x[1], x[0], 0]])
        c = (1 - 0.5 * th / np.tan(0.5 * th)) / th**2 if th > 1e-8 else 1.0 / 12
        return np.eye(3) + 0.5 * X + c * X @ X

    system = System(two_link())
    Y = system.Y0.copy()
    Y[7 * system.nb + 3 : 7 * system.nb + 6] = w
    Li, Lj, Lv = np.zeros(18, np.int64), np.zeros(18, np.int64), np.zeros(18)
    ik.lie_kinematic_blocks(system.static.nb, Y, Li, Lj, Lv)
    L = np.zeros((12, 12))
    np.add.at(L, (Li, Lj), Lv)
    eps = 1e-6
    fd = np.column_stack([(tinv(eps * e) @ w - tinv(-eps * e) @ w) / (2 * eps) for e in np.eye(3)])
    assert np.abs(L[3:6, 3:6] - fd).max() < 1e-8


# ----------------------------------------------------------------------------- redundancy
@pytest.mark.parametrize("integrator", ["cros", "galpha"])
def test_four_bar_with_four_revolutes_runs(integrator):
    theta2 = math.radians(60)
    res = simulate(four_bar(theta2=theta2, speed=2.0), integrator=integrator, t_end=1.5, step=1e-3, output_step=0.01)
    assert res.status == "completed_with_warnings"  # the redundancy warning
    assert "rank 18" in res.warnings[0].message and res.warnings[0].time == 0.0
    # later warnings only say that other (equally redundant) rows are left out of the solve
    assert all(w.kind == "redundant" and "the rank stays 18" in w.message for w in res.warnings[1:])
    for name in ("crank_pivot", "crank_coupler", "coupler_rocker", "rocker_pivot"):
        assert f"'{name}'" in res.warnings[0].message
    _, th4 = FourBar(1.0, 0.3, 1.0, 0.8).positions(theta2 + 2.0 * res.t)
    R = res.rotation("rocker")
    err = np.angle(np.exp(1j * (np.arctan2(R[:, 1, 0], R[:, 0, 0]) - th4)))
    assert np.abs(err).max() < 1e-5
    assert res.max_violation()[0] < 1e-5
    # minimum-norm reactions: nothing out of the plane of motion
    F, T = res.reaction("crank_pivot", "global")
    assert np.abs(F[:, 2]).max() < 1e-6 and np.abs(T[:, :2]).max() < 1e-6


@pytest.mark.parametrize("integrator", ["cros", "galpha"])
def test_redundant_multipliers_match_the_core_choice(integrator):
    # Bricard's 6R linkage (rank 29 of 30, redundancy not structural): the reported
    # multipliers are the minimum sum C_ii lam_i^2 ones, the limit of the core's
    # regularised Schur solve, and give the same constraint load
    import os

    from MBDWorkbench.solver import load

    model = load(os.path.join(os.path.dirname(os.path.dirname(__file__)), "examples", "bricard.json"))
    ref = simulate(model, integrator="rk4", t_end=0.1, step=5e-4)
    res = simulate(model, integrator=integrator, t_end=0.1, step=5e-4, rtol=1e-9, atol=1e-9)
    assert "rank 29" in res.warnings[0].message
    lam_ref, lam = ref._rows[0]["lam"], res._rows[0]["lam"]
    assert np.abs(lam - lam_ref).max() < 1e-5 * np.abs(lam_ref).max()
    lam_ref, lam = ref._rows[-1]["lam"], res._rows[-1]["lam"]
    assert np.abs(lam - lam_ref).max() < 2e-3 * np.abs(lam_ref).max()
    assert res.max_violation()[0] < 1e-5


def test_four_bar_free_motion_keeps_closure_and_energy():
    res = simulate(four_bar(), integrator="cros", t_end=2.0, step=1e-3, output_step=0.01)
    assert res.max_violation()[0] < 1e-4
    assert res.energy_drift() < 1e-3


def test_rank_analysis_keeps_driver_rows():
    system = System(slider_crank(redundant=True))
    rank, drop, involved = rank_analysis(system, 0.0, system.Y0)
    assert (rank, len(drop)) == (18, 3)
    assert not np.any(system.static.row_prog[drop] >= 0)
    assert rank_analysis(System(slider_crank()), 0.0, System(slider_crank()).Y0)[1].size == 0


def test_rank_loss_at_a_limit_position_is_detected_and_named():
    # four-bar with d = a + b + c: at crank angle 0 all links are aligned and Phi_q loses
    # one more rank (16 instead of 17); a stepper started off that position warns when
    # it comes near it at an output time
    a, b, c = 0.6, 0.45, 0.7
    system = System(four_bar(theta2=0.0, d=a + b + c, a=a, b=b, c=c))
    rank, drop, involved = rank_analysis(system, 0.0, system.Y0)
    assert rank == 16 and len(drop) == 4
    Y = system.Y0.copy()
    turned = np.empty(4)
    quat_mul(quaternion.from_axis_angle([0, 0, 1], 0.1), Y[3:7].copy(), turned)
    Y[3:7] = turned
    stepper = CROSStepper(system, Settings(integrator="cros"), 0.0, Y)
    assert stepper.rank == 17 and len(stepper.warnings) == 1
    stepper._check_rank(0.4, Y)
    assert len(stepper.warnings) == 1
    stepper._check_rank(0.5, system.Y0)
    assert "nearly rank-deficient at t = 0.5 s" in stepper.warnings[-1].message
    assert "'coupler_rocker'" in stepper.warnings[-1].message and "'rocker_pivot'" in stepper.warnings[-1].message


# ----------------------------------------------------------------------------- projection
def test_projection_closes_the_ode_form_integrators():
    free = simulate(two_link(), integrator="rk4", t_end=2.0, step=2e-3, baumgarte_alpha=0.0, baumgarte_beta=0.0)
    proj = simulate(
        two_link(), integrator="rk4", t_end=2.0, step=2e-3, baumgarte_alpha=0.0, baumgarte_beta=0.0, projection=True
    )
    assert chain_closure(proj).max() < 1e-10 < chain_closure(free).max()
    rate = np.abs(proj._stack("rate")).max()
    assert rate < 1e-9
    radau = simulate(two_link(), integrator="radau", t_end=0.5, step=0.01, projection=True)
    assert radau.status == "completed" and chain_closure(radau).max() < 1e-10


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "field,value", [("step", 0.0), ("step", -1e-3), ("rtol", 0.0), ("atol", -1.0), ("rho_inf", 1.5), ("rho_inf", -0.1)]
)
def test_bad_settings_name_the_field(field, value):
    with pytest.raises(ModelError, match=f"settings.{field}"):
        simulate(two_link(), integrator="galpha", t_end=0.1, **{field: value})
    settings = Settings(integrator="cros")
    setattr(settings, field, value)
    system = System(two_link())
    with pytest.raises(ModelError, match=f"settings.{field}"):
        make_stepper(system, settings, 0.0, system.Y0)


@pytest.mark.parametrize("integrator", ["galpha", "cros"])
def test_locked_mechanism_stops_with_time_and_joints(integrator):
    # non-Grashof four-bar driven past its limit position: it locks at
    # |B0 - A| = b + c, i.e. cos(theta2) = (a^2 + d^2 - (b + c)^2) / (2 a d)
    d, a, b, c = 1.0, 0.6, 0.45, 0.7
    t_lock = math.acos((a * a + d * d - (b + c) ** 2) / (2 * a * d)) - 1.0
    with pytest.raises(SimulationError) as info:
        simulate(
            four_bar(theta2=1.0, speed=1.0, d=d, a=a, b=b, c=c),
            integrator=integrator,
            t_end=1.0,
            step=1e-3,
            output_step=0.01,
        )
    e = info.value
    assert t_lock - 0.01 < e.time < t_lock + 0.1
    assert f"t = {e.time:.6g} s" in str(e)
    names = {n for n, _ in e.worst_joints}
    assert names and names <= {"crank_pivot", "crank_coupler", "coupler_rocker", "rocker_pivot", "motor"}
    assert e.results.status == "failed" and e.results.t[-1] > t_lock - 0.05
