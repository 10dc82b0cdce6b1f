"""Reliability fuzz of every subcommand and option (issue 36): each case is a valid, quick
invocation of one subcommand with ONE thing made bad -- an option's value (0, -1, NaN, inf,
1e308, huge counts, garbage text), the input file (missing, a folder, empty, garbage bytes,
a damaged document) or the output (onto an existing file, into a file's "folder") -- or one flag
switched on. Every case must end with an exit code of 0-4 (never 70, an internal error), never
print a traceback, and end within CASE_TIMEOUT (a hang fails the test). The cases are built from
the argparse parser itself (:func:`MBDWorkbench.cli.build_parser`), so a new subcommand or option
is fuzzed without touching this file; a subcommand without a base invocation in BASES fails.

The cases run in this process through ``cli.main``. CI runs a seeded sample of MBD_FUZZ_CLI_N
cases (default 40, under a minute); MBD_FUZZ_CLI=all runs every case (about 520, about 8 min):
tests/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
from contextlib import contextmanager

import pytest

from MBDWorkbench.cli import build_parser, main
from MBDWorkbench.solver.results.status import EXIT_INTERNAL

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
SAMPLE = int(os.environ.get("MBD_FUZZ_CLI_N", "40"))
ALL = os.environ.get("MBD_FUZZ_CLI") == "all"
SEED = int(os.environ.get("MBD_FUZZ_SEED", "11"))
CASE_TIMEOUT = 120  # s per case

BAD_NUMBERS = ["0", "-1", "-0.5", "nan", "inf", "-inf", "1e308", "-1e308", "1e-308", "100000000000", "1e400", "abc", ""]
BAD_TEXT = ["", "nope", "x" * 5000, "../..", "\u00e9\x01"]
BAD_FILES = ["missing", "folder", "empty", "garbage", "truncated"]
BAD_OUTPUTS = ["existing file", "inside a file", "existing folder"]
SPAWNING = ("fem-loads", "study")  # subcommands that start processes (run_in_group)


def write_study(folder: str) -> str:
    """A two-variant study of the slider-crank, short runs."""
    path = os.path.join(folder, "tiny_study.json")
    study = {
        "name": "tiny",
        "model": os.path.join(EXAMPLES, "slider_crank.json"),
        "fixed": {"settings.t_end": 0.02},
        "parameters": [{"path": "drivers[motor].profile.speed", "min": 1.0, "max": 2.0, "count": 2}],
        "design": {"type": "grid"},
        "outputs": [{"kpi": "peak_effort", "driver": "motor"}],
    }
    with open(path, "w") as f:
        json.dump(study, f)
    return path


def bases(tmp: str) -> dict[str, tuple[str, list[str]]]:
    """{subcommand: (its input file, the other arguments of a valid quick run)}; "{out}" is the output."""
    pendulum, crank = os.path.join(EXAMPLES, "pendulum.json"), os.path.join(EXAMPLES, "slider_crank.json")
    return {
        "simulate": (pendulum, ["--t-end", "0.02", "--quiet", "--out", "{out}"]),
        "analyze": (pendulum, []),
        "kinematics": (crank, ["--t-end", "0.02", "--quiet", "--out", "{out}"]),
        "inverse-dynamics": (crank, ["--t-end", "0.02", "--quiet", "--out", "{out}"]),
        "statics": (crank, ["--out", "{out}"]),
        "ankle-export": (os.path.join(EXAMPLES, "ankle.json"), ["--n", "5", "--degree", "2", "--out", "{out}"]),
        "study": (write_study(tmp), ["--serial", "--no-plots", "--quiet", "--out", "{out}"]),
        "fem-loads": (os.path.join(EXAMPLES, "pendulum.FCStd"), ["--body", "Bar", "--out", "{out}.FCStd"]),
    }


def subcommands() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]


def cases(tmp: str) -> list[tuple[str, str, str]]:
    """(subcommand, what is bad, its value) of every case."""
    out = []
    for name, parser in subcommands().items():
        out += [(name, "input", bad) for bad in BAD_FILES]
        for action in options(parser):
            flag = action.option_strings[-1]
            if action.nargs == 0:
                out.append((name, flag, None))
            elif flag in ("--out", "--report"):
                out += [(name, flag, bad) for bad in BAD_OUTPUTS]
            elif action.type is None:
                out += [(name, flag, bad) for bad in BAD_TEXT]
            else:
                out += [(name, flag, bad) for bad in BAD_NUMBERS]
    return out


def bad_input(kind: str, model: str, tmp: str) -> str:
    """A path to an input file that is ``kind`` (BAD_FILES), with the model's extension."""
    path = os.path.join(tmp, "input_" + kind.replace(" ", "_") + os.path.splitext(model)[1])
    raw = open(model, "rb").read()
    content = {"empty": b"", "garbage": bytes(range(256)) * 16, "truncated": raw[: len(raw) // 2]}
    if kind == "folder":
        os.makedirs(path, exist_ok=True)
    elif kind in content:
        with open(path, "wb") as f:
            f.write(content[kind])
    return path


def bad_output(kind: str, tmp: str) -> str:
    """An output path that is ``kind`` (BAD_OUTPUTS)."""
    path = os.path.join(tmp, "existing")
    with open(path, "w") as f:
        f.write("keep me")
    if kind == "existing file":
        return path
    if kind == "inside a file":
        return os.path.join(path, "out")
    folder = os.path.join(tmp, "existing_folder")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "keep.txt"), "w") as f:
        f.write("keep me")
    return folder


