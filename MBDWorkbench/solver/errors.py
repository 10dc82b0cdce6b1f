"""Exceptions raised by the solver, each naming the model element at fault."""

from __future__ import annotations


class ModelError(ValueError):
    """Invalid model input; ``path`` is the JSON path of the offending field."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


class AssemblyError(RuntimeError):
    """The mechanism cannot be assembled (Newton did not close the joints)."""

    def __init__(self, message: str, worst: list[tuple[str, float]] | None = None) -> None:
        self.worst = worst or []
        super().__init__(message)


class SimulationError(RuntimeError):
    """A run stopped early; ``results`` holds everything computed until then (a
    ``results.Results``, set by ``simulate``; typed ``object`` because this leaf module
    imports nothing of the solver)."""

    def __init__(
        self,
        message: str,
        time: float | None = None,
        worst_joints: list[tuple[str, float]] | None = None,
        results: object | None = None,
    ) -> None:
        self.time = time
        self.worst_joints = worst_joints or []
        self.results = results
        super().__init__(message)


class Cancelled(SimulationError):
    """The user cancelled the run; ``results`` holds the samples so far."""
