"""Strict input validation (issue 11): every bad input a user's fuzzer found (tracebacks, hangs,
silently different models) is a ModelError naming its JSON path; runs beyond the limits of
solver/model/limits.py are refused before solving with the estimate in the message, unless the
limits are switched off."""

import copy
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from MBDWorkbench import cli
from MBDWorkbench.cli_common import load_model
from MBDWorkbench.solver import ModelError, from_dict, load, simulate
from MBDWorkbench.solver.model import Body, Model, Settings, limits, run_size, validate, validate_run
from MBDWorkbench.solver.model.catalog import FORCES
from MBDWorkbench.solver.model.profiles import compile_profile
from MBDWorkbench.solver.model.validate import with_settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")


def example(name):
    with open(os.path.join(EXAMPLES, name), encoding="utf-8") as f:
        return json.load(f)


def refused(data, path, text=""):
    """from_dict(data) raises a ModelError at ``path`` whose message holds ``text``."""
    with pytest.raises(ModelError) as e:
        from_dict(data)
    assert e.value.path == path, str(e.value)
    assert text in e.value.message, str(e.value)
    return e.value


def edited(name, edit):
    d = example(name)
    edit(d)
    return d


# ----------------------------------------------------------------------------- files
@pytest.mark.parametrize(
    "raw,text",
    [
        (b'{"name": "\xff\xfe"}', "not UTF-8 text (byte 0xff at offset 10)"),
        (bytes(range(256)) * 4, "not UTF-8 text"),
        (b"[" * 1000 + b"]" * 1000, ("deeper than", "must be a JSON object")),
        (b'{"a":' * 1000 + b"1" + b"}" * 1000, "deeper than"),
        (b'{"bodies": [', "not valid JSON"),
    ],
)
def test_unreadable_model_files_name_the_file(tmp_path, raw, text):
    path = tmp_path / "model.json"
    path.write_bytes(raw)
    with pytest.raises(ModelError) as e:
        load(str(path))
    # deep nesting: Python < 3.13's json stops at the file; 3.13 parses it, and the model's own checks (depth, or a
    # list where an object belongs) name the JSON path
    texts = text if isinstance(text, tuple) else (text,)
    assert any(t in e.value.message for t in texts)
    if "deeper than" not in texts:
        assert e.value.path == str(path)


def test_a_directory_is_not_a_model(tmp_path):
    for read in (load, load_model):
        with pytest.raises(ModelError, match="is a directory"):
            read(str(tmp_path))


def test_nesting_beyond_the_limit_names_the_place():
    d = example("pendulum.json")
    d["bodies"][0]["position"] = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]], 0, 0]
    refused(d, "bodies[0].position[0][0][0][0][0]", "nested deeper than 32 levels")


@pytest.mark.parametrize("digits", [400, 5000])
def test_huge_integers_are_refused_naming_the_field(tmp_path, digits):
    text = json.dumps(example("pendulum.json")).replace('"mass": 1.0', '"mass": 1' + "0" * digits)
    path = tmp_path / "huge.json"
    path.write_text(text)
    with pytest.raises(ModelError) as e:
        load(str(path))
    assert e.value.path == "bodies[0].mass" and "finite number" in e.value.message
    about = f"of about 10^{digits}" if digits < 4300 else f"of {digits + 1} digits"  # int() converts 4300 at most
    assert f"got an integer {about}" in e.value.message


def test_1e400_in_a_profile_names_the_profile_field(tmp_path):
    d = example("slider_crank.json")
    text = json.dumps(d).replace('"speed": 3.141592653589793', '"speed": 1e400')
    path = tmp_path / "m.json"
    path.write_text(text)
    with pytest.raises(ModelError) as e:
        load(str(path))
    assert e.value.path == "drivers[0].profile.speed", str(e.value)


# ----------------------------------------------------------------------------- types and flags
def test_a_force_given_as_a_number():
    refused(edited("slider_crank.json", lambda d: d["forces"].append(5)), "forces[1]", "must be an object")


@pytest.mark.parametrize(
    "edit,path",
    [
        (lambda d: d["bodies"][1].update(grounded="false"), "bodies[1].grounded"),
        (lambda d: d["bodies"][1].update(grounded=0), "bodies[1].grounded"),
        (lambda d: d["settings"].update(assemble="no"), "settings.assemble"),
        (lambda d: d["settings"].update(projection=[1]), "settings.projection"),
        (lambda d: d["settings"].update(check_limits="false"), "settings.check_limits"),
    ],
)
def test_flags_are_json_booleans_only(edit, path):
    refused(edited("slider_crank.json", edit), path, "must be true or false")


