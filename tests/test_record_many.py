"""Results.record_many (K output samples in one compiled loop, results/sample_kernels.py) stores
what K calls of Results.record store, on the states of real runs: every stored column, the
reactions, joint coordinates, contacts.csv's values, the energies and the written files, for
models with a driver, springs and dampers, a slider-crank, rods (distance joints), a redundant
set (the minimum-norm multipliers), compliant and rigid stops, contacts of every kind with
friction, stiction patches and joint friction (its rows on the compiled friction solve)."""

import json
import os

import numpy as np
import pytest
from test_contact_samples import model as contact_model

from MBDWorkbench.solver import from_dict, kernels, sample_path, simulate
from MBDWorkbench.solver.numerics import jit
from MBDWorkbench.solver.results.results import Results
from MBDWorkbench.solver.system.friction import SLIP, STICK, JointFriction
from MBDWorkbench.solver.system.system import System

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")
PLANE = {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}


def example(name: str, **settings) -> dict:
    with open(os.path.join(EXAMPLES, f"{name}.json"), encoding="utf-8") as f:
        data = json.load(f)
    data["settings"].update(accuracy=False, **settings)
    return data


def driven_double_pendulum() -> dict:
    """The two-link chain with its elbow driven by an expression and a torsion spring-damper at its base."""
    data = example("two_link", t_end=1.0, output_step=0.01)
    data["drivers"] = [{"name": "elbow_motor", "type": "rotational", "joint": "elbow", "profile": "0.5*sin(3*t)"}]
    data["forces"] = [{"name": "torsion", "type": "rotational_spring_damper", "joint": "base", "stiffness": 4.0,
                       "damping": 0.3}]  # fmt: skip
    return data


