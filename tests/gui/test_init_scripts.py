"""Init.py finds the repository the way FreeCAD runs it (exec of its text, no __file__).

FreeCAD 0.20 runs ``exec(f.read())`` inside a function whose locals hold ``Dir`` and
``InstallFile``; FreeCAD 1.x runs ``exec(compile(text, path, "exec"))`` inside a method. The
code is checked in a fresh interpreter whose sys.path does not hold the repository.
"""

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import REPO  # noqa: E402

PKG = REPO / "MBDWorkbench"

LOADERS = {
    "freecad-0.20": """
        def RunInitPy(Dir):
            InstallFile = os.path.join(Dir, "Init.py")
            with open(file=InstallFile, encoding="utf-8") as f:
                exec(f.read())
        RunInitPy(MOD)
    """,
    "freecad-1.x": """
        class Mod:
            def __init__(self, path):
                self.path = path
            def run_init(self):
                init_py = os.path.join(self.path, "Init.py")
                with open(init_py, encoding="utf-8") as f:
                    code = compile(f.read(), init_py, "exec")
                exec(code)
        Mod(MOD).run_init()
    """,
    "no-hints-but-sys.path": """
        sys.path.insert(0, MOD)  # FreeCAD puts every Mod folder on sys.path
        def run(text):
            exec(text)
        run(open(os.path.join(MOD, "Init.py")).read())
    """,
}


@pytest.mark.parametrize("layout", ["root", "package"])
@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_init_py_puts_the_repository_on_sys_path(tmp_path, loader, layout):
    mod = tmp_path / "Mod" / "MultibodyDynamics"
    mod.parent.mkdir()
    mod.symlink_to(REPO if layout == "root" else PKG)
    # with the root layout FreeCAD runs Init.py from the subdirectory named in package.xml
    init_dir = mod / "MBDWorkbench" if layout == "root" else mod
    script = (
        "import os, sys\nMOD = %r\n" % str(init_dir)
        + textwrap.dedent(LOADERS[loader])
        + textwrap.dedent(
            """
        import MBDWorkbench
        print(os.path.realpath(MBDWorkbench.__file__))
        """
        )
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FREECAD_USER_HOME")}
    env["FREECAD_USER_HOME"] = str(tmp_path / "empty-home")
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=str(tmp_path), env=env, check=True, stdout=subprocess.PIPE, text=True
    ).stdout
    assert out.strip().splitlines()[-1] == os.path.realpath(PKG / "__init__.py")


def _function_source(path, name):
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.dump(node)
    raise AssertionError("%s not in %s" % (name, path))


def test_init_and_initgui_share_the_same_finder():
    """The finder is duplicated (nothing can be imported before it ran): keep both equal."""
    assert _function_source(PKG / "Init.py", "_mbd_find_root") == _function_source(PKG / "InitGui.py", "_mbd_find_root")
