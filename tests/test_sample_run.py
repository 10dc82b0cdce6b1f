"""The fast path of the sample loop (solver/sample_path.py, integrators/sample_run.py): many output
samples per compiled call. The same model run with it and with it switched off gives the same
samples and the same events (it takes the slow path's steps, so they agree to rounding or better),
and it did run on each scene."""

import importlib

import numpy as np
import pytest
from test_contact_broad_phase import pile
from test_contact_cam import cam_model
from test_contact_events import ball_drop
from test_contact_settling import box_model
from test_rigid_stops import Q_STOP, SLIDE, pendulum_model
from test_tree_drivers import driven_pendulum

from MBDWorkbench.solver import Cancelled, SimulationError, events, from_dict, sample_path, simulate
from MBDWorkbench.solver.integrators import make_stepper, sample_run
from MBDWorkbench.solver.results.results import Results
from MBDWorkbench.solver.system import broad_phase
from MBDWorkbench.solver.system.system import System

simulate_module = importlib.import_module("MBDWorkbench.solver.simulate")
COLUMNS = ("Y", "lam", "phi", "rate", "T", "V", "Wd", "Wn", "wrench", "effort", "power", "Ydot", "contact", "friction")
G = 9.81


@pytest.fixture(autouse=True)
def unpaced(monkeypatch):
    """Output intervals never split by wall time: both paths take the same chunks of steps."""
    monkeypatch.setattr(simulate_module, "CANCEL_CHECK_S", 1e9)


FAST_ROWS = []  # the samples each fast-path call did, in the last run with it


def counting(monkeypatch):
    """Count the samples of each fast-path call into FAST_ROWS (simulate._fast_samples' return)."""
    FAST_ROWS.clear()
    fast_samples = simulate_module._fast_samples

    def counted(*args):
        FAST_ROWS.append(fast_samples(*args))
        return FAST_ROWS[-1]

    monkeypatch.setattr(simulate_module, "_fast_samples", counted)


def both(model, monkeypatch, **overrides):
    """(fast run, slow run, compiled calls of the fast one); FAST_ROWS: the fast run's."""
    counting(monkeypatch)
    before = sample_path.calls
    fast = simulate(model, **overrides)
    calls = sample_path.calls - before
    monkeypatch.setattr(sample_path, "ENABLED", False)
    slow = simulate(model, **overrides)
    monkeypatch.setattr(sample_path, "ENABLED", True)
    assert sample_path.calls - before == calls  # switched off: none
    return fast, slow, calls


def assert_same_samples(fast, slow) -> None:
    np.testing.assert_array_equal(fast.t, slow.t)
    for key in COLUMNS:
        if key not in slow._rows.keys():
            continue
        a, b = fast._rows.column(key), slow._rows.column(key)
        assert a.shape == b.shape, key
        scale = max(1.0, float(np.abs(b).max())) if b.size else 1.0
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * scale, err_msg=key)


def assert_same_events(fast, slow) -> None:
    for kind in ("stop_events", "contact_events", "friction_events"):
        a, b = getattr(fast, kind), getattr(slow, kind)
        assert len(a) == len(b), kind
        for ea, eb in zip(a, b):
            assert ea.keys() == eb.keys()
            for key, value in eb.items():
                if isinstance(value, float):
                    tol = 1e-12 if key == "t" else 1e-12 * max(1.0, abs(value))
                    assert ea[key] == pytest.approx(value, abs=tol), (kind, key)
                else:
                    assert ea[key] == value, (kind, key)


def assert_same_run(model, monkeypatch, **overrides):
    fast, slow, calls = both(model, monkeypatch, **overrides)
    assert calls > 0  # the fast path ran
    assert_same_samples(fast, slow)
    assert_same_events(fast, slow)
    assert fast.status == slow.status and fast.steps == slow.steps
    return fast, calls


def test_a_ball_bouncing_on_a_plane(monkeypatch):
    """Several bounces (Hertz law with restitution): the onsets located where the slow path locates them."""
    fast, calls = assert_same_run(ball_drop(heights=(0.2,), t_end=0.8), monkeypatch, output_step=1e-4)
    assert len(fast.contact_events) >= 2
    assert calls < len(fast.t) / 10  # many samples a call


def test_a_hertz_impact_sampled_at_every_other_step(monkeypatch):
    """Samples during the impact itself (output step two base steps)."""
    fast, _ = assert_same_run(ball_drop(heights=(0.05,), t_end=0.12), monkeypatch, output_step=2e-5)
    assert len(fast.contact_events) == 1


