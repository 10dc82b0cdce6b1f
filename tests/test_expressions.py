"""Tests of the safe profile compiler and the njit jet evaluator."""

import ast
import inspect
import math

import numpy as np
import pytest
from numba import njit

from MBDWorkbench.solver.model import expressions as ex
from MBDWorkbench.solver.model.expressions import ExpressionError, Program, pack_args, pack_programs
from MBDWorkbench.solver.model.profiles import compile_profile
from MBDWorkbench.solver.numerics.jets import eval_jet

PI = np.pi


def fd_check(prog, t, h=1e-4, rtol=2e-6):
    """f' and f'' against central differences of f and of f'."""
    f, f1, f2 = prog(t)
    fp, fp1, _ = prog(t + h)
    fm, fm1, _ = prog(t - h)
    scale = 1.0 + abs(f) + abs(f1) + abs(f2)
    assert f1 == pytest.approx((fp - fm) / (2 * h), abs=rtol * scale)
    assert f2 == pytest.approx((fp1 - fm1) / (2 * h), abs=rtol * scale)
    H = 1e-3
    f2_from_f = (prog(t + H)[0] - 2 * f + prog(t - H)[0]) / H**2
    assert f2 == pytest.approx(f2_from_f, abs=1e-5 * scale)


def s2(t):
    return 1.0 / np.cosh(t) ** 2


