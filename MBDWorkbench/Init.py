# Multibody Dynamics workbench -- FreeCAD runs this file at start-up, with or without GUI.
#
# It only makes `import MBDWorkbench` work (in macros, freecadcmd scripts and InitGui.py):
# the folder that holds the MBDWorkbench package goes to the front of sys.path.
#
# FreeCAD does not import this file, it exec()s its text inside a function (0.20:
# `exec(f.read())`, so __file__ is not ours or not defined; 1.x: exec of compile(text, path)).
# Hence: no reliance on __file__ alone, and top-level names are not visible inside functions
# defined here (each function imports what it needs and only uses its arguments).
#
# Install layouts (see docs/freecad-setup.md), both handled:
#   Mod/MultibodyDynamics -> repository root (package.xml says subdirectory MBDWorkbench;
#                            FreeCAD itself puts the root on sys.path), or
#   Mod/MultibodyDynamics -> the MBDWorkbench folder (its parent is added here).


def _mbd_find_root(hints: list[str]) -> str | None:
    """Folder holding the MBDWorkbench package, from hint paths (files or folders)."""
    import os
    import sys

    def is_root(folder: str) -> bool:
        return os.path.isfile(os.path.join(folder, "MBDWorkbench", "cad", "freecad_env.py"))

    def roots_near(path: str) -> list[str]:
        if not path or path.startswith("<"):
            return []
        path = os.path.abspath(path)
        if os.path.isfile(path):
            path = os.path.dirname(path)
        found = []
        for folder in (path, os.path.realpath(path)):
            found += [folder, os.path.dirname(folder)]
        return found

    candidates = []
    for hint in hints:
        candidates += roots_near(hint)
    try:
        import FreeCAD

        mod_dirs = list(getattr(FreeCAD, "__ModDirs__", []) or [])
        user_mod = os.path.join(FreeCAD.getUserAppDataDir(), "Mod")
        if os.path.isdir(user_mod):
            mod_dirs += [os.path.join(user_mod, n) for n in sorted(os.listdir(user_mod))]
    except Exception:
        mod_dirs = []
    for folder in mod_dirs + list(sys.path):
        candidates += roots_near(folder)
    for folder in candidates:
        if is_root(folder):
            return os.path.realpath(folder)
    return None


_mbd_hints = []
for _mbd_name in ("__file__", "InstallFile", "init_py", "init_gui_py", "Dir", "target"):
    _mbd_value = locals().get(_mbd_name, None)
    if _mbd_value is None:
        _mbd_value = globals().get(_mbd_name, None)
    if _mbd_value is not None:
        _mbd_hints.append(str(_mbd_value))
_mbd_value = locals().get("self", None)  # FreeCAD 1.x: the loader is a method of a Mod object
_mbd_value = getattr(_mbd_value, "mod", _mbd_value)
_mbd_value = getattr(_mbd_value, "path", None)
if _mbd_value is not None:
    _mbd_hints.append(str(_mbd_value))
try:
    import sys as _mbd_sys

    _mbd_hints.insert(0, _mbd_sys._getframe(0).f_code.co_filename)
except Exception:
    pass

_mbd_root = _mbd_find_root(_mbd_hints)
if _mbd_root is not None:
    import sys as _mbd_sys

    if _mbd_root in _mbd_sys.path:
        _mbd_sys.path.remove(_mbd_root)
    _mbd_sys.path.insert(0, _mbd_root)
    # Import the (tiny, FreeCAD-free) package now: FreeCAD's restore of Python objects only
    # imports proxy modules whose top-level package is loaded (or that live under a Mod
    # folder; our real path may not), so documents with our objects open at once.
    try:
        import MBDWorkbench  # noqa: F401
    except Exception as _mbd_exc:
        import FreeCAD

        FreeCAD.Console.PrintError("Multibody Dynamics: import MBDWorkbench failed: %s\n" % (_mbd_exc,))
else:
    import FreeCAD

    FreeCAD.Console.PrintError(
        "Multibody Dynamics: cannot find the folder holding the MBDWorkbench package "
        "(looked near %s and in FreeCAD's Mod folders)\n" % (_mbd_hints,)
    )
