"""The git-ignored benchmark venv (.venv-bench, with the system site packages so that numpy,
scipy and numba are the system ones) where the peers (Exudyn, MuJoCo) are installed from PyPI."""

import importlib
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv-bench")


def ensure_modules(pins: dict[str, str], script: str, venv: str = VENV, pip_args: tuple[str, ...] = ()) -> None:
    """Return if every module of ``pins`` ({module: pip requirement}) imports; else install the
    requirements into ``venv`` (default .venv-bench; ``pip_args`` such as a constraints file go to
    pip) and re-execute ``script`` (with this process's arguments) there."""
    try:
        for module in pins:
            importlib.import_module(module)
        return
    except ImportError:
        pass
    if os.environ.get("MBD_BENCH_REEXEC"):
        raise SystemExit(f"{', '.join(pins)} not importable even in {venv}")
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        subprocess.check_call([sys.executable, "-m", "venv", "--system-site-packages", venv])
    subprocess.check_call([py, "-m", "pip", "install", "--quiet", *pip_args, *pins.values()])
    os.environ["MBD_BENCH_REEXEC"] = "1"
    os.execv(py, [py, os.path.abspath(script)] + sys.argv[1:])
