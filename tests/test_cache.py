"""The Numba cache folder is keyed by every solver source, subfolders included."""

import os

from MBDWorkbench.solver._cache import source_digest


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
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
