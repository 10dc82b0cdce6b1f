"""Motion-study reports (MBDWorkbench.report): numbers against the results CSVs (read
here with numpy, independently of the report code) and against the slider-crank oracle,
a self-contained HTML, a PDF with the expected pages, exports, and bad input."""

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from html.parser import HTMLParser

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from oracles.slider_crank import SliderCrank  # noqa: E402

from MBDWorkbench.report import ReportError, animation, derived, document, load_results_dir, write_report  # noqa: E402  # noqa: E402
from MBDWorkbench.report.data import from_results  # noqa: E402
from MBDWorkbench.solver import from_dict, simulate  # noqa: E402

R, L, OMEGA = 0.1, 0.3, 2 * np.pi
MC, MR, MS = 1.0, 2.0, 0.5
SETTINGS = {"t_end": 1.0, "step": 1e-3, "output_step": 0.01, "integrator": "rk4"}


def slider_crank_dict():
    """Planar slider-crank in the x-y plane, crank driven at OMEGA; uniform bars as in
    the oracle (rc = r/2, Jc = mc r^2/12, Jr = mr l^2/12)."""

    def bar(m, n):
        return [1e-5, m * n * n / 12, m * n * n / 12]

    z = {"z_axis": [0, 0, 1]}
    return {
        "name": "slider_crank",
        "gravity": [0, -9.81, 0],
        "bodies": [
            {"name": "crank", "mass": MC, "inertia": bar(MC, R), "position": [R / 2, 0, 0]},
            {"name": "rod", "mass": MR, "inertia": bar(MR, L), "position": [R + L / 2, 0, 0]},
            {"name": "slider", "mass": MS, "inertia": [1e-4, 1e-4, 1e-4], "position": [R + L, 0, 0]},
        ],
        "joints": [
            {
                "name": "O",
                "type": "revolute",
                "body_i": "ground",
                "body_j": "crank",
                "frame": {"origin": [0, 0, 0], **z},
            },
            {"name": "B", "type": "revolute", "body_i": "crank", "body_j": "rod", "frame": {"origin": [R, 0, 0], **z}},
            {
                "name": "C",
                "type": "revolute",
                "body_i": "rod",
                "body_j": "slider",
                "frame": {"origin": [R + L, 0, 0], **z},
            },
            {
                "name": "guide",
                "type": "prismatic",
                "body_i": "ground",
                "body_j": "slider",
                "frame": {"origin": [R + L, 0, 0], "z_axis": [1, 0, 0]},
            },
        ],
        "drivers": [
            {"name": "motor", "type": "rotational", "joint": "O", "profile": {"type": "constant_speed", "speed": OMEGA}}
        ],
        "settings": dict(SETTINGS),
    }


def pendulum_dict():
    return {
        "name": "pendulum",
        "gravity": [0, 0, -9.81],
        "bodies": [{"name": "bob", "mass": 1.0, "inertia": [1e-3, 1e-3, 1e-3], "position": [1, 0, 0]}],
        "joints": [
            {
                "name": "pivot",
                "type": "revolute",
                "body_i": "ground",
                "body_j": "bob",
                "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]},
            }
        ],
        "forces": [
            {"name": "spring", "type": "rotational_spring_damper", "joint": "pivot", "stiffness": 5.0, "damping": 0.1}
        ],
        "settings": dict(SETTINGS),
    }


