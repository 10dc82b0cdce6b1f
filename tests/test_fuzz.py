"""Fuzz test (issue 11): seeded mutants of every example model -- the JSON models of
examples/*.json and the FreeCAD documents examples/*.FCStd -- must end in a clean error
(ModelError, AssemblyError, SimulationError; on the command line an exit code without a
traceback) or in a completed run, never in another exception or a hang.

Mutations: type swaps, huge, tiny and non-finite numbers, deleted keys, renamed references,
duplicated elements, deep nesting, long strings, nasty expressions and profile objects,
settings beyond the limits; for documents also truncated and damaged archives, property
values out of range, links to missing objects and deleted objects. Most mutants run in
this process (``from_dict`` + validation + the run-size check + a tiny run, analysis or
kinematic analysis); a handful go through the CLI in a subprocess.

CI runs MBD_FUZZ_N mutants (default 400; see tests/README.md for a nightly-size run), from
MBD_FUZZ_SEED. A failure prints the seed and index of the mutant and its mutations.
"""

from __future__ import annotations

import copy
import io
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import traceback
import zipfile
from contextlib import contextmanager

import pytest

from MBDWorkbench.solver import AssemblyError, ModelError, SimulationError, from_dict, simulate
from MBDWorkbench.solver.model import validate_run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
JSON_EXAMPLES = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".json"))
FCSTD_EXAMPLES = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".FCStd"))
N = int(os.environ.get("MBD_FUZZ_N", "400"))
SEED = int(os.environ.get("MBD_FUZZ_SEED", "11"))
RUN_TIMEOUT = 60  # s per in-process mutant (a hang fails the test instead of blocking CI)
ALLOWED = (ModelError, AssemblyError, SimulationError)

NUMBERS = [0, -0.0, -1, -1e-3, 1e-300, 5e-324, 1e-12, 1e12, 1e15, 1e308, -1e308, 10**20, 10**400]
NON_FINITE = [math.nan, math.inf, -math.inf]
VALUES = [None, True, False, "false", "true", "no", "", " ", "ground", "x", [], {}, [1], [[1, 2, 3]], {"a": 1}, 1, 0.5]
EXPRESSIONS = [
    "1/0",
    "0/0",
    "log(t)",
    "sqrt(t)",
    "t**t**t**t",
    "t)+(t",
    "1/(t-0.005)",
    "exp(exp(exp(t+3)))",
    "1e308*1e308",
    "1e308+1e308",
    "1e400",
    "tan(pi/2)",
    "asin(2)",
    "(-1)^0.5",
    "log(-1)",
    "atan2(0, 0)",
    "step(t, 1, 0, 1, 1)",
    "step(t, t, 0, t, 1)",
    "min(t)",
    "__import__('os')",
    "(" * 150 + "t" + ")" * 150,
    "sin(" * 40 + "t" + ")" * 40,
    "-" * 300 + "t",
    "t" + "+t" * 1200,
    "2^" * 60 + "t",
    "t^-2",
    "sin(2*pi*t)",
    "0.1*t",
]
PROFILES = [
    {"type": "polynomial", "coefficients": [0.0, 1.0] + [1e-9] * 100_000},
    {"type": "polynomial", "coefficients": [1e300, 1e300, 1e300]},
    {"type": "polynomial", "coefficients": []},
    {"type": "table", "t": [0, 0], "value": [1, 2]},
    {"type": "table", "t": [0, 1, 2], "value": [1, 2]},
    {"type": "table", "t": list(range(200_001)), "value": [0.0] * 200_001},
    {"type": "harmonic", "amplitude": 1, "omega": 1e15},
    {"type": "harmonic", "amplitude": 1, "omega": 1, "frequency": 1},
    {"type": "constant_speed", "speed": 1e15},
    {"type": "step", "t0": 1, "value0": 0, "t1": 1, "value1": 1},
    {"type": "expression", "expr": "t", "scale": 1e300},
    {"type": "expression", "expr": 5},
    {"type": "constant"},
    {"type": "nope"},
    {"type": ["constant"], "value": 1},
]


