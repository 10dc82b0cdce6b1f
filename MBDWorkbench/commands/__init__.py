"""FreeCAD GUI commands of the Multibody Dynamics workbench.

Importing this package does not import FreeCAD; :func:`register_commands` (called from the
workbench's ``Initialize``) does, and registers every command with ``FreeCADGui.addCommand``.
The joint commands, one per joint type of :data:`MBDWorkbench.solver.catalog.JOINTS`, are
named ``MBD_Joint_<type>``.
"""

from __future__ import annotations

from ..solver.catalog import JOINTS

__all__ = ["COMMANDS", "JOINT_COMMANDS", "TOOLBARS", "register_commands"]

JOINT_COMMAND_PREFIX = "MBD_Joint_"
JOINT_COMMANDS = tuple(JOINT_COMMAND_PREFIX + name for name in JOINTS)

# Toolbars (and menus) in order; names only, importable without FreeCAD (for tests and menus).
TOOLBARS = (
    ("MBD Model", ("MBD_Simulation", "MBD_Body", "MBD_GroundedBody", "MBD_Driver", "MBD_SpringDamper", "MBD_Force")),
    ("MBD Joints", JOINT_COMMANDS + ("MBD_EditJointFrame", "MBD_ImportAssembly")),
    (
        "MBD Solve",
        (
            "MBD_Check",
            "MBD_Solve",
            "MBD_Animate",
            "MBD_Plot",
            "MBD_Report",
            "MBD_FemCheck",
            "MBD_ParameterStudy",
            "MBD_ExportJSON",
            "MBD_About",
        ),
    ),
)
COMMANDS = tuple(name for _, names in TOOLBARS for name in names)


def _command_classes() -> dict:
    """{name: class} of every command."""
    from .about import AboutCommand
    from .animate import AnimateCommand
    from .fem_command import FemCheckCommand
    from .model_commands import (
        BodyCommand,
        DriverCommand,
        EditJointFrameCommand,
        ExportJsonCommand,
        ForceCommand,
        GroundedBodyCommand,
        ImportAssemblyCommand,
        SimulationCommand,
        SpringDamperCommand,
        make_joint_command,
    )
    from .plot_dock import PlotCommand
    from .report_command import ReportCommand
    from .solve_commands import CheckCommand, SolveCommand
    from .study_panel import ParameterStudyCommand

    classes = {
        "MBD_About": AboutCommand,
        "MBD_Simulation": SimulationCommand,
        "MBD_Body": BodyCommand,
        "MBD_GroundedBody": GroundedBodyCommand,
        "MBD_Driver": DriverCommand,
        "MBD_SpringDamper": SpringDamperCommand,
        "MBD_Force": ForceCommand,
        "MBD_EditJointFrame": EditJointFrameCommand,
        "MBD_ImportAssembly": ImportAssemblyCommand,
        "MBD_Check": CheckCommand,
        "MBD_Solve": SolveCommand,
        "MBD_Animate": AnimateCommand,
        "MBD_Plot": PlotCommand,
        "MBD_Report": ReportCommand,
        "MBD_FemCheck": FemCheckCommand,
        "MBD_ParameterStudy": ParameterStudyCommand,
        "MBD_ExportJSON": ExportJsonCommand,
    }
    for name in JOINT_COMMANDS:
        classes[name] = make_joint_command(name[len(JOINT_COMMAND_PREFIX) :])
    return classes


def register_commands() -> list[str]:
    """Register the workbench's commands with FreeCAD; return their names (idempotent)."""
    import FreeCADGui

    known = set()
    try:
        known = set(FreeCADGui.listCommands())
    except Exception:
        pass
    classes = _command_classes()
    for name in COMMANDS:
        if name not in known:
            FreeCADGui.addCommand(name, classes[name]())
    return list(COMMANDS)