@pytest.mark.parametrize("e", [0.5, 0.0])
def test_a_pendulum_on_a_rigid_stop(monkeypatch, e):
    """Impacts (e 0.5: then a Zeno sequence ends in a hold) and at once a hold (e 0)."""
    fast, _ = assert_same_run(pendulum_model(e=e, t_end=1.5, step=1e-4), monkeypatch, output_step=1e-3)
    kinds = {event["kind"] for event in fast.stop_events}
    assert "impact" in kinds and ("hold" in kinds or e > 0)


def test_a_compliant_stop(monkeypatch):
    stop = {"model": "compliant"}
    pivot = {"name": "pivot", "type": "revolute", "body_i": "ground", "body_j": "arm", "frame": SLIDE}
    pivot.update(angle_min=-0.6, angle_stop=stop)
    arm = {"name": "arm", "mass": 1.5, "inertia": [0.01] * 3, "position": [0.4, 0, 0]}
    settings = {"t_end": 1.0, "step": 1e-4, "output_step": 1e-3, "integrator": "rk4", "accuracy": False}
    model = from_dict({"gravity": [0, -G, 0], "bodies": [arm], "joints": [pivot], "settings": settings})
    assert_same_run(model, monkeypatch)


def test_a_box_settling_on_a_plane(monkeypatch):
    """8 corners touching and opening in turn."""
    fast, _ = assert_same_run(box_model("rk4", t_end=0.6), monkeypatch)
    assert len(fast.contact_events) >= 4


def test_a_pile_of_five_balls_with_the_broad_phase(monkeypatch):
    monkeypatch.setattr(broad_phase, "MIN_PAIRS", 1)
    model = pile(5)
    model["settings"].update(output_step=1e-4, t_end=0.02)
    fast, _ = assert_same_run(from_dict(model), monkeypatch)
    assert fast.system.static.bp_key.shape[0] and fast.contact_events


def double_pendulum(t_end=2.0, step=1e-3, integrator="rk4"):
    """Two arms in a chain, no stop, no contact: the run has no monitor."""
    shoulder = {"name": "shoulder", "type": "revolute", "body_i": "ground", "body_j": "upper", "frame": SLIDE}
    elbow_frame = {"origin": [0.5, 0, 0], "z_axis": [0, 0, 1], "x_axis": [1, 0, 0]}
    elbow = {"name": "elbow", "type": "revolute", "body_i": "upper", "body_j": "lower", "frame": elbow_frame}
    upper = {"name": "upper", "mass": 1.0, "inertia": [0.02] * 3, "position": [0.25, 0, 0]}
    lower = {"name": "lower", "mass": 0.7, "inertia": [0.01] * 3, "position": [0.75, 0, 0]}
    settings = {"t_end": t_end, "step": step, "output_step": 0.005, "integrator": integrator, "accuracy": False}
    model = {"gravity": [0, -G, 0], "bodies": [upper, lower], "joints": [shoulder, elbow], "settings": settings}
    return from_dict(model)


@pytest.mark.parametrize("integrator", ["euler", "symplectic_euler", "rk4"])
def test_a_double_pendulum_without_a_monitor(monkeypatch, integrator):
    assert_same_run(double_pendulum(integrator=integrator), monkeypatch)


def test_cancel_keeps_the_samples_so_far(monkeypatch):
    """cancel() asked before each output sample on both paths: True at the 30th time, the same 29
    samples after the initial one kept, the same as those of the run to the end; the fast path
    records its samples at once (Results.record_many of many rows), progress called at each."""
    model, kept, sizes = double_pendulum(), [], []
    record_many = Results.record_many
    monkeypatch.setattr(Results, "record_many", lambda res, t, *a: sizes.append(len(t)) or record_many(res, t, *a))
    for enabled in (True, False):
        monkeypatch.setattr(sample_path, "ENABLED", enabled)
        asked, progress = [], []
        with pytest.raises(Cancelled) as caught:
            cancel = lambda asked=asked: asked.append(1) or len(asked) >= 30  # noqa: E731
            simulate(model, cancel=cancel, progress=lambda t, t_end, seen=progress: seen.append(t))
        kept.append(caught.value.results)
        assert kept[-1].status == "cancelled" and len(kept[-1].t) == 30 and caught.value.time == kept[-1].t[-1]
        np.testing.assert_array_equal(progress, kept[-1].t[1:])
    assert sizes == [29]  # the fast path's rows before the cancel, at once; none on the slow path
    full = simulate(model)
    for key in COLUMNS[:-1]:
        np.testing.assert_array_equal(kept[0]._rows.column(key), kept[1]._rows.column(key))
        np.testing.assert_allclose(kept[0]._rows.column(key), full._rows.column(key)[:30], rtol=1e-12, atol=1e-12)


