"""The contact pairs of a run, from contacts.csv (docs/contact.md, docs/results-format.md): per
pair the peak normal force (the peaks the steps saw, between the samples too) and the output
interval it ended, the peak friction force, the deepest penetration and the largest slip speed
(these three at the output samples)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..solver.results import files as fmt
from ..solver.results.contacts import contact_headers

if TYPE_CHECKING:
    from .data import ReportData


def contact_peaks(data: ReportData) -> list[dict]:
    """Per contact pair of the model: pair, bodies, peak normal force [N] and its time [s], peak
    friction force [N], deepest penetration [m], largest slip speed [m/s] (none: an empty list)."""
    table = data.tables.get(fmt.CONTACTS)
    if not table:
        return []
    t = table[fmt.TIME]
    out = []
    for c in data.model.contacts:
        keys = ("Fx", "Fy", "Fz", "Fn", "Ft", "depth", "px", "py", "pz", "slip", "peak")
        cols = dict(zip(keys, contact_headers(c.name)))
        if cols["peak"] not in table:
            continue
        Fn = table[cols["peak"]]
        k = int(np.argmax(Fn))
        out.append(
            dict(
                pair=c.name,
                bodies=f"{c.body_a} / {c.body_b}",
                normal=float(Fn[k]),
                t=float(t[k]),
                friction=float(np.max(table[cols["Ft"]])),
                penetration=float(np.max(table[cols["depth"]])),
                slip=float(np.max(table[cols["slip"]])),
            )
        )
    return out


def pair_names(results: fmt.ResultTables) -> list[str]:
    """The contact pairs with columns in contacts.csv of a Results, ReportData or StoredResults
    (none: an empty list)."""
    suffix = ".normal_force [N]"
    return [h[: -len(suffix)] for h in results.tables.get(fmt.CONTACTS, {}) if h.endswith(suffix)]