# (expression, f, f', f'', times) with derivatives derived by hand
CASES = [
    (
        "0.5*sin(2*pi*t) + t^2",
        lambda t: 0.5 * np.sin(2 * PI * t) + t**2,
        lambda t: PI * np.cos(2 * PI * t) + 2 * t,
        lambda t: -2 * PI**2 * np.sin(2 * PI * t) + 2,
        [-0.7, 0.0, 0.4, 1.3],
    ),
    ("(t-2)^3", lambda t: (t - 2) ** 3, lambda t: 3 * (t - 2) ** 2, lambda t: 6 * (t - 2), [-1.0, 0.0, 1.5, 2.5]),
    (
        "t^t",
        lambda t: t**t,
        lambda t: t**t * (np.log(t) + 1),
        lambda t: t**t * ((np.log(t) + 1) ** 2 + 1 / t),
        [0.3, 1.0, 2.2],
    ),
    ("2^t", lambda t: 2.0**t, lambda t: np.log(2) * 2.0**t, lambda t: np.log(2) ** 2 * 2.0**t, [-1.0, 0.5, 3.0]),
    (
        "t**-2 + 1e-3*t",
        lambda t: t**-2.0 + 1e-3 * t,
        lambda t: -2 * t**-3.0 + 1e-3,
        lambda t: 6 * t**-4.0,
        [-1.5, 0.7, 2.0],
    ),
    (
        "(1+t^2)/(2+sin(t))",
        lambda t: (1 + t**2) / (2 + np.sin(t)),
        lambda t: (2 * t * (2 + np.sin(t)) - (1 + t**2) * np.cos(t)) / (2 + np.sin(t)) ** 2,
        lambda t: (
            (2 * (2 + np.sin(t)) + (1 + t**2) * np.sin(t)) / (2 + np.sin(t)) ** 2
            - 2 * np.cos(t) * (2 * t * (2 + np.sin(t)) - (1 + t**2) * np.cos(t)) / (2 + np.sin(t)) ** 3
        ),
        [-2.0, 0.0, 1.1, 4.0],
    ),
    ("atan2(sin(t), cos(t))", lambda t: t, lambda t: 1.0 + 0 * t, lambda t: 0.0 * t, [-2.5, 0.3, 3.0]),
    ("atan2(t, 1)", np.arctan, lambda t: 1 / (1 + t**2), lambda t: -2 * t / (1 + t**2) ** 2, [-1.0, 0.5, 2.0]),
    (
        "atan2(t^2 - 1, 2*t + 0.5)",
        lambda t: np.arctan2(t**2 - 1, 2 * t + 0.5),
        lambda t: ((2 * t + 0.5) * 2 * t - (t**2 - 1) * 2) / ((2 * t + 0.5) ** 2 + (t**2 - 1) ** 2),
        None,
        [-1.3, 0.0, 0.8, 2.0],
    ),
    (
        "step(t, 1, 2, 3, -1)",
        lambda t: np.where(
            t <= 1, 2.0, np.where(t >= 3, -1.0, 2 - 3 * (3 * ((t - 1) / 2) ** 2 - 2 * ((t - 1) / 2) ** 3))
        ),
        lambda t: np.where((t > 1) & (t < 3), -3 * 6 * ((t - 1) / 2) * (1 - (t - 1) / 2) / 2, 0.0),
        lambda t: np.where((t > 1) & (t < 3), -3 * (6 - 12 * (t - 1) / 2) / 4, 0.0),
        [0.0, 1.2, 2.0, 2.9, 4.0],
    ),
    (
        "exp(-t)*cos(3*t)",
        lambda t: np.exp(-t) * np.cos(3 * t),
        lambda t: -np.exp(-t) * (np.cos(3 * t) + 3 * np.sin(3 * t)),
        lambda t: np.exp(-t) * (-8 * np.cos(3 * t) + 6 * np.sin(3 * t)),
        [-0.5, 0.0, 1.7],
    ),
    (
        "sqrt(1+t^2)",
        lambda t: np.sqrt(1 + t**2),
        lambda t: t / np.sqrt(1 + t**2),
        lambda t: (1 + t**2) ** -1.5,
        [-2.0, 0.0, 0.9],
    ),
    (
        "log(2+t) - tan(t/3) + tanh(t)",
        lambda t: np.log(2 + t) - np.tan(t / 3) + np.tanh(t),
        lambda t: 1 / (2 + t) - (1 + np.tan(t / 3) ** 2) / 3 + s2(t),
        lambda t: -1 / (2 + t) ** 2 - 2 / 9 * np.tan(t / 3) * (1 + np.tan(t / 3) ** 2) - 2 * np.tanh(t) * s2(t),
        [-1.5, 0.0, 2.5],
    ),
    (
        "asin(t/2) + acos(t/3) + atan(t)",
        lambda t: np.arcsin(t / 2) + np.arccos(t / 3) + np.arctan(t),
        lambda t: 1 / np.sqrt(4 - t**2) - 1 / np.sqrt(9 - t**2) + 1 / (1 + t**2),
        lambda t: t / (4 - t**2) ** 1.5 - t / (9 - t**2) ** 1.5 - 2 * t / (1 + t**2) ** 2,
        [-1.5, 0.0, 1.2],
    ),
    (
        "sinh(t)*cosh(2*t) - abs(t-0.3)",
        lambda t: np.sinh(t) * np.cosh(2 * t) - np.abs(t - 0.3),
        lambda t: np.cosh(t) * np.cosh(2 * t) + 2 * np.sinh(t) * np.sinh(2 * t) - np.sign(t - 0.3),
        lambda t: 5 * np.sinh(t) * np.cosh(2 * t) + 4 * np.cosh(t) * np.sinh(2 * t),
        [-0.8, 0.0, 1.1],
    ),
    (
        "min(t^2, 1) + max(sin(t), 0.5)",
        lambda t: np.minimum(t**2, 1) + np.maximum(np.sin(t), 0.5),
        lambda t: np.where(t**2 < 1, 2 * t, 0) + np.where(np.sin(t) > 0.5, np.cos(t), 0),
        lambda t: np.where(t**2 < 1, 2.0, 0) + np.where(np.sin(t) > 0.5, -np.sin(t), 0),
        [-2.0, 0.2, 0.8, 1.5],
    ),
    (
        "-t^2 + +t - e^(t/10)",
        lambda t: -(t**2) + t - np.exp(t / 10),
        lambda t: -2 * t + 1 - 0.1 * np.exp(t / 10),
        lambda t: -2 - 0.01 * np.exp(t / 10),
        [-3.0, 0.0, 5.0],
    ),
]