def read_csv(path):
    """{header: column} with the csv module and numpy only (independent of the report)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    data = np.array(rows[1:], dtype=float)
    return {h: data[:, k] for k, h in enumerate(rows[0])}


def pdftext(path, page=None):
    args = ["pdftotext", "-layout"] + (["-f", str(page), "-l", str(page)] if page else []) + [path, "-"]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def pdfpages(path):
    out = subprocess.run(["pdfinfo", path], check=True, capture_output=True, text=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", out).group(1)), out


@pytest.fixture(scope="module")
def crank(tmp_path_factory):
    """Simulated slider-crank: (Results, results dir, report dir, written paths)."""
    base = tmp_path_factory.mktemp("crank")
    res = simulate(from_dict(slider_crank_dict()), out_dir=str(base / "results"))
    paths = write_report(res, str(base / "report"), points=[("crank", [R / 2, 0, 0]), ("rod", [0, 0, 0])])
    return res, str(base / "results"), str(base / "report"), paths


@pytest.fixture(scope="module")
def pendulum_cli(tmp_path_factory):
    """The pendulum through the command line: simulate --out --report."""
    base = tmp_path_factory.mktemp("pendulum")
    model = base / "pendulum.json"
    model.write_text(json.dumps(pendulum_dict()))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "MBDWorkbench",
            "simulate",
            str(model),
            "--out",
            str(base / "results"),
            "--report",
            str(base / "report"),
            "--quiet",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return str(base / "results"), str(base / "report"), proc.stdout


# ----------------------------------------------------------------------------- numbers
def test_peak_table_matches_csv(crank):
    res, rdir, out, paths = crank
    joints = read_csv(os.path.join(rdir, "joints.csv"))
    t = joints["time [s]"]
    with open(os.path.join(out, "peak_loads.csv"), newline="") as f:
        table = {row["joint"]: row for row in csv.DictReader(f)}
    pdf = pdftext(os.path.join(out, "report.pdf"))
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    for j in ("O", "B", "C", "guide"):
        for q, unit in (("F", "N"), ("T", "N m")):
            comps = np.column_stack([joints[f"{j}.{q}{a} [{unit}]"] for a in "xyz"])
            mag = np.linalg.norm(comps, axis=1)
            k = int(np.argmax(mag))
            row = table[j]
            assert float(row[f"{q}_max [{unit}]"]) == pytest.approx(mag[k], rel=1e-8)
            assert float(row[f"t_{q} [s]"]) == pytest.approx(t[k], abs=1e-12)
            got = [float(row[f"{q}{a} [{unit}]"]) for a in "xyz"]
            np.testing.assert_allclose(got, comps[k], rtol=1e-8, atol=1e-12 * mag[k])
            np.testing.assert_allclose(mag, joints[f"{j}.{q}_magnitude [{unit}]"], rtol=1e-8, atol=1e-12)
            text = document.g(mag[k])
            assert text in pdf and text in html, (j, q, text)
    # the largest joint force quoted in the key results
    big = max(("O", "B", "C", "guide"), key=lambda j: joints[f"{j}.F_magnitude [N]"].max())
    assert f"{document.g(joints[f'{big}.F_magnitude [N]'].max())} N in '{big}'" in pdf.replace("\n", " ")


def test_driver_numbers_match_csv_and_oracle(crank):
    res, rdir, out, paths = crank
    drv = read_csv(os.path.join(rdir, "drivers.csv"))
    t, tau, power = drv["time [s]"], drv["motor.effort [N m]"], drv["motor.power [W]"]
    oracle = SliderCrank(r=R, l=L, mc=MC, mr=MR, ms=MS).torque_constant_speed(t, omega=OMEGA)
    np.testing.assert_allclose(tau, oracle, atol=2e-3 * np.abs(oracle).max())  # what the plot shows
    np.testing.assert_allclose(power, tau * OMEGA, rtol=1e-6, atol=1e-9)
    ke = int(np.argmax(np.abs(tau)))
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    assert f"max |effort| {document.g(abs(tau[ke]))} N m at t = {document.g(t[ke])} s" in html


def test_point_kinematics_against_oracle(crank):
    """P1 is the crank pin B: path, velocity and (finite-difference) acceleration."""
    res, rdir, out, paths = crank
    pts = read_csv(os.path.join(out, "points.csv"))
    t = pts["time [s]"]
    kin = SliderCrank(r=R, l=L, mc=MC, mr=MR, ms=MS).kinematics(OMEGA * t, np.full_like(t, OMEGA))
    for key, prefix, unit, tol in (
        ("B", "", "m", 1e-7),
        ("B_vel", "v", "m/s", 1e-6),
        ("B_acc", "a", "m/s^2", 3e-3 * R * OMEGA**2),
    ):
        got = np.column_stack([pts[f"P1.{prefix}{a} [{unit}]"] for a in "xyz"])
        np.testing.assert_allclose(got[:, :2], kin[key], atol=tol, err_msg=key)
        np.testing.assert_allclose(got[:, 2], 0.0, atol=tol)


def test_timeseries_json_holds_every_csv_column(crank):
    res, rdir, out, paths = crank
    doc = json.load(open(os.path.join(out, "timeseries.json")))
    for group in ("bodies", "joints", "drivers", "violations", "energy"):
        cols = read_csv(os.path.join(rdir, f"{group}.csv"))
        assert set(doc["series"][group]) == set(cols)
        for h, v in cols.items():
            assert re.search(r"\[[^\]]+\]$", h), h  # unit in every header
            np.testing.assert_allclose(doc["series"][group][h], v, rtol=1e-9, atol=0)
    pts = read_csv(os.path.join(out, "points.csv"))
    assert set(doc["series"]["points"]) == set(pts)
    assert doc["points"]["P1"] == {"body": "crank", "local_point_m": [R / 2, 0.0, 0.0]}


def test_in_memory_and_directory_give_the_same_peaks(crank):
    res, rdir, out, paths = crank
    a, b = derived.peak_loads(from_results(res)), derived.peak_loads(load_results_dir(rdir))
    for p, q in zip(a, b):
        assert p["joint"] == q["joint"] and p["t_F"] == q["t_F"] and p["t_T"] == q["t_T"]
        assert p["F_max"] == pytest.approx(q["F_max"], rel=1e-12)


def test_in_memory_directory_and_zip_hold_the_same_numbers(crank, tmp_path):
    """One reader: the tables of the in-memory run, its folder and a zip of it are identical."""
    res, rdir, out, paths = crank
    archive = str(tmp_path / "results.zip")
    with zipfile.ZipFile(archive, "w") as z:
        for name in os.listdir(rdir):
            z.write(os.path.join(rdir, name), name)
    ref = load_results_dir(rdir)
    for data in (from_results(res), load_results_dir(archive)):
        assert data.tables.keys() == ref.tables.keys()
        for name, table in ref.tables.items():
            assert list(data.tables[name]) == list(table)
            assert all(np.array_equal(data.tables[name][h], col) for h, col in table.items()), name
        assert derived.peak_loads(data)[0]["F_max"] == derived.peak_loads(ref)[0]["F_max"]
    assert load_results_dir(archive).source == archive


def test_redundancy_reported_for_the_planar_slider_crank(crank):
    """4 joints in a plane: 6 x 3 - 20 = -2 by Grubler, 3 redundant equations, 1 dof."""
    res, rdir, out, paths = crank
    text = " ".join(pdftext(os.path.join(out, "report.pdf")).split())
    assert "6 x 3 - 20 joint equations = -2" in text
    assert "20, independent 17, redundant 3" in text
    assert "1 without drivers, 0 left free" in text
    assert "Redundant constraints: 3 constraint equation(s)" in text
    assert "minimum-norm" in text and re.search(r"\bO ?\* revolute", text)


# ----------------------------------------------------------------------------- files
class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(tag, k, v or "") for k, v in attrs]


@pytest.mark.parametrize("which", ["crank", "pendulum"])
def test_html_is_self_contained(which, crank, pendulum_cli):
    out = crank[2] if which == "crank" else pendulum_cli[1]
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    low = html.lower()
    for bad in ("http:", "https:", "ftp:", "file:", "@import", "url(", "<script", "<link", "<iframe", "<object"):
        assert bad not in low, bad
    p = _Refs()
    p.feed(html)
    srcs = [v for tag, k, v in p.attrs if k == "src"]
    assert srcs and all(v.startswith("data:image/png;base64,") for v in srcs)
    assert not [v for tag, k, v in p.attrs if k in ("href", "xlink:href", "srcset", "data", "action")]


def test_pdf_has_the_expected_pages(crank):
    out = crank[2]
    pdf = os.path.join(out, "report.pdf")
    n, info = pdfpages(pdf)
    assert "A4" in info
    first = pdftext(pdf, 1)
    for s in (
        "Motion-study report: slider_crank",
        "Key results",
        "Warnings",
        "Integrator",
        "rk4",
        "Numba",
        "MBD Workbench 0.1.0",
    ):
        assert s in first, s
    pages = [" ".join(pdftext(pdf, k).split()) for k in range(1, n + 1)]
    wanted = [
        "Bodies",
        "Joints",
        "Drivers",
        "Mobility and redundancy",
        "Peak loads",
        "Driver efforts and power",
        "Joint reaction magnitudes",
        "Point P1: body 'crank'",
        "Point P2: body 'rod'",
        "Constraint violation",
        "Energy balance",
        "Motion overview",
        "Files",
    ]
    where = [next(k for k, p in enumerate(pages) if w in p) for w in wanted]
    assert where == sorted(where)  # in reading order
    assert all(f"page {k + 1}" in p for k, p in enumerate(pages))
    png = os.path.join(out, "page1")
    subprocess.run(["pdftoppm", "-r", "30", "-f", "1", "-l", "1", "-png", pdf, png], check=True)
    assert any(f.startswith("page1") and f.endswith(".png") for f in os.listdir(out))
    for f in os.listdir(out):
        if f.startswith("page1"):
            os.remove(os.path.join(out, f))


def test_written_files_and_animation(crank):
    out, paths = crank[2], crank[3]
    names = ["report.html", "report.pdf", "timeseries.json", "peak_loads.csv", "points.csv"]
    if animation.have_pillow():
        from PIL import Image

        names.append("motion.gif")
        with Image.open(os.path.join(out, "motion.gif")) as im:
            assert im.n_frames > 10
    assert paths == [os.path.join(out, n) for n in names]
    assert sorted(os.listdir(out)) == sorted(names)  # no temporary files left


def test_png_strip_without_pillow(pendulum_cli, tmp_path, monkeypatch):
    """No Pillow: the animation becomes a strip of PNG frames; a GIF request is refused."""
    import MBDWorkbench.report as report

    monkeypatch.setattr(report, "have_pillow", lambda: False)
    with pytest.raises(ReportError, match="python3-pil"):
        write_report(pendulum_cli[0], str(tmp_path / "gif"), animation="gif")
    paths = write_report(pendulum_cli[0], str(tmp_path / "r"), points=[("bob", [0, 0, 0])], view="xz")
    assert [os.path.basename(p) for p in paths][-2:] == ["points.csv", "motion_strip.png"]
    with open(paths[-1], "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    # the bob's CoG is at distance 1 m from the pivot (on the y axis) all the time
    pts = read_csv(paths[-2])
    r = np.hypot(pts["P1.x [m]"], pts["P1.z [m]"])
    np.testing.assert_allclose(r, 1.0, atol=1e-6)
    np.testing.assert_allclose(pts["P1.y [m]"], 0.0, atol=1e-9)


def test_stick_figure_projection_finds_the_motion_plane(crank):
    data = load_results_dir(crank[1])
    stick = animation.StickFigure(data)
    assert stick.view_text == "projected on the x-y plane"
    tilted = animation.StickFigure(data, view=[0, 1, 1])
    n = np.cross(tilted.u, tilted.v)
    np.testing.assert_allclose(n, np.array([0, 1, 1]) / np.sqrt(2), atol=1e-12)
    with pytest.raises(ReportError, match="view"):
        animation.StickFigure(data, view="top")


def test_pendulum_report_from_the_cli(pendulum_cli):
    rdir, out, stdout = pendulum_cli
    assert "report:" in stdout and os.path.join(out, "report.pdf") in stdout
    text = " ".join(pdftext(os.path.join(out, "report.pdf")).split())
    assert "Warnings None: no redundant constraints" in text
    assert "6 x 1 - 5 joint equations = 1" in text
    assert "rotational spring damper" in text and "k = 5 N m/rad, c = 0.1 N m s/rad" in text
    joints = read_csv(os.path.join(rdir, "joints.csv"))
    assert document.g(joints["pivot.F_magnitude [N]"].max()) in text


# ----------------------------------------------------------------------------- warnings
def test_drift_and_singularity_warnings(crank):
    data = load_results_dir(crank[1])
    mob = derived.mobility(data)
    base = derived.warnings(data, mob)
    assert [w[0] for w in base] == [
        "Run status",
        "Run warning [redundant] (t = 0 s; 'O', 'B', 'C', 'guide')",
        "Redundant constraints",
    ]
    assert "not unique" in base[1][1] and "not unique" in base[2][1] and "Tikhonov" not in base[2][1]
    data.summary["max_position_violation_m"] = 1e-3
    data.summary["energy_drift"] = 0.05
    mob["scan"].singular.append(0.42)
    titles = {w[0]: w[1] for w in derived.warnings(data, mob)}
    assert "Large constraint drift" in titles and "Energy balance drift" in titles
    assert "t = 0.42 s" in titles["Singular configurations"]


# ----------------------------------------------------------------------------- bad input
def _snapshot(d):
    return {f: open(os.path.join(d, f), "rb").read() for f in os.listdir(d)}


def test_missing_results_directory(tmp_path):
    with pytest.raises(ReportError, match="results directory does not exist") as e:
        write_report(str(tmp_path / "nope"), str(tmp_path / "report"))
    assert "nope" in str(e.value)
    assert not (tmp_path / "report").exists()


@pytest.mark.parametrize(
    "damage, match",
    [
        ("cut_line", "joints.csv.*(line|values|truncated)"),
        ("drop_lines", "joints.csv.*summary.json says 101"),
        ("summary", "summary.json.*not valid JSON"),
        ("no_csv", "energy.csv.*missing"),
    ],
)
def test_damaged_results_overwrite_nothing(crank, tmp_path, damage, match):
    rdir = str(tmp_path / "results")
    shutil.copytree(crank[1], rdir)
    if damage == "cut_line":
        text = open(os.path.join(rdir, "joints.csv")).read()
        open(os.path.join(rdir, "joints.csv"), "w").write(text[: len(text) * 2 // 3])
    elif damage == "drop_lines":
        lines = open(os.path.join(rdir, "joints.csv")).readlines()
        open(os.path.join(rdir, "joints.csv"), "w").writelines(lines[:-3])
    elif damage == "summary":
        text = open(os.path.join(rdir, "summary.json")).read()
        open(os.path.join(rdir, "summary.json"), "w").write(text[:100])
    else:
        os.remove(os.path.join(rdir, "energy.csv"))
    out = tmp_path / "report"
    out.mkdir()
    (out / "report.html").write_text("an earlier report")
    with pytest.raises(ReportError, match=match):
        write_report(rdir, str(out), overwrite=True)
    assert _snapshot(str(out)) == {"report.html": b"an earlier report"}


def test_model_that_does_not_match(crank, tmp_path):
    rdir = crank[1]
    with pytest.raises(ReportError, match="model.json.*does not match"):
        load_results_dir(rdir, model=pendulum_dict())
    heavier = slider_crank_dict()
    heavier["bodies"][1]["mass"] = 2.5
    with pytest.raises(ReportError, match=r"bodies\[1\] \('rod'\)\.mass is 2\.5, results have 2\.0"):
        load_results_dir(rdir, model=heavier)
    other = slider_crank_dict()
    other["settings"]["t_end"] = 3.0  # settings may differ (CLI overrides)
    assert load_results_dir(rdir, model=other).model.settings.t_end == 3.0
    # without model.json the given model is checked against the results themselves
    bare = str(tmp_path / "bare")
    shutil.copytree(rdir, bare)
    os.remove(os.path.join(bare, "model.json"))
    with pytest.raises(ReportError, match="model.json.*missing; pass the model"):
        load_results_dir(bare)
    renamed = slider_crank_dict()
    renamed["joints"][3]["name"] = "rail"
    with pytest.raises(ReportError, match="does not match the results.*'guide'"):
        load_results_dir(bare, model=renamed)
    assert load_results_dir(bare, model=slider_crank_dict()).joint_names == ["O", "B", "C", "guide"]


def test_existing_report_is_not_overwritten(crank):
    out = crank[2]
    before = _snapshot(out)
    with pytest.raises(ReportError, match=r"report\.html.*already exists.*overwrite=True"):
        write_report(crank[1], out)
    assert _snapshot(out) == before


def test_bad_points(crank, tmp_path):
    for points, match in (
        ([("wheel", [0, 0, 0])], r"points\[0\].*unknown body 'wheel'"),
        ([("crank", [0, 0])], r"points\[0\].*3 finite numbers"),
        ([("crank",)], r"points\[0\].*expected \(body"),
    ):
        with pytest.raises(ReportError, match=match):
            write_report(crank[1], str(tmp_path / "r"), points=points)
    assert not (tmp_path / "r").exists()


# ----------------------------------------------------------------------------- catalogue-driven text
def test_force_description_and_unit_come_from_the_record(monkeypatch):
    """A force type added to the catalogue at run time is described from its record: what it acts
    on, each field with its symbol and unit, what it applies [unit]; no per-type code."""
    import dataclasses

    from MBDWorkbench.solver.model import Force, catalog

    drag = catalog.ForceType(
        "test_drag",
        (
            catalog.ForceField("joint", "rotational_joint"),
            catalog.ForceField("damping", "nonneg", 0.0, unit="N m s/rad", symbol="c"),
        ),
        effort="torque",
    )
    monkeypatch.setitem(catalog.FORCES, "test_drag", drag)
    f = Force(name="drag", type="test_drag", joint="pivot", damping=0.25)
    assert document.force_target(f) == "joint pivot"
    assert document.force_params(f) == "c = 0.25 N m s/rad"
    assert document.effort_text(drag) == "torque [N m]"
    pushed = dataclasses.replace(
        drag, fields=drag.fields + (catalog.ForceField("point", "point", None),), effort="force"
    )
    monkeypatch.setitem(catalog.FORCES, "test_drag", pushed)
    assert document.effort_text(pushed) == "force [N]"
    assert document.force_params(f) == "c = 0.25 N m s/rad"  # a point is where it acts, not a parameter


def test_spring_and_point_force_rows():
    from MBDWorkbench.solver.model import Force

    spring = Force(
        name="s",
        type="spring_damper",
        body_i="ground",
        point_i=[0, 0, 1],
        body_j="bob",
        point_j=[1, 0, 0],
        stiffness=5.0,
    )
    assert (
        document.force_target(spring) == f"ground at {document.vec([0, 0, 1])} \u2013 bob at {document.vec([1, 0, 0])}"
    )
    assert document.force_params(spring) == "k = 5 N/m, c = 0 N s/m, free length: the initial distance"
    push = Force(name="p", type="point_force", body="bob", force=[1, 0, "t"], frame="body")
    assert document.force_target(push) == "bob at the CoG"
    assert document.force_params(push) == "F = [1, 0, t] N, body axes"
    assert document.effort_text(catalog_record("rotational")) == "torque [N m]"
    assert document.effort_text(catalog_record("linear")) == "force [N]"


def catalog_record(driver_type):
    from MBDWorkbench.solver.model.catalog import DRIVERS

    return DRIVERS[driver_type]