# ----------------------------------------------------------------------------- JSON mutants
def _slots(tree):
    """(container, key, path) of the values of a JSON tree, down to 12 levels and 100 items a list."""
    out, todo = [], [(tree, "$", 0)]
    while todo:
        node, path, depth = todo.pop()
        if depth >= 12:
            continue
        items = node.items() if isinstance(node, dict) else enumerate(node[:100]) if isinstance(node, list) else ()
        for key, value in items:
            where = f"{path}.{key}" if isinstance(node, dict) else f"{path}[{key}]"
            out.append((node, key, where))
            todo.append((value, where, depth + 1))
    return out


def _items(data, key):
    """The objects of the list ``data[key]`` (none when a mutation made it something else)."""
    value = data.get(key)
    return [e for e in value if isinstance(e, dict)] if isinstance(value, list) else []


def _names(data):
    """Names of the model's elements (for renamed references)."""
    return [e.get("name") for k in ("bodies", "joints", "forces", "drivers") for e in _items(data, k)]


def _nested(value, depth):
    for _ in range(depth):
        value = [value]
    return value


def _leaf_numbers(slots):
    return [
        slot for slot in slots if isinstance(slot[0][slot[1]], (int, float)) and not isinstance(slot[0][slot[1]], bool)
    ]


def _mutate_once(data, rng):
    """Apply one random mutation to ``data`` in place; returns its description."""
    slots = _slots(data)
    container, key, where = rng.choice(slots)
    op = rng.choices(range(12), weights=(20, 10, 8, 8, 8, 4, 4, 6, 15, 12, 5, 0))[0]
    if op == 0:
        numeric = _leaf_numbers(slots)
        if not numeric:
            return "no number"
        container, key, where = rng.choice(numeric)
        container[key] = container[key] * rng.choice((2, 0.5, -1, 10, 1e3, 1e-3, 0, 1e300, 1e-300, 10**300))
    elif op == 1:
        container[key] = copy.deepcopy(rng.choice(VALUES))
    elif op == 2:
        container[key] = rng.choice(NUMBERS + NON_FINITE)
    elif op == 3:
        del container[key]
    elif op == 4:
        strings = [slot for slot in slots if isinstance(slot[0][slot[1]], str)] or [(container, key, where)]
        container, key, where = rng.choice(strings)
        container[key] = rng.choice(_names(data) + ["ground", "missing_body", ""])
    elif op == 5:
        container[key] = _nested(container[key], rng.choice((40, 2000)))
    elif op == 6:
        container[key] = "x" * rng.choice((300, 200_000))
    elif op == 7:
        group = rng.choice([k for k in ("bodies", "joints", "drivers", "forces") if _items(data, k)] or ["bodies"])
        if _items(data, group):
            data[group].append(copy.copy(rng.choice(data[group])))  # shallow: it may hold deep nesting
        where = f"{group}[+duplicate]"
    elif op == 8:
        return _mutate_profile(data, rng)
    elif op == 9:
        return _mutate_setting(data, rng)
    else:
        return _mutate_body_number(data, rng)
    return f"op{op} at {where}"


def _mutate_profile(data, rng):
    """A driver profile or a load component replaced by a nasty expression or profile."""
    spec = rng.choice(EXPRESSIONS + PROFILES)
    drivers = _items(data, "drivers")
    if drivers and rng.random() < 0.7:
        rng.choice(drivers)["profile"] = copy.deepcopy(spec)
        return f"driver profile {str(spec)[:40]!r}"
    bodies = [b.get("name") for b in _items(data, "bodies")]
    force = {"name": "fuzz_load", "type": rng.choice(("point_force", "torque")), "body": rng.choice(bodies or ["b"])}
    force["force" if force["type"] == "point_force" else "torque"] = [0, copy.deepcopy(spec), 0]
    if isinstance(data.setdefault("forces", []), list):
        data["forces"].append(force)
    return f"load profile {str(spec)[:40]!r}"


