"""FreeCAD GUI commands of the Multibody Dynamics workbench.

Importing this package does not import FreeCAD; :func:`register_commands` (called from the
workbench's ``Initialize``) does, and registers every command with ``FreeCADGui.addCommand``.
The joint commands, one per joint type of :data:`MBDWorkbench.solver.model.catalog.JOINTS`, are
named ``MBD_Joint_<type>``; the force commands, one per force type of
:data:`MBDWorkbench.solver.model.catalog.FORCES` without a dedicated object (springs and forces have
``MBD_SpringDamper`` and ``MBD_Force``; see ``cad.force_fields.DEDICATED_FORCE_OBJECTS``), are named
``MBD_Force_<type>``.
"""

from __future__ import annotations

from ..cad.force_fields import generic_force_types
from ..solver.model.catalog import BODY_KINDS, FORCES, JOINT_KINDS, JOINTS
from .common import QT_TRANSLATE_NOOP

__all__ = [
    "COMMANDS",
    "FORCE_COMMANDS",
    "GROUPS",
    "JOINT_COMMANDS",
    "MENUS",
    "TOOLBARS",
    "context_menu_commands",
    "register_commands",
]

JOINT_COMMAND_PREFIX = "MBD_Joint_"
JOINT_COMMANDS = tuple(JOINT_COMMAND_PREFIX + name for name in JOINTS)
FORCE_COMMAND_PREFIX = "MBD_Force_"


