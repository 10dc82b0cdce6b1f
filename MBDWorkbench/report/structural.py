"""The report's "Structural check" section: the FEM analyses of fem-loads (docs/fem.md), from
their summaries (the ``<copy>_fem.json`` dicts): one row per load case with its largest von
Mises stress and safety factor, the envelope over the cases, and the pictures of the fields."""

from __future__ import annotations

import os
from collections.abc import Sequence

from .document import Block, Heading, Para, Table, g, vec
from .plots import Plot

PICTURE_HEIGHT = 3.6  # [in] of a stress picture in the report


def _factor(value) -> str:
    return "-" if value is None else g(value, 3)


def _row(body: str, c: dict) -> list:
    return [
        body,
        c.get("load_case", ""),
        g(c["time_s"]),
        g(c["largest_load_N"]),
        g(c["max_von_mises_MPa"]),
        vec(c["max_von_mises_at_mm"], 3),
        g(c.get("max_von_mises_away_MPa")),
        _factor(c.get("safety_factor")),
        _factor(c.get("safety_factor_away")),
        g(c["max_displacement_mm"]),
        g(c["support_reaction_relative"], 2),
        c.get("analysis", ""),
    ]


HEADER = [
    "Body", "load case", "t [s]", "largest load [N]", "max von Mises [MPa]", "at [mm]",
    "max von Mises away from loads [MPa]", "safety factor", "safety factor away from loads", "max displ. [mm]",
    "support reaction / load", "analysis",
]  # fmt: skip


def picture_block(path: str, title: str, caption: str) -> Plot:
    """A report figure showing the PNG at ``path``."""

    def draw(fig, box, path=path):
        from matplotlib.image import imread

        x0, y0, w, h = box
        W, H = fig.get_size_inches()
        ax = fig.add_axes((x0 / W, y0 / H, w / W, h / H))
        ax.imshow(imread(path))
        ax.set_axis_off()

    return Plot(title, caption, PICTURE_HEIGHT, draw)


def _material_text(s: dict) -> str:
    strength = s.get("yield_strength_MPa")
    yield_text = "yield strength %s MPa (%s)" % (g(strength), s.get("yield_strength_source")) if strength else (
        "no yield strength (%s): no safety factor" % s.get("yield_strength_source", "not given")
    )  # fmt: skip
    return "%s: E = %s MPa, nu = %s, %s" % (
        s.get("body"), g(s.get("youngs_modulus_MPa")), g(s.get("poisson_ratio")), yield_text,
    )  # fmt: skip


def _pictures(s: dict) -> list[Block]:
    out = []
    env = s.get("envelope")
    if env and env.get("stress_picture") and os.path.isfile(env["stress_picture"]):
        out.append(
            picture_block(
                env["stress_picture"],
                "%s: von Mises envelope over its load cases" % s.get("body"),
                "Largest von Mises stress of each node over the load cases (one mesh); largest %s MPa in %s; "
                "magenta: above the largest stress away from the loads (%s MPa)"
                % (g(env["max_von_mises_MPa"]), env.get("governing_case"), g(env.get("max_von_mises_away_MPa"))),
            )
        )
    for c in s.get("cases", []):
        if c.get("stress_picture") and os.path.isfile(c["stress_picture"]):
            out.append(
                picture_block(
                    c["stress_picture"],
                    "%s at t = %s s: von Mises stress" % (s.get("body"), g(c["time_s"])),
                    "%s (%s); magenta: above the largest stress away from the loads (%s MPa)"
                    % (c.get("load_case", ""), c.get("analysis", ""), g(c.get("max_von_mises_away_MPa"))),
                )
            )
    return out


def structural_blocks(summaries: Sequence[dict]) -> list[Block]:
    """Heading, method note, one row per load case (and the envelope), the pictures; nothing without analyses."""
    if not summaries:
        return []
    blocks: list[Block] = [
        Heading("Structural check"),
        Para(
            "Each body's joint reactions, driver efforts, gravity and d'Alembert inertial loads at the instant, "
            "moved to the body's document pose, were applied to a Gmsh mesh of its part and solved by CalculiX "
            "(linear static, 3-2-1 support whose reactions are checked to be ~0; docs/fem.md). The stresses next "
            "to the loaded surfaces and the support nodes depend on how the loads are spread: 'away from loads' "
            "leaves out the nodes within two mesh sizes of them. Safety factor: yield strength / von Mises."
        ),
    ]
    rows = []
    for s in summaries:
        rows += [_row(s.get("body", "?"), c) for c in s.get("cases", [])]
        env = s.get("envelope")
        if env:
            rows.append(
                [s.get("body", "?"), "envelope (%s)" % env.get("governing_case"), "-", "-",
                 g(env["max_von_mises_MPa"]), vec(env["max_von_mises_at_mm"], 3), g(env.get("max_von_mises_away_MPa")),
                 _factor(env.get("safety_factor")), _factor(env.get("safety_factor_away")), "-", "-", "-"]
            )  # fmt: skip
    blocks.append(
        Table(
            HEADER,
            rows,
            "Stress of the analysed bodies' load cases (material: %s; documents: %s)"
            % ("; ".join(_material_text(s) for s in summaries), ", ".join(s.get("copy", "") for s in summaries)),
            numeric=[2, 3, 4, 6, 7, 8, 9, 10],
        )  # fmt: skip
    )
    warnings = [w for s in summaries for w in s.get("warnings", [])]
    warnings += [c["warning"] for s in summaries for c in s.get("cases", []) if c.get("warning")]
    blocks += [Para(w, "warning") for w in warnings]
    notes = [c["objects_note"] for s in summaries for c in s.get("cases", []) if c.get("objects_note")]
    blocks += [Para(n, "note") for n in notes]
    for s in summaries:
        blocks += _pictures(s)
    return blocks
