"""Design studies (MBDWorkbench.study) on the serial reference path: the study file and its
errors, parameter paths, the designs, KPIs against the slider-crank's virtual-work oracle, a
failed variant as a row, study.csv round trip. The Dask engine: tests/test_study_dask.py."""

import copy
import json
import os

import numpy as np
import pytest
from oracles.slider_crank import SliderCrank

from MBDWorkbench.cli import main
from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.study import paths
from MBDWorkbench.study.designs import variants
from MBDWorkbench.study.engine import run_study
from MBDWorkbench.study.plots import standardised_regression_coefficients
from MBDWorkbench.study.spec import parse_study
from MBDWorkbench.study.table import read_csv, write_csv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
SPEEDS = [1.0, 3.5, 6.0]
T_END = 0.6


def sweep_study(speeds=SPEEDS, t_end=T_END, extra_outputs=()) -> dict:
    """The slider-crank motor-speed sweep as a study dict."""
    return {
        "name": "speed_sweep",
        "model": "slider_crank.json",
        "fixed": {"settings.t_end": t_end},
        "parameters": [{"path": "drivers[motor].profile.speed", "values": list(speeds)}],
        "design": {"type": "grid"},
        "outputs": [
            {"kpi": "peak_effort", "driver": "motor"},
            {"kpi": "rms_effort", "driver": "motor"},
            {"kpi": "column", "column": "slider.x [m]", "at": 0.25},
            *extra_outputs,
        ],
    }


def check_sweep_against_oracle(study, rows) -> None:
    """Peak |crank torque|, its time, RMS torque and the slider position of every variant
    against the closed-form virtual-work torque of tests/oracles/slider_crank.py."""
    sc = SliderCrank(r=0.5, l=1.5, k=20.0, x0=1.5)
    settings = study.model["settings"]
    t_end = study.fixed["settings.t_end"]
    t = np.linspace(0.0, t_end, int(round(t_end / settings["output_step"])) + 1)
    assert [r.values["drivers[motor].profile.speed"] for r in rows] == SPEEDS
    for row in rows:
        omega = row.values["drivers[motor].profile.speed"]
        assert row.status == "completed", row.message
        tau = np.abs(sc.torque_constant_speed(t, omega=omega))
        peak, peak_time, rms, x_at = row.kpis
        assert peak == pytest.approx(tau.max(), rel=1e-6)
        assert peak_time == pytest.approx(t[np.argmax(tau)], abs=1e-12)
        rms_ref = np.sqrt(np.trapz(tau**2, t) / t_end)
        assert rms == pytest.approx(rms_ref, rel=1e-6)
        assert x_at == pytest.approx(sc.slider_position(omega * 0.25), abs=1e-8)


def test_sweep_of_motor_speed_follows_the_virtual_work_torque():
    study = parse_study(sweep_study(), EXAMPLES)
    run = run_study(study, serial=True)
    assert not run.cancelled
    check_sweep_against_oracle(study, run.rows)


def test_failed_variant_is_a_row_and_the_study_goes_on(tmp_path):
    data = sweep_study(speeds=[2.0])
    data["parameters"].append({"path": "bodies[rod].mass", "values": [1.0, -1.0]})
    study = parse_study(data, EXAMPLES)
    run = run_study(study, serial=True)
    assert [r.status for r in run.rows] == ["completed", "failed"]
    assert "bodies[1].mass" in run.rows[1].message and run.rows[1].kpis == []
    write_csv(run, tmp_path / "study.csv")
    columns, rows = read_csv(tmp_path / "study.csv")
    assert columns[:4] == ["variant", "drivers[motor].profile.speed", "bodies[rod].mass", "status"]
    assert rows[1]["status"] == "failed" and rows[1]["motor.peak_effort [N m]"] is None
    assert rows[0]["motor.peak_effort [N m]"] == run.rows[0].kpis[0]  # bit for bit through the CSV


def _mc_study(seed=7, samples=5) -> dict:
    return {
        "model": "slider_crank.json",
        "fixed": {"settings.t_end": 0.2},
        "parameters": [
            {"path": "bodies[slider].mass", "distribution": {"type": "normal", "mean": 1.0, "std": 0.1}},
            {"path": "forces[spring].stiffness", "min": 10.0, "max": 30.0},
        ],
        "design": {"type": "monte_carlo", "samples": samples, "seed": seed},
        "outputs": [{"kpi": "peak_reaction", "joint": "guide"}, {"kpi": "energy_drift"}],
    }