def spinning_rotor() -> dict:
    """A rotor driven at 40 rad/s sampled every 0.1 s (4 rad between samples: the angle's branch
    comes from the previous sample's rate), with a damped spring pulling on its rim."""
    rotor = {"name": "rotor", "mass": 1.0, "inertia": [0.1, 0.1, 0.2], "position": [0, 0, 0]}
    axle = {"name": "axle", "type": "revolute", "body_i": "ground", "body_j": "rotor",
            "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}}  # fmt: skip
    motor = {"name": "motor", "type": "rotational", "joint": "axle", "profile": {"type": "constant_speed", "speed": 40}}
    spring = {"name": "spring", "type": "spring_damper", "body_i": "ground", "point_i": [1, 0, 0], "body_j": "rotor",
              "point_j": [0.2, 0, 0], "stiffness": 50.0, "damping": 2.0, "free_length": 0.5}  # fmt: skip
    settings = {"t_end": 2.0, "step": 1e-3, "output_step": 0.1, "integrator": "rk4", "accuracy": False}
    return {"gravity": [0, 0, -9.81], "bodies": [rotor], "joints": [axle], "drivers": [motor], "forces": [spring],
            "settings": settings}  # fmt: skip


def stop_pendulum(stop: dict) -> dict:
    """A rod pendulum falling onto the lower limit of its pin."""
    rod = {"name": "rod", "mass": 1.0, "inertia": [1e-4, 0.02, 0.02], "position": [0.25, 0, 0]}
    pin = {"name": "pin", "type": "revolute", "body_i": "ground", "body_j": "rod", "angle_min": -0.6,
           "angle_stop": stop, "frame": {"origin": [0, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}}  # fmt: skip
    settings = {"t_end": 1.0, "step": 1e-4, "output_step": 5e-3, "integrator": "rk4", "accuracy": False}
    return {"gravity": [0, -9.81, 0], "bodies": [rod], "joints": [pin], "settings": settings}


def rods() -> dict:
    """A point mass hanging from a rod (distance joint) from a body on a rod, swinging."""
    a = {"name": "a", "mass": 1.0, "inertia": [0.01, 0.01, 0.01], "position": [0.5, 0, -0.5]}
    p = {"name": "p", "mass": 0.5, "point_mass": True, "position": [0.9, 0, -0.9]}
    joints = [
        {"name": "r0", "type": "distance", "body_i": "ground", "body_j": "a", "frame": {"origin": [0, 0, 0]},
         "point_j": [0.4, 0, -0.4]},
        {"name": "r1", "type": "distance", "body_i": "a", "body_j": "p", "frame": {"origin": [0.6, 0, -0.6]},
         "point_j": [0.9, 0, -0.9]},
    ]  # fmt: skip
    settings = {"t_end": 0.5, "step": 1e-3, "output_step": 0.01, "integrator": "rk4", "accuracy": False}
    return {"gravity": [0, 0, -9.81], "bodies": [a, p], "joints": joints, "settings": settings}


def stiction_block() -> dict:
    """A box sliding to rest on its face with stiction (the friction solve's patches)."""
    box = {"name": "box", "mass": 1.0, "inertia": [1e-3] * 3, "position": [0, 0, 0.05], "velocity": [0.3, 0, 0]}
    pair = {"name": "floor", "body_a": "ground", "body_b": "box", "shape_a": PLANE, "stiffness": 1e6,
            "shape_b": {"type": "box", "center": [0, 0, 0], "size": [0.1, 0.1, 0.1]},
            "friction_law": "stiction", "mu_s": 0.5, "mu_k": 0.4}  # fmt: skip
    settings = {"t_end": 0.2, "step": 1e-4, "output_step": 5e-3, "integrator": "rk4", "accuracy": False}
    return {"gravity": [0, 0, -9.81], "bodies": [box], "contacts": [pair], "settings": settings}


def joint_friction() -> dict:
    """A bar swinging on a pin with Coulomb friction."""
    data = stop_pendulum({"model": "compliant"})
    pin = data["joints"][0]
    del pin["angle_min"], pin["angle_stop"]
    pin["friction"] = {"mu_s": 0.3, "mu_k": 0.3, "pin_radius": 0.02}
    data["settings"].update(t_end=0.3, output_step=0.01)
    return data


def run_states(data: dict, monkeypatch) -> tuple:
    """(the run's Results, t (K,), Y (K, n), acc (K, 6)) of every sample the run recorded."""
    calls = []
    record = Results.record

    def spy(self, t, Y, acc, lam=None, Ydot=None):
        calls.append((float(t), np.array(Y, dtype=float), np.array(acc, dtype=float)))
        return record(self, t, Y, acc, lam, Ydot)

    with monkeypatch.context() as patch:
        patch.setattr(Results, "record", spy)
        patch.setattr(sample_path, "ENABLED", False)  # the slow path records every sample by record()
        res = simulate(from_dict(data))
    assert res.status.startswith("completed")
    t, Y, acc = (np.array(v) for v in zip(*calls))
    return res, t, Y, acc


def fresh(res: Results) -> Results:
    """Empty Results of a new System of the run's model (the same start for both paths)."""
    return Results(System(res.model, res.system.dropped), res.settings)


def per_row(res: Results, t, Y, acc) -> Results:
    out = fresh(res)
    for k in range(len(t)):
        out.record(t[k], Y[k], acc[k])
    return out


def assert_same(a: Results, b: Results) -> None:
    """Every stored column, and what the accessors derive from them, bitwise equal."""
    keys = a._samples.keys()
    assert keys == b._samples.keys()
    for key in keys:
        np.testing.assert_array_equal(a._samples.column(key), b._samples.column(key), err_msg=key)
    for joint in a.joint_names:
        for frame in ("joint", "global"):
            for x, y in zip(a.reaction(joint, frame), b.reaction(joint, frame)):
                np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(a.joint_coordinate(joint), b.joint_coordinate(joint))
        np.testing.assert_array_equal(a.joint_coordinate_rate(joint), b.joint_coordinate_rate(joint))
    for pair in a.contact_names:
        np.testing.assert_array_equal(a.contact(pair), b.contact(pair))
    for driver in a.driver_names:
        np.testing.assert_array_equal(a.driver_power(driver), b.driver_power(driver))
    for key, value in a.energy().items():
        np.testing.assert_array_equal(value, b.energy()[key], err_msg=key)
    np.testing.assert_array_equal(a.system.static.force_vecs, b.system.static.force_vecs)  # impact speeds, peaks
    assert a._last_coordinates[0] == b._last_coordinates[0]
    np.testing.assert_array_equal(a._last_coordinates[1], b._last_coordinates[1])


def counted_rows(res: Results, monkeypatch) -> list:
    """The times of the samples record_many leaves to record (a list filled as it runs)."""
    rows = []
    record = res.record

    def counted(t, Y, acc, lam=None, Ydot=None):
        rows.append(t)
        return record(t, Y, acc, lam, Ydot)

    monkeypatch.setattr(res, "record", counted)
    return rows


def left_to_record(res: Results, t, Y, acc, monkeypatch) -> list:
    """record_many of the run's states into fresh Results, which must equal record per row; returns
    the times of the samples it left to record."""
    expected = per_row(res, t, Y, acc)
    got = fresh(res)
    left = counted_rows(got, monkeypatch)
    got.record_many(t, Y, acc)
    assert_same(expected, got)
    return left


BULK = {
    "driven double pendulum": driven_double_pendulum,
    "spinning rotor": spinning_rotor,
    "slider-crank": lambda: example("slider_crank", t_end=0.5),
    "compliant stop": lambda: stop_pendulum({"model": "compliant"}),
    "rigid stop": lambda: stop_pendulum({"model": "rigid", "restitution": 0.5}),
    "contacts": contact_model,
    "joint friction": joint_friction,
}
PER_ROW = {"rods": rods, "stiction patches": stiction_block}


@pytest.mark.parametrize("name", BULK)
def test_record_many_stores_what_record_stores_in_one_compiled_pass(name, monkeypatch):
    res, t, Y, acc = run_states(BULK[name](), monkeypatch)
    assert left_to_record(res, t, Y, acc, monkeypatch) == []  # every sample in the compiled loop


@pytest.mark.parametrize("name", PER_ROW)
def test_record_many_records_rods_and_stiction_patches_a_row_at_a_time(name, monkeypatch):
    res, t, Y, acc = run_states(PER_ROW[name](), monkeypatch)
    assert left_to_record(res, t, Y, acc, monkeypatch) == list(t)


def test_redundant_rows_take_the_minimum_norm_multipliers_of_record(monkeypatch):
    """The Bricard linkage (6R, one equation redundant): each sample's rows are decided again and
    one is dropped, so every sample goes through record's minimum-norm split; the results equal."""
    res, t, Y, acc = run_states(example("bricard", t_end=0.3, output_step=0.02), monkeypatch)
    assert left_to_record(res, t, Y, acc, monkeypatch) == list(t)


def test_batches_in_pieces_and_after_record_continue_the_same_run(monkeypatch):
    """A run recorded by record for its first sample, then record_many in uneven batches (one of a
    single sample), equals record per row: the angles' branches and the contact peaks carry over."""
    turned = {}
    for build in (spinning_rotor, contact_model):
        res, t, Y, acc = run_states(build(), monkeypatch)
        expected = per_row(res, t, Y, acc)
        got = fresh(res)
        got.record(t[0], Y[0], acc[0])
        for a, b in ((1, 2), (2, 7), (7, 7), (7, len(t))):
            got.record_many(t[a:b], Y[a:b], acc[a:b])
        assert_same(expected, got)
        turned[build] = got.joint_coordinate(got.joint_names[0])[:, 0]
    assert np.ptp(turned[spinning_rotor]) > 70.0 and np.all(np.diff(turned[spinning_rotor]) > 3.0)  # unwrapped


def test_written_files_equal(tmp_path, monkeypatch):
    res, t, Y, acc = run_states(driven_double_pendulum(), monkeypatch)
    expected, got = per_row(res, t, Y, acc), fresh(res)
    got.record_many(t, Y, acc)
    expected.write(str(tmp_path / "a")), got.write(str(tmp_path / "b"))
    names = sorted(os.listdir(tmp_path / "a"))
    assert names == sorted(os.listdir(tmp_path / "b")) and "joints.csv" in names
    for name in names:
        with open(tmp_path / "a" / name, "rb") as fa, open(tmp_path / "b" / name, "rb") as fb:
            assert fa.read() == fb.read(), name


def test_bad_shapes_are_refused_by_name(monkeypatch):
    res, t, Y, acc = run_states(spinning_rotor(), monkeypatch)
    with pytest.raises(ValueError, match="Y has the shape"):
        fresh(res).record_many(t, Y[:, :-1], acc)
    with pytest.raises(ValueError, match="acc has the shape"):
        fresh(res).record_many(t, Y, acc[:-1])


@pytest.mark.parametrize("build", [driven_double_pendulum, contact_model])
def test_interpreted_start_records_the_same_samples(build, monkeypatch):
    """On a cold cache record_samples runs as its Python twin (numerics/jit.py): the same samples up
    to rounding as the compiled loop."""
    res, t, Y, acc = run_states(build(), monkeypatch)
    t, Y, acc = t[:30], Y[:30], acc[:30]
    compiled = fresh(res)
    compiled.record_many(t, Y, acc)
    interpreted = fresh(res)
    monkeypatch.setattr(kernels, "_ENTRY_POINTS", {})  # fast_call's compiled entry points forgotten
    jit.start_interpreting(lambda: False)
    try:
        interpreted.record_many(t, Y, acc)
    finally:
        jit.stop_interpreting()
    assert jit.stop_reason() == "stopped"  # it ran interpreted to the end
    for key in compiled._samples.keys():
        a, b = compiled._samples.column(key), interpreted._samples.column(key)
        assert np.abs(a - b).max(initial=0.0) <= 1e-12 * max(1.0, float(np.abs(a).max(initial=0.0))), key


@pytest.mark.parametrize("mode", ["stick", "slip"])
def test_joint_friction_rows_take_the_modes_in_force(mode, monkeypatch):
    """record_many evaluates each joint-friction row by the compiled friction solve with the modes
    and senses in force, as record does: a stuck pin (its lock row's multiplier is the friction) or
    one slipping in a set sense; the friction column (efforts, loads, modes, powers) equal too."""
    res, t, Y, acc = run_states(joint_friction(), monkeypatch)
    expected, got = fresh(res), fresh(res)
    for r in (expected, got):
        friction = r.system.friction
        friction.modes[:] = STICK if mode == "stick" else SLIP
        friction.senses[:] = 0.0 if mode == "stick" else -1.0
        friction.started = True
    for k in range(len(t)):
        expected.record(t[k], Y[k], acc[k])
    left = counted_rows(got, monkeypatch)
    got.record_many(t, Y, acc)
    assert left == []
    assert_same(expected, got)
    pin = got.joint_friction("pin")
    assert np.all(pin["state"] == (1.0 if mode == "stick" else 0.0)) and np.abs(pin["effort"]).max() > 0.0


def test_joint_friction_on_the_reference_solve_is_recorded_a_row_at_a_time(monkeypatch):
    """JointFriction.compiled off (record takes the NumPy reference solve): record_many leaves every
    row to record."""
    res, t, Y, acc = run_states(joint_friction(), monkeypatch)
    monkeypatch.setattr(JointFriction, "compiled", False)
    assert left_to_record(res, t[:5], Y[:5], acc[:5], monkeypatch) == list(t[:5])
