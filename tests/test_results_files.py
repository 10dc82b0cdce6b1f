"""The results format (MBDWorkbench.solver.results.files): the writer and the one reader of a
results folder or zip against the in-memory Results, the CSVs read here with the csv module
only, and the errors for missing or damaged files."""

import csv
import json
import os
import sys
import zipfile

import numpy as np
import pytest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from MBDWorkbench.solver import from_dict, simulate  # noqa: E402
from MBDWorkbench.solver.results import files as fmt  # noqa: E402


def pendulum_dict():
    """A driven pendulum (one joint, one rotational driver) and a free-falling ball."""
    return {
        "name": "pendulum",
        "gravity": [0, 0, -9.81],
        "bodies": [
            {"name": "bob", "mass": 1.0, "inertia": [1e-3, 2e-3, 3e-3], "position": [1, 0, 0]},
            {"name": "ball", "mass": 0.5, "inertia": [1e-3, 1e-3, 1e-3], "position": [0, 2, 0]},
        ],
        "joints": [
            {
                "name": "pivot",
                "type": "revolute",
                "body_i": "ground",
                "body_j": "bob",
                "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]},
            }
        ],
        "drivers": [
            {
                "name": "motor",
                "type": "rotational",
                "joint": "pivot",
                "profile": {"type": "constant_speed", "speed": 2.0},
            }
        ],
        "settings": {"t_end": 0.2, "step": 1e-3, "output_step": 0.02, "integrator": "rk4"},
    }


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """(Results, results folder, zip of it with placements.json)."""
    base = tmp_path_factory.mktemp("run")
    res = simulate(from_dict(pendulum_dict()))
    folder = fmt.write_results(res, str(base / "results"))
    archive = fmt.write_zip(res, str(base / "results.zip"), {"placements.json": json.dumps({"bodies": {}})})
    return res, folder, archive