def test_monte_carlo_with_a_seed_is_reproducible_bit_for_bit(tmp_path):
    a, b = (parse_study(_mc_study(), EXAMPLES) for _ in range(2))
    assert variants(a) == variants(b)
    assert variants(parse_study(_mc_study(seed=8), EXAMPLES)) != variants(a)
    rng = np.random.default_rng(7)  # the documented draw order: parameter by parameter
    mass, stiffness = rng.normal(1.0, 0.1, 5), rng.uniform(10.0, 30.0, 5)
    assert [v["bodies[slider].mass"] for v in variants(a)] == list(mass)
    assert [v["forces[spring].stiffness"] for v in variants(a)] == list(stiffness)
    runs = [run_study(s, serial=True) for s in (a, b)]
    for k, run in enumerate(runs):
        write_csv(run, tmp_path / f"s{k}.csv")
    tables = [read_csv(tmp_path / f"s{k}.csv")[1] for k in range(2)]
    for r0, r1 in zip(*tables):
        r0.pop("wall_time [s]"), r1.pop("wall_time [s]")
        assert r0 == r1


def test_latin_hypercube_puts_one_point_in_each_stratum():
    data = _mc_study(samples=40)
    data["design"] = {"type": "lhs", "samples": 40, "seed": 3}
    data["parameters"][0]["distribution"] = {"type": "uniform", "min": 0.5, "max": 1.5}
    vs = variants(parse_study(data, EXAMPLES))
    for path, lo, hi in (("bodies[slider].mass", 0.5, 1.5), ("forces[spring].stiffness", 10.0, 30.0)):
        strata = np.floor((np.array([v[path] for v in vs]) - lo) / (hi - lo) * 40).astype(int)
        assert sorted(strata) == list(range(40))


def test_grid_is_the_full_factorial_with_the_first_parameter_slowest():
    data = sweep_study(speeds=[1.0, 2.0])
    data["parameters"].append({"path": "settings.step", "min": 1e-3, "max": 2e-3, "count": 3})
    vs = variants(parse_study(data, EXAMPLES))
    assert [(v["drivers[motor].profile.speed"], v["settings.step"]) for v in vs] == [
        (s, h) for s in (1.0, 2.0) for h in (1e-3, 1.5e-3, 2e-3)
    ]


def test_parameter_paths_address_elements_by_name():
    model = json.load(open(os.path.join(EXAMPLES, "slider_crank.json")))
    m = copy.deepcopy(model)
    paths.put(m, "bodies[rod].mass", 2.5)
    paths.put(m, "gravity[1]", -1.0)
    paths.put(m, "drivers[motor].profile.speed", 4.0)
    assert m["bodies"][1]["mass"] == 2.5 and m["gravity"] == [0, -1.0, 0]
    assert paths.get(m, "drivers[motor].profile.speed") == 4.0 and model["bodies"][1]["mass"] == 1.0
    with pytest.raises(ModelError, match="no element named 'rodd'.*crank, rod, slider"):
        paths.get(m, "bodies[rodd].mass", "p")


@pytest.mark.parametrize(
    "change, field, text",
    [
        (lambda d: d["parameters"][0].update(path="bodies[rodd].mass"), "parameters[0].path", "rodd"),
        (lambda d: d["parameters"][0].update(path="bodies[rod].weight"), "parameters[0].path", "weight"),
        (lambda d: d["parameters"][0].update(values=[]), "parameters[0].values", "empty"),
        (lambda d: d["parameters"][0].update(values=[1.0, "fast"]), "parameters[0].values[1]", "wrong type"),
        (
            lambda d: d["parameters"].__setitem__(0, {"path": "settings.step", "min": 2, "max": 1, "count": 3}),
            "parameters[0].max",
            "empty range",
        ),
        (lambda d: d.update(design={"type": "monte_carlo", "samples": "5"}), "design.samples", "whole number"),
        (lambda d: d.update(design={"type": "sobol"}), "design.type", "grid"),
        (lambda d: d["outputs"][0].update(driver="pump"), "outputs[0].driver", "pump"),
        (lambda d: d["fixed"].update({"settings.t_end": "long"}), "fixed.settings.t_end", "wrong type"),
        (lambda d: d.update(model="nothing_here.json"), "model", "not found"),
        (lambda d: d["outputs"][2].update(at=5.0), "outputs[2].at", "after the end"),
    ],
)
def test_bad_study_files_name_the_field(change, field, text):
    data = sweep_study()
    change(data)
    with pytest.raises(ModelError, match=text) as e:
        parse_study(data, EXAMPLES)
    assert e.value.path == field


