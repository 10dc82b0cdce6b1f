"""Locate FreeCAD's Python library folder and import FreeCAD outside of FreeCAD.

Inside FreeCAD (GUI, ``freecadcmd``) ``FreeCAD`` is already imported and
:func:`import_freecad` just returns it. From a plain Python interpreter (tests, scripts) the
folder holding ``FreeCAD.so`` has to be put on ``sys.path`` first. It is searched, in order:

1. ``$FREECAD_LIB`` (an explicit override; an invalid value is an error, not a fallback);
2. the folder of an already imported ``FreeCAD`` module;
3. the Debian/Ubuntu package database: ``dpkg -S FreeCAD.so``, then ``dpkg -L`` of every
   installed package whose name contains ``freecad``;
4. next to a ``freecadcmd`` / ``FreeCADCmd`` / ``freecad`` executable found on ``PATH``
   (``<bin>/../lib``), and ``$CONDA_PREFIX/lib``;
5. globbing well-known prefixes (``/usr/lib/freecad*/lib``, ``/usr/local/lib/freecad*/lib``,
   ``/opt/freecad*/lib``, snap and macOS bundle locations, ...).

A folder qualifies when it contains ``FreeCAD.so`` (``FreeCAD.pyd`` on Windows). FreeCAD's
binary modules are built for one Python version (Debian 12: Python 3.11, ``/usr/bin/python3``):
importing them from another interpreter fails, and :func:`import_freecad` says so.

Importing this module does not import FreeCAD.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import FreeCAD as App

__all__ = [
    "FreeCADNotFoundError",
    "find_freecad_lib",
    "freecad_lib_candidates",
    "import_freecad",
    "find_freecad_mod_dir",
]

ENV_VAR = "FREECAD_LIB"

_MODULE_FILES = ("FreeCAD.so", "FreeCAD.pyd", "FreeCAD.dylib")

# Glob patterns tried last, in this order (``~`` and env vars are expanded).
_GLOB_PATTERNS = (
    "/usr/lib/freecad*/lib",
    "/usr/lib/freecad*/lib64",
    "/usr/lib64/freecad*/lib",
    "/usr/lib64/freecad*/lib64",
    "/usr/lib/*-linux-gnu/freecad*/lib",
    "/usr/local/lib/freecad*/lib",
    "/usr/local/lib64/freecad*/lib",
    "/usr/local/freecad*/lib",
    "/usr/local/lib",
    "/opt/freecad*/lib",
    "/opt/FreeCAD*/lib",
    "/opt/freecad*/usr/lib",
    "/snap/freecad/current/usr/lib",
    "/var/lib/flatpak/app/org.freecad.FreeCAD/current/active/files/lib",
    "~/.local/share/flatpak/app/org.freecad.FreeCAD/current/active/files/lib",
    "/Applications/FreeCAD*.app/Contents/Resources/lib",
    "C:/Program Files/FreeCAD*/bin",
    "C:/Program Files/FreeCAD*/lib",
)

_EXECUTABLES = ("freecadcmd", "FreeCADCmd", "freecad", "FreeCAD")


class FreeCADNotFoundError(ImportError):
    """FreeCAD's library folder could not be found, or FreeCAD could not be imported from it."""


def _has_module(folder: str) -> bool:
    return any(os.path.isfile(os.path.join(folder, name)) for name in _MODULE_FILES)


