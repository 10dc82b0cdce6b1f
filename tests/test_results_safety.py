"""Results written safely (issue 11): a results folder always describes exactly one run.

The output faults a user reported, one test each: targets checked before solving (a file,
below a file, read-only, not empty, an existing report), the atomic replacement of an old
folder, disk full, two writers at once, SIGINT/SIGTERM and cancel within a long output
interval, internal errors; then the streamed files against closed forms (a pendulum's
reactions from its energy, a driven joint's angle and energy balance across chunk
boundaries), and memory that does not grow with the number of samples.
"""

import errno
import importlib
import json
import math
import os
import select
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc

import numpy as np
import pytest
from scipy.integrate import solve_ivp

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)

from MBDWorkbench.cli import main  # noqa: E402
from MBDWorkbench.solver import from_dict, simulate  # noqa: E402
from MBDWorkbench.solver.errors import Cancelled  # noqa: E402
from MBDWorkbench.solver.integrators.explicit import RK4Stepper  # noqa: E402
from MBDWorkbench.solver.results import files as fmt  # noqa: E402
from MBDWorkbench.solver.results.output_folder import OutputTargetError  # noqa: E402

G, L, M, I_BOB = 9.81, 1.0, 1.0, 4e-5  # the pendulum of examples/pendulum.json


def pendulum(name="pendulum", body="bob", **settings):
    """A bob (mass M, inertia I_BOB) on a revolute joint about y at distance L from the
    origin, released from the horizontal; gravity -z."""
    return {
        "name": name,
        "gravity": [0, 0, -G],
        "bodies": [{"name": body, "mass": M, "inertia": [I_BOB] * 3, "position": [L, 0, 0]}],
        "joints": [
            {
                "name": "pivot",
                "type": "revolute",
                "body_i": "ground",
                "body_j": body,
                "frame": {"origin": [0, 0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]},
            }
        ],
        "settings": {"t_end": 0.5, "step": 1e-3, "output_step": 0.01, "integrator": "rk4", **settings},
    }


def driven(**settings):
    """A bob turned at 2 rad/s by a rotational driver, and a free-falling ball."""
    d = pendulum(**settings)
    d["bodies"].append({"name": "ball", "mass": 0.5, "inertia": [1e-3] * 3, "position": [0, 2, 0]})
    d["drivers"] = [
        {"name": "motor", "type": "rotational", "joint": "pivot", "profile": {"type": "constant_speed", "speed": 2.0}}
    ]
    return d


def chain(n, **settings):
    """n links of 0.2 m on revolutes with alternating axes (as bench/solver_speed.py)."""
    bodies, joints = [], []
    for k in range(n):
        bodies.append(
            {"name": f"L{k}", "mass": 0.5, "inertia": [1e-4, 1.7e-3, 1.7e-3], "position": [0.2 * k + 0.1, 0, 0]}
        )
        joints.append(
            {
                "name": f"R{k}",
                "type": "revolute",
                "body_i": "ground" if k == 0 else f"L{k - 1}",
                "body_j": f"L{k}",
                "frame": {
                    "origin": [0.2 * k, 0, 0],
                    "z_axis": [0, 1, 0] if k % 2 == 0 else [0, 0, 1],
                    "x_axis": [1, 0, 0],
                },
            }
        )
    return {
        "name": f"chain{n}",
        "gravity": [0, 0, -G],
        "bodies": bodies,
        "joints": joints,
        "settings": {"t_end": 0.1, "step": 1e-3, "output_step": 0.01, "integrator": "rk4", **settings},
    }


def model_file(tmp_path, d, name="model.json"):
    path = tmp_path / name
    path.write_text(json.dumps(d))
    return str(path)


def must_not_solve(monkeypatch):
    """Make solving fail the test: a refusal must come before the run."""

    def solve(*args, **kwargs):
        raise AssertionError("the run was started")

    monkeypatch.setattr(importlib.import_module("MBDWorkbench.solver.simulate"), "simulate", solve)


def snapshot(folder):
    """{file name: bytes} of a folder."""
    return {n: open(os.path.join(folder, n), "rb").read() for n in sorted(os.listdir(folder))}


