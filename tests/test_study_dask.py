"""The Dask engine of design studies on real clusters: a LocalCluster of 2 worker processes, a
worker killed mid-study, and a `dask scheduler` with two `dask worker` processes started here
on 127.0.0.1 (the --scheduler path). Results are checked against the slider-crank oracle and
against the serial reference path."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from test_study import EXAMPLES, ROOT, SPEEDS, _mc_study, check_sweep_against_oracle, sweep_study

from MBDWorkbench.cli import main
from MBDWorkbench.study.engine import run_study
from MBDWorkbench.study.spec import parse_study
from MBDWorkbench.study.table import read_csv

distributed = pytest.importorskip("distributed")


def test_local_cluster_of_two_workers_matches_the_oracle_and_the_serial_path():
    data = sweep_study()
    data["parameters"].append({"path": "bodies[rod].mass", "values": [1.0, -1.0]})
    study = parse_study(data, EXAMPLES)
    run = run_study(study, workers=2)
    assert run.workers == 2 and not run.cancelled
    good = [r for r in run.rows if r.values["bodies[rod].mass"] == 1.0]
    bad = [r for r in run.rows if r.values["bodies[rod].mass"] == -1.0]
    check_sweep_against_oracle(study, good)
    assert [r.status for r in bad] == ["failed"] * len(SPEEDS) and all("bodies[1].mass" in r.message for r in bad)
    assert all(r.worker.startswith("tcp://") for r in run.rows)
    mc = parse_study(_mc_study(), EXAMPLES)  # a seeded Monte Carlo: the same bits on the cluster and in process
    on_cluster, serial = run_study(mc, workers=2), run_study(mc, serial=True)
    assert [(r.values, r.kpis, r.status) for r in on_cluster.rows] == [
        (r.values, r.kpis, r.status) for r in serial.rows
    ]


def test_a_worker_killed_mid_study_does_not_stop_it():
    data = sweep_study(t_end=1.5)
    data["fixed"]["settings.step"] = 1e-4  # long enough variants that the kill lands while tasks run
    data["parameters"][0]["values"] = SPEEDS * 2
    study = parse_study(data, EXAMPLES)
    killed = []

    def kill_a_busy_worker(row):
        if killed:
            return
        client = distributed.get_client()
        busy = max(client.processing().items(), key=lambda item: len(item[1]))[0]
        pid = client.run(os.getpid, workers=[busy])[busy]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    run = run_study(study, workers=2, on_row=kill_a_busy_worker)
    assert killed and not run.cancelled
    assert [r.status for r in run.rows] == ["completed"] * 6
    check_sweep_against_oracle(study, run.rows[:3])
    check_sweep_against_oracle(study, run.rows[3:])


def _start(args: list[str], log) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)


def _dask_command() -> list[str]:
    """`dask` of Debian's python3-distributed, run by FreeCAD's Python."""
    return [sys.executable, "-m", "distributed.cli.dask_scheduler"], [
        sys.executable,
        "-m",
        "distributed.cli.dask_worker",
    ]


@pytest.fixture
def dask_cluster(tmp_path):
    """A `dask scheduler` and two `dask worker` processes on 127.0.0.1; yields (address, worker count)."""
    scheduler_cmd, worker_cmd = _dask_command()
    info = tmp_path / "scheduler.json"
    procs = []
    log = open(tmp_path / "dask.log", "w")
    try:
        procs.append(
            _start(
                [*scheduler_cmd, "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(info)],
                log,
            )
        )
        address = _wait_for_address(info)
        for _ in range(2):
            procs.append(
                _start(
                    [
                        *worker_cmd,
                        address,
                        "--host",
                        "127.0.0.1",
                        "--nthreads",
                        "1",
                        "--nworkers",
                        "1",
                        "--no-dashboard",
                    ],
                    log,
                )
            )
        with distributed.Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        log.close()


def _wait_for_address(info) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if info.exists():
            try:
                return json.loads(info.read_text())["address"]
            except (ValueError, KeyError):
                pass
        time.sleep(0.2)
    raise RuntimeError("the dask scheduler did not start")


def test_study_on_an_existing_scheduler_with_two_dask_workers(dask_cluster, tmp_path):
    address = dask_cluster
    with distributed.Client(address) as client:
        workers = set(client.scheduler_info()["workers"])
    study = parse_study(sweep_study(), EXAMPLES)
    run = run_study(study, scheduler=address)
    assert run.workers == 2 and {r.worker for r in run.rows} <= workers
    check_sweep_against_oracle(study, run.rows)
    data = sweep_study()
    data["model"] = os.path.join(EXAMPLES, "slider_crank.json")
    (tmp_path / "s.json").write_text(json.dumps(data))
    out = tmp_path / "out"
    assert main(["study", str(tmp_path / "s.json"), "--out", str(out), "--scheduler", address, "--quiet"]) == 0
    _, rows = read_csv(out / "study.csv")
    assert [(r["drivers[motor].profile.speed"], r["motor.peak_effort [N m]"]) for r in rows] == [
        (r.values["drivers[motor].profile.speed"], r.kpis[0]) for r in run.rows
    ]


def _read_until(stream, text: bytes, seconds: float) -> bytes:
    """Bytes of ``stream`` (a pipe) up to and including ``text``; raises after ``seconds``."""
    import selectors

    got, deadline = b"", time.monotonic() + seconds
    with selectors.DefaultSelector() as sel:
        sel.register(stream, selectors.EVENT_READ)
        while text not in got:
            if time.monotonic() > deadline or not sel.select(timeout=max(0.0, deadline - time.monotonic())):
                raise AssertionError(f"no {text!r} within {seconds} s: {got[-500:]!r}")
            chunk = os.read(stream.fileno(), 4096)
            if not chunk:
                raise AssertionError(f"the study ended before {text!r}: {got[-2000:]!r}")
            got += chunk
    return got


def _sigint_as_in_a_terminal():
    """SIGINT at its default in the study's process, as for a foreground command in a terminal: a
    test suite started as a background job of a non-interactive shell (e.g. `bash .ci/run &`)
    inherits SIGINT ignored, and Python then keeps ignoring it (no KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("engine", [["--workers", "2"], ["--serial"]])
def test_ctrl_c_keeps_the_finished_rows(tmp_path, engine):
    data = sweep_study(t_end=1.0)
    data["model"] = os.path.join(EXAMPLES, "slider_crank.json")
    data["fixed"]["settings.step"] = 1e-4
    data["parameters"][0]["values"] = [1.0 + 0.25 * k for k in range(40)]
    (tmp_path / "s.json").write_text(json.dumps(data))
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "MBDWorkbench", "study", str(tmp_path / "s.json"), "--out", str(out), *engine]
    p = subprocess.Popen(
        cmd,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_sigint_as_in_a_terminal,
    )
    try:
        _read_until(p.stderr, b"study: 2/40", 300)
        os.killpg(p.pid, signal.SIGINT)  # as Ctrl-C in a terminal: the whole process group
        p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 5
    _, rows = read_csv(out / "study.csv")
    statuses = [r["status"] for r in rows]
    assert len(rows) == 40 and statuses.count("completed") >= 2 and "cancelled" in statuses
    assert set(statuses) <= {"completed", "cancelled"}
    for r in rows:
        assert (r["motor.peak_effort [N m]"] is None) == (r["status"] == "cancelled")