def _mutate_setting(data, rng):
    settings = data.setdefault("settings", {})
    if not isinstance(settings, dict):
        return "settings not an object"
    key = rng.choice(
        ["t_end", "step", "output_step", "rtol", "atol", "baumgarte_alpha", "tikhonov_eps", "rho_inf"]
        + ["integrator", "assemble", "projection", "check_limits", "unknown_setting"]
    )
    value = rng.choice(
        NUMBERS
        + NON_FINITE
        + VALUES
        + [1e-9, 1e-6, 1e-4, 0.02, 1e6, 1e9, "galpha", "cros", "bdf", "radau", "lsoda"]
        + ["euler", "symplectic_euler", "leapfrog", False, True, 1e-5, 0.3]
    )
    settings[key] = value
    return f"settings.{key} = {str(value)[:30]}"


def _mutate_body_number(data, rng):
    bodies = _items(data, "bodies")
    if not bodies:
        return "no body"
    body = rng.choice(bodies)
    key = rng.choice(["mass", "inertia", "position", "velocity", "angular_velocity", "orientation", "grounded"])
    value = rng.choice(NUMBERS + NON_FINITE)
    if key in ("inertia", "position", "velocity", "angular_velocity"):
        body[key] = [value, 1.0, 1.0]
    elif key == "orientation":
        body[key] = [value, 0, 0, 0]
    else:
        body[key] = rng.choice([value, "false", 1, 0])
    return f"body {body.get('name')!r}.{key}"


def json_mutant(name: str, rng: random.Random) -> tuple[dict, list[str]]:
    """A mutant of examples/<name> with 1 to 3 mutations, and their descriptions."""
    with open(os.path.join(EXAMPLES, name)) as f:
        data = json.load(f)
    done = [_mutate_once(data, rng) for _ in range(rng.choices((1, 2, 3), weights=(6, 3, 1))[0])]
    return data, done


# ----------------------------------------------------------------------------- in-process runs
class Hang(Exception):
    """A mutant ran longer than RUN_TIMEOUT."""


@contextmanager
def time_limit(seconds):
    """Raise Hang in this (main) thread after ``seconds``."""

    def fire(signum, frame):
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def tiny_overrides(model) -> dict:
    """Settings for a run of a few hundred steps at most (the mutant's own ones were checked)."""
    s = model.settings.resolved()  # step None: the integrator's own
    return {"t_end": max(1e-9, min(s.t_end, 0.01, 200 * s.step, 20 * s.output_step))}


def exercise(model, what: str) -> None:
    """The run-size check of the mutant's own settings, then a tiny run of ``what``."""
    validate_run(model)
    if what == "simulate":
        simulate(model, **tiny_overrides(model))
    elif what == "analyze":
        from MBDWorkbench.solver.analyses.mobility import mobility

        mobility(model).text()
    else:
        from MBDWorkbench.solver.analyses.kinematics import kinematic_analysis

        s = model.settings
        kinematic_analysis(model, t_end=tiny_overrides(model)["t_end"], output_step=min(s.output_step, 0.005))


def check_model(build, what: str) -> str:
    """'' when building the model (``build()``) and exercising it ends cleanly, else the
    traceback of the unexpected exception (or the hang)."""
    try:
        with time_limit(RUN_TIMEOUT):
            model = build()
            exercise(model, what)
    except ALLOWED:
        return ""
    except BaseException as exc:  # noqa: BLE001 - the test reports anything else
        if isinstance(exc, KeyboardInterrupt):
            raise
        return traceback.format_exc()
    return ""


def _report(failures):
    lines = [f"{len(failures)} mutant(s) ended in a traceback or a hang (MBD_FUZZ_SEED={SEED}):"]
    for label, trace in failures[:5]:
        lines += [f"--- {label}", trace[-2500:]]
    return "\n".join(lines)