def test_flags_accept_booleans():
    d = edited("slider_crank.json", lambda d: d["settings"].update(assemble=False, projection=True))
    s = from_dict(d).settings
    assert s.assemble is False and s.projection is True and s.check_limits is True


# ----------------------------------------------------------------------------- ranges
def _numbers(tree, path=""):
    """(path, setter) of every number of a JSON tree."""
    out = []
    items = tree.items() if isinstance(tree, dict) else enumerate(tree)
    for key, value in items:
        where = (f"{path}.{key}" if path else key) if isinstance(tree, dict) else f"{path}[{key}]"
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append((where, tree, key))
        elif isinstance(value, (dict, list)):
            out += _numbers(value, where)
    return out


@pytest.mark.parametrize("name", sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".json")))
@pytest.mark.parametrize("bad", [math.nan, math.inf, 1e300, -1e300, True, "1", None])
def test_every_number_of_every_example_is_checked_at_its_path(name, bad):
    """Each number of each shipped example, made non-finite, huge, a boolean, a string or
    null (except where null is a documented value: free_length, settings.step and settings.rtol,
    the integrator's own), is refused by a ModelError naming exactly its JSON path."""
    base = example(name)
    for where, _, _ in _numbers(base):
        if bad is None and where.endswith((".free_length", "settings.step", "settings.rtol")):
            continue
        d = copy.deepcopy(base)
        container, key = next((c, k) for w, c, k in _numbers(d) if w == where)
        container[key] = bad
        err = refused(d, where)
        assert err.message, where


@pytest.mark.parametrize(
    "edit,path,text",
    [
        (lambda d: d["bodies"][0].update(inertia=[1e308, 1e308, 1e308]), "bodies[0].inertia[0]", "must lie in"),
        (lambda d: d["bodies"][0].update(inertia=[5e-324] * 3), "bodies[0].inertia", "smallest principal moment"),
        (lambda d: d["bodies"][0].update(mass=1e-13), "bodies[0].mass", "must lie in [1e-12, 1e+12] kg"),
        (lambda d: d["bodies"][0].update(position=[2e4, 0, 0]), "bodies[0].position[0]", "length"),
        (lambda d: d["joints"][0]["frame"].update(x_axis=[1e308, 0, 0]), "joints[0].frame.x_axis[0]", "must lie in"),
        (lambda d: d["settings"].update(output_step=1e-300), "settings.output_step", "[1e-12, 1e+09] s"),
        (lambda d: d["settings"].update(t_end=1e308), "settings.t_end", "must lie in"),
        (lambda d: d["settings"].update(rtol=1e-20), "settings.rtol", "must lie in"),
        (lambda d: d["settings"].update(tikhonov_eps=2.0), "settings.tikhonov_eps", "must lie in [0, 1]"),
        (lambda d: d["gravity"].__setitem__(2, -1e7), "gravity[2]", "acceleration"),
    ],
)
def test_numbers_outside_their_range(edit, path, text):
    refused(edited("pendulum.json", edit), path, text)


def test_force_ranges_come_from_the_catalogue():
    assert {f.range for t in FORCES.values() for f in t.fields} <= set(limits.RANGES)
    d = example("slider_crank.json")
    spring = d["forces"][0]
    for field, kind in ((f.name, f.range) for f in FORCES[spring["type"]].fields if f.kind in ("nonneg", "number")):
        e = copy.deepcopy(d)
        e["forces"][0][field] = limits.RANGES[kind].high * 10
        refused(e, f"forces[0].{field}", f"limits, {kind}")


def test_python_api_models_get_the_same_checks():
    """validate() checks Body objects built in Python (and from FreeCAD) like JSON input."""
    model = from_dict(example("pendulum.json"))
    for attr, value, path in (
        ("mass", "heavy", "bodies[0].mass"),
        ("inertia", [[1, 0, 0], [0, 1, 0], [0, 0, "x"]], "bodies[0].inertia[2][2]"),
        ("position", [np.nan, 0, 0], "bodies[0].position[0]"),
        ("grounded", "false", "bodies[0].grounded"),
    ):
        m = copy.deepcopy(model)
        setattr(m.bodies[0], attr, value)
        with pytest.raises(ModelError) as e:
            validate(m)
        assert e.value.path == path, str(e.value)
    assert isinstance(Model(bodies=[Body("b", 1.0, [1.0, 1.0, 1.0])]).settings, Settings)


