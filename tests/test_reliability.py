"""Reliability (issue 11), the rest: the step budget of adaptive integrators, the analyses'
results folders checked before anything is computed, the report of a failed or cancelled
run, degrees of freedom counted for point masses, and PDF text without missing glyphs."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import warnings

import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)

from MBDWorkbench import cli  # noqa: E402
from MBDWorkbench.cad.check import grubler_text  # noqa: E402
from MBDWorkbench.report import write_report  # noqa: E402
from MBDWorkbench.solver import SimulationError, from_dict, simulate  # noqa: E402
from MBDWorkbench.solver.analyses import kinematics  # noqa: E402
from MBDWorkbench.solver.analyses.mobility import mobility  # noqa: E402
from MBDWorkbench.solver.errors import Cancelled  # noqa: E402
from MBDWorkbench.solver.model import limits  # noqa: E402
from MBDWorkbench.solver.results import files as fmt  # noqa: E402

EXAMPLES = os.path.join(ROOT, "examples")
G, L, M = 9.81, 1.0, 1.0


def pendulum(**settings):
    """A bob on a revolute about y at L from the origin, released from the horizontal."""
    return {
        "name": "pendulum",
        "gravity": [0, 0, -G],
        "bodies": [{"name": "bob", "mass": M, "inertia": [4e-5] * 3, "position": [L, 0, 0]}],
        "joints": [
            {
                "name": "pivot",
                "type": "revolute",
                "body_i": "ground",
                "body_j": "bob",
                "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]},
            }
        ],
        "settings": {"t_end": 0.5, "step": 1e-3, "output_step": 0.01, "integrator": "rk4", **settings},
    }


def model_file(tmp_path, d, name="model.json"):
    path = tmp_path / name
    path.write_text(json.dumps(d))
    return str(path)


def summary(folder):
    return json.load(open(os.path.join(folder, fmt.SUMMARY)))


def pdf_page(path, page=1):
    out = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), path, "-"], capture_output=True, text=True)
    return " ".join(out.stdout.split())


needs_pdftotext = pytest.mark.skipif(
    subprocess.run(["which", "pdftotext"], capture_output=True).returncode != 0, reason="pdftotext (poppler) missing"
)


@pytest.fixture
def small_budget(monkeypatch):
    """A step budget of 20 steps whatever the run (limits.step_budget reads these at run time)."""
    monkeypatch.setattr(limits, "STEP_BUDGET_FACTOR", 1)
    monkeypatch.setattr(limits, "MIN_STEP_BUDGET", 20)


# ----------------------------------------------------------------------------- step budget
def test_step_budget_bounds():
    """For every run within MAX_STEPS (larger ones are refused before solving): at least its own
    t_end / step (fixed-step integrators never reach it) and MIN_STEP_BUDGET, at most MAX_STEPS."""
    for t_end, step in [(1.0, 1e-3), (10.0, 1e-6), (1e3, 1e-4), (1.0, 1.0), (1.0, 1e-7)]:
        budget = limits.step_budget(t_end, step)
        assert limits.step_count(t_end, step) <= budget <= limits.MAX_STEPS
        assert budget >= limits.MIN_STEP_BUDGET


@pytest.mark.parametrize("integrator", ["bdf", "radau", "lsoda", "galpha"])
def test_an_adaptive_integrator_beyond_its_step_budget_fails_with_its_samples(integrator, small_budget, tmp_path):
    """A run whose adaptive integrator needs more steps than its budget (here: tolerances far
    tighter than the 20-step budget allows) stops as failed, keeps and writes its samples."""
    d = pendulum(integrator=integrator, step=0.5, rtol=1e-10, atol=1e-12)
    out = str(tmp_path / "out")
    with pytest.raises(SimulationError, match="beyond its step budget of 20") as info:
        simulate(from_dict(d), out_dir=out)
    res = info.value.results
    assert res.status == "failed" and res.steps > 20
    assert 1 <= len(res) and res.t[-1] < 0.5
    s = summary(out)
    assert s["status"] == "failed" and s["samples"] == len(res) and "step budget" in s["message"]


def test_fixed_step_integrators_never_reach_the_budget(small_budget):
    """rk4 takes exactly t_end / step = 500 steps, beyond MIN_STEP_BUDGET = 20 but within 1 x 500."""
    res = simulate(from_dict(pendulum()))
    assert res.status in ("completed", "completed_with_warnings") and res.steps == 500


def test_no_limits_lifts_the_step_budget(small_budget):
    res = simulate(from_dict(pendulum(integrator="bdf", step=0.5, rtol=1e-8, atol=1e-10, check_limits=False)))
    assert res.steps > 20 and res.t[-1] == pytest.approx(0.5)


# ----------------------------------------------------------------------------- analyses: --out first
@pytest.fixture
def must_not_compute(monkeypatch):
    def compute(*args, **kwargs):
        raise AssertionError("the analysis was started")

    monkeypatch.setattr(kinematics, "_kinematics", compute)
    monkeypatch.setattr(kinematics, "_statics", compute)


@pytest.mark.parametrize("command", ["kinematics", "inverse-dynamics", "statics"])
def test_analysis_out_is_checked_before_computing(command, tmp_path, capsys, must_not_compute):
    model = os.path.join(EXAMPLES, "slider_crank.json")
    (tmp_path / "a_file").write_text("not a folder")
    full = tmp_path / "full"
    full.mkdir()
    (full / fmt.SUMMARY).write_text("{}")
    for out, text in [(tmp_path / "a_file", "is a file"), (tmp_path / "a_file" / "x", "lies below the file")]:
        assert cli.main([command, model, "--out", str(out)]) == 2
        assert text in capsys.readouterr().err
    assert cli.main([command, model, "--out", str(full)]) == 2
    assert "pass --overwrite" in capsys.readouterr().err
    assert os.listdir(full) == [fmt.SUMMARY]  # untouched


def test_kinematics_overwrite_replaces_the_folder_as_a_whole(tmp_path, capsys):
    model = os.path.join(EXAMPLES, "slider_crank.json")
    out = tmp_path / "kin"
    assert cli.main(["kinematics", model, "--quiet", "--t-end", "0.05", "--out", str(out)]) == 0
    first = summary(out)
    assert cli.main(["kinematics", model, "--quiet", "--t-end", "0.1", "--out", str(out)]) == 2
    assert summary(out) == first
    assert cli.main(["kinematics", model, "--quiet", "--t-end", "0.1", "--out", str(out), "--overwrite"]) == 0
    second = summary(out)
    assert second["t_end"] == pytest.approx(0.1) and second["samples"] == first["samples"] + 5
    t = fmt.read_csv(str(out / fmt.BODIES))[fmt.TIME]
    assert len(t) == second["samples"] and [n for n in os.listdir(tmp_path) if n.startswith(".")] == []


def test_cancelled_kinematics_writes_its_samples_as_cancelled(tmp_path):
    model = from_dict(json.load(open(os.path.join(EXAMPLES, "slider_crank.json"))))
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 4

    out = str(tmp_path / "kin")
    with pytest.raises(Cancelled) as info:
        kinematics.kinematic_analysis(model, t_end=0.1, output_step=0.01, out_dir=out, cancel=cancel)
    res = info.value.results
    assert len(res) == 4 and res.status == "cancelled"
    s = summary(out)
    assert s["status"] == "cancelled" and s["samples"] == 4
    assert len(fmt.read_csv(os.path.join(out, fmt.JOINTS))[fmt.TIME]) == 4


def test_kinematics_cli_exit_code_of_a_cancel(tmp_path, monkeypatch, capsys):
    @contextlib.contextmanager
    def cancel_soon():
        calls = []
        yield lambda: calls.append(1) or len(calls) > 3

    monkeypatch.setattr("MBDWorkbench.analysis_cli.cancel_on_signals", cancel_soon)
    out = tmp_path / "kin"
    model = os.path.join(EXAMPLES, "slider_crank.json")
    assert cli.main(["kinematics", model, "--quiet", "--t-end", "0.1", "--out", str(out)]) == 5
    assert summary(out)["status"] == "cancelled" and "status: cancelled" in capsys.readouterr().err


# ----------------------------------------------------------------------------- report of a stopped run
@needs_pdftotext
def test_failed_run_report_says_so_on_its_first_page(tmp_path, small_budget, capsys):
    path = model_file(tmp_path, pendulum(integrator="bdf", step=0.5, rtol=1e-10, atol=1e-12))
    out, rep = tmp_path / "out", tmp_path / "report"
    assert cli.main(["simulate", path, "--quiet", "--out", str(out), "--report", str(rep)]) == 4
    s = summary(out)
    assert s["status"] == "failed"
    first = pdf_page(str(rep / "report.pdf"))
    assert "Motion-study report: pendulum (run failed)" in first
    assert f"This run FAILED: its results cover only t = 0 to {s['t_end']:.4g} s ({s['samples']} output" in first
    assert "step budget" in first
    html = open(rep / "report.html", encoding="utf-8").read()
    assert "(run failed)" in html and "This run FAILED" in html
    assert "report:" in capsys.readouterr().err


@needs_pdftotext
def test_cancelled_run_report_says_so_on_its_first_page(tmp_path, monkeypatch, capsys):
    @contextlib.contextmanager
    def cancel_soon():
        calls = []
        yield lambda: calls.append(1) or len(calls) > 10

    monkeypatch.setattr(cli, "cancel_on_signals", cancel_soon)
    path = model_file(tmp_path, pendulum())
    out, rep = tmp_path / "out", tmp_path / "report"
    assert cli.main(["simulate", path, "--quiet", "--out", str(out), "--report", str(rep)]) == 5
    s = summary(out)
    assert s["status"] == "cancelled" and 1 < s["samples"] < 51
    first = pdf_page(str(rep / "report.pdf"))
    assert "(run cancelled)" in first and "This run was CANCELLED" in first and "of the 0.5 s asked for" in first


def test_no_report_when_the_results_could_not_be_written(tmp_path, monkeypatch, capsys):
    """Results lost (disk full) -> no report either: results and report describe the same run."""

    def disk_full(table):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fmt, "rows_text", disk_full)
    path = model_file(tmp_path, pendulum())
    rep = tmp_path / "report"
    assert cli.main(["simulate", path, "--quiet", "--out", str(tmp_path / "out"), "--report", str(rep)]) == 4
    assert "No space left on device" in capsys.readouterr().err
    assert not rep.exists() and not (tmp_path / "out").exists()


# ----------------------------------------------------------------------------- degrees of freedom
def rod_and_bob():
    """A rod on a revolute to the ground, a point mass on a spherical joint at its tip."""
    return {
        "name": "rod_and_bob",
        "gravity": [0, 0, -G],
        "bodies": [
            {"name": "rod", "mass": 1.5, "inertia": [1e-4, 0.1, 0.1], "position": [0.45, 0, 0]},
            {"name": "bob", "mass": 0.6, "point_mass": True, "position": [0.9, 0, 0]},
        ],
        "joints": [
            {
                "name": "pivot",
                "type": "revolute",
                "body_i": "ground",
                "body_j": "rod",
                "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0]},
            },
            {"name": "ball", "type": "spherical", "body_i": "rod", "body_j": "bob", "frame": {"origin": [0.9, 0, 0]}},
        ],
        "settings": {"t_end": 0.05, "output_step": 0.01, "step": 1e-3, "integrator": "rk4"},
    }


def test_degrees_of_freedom_count_point_masses_as_three():
    """Rod: 6, point mass: 3; revolute 5 equations, spherical 3 -> 9 - 8 = 1 (the rod's swing;
    the bob's position follows the rod)."""
    model = from_dict(rod_and_bob())
    text = grubler_text(model)
    assert "6 x 1 + 3 x 1 - 8 = 1 degrees of freedom" in text and "6 x 2" not in text
    assert mobility(model).mobility == 1


@needs_pdftotext
def test_report_counts_point_masses_as_three(tmp_path):
    res = simulate(from_dict(rod_and_bob()))
    write_report(res, str(tmp_path / "r"), animation=None)
    text = " ".join(pdf_page(str(tmp_path / "r" / "report.pdf"), p) for p in range(1, 4))
    assert "6 x 1 + 3 x 1 - 8 joint equations = 1" in text
    assert "1 point mass (3 each: positions only)" in text and "6 x 2" not in text


# ----------------------------------------------------------------------------- PDF text
@needs_pdftotext
def test_pdf_text_with_line_breaks_and_tabs_has_every_glyph(tmp_path):
    """Texts with line breaks and tabs (a description, a message) are laid out line by line,
    never handed to matplotlib whole ("Glyph 10 missing from current font")."""
    d = pendulum(t_end=0.05)
    d["description"] = "first line\nsecond line\twith a tab\r\nthird line"
    res = simulate(from_dict(d))
    res.message = "a message\nover two lines"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        write_report(res, str(tmp_path / "r"), animation=None)
    assert [str(w.message) for w in caught if "Glyph" in str(w.message)] == []
    text = pdf_page(str(tmp_path / "r" / "report.pdf"))
    assert "first line second line with a tab third line" in text


def test_pdf_printable_keeps_line_breaks_only():
    from MBDWorkbench.report.pdf_writer import printable, text_width, wrap

    assert printable("a\tb\r\nc\x07d\x00") == "a b\ncd"
    assert wrap("one\ntwo", 5.0, 9.0) == ["one", "two"]
    assert text_width("short\na much longer line", 9.0) == pytest.approx(text_width("a much longer line", 9.0))
    assert np.isfinite(text_width("", 9.0))


def test_sigterm_cancels_a_kinematic_analysis_and_keeps_its_samples(tmp_path):
    """A real SIGTERM (then SIGINT works alike: cli_common.cancel_on_signals) during a long
    kinematic analysis: exit 5, the samples so far written as cancelled, no traceback."""
    out = tmp_path / "kin"
    cmd = [sys.executable, "-m", "MBDWorkbench", "kinematics", os.path.join(EXAMPLES, "slider_crank.json")]
    cmd += ["--t-end", "5000", "--output-step", "0.01", "--no-limits", "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = b""
    while b"%" not in seen:  # the progress bar: the analysis is in its loop
        assert proc.poll() is None, seen.decode(errors="replace")
        seen += os.read(proc.stderr.fileno(), 4096)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    err = (seen + err).decode(errors="replace")
    assert proc.returncode == 5 and "Traceback" not in err and "status: cancelled" in err
    s = summary(out)
    assert s["status"] == "cancelled" and 1 <= s["samples"] < 500_001
    assert len(fmt.read_csv(str(out / fmt.BODIES))[fmt.TIME]) == s["samples"]


# ----------------------------------------------------------------------------- issue 36
@pytest.mark.parametrize("writing", ["rows_text", "summary_document"])  # the samples, or summary.json at the end
@pytest.mark.parametrize(
    "command,model",
    [("simulate", None), ("kinematics", "slider_crank.json"), ("statics", "slider_crank.json")],
)
def test_disk_full_prints_failed_never_completed(command, model, writing, tmp_path, monkeypatch, capsys):
    """Results that cannot be written (ENOSPC): 'status: failed' and exit 4 from every
    subcommand; a run that completed before its last write printed 'status: completed', and
    statics exited 0."""

    def disk_full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fmt, writing, disk_full)
    path = os.path.join(EXAMPLES, model) if model else model_file(tmp_path, pendulum())
    out = tmp_path / "out"
    code = cli.main([command, path, "--out", str(out)] + (["--quiet"] if command != "statics" else []))
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert code == 4 and "No space left on device" in captured.err
    assert "status: failed" in captured.err and "completed" not in text and not out.exists()


def with_extra_bodies(n):
    """examples/slider_crank.json with ``n`` free bodies more (the audit's 40,000: 4 MB of JSON)."""
    d = json.load(open(os.path.join(EXAMPLES, "slider_crank.json")))
    d["bodies"] += [
        {"name": f"extra{k}", "mass": 1.0, "inertia": [1e-3] * 3, "position": [k * 1e-3, 5, 0]} for k in range(n)
    ]
    return d


@pytest.fixture(scope="module")
def huge_model(tmp_path_factory):
    return model_file(tmp_path_factory.mktemp("huge"), with_extra_bodies(40_000))


@pytest.mark.parametrize(
    "command,limit",
    [
        ("statics", "GiB of dense matrices (limit 4 GiB)"),
        ("kinematics", "GiB of results (limit 4 GiB)"),
        ("inverse-dynamics", "GiB of results (limit 4 GiB)"),
        ("simulate", "GiB of results (limit 4 GiB)"),
    ],
)
def test_a_model_too_large_is_refused_at_once_by_every_command(
    command, limit, huge_model, tmp_path, monkeypatch, capsys
):
    """40,000 extra bodies: statics ran out of memory (MemoryError, 429 GiB, after 28 s), the
    kinematic analyses took 6-57 s to refuse it; now refused from the parsed JSON with the
    estimate, before the model is built (from_dict) and in well under the seconds that took."""
    import time

    from MBDWorkbench import cli_common

    def must_not_build(data):
        raise AssertionError("the model was built before its size was checked")

    monkeypatch.setattr(cli_common, "from_dict", must_not_build)
    extra = ["--t-end", "10"] if command != "statics" else []
    start = time.perf_counter()
    code = cli.main([command, huge_model, "--out", str(tmp_path / "out")] + extra)
    elapsed = time.perf_counter() - start
    err = capsys.readouterr().err
    analysis = {"inverse-dynamics": "kinematics"}.get(command, command)
    assert code == 2 and f"the {analysis} run is too large" in err
    assert limit in err and "--no-limits" in err and not (tmp_path / "out").exists()
    assert elapsed < 3.0, elapsed


def test_statics_refuses_a_model_beyond_its_dense_matrices():
    """The Python API too: 2,500 extra bodies need 3 x (n^2 + rows x n) x 8 B of dense matrices,
    n = 6 per moving body (closed form here), 5.0 GiB > 4 GiB: refused before computing;
    2,000 extra (3.2 GiB) are within the limit."""
    from MBDWorkbench.solver.errors import ModelError
    from MBDWorkbench.solver.model.catalog import JOINTS

    model = from_dict(with_extra_bodies(2500))
    n = 6 * sum(1 for b in model.bodies if not b.grounded)
    rows = sum(JOINTS[j.type].equations for j in model.joints) + len(model.drivers)
    expected = 3 * 8 * (n * n + rows * n)
    assert expected > 4 * 2**30
    with pytest.raises(ModelError) as e:
        kinematics.static_equilibrium(model)
    assert f"{expected / 2**30:.3g} GiB of dense matrices (limit 4 GiB)" in str(e.value)
    n_small = n - 6 * 500
    assert 3 * 8 * (n_small**2 + rows * n_small) < 4 * 2**30
    assert limits.estimate_statics(n_small // 6, rows, len(model.joints), len(model.drivers)).excess() == ""


def signalled_run(tmp_path, signals, gap=0.15):
    """A long slider-crank simulation sent ``signals`` (``gap`` s apart) once in its step loop:
    (exit code, seconds from the first signal to the end of the process, stderr, results folder)."""
    import time

    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "MBDWorkbench", "simulate", os.path.join(EXAMPLES, "slider_crank.json")]
    cmd += ["--t-end", "1000", "--integrator", "rk4", "--no-limits", "--out", str(out)]
    env = {k: v for k, v in os.environ.items() if k != "MBD_COLD_START"}  # as a user runs it (conftest sets it)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = b""
    while b"%" not in seen:  # the progress bar: the run is in its loop
        assert proc.poll() is None, seen.decode(errors="replace")
        seen += os.read(proc.stderr.fileno(), 4096)
    time.sleep(1.0)  # the sub-intervals are timed (simulate._Pace)
    start = time.perf_counter()
    for k, s in enumerate(signals):
        time.sleep(gap if k else 0.0)
        proc.send_signal(s)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, time.perf_counter() - start, (seen + err).decode(errors="replace"), out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_run_within_a_second_with_its_samples(sig, tmp_path):
    """Measured from the signal to the end of the process (rk4): the samples are written within
    0.02-0.2 s, then the interpreter's teardown took 0.2 s on an idle machine and 1.0-1.2 s under
    load before; it is skipped now (cli_common.exit_at_once): 0.04-0.3 s in all."""
    code, elapsed, err, out = signalled_run(tmp_path, [sig])
    assert code == 5 and "status: cancelled" in err and "Traceback" not in err
    assert elapsed < 1.0, elapsed
    s = summary(out)
    assert s["status"] == "cancelled" and s["samples"] > 1
    assert len(fmt.read_csv(str(out / fmt.BODIES))[fmt.TIME]) == s["samples"]


@pytest.mark.parametrize(
    "signals", [[signal.SIGTERM, signal.SIGTERM], [signal.SIGINT, signal.SIGINT], [signal.SIGINT, signal.SIGTERM]]
)
def test_a_second_signal_still_exits_5_with_the_samples(signals, tmp_path):
    """The second signal ended the process by the signal (exit -15 or -2, the handlers were
    restored while the samples were reported); now exit 5 and the samples so far written."""
    code, elapsed, err, out = signalled_run(tmp_path, signals)
    assert code == 5 and "status: cancelled" in err and "Traceback" not in err
    s = summary(out)
    assert s["status"] == "cancelled" and s["samples"] > 1
    assert len(fmt.read_csv(str(out / fmt.BODIES))[fmt.TIME]) == s["samples"]
