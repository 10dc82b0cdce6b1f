"""FreeCAD GUI commands of the Multibody Dynamics workbench.

Importing this package does not import FreeCAD; :func:`register_commands` (called from the
workbench's ``Initialize``) does, and registers every command with ``FreeCADGui.addCommand``.
"""

import os

__all__ = ["COMMANDS", "ICON_DIR", "icon", "register_commands"]

ICON_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "resources", "icons")


def icon(name: str) -> str:
    """Absolute path of ``resources/icons/<name>.svg``."""
    return os.path.join(ICON_DIR, name if name.endswith(".svg") else name + ".svg")


def _command_classes():
    """(name, class) of every command, in toolbar/menu order."""
    from .about import AboutCommand

    return [("MBD_About", AboutCommand)]


# Names only, importable without FreeCAD (for tests and menus).
COMMANDS = ("MBD_About",)


def register_commands():
    """Register the workbench's commands with FreeCAD; return their names (idempotent)."""
    import FreeCADGui

    known = set()
    try:
        known = set(FreeCADGui.listCommands())
    except Exception:
        pass
    names = []
    for name, cls in _command_classes():
        if name not in known:
            FreeCADGui.addCommand(name, cls())
        names.append(name)
    return names