def test_fcstd_base_model_is_converted_once_and_workers_never_import_freecad():
    from MBDWorkbench.cad.freecad_env import FreeCADNotFoundError, import_freecad

    try:
        import_freecad()
    except FreeCADNotFoundError as exc:
        pytest.skip(f"FreeCAD is not available: {exc}")
    import numpy as np

    from MBDWorkbench.cad.document_model import model_from_document_file
    from MBDWorkbench.solver.simulate import simulate

    data = {
        "model": "slider_crank.FCStd",
        "fixed": {"settings.t_end": 0.3},
        "parameters": [{"path": "drivers[Motor].profile.speed", "values": [2.0, 5.0]}],
        "outputs": [{"kpi": "peak_effort", "driver": "Motor"}],
    }
    study = parse_study(data, EXAMPLES)
    in_workers = []

    def freecad_in_workers(row):
        in_workers.extend(distributed.get_client().run(lambda: "FreeCAD" in sys.modules).values())

    run = run_study(study, workers=1, on_row=freecad_in_workers)
    assert in_workers and not any(in_workers)
    model = model_from_document_file(os.path.join(EXAMPLES, "slider_crank.FCStd"))
    for row in run.rows:
        model.drivers[0].profile["speed"] = row.values["drivers[Motor].profile.speed"]
        res = simulate(model, t_end=0.3)
        assert row.status == res.status  # the model dict round trip may change the last bits only:
        assert row.kpis[0] == pytest.approx(np.abs(res.driver_effort("Motor")).max(), rel=1e-12)


FREECAD_SCRIPT = """
import json, sys
for name in [m for m in sys.modules if m.split(".")[0] == "MBDWorkbench"]:  # the installed workbench
    del sys.modules[name]
sys.path[:0] = [{root!r}, {tests!r}]
from test_study import EXAMPLES, sweep_study
from MBDWorkbench.study.engine import run_study
from MBDWorkbench.study.spec import parse_study
run = run_study(parse_study(sweep_study(), EXAMPLES), workers=1)
print("ROWS=" + json.dumps([[r.status, r.worker, r.kpis] for r in run.rows]))
"""