@pytest.mark.parametrize("expr,f,f1,f2,times", CASES, ids=[c[0] for c in CASES])
def test_expression_jets(expr, f, f1, f2, times):
    prog = compile_profile(expr)
    for t in times:
        v = prog(t)
        assert v[0] == pytest.approx(float(f(t)), rel=1e-12, abs=1e-12)
        assert v[1] == pytest.approx(float(f1(t)), rel=1e-10, abs=1e-11)
        if f2 is not None:
            assert v[2] == pytest.approx(float(f2(t)), rel=1e-10, abs=1e-11)
        fd_check(prog, t)


def test_integer_power_of_negative_base_and_edge_values():
    assert compile_profile("(t-2)^3")(0.0) == (-8.0, 12.0, -12.0)
    assert compile_profile("(t-2)^2")(0.0) == (4.0, -4.0, 2.0)
    assert compile_profile("t^0")(0.0) == (1.0, 0.0, 0.0)
    assert compile_profile("t^1")(0.0) == (0.0, 1.0, 0.0)
    assert compile_profile("t^2")(0.0) == (0.0, 0.0, 2.0)
    assert compile_profile("(-t)^(1+1+1)")(-2.0) == (8.0, -12.0, 12.0)


def test_precedence_and_constants():
    cases = {
        "2+3*t^2": lambda t: 2 + 3 * t**2,
        "-t^2": lambda t: -(t**2),
        "2^3^t": lambda t: 2.0 ** (3.0**t),
        "2^-t": lambda t: 2.0**-t,
        "t/2/4": lambda t: t / 8,
        "8-t-1": lambda t: 7 - t,
        "pi*e*t": lambda t: np.pi * np.e * t,
        ".5e1*t - 3.": lambda t: 5 * t - 3,
        "-(-(t))": lambda t: t,
        "2*(t+1)*(t-1)": lambda t: 2 * (t * t - 1),
        "min(t, 2, 0.5)": lambda t: min(t, 2, 0.5),
    }
    for expr, f in cases.items():
        for t in (-1.0, 0.25, 1.5):
            assert compile_profile(expr)(t)[0] == pytest.approx(f(t), rel=1e-13), expr


def test_long_flat_expression_is_not_a_recursion_problem():
    prog = compile_profile("+".join(["t"] * 1000))
    assert prog(0.5) == pytest.approx((500.0, 1000.0, 0.0))
    assert compile_profile("(" * 90 + "t" + ")" * 90)(2.0) == (2.0, 1.0, 0.0)


# ------------------------------------------------------------- profile kinds
def jet_ok(prog, t, want):
    got = prog(t)
    for g, w in zip(got, want):
        assert g == pytest.approx(w, rel=1e-12, abs=1e-12)


def test_constant_and_number_specs():
    for spec in ({"type": "constant", "value": -2.5}, -2.5, "-2.5"):
        for t in (0.0, 3.0):
            jet_ok(compile_profile(spec), t, (-2.5, 0, 0))


def test_constant_speed():
    prog = compile_profile({"type": "constant_speed", "speed": 3.0, "initial": 0.5})
    for t in (-1.0, 0.0, 2.0):
        jet_ok(prog, t, (0.5 + 3 * t, 3.0, 0.0))
    jet_ok(compile_profile({"type": "constant_speed", "speed": -2}), 1.5, (-3.0, -2.0, 0.0))


def test_harmonic_omega_and_frequency():
    a, w, p, c = 0.3, 4.0, 0.7, -1.0
    prog = compile_profile({"type": "harmonic", "amplitude": a, "omega": w, "phase": p, "offset": c})
    for t in (0.0, 0.4, 2.3):
        jet_ok(prog, t, (c + a * np.sin(w * t + p), a * w * np.cos(w * t + p), -a * w * w * np.sin(w * t + p)))
        fd_check(prog, t)
    hz = compile_profile({"type": "harmonic", "amplitude": 2, "frequency": 0.5})
    w = 2 * np.pi * 0.5
    for t in (0.1, 0.9):
        jet_ok(hz, t, (2 * np.sin(w * t), 2 * w * np.cos(w * t), -2 * w * w * np.sin(w * t)))


