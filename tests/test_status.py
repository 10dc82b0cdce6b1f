"""Run status and quality gate (docs/solver.md, "Run status and quality gate"): one test per
warning kind, over-driven models refused before solving, non-finite profiles named, no run with
a violation above its tolerance ends 'completed', mass-scale invariance of the motion and of
the gate's decisions, CLI exit codes. Violations, energies and singular times are computed
here from the sampled body poses and the closed forms, not taken from the gate's numbers."""

import copy
import json
import math
import os

import numpy as np
import pytest
from oracles.n_four_bar import crank_angle, model_dict
from scipy.optimize import brentq

from MBDWorkbench import cli
from MBDWorkbench.solver import Cancelled, ModelError, SimulationError, from_dict, load, quality, simulate
from MBDWorkbench.solver.integrators import names
from MBDWorkbench.solver.model.builders import revolute_z, rod
from MBDWorkbench.solver.results.status import COMPLETED, COMPLETED_WITH_WARNINGS, EXIT_CODES, FAILED, OverdrivenError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PENDULUM = json.load(open(os.path.join(ROOT, "examples", "pendulum.json")))
SLIDER_CRANK = json.load(open(os.path.join(ROOT, "examples", "slider_crank.json")))
FOUR_BAR = os.path.join(ROOT, "examples", "four_bar_spatial.json")


def pendulum(**settings) -> dict:
    """The 1 m, 1 kg pendulum released from the horizontal, pivot about y at the origin."""
    d = copy.deepcopy(PENDULUM)
    d["settings"].update(settings)
    return d


def kinds(res) -> list[str]:
    return [w.kind for w in res.warnings]


def only(res, kind):
    found = [w for w in res.warnings if w.kind == kind]
    assert len(found) == 1, res.warnings
    return found[0]


def pivot_offset(res) -> np.ndarray:
    """|component| of the pendulum joint's point mismatch [m] per sample, from the bob's pose
    (the revolute's origin is 1 m from the bob's CoG along -x of its initial frame)."""
    return np.abs(res.point("bob", [-1.0, 0.0, 0.0])).max(axis=1)


# ----------------------------------------------------------------------------- statuses
def test_a_good_run_is_completed_without_warnings():
    res = simulate(from_dict(pendulum(t_end=0.5)))
    assert res.status == COMPLETED and res.warnings == []
    assert res.summary()["status"] == COMPLETED and res.summary()["warnings"] == []


# ----------------------------------------------------------------------------- violation
def test_violation_warning_names_the_joint_and_the_first_time():
    # explicit Euler without Baumgarte feedback: the bob drifts off its pivot
    res = simulate(from_dict(pendulum(t_end=2.0)), integrator="euler", step=5e-3, baumgarte_alpha=0, baumgarte_beta=0)
    w = only(res, "violation")
    assert res.status == COMPLETED_WITH_WARNINGS
    assert w.elements[0] == "pivot"
    L = 0.5  # length scale: the bob's CoG and the pivot are 1 m apart, their centroid halfway
    tol = res.settings.violation_tol * L
    offset = pivot_offset(res)
    first = int(np.argmax(offset > tol))
    assert offset.max() > 10 * tol and offset[:first].max() <= tol * (1 + 1e-6)
    assert w.time == pytest.approx(res.t[first])


@pytest.mark.parametrize(
    "integrator,step,alpha",
    [
        ("euler", 1e-3, 10.0),
        ("euler", 4e-3, 0.0),
        ("symplectic_euler", 2e-3, 0.0),
        ("rk4", 1e-2, 0.0),
        ("rk4", 1e-3, 10.0),
    ],
)
def test_no_run_with_a_violation_above_its_tolerance_ends_completed(integrator, step, alpha):
    res = simulate(
        from_dict(pendulum(t_end=1.5)), integrator=integrator, step=step, baumgarte_alpha=alpha, baumgarte_beta=alpha
    )
    above = pivot_offset(res).max() > res.settings.violation_tol * 0.5
    assert (res.status == COMPLETED) == (not above and not res.warnings)
    assert above == ("violation" in kinds(res))