def test_local_cluster_from_freecads_own_interpreter(tmp_path):
    """Inside FreeCAD sys.executable is FreeCAD (here freecadcmd): the workers must still start
    with a Python interpreter and import this checkout."""
    import shutil

    freecadcmd = shutil.which("freecadcmd")
    if freecadcmd is None:
        pytest.skip("freecadcmd is not installed")
    script = tmp_path / "study_in_freecad.py"
    script.write_text(FREECAD_SCRIPT.format(root=ROOT, tests=os.path.join(ROOT, "tests")))
    done = subprocess.run([freecadcmd, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    lines = [line for line in done.stdout.splitlines() if line.startswith("ROWS=")]
    assert lines, done.stdout[-3000:] + done.stderr[-3000:]
    rows = json.loads(lines[0][5:])
    serial = run_study(parse_study(sweep_study(), EXAMPLES), serial=True)
    assert [r[0] for r in rows] == ["completed"] * len(SPEEDS) and all(r[1].startswith("tcp://") for r in rows)
    assert [r[2] for r in rows] == [r.kpis for r in serial.rows]


def _closed_loopback_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on (bound, then released)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_is_a_clear_error_with_exit_2_after_the_timeout(tmp_path, capsys):
    data = sweep_study(speeds=[2.0], t_end=0.3)
    data["model"] = os.path.join(EXAMPLES, "slider_crank.json")
    (tmp_path / "s.json").write_text(json.dumps(data))
    address = f"tcp://127.0.0.1:{_closed_loopback_port()}"
    out = tmp_path / "out"
    clock = time.monotonic()
    args = ["study", str(tmp_path / "s.json"), "--out", str(out), "--scheduler", address, "--scheduler-timeout", "2"]
    assert main([*args, "--quiet"]) == 2
    waited = time.monotonic() - clock
    err = capsys.readouterr().err
    assert f"--scheduler: no Dask scheduler answered at {address} within 2 s" in err
    assert "dask scheduler" in err and "leave --scheduler out" in err and "internal error" not in err
    assert 2.0 <= waited < 30.0 and not out.exists()


def test_a_worker_that_joins_late_is_warmed_and_checked_like_the_first():
    from MBDWorkbench.study.variant import code_digest
    from MBDWorkbench.study.warm import RECORD

    data = sweep_study(t_end=0.3)
    data["parameters"][0]["values"] = [1.0 + 0.5 * k for k in range(8)]
    study = parse_study(data, EXAMPLES)
    seen = {}

    def add_a_worker(row):
        if seen:
            return
        client = distributed.get_client()
        first = set(client.scheduler_info()["workers"])
        client.cluster.scale(2)
        client.wait_for_workers(2, timeout=120)
        late = set(client.scheduler_info()["workers"]) - first
        seen.update(client.run(lambda dask_worker: getattr(dask_worker, RECORD, None), workers=list(late)))

    run = run_study(study, workers=1, on_row=add_a_worker)
    assert len(seen) == 1 and not run.cancelled and run.workers == 2
    ((seconds, digest),) = next(iter(seen.values())).values()  # warmed once, on arrival, with this code
    assert seconds > 0 and digest == code_digest()
    assert run.notes[-1].startswith("worker warm-up [s]: ") and len(run.notes[-1].split(",")) == 2
    assert [r.status for r in run.rows] == ["completed"] * 8


def test_a_late_worker_with_other_sources_is_refused_like_the_first():
    from MBDWorkbench.solver.errors import ModelError
    from MBDWorkbench.study.warm import RECORD

    data = sweep_study(t_end=0.3)
    data["parameters"][0]["values"] = [1.0 + 0.5 * k for k in range(4)]
    late = []

    def other_sources(dask_worker):  # as if this worker imported another MBDWorkbench
        records = getattr(dask_worker, RECORD)
        for name, (seconds, _) in records.items():
            records[name] = (seconds, "another digest")

    def add_a_worker(row):
        if late:
            return
        client = distributed.get_client()
        first = set(client.scheduler_info()["workers"])
        client.cluster.scale(2)
        client.wait_for_workers(2, timeout=120)
        late.extend(set(client.scheduler_info()["workers"]) - first)
        client.run(other_sources, workers=late)

    with pytest.raises(ModelError, match="another version of MBDWorkbench") as e:
        run_study(parse_study(data, EXAMPLES), workers=1, on_row=add_a_worker)
    assert e.value.path == "workers" and late and late[0] in str(e.value)


def test_local_cluster_prints_its_dashboard_link_or_why_not():
    import importlib.util
    import urllib.request

    lines, pages = [], []

    def open_the_dashboard(row):  # while the cluster runs
        if lines[0].startswith("Dask dashboard: http://127.0.0.1:") and not pages:
            with urllib.request.urlopen(lines[0].split(": ", 1)[1], timeout=30) as page:
                pages.append(page.status)

    study = parse_study(sweep_study(speeds=[2.0], t_end=0.3), EXAMPLES)
    run_study(study, workers=1, inform=lines.append, on_row=open_the_dashboard)
    if importlib.util.find_spec("bokeh") is None:
        assert lines == ["Dask dashboard: not available: bokeh is not installed " + BOKEH_HINT] and not pages
    else:
        assert len(lines) == 1 and pages == [200]


BOKEH_HINT = "(pip install bokeh, or apt install python3-bokeh)"
