"""ConversionError: valid JSON that the Python type still refused, with where it happened."""

from __future__ import annotations

from typing import Any

from llmapp._errors import LlmappError
from llmapp.jsonschema import Path

__all__ = [
    "ConversionError",
    "failure",
    "item_at",
    "refused",
]


class ConversionError(LlmappError):
    """A value passed validation but could not become its Python type.

    This happens when the Python side is stricter than the schema: a
    ``__post_init__`` or pydantic validator rejects the value, a date-time lies
    outside ``datetime``'s range, a constructor raises. It is a data problem,
    so the executor reports it to the model like a validation issue.

    Attributes:
        path: where, from ``$input`` (``$input.items[3].when``), like ``ValidationIssue.path``.
        expected: the Python type that refused the value (``datetime``, ``Order``).
        value: the JSON value that was refused.
        cause: the exception the Python side raised.
    """

    def __init__(self, expected: str, value: Any, cause: BaseException) -> None:
        self.segments: list[str | int] = []
        """Path segments, innermost first, while the error travels outwards."""
        self.expected = expected
        self.value = value
        self.cause = cause
        super().__init__(expected, value, cause)

    @property
    def path(self) -> str:
        return str(Path(self.segments[::-1]))

    @property
    def reason(self) -> str:
        text = str(self.cause).strip()
        return f"{type(self.cause).__name__}: {text}" if text else type(self.cause).__name__

    def __str__(self) -> str:
        return f"{self.path}: cannot become {self.expected} ({self.reason})"


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