def test_violation_tolerance_is_a_setting():
    d = pendulum(t_end=0.3, violation_tol=1e-14)  # below what rk4 keeps: flagged
    res = simulate(from_dict(d))
    assert "violation" in kinds(res) and res.status == COMPLETED_WITH_WARNINGS
    assert simulate(from_dict(d), violation_tol=1e-3).status == COMPLETED
    for key, bad in [("violation_tol", 0.0), ("violation_angle_tol", -1.0), ("energy_tol", float("nan"))]:
        with pytest.raises(ModelError, match=f"settings.{key}"):
            from_dict(pendulum(**{key: bad}))
    with pytest.raises(ModelError, match="settings.allow_overdriven"):
        from_dict(pendulum(allow_overdriven="yes"))


# ----------------------------------------------------------------------------- energy
def pendulum_energy(res) -> np.ndarray:
    """Total energy [J] of the bob from its sampled CoG motion (m = 1 kg, J = 4e-5 kg m^2, g = 9.81)."""
    v, w, z = res.velocity("bob"), res.angular_velocity("bob"), res.position("bob")[:, 2]
    return 0.5 * (v * v).sum(axis=1) + 0.5 * 4e-5 * (w * w).sum(axis=1) + 9.81 * z


def test_energy_drift_warning_for_a_conservative_model():
    res = simulate(from_dict(pendulum(t_end=2.0)), integrator="euler", step=5e-3)
    E = pendulum_energy(res)
    drift = np.abs(E - E[0]).max() / (0.5 * (res.velocity("bob") ** 2).sum(axis=1)).max()
    assert drift > 2 * res.settings.energy_tol
    w = only(res, "energy_drift")
    assert res.status == COMPLETED_WITH_WARNINGS
    k = int(np.argmin(np.abs(res.t - w.time)))
    assert abs(E[k] - E[0]) > 0.9 * np.abs(E - E[0]).max()  # reported at the worst sample
    assert "energy_drift" not in kinds(simulate(from_dict(pendulum(t_end=2.0))))  # rk4 keeps it


BAR_AT_REST = {
    "name": "bar_at_rest",
    "gravity": [0, 0, -9.81],
    "bodies": [{"name": "bar", "mass": 2.0, "inertia": [0.001, 0.17, 0.17], "position": [0.5, 0, 0]}],
    "joints": [
        {
            "name": "pivot",
            "type": "revolute",
            "body_i": "ground",
            "body_j": "bar",
            "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]},
        },
        {
            "name": "level",
            "type": "perpendicular",
            "body_i": "ground",
            "body_j": "bar",
            "frame_i": {"origin": [0.5, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]},
            "frame_j": {"origin": [0, 0, 0], "z_axis": [1, 0, 0], "x_axis": [0, 1, 0]},
        },
    ],
    "settings": {"t_end": 1.0, "step": 1e-3, "output_step": 0.01, "integrator": "rk4"},
}


@pytest.mark.parametrize("integrator", ["rk4", "galpha"])
def test_a_model_at_rest_completes_without_an_energy_warning(integrator):
    """A bar held level by a revolute and a perpendicular joint does not move: its energy balance is rounding
    (~1e-16 J), judged against the model's energy scale, not against the zero energy it exchanges."""
    res = simulate(from_dict(BAR_AT_REST), integrator=integrator)
    assert np.abs(res.position("bar") - [0.5, 0, 0]).max() < 1e-9  # it really is at rest
    assert "energy_drift" not in kinds(res)
    assert res.status == COMPLETED


def test_a_small_swing_still_shows_its_energy_drift():
    """The floor of the energy scale (1e-9 m g L) hides no real drift: a 1 mrad swing exchanges ~5e-6 J."""
    d = pendulum(t_end=2.0)
    d["bodies"][0]["position"] = [math.sin(1e-3), 0.0, -math.cos(1e-3)]  # 1 mrad from the bottom
    res = simulate(from_dict(d), integrator="euler", step=5e-3)
    E = pendulum_energy(res)
    assert np.abs(E - E[0]).max() > 0.05 * 9.81 * (1 - math.cos(1e-3))  # euler's drift is real here
    assert "energy_drift" in kinds(res)


