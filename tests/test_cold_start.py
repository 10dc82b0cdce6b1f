"""The interpreted start on a cold cache (solver/numerics/cold_start.py, solver/numerics/jit.py's twins).

The references are the compiled kernels (this process compiles them as usual): the same model
run with the kernels interpreted must give the same trajectory up to rounding; the NumPy
versions of the band kernels must give what the loop versions give; and from the command line
with an empty cache, a run must finish interpreted while a background process fills the cache.
"""

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from MBDWorkbench.solver import kernels
from MBDWorkbench.solver.integrators import METHODS
from MBDWorkbench.solver.model import load
from MBDWorkbench.solver.numerics import cold_start, jit, schur
from MBDWorkbench.solver.simulate import simulate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _example(name: str):
    return load(os.path.join(ROOT, "examples", name + ".json"))


def _interpreted(run, done=lambda: False):
    jit.start_interpreting(done)
    try:
        return run()
    finally:
        jit.stop_interpreting()


def _same_run(a, b, tol=1e-12):
    """Same samples up to rounding (the kernels' arithmetic is the same; measured: identical, or
    6e-15 relative for the ankle)."""
    assert a.status == b.status
    np.testing.assert_array_equal(a.t, b.t)
    for x, y in ((a.Y, b.Y), (a.Ydot, b.Ydot), (a.multipliers, b.multipliers)):
        x, y = np.nan_to_num(x), np.nan_to_num(y)
        assert np.abs(x - y).max() <= tol * max(1.0, float(np.abs(y).max()))


@pytest.mark.parametrize(
    "example, integrator",
    [
        ("slider_crank", "rk4"),  # motor (expression profile), springs, dampers
        ("slider_crank", "euler"),
        ("slider_crank", "symplectic_euler"),
        ("slider_crank", "galpha"),
        ("spinning_top", "rk4"),  # gyroscopic terms
        ("ankle", "rk4"),  # closed loops, universal joint, rank decisions
        ("four_bar_spatial", "galpha"),
        ("two_link", "rk4_tree"),  # joint coordinates (articulated-body algorithm)
    ],
)
def test_interpreted_kernels_reproduce_the_compiled_run(example, integrator):
    model = _example(example)
    options = dict(t_end=0.03, output_step=0.01, integrator=integrator)
    compiled = simulate(model, **options)
    interpreted = _interpreted(lambda: simulate(model, **options))
    assert jit.stop_reason() == "stopped"  # it ran interpreted to the end
    _same_run(interpreted, compiled)


def test_switch_to_compiled_kernels_mid_run_continues_the_same_motion():
    model = _example("slider_crank")
    options = dict(t_end=0.05, output_step=0.005)
    compiled = simulate(model, **options)
    calls = []

    def done():
        calls.append(1)
        return len(calls) > 6

    mixed = _interpreted(lambda: simulate(model, **options), done)
    assert jit.stop_reason() == "compiled"
    _same_run(mixed, compiled)


def test_interpreting_compiles_nothing():
    seen = []

    @jit.njit
    def twice(x):
        return 2.0 * x

    def probe():
        seen.append(twice(3.0))
        return twice.signatures

    signatures = _interpreted(probe)
    assert seen == [6.0] and signatures == []
    assert twice(3.0) == 6.0 and len(twice.signatures) == 1  # compiled after the interpreted start


@jit.njit
def _half_then_invert(x, out):
    out[0] = 0.5 * x
    out[1] = 1.0 / x


def test_python_arithmetic_error_restores_the_arrays_and_runs_compiled():
    """Python raises on 1.0 / 0.0 where the compiled kernel (NumPy float semantics) gives inf:
    the interpreted call is undone and the compiled kernel runs instead."""
    out = np.array([9.0, 9.0])
    restored = []

    def run():
        _half_then_invert(0.0, out)
        restored.append(jit.interpreting())

    _interpreted(run)
    assert restored == [False]
    assert jit.stop_reason().startswith("ZeroDivisionError in _half_then_invert")
    assert out[0] == 0.0 and np.isinf(out[1])


