"""tools/install_workbench.py: idempotent linking into a Mod folder, and uninstalling."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import INSTALLER, REPO, installer_command, isolated_env  # noqa: E402


def _run(*args, env=None, prefix=None):
    prefix = prefix or [sys.executable, str(INSTALLER)]
    proc = subprocess.run(
        prefix + list(args), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120
    )
    return proc.returncode, proc.stdout


def test_install_is_idempotent_and_uninstalls(tmp_path):
    mod = tmp_path / "Mod"
    link = mod / "MultibodyDynamics"
    code, out = _run("--mod-dir", str(mod))
    assert code == 0 and "installed" in out, out
    assert link.is_symlink() and link.resolve() == REPO.resolve()
    code, out = _run("--mod-dir", str(mod))
    assert code == 0 and "already installed" in out, out
    code, out = _run("--mod-dir", str(mod), "--layout", "package")
    assert code == 0 and "replaced" in out, out
    assert link.resolve() == (REPO / "MBDWorkbench").resolve()
    code, out = _run("--mod-dir", str(mod), "--uninstall")
    assert code == 0 and "removed" in out, out
    assert not os.path.lexists(link)
    code, out = _run("--mod-dir", str(mod), "--uninstall")
    assert code == 0 and "nothing to uninstall" in out, out


def test_refuses_to_replace_what_is_not_ours(tmp_path):
    mod = tmp_path / "Mod"
    (mod / "MultibodyDynamics").mkdir(parents=True)
    code, out = _run("--mod-dir", str(mod))
    assert code == 1 and "refused" in out, out
    other = tmp_path / "elsewhere"
    other.mkdir()
    (mod / "Other").symlink_to(other)
    code, out = _run("--mod-dir", str(mod), "--name", "Other")
    assert code == 1 and "refused" in out, out
    code, out = _run("--mod-dir", str(mod), "--name", "Other", "--uninstall")
    assert code == 1 and "refused" in out, out
    assert (mod / "Other").resolve() == other.resolve()


def test_asks_freecad_for_the_user_folder(tmp_path):
    try:
        from MBDWorkbench.cad.freecad_env import find_freecad_lib

        find_freecad_lib()
    except ImportError as exc:
        pytest.skip("FreeCAD not installed: %s" % exc)
    home = tmp_path / "fc-home"
    home.mkdir()
    code, out = _run(env=isolated_env(home), prefix=installer_command())
    assert code == 0, out
    assert "FreeCAD user Mod folder: %s" % (home / "Mod") in out, out
    assert (home / "Mod" / "MultibodyDynamics").is_symlink()


def test_warm_foreground_without_installing_runs_each_integrator():
    """--warm-foreground --no-install: a short slider-crank run per integrator (compiling the kernels
    into the Numba cache, already filled by the other tests here), nothing installed."""
    code, out = _run("--warm-foreground", "--no-install")
    assert code == 0, out
    assert out.count("status: completed") == 2 and ": rk4, " in out and ": galpha, " in out, out
    assert "installed" not in out and "Mod folder" not in out, out
    code, out = _run("--no-install")
    assert code == 2 and "--no-install goes with --warm-foreground" in out, out
