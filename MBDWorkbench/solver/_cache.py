"""Point Numba's on-disk cache at a folder keyed by a hash of the solver's sources.

Numba's cache does not notice edits to a function's callees in other files; keying the
folder by the sources makes every edit start from a clean cache, and keeps compiled files
out of the package folder (which may be read-only). Override with NUMBA_CACHE_DIR."""
import hashlib
import os


def configure():
    """Set numba.config.CACHE_DIR unless the user chose one."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    here = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha1()
    for name in sorted(os.listdir(here)):
        if name.endswith(".py"):
            with open(os.path.join(here, name), "rb") as f:
                digest.update(name.encode() + f.read())
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "mbdworkbench", "numba-" + digest.hexdigest()[:16])
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return
    import numba
    numba.config.CACHE_DIR = folder