def csv_rows(path):
    with open(path, newline="") as f:
        return f.read().splitlines()


def assert_one_run(folder):
    """The folder describes exactly one run: every file of the format, every CSV with as many
    rows as summary.json has samples, of the model of summary.json and model.json."""
    assert sorted(os.listdir(folder)) == sorted(fmt.RESULT_NAMES)
    summary = json.load(open(os.path.join(folder, fmt.SUMMARY)))
    model = json.load(open(os.path.join(folder, fmt.MODEL)))
    assert model["name"] == summary["model"]
    for name in fmt.FILES:
        lines = csv_rows(os.path.join(folder, name))
        assert len(lines) == summary["samples"] + 1, name
        assert all(len(line.split(",")) == len(lines[0].split(",")) for line in lines), name
    header = csv_rows(os.path.join(folder, fmt.BODIES))[0]
    assert header.split(",")[1] == f"{summary['bodies'][0]}.x [m]"
    t = fmt.read_csv(os.path.join(folder, fmt.BODIES))[fmt.TIME]
    assert t[-1] == pytest.approx(summary["t_end"], abs=1e-9)
    return summary


def no_leftovers(parent):
    """Nothing hidden left beside the targets: no temporary folder, no lock file."""
    return [n for n in os.listdir(parent) if n.startswith(".")]


# ----------------------------------------------------------------------------- targets checked before solving
def test_out_onto_a_file_or_below_a_file_is_refused_before_solving(tmp_path, monkeypatch, capsys):
    must_not_solve(monkeypatch)
    model = model_file(tmp_path, pendulum())
    afile = tmp_path / "notes.txt"
    afile.write_text("keep me")
    assert main(["simulate", model, "--out", str(afile), "--quiet"]) == 2
    assert "is a file" in capsys.readouterr().err
    assert main(["simulate", model, "--out", str(afile / "results"), "--quiet"]) == 2
    assert f"lies below the file {afile}" in capsys.readouterr().err
    assert afile.read_text() == "keep me" and no_leftovers(tmp_path) == []


