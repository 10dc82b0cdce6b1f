"""The compiled system: the flat arrays of a model (System), position assembly and the scaled rank decisions."""

from .system import System

__all__ = ["System"]
