"""Shared fixtures of the headless FreeCAD tests."""

import shutil
import sys

import pytest

from MBDWorkbench.cad.freecad_env import FreeCADNotFoundError, import_freecad


@pytest.fixture(scope="module")
def App():
    """FreeCAD's App module (the tests skip, saying why, where FreeCAD is absent)."""
    try:
        return import_freecad()
    except FreeCADNotFoundError as exc:
        pytest.skip("FreeCAD is not available to %s: %s" % (sys.executable, exc))


@pytest.fixture(scope="module")
def JointObject(App):
    """The Assembly workbench's joint module (skip, saying why, where it is missing)."""
    try:
        import JointObject
        import UtilsAssembly  # noqa: F401
    except ImportError as exc:
        pytest.skip("FreeCAD %s has no Assembly workbench (needs 1.0+): %s" % (".".join(App.Version()[:2]), exc))
    return JointObject


@pytest.fixture
def doc(App, request):
    """A new document, closed after the test."""
    d = App.newDocument(request.module.__name__.split(".")[-1])
    yield d
    App.closeDocument(d.Name)


# Where the FEM tests' tools come from (Debian packages); checked by tools/test_freecad10_chroot.sh's
# author on 2026-12-05: Debian 12 "bookworm" main has calculix-ccx 2.20-1; Debian 13 "trixie" main
# (index of 2026-11-21) has no calculix-ccx binary package, only calculix-ccx-test 2.22-1 (arch all,
# its example files, which Recommends calculix-ccx): on FreeCAD 1.0 in the trixie chroot the CalculiX
# runs skip.
FEM_TOOLS = {
    "gmsh": "gmsh is not installed (Debian package gmsh)",
    "ccx": "ccx (CalculiX) is not installed (Debian package calculix-ccx: in Debian 12 bookworm; Debian 13 trixie "
    "main has no calculix-ccx package, only calculix-ccx-test, so the CalculiX runs skip in the FreeCAD 1.0 chroot)",
}


def skip_without_fem(tools: tuple) -> None:
    """Skip, saying why, without FreeCAD's FEM module or one of ``tools`` (keys of FEM_TOOLS)."""
    try:
        import ObjectsFem  # noqa: F401
        from femtools import ccxtools  # noqa: F401
    except ImportError as exc:
        pytest.skip("FreeCAD's FEM module is not available: %s" % exc)
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.skip(FEM_TOOLS[tool])


@pytest.fixture(scope="module")
def fem(App):
    """FreeCAD's App with its FEM module, Gmsh and CalculiX (skip, saying which is missing)."""
    skip_without_fem(("ccx", "gmsh"))
    return App


@pytest.fixture(scope="module")
def fem_mesher(App):
    """FreeCAD's App with its FEM module and Gmsh (no CalculiX run: also in the FreeCAD 1.0 chroot)."""
    skip_without_fem(("gmsh",))
    return App
