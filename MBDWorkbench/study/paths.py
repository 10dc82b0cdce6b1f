"""Parameter paths: name paths into a model dict such as ``bodies[rod].mass``,
``forces[spring].stiffness``, ``drivers[motor].profile.speed``, ``settings.step`` or
``gravity[1]``. A bracket after a list of objects selects the element by its ``name``; after a
list of numbers it is an index."""

from __future__ import annotations

import re

from ..solver.errors import ModelError

_SEGMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[[^\[\]]+\])*)$")
_BRACKET = re.compile(r"\[([^\[\]]+)\]")


def parse(path: str, where: str) -> list[str | tuple[str]]:
    """The steps of ``path``: a str is a dict key, a 1-tuple a bracket selector. ModelError at
    ``where`` (the JSON path of the field holding it) when the syntax is wrong."""
    if not isinstance(path, str) or not path.strip():
        raise ModelError(where, f"must be a parameter path such as 'bodies[rod].mass', got {path!r}")
    steps: list[str | tuple[str]] = []
    for segment in path.split("."):
        match = _SEGMENT.match(segment.strip())
        if match is None:
            raise ModelError(where, f"'{path}' is not a parameter path (bad part '{segment}')")
        steps.append(match.group(1))
        steps.extend((s.strip(),) for s in _BRACKET.findall(match.group(2)))
    return steps


def _child(node: object, step: str | tuple[str], path: str, where: str) -> tuple[object, object]:
    """(container key or index, child) of one step; ModelError naming what is missing."""
    if isinstance(step, tuple):
        if not isinstance(node, list):
            raise ModelError(where, f"'{path}': [{step[0]}] follows something that is not a list")
        return _select(node, step[0], path, where)
    if not isinstance(node, dict) or step not in node:
        known = ", ".join(sorted(node)) if isinstance(node, dict) else "nothing"
        raise ModelError(where, f"'{path}': unknown field '{step}' (known here: {known})")
    return step, node[step]


def _select(items: list, selector: str, path: str, where: str) -> tuple[int, object]:
    if items and all(isinstance(x, dict) for x in items):
        for k, item in enumerate(items):
            if item.get("name") == selector:
                return k, item
        names = ", ".join(str(x.get("name")) for x in items)
        raise ModelError(where, f"'{path}': no element named '{selector}' (names: {names})")
    if selector.isdigit() and int(selector) < len(items):
        return int(selector), items[int(selector)]
    raise ModelError(where, f"'{path}': index [{selector}] out of range (length {len(items)})")


def get(model: dict, path: str, where: str = "path") -> object:
    """The value at ``path`` in the model dict ``model``."""
    node: object = model
    for step in parse(path, where):
        node = _child(node, step, path, where)[1]
    return node


def put(model: dict, path: str, value: object, where: str = "path") -> None:
    """Set the value at ``path`` (which must exist) in the model dict ``model``, in place."""
    steps = parse(path, where)
    node: object = model
    for step in steps[:-1]:
        node = _child(node, step, path, where)[1]
    key, _ = _child(node, steps[-1], path, where)
    node[key] = value
