"""Write the tables of docs/ that list catalogue entries (joint and force types, the Assembly mapping)
from MBDWorkbench.solver.model.catalog, and the ranges of MBDWorkbench.solver.model.limits,
between ``<!-- catalog:NAME -->`` and ``<!-- /catalog:NAME -->`` markers.
``--check`` only reports stale tables (exit 1).

Usage: /usr/bin/python3 tools/catalog_docs.py [--check]
"""

from __future__ import annotations

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from MBDWorkbench.cli_common import exit_code_table  # noqa: E402
from MBDWorkbench.solver.model.catalog import COORDINATES, FORCES, JOINTS  # noqa: E402
from MBDWorkbench.solver.model.limits import limits_table, run_limits_table  # noqa: E402


def conditional_assembly_rows() -> list[tuple[str, str]]:
    """Mappings with conditions, written in cad/assembly_import.map_joint (not one-to-one names);
    the Distance rows from cad/assembly_distances.RULES (FreeCAD's DistanceType names)."""
    from MBDWorkbench.cad.assembly_distances import rule_rows

    rows = rule_rows()
    return rows + [
        ("Angle 0 or 180 deg", "parallel"),
        ("Angle 90 deg", "perpendicular"),
        ("Angle a, other", "angle (`angle` = abs(a), folded into (0, 180) deg)"),
        ("Grounded", "the body's `Grounded` flag"),
    ]


def joint_table() -> str:
    """The joint types of docs/model-format.md."""
    rows = [f"| `{j.name}` | {j.equations} | {j.frees} | {coordinate_cell(j.coordinates)} |" for j in JOINTS.values()]
    return "\n".join(["| type | equations | frees | coordinates (joints.csv) |", "|---|---|---|---|", *rows])


def coordinate_cell(names: tuple[str, ...]) -> str:
    """The coordinates of a joint type with their units, for the joint table."""
    return ", ".join(f"{n} [{COORDINATES[n].unit}]" for n in names) or "-"


def assembly_table() -> str:
    """The FreeCAD Assembly joint mapping of docs/workbench.md."""
    direct = [(a, j.name) for j in JOINTS.values() for a in j.assembly_names]
    rows = [f"| {a} | {ours} |" for a, ours in (*direct, *conditional_assembly_rows())]
    return "\n".join(["| Assembly joint | Imported as |", "|---|---|", *rows])


def force_table() -> str:
    """The force types of docs/model-format.md."""
    rows = [
        f"| `{t.name}` | " + ", ".join(f"`{f.name}` ({f.doc})" if f.doc else f"`{f.name}`" for f in t.fields) + " |"
        for t in FORCES.values()
    ]
    return "\n".join(["| type | fields |", "|---|---|", *rows])


def joint_list() -> str:
    """The joint types as an English list."""
    names = list(JOINTS)
    return ", ".join(names[:-1]) + " and " + names[-1]


TABLES = {
    "docs/model-format.md": {"joints": joint_table, "forces": force_table, "limits": limits_table},
    "docs/workbench.md": {"assembly": assembly_table, "joint-list": joint_list},
    "docs/results-format.md": {"exit-codes": exit_code_table, "run-limits": run_limits_table},
}


def render(text: str, blocks: dict) -> str:
    """``text`` with every marked block replaced by its generated content."""
    for name, make in blocks.items():
        pattern = re.compile(rf"(<!-- catalog:{name} -->)(.*?)(<!-- /catalog:{name} -->)", re.S)
        if not pattern.search(text):
            raise SystemExit(f"catalog_docs: no <!-- catalog:{name} --> block")
        inline = "\n" not in make()
        body = make() if inline else "\n" + make() + "\n"
        text = pattern.sub(lambda m, body=body: m.group(1) + body + m.group(3), text)
    return text


def main(argv: list[str]) -> int:
    """Regenerate (or with --check, verify) every catalogue table; returns the exit code."""
    stale = []
    for rel, blocks in TABLES.items():
        path = os.path.join(ROOT, rel)
        with open(path) as f:
            old = f.read()
        new = render(old, blocks)
        if new != old:
            stale.append(rel)
            if "--check" not in argv:
                with open(path, "w") as f:
                    f.write(new)
    if stale and "--check" in argv:
        print("stale catalogue tables in " + ", ".join(stale) + ": run /usr/bin/python3 tools/catalog_docs.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