def _band_case(rng, m=9, bw=3, scale=1.0):
    """A symmetric positive definite band matrix in the band layout (row i, column i - k at [i, k])."""
    a = rng.normal(size=(m, m))
    dense = a @ a.T * scale + m * np.eye(m)
    for i in range(m):
        for j in range(m):
            if abs(i - j) > bw:
                dense[i, j] = 0.0
    dense += np.eye(m) * 2 * np.abs(dense).sum(axis=1).max()  # keep it definite after the band cut
    band = np.zeros((m, bw + 1))
    for i in range(m):
        for k in range(min(i, bw) + 1):
            band[i, k] = dense[i, i - k]
    return band


def _compare(loop, numpy_version, *args, tol=1e-12):
    """Call both on copies of ``args``; the outputs and every array argument must agree."""
    copies = [tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args) for _ in range(2)]
    outs = [loop(*copies[0]), numpy_version(*copies[1])]
    flat = [np.atleast_1d(np.asarray(o, dtype=float)) if o is not None else np.zeros(0) for o in outs]
    np.testing.assert_allclose(flat[1], flat[0], rtol=tol, atol=1e-300)
    for a0, a1 in zip(*copies):
        if isinstance(a0, np.ndarray):
            np.testing.assert_allclose(a1, a0, rtol=tol, atol=tol)
    return outs[0], copies[0]


WATCH_CASES = ["set_ref", "steady", "watch", "decide_now", "not_definite"]


def _watch_inputs(case, band, keep):
    """ref and ctl for a pivot-watch case (references from a first factorisation)."""
    m, bw = band.shape[0], band.shape[1] - 1
    ref, ctl = np.ones(m), kernels.new_rank_state(m)
    ctl[schur.CTL_SET_REF] = 1.0 if case == "set_ref" else 0.0
    if case in ("steady", "watch", "decide_now"):
        ref, probe = np.zeros(m), band.copy()
        schur.band_cholesky(probe, bw, keep.copy(), ref)
        if case == "watch":
            ref[4] /= 0.5 * schur.WATCH_DROP
        if case == "decide_now":
            ref[5] /= 0.5 * schur.DECIDE_NOW_DROP
    if case == "not_definite":
        band[6, 0] = -1.0
    return ref, ctl


@pytest.mark.parametrize("case", WATCH_CASES)
def test_numpy_full_cholesky_matches_the_loop_kernel(case):
    band = _band_case(np.random.default_rng(7))
    m, bw = band.shape[0], band.shape[1] - 1
    ref, ctl = _watch_inputs(case, band, np.ones(m, dtype=np.int64))
    (ok, rmin), (_, _, _, _, ctl_out) = _compare(
        schur._full_cholesky_watched, schur._full_cholesky_watched_numpy, band, bw, np.zeros(m), ref, ctl
    )
    assert ok == (case in ("set_ref", "steady", "watch"))
    assert ctl_out[schur.CTL_WATCH] == (1.0 if case in ("watch", "decide_now") else 0.0)


@pytest.mark.parametrize("case", WATCH_CASES)
def test_numpy_kept_cholesky_matches_the_loop_kernel(case):
    band = _band_case(np.random.default_rng(11))
    m, bw = band.shape[0], band.shape[1] - 1
    keep = np.ones(m, dtype=np.int64)
    keep[[2, 7]] = 0  # dropped rows: identity rows, zero columns
    ref, ctl = _watch_inputs(case, band, keep)
    (ok, rmin), (factor, *_rest) = _compare(
        schur._kept_cholesky_watched, schur._kept_cholesky_watched_numpy, band, bw, keep, np.zeros(m), ref, ctl
    )
    assert ok == (case in ("set_ref", "steady", "watch"))
    if ok:
        assert factor[2, 0] == 1.0 and factor[3, 1] == 0.0  # row 2 dropped: identity row, zero column


def _dependent_band(m=9, bw=3):
    """C = J J^T in the band layout, J with rows of support i .. i + 2 and row 5 = row 4 up to
    1e-5 (a nearly redundant constraint: its pivot ratio is about 1e-10)."""
    J = np.zeros((m, m + 2))
    rng = np.random.default_rng(3)
    for i in range(m):
        J[i, i : i + 3] = rng.normal(size=3)
    J[5] = J[4] + 1e-5 * rng.normal(size=m + 2) * (J[4] != 0)
    dense = J @ J.T
    band = np.zeros((m, bw + 1))
    for i in range(m):
        for k in range(min(i, bw) + 1):
            band[i, k] = dense[i, i - k]
    return band


