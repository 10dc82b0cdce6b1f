"""The Numba cache folder is keyed by the kernel sources only: the modules that define kernels
or whose functions and constants are compiled into them (solver/_cache.py)."""

import importlib
import inspect
import json
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import textwrap
import types

from numba.core.registry import CPUDispatcher

import MBDWorkbench.solver as solver
from MBDWorkbench.solver import _cache
from MBDWorkbench.solver._cache import kernel_sources, source_digest
from MBDWorkbench.solver.numerics import jit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLVER = os.path.dirname(os.path.abspath(solver.__file__))


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))


def _append(path, text="\n# an edit\n"):
    with open(path, "a") as f:
        f.write(text)


def test_digest_changes_with_a_source_in_a_subfolder(tmp_path):
    root = str(tmp_path)
    _write(os.path.join(root, "kernels.py"), "x = 1\n")
    _write(os.path.join(root, "integrators", "cros.py"), "y = 1\n")
    before = source_digest(root)
    assert source_digest(root) == before
    _write(os.path.join(root, "integrators", "cros.py"), "y = 2\n")
    assert source_digest(root) != before


def test_digest_ignores_non_python_files(tmp_path):
    root = str(tmp_path)
    _write(os.path.join(root, "kernels.py"), "x = 1\n")
    before = source_digest(root)
    _write(os.path.join(root, "__pycache__", "kernels.nbi"), "binary")
    assert source_digest(root) == before


# ----------------------------------------------------------------------------- the scan on a toy package
_TOY = {
    "__init__.py": "",
    "jit.py": "import numba\nnjit = numba.njit\nnjit_python_errors = numba.njit\n",
    "consts.py": "TOL = 1e-6\nUNUSED = 2\n",
    "derived.py": "from .consts import TOL\nTOL2 = TOL * TOL\n",
    "helper.py": "def twice(x):\n    return 2.0 * x\n",
    "schema.py": """\
        from .consts import UNUSED
        from .parts.k import scaled


        def parse(text):
            return scaled(float(text))
        """,
    "parts/__init__.py": "",
    "parts/k.py": """\
        from .. import consts
        from ..derived import TOL2
        from ..jit import njit_python_errors as kernel


        def _scaled_py(x):
            from ..schema import parse  # the interpreted twin: not compiled
            return parse(x)


        @kernel(cache=True, interpreted=_scaled_py)
        def scaled(x):
            return x * consts.TOL + TOL2
        """,
    "parts/wrapped.py": """\
        from ..helper import twice
        from ..jit import njit

        twice_kernel = njit(cache=True)(twice)
        """,
}


def _toy(root, files=_TOY):
    for rel, text in files.items():
        _write(os.path.join(root, rel), text)
    return root


def test_scan_finds_kernels_and_what_they_read(tmp_path):
    """Kernel modules, the decorators' module, a constant read through a module, a derived
    constant and its source, a plain function wrapped by njit elsewhere; not the module that
    only imports a kernel, nor what an interpreted twin reads."""
    found = kernel_sources(_toy(str(tmp_path / "toy")))
    expected = ["consts.py", "derived.py", "helper.py", "jit.py", "parts/k.py", "parts/wrapped.py"]
    assert [f.replace(os.sep, "/") for f in found] == expected


def test_scan_follows_moved_files(tmp_path):
    """The same toy package with its files in other folders (imports adjusted): the same modules."""
    moved = dict(_TOY)
    moved["kernels/__init__.py"] = ""
    moved["kernels/deep/__init__.py"] = ""
    moved["kernels/deep/k.py"] = moved.pop("parts/k.py").replace("from ..", "from ...")
    moved["schema.py"] = moved["schema.py"].replace(".parts.k", ".kernels.deep.k")
    moved["model/__init__.py"] = ""
    moved["model/consts.py"] = moved.pop("consts.py")
    moved["derived.py"] = moved["derived.py"].replace(".consts", ".model.consts")
    moved["kernels/deep/k.py"] = moved["kernels/deep/k.py"].replace(
        "from ... import consts", "from ...model import consts"
    )
    found = [f.replace(os.sep, "/") for f in kernel_sources(_toy(str(tmp_path / "moved"), moved))]
    assert found == ["derived.py", "helper.py", "jit.py", "kernels/deep/k.py", "model/consts.py", "parts/wrapped.py"]