def test_polynomial():
    coeffs = [1.0, -2.0, 0.0, 0.5, 0.25]
    prog = compile_profile({"type": "polynomial", "coefficients": coeffs})
    p = np.polynomial.Polynomial(coeffs)
    for t in (-1.7, 0.0, 1.3):
        jet_ok(prog, t, (p(t), p.deriv(1)(t), p.deriv(2)(t)))
    jet_ok(compile_profile({"type": "polynomial", "coefficients": [4]}), 2.0, (4, 0, 0))


def test_table():
    tx, ty = [0.0, 1.0, 2.5, 4.0], [1.0, 3.0, 0.0, 0.0]
    prog = compile_profile({"type": "table", "t": tx, "value": ty})
    for t in (-1.0, 0.0, 0.3, 1.0, 2.0, 3.9, 4.0, 9.0):
        f, f1, f2 = prog(t)
        assert f == pytest.approx(np.interp(t, tx, ty), rel=1e-14, abs=1e-14)
        i = np.searchsorted(tx, t, side="right") - 1
        slope = (ty[i + 1] - ty[i]) / (tx[i + 1] - tx[i]) if 0 <= i < len(tx) - 1 else 0.0
        assert f1 == pytest.approx(slope, rel=1e-14)
        assert f2 == 0.0
    assert prog(1.7)[1] == -2.0 and prog(-0.5)[1] == 0.0 and prog(5.0)[1] == 0.0
    assert len(prog.tables) == 1 and np.array_equal(prog.tables[0][0], tx)


def test_step_spec_matches_step_function():
    prog = compile_profile({"type": "step", "t0": 1.0, "value0": 2.0, "t1": 3.0, "value1": -1.0})
    ref = compile_profile("step(t, 1, 2, 3, -1)")
    for t in (0.0, 1.0, 1.4, 2.0, 3.0, 5.0):
        assert prog(t) == ref(t)
    assert prog(2.0)[0] == pytest.approx(0.5)  # midpoint of the blend


def test_expression_dict_and_sources_round_trip():
    specs = [
        {"type": "expression", "expr": "0.5*sin(2*pi*t) + t^2"},
        {"type": "harmonic", "amplitude": -2, "omega": 3.3, "phase": -0.25, "offset": 1},
        {"type": "polynomial", "coefficients": [0.1, -1, 0, 2]},
        {"type": "constant_speed", "speed": -1.5, "initial": 2},
        {"type": "step", "t0": 0, "value0": 0, "t1": 0.2, "value1": 1},
    ]
    for spec in specs:
        prog = compile_profile(spec)
        again = compile_profile(prog.source)
        for t in (0.05, 0.7):
            assert again(t) == pytest.approx(prog(t), rel=1e-14, abs=1e-15), prog.source


# ------------------------------------------------------------------ packing
@njit(cache=True)
def _caller(ks, ts, code, code_start, consts, const_start, tx, ty, tstart, tbase, stack):
    """A kernel using eval_jet the way the solver will."""
    out = np.empty((ks.shape[0], 3))
    for i in range(ks.shape[0]):
        f, f1, f2 = eval_jet(ks[i], ts[i], code, code_start, consts, const_start, tx, ty, tstart, tbase, stack)
        out[i, 0], out[i, 1], out[i, 2] = f, f1, f2
    return out


def _mixed_specs():
    return [
        "(t-2)^3",
        {"type": "table", "t": [0, 1, 2], "value": [0, 10, 0]},
        {"type": "harmonic", "amplitude": 1.5, "frequency": 2.0, "phase": 0.1},
        {"type": "constant", "value": 7},
        {"type": "table", "t": [-1, 0, 5], "value": [4, 2, 12]},
        {"type": "step", "t0": 0.5, "value0": 1, "t1": 1.5, "value1": 3},
        "atan2(sin(t), 2 + cos(t)) * exp(t/4)",
    ]


