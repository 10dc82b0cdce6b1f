"""Events and contacts in the plots (report/event_marks.py, report/plots.py, commands/plot_dock.py):
a pendulum whose bob bounces off a floor (a contact pair) and back up onto a rigid stop. The marks
drawn sit at the located events' times (read back from the figure's artists), the contact curves
are contacts.csv's columns (read with the csv module from the written results folder), and the
legends stay beside the axes, never over the curves."""

import csv
import json
import os

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from MBDWorkbench.commands.plot_dock import draw_plot, plot_series  # noqa: E402
from MBDWorkbench.report import plots  # noqa: E402
from MBDWorkbench.report.data import from_results  # noqa: E402
from MBDWorkbench.report.event_marks import KINDS, draw_marks, event_marks, mark_times  # noqa: E402
from MBDWorkbench.solver.model import from_dict  # noqa: E402
from MBDWorkbench.solver.results.files import ResultTables, read_results, write_results  # noqa: E402
from MBDWorkbench.solver.simulate import simulate  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PAIR = "bob_floor"


def bounce_model() -> dict:
    """examples/pendulum.json (1 m, 1 kg, from the horizontal) thrown down at 3 m/s: the bob hits a
    floor 0.3 m below the pivot (sphere-plane contact, e = 0.9), bounces up past the horizontal
    and hits the rigid stop at -0.05 rad (e = 0.6)."""
    with open(os.path.join(HERE, "..", "examples", "pendulum.json")) as f:
        d = json.load(f)
    d["joints"][0].update(angle_min=-0.05, angle_stop={"model": "rigid", "restitution": 0.6})
    d["bodies"][0]["velocity"] = [0.0, 0.0, -3.0]
    d["contacts"] = [
        {
            "name": PAIR,
            "body_a": "bob",
            "body_b": "ground",
            "shape_a": {"type": "sphere", "center": [0, 0, 0], "radius": 0.05},
            "shape_b": {"type": "plane", "point": [0, 0, -0.3], "normal": [0, 0, 1]},
            "stiffness": 1e6,
            "restitution": 0.9,
            "law": "restitution",
            "mu_s": 0.3,
        }
    ]
    d["settings"].update(t_end=1.0)
    return d


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    res = simulate(from_dict(bounce_model()))
    folder = str(tmp_path_factory.mktemp("bounce") / "results")
    write_results(res, folder)
    return res, folder


def drawn(plot):
    fig = Figure(figsize=(8.27, plot.height + 0.2))
    plot.draw(fig, (0.0, 0.0, 8.27, plot.height))
    FigureCanvasAgg(fig).draw()
    return fig


def legend_outside(fig):
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is not None:
            assert not legend.get_window_extent().overlaps(ax.get_window_extent()), ax.get_title()


def test_the_scene_has_stop_events_and_contact(run):
    res, _ = run
    impacts = [e for e in res.stop_events if e["kind"] == "impact"]
    assert impacts and all(e["joint"] == "pivot" and e["side"] == "min" for e in impacts)
    assert np.max(res.contact(PAIR)[:, 3]) > 100.0  # the floor pushed


def test_report_event_plot_marks_sit_at_the_located_events(run):
    res, _ = run
    data = from_results(res)
    (plot,) = plots.event_plots(data)
    fig = drawn(plot)
    expected = {}
    for e in res.stop_events:
        expected.setdefault(e["kind"], []).append(e["t"])
    for ax in fig.axes:
        got = mark_times(ax)
        assert set(got) == set(expected)
        for kind, times in expected.items():
            assert np.allclose(sorted(got[kind]), sorted(times), rtol=0, atol=1e-12), kind
    legend_outside(fig)
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert f"stop impact ({len(expected['impact'])})" in texts