WHAT = ("simulate", "simulate", "analyze", "kinematics")


@pytest.fixture(scope="module")
def compiled():
    """Compile every integrator's kernels before the timed mutants (a cold Numba cache takes minutes)."""
    from MBDWorkbench.solver.model.catalog import INTEGRATOR_TYPES

    model = from_dict(json.load(open(os.path.join(EXAMPLES, "slider_crank.json"))))
    tree = from_dict(json.load(open(os.path.join(EXAMPLES, "two_link.json"))))  # rk4_tree: open trees only
    for name in INTEGRATOR_TYPES:
        simulate(
            tree if name == "rk4_tree" else model,
            integrator=name, t_end=2e-3, step=1e-3, output_step=1e-3, projection=name == "rk4",
        )  # fmt: skip


def test_json_mutants_end_cleanly(compiled):
    """N seeded mutants of the JSON examples through from_dict, validation and a tiny run."""
    rng = random.Random(SEED)
    failures = []
    for k in range(N):
        name = JSON_EXAMPLES[k % len(JSON_EXAMPLES)]
        data, done = json_mutant(name, rng)
        what = rng.choice(WHAT)
        trace = check_model(lambda data=data: from_dict(data), what)
        if trace:
            failures.append((f"#{k} {name} {what}: {done}", trace))
    assert not failures, _report(failures)


# ----------------------------------------------------------------------------- document mutants
XML = "Document.xml"


def _xml_mutation(xml: str, rng: random.Random) -> tuple[str, str]:
    """One random edit of a document's Document.xml; returns (new xml, description)."""
    op = rng.randrange(7)
    if op == 0:
        sites = list(re.finditer(r'<Float value="[^"]*"', xml))
        value = rng.choice(["nan", "inf", "-inf", "1e308", "-1", "0", "1e-300", "1e400", "abc"])
        what = f"Float = {value}"
        new = f'<Float value="{value}"'
    elif op == 1:
        sites = list(re.finditer(r'<Integer value="[^"]*"', xml))
        value = rng.choice(["12", "-3", "8", "999999999999"])
        what = f"Integer = {value}"
        new = f'<Integer value="{value}"'
    elif op == 2:
        sites = list(re.finditer(r'<Link value="[^"]*"', xml))
        value = rng.choice(["Missing007", "", "Simulation", "Joint"])
        what = f"Link = {value!r}"
        new = f'<Link value="{value}"'
    elif op == 3:
        sites = list(re.finditer(r'<String value="[^"]*"', xml))
        value = rng.choice([e.replace('"', "&quot;").replace("<", "&lt;") for e in EXPRESSIONS[:20]])
        what = f"String = {value[:30]!r}"
        new = f'<String value="{value}"'
    elif op == 4:
        sites = list(re.finditer(r'<Bool value="[^"]*"', xml))
        value = rng.choice(["false", "true", "maybe", ""])
        what = f"Bool = {value!r}"
        new = f'<Bool value="{value}"'
    elif op == 5:
        names = re.findall(r'<Object name="([^"]+)"', xml)
        victim = rng.choice(names)
        xml = re.sub(r'<Object type="[^"]*" name="%s"[^>]*/>' % re.escape(victim), "", xml)
        xml = re.sub(r'<Object name="%s"[^>]*>.*?\n        </Object>' % re.escape(victim), "", xml, flags=re.S)
        return xml, f"object {victim} deleted"
    else:
        cut = rng.randrange(len(xml))
        return xml[:cut], f"Document.xml cut at {cut}"
    if not sites:
        return xml, f"{what}: no site"
    m = rng.choice(sites)
    return xml[: m.start()] + new + xml[m.end() :], what


