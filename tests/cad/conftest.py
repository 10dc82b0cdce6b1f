"""Shared fixtures of the headless FreeCAD tests."""

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