def test_report_contact_plot_is_contacts_csv(run):
    res, folder = run
    with open(os.path.join(folder, "contacts.csv")) as f:
        rows = list(csv.DictReader(f))
    normal = np.array([float(r[f"{PAIR}.normal_force [N]"]) for r in rows])
    tangential = np.array([float(r[f"{PAIR}.tangential_force [N]"]) for r in rows])
    depth = np.array([float(r[f"{PAIR}.penetration [m]"]) for r in rows])
    (plot,) = plots.contact_plots(from_results(res))
    fig = drawn(plot)
    a1, a2 = fig.axes
    curves = {line.get_label(): line.get_ydata() for line in a1.get_lines() + a2.get_lines()}
    assert np.allclose(curves[f"{PAIR} normal"], normal, rtol=1e-9, atol=0)
    assert np.allclose(curves[f"{PAIR} tangential"], tangential, rtol=1e-9, atol=0)
    assert np.allclose(curves[PAIR], depth, rtol=1e-9, atol=0)
    assert normal.max() > 0 and depth.max() > 0
    legend_outside(fig)


def test_no_event_or_contact_plot_without_them():
    with open(os.path.join(HERE, "..", "examples", "pendulum.json")) as f:
        d = json.load(f)
    d["settings"].update(t_end=0.05)
    data = from_results(simulate(from_dict(d)))
    assert plots.event_plots(data) == [] and plots.contact_plots(data) == []


def stored(folder) -> ResultTables:
    files = read_results(folder)
    return ResultTables(files.tables, files.summary, folder)


@pytest.mark.parametrize("quantity", ["Joint coordinate", "Reaction force", "Stop and friction effort", "Energy"])
def test_plot_dock_marks_the_joint_events(run, quantity):
    res, folder = run
    results = stored(folder)
    fig = Figure(figsize=(5.5, 3.8), dpi=100, tight_layout=True)
    ax = draw_plot(fig, results, "pivot", quantity)
    FigureCanvasAgg(fig).draw()
    impacts = [e["t"] for e in res.stop_events if e["kind"] == "impact"]
    assert np.allclose(sorted(mark_times(ax)["impact"]), impacts, rtol=0, atol=1e-12)
    assert not ax.get_legend().get_window_extent().overlaps(ax.get_window_extent())


def test_plot_dock_contact_quantities(run):
    _, folder = run
    results = stored(folder)
    with open(os.path.join(folder, "contacts.csv")) as f:
        rows = list(csv.DictReader(f))
    F = np.array([[float(r[f"{PAIR}.F{c} [N]"]) for c in "xyz"] for r in rows])
    _, _, series = plot_series(results, PAIR, "Contact force")
    got = dict(series)
    assert np.allclose(got["|F|"], np.linalg.norm(F, axis=1), rtol=1e-9, atol=1e-12)
    assert np.allclose(got["normal"], [float(r[f"{PAIR}.normal_force [N]"]) for r in rows], rtol=1e-9)
    _, _, series = plot_series(results, PAIR, "Penetration")
    assert np.allclose(series[0][1], [float(r[f"{PAIR}.penetration [m]"]) for r in rows], rtol=1e-9)
    fig = Figure()
    ax = draw_plot(fig, results, PAIR, "Contact force")
    assert mark_times(ax) == {}  # a pair has no joint events
    with pytest.raises(ValueError, match="contact pair"):
        plot_series(results, PAIR, "Reaction force")
    with pytest.raises(ValueError, match="not a contact pair"):
        plot_series(results, "pivot", "Penetration")


def test_friction_events_are_marked_when_present():
    """summary.json's friction_events (stick/slip switches, 'time' or 't'): one mark each, on their joint only."""
    summary = {
        "stop_events": [{"t": 0.2, "joint": "a", "kind": "impact"}, {"t": 0.25, "joint": "a", "kind": "release"}],
        "friction_events": [
            {"time": 0.1, "joint": "a", "kind": "stick", "speed": 0.0, "load": 3.0},
            {"time": 0.4, "joint": "a", "kind": "slip", "speed": 0.01, "load": 3.0},
            {"t": 0.3, "joint": "b", "kind": "slip"},
            {"time": "bad", "joint": "a", "kind": "slip"},
        ],
    }
    marks = event_marks(summary, ["a"])
    assert [(m.t, m.kind) for m in marks] == [(0.1, "stick"), (0.2, "impact"), (0.25, "release"), (0.4, "slip")]
    fig = Figure()
    ax = fig.add_subplot(111)
    ax.plot([0, 0.5], [5.0, 7.0])
    draw_marks(ax, marks)
    assert mark_times(ax) == {"impact": [0.2], "release": [0.25], "stick": [0.1], "slip": [0.4]}
    assert ax.get_ylim()[0] > 4.0  # the marks did not stretch the data limits
    handles, labels = ax.get_legend_handles_labels()
    assert labels == [f"{KINDS[k][0]} (1)" for k in ("impact", "release", "stick", "slip")]