def document_mutant(name: str, rng: random.Random) -> tuple[bytes, str]:
    """The bytes of a damaged copy of examples/<name> and what was done to it."""
    with open(os.path.join(EXAMPLES, name), "rb") as f:
        raw = f.read()
    op = rng.randrange(6)
    if op == 0:
        cut = rng.randrange(len(raw))
        return raw[:cut], f"file cut at {cut} of {len(raw)} bytes"
    if op == 1:
        data = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data), "bytes flipped"
    src = zipfile.ZipFile(io.BytesIO(raw))
    xml = src.read(XML).decode("utf-8")
    done = []
    for _ in range(rng.randint(1, 2)):
        xml, what = _xml_mutation(xml, rng)
        done.append(what)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            z.writestr(info, xml.encode("utf-8") if info.filename == XML else src.read(info.filename))
    return out.getvalue(), "; ".join(done)


def test_document_mutants_end_cleanly(compiled, tmp_path):
    """N/4 seeded mutants of the FreeCAD example documents through the document reader,
    validation and a tiny run (skipped where FreeCAD is missing)."""
    from MBDWorkbench.cad.freecad_env import FreeCADNotFoundError, import_freecad

    try:
        import_freecad()
    except FreeCADNotFoundError as exc:
        pytest.skip(f"FreeCAD is not available: {exc}")
    from MBDWorkbench.cad.document_model import model_from_document_file

    rng = random.Random(SEED + 1)
    failures = []
    for k in range(max(4, N // 4)):
        name = FCSTD_EXAMPLES[k % len(FCSTD_EXAMPLES)]
        raw, done = document_mutant(name, rng)
        path = tmp_path / f"mutant{k}_{name}"
        path.write_bytes(raw)
        trace = check_model(lambda path=path: model_from_document_file(str(path)), rng.choice(WHAT))
        if trace:
            failures.append((f"#{k} {name}: {done}", trace))
    assert not failures, _report(failures)


# ----------------------------------------------------------------------------- command line
def _cli_cases(tmp_path):
    """A handful of files and commands for the command line."""
    rng = random.Random(SEED + 2)
    pendulum = open(os.path.join(EXAMPLES, "pendulum.json"), "rb").read()
    cases = [
        ("simulate", "binary.json", bytes(range(256)) * 8, []),
        ("analyze", "deep.json", b"[" * 3000 + b"]" * 3000, []),
        ("kinematics", "cut.json", pendulum[: len(pendulum) // 2], []),
        ("simulate", "huge.json", pendulum.replace(b'"mass": 1.0', b'"mass": 1' + b"0" * 5000), []),
        ("simulate", "steps.json", pendulum, ["--step", "1e-12"]),
    ]
    data, _ = json_mutant("slider_crank.json", rng)
    cases.append(("simulate", "mutant.json", json.dumps(data).encode(), ["--t-end", "0.01"]))
    if FCSTD_EXAMPLES:
        raw = open(os.path.join(EXAMPLES, FCSTD_EXAMPLES[0]), "rb").read()
        cases.append(("analyze", "cut.FCStd", raw[: len(raw) // 3], []))
    return cases


def test_cli_mutants_exit_cleanly(compiled, tmp_path):
    """Damaged files through `python3 -m MBDWorkbench`: an exit code, no traceback, no hang."""
    for command, name, raw, extra in _cli_cases(tmp_path):
        path = tmp_path / name
        path.write_bytes(raw)
        argv = [sys.executable, "-m", "MBDWorkbench", command, str(path), *extra]
        if command != "analyze":
            argv += ["--out", str(tmp_path / (name + "_out")), "--quiet"]
        p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert "Traceback" not in p.stderr, f"{command} {name}:\n{p.stderr[-3000:]}"
        assert p.returncode in (0, 1, 2, 3, 4), f"{command} {name}: exit {p.returncode}\n{p.stderr[-3000:]}"
        if p.returncode:
            assert p.stderr.strip().startswith("error:") or "error:" in p.stderr, p.stderr[-2000:]
