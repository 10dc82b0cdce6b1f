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


TYPICAL_FRACTION = 0.25  # the typical contact force's arrow: this share of the motion's size
LONGEST_FRACTION = 1.0  # no arrow longer than this share of it
TYPICAL_PERCENTILE = 95.0


def arrow_scale(forces: list[np.ndarray], size: float) -> float:
    """Default length per newton of the contact force arrows [size's unit/N] for a motion of
    ``size``: the typical force in contact (the 95th percentile of the sampled |F| > 0 of all pairs,
    ``forces`` (K, 3) arrays [N]) drawn at a quarter of ``size``, but the largest at most ``size``
    long. (Scaled by the largest alone, a sampled peak of a short impact, 18 times the weight in
    the drop test, would draw the resting contact a few mm long.) 0 without a force."""
    norms = np.concatenate([np.linalg.norm(F, axis=1) for F in forces] + [np.zeros(0)])
    norms = norms[norms > 0]
    if norms.size == 0:
        return 0.0
    typical = float(np.percentile(norms, TYPICAL_PERCENTILE))
    return min(TYPICAL_FRACTION * size / typical, LONGEST_FRACTION * size / float(norms.max()))