def test_scan_follows_star_imports(tmp_path):
    files = dict(_TOY)
    files["parts/__init__.py"] = "from ..consts import *\n"
    files["parts/k.py"] = files["parts/k.py"].replace("from .. import consts", "from .. import parts as consts")
    found = [f.replace(os.sep, "/") for f in kernel_sources(_toy(str(tmp_path / "star"), files))]
    assert found == [
        "consts.py",
        "derived.py",
        "helper.py",
        "jit.py",
        "parts/__init__.py",
        "parts/k.py",
        "parts/wrapped.py",
    ]


# ----------------------------------------------------------------------------- the solver's key
def _copy_solver(tmp_path):
    """A copy of the package (MBDWorkbench/__init__.py and solver/) under tmp_path; its solver folder."""
    package = tmp_path / "pkg" / "MBDWorkbench"
    shutil.copytree(SOLVER, package / "solver", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(os.path.dirname(SOLVER), "__init__.py"), package / "__init__.py")
    return str(package / "solver")


def _key(root):
    return source_digest(root, kernel_sources(root))


def _defining(name):
    """The solver module that defines the top-level ``name`` (found wherever files move)."""
    pattern = re.compile(rf"^({re.escape(name)}\s*(:[^=\n]*)?=|(def|class) {re.escape(name)}\b)", re.M)
    hits = [m for m in _solver_modules().values() if pattern.search(inspect.getsource(m))]
    assert len(hits) == 1, (name, hits)
    return hits[0]


def _relpath(name):
    """Path under solver/ of the module defining ``name``."""
    return os.path.relpath(inspect.getsourcefile(_defining(name)), SOLVER)


NON_KERNEL = ("JOINTS", "Model", "simulate", "SciPyStepper", "write_results")  # catalogue, schema, ...
KERNEL = (
    "cross",
    "point_kinematics",
    "derivatives",
    "KERNELS",
    "ODE_RANK_TOL",
)  # vec3, joints, kernels, jit, tolerances


def test_key_kept_by_non_kernel_edits_and_changed_by_kernel_edits(tmp_path):
    root = _copy_solver(tmp_path)
    key = _key(root)
    for name in NON_KERNEL:
        _append(os.path.join(root, _relpath(name)))
        assert _key(root) == key, name
    for name in KERNEL:
        _append(os.path.join(root, _relpath(name)))
        changed = _key(root)
        assert changed != key, name
        key = changed


