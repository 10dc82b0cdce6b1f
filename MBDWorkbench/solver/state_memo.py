"""One memo of the values computed at the last state looked at, shared by the event checks
(solver/events.py's stop gaps, solver/contact_events.py's contact gaps): a check, the next chunk's
length and the next output interval's first check all read the state a chunk ends on."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


class LastState:
    """Values by name at the last state Y looked at (its bytes); cleared when the state changes.
    The arrays it returns are read-only."""

    def __init__(self) -> None:
        self.state: bytes | None = None
        self.values: dict = {}

    def get(self, Y: np.ndarray, name: object, compute: Callable[[], tuple]) -> tuple:
        """``compute()`` (a tuple) at state Y, once per state and name."""
        state = Y.tobytes()  # float64 states: the same bytes, the same state
        if state != self.state:
            self.state, self.values = state, {}
        out = self.values.get(name)
        if out is None:
            out = self.values[name] = compute()
            for a in out:
                if isinstance(a, np.ndarray):
                    a.flags.writeable = False
        return out
