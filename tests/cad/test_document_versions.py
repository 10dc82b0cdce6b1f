"""Documents saved by another version or another addon (issue 36), built with FreeCAD's own API
headless and read through the command line: an Integrator value this version does not know, and
proxies whose module cannot be imported, are refused (exit 2) naming the object, the property or
the module, never run as a silently different model (euler) nor an internal error (exit 70)."""

import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "examples"))


def run_cli(*args, cwd):
    env = dict(os.environ, PYTHONPATH=REPO)
    cmd = [sys.executable, "-m", "MBDWorkbench", "simulate", *args, "--quiet"]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def pendulum_doc(App):
    """The bar pendulum of examples/make_pendulum_fcstd.py in a new document: (doc, simulation)."""
    import make_pendulum_fcstd

    d = App.newDocument("VersionsTest")
    sim = make_pendulum_fcstd.build(d, angle_deg=30.0)[0]
    yield d, sim
    App.closeDocument(d.Name)


def test_unknown_integrator_is_refused_naming_it_and_the_valid_values(pendulum_doc, tmp_path):
    """A newer version's integrator (added to the enumeration and chosen, then saved) used to run
    as euler: FreeCAD's restore puts this version's list back and keeps the index."""
    from MBDWorkbench.solver.model.catalog import INTEGRATOR_TYPES

    doc, sim = pendulum_doc
    sim.Integrator = list(sim.getEnumerationsOfProperty("Integrator")) + ["rk8_newer"]
    sim.Integrator = "rk8_newer"
    doc.saveAs(str(tmp_path / "newer.FCStd"))
    out = run_cli("newer.FCStd", "--t-end", "0.01", cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "simulation 'Simulation': Integrator has the value 'rk8_newer'" in out.stderr
    assert "valid values: " + ", ".join(INTEGRATOR_TYPES) in out.stderr
    assert "status:" not in out.stdout and not (tmp_path / "newer_results").exists()


PROXY_SOURCE = '''
class SimulationProxy:
    """A proxy of another addon (or of an older version of the workbench)."""

    def __init__(self, obj):
        obj.Proxy = self

    def dumps(self):
        return None

    def loads(self, state):
        return None

    __getstate__, __setstate__ = dumps, loads
'''


def test_proxy_module_that_cannot_be_imported_is_refused_naming_it(pendulum_doc, tmp_path):
    """The simulation's proxy saved from a module the CLI cannot import: it used to end in an
    internal error (exit 70, the restored object lacks the properties its proxy adds)."""
    doc, sim = pendulum_doc
    addon = tmp_path / "addon"
    addon.mkdir()
    (addon / "other_addon_objects.py").write_text(PROXY_SOURCE)
    sys.path.insert(0, str(addon))
    try:
        import other_addon_objects

        other_addon_objects.SimulationProxy(sim)
        doc.saveAs(str(tmp_path / "other.FCStd"))
    finally:
        sys.path.remove(str(addon))
        sys.modules.pop("other_addon_objects", None)
    out = run_cli("other.FCStd", cwd=tmp_path)  # a fresh process: the module is not on its path
    assert out.returncode == 2, out.stdout + out.stderr
    assert "simulation 'Simulation': its proxy module 'other_addon_objects'" in out.stderr
    assert "cannot be imported" in out.stderr and "internal error" not in out.stderr
    assert "body '" not in out.stderr  # the objects whose proxies load are not named


def test_document_already_open_with_a_missing_proxy_is_refused(App, tmp_path):
    """A document FreeCAD has already opened (the GUI) is not checked as a file: its objects
    restored without a proxy (Proxy None) are named instead of failing on a missing property."""
    import zipfile

    from MBDWorkbench.cad.document_model import model_from_document_file
    from MBDWorkbench.solver import ModelError

    src, path = os.path.join(REPO, "examples", "pendulum.FCStd"), tmp_path / "old.FCStd"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "Document.xml":
                data = data.replace(b'module="MBDWorkbench.cad.objects"', b'module="mbd_old_version.objects"')
            zout.writestr(info, data)
    doc = App.openDocument(str(path))
    try:
        with pytest.raises(ModelError) as e:
            model_from_document_file(str(path))
    finally:
        App.closeDocument(doc.Name)
    msg = str(e.value)
    assert "simulation 'Simulation': its proxy could not be loaded" in msg and "joint 'Pivot'" in msg