def test_a_blow_up_fails_at_the_same_sample_as_the_slow_path(monkeypatch):
    """A step far beyond a stiff spring's stability limit: the run fails naming the time of the first
    bad sample, the samples before it kept, as on the slow path."""
    spring = {"name": "spring", "type": "spring_damper", "body_i": "ground", "body_j": "lower"}
    spring.update(point_i=[0.75, 0.25, 0], point_j=[0.75, 0, 0], stiffness=4e5, free_length=0.25)
    model = double_pendulum(t_end=1.0, step=5e-3).to_dict()
    model["forces"] = [spring]
    model = from_dict(model)
    errors, calls = [], sample_path.calls
    for enabled in (True, False):
        monkeypatch.setattr(sample_path, "ENABLED", enabled)
        with pytest.raises(SimulationError) as caught:
            simulate(model)
        errors.append(caught.value)
    fast, slow = errors
    assert fast.time == slow.time and 0.0 < fast.time < 1.0
    assert f"t = {slow.time:.6g} s" in str(fast)
    np.testing.assert_array_equal(fast.results.t, slow.results.t)
    assert len(fast.results.t) >= 5 and sample_path.calls > calls


def friction_pendulum(integrator="rk4", output_step=1e-3, t_end=2.5, stop=None):
    """A bar released 0.5 rad from hanging on a pin with Coulomb friction from the pin's reaction
    (bench/peers_events.py's, with a thicker pin): it turns back a few times (``reverse`` events)
    and sticks (``stick``) before t_end; ``stop``: a rigid stop on the pin's angle."""
    pin = {"name": "pin", "type": "revolute", "body_i": "ground", "body_j": "bar", "frame": SLIDE,
           "friction": {"mu_s": 0.3, "mu_k": 0.3, "pin_radius": 0.13}}  # fmt: skip
    if stop is not None:
        pin.update(angle_min=-0.7, angle_stop=stop)  # the angle from the start: the first swing reaches -0.9
    at = [0.5 * np.sin(0.5), -0.5 * np.cos(0.5), 0]
    bar = {"name": "bar", "mass": 1.0, "inertia": [0.01, 0.01, 0.02], "position": at}
    settings = {"t_end": t_end, "step": 1e-3, "output_step": output_step, "integrator": integrator, "accuracy": False}
    return from_dict({"gravity": [0, -G, 0], "bodies": [bar], "joints": [pin], "settings": settings})