def csv_columns(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array(rows[1:], dtype=float)


def test_files_hold_the_documented_columns(run):
    res, folder, _ = run
    assert sorted(os.listdir(folder)) == sorted(list(fmt.FILES) + [fmt.SUMMARY, fmt.MODEL])
    header, data = csv_columns(os.path.join(folder, "bodies.csv"))
    assert header[:5] == ["time [s]", "bob.x [m]", "bob.y [m]", "bob.z [m]", "bob.qw [-]"]
    assert header[-1] == "ball.wz [rad/s]" and len(header) == 1 + 2 * 13
    np.testing.assert_allclose(data[:, 1:4], res.position("bob"), rtol=1e-9, atol=1e-12)
    header, data = csv_columns(os.path.join(folder, "drivers.csv"))
    assert header == ["time [s]", "motor.effort [N m]", "motor.power [W]"]
    np.testing.assert_allclose(data[:, 1], res.driver_effort("motor"), rtol=1e-9, atol=1e-12)
    header, _ = csv_columns(os.path.join(folder, "joints.csv"))
    assert header[1:4] == ["pivot.Fx [N]", "pivot.Fy [N]", "pivot.Fz [N]"]
    assert header[7:10] == ["pivot.Fx_global [N]", "pivot.Fy_global [N]", "pivot.Fz_global [N]"]
    assert header[13:15] == ["pivot.F_magnitude [N]", "pivot.T_magnitude [N m]"]
    assert header[15:17] == ["pivot.angle [rad]", "pivot.angle_rate [rad/s]"]
    header, _ = csv_columns(os.path.join(folder, "energy.csv"))
    assert header == [
        "time [s]",
        "kinetic [J]",
        "potential [J]",
        "total [J]",
        "work_drivers [J]",
        "work_nonconservative [J]",
        "balance [J]",
    ]
    with open(os.path.join(folder, "bodies.csv"), newline="") as f:
        assert f.readline().endswith("\r\n")  # csv module line ends


def test_folder_and_zip_read_back_what_as_stored_predicts(run):
    res, folder, archive = run
    expected = fmt.as_stored(fmt.tables(res))
    for path in (folder, archive):
        files = fmt.read_results(path, extras=("placements.json",) if path == archive else ())
        assert list(files.tables) == list(fmt.FILES)
        for name, table in expected.items():
            assert list(files.tables[name]) == list(table)  # same headers, same order
            for h, col in table.items():
                assert np.array_equal(files.tables[name][h], col), (path, name, h)
        assert files.summary["samples"] == len(res) and files.summary["drivers"] == ["motor"]
        assert files.model["name"] == "pendulum"
    assert fmt.read_results(archive, extras=("placements.json",)).extras == {"placements.json": {"bodies": {}}}
    with zipfile.ZipFile(archive) as z:
        for name in fmt.FILES + (fmt.SUMMARY, fmt.MODEL):
            with open(os.path.join(folder, name), "rb") as f:
                assert z.read(name) == f.read(), name  # the zip holds the same bytes


def test_result_tables_match_the_in_memory_results(run):
    res, folder, archive = run
    files = fmt.read_results(archive)
    stored = fmt.ResultTables(files.tables, files.summary, archive)
    assert (stored.body_names, stored.joint_names, stored.driver_names) == (["bob", "ball"], ["pivot"], ["motor"])
    np.testing.assert_allclose(stored.t, res.t, rtol=1e-10)
    for b in ("bob", "ball"):
        for key in ("position", "velocity", "angular_velocity"):
            np.testing.assert_allclose(getattr(stored, key)(b), getattr(res, key)(b), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(stored.rotation(b), res.rotation(b), atol=1e-9)
    for frame in ("joint", "global"):
        for a, b in zip(stored.reaction("pivot", frame), res.reaction("pivot", frame)):
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9 * np.abs(b).max())
    assert stored.driver_unit("motor") == "N m"
    np.testing.assert_allclose(stored.driver_power("motor"), res.driver_power("motor"), rtol=1e-9, atol=1e-12)
    for key, v in res.violation("pivot").items():
        np.testing.assert_allclose(stored.violation("pivot")[key], v, rtol=1e-9, atol=1e-15)
    for key, v in res.energy().items():
        np.testing.assert_allclose(stored.energy()[key], v, rtol=1e-9, atol=1e-12)
    assert stored.index_at(0.05) == 3 and stored.index_at(-1.0) == 0 and stored.index_at(9.0) == len(res) - 1
    with pytest.raises(fmt.ResultsFileError, match=r"drivers.csv.*column 'brake.power \[W\]' is missing"):
        stored.driver_power("brake")


def test_missing_and_damaged_files(run, tmp_path):
    res, folder, archive = run
    with pytest.raises(fmt.ResultsFileError, match="nope: results directory does not exist"):
        fmt.read_results(str(tmp_path / "nope"))
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(fmt.ResultsFileError, match="junk.zip: not a results directory nor a zip"):
        fmt.read_results(str(junk))
    with pytest.raises(fmt.ResultsFileError, match="placements.json: results file is missing"):
        fmt.read_results(folder, extras=("placements.json",))
    partial = tmp_path / "partial.zip"
    with zipfile.ZipFile(archive) as z, zipfile.ZipFile(partial, "w") as out:
        for name in z.namelist():
            if name != "violations.csv":
                out.writestr(name, z.read(name))
    with pytest.raises(fmt.ResultsFileError, match="violations.csv: results file is missing"):
        fmt.read_results(str(partial))
    with pytest.raises(fmt.ResultsFileError, match="line 3 has 2 values"):
        fmt.parse_csv("a,b,c\r\n1,2,3\r\n4,5\r\n", "x.csv")
    with pytest.raises(fmt.ResultsFileError, match="x.csv: cannot read the numbers"):
        fmt.parse_csv("a,b\r\n1,oops\r\n", "x.csv")
