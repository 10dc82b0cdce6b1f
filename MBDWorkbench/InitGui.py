# Multibody Dynamics workbench -- FreeCAD runs this file at GUI start-up.
#
# Registers the workbench `MultibodyDynamicsWorkbench` ("Multibody Dynamics") and the GUI hooks
# through which the document objects get their view providers. Its commands are imported from
# the MBDWorkbench package only when the workbench is first activated.
#
# FreeCAD exec()s this text inside a function (0.20: `exec(f.read())`: __file__ is not ours or
# not defined; 1.x: exec of compile(text, path)). So: top-level names are not visible inside
# the functions and methods defined here -- they import what they need; the class attributes
# that need computed values are set after the class statement.
# Init.py has already put the folder holding the MBDWorkbench package on sys.path; the same
# search is repeated here in case it did not run (e.g. an InitGui-only reload).


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
for _mbd_name in ("__file__", "InstallFile", "init_gui_py", "Dir", "target"):
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

import os as _mbd_os
import sys as _mbd_sys
from collections.abc import Callable as _mbd_Callable

import FreeCAD
import FreeCADGui

if _mbd_root is None:
    FreeCAD.Console.PrintError(
        "Multibody Dynamics: cannot find the folder holding the MBDWorkbench package "
        "(looked near %s and in FreeCAD's Mod folders); workbench not loaded\n" % (_mbd_hints,)
    )
else:
    if _mbd_root in _mbd_sys.path:
        _mbd_sys.path.remove(_mbd_root)
    _mbd_sys.path.insert(0, _mbd_root)
    try:  # the .qm files (tools/translations.py), loaded for FreeCAD's language
        FreeCADGui.addLanguagePath(_mbd_os.path.join(_mbd_root, "MBDWorkbench", "resources", "translations"))
        FreeCADGui.updateLocale()
    except Exception as _mbd_exc:
        FreeCAD.Console.PrintWarning("Multibody Dynamics: translations not loaded: %s\n" % (_mbd_exc,))

    def _mbd_view_provider_hook(event: str) -> "_mbd_Callable[[FreeCAD.DocumentObject], None]":
        """The GUI hook for ``event`` (see MBDWorkbench.cad.gui_hooks): the document objects get
        their view providers, also in documents opened before the workbench is activated. The
        view providers (and the solver they import) are loaded at the first call, not at start-up."""

        def hook(obj: "FreeCAD.DocumentObject") -> None:
            from MBDWorkbench.commands import view_providers

            view_providers.HOOKS[event](obj)

        return hook

    try:
        from MBDWorkbench.cad import gui_hooks as _mbd_gui_hooks

        for _mbd_event in _mbd_gui_hooks.EVENTS:
            _mbd_gui_hooks.set_hook(_mbd_event, _mbd_view_provider_hook(_mbd_event))
    except Exception as _mbd_exc:
        FreeCAD.Console.PrintError("Multibody Dynamics: GUI hooks not set: %s\n" % (_mbd_exc,))

    _mbd_base = getattr(FreeCADGui, "Workbench", None)
    if _mbd_base is None:
        _mbd_base = Workbench  # noqa: F821 -- defined by FreeCADGuiInit, whose globals we run in

    class MultibodyDynamicsWorkbench(_mbd_base):
        """Rigid multibody dynamics: bodies, joints, simulation and results."""

        MenuText = "Multibody Dynamics"
        ToolTip = "Rigid multibody dynamics: bodies, joints, simulation, animation and reports"
        Icon = ""  # set below (needs the install folder)

        def Initialize(self) -> None:
            import FreeCAD

            from MBDWorkbench import commands

            names = commands.register_commands()
            for title, group in commands.TOOLBARS:
                self.appendToolbar(title, list(group))
            for path, group in commands.MENUS:
                self.appendMenu(list(path) if len(path) > 1 else path[0], list(group))
            try:
                from MBDWorkbench.commands.preferences import register_page

                register_page()
            except Exception as exc:
                FreeCAD.Console.PrintWarning("Multibody Dynamics: preferences page not added: %s\n" % (exc,))
            FreeCAD.Console.PrintLog("Multibody Dynamics: commands %s\n" % (names,))

        def Activated(self) -> None:
            import os

            if os.environ.get("MBD_NO_WARMUP"):
                return
            try:
                from MBDWorkbench.commands.solve_commands import warm_up_solver

                warm_up_solver()  # the Numba kernels compile in the background at first activation
            except Exception as exc:
                import FreeCAD

                FreeCAD.Console.PrintWarning("Multibody Dynamics: solver warm-up not started: %s\n" % (exc,))

        def Deactivated(self) -> None:
            pass

        def ContextMenu(self, recipient: str) -> None:
            import FreeCADGui

            from MBDWorkbench.commands import context_menu_commands

            names = context_menu_commands(FreeCADGui.Selection.getSelection())
            if names:
                self.appendContextMenu("", ["Separator"] + names)

        def GetClassName(self) -> str:
            return "Gui::PythonWorkbench"

    MultibodyDynamicsWorkbench.Icon = _mbd_os.path.join(
        _mbd_root, "MBDWorkbench", "resources", "icons", "workbench.svg"
    )
    FreeCADGui.addWorkbench(MultibodyDynamicsWorkbench())