@pytest.mark.parametrize("integrator", ["euler", "symplectic_euler", "rk4"])
def test_a_friction_pendulum_turning_and_sticking(monkeypatch, integrator):
    """One step per output sample: the turning points and the stick located where the slow path
    locates them, the friction column (efforts, loads, modes, powers) the same."""
    fast, calls = assert_same_run(friction_pendulum(integrator), monkeypatch)
    kinds = [e["kind"] for e in fast.friction_events]
    assert kinds.count("reverse") >= 2 and kinds[-1] == "stick"
    assert calls < len(fast.t) / 50  # many samples a call
    state = fast.joint_friction("pin")["state"]
    assert state[-1] == 1.0 and state[len(state) // 4] == 0.0  # stuck at the end, slipping before


@pytest.mark.parametrize("output_step", [5e-3, 0.1])
def test_a_friction_pendulum_sampled_every_few_steps(monkeypatch, output_step):
    """Several steps per output interval, and (0.1 s: 100 steps) more than the monitor's chunk of
    64 steps: the same chunks and event checks as the slow path."""
    fast, _ = assert_same_run(friction_pendulum(output_step=output_step), monkeypatch)
    assert fast.friction_events[-1]["kind"] == "stick"


@pytest.mark.parametrize("stop", [{"model": "rigid", "restitution": 0.5}, {"model": "compliant"}])
def test_friction_with_a_stop_takes_the_slow_path(monkeypatch, stop):
    """A rigid stop (its impacts renew the friction's senses) keeps a friction model on the slow
    path: no compiled call; a compliant stop (a force element) is admitted."""
    fast, slow, calls = both(friction_pendulum(t_end=1.0, stop=stop), monkeypatch)
    assert (calls > 0) == (stop["model"] == "compliant")
    assert_same_samples(fast, slow)
    assert_same_events(fast, slow)
    if stop["model"] == "rigid":
        assert fast.stop_events  # it hit the stop


# ----------------------------------------------------------------------------- rk4_tree
def test_rk4_tree_a_pendulum_on_a_compliant_stop(monkeypatch):
    """The compliant stop's force element in the tree's loads; the guard sees no event function."""
    model = pendulum_model("rk4_tree", t_end=1.0, step=1e-4).to_dict()
    model["joints"][0]["angle_stop"] = {"model": "compliant"}
    fast, calls = assert_same_run(from_dict(model), monkeypatch, output_step=1e-3)
    assert calls < len(fast.t) / 10


@pytest.mark.parametrize("e", [0.5, 0.0])
def test_rk4_tree_a_pendulum_on_a_rigid_stop(monkeypatch, e):
    """Impacts located after an interval undone (the tree's q, qd with the body state), then a hold."""
    fast, _ = assert_same_run(pendulum_model("rk4_tree", e=e, t_end=1.5, step=1e-4), monkeypatch, output_step=1e-3)
    kinds = [event["kind"] for event in fast.stop_events]
    assert "hold" in kinds and (kinds.count("impact") >= 3 or e == 0.0)


def test_rk4_tree_a_driven_pendulum(monkeypatch):
    """A driven joint: its profile in the compiled steps, the drivers' work integral in the rows."""
    fast, _ = assert_same_run(from_dict(driven_pendulum("0.8*sin(3*t)", step=1e-4)), monkeypatch, output_step=1e-3)
    assert np.abs(fast._rows.column("Wd")).max() > 1e-3


@pytest.mark.parametrize("integrator", ["rk4_tree", "rk4"])
def test_a_cam_pressing_a_follower_in_intervals_of_several_chunks(monkeypatch, integrator):
    """A contact pair (touching throughout): the contact rows, their memory and peaks. Its output
    intervals are 67 steps, more than the monitor's longest chunk (64): each is done in two chunks
    with the event values looked at between them, as the slow path does."""
    assert cam_model(10.0).settings.output_step / cam_model(10.0).settings.step > sample_run.MAX_CHUNK_STEPS
    fast, calls = assert_same_run(cam_model(10.0, turns=0.25, integrator=integrator), monkeypatch)
    assert calls < len(fast.t) / 10
    assert sum(FAST_ROWS) >= 0.9 * (len(fast.t) - 1)  # nearly every sample on the fast path


def test_a_ball_falling_onto_a_plane_in_intervals_of_shrinking_chunks(monkeypatch):
    """Output intervals of 300 steps while the ball falls (chunks of 64 steps, then fewer as its gap
    closes: half its closing time), bounces and rises: the onsets located as on the slow path, the
    samples away from the impacts on the fast path."""
    fast, calls = assert_same_run(ball_drop(heights=(0.2,), t_end=0.8), monkeypatch, output_step=3e-3)
    assert len(fast.contact_events) >= 2
    assert sum(FAST_ROWS) >= 0.8 * (len(fast.t) - 1)


def test_rk4_tree_a_double_pendulum_without_a_monitor(monkeypatch):
    assert_same_run(double_pendulum(integrator="rk4_tree"), monkeypatch)


def test_rk4_tree_an_interval_with_an_event_is_undone_with_the_joint_coordinates():
    """An interval of 64 steps from rest (no closing rate: one chunk) in which the arm falls through
    its stop: left undone (no row, EVENT_NEAR), the body state, work integrals and the stepper's own
    joint coordinates and rates as they were (the slow path goes on from them)."""
    model = pendulum_model("rk4_tree", step=1e-2)
    system = System(model)
    Y, acc = system.Y0.copy(), np.zeros(6)
    stepper, stops = make_stepper(system, model.settings, 0.0, Y), events.monitor(system, model.settings)
    stops._start_on_stops(Y)
    fast = sample_path.SamplePath(system, model.settings, 1e9)
    assert fast.eligible(stepper, stops, 0.0)
    before = Y.copy(), acc.copy(), stepper.q.copy(), stepper.qd.copy()
    rows = fast.advance(stepper, stops, 0.0, Y, np.array([0.64]), acc, 1000)[0]
    assert rows == 0 and fast.info[0] == sample_run.EVENT_NEAR and fast.info[1] == 0
    for now, then in zip((Y, acc, stepper.q, stepper.qd), before):
        np.testing.assert_array_equal(now, then)
    assert stepper.advance(0.0, Y, 0.64, acc)[1] == 0 and stepper.q[0] < Q_STOP  # it does fall through