@pytest.mark.parametrize("deciding", ["given", "changes", "confirms"])
def test_numpy_band_cholesky_and_solve_match_the_loop_kernels(deciding):
    """Kept set given; decided with a change (row 2 dropped so far comes back: the loop's
    case); decided again with no change (the NumPy check of the decision so far)."""
    band = _dependent_band()
    m, bw = band.shape[0], band.shape[1] - 1
    keep = np.ones(m, dtype=np.int64)
    if deciding == "given":
        keep[5] = 0
    elif deciding == "changes":
        keep[2] = 2  # dropped so far: comes back (independent of the rows before it)
    else:
        keep[5] = 2  # dropped so far: stays dropped (row 5 = row 4)
    limits = (1e-8, 1e-6) if deciding != "given" else (-1.0, -1.0)
    _, (factor, _, keep_out, ratio, *_limits) = _compare(
        schur.band_cholesky, schur._band_cholesky_numpy, band, bw, keep, np.zeros(m), *limits
    )
    assert keep_out[5] == 0 and ratio[5] < 1e-8 and keep_out.sum() == m - 1  # deciding drops the redundant row
    if deciding == "confirms":
        assert ratio[5] != 0.0  # a dropped row's ratio is its sine to the kept rows, as in the loop
    assert keep_out[2] == 1
    rhs = np.random.default_rng(5).normal(size=m)
    _compare(schur.band_solve, schur._band_solve_numpy, factor, bw, rhs)
    x = rhs.copy()
    schur._band_solve_numpy(factor, bw, x)
    lower = np.zeros((m, m))
    for i in range(m):
        for k in range(min(i, bw) + 1):
            lower[i, i - k] = factor[i, k]
    np.testing.assert_allclose(lower @ (lower.T @ x), rhs, rtol=1e-12, atol=1e-12)  # L L^T x = b


def test_numpy_schur_matches_the_loop_kernel():
    model = _example("ankle")
    from MBDWorkbench.solver.system.system import System

    system = System(model)
    S, W = system.static, system.work
    kernels.fast_call(kernels.update_rotations, S, system.Y0, W.A)
    kernels.fast_call(kernels.constraints, 0.0, system.Y0, S, W)
    args = (W.jac, S.minv, S.pair_r, S.pair_s, S.pair_body, S.pair_side_r, S.pair_side_s, S.perm)
    loop, vectorised = np.full_like(W.band, 5.0), np.full_like(W.band, 5.0)
    schur._schur(loop, *args)
    schur._schur_numpy(vectorised, *args)
    assert np.abs(loop).max() > 0.0
    np.testing.assert_allclose(vectorised, loop, rtol=1e-13, atol=1e-13 * np.abs(loop).max())


def test_cache_probe_sees_compiled_kernels():
    simulate(_example("pendulum"), t_end=0.002, output_step=0.001)  # rk4: run_fixed compiled here
    assert cold_start.is_cached(METHODS["rk4"].entry_kernel)


def test_environment_overrides_the_callers_choice(monkeypatch):
    monkeypatch.setenv(cold_start.MODE_ENV, "compile")
    assert not cold_start.enabled(True)
    monkeypatch.setenv(cold_start.MODE_ENV, "interpret")
    assert cold_start.enabled(False)
    monkeypatch.delenv(cold_start.MODE_ENV)
    assert cold_start.enabled(True) and not cold_start.enabled(False)