def test_pack_of_mixed_programs_and_njit_caller():
    programs = [compile_profile(s, "drivers[%d].profile" % i) for i, s in enumerate(_mixed_specs())]
    pack = pack_programs(programs)
    args = pack_args(pack)
    assert len(pack) == 7 and pack.code_start.shape == (8,)
    assert [a.dtype for a in args] == [
        np.int64,
        np.int64,
        np.float64,
        np.int64,
        np.float64,
        np.float64,
        np.int64,
        np.int64,
        np.float64,
    ]
    ts = np.array([-0.5, 0.25, 0.75, 1.6, 3.0])
    ks = np.repeat(np.arange(7), ts.size)
    tt = np.tile(ts, 7)
    out = _caller(ks, tt, *args)
    for row, k, t in zip(out, ks, tt):
        assert tuple(row) == programs[k](t)  # same as one-program packs
        assert tuple(row) == eval_jet(k, t, *args)
    w = 4 * np.pi
    for t, row in zip(ts, out[ks == 2]):
        assert row[0] == pytest.approx(1.5 * np.sin(w * t + 0.1), rel=1e-12)
        assert row[1] == pytest.approx(1.5 * w * np.cos(w * t + 0.1), rel=1e-12)
    for t, row in zip(ts, out[ks == 4]):  # second table: offsets right
        assert row[0] == pytest.approx(np.interp(t, [-1, 0, 5], [4, 2, 12]))
        assert row[1] == (-2.0 if t < 0 else 2.0)
    assert tuple(out[ks == 1][1]) == (2.5, 10.0, 0.0)
    assert np.all(out[ks == 3] == [7.0, 0.0, 0.0])
    assert np.isnan(eval_jet(7, 0.0, *args)[0]) and np.isnan(eval_jet(-1, 0.0, *args)[0])


def test_empty_pack_has_typed_arrays():
    pack = pack_programs([])
    args = pack_args(pack)
    assert len(pack) == 0
    assert [a.dtype for a in args] == [
        np.int64,
        np.int64,
        np.float64,
        np.int64,
        np.float64,
        np.float64,
        np.int64,
        np.int64,
        np.float64,
    ]
    assert pack.code_start.tolist() == [0] and pack.table_start.tolist() == [0]
    assert np.isnan(eval_jet(0, 0.0, *args)[0])
    assert _caller(np.zeros(0, np.int64), np.zeros(0), *args).shape == (0, 3)


def test_pack_rejects_non_programs():
    with pytest.raises(TypeError, match=r"programs\[1\]"):
        pack_programs([compile_profile("t"), "t"])


