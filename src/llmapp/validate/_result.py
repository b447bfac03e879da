"""What a validation returns: success with the data, or failure with every issue."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

__all__ = [
    "UNDEFINED",
    "Validation",
    "ValidationFailure",
    "ValidationIssue",
    "ValidationSuccess",
]

T = TypeVar("T")


class _Undefined:
    """The value of a key that is missing (shown as ``undefined`` to the model)."""

    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "UNDEFINED"


UNDEFINED: Any = _Undefined()
"""``ValidationIssue.value`` for a required key that was not given."""


@dataclass(frozen=True, slots=True)
class ValidationIssue:
    """One mistake in the data.

    Attributes:
        path: where, from ``$input`` (``$input.items[3].sku``, ``$input["content-type"]``).
        expected: what was expected, written like a type (``integer & Minimum<1>``);
            ``"undefined"`` for a key that must not be there.
        value: the wrong value, or ``UNDEFINED`` for a missing key.
        description: an optional explanation for the model.
    """

    path: str
    expected: str
    value: Any
    description: str | None = None


@dataclass(frozen=True, slots=True)
class ValidationSuccess(Generic[T]):
    """The data is valid; ``data`` is the data that was validated."""

    data: T
    success: Literal[True] = field(default=True, init=False)


@dataclass(frozen=True, slots=True)
class ValidationFailure:
    """The data is wrong; ``errors`` lists every issue found, in document order."""

    data: Any
    errors: list[ValidationIssue]
    success: Literal[False] = field(default=False, init=False)


Validation = ValidationSuccess[Any] | ValidationFailure