def test_energy_is_not_judged_for_non_conservative_models():
    damped = pendulum(t_end=2.0)
    damped["forces"] = [
        {"name": "damper", "type": "rotational_spring_damper", "joint": "pivot", "stiffness": 0.0, "damping": 0.5}
    ]
    assert not quality.is_conservative(from_dict(damped))
    spring = copy.deepcopy(damped)
    spring["forces"][0]["damping"] = 0.0
    assert quality.is_conservative(from_dict(spring))
    assert not quality.is_conservative(from_dict(SLIDER_CRANK))  # a driver
    res = simulate(from_dict(damped), integrator="euler", step=2e-3)
    assert "energy_drift" not in kinds(res)


# ----------------------------------------------------------------------------- redundancy
def test_redundant_constraints_warned_once_for_every_integrator_family():
    model = load(FOUR_BAR)  # planar four-bar on four spatial revolutes: 3 redundant equations
    joints = {j.name for j in model.joints}
    for integrator in ("rk4", "galpha"):
        res = simulate(model, integrator=integrator, t_end=0.1)
        w = only(res, "redundant")
        assert res.status == COMPLETED_WITH_WARNINGS and w.time == 0.0
        assert set(w.elements) == joints
    rk4 = only(simulate(model, t_end=0.05), "redundant")
    assert "not unique" in rk4.message and "minimum-norm" in rk4.message and "3 of 20" in rk4.message


# ----------------------------------------------------------------------------- over-driving
def triangle_dict() -> dict:
    """Two rods pinned to the ground at both ends (a 0-DoF triangle) with a motor on the
    first pivot: over-driven."""
    a = 0.25 * math.pi
    bodies = [rod("r1", 1.0, 1.0, (0, 0), a), rod("r2", 1.0, 1.0, (math.cos(a), math.sin(a)), -a)]
    joints = [
        revolute_z("O", "ground", "r1", (0, 0)),
        revolute_z("A", "r1", "r2", (math.cos(a), math.sin(a))),
        revolute_z("B", "r2", "ground", (2 * math.cos(a), 0)),
    ]
    motor = {"name": "motor", "type": "rotational", "joint": "O", "profile": "0.5*t"}
    return {"name": "triangle", "gravity": [0, -9.81, 0], "bodies": bodies, "joints": joints, "drivers": [motor]}


def two_motors_dict(speed2: str = "2*t") -> dict:
    d = pendulum(t_end=0.2)
    d["drivers"] = [
        {"name": "m1", "type": "rotational", "joint": "pivot", "profile": "2*t"},
        {"name": "m2", "type": "rotational", "joint": "pivot", "profile": speed2},
    ]
    return d


@pytest.mark.parametrize(
    "model,drivers",
    [(triangle_dict(), ["motor"]), (two_motors_dict(), ["m1", "m2"]), (two_motors_dict("3*t"), ["m1", "m2"])],
)
def test_overdriven_models_are_refused_naming_the_drivers(model, drivers):
    with pytest.raises(OverdrivenError) as e:
        simulate(from_dict(model), t_end=0.2)
    assert e.value.drivers == drivers and e.value.path == "drivers"
    assert all(f"'{d}'" in str(e.value) for d in drivers) and "--force" in str(e.value)
    assert isinstance(e.value, ModelError)  # bad input: exit code 2


@pytest.mark.parametrize("model", [triangle_dict(), two_motors_dict(), two_motors_dict("3*t")])
@pytest.mark.parametrize("integrator", ["rk4", "galpha"])
def test_a_forced_overdriven_run_never_ends_completed(model, integrator):
    try:
        res = simulate(from_dict(model), t_end=0.2, integrator=integrator, allow_overdriven=True)
    except SimulationError as e:
        res = e.results
        assert res.status == FAILED
    else:
        assert res.status == COMPLETED_WITH_WARNINGS
    assert "overdriven" in kinds(res)


