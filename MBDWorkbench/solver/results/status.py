"""How a run ended and what the user must know about its result.

Every run ends with one status of :data:`STATUSES` (:func:`final_status`): ``completed`` only
when nothing was found, ``completed_with_warnings`` when the run reached its end with at least
one warning, ``failed`` when it stopped early, ``cancelled`` when the user stopped it. A warning
is a :class:`RunWarning`: its ``kind`` (one of :data:`WARNING_KINDS`), a message for the user,
the time [s] it refers to (None for the whole run) and the names of the joints, drivers or
bodies concerned. :data:`EXIT_CODES` are the command line's exit codes (docs/solver.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ModelError

COMPLETED = "completed"
COMPLETED_WITH_WARNINGS = "completed_with_warnings"
FAILED = "failed"
CANCELLED = "cancelled"
STATUSES = (COMPLETED, COMPLETED_WITH_WARNINGS, FAILED, CANCELLED)

EXIT_BAD_INPUT = 2  # invalid model or settings, assembly impossible, over-driven model refused
EXIT_INTERNAL = 70  # an unexpected exception (a bug): traceback written to a log file
EXIT_CODES = {COMPLETED: 0, COMPLETED_WITH_WARNINGS: 3, FAILED: 4, CANCELLED: 5}

WARNING_KINDS = {
    "violation": "constraint violation above its tolerance",
    "energy_drift": "energy drift of a conservative model above its tolerance",
    "redundant": "redundant constraint equations (their multipliers are not unique)",
    "rank_change": "the rank of the constraint Jacobian changed during the run",
    "overdriven": "over-driven or conflicting drivers (run forced)",
    "near_singular": "near-singular configuration",
    "ill_scaled": "ill-scaled masses or inertias",
    "integrator": "a remark of the integrator",
    "cad_tolerance": "redundant joint equations the CAD geometry leaves open, left out of the run (tolerant assembly)",
    "joint_dropped": "a joint of the CAD document left out of the model (the message says why)",
    "accuracy": "an estimated error above its accuracy tolerance, or no estimate could be made",
    "stop_unresolved": "a fixed step too long for the contact of a joint's end stop",
    "stop_model": "a joint's end stop left at the default rigid model is compliant (the message says why)",
    "tunnelling": "speed x step above half the thinnest shape of a contact pair",
    "contact_unresolved": "a fixed step too long for an impact of a contact pair",
    "contact": "a contact pair without an exact kind, approximated by the tessellations of its shapes",
}


@dataclass(frozen=True)
class RunWarning:
    """One warning of a run: ``kind`` in WARNING_KINDS, ``time`` [s] or None, ``elements``
    the names of the joints / drivers / bodies concerned."""

    kind: str
    message: str
    time: float | None = None
    elements: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.kind not in WARNING_KINDS:
            raise ValueError(f"unknown warning kind '{self.kind}'")

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict:
        """JSON form (summary.json)."""
        return {"kind": self.kind, "message": self.message, "time": self.time, "elements": list(self.elements)}

    @classmethod
    def from_dict(cls, d: dict | str) -> RunWarning:
        """Inverse of to_dict; a plain string (older results) becomes an 'integrator' warning."""
        if isinstance(d, str):
            return cls("integrator", d)
        return cls(d["kind"], d["message"], d.get("time"), tuple(d.get("elements", ())))


def final_status(status: str, warnings: list[RunWarning]) -> str:
    """The status a run ends with: a run that reached its end (``completed``) becomes
    ``completed_with_warnings`` when any warning was raised; failed and cancelled stay."""
    return COMPLETED_WITH_WARNINGS if status == COMPLETED and warnings else status


def describe(warning: RunWarning) -> str:
    """One line for the user: kind, time, elements and message."""
    when = f" at t = {warning.time:.6g} s" if warning.time is not None else ""
    return f"[{warning.kind}{when}] {warning.message}"


class OverdrivenError(ModelError):
    """The model is over-driven (drivers conflict with the joints or each other) and the run is
    refused before solving; ``drivers`` names the drivers involved."""

    def __init__(self, message: str, drivers: list[str]) -> None:
        self.drivers = list(drivers)
        super().__init__("drivers", message)