def test_report_animation_shows_impacts_and_contact_arrows(run, tmp_path):
    """The stick-figure animation's layer (report/animation_events.py): at a sample in contact the
    pair's arrow starts at the contact point and is the force (contacts.csv) times the scale,
    projected; none out of contact; a star at the pivot (the ground point, the origin) in the
    frame of each impact, none elsewhere."""
    from MBDWorkbench.report.animation import StickFigure, write_gif
    from MBDWorkbench.report.animation_events import EventLayer

    res, folder = run
    with open(os.path.join(folder, "contacts.csv")) as f:
        rows = list(csv.DictReader(f))
    F = np.array([[float(r[f"{PAIR}.F{c} [N]"]) for c in "xyz"] for r in rows])
    p = np.array([[float(r[f"{PAIR}.p{c} [m]"]) for c in "xyz"] for r in rows])
    data = from_results(res)
    stick = StickFigure(data, "xz")
    layer = EventLayer(data, stick)
    fig = Figure()
    ax = fig.add_subplot(111)
    layer.draw(ax)
    norms = np.linalg.norm(F, axis=1)
    typical = np.percentile(norms[norms > 0], 95)  # the typical force at a quarter, none longer than the size
    assert layer.scale == pytest.approx(min(0.25 * stick.scale / typical, stick.scale / norms.max()), rel=1e-12)
    k = int(np.argmax(norms))
    layer.update(k, data.t[k])
    arrow = layer.arrows[PAIR]
    assert arrow.get_visible()
    assert np.allclose(arrow.get_offsets()[0], p[k][[0, 2]], rtol=0, atol=1e-12)
    assert np.allclose([arrow.U[0], arrow.V[0]], F[k][[0, 2]] * layer.scale, rtol=1e-12, atol=1e-15)
    free = int(np.nonzero(norms == 0)[0][0])
    layer.update(free, data.t[free])
    assert not arrow.get_visible()
    impact = next(e for e in res.stop_events if e["kind"] == "impact")
    after = int(np.searchsorted(data.t, impact["t"]))
    assert layer.update(after, data.t[after - 1]) == ["pivot"]
    assert np.allclose(np.column_stack(layer.stars.get_data()), [[0.0, 0.0]], atol=1e-6)  # the joint violation
    assert layer.update(after + 1, data.t[after]) == [] and len(layer.stars.get_data()[0]) == 0
    assert os.path.getsize(write_gif(data, str(tmp_path / "motion.gif"), "xz")) > 1000


def test_arrow_scale_draws_the_typical_contact_force_at_a_quarter_of_the_size():
    """A ball resting on a plate (2.58 N at 95 samples) after a sampled impact peak of 47 N: the
    resting force sets the scale (its arrow a quarter of the size, not 2.58 / 47 of a quarter), but
    the peak's arrow is at most the size; with steady forces the typical one is the largest."""
    from MBDWorkbench.report.contacts import arrow_scale

    resting = [[0, 0, 2.58]] * 95 + [[0, 0, 47.0], [0, 0, 8.4], [0, 0, 5.3], [0, 0, 4.8], [0, 0, 0]]
    assert arrow_scale([np.array(resting)], 240.0) == pytest.approx(240.0 / 47.0)  # capped by the peak
    many = [[0, 0, 2.58]] * 1000 + [[0, 0, 3.0]]
    assert arrow_scale([np.array(many)], 240.0) == pytest.approx(0.25 * 240.0 / 2.58)
    steady = np.column_stack([np.zeros(101), np.linspace(10, 20, 101), np.zeros(101)])
    assert arrow_scale([steady, np.zeros((101, 3))], 1.0) == pytest.approx(0.25 / np.percentile(steady[:, 1], 95))
    assert arrow_scale([np.zeros((3, 3))], 1.0) == 0.0
