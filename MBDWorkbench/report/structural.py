"""The report's "Structural check" section: the FEM analyses of fem-loads (docs/fem.md), from
their summaries (the ``<copy>_fem.json`` dicts)."""

from __future__ import annotations

from collections.abc import Sequence

from .document import Block, Heading, Para, Table, g, vec


def structural_blocks(summaries: Sequence[dict]) -> list[Block]:
    """Heading, method note and one row per analysed instant; nothing without analyses."""
    if not summaries:
        return []
    blocks: list[Block] = [
        Heading("Structural check"),
        Para(
            "Each body's joint reactions, driver efforts, gravity and d'Alembert inertial loads at the instant, "
            "moved to the body's document pose, were applied to a Gmsh mesh of its part and solved by CalculiX "
            "(linear static, 3-2-1 support whose reactions are checked to be ~0; docs/fem.md)."
        ),
    ]
    rows = []
    for s in summaries:
        for c in s.get("cases", []):
            rows.append(
                [
                    s.get("body", "?"),
                    g(c["time_s"]),
                    g(c["largest_load_N"]),
                    g(c["max_von_mises_MPa"]),
                    vec(c["max_von_mises_at_mm"], 3),
                    g(c["max_displacement_mm"]),
                    g(c["support_reaction_relative"], 2),
                    "%s (%s)" % (c.get("analysis", ""), s.get("copy", "")),
                ]
            )
    blocks.append(
        Table(
            [
                "Body",
                "t [s]",
                "largest load [N]",
                "max von Mises [MPa]",
                "at [mm]",
                "max displ. [mm]",
                "support reaction / load",
                "analysis (document)",
            ],
            rows,
            "Stress and displacement of the analysed bodies (material: %s)"
            % ", ".join(
                "%s E = %s MPa, nu = %s" % (s.get("body"), g(s.get("youngs_modulus_MPa")), g(s.get("poisson_ratio")))
                for s in summaries
            ),
            numeric=[1, 2, 3, 5, 6],
        )  # fmt: skip
    )
    warnings = [c["warning"] for s in summaries for c in s.get("cases", []) if c.get("warning")]
    blocks += [Para(w, "warning") for w in warnings]
    return blocks
