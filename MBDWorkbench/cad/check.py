"""The 'Check model' report: mobility and redundancy of a Model.

Uses ``MBDWorkbench.solver.analysis.mobility`` (Jacobian rank at the assembled initial
configuration) when that module is present, else the Grubler-Kutzbach count
``6 n - sum(joint equations)`` alone.
"""
from __future__ import annotations


def grubler(model):
    """(moving bodies, joint equations, driver equations, 6 n - joint equations)."""
    from ..solver.joints import JOINT_ROWS
    n = sum(1 for b in model.bodies if not b.grounded)
    rows = sum(len(JOINT_ROWS[j.type]) for j in model.joints)
    return n, rows, len(model.drivers), 6 * n - rows


def grubler_text(model):
    """The Grubler-Kutzbach report (text)."""
    from ..solver.joints import JOINT_ROWS
    n, rows, nd, dof = grubler(model)
    lines = ["Mechanism '%s': %d moving bodies, %d joint equations, %d driver equations"
             % (model.name, n, rows, nd),
             "Grubler-Kutzbach count: 6 x %d - %d = %d degrees of freedom" % (n, rows, dof)]
    if nd:
        lines.append("With the drivers: %d" % (dof - nd))
    if dof < 0:
        lines.append("More equations than coordinates: the mechanism is over-constrained (redundant joints).")
    lines += ["  %s: %s, %d equations" % (j.name, j.type, len(JOINT_ROWS[j.type])) for j in model.joints]
    return "\n".join(lines)


def check_report(model):
    """(text, mobility or None) for the Check model dialog."""
    try:
        from ..solver import analysis
        mobility = analysis.mobility
    except (ImportError, AttributeError):
        return grubler_text(model), grubler(model)[3]
    from ..solver.errors import AssemblyError
    try:
        rep = mobility(model)
        return rep.text(), rep.mobility
    except AssemblyError as exc:
        rep = mobility(model, assemble_first=False)
        return ("The joints could not be closed at the initial placements (%s); report at the unassembled "
                "configuration:\n%s" % (exc, rep.text())), rep.mobility