# ----------------------------------------------------------------------------- singular positions
def horizontal_time(n: int = 1) -> float:
    """Time [s] at which the A02 cranks pass the horizontal (theta = 0), from the reduction."""
    return brentq(lambda t: crank_angle(np.array([0.0, t]), n=n)[0][-1], 0.1, 0.4, xtol=1e-13)


def test_near_singular_warning_at_the_dead_centre_of_a02():
    t_star = horizontal_time()
    res = simulate(from_dict(model_dict(1)), t_end=t_star, output_step=t_star / 40, step=t_star / 800)
    w = only(res, "near_singular")
    assert w.time == pytest.approx(t_star, abs=1e-9)
    assert {"A0", "A1"} & set(w.elements)
    assert res.status == COMPLETED_WITH_WARNINGS


def parallelogram_at_dead_centre(w: float = 1.0) -> dict:
    """A02 with one window started exactly at the horizontal (rank one below the generic one),
    cranks turning up at w [rad/s]: it leaves the singular position at once."""
    bodies = [
        rod("crank0", 1.0, 1.0, (0, 0), 0.0),
        rod("crank1", 1.0, 1.0, (1, 0), 0.0),
        rod("coupler", 1.0, 1.0, (1, 0), 0.0),
    ]
    for b in bodies[:2]:
        b["velocity"], b["angular_velocity"] = [0.0, 0.5 * w, 0.0], [0.0, 0.0, w]
    bodies[2]["velocity"] = [0.0, w, 0.0]
    joints = [
        revolute_z("A0", "ground", "crank0", (0, 0)),
        revolute_z("A1", "ground", "crank1", (1, 0)),
        revolute_z("B0", "crank0", "coupler", (1, 0)),
        revolute_z("B1", "coupler", "crank1", (2, 0)),
    ]
    return {"name": "parallelogram", "gravity": [0, -9.81, 0], "bodies": bodies, "joints": joints}


def test_rank_change_when_leaving_a_singular_start():
    res = simulate(from_dict(parallelogram_at_dead_centre()), t_end=0.2, output_step=0.01)
    assert "4 of 20" in only(res, "redundant").message  # 3 planar + 1 at the dead centre
    w = only(res, "rank_change")
    assert "from 16 to 17" in w.message and w.time == pytest.approx(0.01 * round(w.time / 0.01)) and w.time > 0


def test_drift_off_the_constraints_is_not_a_rank_change():
    # Bricard's linkage has one exact dependency on the constraints; explicit Euler drifts off them by a scaled
    # 1e-4, which blurs it to a singular value of ~3e-6 (> SAMPLED_RANK_TOL): the drift is an energy_drift, not
    # a change of mobility (the sampled rank tolerance follows the sample's violation)
    res = simulate(load(os.path.join(ROOT, "examples", "bricard.json")), integrator="euler", t_end=10.0)
    assert "energy_drift" in kinds(res) and "rank_change" not in kinds(res)
    assert res.max_violation()[0] > 1e-5  # it did drift


# ----------------------------------------------------------------------------- masses
def two_link_dict() -> dict:
    return json.load(open(os.path.join(ROOT, "examples", "two_link.json")))


def scaled(d: dict, mass: float = 1.0, length: float = 1.0) -> dict:
    """The model with masses x mass, inertias x mass length^2, lengths and gravity x length."""
    d = copy.deepcopy(d)
    for b in d["bodies"]:
        b["mass"] *= mass
        b["inertia"] = (np.asarray(b["inertia"], float) * mass * length**2).tolist()
        for key in ("position", "velocity"):
            if key in b:
                b[key] = (np.asarray(b[key], float) * length).tolist()
    for j in d["joints"]:
        for key in ("frame", "frame_i", "frame_j"):
            if key in j:
                j[key]["origin"] = (np.asarray(j[key]["origin"], float) * length).tolist()
    d["gravity"] = (np.asarray(d["gravity"], float) * length).tolist()
    return d