def test_unknown_results_column_names_the_output():
    study = parse_study(
        sweep_study(extra_outputs=[{"kpi": "column", "column": "slider.q [m]", "reduce": "max"}]), EXAMPLES
    )
    with pytest.raises(ModelError, match="slider.x") as e:
        run_study(study, serial=True)
    assert e.value.path == "outputs[3].column"


def test_cli_bad_study_exits_2_naming_the_field(tmp_path, capsys):
    data = sweep_study()
    data["model"] = os.path.join(EXAMPLES, "slider_crank.json")
    data["parameters"][0]["path"] = "drivers[motr].profile.speed"
    (tmp_path / "s.json").write_text(json.dumps(data))
    assert main(["study", str(tmp_path / "s.json"), "--out", str(tmp_path / "out"), "--serial"]) == 2
    assert "parameters[0].path" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_cli_serial_study_writes_csv_and_plot(tmp_path):
    data = sweep_study()
    data["model"] = os.path.join(EXAMPLES, "slider_crank.json")
    (tmp_path / "s.json").write_text(json.dumps(data))
    out = tmp_path / "out"
    assert main(["study", str(tmp_path / "s.json"), "--out", str(out), "--serial", "--quiet"]) == 0
    columns, rows = read_csv(out / "study.csv")
    assert [r["drivers[motor].profile.speed"] for r in rows] == SPEEDS
    assert (out / "plots" / "kpi_vs_parameter.png").stat().st_size > 1000
    page = (out / "report.html").read_text()
    assert "drivers[motor].profile.speed" in page and "data:image/png;base64," in page
    assert page.count("<td>completed</td>") == 1 + len(SPEEDS)  # the status table, then each variant
    assert main(["study", str(tmp_path / "s.json"), "--out", str(out), "--serial"]) == 2  # no overwrite


def test_standardised_regression_coefficients_of_a_linear_response():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(0, 2.0, 200), rng.uniform(0, 1, 200)])
    y = 3.0 * X[:, 0] - 4.0 * X[:, 1]
    src = standardised_regression_coefficients(X, y)
    np.testing.assert_allclose(src, [3.0 * X[:, 0].std() / y.std(), -4.0 * X[:, 1].std() / y.std()], rtol=1e-10)


def test_example_studies_are_valid():
    from MBDWorkbench.study.spec import load_study

    folder = os.path.join(EXAMPLES, "studies")
    names = [n for n in os.listdir(folder) if n.endswith(".json")]
    assert names
    for name in names:
        assert len(variants(load_study(os.path.join(folder, name)))) > 1


def test_plots_of_a_2d_grid_and_of_a_monte_carlo(tmp_path):
    from MBDWorkbench.study.plots import write_plots

    grid = sweep_study(speeds=[1.0, 2.0], t_end=0.1)
    grid["parameters"].append({"path": "bodies[slider].mass", "values": [1.0, 2.0, 3.0]})
    grid["outputs"] = [{"kpi": "peak_effort"}]
    files = write_plots(run_study(parse_study(grid, EXAMPLES), serial=True), tmp_path / "grid")
    assert [os.path.basename(f) for f in files] == ["heat_map_00.png"]
    mc = write_plots(run_study(parse_study(_mc_study(samples=6), EXAMPLES), serial=True), tmp_path / "mc")
    assert [os.path.basename(f) for f in mc] == ["histograms.png", "sensitivity.png"]
    assert all(os.path.getsize(f) > 1000 for f in files + mc)