# ------------------------------------------------------------------- errors
P = "drivers[0].profile"
ERRORS = [
    ("2*t+x", P + ": unknown name 'x' at column 5 in \"2*t+x\""),
    ("__import__('os').system('ls')", P + ": unknown function '__import__' at column 1"),
    ("t.real", P + ": unexpected character '.' (attribute access is not allowed) at column 2"),
    ("t[0]", P + ": unexpected character '[' (subscripts and lists are not allowed) at column 2"),
    ("lambda: t", P + ": Python keyword 'lambda' is not allowed at column 1"),
    ("'abc'", P + ': unexpected character "\'" (strings are not allowed) at column 1'),
    ("t if t else 1", P + ": unexpected Python keyword 'if' at column 3"),
    ("t < 1", P + ": unexpected character '<' (comparisons are not allowed) at column 3"),
    ("t == 1", P + ": unexpected character '=' (comparisons and assignments"),
    ("foo(t)", P + ": unknown function 'foo' at column 1"),
    ("sin(t, 2)", P + ": sin() takes 1 argument, got 2 at column 1"),
    ("atan2(t)", P + ": atan2() takes 2 arguments, got 1 at column 1"),
    ("sin + t", P + ": function 'sin' needs arguments"),
    ("t(2)", P + ": unknown function 't' at column 1"),
    ("2*(t+1", P + ": expected ')' (to close column 3), found end of expression at column 7"),
    ("2*t)", P + ": unexpected ')' at column 4"),
    ("2 t", P + ": unexpected 't' at column 3"),
    ("t*", P + ": unexpected end of expression at column 3"),
    ("", P + ": empty expression"),
    ("1e999*t", P + ": number 1e999 out of range at column 1"),
    ("step(t, 2, 0, 1, 1)", P + ": step(x, x0, h0, x1, h1) needs x0 < x1 at column 1"),
    ("t" + "+t" * 1000, P + ": expression too long (2001 characters, max 2000)"),
    ("(" * 101 + "t" + ")" * 101, P + ": nesting deeper than 100 levels at column 101"),
    ("-" * 150 + "t", P + ": nesting deeper than 100 levels"),
    ({"type": "constant_speed", "speed": "fast"}, P + ".speed: must be a finite number"),
    ({"type": "constant_speed", "speed": float("inf")}, P + ".speed: must be a finite number"),
    ({"type": "constant_speed", "speed": True}, P + ".speed: must be a finite number"),
    ({"type": "constant"}, P + ".value: required field is missing"),
    ({"type": "harmonic", "amplitude": 1}, P + ".omega: give exactly one of 'omega'"),
    ({"type": "harmonic", "amplitude": 1, "omega": 1, "frequency": 1}, P + ".omega: give exactly"),
    ({"type": "harmonic", "omega": 1}, P + ".amplitude: required field is missing"),
    ({"type": "polynomial", "coefficients": []}, P + ".coefficients: must be a list of at least 1"),
    ({"type": "polynomial", "coefficients": [1, None]}, P + ".coefficients[1]: must be a finite"),
    ({"type": "table", "t": [0, 1], "value": [1]}, P + ".value: must be a list of at least 2"),
    ({"type": "table", "t": [0, 1, 2], "value": [1, 2]}, P + ".value: has 2 entries but t has 3"),
    ({"type": "table", "t": [0, 2, 1], "value": [1, 2, 3]}, P + ".t: must be strictly increasing"),
    ({"type": "table", "value": [1, 2]}, P + ".t: required field is missing"),
    ({"type": "step", "t0": 1, "value0": 0, "t1": 1, "value1": 2}, P + ".t1: must be greater"),
    ({"type": "expression", "expr": "t+y"}, P + ".expr: unknown name 'y' at column 3"),
    ({"type": "expression", "expr": 3}, P + ".expr: expression must be a string"),
    ({"type": "expression"}, P + ".expr: required field is missing"),
    ({"type": "wave"}, P + ".type: must be one of constant, constant_speed, expression"),
    ({"value": 1}, P + ".type: must be one of"),
    ({"type": "constant", "value": 1, "vlaue": 2}, P + ".vlaue: unknown field for type"),
    ([1, 2], P + ": expected an expression string or an object with a 'type' field, got list"),
    (None, P + ": expected an expression string"),
]


@pytest.mark.parametrize("spec,message", ERRORS, ids=[repr(e[0])[:30] for e in ERRORS])
def test_errors_name_path_and_problem(spec, message):
    with pytest.raises(ExpressionError) as info:
        compile_profile(spec, P)
    assert str(info.value).startswith(message)
    assert isinstance(info.value, ValueError)


def test_compiler_never_uses_eval_or_exec():
    tree = ast.parse(inspect.getsource(ex))
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not called & {"eval", "exec", "compile", "__import__"}


def test_program_attributes():
    prog = compile_profile({"type": "harmonic", "amplitude": 0.5, "omega": 2 * math.pi})
    assert isinstance(prog, Program)
    assert prog.code.dtype == np.int64 and prog.consts.dtype == np.float64
    assert prog.source == "0.5*sin(6.283185307179586*t)"
    assert prog.tables == [] and prog.max_depth >= 1