def test_cache_key_remembers_the_scan_per_source_state(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = _copy_solver(tmp_path)
    key = _cache.cache_key(root)
    assert key == _key(root)
    notes = os.listdir(tmp_path / "cache" / "mbdworkbench")
    assert _cache.cache_key(root) == key and os.listdir(tmp_path / "cache" / "mbdworkbench") == notes
    _append(os.path.join(root, _relpath("JOINTS")))
    assert _cache.cache_key(root) == key  # a new note (other sources), the same kernel sources
    assert len(os.listdir(tmp_path / "cache" / "mbdworkbench")) == len(notes) + 1
    _append(os.path.join(root, _relpath("cross")))
    assert _cache.cache_key(root) != key


# ----------------------------------------------------------------------------- checked against the imported kernels
def _code_names(code) -> set:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _solver_modules() -> dict:
    for info in pkgutil.walk_packages(solver.__path__, solver.__name__ + "."):
        importlib.import_module(info.name)
    return {n: m for n, m in sys.modules.items() if m is not None and n.startswith(solver.__name__)}


def _defining_files(value, name, modules) -> set:
    """Solver files that define what a kernel reads: a kernel's or function's or class's module,
    a module itself, or for a constant every module that assigns it at top level."""
    if isinstance(value, CPUDispatcher):
        value = value.py_func
    if isinstance(value, types.ModuleType):
        return {inspect.getsourcefile(value)} if value.__name__.startswith(solver.__name__) else set()
    if isinstance(value, (types.FunctionType, type)):
        module = modules.get(getattr(value, "__module__", ""))
        return {inspect.getsourcefile(module)} if module else set()
    assigns = re.compile(rf"^{re.escape(name)}\s*(:[^=\n]*)?=", re.M)
    return {
        inspect.getsourcefile(m)
        for m in modules.values()
        if m.__dict__.get(name) is value and assigns.search(inspect.getsource(m))
    }


def _files_kernels_read() -> dict:
    """{solver file: [kernels]} of every file that defines a kernel or something a kernel reads
    (a global name of its code, or an attribute of a module it reads), from the imported kernels."""
    modules = _solver_modules()
    needed: dict = {}
    for kernel in jit.KERNELS:
        func = kernel.py_func
        if not func.__module__.startswith(solver.__name__ + "."):
            continue  # a kernel defined by a test module (tests/test_cold_start.py), collected with the suite
        names = _code_names(func.__code__)
        reads = [(n, func.__globals__[n]) for n in names if n in func.__globals__]
        for _, value in list(reads):
            if isinstance(value, types.ModuleType):
                reads += [(a, getattr(value, a)) for a in names if a in value.__dict__]
        for path in {inspect.getsourcefile(func)}.union(*(_defining_files(v, n, modules) for n, v in reads)):
            needed.setdefault(os.path.relpath(path, SOLVER), []).append(func.__name__)
    return needed


def _missing(sources) -> dict:
    return {f: k[:3] for f, k in _files_kernels_read().items() if f not in sources}


def test_scan_covers_every_kernel_and_everything_kernels_read():
    """After import: each module of jit.KERNELS, and each module defining a kernel, function,
    class or constant that a kernel reads, is a kernel source (tolerances.py for its constants)."""
    sources = set(kernel_sources(SOLVER))
    solver_kernel_modules = [m for m in jit._kernel_modules if m.startswith(solver.__name__ + ".")]  # not tests'
    assert {os.path.relpath(inspect.getsourcefile(sys.modules[m]), SOLVER) for m in solver_kernel_modules} <= sources
    assert _missing(sources) == {}
    assert _relpath("ODE_RANK_TOL") in _files_kernels_read()
    left_out = {_relpath("ODE_RANK_TOL"), _relpath("cross")}  # tolerances.py, vec3.py, wherever they live
    assert set(_missing(sources - left_out)) == left_out


def test_the_key_covers_the_whole_solver_package():
    assert _cache.solver_root() == SOLVER


def test_catalogue_and_schema_are_not_kernel_sources():
    sources = set(kernel_sources(SOLVER))
    assert not sources & {_relpath(name) for name in NON_KERNEL + ("System",)}
    assert {_relpath(name) for name in KERNEL} <= sources


# ----------------------------------------------------------------------------- end to end
_PROBE = """
import json
import numpy as np
import numba
import importlib, sys
joints = importlib.import_module(sys.argv[1])
p = joints.point_kinematics(np.eye(3)[None], (0, (1.0, 2.0, 3.0), (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)), (1.0, 0.0, 0.0))
stats = joints.point_kinematics.stats
hits, misses = sum(stats.cache_hits.values()), sum(stats.cache_misses.values())
print(json.dumps(dict(p=p[0], file=joints.__file__, hits=hits, misses=misses, folder=numba.config.CACHE_DIR)))
"""


def _probe(root, cache_home):
    env = dict(os.environ, XDG_CACHE_HOME=cache_home, PYTHONPATH=os.path.dirname(os.path.dirname(root)))
    env.pop("NUMBA_CACHE_DIR", None)
    module = _defining("point_kinematics").__name__
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, module], cwd=root, env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found["file"].startswith(root)  # the copy, not the package under test
    return found


def test_a_non_kernel_edit_loads_compiled_kernels_a_callee_edit_recompiles(tmp_path):
    """joints.point_kinematics (calls vec3's kernels) in a copy of the package: compiled once,
    loaded from the cache after an edit of catalog.py, compiled again after an edit of vec3.py
    (which Numba's own check, on joints.py's time stamp only, would not notice)."""
    root, cache = _copy_solver(tmp_path), str(tmp_path / "cache")
    first = _probe(root, cache)
    assert first["p"] == [2.0, 2.0, 3.0] and first["hits"] == 0 and first["misses"] == 1
    assert first["folder"].startswith(cache)
    _append(os.path.join(root, _relpath("JOINTS")))
    after_catalog = _probe(root, cache)
    assert after_catalog["hits"] == 1 and after_catalog["folder"] == first["folder"]
    _append(os.path.join(root, _relpath("cross")))
    after_vec3 = _probe(root, cache)
    assert after_vec3["hits"] == 0 and after_vec3["misses"] == 1 and after_vec3["folder"] != first["folder"]
