"""events.csv (docs/results-format.md): one row per located event of a run, in time order: the
rigid stops' impacts, holds and releases (summary.json's ``stop_events``, solver/events.py) and
the joint friction's stick/slip transitions (``friction_events``, when the run has them) and
the contact points' onsets (``contact_events``, solver/contact_events.py, when the model has
contact pairs). Written with summary.json when the run ends, for runs whose summary has any of
these lists.

Columns: time [s], joint, coordinate (``angle`` or ``displacement``), kind (impact, hold,
release, stick, slip, reverse, contact), side (``min``/``max`` of a stop), impact_speed and
rebound_speed (an impact's rates towards and away from the stop [rad/s or m/s]; a contact
onset's normal approach speed [m/s]), slip_speed (a friction transition's speed [rad/s or m/s]),
impulse (an impact's, on the coordinate [N m s or N s]), load (a held stop's, or the friction's
[N m or N]), contact (a contact onset's pair) and point (its contact point, numbered from 0 within
the pair). A field that does not apply is empty.
"""

from __future__ import annotations

import csv
import io
import math

EVENTS = "events.csv"
TIME = "time [s]"
COLUMNS = (
    TIME,
    "joint",
    "coordinate",
    "kind",
    "side",
    "impact_speed",
    "rebound_speed",
    "slip_speed",
    "impulse",
    "load",
    "contact",
    "point",
)
TEXT_COLUMNS = ("joint", "coordinate", "kind", "side", "contact")
# the numbers each kind of stop event has (the others are empty), and their keys in stop_events
STOP_NUMBERS = {"impact": ("impact_speed", "rebound_speed", "impulse"), "hold": ("load",), "release": ()}
STOP_KEYS = {"impact_speed": "impact_speed", "rebound_speed": "rebound_speed", "impulse": "impulse", "load": "effort"}
TIME_DIGITS = 15  # the located event time to 1e-15 relative (located to 1e-9)
DIGITS = 10


def stop_row(event: dict) -> dict:
    """The row of one of summary.json's stop_events."""
    row = {TIME: event["t"], **{k: event.get(k, "") for k in ("joint", "coordinate", "kind", "side")}}
    for column in STOP_NUMBERS.get(event["kind"], tuple(STOP_KEYS)):
        row[column] = event.get(STOP_KEYS[column], "")
    return row


def friction_row(event: dict) -> dict:
    """The row of one of summary.json's friction_events ({time, joint, kind, speed, load}, and the
    coordinate when given)."""
    row = {TIME: event.get("time", event.get("t")), **{k: event.get(k, "") for k in ("joint", "coordinate", "kind")}}
    row["slip_speed"], row["load"] = event.get("speed", ""), event.get("load", "")
    return row


def contact_row(event: dict) -> dict:
    """The row of one of summary.json's contact_events ({t, contact, point, speed})."""
    return {TIME: event["t"], "kind": "contact", "contact": event["contact"], "point": event["point"],
            "impact_speed": event["speed"]}  # fmt: skip


def event_rows(summary: dict) -> list[dict]:
    """The rows of events.csv ({column: value}, absent columns empty), in time order (stop events,
    then friction events, then contact onsets at the same time)."""
    rows = [stop_row(e) for e in summary.get("stop_events") or []]
    rows += [friction_row(e) for e in summary.get("friction_events") or []]
    rows += [contact_row(e) for e in summary.get("contact_events") or []]
    return sorted(rows, key=lambda row: float(row[TIME]))


def has_events(summary: dict) -> bool:
    """Whether a run's events.csv is written: its summary lists stop, friction or contact events."""
    return any(key in summary for key in ("stop_events", "friction_events", "contact_events"))


def _field(column: str, value) -> str:
    if value is None or value == "" or column in TEXT_COLUMNS:
        return "" if value is None else str(value)
    number = float(value)
    if not math.isfinite(number):
        return repr(number)
    return f"{number:.{TIME_DIGITS if column == TIME else DIGITS}g}"


def events_csv_text(summary: dict) -> str:
    """events.csv of a run's summary: the header, then one line per event."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for row in event_rows(summary):
        writer.writerow([_field(c, row.get(c, "")) for c in COLUMNS])
    return out.getvalue()


def event_texts(summary: dict) -> dict[str, str]:
    """{events.csv: its text} for a run with stop, friction or contact events, else {}."""
    return {EVENTS: events_csv_text(summary)} if has_events(summary) else {}


def read_events(text: str) -> list[dict]:
    """The rows of an events.csv text: {column: value}, numbers as floats (a contact point's as an
    int), empty fields None."""
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    return [{k: _value(k, v) for k, v in row.items()} for row in rows]


def _value(column: str, text: str):
    if column in TEXT_COLUMNS:
        return text
    if not text:
        return None
    return int(text) if column == "point" else float(text)
