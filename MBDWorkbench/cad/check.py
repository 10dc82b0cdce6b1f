"""The 'Check model' report: mobility and redundancy of a Model.

The mobility analysis (:func:`MBDWorkbench.solver.analyses.mobility.mobility`: Jacobian rank
at the assembled initial configuration) gives the report; :func:`grubler_text` is the plain
Grubler-Kutzbach count ``6 n (3 per point mass) - sum(joint equations)``.
"""

from __future__ import annotations

from ..solver.analyses.mobility import dof_terms, grubler_count, mobility, point_mass_count
from ..solver.errors import AssemblyError
from ..solver.model import Model
from ..solver.model.catalog import JOINTS


def grubler_text(model: Model) -> str:
    """The Grubler-Kutzbach report (text)."""
    n, rows, nd, dof = grubler_count(model)
    npm = point_mass_count(model)
    masses = " (%d point masses, 3 degrees of freedom each)" % npm if npm else ""
    lines = [
        "Mechanism '%s': %d moving bodies%s, %d joint equations, %d driver equations"
        % (model.name, n, masses, rows, nd),
        "Grubler-Kutzbach count: %s - %d = %d degrees of freedom" % (dof_terms(n, npm), rows, dof),
    ]
    if nd:
        lines.append("With the drivers: %d" % (dof - nd))
    if dof < 0:
        lines.append("More equations than coordinates: the mechanism is over-constrained (redundant joints).")
    lines += ["  %s: %s, %d equations" % (j.name, j.type, JOINTS[j.type].equations) for j in model.joints]
    return "\n".join(lines)


def check_report(model: Model) -> tuple[str, int]:
    """(text, mobility) for the Check model dialog; at the unassembled configuration when
    the joints cannot be closed."""
    try:
        rep = mobility(model)
        return rep.text(), rep.mobility
    except AssemblyError as exc:
        rep = mobility(model, assemble_first=False)
        return (
            "The joints could not be closed at the initial placements (%s); report at the unassembled "
            "configuration:\n%s" % (exc, rep.text())
        ), rep.mobility
