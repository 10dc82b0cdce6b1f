"""Finding FreeCAD's library folder and importing FreeCAD from a plain interpreter."""

import os
import subprocess
import sys

import pytest

from MBDWorkbench.cad import freecad_env
from MBDWorkbench.cad.freecad_env import FreeCADNotFoundError, find_freecad_lib

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _lib_or_skip():
    try:
        return find_freecad_lib()
    except FreeCADNotFoundError as exc:
        pytest.skip("FreeCAD is not installed: %s" % exc)


def test_parses_dpkg_listings():
    dpkg_s = (
        "libfreecad-python3-0.20: /usr/lib/freecad-python3/lib/FreeCAD.so\n"
        "diversion by foo from: /usr/lib/x/FreeCAD.so.orig\n"
        "pkg-a, pkg-b: /opt/fc/lib/FreeCAD.so\n"
    )
    assert freecad_env._module_dirs_from_listing(dpkg_s) == ["/usr/lib/freecad-python3/lib", "/opt/fc/lib"]
    dpkg_l = "/.\n/usr\n/usr/lib/freecad-python3/lib\n/usr/lib/freecad-python3/lib/FreeCAD.so\n"
    assert freecad_env._module_dirs_from_listing(dpkg_l) == ["/usr/lib/freecad-python3/lib"]


def test_found_folder_holds_the_module():
    lib = _lib_or_skip()
    assert os.path.isabs(lib)
    assert any(os.path.isfile(os.path.join(lib, n)) for n in ("FreeCAD.so", "FreeCAD.pyd", "FreeCAD.dylib"))
    assert lib in freecad_env.freecad_lib_candidates() or os.environ.get("FREECAD_LIB")


def test_env_override(monkeypatch, tmp_path):
    lib = _lib_or_skip()
    monkeypatch.setenv("FREECAD_LIB", lib)
    assert find_freecad_lib() == os.path.realpath(lib)
    monkeypatch.setenv("FREECAD_LIB", str(tmp_path))  # exists, but no FreeCAD.so: an error
    with pytest.raises(FreeCADNotFoundError, match="FREECAD_LIB"):
        find_freecad_lib()


def test_not_found_message(monkeypatch):
    monkeypatch.delenv("FREECAD_LIB", raising=False)
    monkeypatch.setattr(freecad_env, "freecad_lib_candidates", lambda: [])
    with pytest.raises(FreeCADNotFoundError, match="FREECAD_LIB"):
        find_freecad_lib()


def test_import_freecad_in_a_fresh_interpreter():
    _lib_or_skip()
    try:
        freecad_env.import_freecad()
    except FreeCADNotFoundError as exc:
        pytest.skip("FreeCAD does not load in this interpreter: %s" % exc)
    code = (
        "import sys\n"
        "from MBDWorkbench.cad.freecad_env import import_freecad\n"
        "App = import_freecad()\n"
        "import Part, PartDesign\n"
        "assert import_freecad() is App\n"
        "print(App.Version()[0] + '.' + App.Version()[1], Part.makeBox(1, 2, 3).Volume)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True, stdout=subprocess.PIPE, text=True).stdout
    assert out.strip().split()[-1] == "6.0"


def test_freecad_pyside_shim_importable_headless():
    """FreeCAD's Ext folder (its ``PySide`` shim, beside ``Mod``) is put on sys.path: FreeCAD
    1.0's Assembly module does ``from PySide import QtCore`` even headless."""
    _lib_or_skip()
    mod_dir = freecad_env.find_freecad_mod_dir()
    if mod_dir is None or not os.path.isdir(os.path.join(os.path.dirname(mod_dir), "Ext", "PySide")):
        pytest.skip("no FreeCAD Ext/PySide folder beside %s" % mod_dir)
    code = (
        "from MBDWorkbench.cad.freecad_env import import_freecad\n"
        "import_freecad()\n"
        "from PySide import QtCore\n"
        "print(QtCore.__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True, stdout=subprocess.PIPE, text=True).stdout
    assert out.strip().split()[-1].endswith("QtCore")