def test_ill_scaled_masses_are_named():
    d = pendulum(t_end=0.2)
    d["bodies"].append({"name": "speck", "mass": 1e-6, "inertia": [1e-12] * 3, "position": [2.0, 0, 0]})
    d["joints"].append(
        {"name": "glue", "type": "fixed", "body_i": "bob", "body_j": "speck", "frame": {"origin": [1.5, 0, 0]}}
    )
    L = 1.0  # CoGs at x = 1, 2 and the pivot at 0: centroid x = 1
    entries = {"bob": [1.0, 4e-5 / L**2], "speck": [1e-6, 1e-12 / L**2]}
    ratio = max(map(max, entries.values())) / min(map(min, entries.values()))
    assert ratio > 1e10
    res = simulate(from_dict(d))
    w = only(res, "ill_scaled")
    assert w.elements == ("speck", "bob") and f"{ratio:.2g}" in w.message
    assert "ill_scaled" not in kinds(simulate(from_dict(pendulum(t_end=0.2))))


ABSOLUTE_ATOL = ("bdf", "radau", "lsoda", "galpha")  # error weights atol + rtol |y| with atol in SI units


@pytest.mark.parametrize("integrator", names())
def test_masses_scaled_by_1e_9_move_exactly_alike(integrator):
    """Gravity only: scaling every mass and inertia by one factor changes no acceleration, and
    no decision of the solver or the gate may depend on it. The ODE-form integrators give the
    same bits for a power-of-two factor (no absolute threshold on a mass or a force anywhere);
    1e-9 agrees to rounding, except that the adaptive SciPy integrators' step control amplifies
    the rounding to the level of their error tolerance."""
    base = two_link_dict()
    kw = dict(integrator=integrator, t_end=0.3)
    ref = simulate(from_dict(base), **kw)
    if integrator not in ("cros", "galpha"):  # their sparse LU pivots on the magnitudes: rounding differs
        assert np.array_equal(simulate(from_dict(scaled(base, mass=2.0**-30)), **kw).Y, ref.Y)
    light = simulate(from_dict(scaled(base, mass=1e-9)), **kw)
    adaptive = integrator in ("bdf", "radau", "lsoda")
    assert np.abs(light.Y - ref.Y).max() < (1e-4 if adaptive else 1e-10)
    assert kinds(light) == kinds(ref) and light.status == ref.status


@pytest.mark.parametrize("integrator", names())
def test_a_model_in_millimetres_moves_alike(integrator):
    """Lengths and gravity x 1e3, masses x 1e3 (inertias x 1e9): the same motion in mm and the
    same gate decisions. Units enter only through integrator settings in SI units: the error
    weights atol + rtol |y| (SciPy's integrators, generalized-alpha) and generalized-alpha's
    Newton tolerance on Phi (1e-3 atol [m]); their step sequences differ, within their error."""
    base = two_link_dict()
    ref = simulate(from_dict(base), integrator=integrator, t_end=0.3)
    mm = simulate(from_dict(scaled(base, mass=1e3, length=1e3)), integrator=integrator, t_end=0.3)
    bound = 1e-5 if integrator in ABSOLUTE_ATOL else 1e-12
    assert np.abs(mm.position("link2") / 1e3 - ref.position("link2")).max() < bound
    if integrator not in ("cros", "galpha"):
        assert kinds(mm) == kinds(ref) and mm.status == ref.status
    start = quality.start_of_run(mm.system, mm.Y[0], 0.0, mm.settings)  # the gate's own decisions
    own = quality.gate(mm, start, [])
    ref_start = quality.start_of_run(ref.system, ref.Y[0], 0.0, ref.settings)
    assert [w.kind for w in own] == [w.kind for w in quality.gate(ref, ref_start, [])]


@pytest.mark.parametrize("integrator", ["cros", "galpha"])
def test_index3_rank_warnings_in_millimetres(integrator):
    base = two_link_dict()
    ref = simulate(from_dict(base), integrator=integrator, t_end=0.3)
    mm = simulate(from_dict(scaled(base, mass=1e3, length=1e3)), integrator=integrator, t_end=0.3)
    assert kinds(mm) == kinds(ref)