def test_save_variants_writes_each_results_folder(tmp_path):
    from MBDWorkbench.solver.results.files import DRIVERS, read_results

    data = sweep_study(speeds=[2.0, 3.0], t_end=0.3)
    data["model"] = os.path.join(EXAMPLES, "slider_crank.json")
    (tmp_path / "s.json").write_text(json.dumps(data))
    out = tmp_path / "out"
    args = ["study", str(tmp_path / "s.json"), "--out", str(out), "--serial", "--save-variants", "--quiet"]
    assert main(args) == 0
    assert sorted(os.listdir(out / "variants")) == ["0000", "0001"]
    _, rows = read_csv(out / "study.csv")
    for k, row in enumerate(rows):
        saved = read_results(out / "variants" / f"{k:04d}")
        effort = saved.tables[DRIVERS]["motor.effort [N m]"]
        assert np.abs(effort).max() == pytest.approx(row["motor.peak_effort [N m]"], rel=1e-9)


def test_parameter_choices_and_range_study_of_a_picker():
    from MBDWorkbench.study.choices import parameter_choices, range_study

    model = parse_study(sweep_study(), EXAMPLES).model
    choices = dict(parameter_choices(model))
    assert choices["bodies[rod].mass"] == 1.0 and choices["drivers[motor].profile.speed"] == pytest.approx(np.pi)
    assert choices["forces[spring].stiffness"] == 20.0 and choices["settings.step"] == 1e-3
    assert choices["gravity[1]"] == -9.81 and "settings.integrator" not in choices
    for path in choices:  # every choice is a valid parameter path
        assert paths.get(model, path) == choices[path]
    study = parse_study(range_study(model, "bodies[rod].mass", "grid", 0.5, 1.5, 3), EXAMPLES)
    assert [v["bodies[rod].mass"] for v in variants(study)] == [0.5, 1.0, 1.5]
    mc = parse_study(range_study(model, "settings.step", "monte_carlo", 1e-4, 1e-3, 4, seed=2), EXAMPLES)
    assert len(variants(mc)) == 4


@pytest.mark.parametrize("count", [100_001, 1])
def test_grid_count_is_bounded_like_the_sample_counts(count):
    from MBDWorkbench.study.spec import MAX_VARIANTS

    data = sweep_study()
    data["parameters"][0] = {"path": "settings.step", "min": 1e-4, "max": 1e-3, "count": count}
    with pytest.raises(ModelError, match=f"whole number in \\[2, {MAX_VARIANTS}\\], got {count}") as e:
        parse_study(data, EXAMPLES)
    assert e.value.path == "parameters[0].count"
    data["parameters"][0] = {"path": "settings.step", "min": 1e-4, "max": 1e-3}
    data["design"] = {"type": "lhs", "samples": MAX_VARIANTS + 1}  # the sample counts' limit is the same
    with pytest.raises(ModelError, match=f"whole number in \\[1, {MAX_VARIANTS}\\]"):
        parse_study(data, EXAMPLES)


def test_grid_of_two_large_counts_is_refused_as_a_whole():
    data = sweep_study()
    data["parameters"] = [
        {"path": "settings.step", "min": 1e-4, "max": 1e-3, "count": 1000},
        {"path": "bodies[rod].mass", "min": 1.0, "max": 2.0, "count": 101},
    ]
    with pytest.raises(ModelError, match="1000 x 101 = 101000 variants") as e:
        parse_study(data, EXAMPLES)
    assert e.value.path == "parameters"
    data["parameters"][1]["count"] = 100  # 100 000: at the limit
    assert len(parse_study(data, EXAMPLES).parameters[0].values) == 1000


@pytest.mark.parametrize(
    "path, unit",
    [
        ("drivers[motor].profile.speed", "rad/s"),
        ("bodies[rod].mass", "kg"),
        ("forces[spring].stiffness", "N/m"),
        ("settings.step", "s"),
        ("gravity[1]", "m/s^2"),
    ],
)
def test_kpi_plot_x_axis_carries_the_parameter_unit(path, unit):
    from MBDWorkbench.study.plots import kpi_matrix, kpi_vs_parameter_figure

    data = sweep_study(t_end=0.05)
    data["outputs"] = [{"kpi": "peak_effort", "driver": "motor"}]
    value = paths.get(parse_study(data, EXAMPLES).model, path)
    data["parameters"][0] = {"path": path, "values": [value, value * 1.1]}
    run = run_study(parse_study(data, EXAMPLES), serial=True)
    names, X, Y = kpi_matrix(run)
    fig = kpi_vs_parameter_figure(run.study, X[:, 0], Y, names)
    assert len(names) == 2 and [ax.get_xlabel() for ax in fig.axes] == [f"{path} [{unit}]"] * 2
