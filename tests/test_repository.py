"""Repository-wide rules: no import circle in the package, docs tables derived from the catalogue."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(script, *args):
    return subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", script), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_package_has_no_import_cycle():
    proc = _run("import_cycles.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 import cycle" in proc.stdout


def test_docs_catalogue_tables_are_current():
    proc = _run("catalog_docs.py", "--check")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_docs_name_every_force_and_driver_type():
    from MBDWorkbench.solver.model.catalog import DRIVER_TYPES, FORCE_TYPES

    with open(os.path.join(ROOT, "docs", "model-format.md")) as f:
        text = f.read()
    missing = [name for name in (*FORCE_TYPES, *DRIVER_TYPES) if f"`{name}`" not in text and f'"{name}"' not in text]
    assert not missing, f"docs/model-format.md does not describe {missing}"