# ----------------------------------------------------------------------------- profiles
def test_non_finite_load_names_the_force_its_expression_and_time():
    """A load that turns NaN during the run is refused before solving (profiles are checked at
    the output times), naming the force's JSON path, the value and the time."""
    d = pendulum(t_end=0.5)
    d["forces"] = [{"name": "push", "type": "point_force", "body": "bob", "force": [0, 0, "sqrt(0.25 - t)"]}]
    for integrator in ("rk4", "bdf"):
        with pytest.raises(ModelError) as e:
            simulate(from_dict(d), integrator=integrator)
        text = str(e.value)
        assert text.startswith("forces[0].force[2]: its value is nan at t = ") and "blow-up" not in text
        assert 0.25 < float(text.split("at t = ")[1].split(" s")[0]) <= 0.25 + 0.011


def test_non_finite_driver_profile_names_the_driver():
    d = copy.deepcopy(SLIDER_CRANK)
    d["drivers"][0]["profile"] = "sqrt(0.3 - t)"
    with pytest.raises(ModelError) as e:
        simulate(from_dict(d), t_end=0.5)
    text = str(e.value)
    assert text.startswith("drivers[0].profile: its ") and "at t = 0.3" in text and "finite" in text
    d["drivers"][0]["profile"] = "log(t)"
    with pytest.raises(ModelError, match=r"drivers\[0\]\.profile"):
        simulate(from_dict(d), t_end=0.5)  # at the start: bad input


def test_the_gate_also_judges_the_samples_of_a_failed_run():
    d = pendulum(t_end=2.0)  # an absurdly stiff spring with explicit Euler blows up
    d["forces"] = [
        {
            "name": "stiff",
            "type": "spring_damper",
            "body_i": "ground",
            "point_i": [0, 0, -1],
            "body_j": "bob",
            "point_j": [1, 0, 0],
            "stiffness": 1e7,
            "free_length": 0.5,
        }
    ]
    with pytest.raises(SimulationError) as e:
        simulate(from_dict(d), integrator="euler")
    res = e.value.results
    assert res.status == FAILED and "violation" in kinds(res)
    assert pivot_offset(res).max() > res.settings.violation_tol * 0.5


# ----------------------------------------------------------------------------- cancel
def test_ctrl_c_cancels_and_keeps_the_results():
    def progress(t, t_end):
        if t >= 0.05:
            raise KeyboardInterrupt

    with pytest.raises(Cancelled) as e:
        simulate(from_dict(pendulum(t_end=1.0)), progress=progress)
    res = e.value.results  # the slow path stops at 0.05 s; the fast path has recorded its call's samples
    assert res.status == "cancelled" and len(res) >= 6 and res.t[5] == pytest.approx(0.05)


# ----------------------------------------------------------------------------- command line
def write(tmp_path, d, name="model.json"):
    path = tmp_path / name
    path.write_text(json.dumps(d))
    return str(path)


def run(args, capsys):
    code = cli.main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_exit_codes(tmp_path, capsys):
    good = write(tmp_path, pendulum(t_end=0.2))
    code, out, _ = run(["simulate", good, "--quiet", "--out", tmp_path / "a"], capsys)
    assert code == 0 and "status: completed\n" in out
    code, out, _ = run(["simulate", good, "--quiet", "--out", tmp_path / "b", "--violation-tol", "1e-15"], capsys)
    assert code == EXIT_CODES[COMPLETED_WITH_WARNINGS] == 3
    assert "status: completed_with_warnings (1 warning)" in out and "warning [violation at t = " in out
    summary = json.load(open(tmp_path / "b" / "summary.json"))
    assert summary["status"] == COMPLETED_WITH_WARNINGS and summary["warnings"][0]["elements"] == ["pivot"]
    nan = pendulum(t_end=0.5)
    nan["forces"] = [{"name": "push", "type": "point_force", "body": "bob", "force": [0, 0, "sqrt(0.25 - t)"]}]
    code, _, err = run(["simulate", write(tmp_path, nan, "nan.json"), "--quiet", "--out", tmp_path / "c"], capsys)
    assert code == 2 and "forces[0].force[2]" in err  # refused before solving: bad input
    with pytest.raises(SystemExit) as e:
        cli.main(["simulate", good, "--violation-tol", "-1", "--out", str(tmp_path / "d")])
    assert e.value.code == 2 and "--violation-tol" in capsys.readouterr().err


