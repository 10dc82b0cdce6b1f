"""The error of the FreeCAD side: an object or a pick cannot be used as asked."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


class CadError(ValueError):
    """A FreeCAD object cannot be used as asked (no solid, zero volume, ...)."""


def concise_errors(execute: Callable) -> Callable:
    """Decorate a proxy's ``execute``: a CadError (a problem the user can fix, its message naming
    the object) is raised again from ``execute`` itself, without the internal calls that led to
    it. FreeCAD 0.20 prints a traceback for any exception of a Python feature's execute (and only
    an exception marks the object invalid, with the message as its status): this keeps that
    traceback to the one frame above the message instead of the whole internal stack."""

    @functools.wraps(execute)
    def wrapper(self: Any, obj: Any) -> Any:
        try:
            return execute(self, obj)
        except CadError as exc:
            error = CadError(str(exc))
        raise error from None

    return wrapper