def _cli(args, cache_home, mode=None):
    env = dict(os.environ, XDG_CACHE_HOME=cache_home, PYTHONPATH=ROOT)
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop(cold_start.MODE_ENV, None)
    if mode:
        env[cold_start.MODE_ENV] = mode
    return subprocess.run(
        [sys.executable, "-m", "MBDWorkbench", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


_PROBE = """
import json, sys
from MBDWorkbench.solver.numerics import cold_start
from MBDWorkbench.solver.integrators import METHODS
print(json.dumps(cold_start.is_cached(METHODS[sys.argv[1]].entry_kernel)))
"""


def _cached_on_disk(cache_home: str, integrator: str) -> bool:
    env = dict(os.environ, XDG_CACHE_HOME=cache_home, PYTHONPATH=ROOT)
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", _PROBE, integrator], cwd=ROOT, env=env, capture_output=True, text=True)
    return json.loads(out.stdout)


def _bodies(folder: str) -> np.ndarray:
    return np.genfromtxt(os.path.join(folder, "bodies.csv"), delimiter=",", skip_header=1)


def test_command_line_on_an_empty_cache_runs_interpreted_and_fills_the_cache(tmp_path):
    """End to end: the first run compiles nothing itself (its background process does, which
    takes far longer than this run), the cache is filled for the next run, and both runs write
    the same results."""
    cache = str(tmp_path / "cache")
    args = ["simulate", "examples/slider_crank.json", "--t-end", "0.1", "--step", "1e-3", "--quiet"]
    first = _cli(args + ["--out", str(tmp_path / "first")], cache)
    assert first.returncode == 0, first.stderr
    assert "status: completed" in first.stdout
    assert not _cached_on_disk(cache, "rk4")  # a run that compiled would have filled the cache
    deadline = time.time() + 900
    while not _cached_on_disk(cache, "rk4") and time.time() < deadline:
        time.sleep(5)
    assert _cached_on_disk(cache, "rk4")
    second = _cli(args + ["--out", str(tmp_path / "second")], cache)
    assert second.returncode == 0, second.stderr
    a, b = _bodies(str(tmp_path / "first")), _bodies(str(tmp_path / "second"))
    assert a.shape == b.shape and np.abs(a - b).max() <= 1e-9 * max(1.0, np.abs(b).max())


def test_numpy_multiplier_kernels_match_the_loop_kernels():
    """J acc and M^-1 J^T lam on the ankle (closed loops, ground rows)."""
    from MBDWorkbench.solver.system.system import System

    system = System(_example("ankle"))
    S, W = system.static, system.work
    Y = system.Y0.copy()
    Y[7 * S.nb :] = np.random.default_rng(1).normal(size=6 * S.nb)  # velocities: gamma and rates not 0
    kernels.fast_call(kernels.update_rotations, S, Y, W.A)
    kernels.fast_call(kernels.constraints, 0.0, Y, S, W)
    m = S.row_kind.shape[0]
    assert (S.row_bi < 0).any() or (S.row_bj < 0).any()  # rows on the ground are covered
    acc = np.random.default_rng(2).normal(size=6 * S.nb)
    _compare(schur._jacobian_times, schur._jacobian_times_numpy, S.nb, W.jac, S.row_bi, S.row_bj, acc, np.zeros(m))
    lam = np.random.default_rng(4).normal(size=m)
    acc_args = (S.nb, S.row_bi, S.row_bj, W.jac, S.minv, lam, np.full(6 * S.nb, 7.0))
    _compare(schur.constraint_acc, schur._constraint_acc_numpy, *acc_args)


def test_background_processes_on_one_cache_compile_once(tmp_path):
    """Two runs on a cold cache start two fill processes; they take turns on the cache's lock, and
    the second finds the kernels compiled (no compile events of its own)."""
    cache = str(tmp_path / "cache")
    model = str(tmp_path / "m{}.json")
    _example("pendulum").save(model.format(0))
    _example("pendulum").save(model.format(1))
    env = dict(os.environ, XDG_CACHE_HOME=cache, PYTHONPATH=ROOT)
    env.pop("NUMBA_CACHE_DIR", None)
    env[cold_start.MODE_ENV] = "compile"
    count = (
        "import sys, runpy; from numba.core import event; n = []\n"
        "event.register('numba:compile', type('L', (event.Listener,), "
        "{'on_start': lambda s, e: n.append(1), 'on_end': lambda s, e: None})())\n"
        "sys.argv = ['fill_cache'] + sys.argv[1:]\n"
        "try:\n    runpy.run_module('MBDWorkbench.solver.fill_cache', run_name='__main__')\n"
        "finally:\n    print('COMPILES', len(n))\n"
    )
    os.makedirs(os.path.join(tmp_path, "a"))
    os.makedirs(os.path.join(tmp_path, "b"))
    paths = [os.path.join(tmp_path, d, "model.json") for d in "ab"]
    for k, p in enumerate(paths):
        os.replace(model.format(k), p)
    procs = [
        subprocess.Popen([sys.executable, "-c", count, p, "rk4"], env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        for p in paths
    ]
    outs = [p.communicate(timeout=900)[0] for p in procs]
    counts = sorted(int(o.split("COMPILES")[-1]) for o in outs)
    assert all(p.returncode == 0 for p in procs), outs
    assert counts[0] == 0 and counts[1] > 10, counts  # one compiled everything, the other nothing
    assert not any(os.path.exists(p) for p in paths)  # model files removed
    assert _cached_on_disk(cache, "rk4")