def argv_of(case: tuple[str, str, str], tmp: str) -> list[str]:
    """The command line of a case (what "nothing": the valid base run), made in the empty folder ``tmp``."""
    name, what, bad = case
    model, rest = bases(tmp)[name]
    args = [a.replace("{out}", os.path.join(tmp, "out")) for a in rest]
    if what == "nothing":
        pass
    elif what == "input":
        model = bad_input(bad, model, tmp)
    elif bad is None:
        args.append(what)
    else:
        value = bad_output(bad, tmp) if what in ("--out", "--report") else bad
        if what in args:
            args[args.index(what) + 1] = value
        else:
            args += [what, value]
    return [name, model, *args]


class Hang(BaseException):  # not an Exception: cli.main must not catch it as an internal error
    """A case ran longer than CASE_TIMEOUT."""


@contextmanager
def time_limit(seconds: float):
    def fire(signum, frame):
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_case(argv: list[str]) -> tuple[int, str]:
    """(exit code, stdout + stderr) of ``python3 -m MBDWorkbench argv``: in this process, except
    the subcommands that start processes of their own (SPAWNING), run in a process group that a
    hang kills whole (Gmsh, CalculiX, Dask workers)."""
    if argv[0] in SPAWNING:
        return run_in_group(argv)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit(CASE_TIMEOUT):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse
            code = e.code if isinstance(e.code, int) else 2
    return code, out.getvalue() + err.getvalue()


def run_in_group(argv: list[str]) -> tuple[int, str]:
    """run_case in a new process group (killed whole after CASE_TIMEOUT: Hang)."""
    command = [sys.executable, "-m", "MBDWorkbench", *argv]
    with subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    ) as p:
        try:
            text, _ = p.communicate(timeout=CASE_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            raise Hang(f"still running after {CASE_TIMEOUT} s") from None
    return p.returncode, text


def chosen_cases(tmp: str) -> list[tuple[str, str, str]]:
    every = cases(tmp)
    return every if ALL else random.Random(SEED).sample(every, min(SAMPLE, len(every)))


def test_every_subcommand_has_a_base_invocation(tmp_path):
    assert set(subcommands()) == set(bases(str(tmp_path)))


def test_the_base_invocations_run(tmp_path):
    """The starting points are valid: each case then tests only its one bad thing."""
    for name in ("simulate", "analyze", "ankle-export"):
        tmp = tmp_path / name
        tmp.mkdir()
        code, text = run_case(argv_of((name, "nothing", None), str(tmp)))
        assert code == 0, (name, text[-2000:])


def test_subcommand_cases_end_cleanly(tmp_path):
    failures = []
    for k, case in enumerate(chosen_cases(str(tmp_path))):
        tmp = tmp_path / f"case{k}"
        tmp.mkdir()
        argv = argv_of(case, str(tmp))
        try:
            code, text = run_case(argv)
        except Hang as e:
            failures.append((case, f"hang: {e}"))
            continue
        if code == EXIT_INTERNAL or code not in (0, 1, 2, 3, 4) or "Traceback" in text:
            failures.append((case, f"exit {code}: {text[-1500:]}"))
        if case[2] in BAD_OUTPUTS[::2]:  # an existing file or folder is never clobbered without --overwrite
            kept = "existing" if case[2] == "existing file" else os.path.join("existing_folder", "keep.txt")
            assert open(os.path.join(str(tmp), kept)).read() == "keep me", case
        shutil.rmtree(tmp, ignore_errors=True)
    assert not failures, "\n\n".join(f"{c} (seed {SEED}):\n{why}" for c, why in failures)


@pytest.mark.parametrize("name", ["ankle-export", "statics", "kinematics", "study", "fem-loads"])
def test_output_onto_an_existing_file_is_bad_input(tmp_path, name):
    code, text = run_case(argv_of((name, "--out", "existing file"), str(tmp_path)))
    assert code == 2 and "Traceback" not in text, text[-2000:]
    assert open(tmp_path / "existing").read() == "keep me"