def _run(cmd: list[str]) -> str:
    """Output of a command, or '' when it is missing or fails (never raises)."""
    exe = shutil.which(cmd[0])
    if exe is None:
        return ""
    try:
        proc = subprocess.run(
            [exe] + cmd[1:],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            timeout=20,
            env=dict(os.environ, LC_ALL="C"),
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return proc.stdout or ""


def _module_dirs_from_listing(text: str) -> list[str]:
    """Folders of FreeCAD.so in ``dpkg -S`` ("pkg: /path") or ``dpkg -L`` ("/path") output."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        # dpkg -S prints "pkg1, pkg2: /path"; diversions print "diversion by ...".
        path = line.split(": ", 1)[1] if ": " in line else line
        path = path.strip()
        if os.path.basename(path) in _MODULE_FILES:
            found.append(os.path.dirname(path))
    return found


def _dpkg_candidates() -> list[str]:
    found = _module_dirs_from_listing(_run(["dpkg", "-S", "FreeCAD.so"]))
    if found:
        return found
    packages = _run(["dpkg-query", "-W", "-f=${Package}\\n", "*freecad*"]).split()
    for package in packages:
        found.extend(_module_dirs_from_listing(_run(["dpkg", "-L", package])))
    return found


def _executable_candidates() -> list[str]:
    found = []
    for name in _EXECUTABLES:
        exe = shutil.which(name)
        if not exe:
            continue
        bindir = os.path.dirname(os.path.realpath(exe))
        prefix = os.path.dirname(bindir)
        found += [os.path.join(prefix, "lib"), os.path.join(prefix, "lib64"), bindir]
    conda = os.environ.get("CONDA_PREFIX")
    if conda:
        found += [os.path.join(conda, "lib"), os.path.join(conda, "Library", "bin")]
    return found


def _glob_candidates() -> list[str]:
    found = []
    for pattern in _GLOB_PATTERNS:
        pattern = os.path.expandvars(os.path.expanduser(pattern))
        found.extend(sorted(glob.glob(pattern), reverse=True))  # newest version first
    return found


def _unique_valid(paths: Iterable[str]) -> list[str]:
    result, seen = [], set()
    for path in paths:
        if not path or not os.path.isdir(path) or not _has_module(path):
            continue
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        result.append(real)
    return result


def freecad_lib_candidates() -> list[str]:
    """Every folder holding FreeCAD's Python module found on this machine, best first.

    ``$FREECAD_LIB`` is not included (see :func:`find_freecad_lib`).
    """
    paths: list[str] = []
    module = sys.modules.get("FreeCAD")
    module_file = getattr(module, "__file__", None) if module is not None else None
    if module_file:
        paths.append(os.path.dirname(module_file))
    paths += _dpkg_candidates()
    paths += _executable_candidates()
    paths += _glob_candidates()
    return _unique_valid(paths)


def find_freecad_lib() -> str:
    """Return the folder that holds FreeCAD's Python module (``FreeCAD.so``).

    ``$FREECAD_LIB`` overrides the search; it must name a folder that holds the module.
    Raises :class:`FreeCADNotFoundError` with what was tried when nothing is found.
    """
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        override = os.path.expanduser(override)
        if os.path.isdir(override) and _has_module(override):
            return os.path.realpath(override)
        raise FreeCADNotFoundError(
            "%s=%r does not name a folder containing %s" % (ENV_VAR, override, " or ".join(_MODULE_FILES))
        )
    candidates = freecad_lib_candidates()
    if candidates:
        return candidates[0]
    raise FreeCADNotFoundError(
        "FreeCAD's Python library folder (the one holding FreeCAD.so) was not found. Tried: "
        "dpkg -S/-L, the folder next to freecadcmd/freecad on PATH, $CONDA_PREFIX/lib and "
        + ", ".join(_GLOB_PATTERNS)
        + ". Install FreeCAD (Debian/Ubuntu: apt-get install freecad) or set %s to that folder." % ENV_VAR
    )


def find_freecad_mod_dir(App: ModuleType | None = None) -> str | None:
    """FreeCAD's system ``Mod`` folder (with Part, PartDesign, ...), or None.

    On Debian FreeCAD's home path (``/usr/lib/freecad-python3/``, derived from the real path of
    FreeCAD.so) has no ``Mod``: the modules live in ``/usr/share/freecad/Mod``.
    """
    candidates = []
    if App is not None and hasattr(App, "getHomePath"):
        candidates.append(os.path.join(App.getHomePath(), "Mod"))
    try:
        lib = find_freecad_lib()
    except FreeCADNotFoundError:
        lib = None
    if lib:
        prefix = os.path.dirname(lib)
        candidates += [
            os.path.join(prefix, "Mod"),
            os.path.join(prefix, "share", "freecad", "Mod"),
            os.path.join(os.path.dirname(prefix), "share", "freecad", "Mod"),
            os.path.join(os.path.dirname(os.path.dirname(prefix)), "share", "freecad", "Mod"),
        ]
    candidates += sorted(glob.glob("/usr/share/freecad*/Mod"), reverse=True)
    candidates += sorted(glob.glob("/usr/lib/freecad*/Mod"), reverse=True)
    candidates += sorted(glob.glob("/usr/local/share/freecad*/Mod"), reverse=True)
    for path in candidates:
        if os.path.isdir(os.path.join(path, "Part")):
            return os.path.realpath(path)
    return None


def _add_mod_paths(App: ModuleType) -> None:
    """Make FreeCAD's Python modules (``PartDesign``, ``Draft``, ...) importable headless.

    FreeCAD itself puts ``Mod`` and every ``Mod/<X>`` on ``sys.path`` when it finds them next
    to its home path; outside FreeCAD on Debian it does not. Appended, so they never shadow.
    The sibling ``Ext`` folder (FreeCAD's ``PySide`` shim, needed by e.g. 1.0's Assembly
    module headless) is appended too.
    """
    mod_dir = find_freecad_mod_dir(App)
    if not mod_dir:
        return
    paths = [mod_dir] + [
        os.path.join(mod_dir, name)
        for name in sorted(os.listdir(mod_dir))
        if os.path.isdir(os.path.join(mod_dir, name))
    ]
    ext_dir = os.path.join(os.path.dirname(mod_dir), "Ext")
    if os.path.isdir(ext_dir):
        paths.append(ext_dir)
    for path in paths:
        if path not in sys.path:
            sys.path.append(path)


def import_freecad(with_part: bool = True, add_mod_paths: bool = True) -> ModuleType:
    """Import and return the ``FreeCAD`` module (``App``), also importing ``Part``.

    Returns at once when FreeCAD is already imported (inside FreeCAD). Otherwise finds the
    library folder (:func:`find_freecad_lib`), appends it to ``sys.path`` and imports. With
    ``add_mod_paths`` FreeCAD's ``Mod`` folders are appended to ``sys.path`` too, so that
    ``import PartDesign`` works headless. Raises :class:`FreeCADNotFoundError` (an
    ``ImportError``) with an explanation on failure.
    """
    App = sys.modules.get("FreeCAD")
    if App is None:
        lib = find_freecad_lib()
        if lib not in sys.path:
            sys.path.append(lib)
        try:
            import FreeCAD as App  # noqa: N812
        except ImportError as exc:
            raise FreeCADNotFoundError(
                "FreeCAD's library folder %s was found but `import FreeCAD` failed with this "
                "interpreter (%s, Python %s): %s. FreeCAD's modules only load in the Python "
                "they were built for; on Debian use /usr/bin/python3."
                % (lib, sys.executable, sys.version.split()[0], exc)
            ) from exc
        if add_mod_paths:
            _add_mod_paths(App)
    if with_part:
        try:
            import Part  # noqa: F401
        except ImportError as exc:
            raise FreeCADNotFoundError("FreeCAD imported but its Part module did not: %s" % exc) from exc
    return App


def write_document(name: str, build: Callable[[App.Document], object], path: str) -> None:
    """Create a new FreeCAD document ``name``, fill it with ``build(doc)``, save it to
    ``path`` and close it (used by the example generators)."""
    App = import_freecad()
    doc = App.newDocument(name)
    try:
        build(doc)
        doc.saveAs(path)
    finally:
        App.closeDocument(doc.Name)
    print("wrote %s" % path)
