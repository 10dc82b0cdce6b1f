"""Report sections of the events and contact elements: joint stops and damping, located rigid-stop
events, joint friction and contact forces (docs/joint-limits.md, joint-friction.md, contact.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import friction, stops
from .blocks import Block, Heading, Table, g

if TYPE_CHECKING:
    from .data import ReportData


def stop_blocks(data: ReportData) -> list[Block]:
    """'Stops and joint damping': the contacts with the end stops and each coordinate's peak stop
    effort and losses (no limits or damping: no block; docs/joint-limits.md)."""
    losses = stops.stop_losses(data)
    if not losses:
        return []
    unit = {"angle": ("N m", "rad/s"), "displacement": ("N", "m/s")}
    rows = [
        [e["joint"], e["coordinate"], g(e["start"]), g(e["end"]), g(e["impact"]), g(e["rebound"]), g(e["peak"])]
        + [" / ".join(unit[e["coordinate"]])]
        for e in stops.stop_events(data)
    ]
    head = [
        "joint",
        "coordinate",
        "contact from [s]",
        "to [s]",
        "impact speed",
        "rebound speed",
        "peak effort",
        "units",
    ]
    cap = (
        "Contacts with the end stops, from the output samples (a contact shorter than the output step may be "
        "missed; speeds are those of the samples just before and after it). Compliant stops: docs/joint-limits.md."
    )
    loss_rows = [
        [c["joint"], c["coordinate"], g(c["peak"]), g(c["t"]), g(c["stop_work"]), g(c["damping_work"])] for c in losses
    ]
    loss_head = ["joint", "coordinate", "peak stop effort [N m or N]", "t [s]", "stop work [J]", "damping work [J]"]
    loss_cap = (
        "Peak stop effort and the work of the stops and of the viscous joint damping over the run (negative: lost)."
    )
    blocks = [Heading("Stops and joint damping", 2), Table(loss_head, loss_rows, loss_cap, numeric=[2, 3, 4, 5])]
    located = data.summary.get("stop_events") or []
    if located:
        blocks.append(located_stop_events(located, unit))
    if rows:
        blocks.append(Table(head, rows, cap, numeric=[2, 3, 4, 5, 6]))
    return blocks


def located_stop_events(events: list[dict], unit: dict) -> Table:
    """The rigid stops' located events (summary.json's stop_events, solver/events.py)."""
    rows = [
        [f"{e['t']:.9g}", e["joint"], e["coordinate"], e["side"], e["kind"]]
        + [g(e[k]) for k in ("impact_speed", "rebound_speed", "impulse", "effort")]
        + ["{1}, {0} s, {0}".format(*unit[e["coordinate"]])]
        for e in events
    ]
    head = ["t [s]", "joint", "coordinate", "side", "event", "impact speed", "rebound speed", "impulse", "held load"]
    cap = (
        "Rigid stops: the located events (time to 1e-9 relative): impacts with their speeds and impulse, holds "
        "with the load then, releases (docs/joint-limits.md). Units: speeds, impulse, held load."
    )
    return Table(head + ["units"], rows, cap, numeric=[0, 5, 6, 7, 8])


def friction_blocks(data: ReportData) -> list[Block]:
    """'Joint friction': each joint's peak friction effort, peak load, time sticking and losses
    (no friction: no block; docs/joint-friction.md)."""
    losses = friction.friction_losses(data)
    if not losses:
        return []
    rows = [[c["joint"], c["header"], g(c["peak"]), g(c["t"]), g(c["normal"]), g(100 * c["stick"]), g(c["work"])]
            for c in losses]  # fmt: skip
    head = ["joint", "effort", "peak", "t [s]", "peak load N [N]", "sticking [%]", "dissipated [J]"]
    cap = (
        "Coulomb joint friction: the largest friction effort (its column and unit), the largest load N of the "
        "friction law, the share of the run spent sticking and the friction work over the run (negative: lost; "
        "trapezoidal over the output samples). docs/joint-friction.md."
    )
    return [Heading("Joint friction", 2), Table(head, rows, cap, numeric=[2, 3, 4, 5, 6])]


def peak_with_error(peak: dict, rec: dict | None) -> str:
    """A pair's peak normal force with its estimated error ('9510 ± 19') when the accuracy record
    ``rec`` estimated that same peak (the fixed-step integrators' peak of the steps; the adaptive
    ones' record holds the sampled peak instead: docs/solver.md, "Contact runs")."""
    found = (rec or {}).get("contacts", {}).get(peak["pair"])
    if (
        not found
        or found["peak_force_error_N"] is None
        or abs(found["peak_normal_force_N"] - peak["normal"]) > 1e-9 * abs(peak["normal"])
    ):
        return g(peak["normal"])
    return f"{g(peak['normal'])} \u00b1 {g(found['peak_force_error_N'], 2)}"


def contact_blocks(peaks: list[dict], rec: dict | None = None) -> list[Block]:
    """'Contact forces': each contact pair's peak forces, penetration and slip (none: no block);
    the peak normal force with its estimated error from the accuracy record ``rec`` if any."""
    if not peaks:
        return []
    rows = [
        [p["pair"], p["bodies"], peak_with_error(p, rec), g(p["t"]), g(p["friction"]), g(p["penetration"]),
         g(p["slip"])]
        for p in peaks
    ]  # fmt: skip
    head = ["pair", "bodies", "peak normal force [N]", "t [s]", "peak friction [N]", "penetration [m]", "slip [m/s]"]
    cap = (
        "Contact pairs (docs/contact.md): the largest normal force of the steps (impacts between the output samples "
        "included; t: the end of its output interval; several contact points: their peaks summed, an upper "
        "bound), the largest friction force, the deepest penetration and the largest slip speed at the output "
        "samples (contacts.csv)."
    )
    if any("\u00b1" in row[2] for row in rows):
        cap += " \u00b1: the estimated error of the peak (accuracy estimate)."
    return [Heading("Contact forces", 2), Table(head, rows, cap, numeric=[2, 3, 4, 5, 6])]