def force_commands(kinds: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The generic force commands (catalog order); with ``kinds``, those of force types having a
    field of one of those kinds (the context menu of a body or a joint)."""
    types = [t for t in generic_force_types() if not kinds or any(f.kind in kinds for f in FORCES[t].fields)]
    return tuple(FORCE_COMMAND_PREFIX + t for t in types)


FORCE_COMMANDS = force_commands()

# Drop-down groups of the toolbar: name -> (menu text, tooltip, member commands); the button
# shows the last member used (FreeCAD's group commands, as FEM's).
GROUPS = {
    "MBD_BodyGroup": (
        QT_TRANSLATE_NOOP("MBD_BodyGroup", "Bodies"),
        QT_TRANSLATE_NOOP("MBD_BodyGroup", "Moving or grounded rigid bodies"),
        ("MBD_Body", "MBD_GroundedBody"),
    ),
    "MBD_JointGroup": (
        QT_TRANSLATE_NOOP("MBD_JointGroup", "Joints"),
        QT_TRANSLATE_NOOP("MBD_JointGroup", "Joints from picked geometry, one per joint type"),
        JOINT_COMMANDS,
    ),
    "MBD_LoadGroup": (
        QT_TRANSLATE_NOOP("MBD_LoadGroup", "Drivers and loads"),
        QT_TRANSLATE_NOOP("MBD_LoadGroup", "Drivers, spring-dampers, forces, contacts"),
        ("MBD_Driver", "MBD_SpringDamper", "MBD_Force", *FORCE_COMMANDS, "MBD_Contact"),
    ),
    "MBD_ToolsGroup": (
        QT_TRANSLATE_NOOP("MBD_ToolsGroup", "Tools"),
        QT_TRANSLATE_NOOP("MBD_ToolsGroup", "FEM check, parameter study, JSON export, Assembly import"),
        ("MBD_FemCheck", "MBD_ParameterStudy", "MBD_ExportJSON", "MBD_ImportAssembly"),
    ),
}
# The one toolbar (fits 1600 px) and the menus; names only, importable without FreeCAD.
TOOLBARS = (
    (
        "Multibody Dynamics",
        (
            "MBD_Simulation",
            "MBD_BodyGroup",
            "MBD_JointGroup",
            "MBD_EditJointFrame",
            "MBD_LoadGroup",
            "Separator",
            "MBD_Check",
            "MBD_Solve",
            "MBD_Animate",
            "MBD_Plot",
            "MBD_Report",
            "Separator",
            "MBD_ToolsGroup",
        ),
    ),
)
MENUS = (
    (("&Multibody Dynamics",), ("MBD_Simulation", "MBD_Body", "MBD_GroundedBody")),
    (("&Multibody Dynamics", "Joints"), JOINT_COMMANDS + ("Separator", "MBD_EditJointFrame", "MBD_ImportAssembly")),
    (
        ("&Multibody Dynamics",),
        ("MBD_Driver", "MBD_SpringDamper", "MBD_Force", *FORCE_COMMANDS, "MBD_Contact", "Separator"),
    ),
    (("&Multibody Dynamics",), ("MBD_Check", "MBD_Solve", "MBD_Animate", "MBD_Plot", "MBD_Report", "Separator")),
    (("&Multibody Dynamics",), ("MBD_FemCheck", "MBD_ParameterStudy", "MBD_ExportJSON")),
    (("&Help",), ("MBD_About",)),
)
COMMANDS = tuple(
    dict.fromkeys(
        [n for group in GROUPS.values() for n in group[2]]
        + [n for _, names in TOOLBARS + MENUS for n in names if n != "Separator"]
    )
)


# Commands offered in the tree's context menu, per kind of selected object
CONTEXT_COMMANDS = {
    "Simulation": ("MBD_Check", "MBD_Solve", "MBD_Animate", "MBD_Plot", "MBD_Report"),
    "Body": ("MBD_Force", "MBD_SpringDamper", *force_commands(BODY_KINDS), "MBD_Contact"),
    "Joint": ("MBD_EditJointFrame", "MBD_Driver", "MBD_SpringDamper", *force_commands(JOINT_KINDS)),
}


def context_menu_commands(objects: list) -> list[str]:
    """Commands for the context menu of the selected ``objects`` (ours first, in order)."""
    from ..cad.objects import mbd_type

    names: list[str] = []
    for obj in objects:
        names += [n for n in CONTEXT_COMMANDS.get(mbd_type(obj) or "", ()) if n not in names]
    return names


def _command_classes() -> dict:
    """{name: class} of every command."""
    from .about import AboutCommand
    from .animate import AnimateCommand
    from .fem_command import FemCheckCommand
    from .model_commands import (
        BodyCommand,
        ContactCommand,
        DriverCommand,
        EditJointFrameCommand,
        ExportJsonCommand,
        ForceCommand,
        GroundedBodyCommand,
        ImportAssemblyCommand,
        SimulationCommand,
        SpringDamperCommand,
        make_force_command,
        make_group_command,
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
        "MBD_Contact": ContactCommand,
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
    for name in FORCE_COMMANDS:
        classes[name] = make_force_command(name[len(FORCE_COMMAND_PREFIX) :])
    for name, (menu, tip, members) in GROUPS.items():
        classes[name] = make_group_command(menu, tip, members, name)
    return classes


# FreeCAD takes the name of the file calling FreeCADGui.addCommand as the command's module and
# writes `import <module>` before the command's line in a recorded macro, and the folder after
# "/Mod/" as its group (Tools > Customize). Called from this file that gave `import __init__`,
# which a macro cannot run: the call is compiled under a file name giving `import MBDWorkbench`
# (the package, importable wherever the workbench runs) and the group "MultibodyDynamics".
_ADD_COMMAND = compile("FreeCADGui.addCommand(name, command)", "/Mod/MultibodyDynamics/MBDWorkbench", "exec")


def add_command(name: str, command: object) -> None:
    """FreeCADGui.addCommand(name, command), recorded in macros after `import MBDWorkbench`."""
    import FreeCADGui

    exec(_ADD_COMMAND, {"FreeCADGui": FreeCADGui, "name": name, "command": command})


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
            add_command(name, classes[name]())
    for name in GROUPS:
        if name not in known:
            add_command(name, classes[name]())
    return list(COMMANDS) + list(GROUPS)
