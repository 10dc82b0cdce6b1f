"""Hooks through which the document objects reach the GUI without importing it.

The App side (cad/) never imports the GUI side (commands/), as in FreeCAD's FEM module
(femobjects apart from femviewprovider). At GUI start-up ``InitGui.py`` calls
:func:`MBDWorkbench.commands.view_providers.register_hooks`, which sets the hooks below;
headless they stay unset and :func:`call_hook` does nothing.

Events: ``"created"`` (a maker made ``obj``: give it its view provider) and ``"restored"``
(``obj`` was loaded from a file: give it our view provider if it has none).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

EVENTS = ("created", "restored")
_hooks: dict[str, Callable[[Any], None]] = {}


def set_hook(event: str, func: Callable[[Any], None]) -> None:
    """Call ``func(obj)`` on ``event`` (one of :data:`EVENTS`) from now on."""
    if event not in EVENTS:
        raise ValueError("unknown GUI hook event %r (one of %s)" % (event, ", ".join(EVENTS)))
    _hooks[event] = func


def call_hook(event: str, obj: Any) -> None:
    """Run the hook registered for ``event`` on ``obj``, if any."""
    hook = _hooks.get(event)
    if hook is not None:
        hook(obj)
