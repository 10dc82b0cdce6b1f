"""MBD_About (in the Help menu): a message box with the workbench's version and where it runs from."""

from __future__ import annotations

import os
import sys

from .common import QT_TRANSLATE_NOOP, icon, qt_modules, translate


def about_text() -> str:
    """The About text (plain, one item a line)."""
    import MBDWorkbench

    lines = ["Multibody Dynamics workbench %s" % MBDWorkbench.__version__, "Rigid multibody dynamics for FreeCAD."]
    try:
        import FreeCAD

        lines.append("FreeCAD %s" % ".".join(FreeCAD.Version()[:3]))
    except Exception:
        pass
    lines.append("Python %s" % sys.version.split()[0])
    lines.append("Installed at %s" % os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))))
    return "\n".join(lines)


class AboutCommand:
    """Show what this workbench is and where it is installed."""

    def GetResources(self) -> dict:
        return {
            "Pixmap": icon("workbench"),
            "MenuText": QT_TRANSLATE_NOOP("MBD_About", "About Multibody Dynamics"),
            "ToolTip": QT_TRANSLATE_NOOP("MBD_About", "Version and installation of the Multibody Dynamics workbench"),
        }

    def IsActive(self) -> bool:
        return True

    def Activated(self) -> None:
        import FreeCADGui

        _, _, QtWidgets = qt_modules()
        box = QtWidgets.QMessageBox(FreeCADGui.getMainWindow())
        box.setObjectName("MBD_AboutBox")
        box.setWindowTitle(translate("MBD_About", "About Multibody Dynamics"))
        box.setIcon(QtWidgets.QMessageBox.Information)
        box.setText(about_text())
        box.setStandardButtons(QtWidgets.QMessageBox.Ok)
        run = getattr(box, "exec", None) or box.exec_  # PySide6 / PySide2
        run()
