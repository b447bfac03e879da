"""What a validation returns: success with the data, or failure with every issue.

A leaf module (of llmapp it imports only the sentinel): the validator writes these
results, and repair, feedback, the call step and the HTTP request builder read them
without depending on the validator.

The three classes behave as frozen dataclasses: the same fields, ``==``, ``hash``,
``repr``, ``__match_args__``, and ``dataclasses.fields``/``asdict``/``replace`` work on
them. They are written by hand because validators build one per call and one per issue:
the fields live in private slots filled by a plain ``__init__`` and are read through
read-only properties, which builds an object without a frozen dataclass's
``object.__setattr__`` per field. Assigning a field raises
``AttributeError`` (a frozen dataclass raises its subclass ``FrozenInstanceError``).
"""

from __future__ import annotations

import dataclasses
from reprlib import recursive_repr
from typing import Any, ClassVar, Generic, Literal, TypeVar

from llmapp._sentinels import MISSING

__all__ = [
    "UNDEFINED",
    "Validation",
    "ValidationFailure",
    "ValidationIssue",
    "ValidationSuccess",
]

T = TypeVar("T")


UNDEFINED: Any = MISSING
"""``ValidationIssue.value`` for a required key that was not given (``llmapp._sentinels``)."""


class ValidationIssue:
    """One mistake in the data.

    Read-only: each field is a property over a slot. llmapp's own per-call code (the
    feedback, repair) reads the slots (``_path``, ...) themselves, since before Python 3.12
    a property costs a Python call, several a failed call.

    Attributes:
        path: where, from ``$input`` (``$input.items[3].sku``, ``$input["content-type"]``).
        expected: what was expected, written like a type (``integer & Minimum<1>``);
            ``"undefined"`` for a key that must not be there.
        value: the wrong value, or ``UNDEFINED`` for a missing key.
        description: an optional explanation for the model.
    """

    __slots__ = ("_description", "_expected", "_path", "_value")
    __match_args__ = ("path", "expected", "value", "description")

    def __init__(
        self, path: str, expected: str, value: Any, description: str | None = None
    ) -> None:
        self._path = path
        self._expected = expected
        self._value = value
        self._description = description

    @property
    def path(self) -> str:
        return self._path

    @property
    def expected(self) -> str:
        return self._expected

    @property
    def value(self) -> Any:
        return self._value

    @property
    def description(self) -> str | None:
        return self._description

    def _fields(self) -> tuple[str, str, Any, str | None]:
        return (self._path, self._expected, self._value, self._description)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ValidationIssue) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    @recursive_repr()
    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}(path={self._path!r}, expected={self._expected!r}, "
            f"value={self._value!r}, description={self._description!r})"
        )

    def __reduce__(self) -> tuple[type[ValidationIssue], tuple[Any, ...]]:
        return self.__class__, self._fields()


class ValidationSuccess(Generic[T]):
    """The data is valid; ``data`` is the data that was validated.

    The validator builds one per valid call without ``__init__`` (``object.__new__``, then
    the slot: ``validate._validator._bare``), so ``__init__`` does nothing else.
    """

    __slots__ = ("_data",)
    __match_args__ = ("data",)
    success: ClassVar[Literal[True]] = True

    def __init__(self, data: T) -> None:
        self._data = data

    @property
    def data(self) -> T:
        return self._data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ValidationSuccess) or other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self._data == other._data)

    def __hash__(self) -> int:
        return hash((self._data, True))

    @recursive_repr()
    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(data={self._data!r}, success=True)"

    def __reduce__(self) -> tuple[type[ValidationSuccess[T]], tuple[Any, ...]]:
        return self.__class__, (self._data,)


class ValidationFailure:
    """The data is wrong; ``errors`` lists every issue found, in document order.

    Read-only, and read by llmapp's own code through its slots, as ``ValidationIssue``.
    """

    __slots__ = ("_data", "_errors")
    __match_args__ = ("data", "errors")
    success: ClassVar[Literal[False]] = False

    def __init__(self, data: Any, errors: list[ValidationIssue]) -> None:
        self._data = data
        self._errors = errors

    @property
    def data(self) -> Any:
        return self._data

    @property
    def errors(self) -> list[ValidationIssue]:
        return self._errors

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ValidationFailure) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self._data, self._errors) == (other._data, other._errors)

    def __hash__(self) -> int:
        return hash((self._data, self._errors, False))  # TypeError, as for the dataclass

    @recursive_repr()
    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}(data={self._data!r}, errors={self._errors!r}, "
            "success=False)"
        )

    def __reduce__(self) -> tuple[type[ValidationFailure], tuple[Any, ...]]:
        return self.__class__, (self._data, self._errors)


Validation = ValidationSuccess[Any] | ValidationFailure


# -- what dataclasses.fields/asdict/replace see -----------------------------------------


@dataclasses.dataclass(frozen=True)
class _IssueFields:
    path: str
    expected: str
    value: Any
    description: str | None = None


@dataclasses.dataclass(frozen=True)
class _SuccessFields(Generic[T]):
    data: T
    success: Literal[True] = dataclasses.field(default=True, init=False)


@dataclasses.dataclass(frozen=True)
class _FailureFields:
    data: Any
    errors: list[ValidationIssue]
    success: Literal[False] = dataclasses.field(default=False, init=False)


def _as_dataclass(cls: type, fields: type) -> None:
    """Give ``cls`` the dataclass description of ``fields`` (same names, types, defaults)."""
    for name in ("__dataclass_fields__", "__dataclass_params__", "__annotations__"):
        setattr(cls, name, fields.__dict__[name])


_as_dataclass(ValidationIssue, _IssueFields)
_as_dataclass(ValidationSuccess, _SuccessFields)
_as_dataclass(ValidationFailure, _FailureFields)