def test_a_non_empty_out_needs_overwrite_and_only_results_are_replaced(tmp_path, monkeypatch, capsys):
    model = model_file(tmp_path, pendulum())
    out = tmp_path / "out"
    simulate(from_dict(pendulum()), out_dir=str(out))
    before = snapshot(out)
    must_not_solve(monkeypatch)
    assert main(["simulate", model, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "is not empty" in err and "--overwrite" in err
    (out / "my_notes.txt").write_text("not results")
    assert main(["simulate", model, "--out", str(out), "--overwrite", "--quiet"]) == 2
    assert "my_notes.txt, which are not results files; not replaced" in capsys.readouterr().err
    os.remove(out / "my_notes.txt")
    assert snapshot(out) == before and no_leftovers(tmp_path) == []


def test_an_existing_report_is_refused_before_out_is_touched(tmp_path, monkeypatch, capsys):
    model = model_file(tmp_path, pendulum())
    out, report = tmp_path / "out", tmp_path / "report"
    simulate(from_dict(pendulum()), out_dir=str(out))
    report.mkdir()
    (report / "report.html").write_text("an earlier report")
    before = snapshot(out)
    must_not_solve(monkeypatch)
    assert main(["simulate", model, "--out", str(tmp_path / "new"), "--report", str(report), "--quiet"]) == 2
    assert "report" in capsys.readouterr().err
    assert main(["simulate", model, "--out", str(out), "--report", str(report), "--quiet"]) == 2
    assert main(["simulate", model, "--out", str(out), "--report", str(out / "report"), "--overwrite"]) == 2
    assert "apart from --out" in capsys.readouterr().err
    assert snapshot(out) == before and (report / "report.html").read_text() == "an earlier report"
    assert not (tmp_path / "new").exists() and no_leftovers(tmp_path) == []


def in_mount_namespace(script, tmp_path, size="256k", read_only_dir=None):
    """Run a Python ``script`` in a private mount namespace where ``tmp_path/fs`` is a small
    tmpfs (``read_only_dir`` inside it mounted read-only); returns the JSON it prints.
    Skips where unprivileged mount namespaces are not available."""
    fs = tmp_path / "fs"
    fs.mkdir()
    mount = f"mount -t tmpfs -o size={size} tmpfs {fs}"
    if read_only_dir:
        mount += f" && mkdir {fs / read_only_dir} && mount -t tmpfs -o ro tmpfs {fs / read_only_dir}"
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", mount], capture_output=True)
    if probe.returncode:
        pytest.skip("no unprivileged mount namespace here (unshare -rm)")
    code = f"import sys, json, os\nsys.path.insert(0, {ROOT!r})\nFS = {str(fs)!r}\n" + textwrap.dedent(script)
    proc = subprocess.run(
        ["unshare", "-rm", "sh", "-c", f'{mount} && exec {sys.executable} -c "$0"', code],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_read_only_file_system_is_refused_before_solving(tmp_path):
    model = model_file(tmp_path, pendulum(t_end=1e6))  # would take hours if it were solved
    got = in_mount_namespace(
        f"""
        import contextlib, io
        from MBDWorkbench.cli import main
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(["simulate", {model!r}, "--out", os.path.join(FS, "ro", "out"), "--quiet", "--no-limits"])
        print(json.dumps(dict(code=code, err=err.getvalue())))
        """,
        tmp_path,
        read_only_dir="ro",
    )
    assert got["code"] == 2
    assert "cannot be written into" in got["err"] and "Read-only file system" in got["err"]


# ----------------------------------------------------------------------------- replaced as a whole, or not at all
def test_overwrite_replaces_the_old_folder_as_a_whole(tmp_path):
    out = tmp_path / "out"
    simulate(from_dict(driven()), out_dir=str(out))  # two bodies, a driver
    simulate(from_dict(pendulum(name="other", body="weight")), out_dir=str(out), overwrite=True)
    summary = assert_one_run(out)
    assert summary["model"] == "other" and summary["bodies"] == ["weight"] and summary["drivers"] == []
    assert csv_rows(out / fmt.DRIVERS)[0] == fmt.TIME  # no column of the old run's driver
    assert no_leftovers(tmp_path) == []


class FullDisk:
    """``open`` for results_files whose files raise ENOSPC once ``budget`` bytes are written."""

    def __init__(self, budget):
        self.budget = budget

    def __call__(self, path, mode="r", *args, **kwargs):
        f = open(path, mode, *args, **kwargs)
        if "w" not in mode:
            return f
        disk, write = self, f.write

        def limited(data):
            if len(data) > disk.budget:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
            disk.budget -= len(data)
            return write(data)

        f.write = limited
        return f


def test_disk_full_keeps_the_old_folder_and_says_so(tmp_path, monkeypatch):
    out = tmp_path / "out"
    simulate(from_dict(pendulum()), out_dir=str(out))
    before = snapshot(out)
    monkeypatch.setattr(fmt, "CHUNK_VALUES", 200)
    monkeypatch.setattr(fmt, "open", FullDisk(20_000), raising=False)
    with pytest.raises(fmt.ResultsWriteError) as e:
        simulate(from_dict(driven(t_end=5.0)), out_dir=str(out), overwrite=True)
    assert str(e.value) == f"results could not be written to {out}: No space left on device"
    assert e.value.results is not None and 1 < len(e.value.results) < 501  # stopped when the disk filled
    assert snapshot(out) == before and no_leftovers(tmp_path) == []
    monkeypatch.undo()
    simulate(from_dict(pendulum()), out_dir=str(out), overwrite=True)  # the lock was released


def test_disk_full_on_a_real_small_file_system(tmp_path):
    small, large = model_file(tmp_path, pendulum()), model_file(tmp_path, driven(t_end=40.0), "large.json")
    got = in_mount_namespace(
        f"""
        import subprocess
        def run(*args):
            p = subprocess.run([sys.executable, "-m", "MBDWorkbench", "simulate", *args, "--quiet"],
                               capture_output=True, text=True)
            return dict(code=p.returncode, err=p.stderr)
        out = os.path.join(FS, "out")
        first = run({small!r}, "--out", out)
        before = {{n: open(os.path.join(out, n)).read() for n in os.listdir(out)}}
        second = run({large!r}, "--out", out, "--overwrite")
        after = {{n: open(os.path.join(out, n)).read() for n in os.listdir(out)}}
        print(json.dumps(dict(first=first, second=second, same=before == after, left=sorted(os.listdir(FS)))))
        """,
        tmp_path,
    )
    assert got["first"]["code"] == 0, got["first"]["err"]
    assert got["second"]["code"] not in (0, 2) and "Traceback" not in got["second"]["err"]
    assert "results could not be written to" in got["second"]["err"]
    assert "No space left on device" in got["second"]["err"]
    assert got["same"] and got["left"] == ["out"]


# ----------------------------------------------------------------------------- one writer at a time
def test_a_second_writer_into_the_same_folder_is_refused(tmp_path, capsys):
    out = tmp_path / "out"
    first = fmt.ResultsWriter(out)
    with pytest.raises(OutputTargetError, match=rf"another run \(process {os.getpid()}\) is writing"):
        fmt.ResultsWriter(out)
    assert main(["simulate", model_file(tmp_path, pendulum()), "--out", str(out), "--quiet"]) == 2
    assert "another run" in capsys.readouterr().err
    first.abort()
    fmt.ResultsWriter(out).abort()  # free again
    assert not out.exists() and no_leftovers(tmp_path) == []


def test_two_cli_runs_into_one_folder_at_once_never_mix(tmp_path):
    out = tmp_path / "out"
    models = [
        model_file(tmp_path, pendulum(name=n, body=b, t_end=8.0), f"{n}.json") for n, b in (("a", "p"), ("b", "q"))
    ]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "MBDWorkbench", "simulate", m, "--out", str(out), "--overwrite", "--quiet"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for m in models
    ]
    done = [(p.wait(timeout=600), p.communicate()[1]) for p in procs]
    assert any(code == 0 for code, _ in done)
    for code, err in done:
        assert code == 0 or (code == 2 and "another run" in err), err
    summary = assert_one_run(out)
    assert summary["status"] == "completed" and summary["samples"] == 801
    assert no_leftovers(tmp_path) == []


# ----------------------------------------------------------------------------- cancelled and failed runs
def wait_for_progress(proc, timeout=600):
    """Read the child's stderr until the progress bar shows (the run is in its loop)."""
    seen, end = b"", time.monotonic() + timeout
    while b"%" not in seen:
        assert time.monotonic() < end and proc.poll() is None, seen.decode(errors="replace")
        ready, _, _ = select.select([proc.stderr], [], [], 1.0)
        if ready:
            seen += os.read(proc.stderr.fileno(), 4096)
    return seen


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_sigint_and_sigterm_cancel_and_keep_the_samples(tmp_path, signum):
    out = tmp_path / "out"
    simulate(from_dict(pendulum()), out_dir=str(out))  # an earlier, completed run
    model = model_file(tmp_path, pendulum(t_end=1e5))  # hours to the end
    proc = subprocess.Popen(
        [sys.executable, "-m", "MBDWorkbench", "simulate", model, "--out", str(out), "--overwrite", "--no-limits"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    seen = wait_for_progress(proc)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    err = (seen + err).decode(errors="replace")
    assert proc.returncode > 0 and proc.returncode not in (130, 143), err  # exited, not killed
    assert "Traceback" not in err and "cancelled at t = " in err
    summary = assert_one_run(out)
    assert summary["status"] == "cancelled" and summary["message"].startswith("cancelled at t = ")
    assert summary["model"] == "pendulum" and summary["settings"]["t_end"] == 1e5 and summary["t_end"] < 1e5
    assert no_leftovers(tmp_path) == []


def reference_swing(t):
    """Angle below the horizontal [rad] and its rate of the released pendulum, integrated in
    its one coordinate: (M L^2 + I) phi'' = M g L cos(phi)."""
    J = M * L**2 + I_BOB
    sol = solve_ivp(
        lambda _, y: [y[1], M * G * L * math.cos(y[0]) / J], (0, t[-1]), [0.0, 0.0], t_eval=t, rtol=1e-12, atol=1e-12
    )
    return sol.y


def test_cancel_is_honoured_within_a_long_output_interval(tmp_path):
    """One output interval of 20 s (20,000 steps) is split into sub-intervals: cancel() is
    asked before each, not only at output times; without cancel the split run follows the
    pendulum's own equation."""
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) >= 3

    out = tmp_path / "out"
    with pytest.raises(Cancelled) as e:
        simulate(from_dict(pendulum(t_end=20.0, output_step=20.0)), cancel=cancel, out_dir=str(out))
    assert len(calls) == 3 and len(e.value.results) == 1  # only the initial sample: no output time reached
    assert e.value.results.steps < 20_000
    assert json.load(open(out / fmt.SUMMARY))["status"] == "cancelled"
    res = simulate(from_dict(pendulum(t_end=3.0, output_step=3.0)))
    x, z = res.position("bob")[-1][[0, 2]]
    phi, _ = reference_swing(np.array([0.0, 3.0]))
    assert math.atan2(-z, x) == pytest.approx(phi[-1], abs=1e-8)


def test_an_internal_error_leaves_a_failed_folder(tmp_path, monkeypatch):
    advance, calls = RK4Stepper.advance, []

    def broken(self, *args):
        calls.append(1)
        if len(calls) > 20:
            raise RuntimeError("a bug")
        return advance(self, *args)

    monkeypatch.setattr(RK4Stepper, "advance", broken)
    out = tmp_path / "out"
    with pytest.raises(RuntimeError, match="a bug"):
        simulate(from_dict(pendulum()), out_dir=str(out))
    summary = assert_one_run(out)
    assert summary["status"] == "failed" and "RuntimeError: a bug" in summary["message"]
    assert summary["samples"] == 21


# ----------------------------------------------------------------------------- streamed files vs closed forms
def test_samples_stream_into_the_folder_while_the_run_goes(tmp_path, monkeypatch):
    monkeypatch.setattr(fmt, "CHUNK_VALUES", 100)
    out, rows = tmp_path / "out", []

    def progress(t, t_end):
        partial = [n for n in os.listdir(tmp_path) if n.startswith(".out.partial-")]
        assert not out.exists() and len(partial) == 1
        rows.append(len(csv_rows(tmp_path / partial[0] / fmt.BODIES)) - 1)

    simulate(from_dict(pendulum()), progress=progress, out_dir=str(out))
    assert rows[-1] >= 45 and rows == sorted(rows)  # written as the run went, a few samples behind at most
    assert_one_run(out)


def test_streamed_reactions_match_the_pendulum_closed_form(tmp_path, monkeypatch):
    """Reaction of the pivot on the bob from the CSV = M (a_cog - g), with the CoG acceleration
    from the energy integral: (M L^2 + I) w^2 = 2 M g L sin(phi), (M L^2 + I) alpha = M g L cos(phi)."""
    monkeypatch.setattr(fmt, "CHUNK_VALUES", 150)  # a few samples per chunk
    out = tmp_path / "out"
    simulate(from_dict(pendulum(t_end=1.0)), out_dir=str(out))
    bodies, joints = fmt.read_csv(str(out / fmt.BODIES)), fmt.read_csv(str(out / fmt.JOINTS))
    phi = np.arctan2(-bodies["bob.z [m]"], bodies["bob.x [m]"])
    J = M * L**2 + I_BOB
    w2, alpha = 2 * M * G * L * np.sin(phi) / J, M * G * L * np.cos(phi) / J
    e_r = np.stack([np.cos(phi), 0 * phi, -np.sin(phi)], axis=1)
    e_t = np.stack([-np.sin(phi), 0 * phi, -np.cos(phi)], axis=1)
    F = M * (L * alpha[:, None] * e_t - L * w2[:, None] * e_r) + M * np.array([0, 0, G])
    got = np.stack([joints[f"pivot.F{a}_global [N]"] for a in "xyz"], axis=1)
    np.testing.assert_allclose(got, F, rtol=0, atol=1e-7 * M * G)
    np.testing.assert_allclose(joints["pivot.F_magnitude [N]"], np.linalg.norm(F, axis=1), rtol=0, atol=1e-7 * M * G)
    phi_ref, rate_ref = reference_swing(bodies[fmt.TIME])
    np.testing.assert_allclose(phi, phi_ref, atol=1e-8)
    np.testing.assert_allclose(joints["pivot.angle_rate [rad/s]"], rate_ref, atol=1e-7)


def test_angles_and_energy_balance_run_on_across_chunks(tmp_path, monkeypatch):
    """A joint driven at 2 rad/s for 10 s (more than three turns) in chunks of a few samples:
    its angle is 2 t [rad] throughout, the energy balance stays zero (measured from the run's
    first sample in every chunk), and the streamed files equal those written at once."""
    monkeypatch.setattr(fmt, "CHUNK_VALUES", 500)
    out = tmp_path / "out"
    res = simulate(from_dict(driven(t_end=10.0)), out_dir=str(out))
    assert fmt.chunk_samples(res) < 10
    joints, energy = fmt.read_csv(str(out / fmt.JOINTS)), fmt.read_csv(str(out / fmt.ENERGY))
    t = joints[fmt.TIME]
    np.testing.assert_allclose(joints["pivot.angle [rad]"], 2.0 * t, atol=1e-7)
    scale = np.abs(energy["work_drivers [J]"]).max()
    assert scale > 1.0 and np.abs(energy["balance [J]"]).max() < 1e-6 * scale
    monkeypatch.undo()
    again = tmp_path / "again"
    res.write(str(again))
    streamed, whole = snapshot(out), snapshot(again)
    assert {n: streamed[n] for n in fmt.FILES} == {n: whole[n] for n in fmt.FILES}


# ----------------------------------------------------------------------------- memory
def traced_peak(fn):
    """Peak memory [bytes] numpy and Python allocate while ``fn`` runs (and what it keeps)."""
    tracemalloc.start()
    try:
        kept = fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del kept
    return peak


def test_reactions_are_views_not_stacks():
    res = simulate(from_dict(chain(20, t_end=0.5)))
    K, nj = len(res), len(res.joint_names)
    one_stack = K * nj * 12 * 8  # what each call built before: a (K, nj, 12) array
    peak = traced_peak(lambda: [res.reaction(j, f) for j in res.joint_names for f in ("joint", "global")])
    assert peak < one_stack / 4
    F, T = res.reaction("R3", "global")
    np.testing.assert_array_equal(F, np.stack([res._rows[k]["wrench"][3, 0:3] for k in range(K)]))
    assert not F.flags.writeable


def test_writing_memory_does_not_grow_with_the_samples(tmp_path, monkeypatch):
    short = simulate(from_dict(chain(10, t_end=0.6)))
    long = simulate(from_dict(chain(10, t_end=6.0)))
    monkeypatch.setattr(fmt, "CHUNK_VALUES", 50 * 300)  # about 50 samples per chunk
    peaks = [traced_peak(lambda r=r, k=k: r.write(str(tmp_path / f"w{k}"))) for k, r in enumerate((short, long))]
    assert len(long) == 10 * (len(short) - 1) + 1
    print("write peaks [bytes]", peaks)
    assert peaks[1] < 1.5 * peaks[0]
    progress = []
    long.write(str(tmp_path / "w1"), progress=lambda done, total: progress.append((done, total)))
    assert progress[-1] == (len(long), len(long)) and len(progress) > 2


# ----------------------------------------------------------------------------- the GUI report's frames
def test_make_report_keeps_existing_frames_without_overwrite(tmp_path):
    from MBDWorkbench.commands import report_command

    res = simulate(from_dict(pendulum()))
    archive = fmt.write_zip(res, str(tmp_path / "results.zip"), {"placements.json": json.dumps({"bodies": {}})})
    sim = type("Simulation", (), {"ResultsArchive": archive, "Name": "Simulation"})()
    out = tmp_path / "report"
    frames = out / report_command.FRAMES_DIR
    frames.mkdir(parents=True)
    (frames / "frame_000.png").write_bytes(b"an earlier frame")
    with pytest.raises(ValueError, match="motion_3d_frames already exists; not overwritten"):
        report_command.make_report(None, sim, out, keep_frames=True)
    assert (frames / "frame_000.png").read_bytes() == b"an earlier frame"
    assert sorted(os.listdir(out)) == [report_command.FRAMES_DIR]  # nothing written before the refusal
