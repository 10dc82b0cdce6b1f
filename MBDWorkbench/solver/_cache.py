"""Point Numba's on-disk cache at a folder keyed by a hash of the solver's sources
(every ``.py`` file under ``solver/``, subfolders included).

Numba's cache does not notice edits to a function's callees in other files; keying the
folder by the sources makes every edit start from a clean cache, and keeps compiled files
out of the package folder (which may be read-only). Override with NUMBA_CACHE_DIR."""

from __future__ import annotations

import hashlib
import os


def source_digest(root: str) -> str:
    """SHA-1 of the relative paths and contents of every .py file under ``root``."""
    digest = hashlib.sha1()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                digest.update(os.path.relpath(path, root).encode() + f.read())
    return digest.hexdigest()


def configure() -> None:
    """Set numba.config.CACHE_DIR unless the user chose one."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    here = os.path.dirname(os.path.abspath(__file__))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "mbdworkbench", "numba-" + source_digest(here)[:16])
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return
    import numba

    numba.config.CACHE_DIR = folder