def test_cli_prints_the_integrated_violation_behind_closed_samples(tmp_path, capsys):
    # cros records its state closed onto the joints: the summary also prints the state it integrates
    good = write(tmp_path, pendulum(t_end=0.2))
    code, out, _ = run(["simulate", good, "--quiet", "--integrator", "cros", "--out", tmp_path / "c"], capsys)
    behind = json.load(open(tmp_path / "c" / "summary.json"))["integrated_violation"]
    assert code == 0 and f"integrated state before closing the samples: {behind[0]:.3e} m" in out
    assert behind[0] > 0.0
    code, out, _ = run(["simulate", good, "--quiet", "--integrator", "rk4", "--out", tmp_path / "r"], capsys)
    assert code == 0 and "integrated state" not in out


def test_cli_refuses_an_overdriven_model_unless_forced(tmp_path, capsys):
    path = write(tmp_path, triangle_dict())
    code, _, err = run(["simulate", path, "--quiet", "--t-end", "0.2", "--out", tmp_path / "r"], capsys)
    assert code == 2 and "'motor'" in err and "over-driven" in err
    assert not (tmp_path / "r").exists()
    code, out, err = run(["simulate", path, "--quiet", "--t-end", "0.2", "--force", "--out", tmp_path / "f"], capsys)
    assert code in (3, 4) and "overdriven" in out + err
    assert json.load(open(tmp_path / "f" / "summary.json"))["status"] in (COMPLETED_WITH_WARNINGS, FAILED)


def test_cli_ctrl_c_exits_5_with_partial_results(tmp_path, capsys, monkeypatch):
    class Interrupt:
        def __call__(self, t, t_end):
            if t >= 0.05:
                raise KeyboardInterrupt

    monkeypatch.setattr(cli, "Progress", Interrupt)
    code, _, err = run(["simulate", write(tmp_path, pendulum(t_end=1.0)), "--out", tmp_path / "o"], capsys)
    assert code == 5 and "status: cancelled" in err
    assert json.load(open(tmp_path / "o" / "summary.json"))["status"] == "cancelled"


def test_cli_unexpected_error_writes_a_log_and_exits_70(tmp_path, capsys, monkeypatch):
    def broken(args):
        raise RuntimeError("something\nunexpected")

    monkeypatch.setattr(cli, "cmd_simulate", broken)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    code, out, err = run(["simulate", "whatever.json"], capsys)
    assert code == 70 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "internal error in 'simulate': RuntimeError: something unexpected" in lines[0]
    log = lines[0].rsplit("traceback in ", 1)[1].rstrip(")")
    assert os.path.dirname(log) == str(tmp_path)
    text = open(log).read()
    assert "Traceback" in text and "RuntimeError: something" in text and "simulate whatever.json" in text


# ----------------------------------------------------------------------------- report
def test_the_report_shows_the_status_and_every_run_warning():
    from MBDWorkbench.report import derived, document
    from MBDWorkbench.report.data import from_results

    res = simulate(from_dict(pendulum(t_end=2.0)), integrator="euler", step=5e-3)
    assert {"violation", "energy_drift"} <= set(kinds(res))
    data = from_results(res)
    titles = [title for title, _ in derived.warnings(data, derived.mobility(data))]
    assert titles[0] == "Run status"
    for w in res.warnings:
        assert f"Run warning [{w.kind}] (t = {w.time:.6g} s" in " ".join(titles)
    assert "Run warning [violation] (t = " in " ".join(titles) and "'pivot'" in " ".join(titles)
    rows = dict(document.title_block(data)[0].rows)
    assert rows["Status"] == f"completed_with_warnings ({len(res.warnings)} warnings)"
