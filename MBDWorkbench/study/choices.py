"""What a study may vary in a model, for pickers such as the workbench's "Parameter study"
panel, and the study dict of one parameter over a range (docs/studies.md)."""

from __future__ import annotations

SECTIONS = ("bodies", "joints", "forces", "drivers")


def parameter_choices(model: dict) -> list[tuple[str, float]]:
    """(path, value) of every number of the model dict that a study may vary: the numeric
    fields of each body, joint, force and driver (by name, profile fields included), gravity
    and the numeric settings."""
    found: list[tuple[str, float]] = []
    for section in SECTIONS:
        for element in model.get(section, []):
            _walk(element, f"{section}[{element['name']}]", found)
    _walk({"gravity": model.get("gravity", [])}, "", found)
    _walk({"settings": model.get("settings", {})}, "", found)
    return found


def _walk(node: object, path: str, found: list) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in ("name", "type"):
                _walk(value, f"{path}.{key}" if path else key, found)
    elif isinstance(node, list):
        for k, value in enumerate(node):
            if not isinstance(value, list | dict):
                _walk(value, f"{path}[{k}]", found)
    elif isinstance(node, int | float) and not isinstance(node, bool):
        found.append((path, float(node)))


def range_study(
    model: dict, path: str, design: str, low: float, high: float, count: int, seed: int = 0, name: str = "study"
) -> dict:
    """The study dict varying one parameter ``path`` of ``model`` (inline) from ``low`` to ``high``:
    ``count`` grid points, or ``count`` samples of a uniform distribution (lhs, monte_carlo)."""
    parameter = {"path": path, "min": low, "max": high}
    if design == "grid":
        parameter["count"] = count
        plan = {"type": "grid"}
    else:
        plan = {"type": design, "samples": count, "seed": seed}
    return {"name": name, "model": model, "parameters": [parameter], "design": plan}