# ----------------------------------------------------------------------------- profiles
@pytest.mark.parametrize(
    "profile,text",
    [
        ("1/0", "its value is inf at t = 0 s"),
        ("log(t)", "its value is -inf at t = 0 s"),
        ("t**t**t**t", "its first derivative is nan at t = 0 s"),
        ("sqrt(t)", "its first derivative is inf at t = 0 s"),
        ("1/(t - 0.5)", "at t = 0.5 s"),
        ("1e308+1e308", "its value is inf"),
        ("exp(40*t)", "its second derivative"),
    ],
)
def test_non_finite_driver_profiles_are_refused_before_solving(profile, text):
    d = edited("slider_crank.json", lambda d: d["drivers"][0].update(profile=profile))
    refused(d, "drivers[0].profile", text)


def test_profile_values_are_checked_at_every_output_time_of_the_run():
    """1/(t - 0.7) is finite at the 1001 check times of [0, 2] s of the loaded model but
    not at the output time 0.7 s of a run with output_step 0.1 s."""
    model = from_dict(
        edited("slider_crank.json", lambda d: d["drivers"][0].update(profile="0.01/(t - 0.7003)")),
    )
    with pytest.raises(ModelError, match="at t = 0.7"):
        simulate(model, t_end=1.0, output_step=1e-4)


def test_load_profiles_are_checked_by_value():
    """A load only uses f: sqrt(t) is a fine load, 1/0 is not."""
    d = example("slider_crank.json")
    d["forces"].append({"name": "push", "type": "point_force", "body": "slider", "force": ["sqrt(t)", 0, 0]})
    from_dict(d)
    d["forces"][-1]["force"][1] = "1/0"
    refused(d, "forces[1].force[1]", "its value is inf")


def test_expressions_are_parsed_then_scaled_never_wrapped():
    """{"type": "expression", "expr", "scale"}: the parsed expression times scale; a text that
    is not an expression on its own ('t)+(t') is refused instead of completing a wrapper."""
    prog = compile_profile({"type": "expression", "expr": "90*sin(2*pi*t)", "scale": math.pi / 180})
    for t in (0.0, 0.1, 0.37):
        w = 2 * math.pi
        ref = (math.pi / 2 * math.sin(w * t), math.pi / 2 * w * math.cos(w * t), -math.pi / 2 * w * w * math.sin(w * t))
        assert prog(t) == pytest.approx(ref, rel=1e-13, abs=1e-13)
    with pytest.raises(ModelError, match=r"unexpected '\)' at column 2"):
        compile_profile({"type": "expression", "expr": "t)+(t", "scale": 2.0}, "drivers[0].profile")


@pytest.mark.parametrize(
    "profile,path,text",
    [
        ({"type": "polynomial", "coefficients": [0.0, 1.0] + [1e-9] * 100_000}, ".coefficients", "at most 64"),
        ({"type": "table", "t": list(range(100_001)), "value": [0.0] * 100_001}, ".t", "at most 100000"),
        ({"type": "polynomial", "coefficients": [0.0, 1e300]}, ".coefficients[1]", "finite number in"),
        ({"type": "expression", "expr": "t" + "+t" * 1000}, ".expr", "expression too long"),
    ],
)
def test_profile_sizes_are_bounded_for_every_form(profile, path, text):
    d = edited("slider_crank.json", lambda d: d["drivers"][0].update(profile=profile))
    refused(d, "drivers[0].profile" + path, text)


def test_polynomial_at_the_coefficient_limit_is_exact():
    """64 coefficients compile (quickly: constants are pooled by a lookup) and evaluate to the
    polynomial and its derivatives."""
    c = [(-1) ** k / (k + 1) for k in range(limits.MAX_POLYNOMIAL_COEFFICIENTS)]
    prog = compile_profile({"type": "polynomial", "coefficients": c})
    t = 0.9
    ref = np.polynomial.polynomial.Polynomial(c)
    assert prog(t) == pytest.approx((ref(t), ref.deriv(1)(t), ref.deriv(2)(t)), rel=1e-12)


# ----------------------------------------------------------------------------- run limits
def test_run_size_estimate_matches_a_run():
    """Steps and samples of the estimate are those of a fixed-step run."""
    model = from_dict(example("slider_crank.json"))
    res = simulate(model, t_end=0.05, step=1e-3, output_step=0.01)
    size = run_size(with_settings(model, dict(t_end=0.05, step=1e-3, output_step=0.01)))
    assert (size.steps, size.samples) == (res.steps, len(res)) == (50, 6)


def test_result_memory_estimate_bounds_the_samples(tmp_path):
    """The per-sample memory of the estimate is above what a run's samples and the writing
    of its results take (peak traced by tracemalloc; the growth from 20 to 120 samples) and
    within 10x of it."""
    import tracemalloc

    model = from_dict(example("ankle.json"))
    simulate(model, t_end=5e-3, step=1e-3, output_step=1e-3, out_dir=str(tmp_path / "warm-up"))  # compile first
    peaks = []
    for n in (20, 120):
        tracemalloc.start()
        simulate(model, t_end=n * 1e-3, step=1e-3, output_step=1e-3, out_dir=str(tmp_path / str(n)))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    measured = (peaks[1] - peaks[0]) / 100
    estimate = run_size(model).result_bytes / run_size(model).samples
    print(f"bytes per sample: measured {measured:.0f}, estimated {estimate:.0f}")
    assert measured < estimate < 10 * measured


