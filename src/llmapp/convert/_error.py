"""ConversionError: valid JSON that the Python type still refused, with where it happened."""

from __future__ import annotations

from typing import Any

from llmapp._errors import ConversionError

__all__ = [
    "ConversionError",
    "failure",
    "item_at",
    "refused",
]


def failure(error: Exception, segment: str | int, expected: str, value: Any) -> ConversionError:
    """The error as a ``ConversionError`` one level further out (at ``segment``)."""
    if not isinstance(error, ConversionError):
        error = ConversionError(expected, value, error)
    error.segments.append(segment)
    return error


def refused(error: Exception, expected: str, value: Any) -> ConversionError:
    """The error as a ``ConversionError`` at the current level (no segment added)."""
    if isinstance(error, ConversionError):
        return error
    return ConversionError(expected, value, error)


def item_at(container: Any, index: Any) -> Any:
    """``container[index]`` for an error report, or ``None`` when it cannot be read (a set)."""
    try:
        return container[index]
    except Exception:
        return None