@pytest.mark.parametrize(
    "overrides,text",
    [
        (dict(step=1e-12), "integration steps (limit 1e+07)"),
        (dict(output_step=1e-9), f"output samples (limit {limits.MAX_SAMPLES:.3g})"),
        (dict(t_end=1e9, step=1.0, output_step=1.0), "GiB of results"),
    ],
)
def test_runs_beyond_the_limits_are_refused_with_the_estimate(overrides, text):
    model = from_dict(example("pendulum.json"))
    with pytest.raises(ModelError) as e:
        simulate(model, **overrides)
    assert e.value.path == "settings" and text in e.value.message and "--no-limits" in e.value.message


def test_the_limits_can_be_switched_off():
    d = edited("pendulum.json", lambda d: d["settings"].update(step=1e-12, check_limits=False))
    validate_run(from_dict(d))
    d["settings"]["check_limits"] = True
    with pytest.raises(ModelError, match="integration steps"):
        validate_run(from_dict(d))


def test_cli_no_limits_flag_reaches_the_run(monkeypatch, tmp_path):
    seen = {}

    def fake_simulate(model, progress=None, out_dir=None, **overrides):
        seen.update(overrides)
        raise ModelError("settings", "stop here")

    monkeypatch.setattr(sys.modules["MBDWorkbench.solver.simulate"], "simulate", fake_simulate)
    path = os.path.join(EXAMPLES, "pendulum.json")
    assert cli.main(["simulate", path, "--no-limits", "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert seen["check_limits"] is False


def test_cli_step_1e_300_is_a_clean_error(tmp_path):
    p = subprocess.run(
        [sys.executable, "-m", "MBDWorkbench", "simulate", os.path.join(EXAMPLES, "pendulum.json")]
        + ["--step", "1e-300", "--out", str(tmp_path / "o"), "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "settings.step: must lie in [1e-12, 1e+09] s" in p.stderr


def test_limits_table_in_the_docs_is_current():
    with open(os.path.join(ROOT, "docs", "model-format.md"), encoding="utf-8") as f:
        assert limits.limits_table() in f.read()


# ----------------------------------------------------------------------------- analyses on the command line
@pytest.mark.parametrize(
    "argv,text",
    [
        (["kinematics", "slider_crank.json", "--output-step", "1e-300"], "settings.output_step: must lie in"),
        (["kinematics", "slider_crank.json", "--t-end", "1e308"], "settings.t_end: must lie in"),
        (["analyze", "slider_crank.json", "--t", "inf"], "t: must be a finite number"),
        (["analyze", "slider_crank.json", "--t", "1e308"], "t: must lie in [-1e+09, 1e+09] s"),
        (["statics", "slider_crank.json", "--t", "nan"], "t: must be a finite number"),
    ],
)
def test_analysis_commands_refuse_bad_times(argv, text, tmp_path, capsys):
    """The four kinds of traceback the fuzzer found in analyze/kinematics (huge sample counts,
    an infinite end time, a non-finite or huge analysis time) are clean errors (exit 2)."""
    argv = [argv[0], os.path.join(EXAMPLES, argv[1]), *argv[2:]]
    if argv[0] != "analyze":
        argv += ["--out", str(tmp_path / "out")]
    assert cli.main(argv) == 2
    assert text in capsys.readouterr().err


@pytest.mark.parametrize("option,value", [("--tol", "nan"), ("--tol", "0"), ("--tol", "2")])
def test_analysis_tolerances_lie_in_0_1(option, value, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["analyze", os.path.join(EXAMPLES, "slider_crank.json"), option, value])
    assert e.value.code == 2 and "must lie in (0, 1)" in capsys.readouterr().err


def test_kinematics_profile_singular_at_an_output_time(tmp_path, capsys):
    """1/(t - 0.5) used to stop the kinematic analysis at 0.5 s with 'open by nan'."""
    d = edited("slider_crank.json", lambda d: d["drivers"][0].update(profile="1/(t-0.5)"))
    model = str(tmp_path / "m.json")
    with open(model, "w") as f:
        json.dump(d, f)
    assert cli.main(["kinematics", model, "--t-end", "1", "--out", str(tmp_path / "o"), "--quiet"]) == 2
    assert "drivers[0].profile: its value is inf at t = 0.5 s" in capsys.readouterr().err
