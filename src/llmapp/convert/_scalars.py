"""Scalar conversions: the Python type a JSON scalar becomes (``python_type`` -> converter).

The conversions are the rows of ``llmapp._scalars.table``, looked up along the target
type's MRO, so a subclass of ``PurePath`` or ``IPv4Address`` finds its row; types
with no row are called with the JSON value (``MyStr(value)``). ``None`` means "use
the JSON value as it is" and lets containers of such values skip conversion entirely.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from llmapp._scalars.table import scalar_of, to_int

from ._readers import reader

__all__ = [
    "Converter",
    "enum_converter",
    "scalar_converter",
    "scalar_matcher",
    "to_int",
    "type_name",
    "written_as",
]

Converter = Callable[[Any], Any]

_AS_IS: frozenset[Any] = frozenset({str, bool, type(None), object})
_NUMBERS: frozenset[Any] = frozenset({int, float})


def enum_converter(cls: type[enum.Enum]) -> Converter:
    """JSON value -> member of ``cls``, by a dict lookup (``True`` and ``1`` kept apart)."""
    members: dict[tuple[bool, Any], enum.Enum] = {}
    for member in cls:
        members.setdefault((type(member.value) is bool, member.value), member)

    def convert(value: Any) -> Any:
        try:
            return members[type(value) is bool, value]
        except (KeyError, TypeError):
            return cls(value)

    return convert


def scalar_converter(python_type: Any) -> Converter | None:
    """The converter for a JSON scalar that becomes ``python_type``; ``None`` keeps it as is."""
    if python_type is None or python_type in _AS_IS:
        return None
    if isinstance(python_type, type) and issubclass(python_type, enum.Enum):
        return enum_converter(python_type)
    found = scalar_of(python_type)
    if found is not None:
        row, base = found
        converter = row.parse(python_type)
        if base in _NUMBERS:
            return converter
        general = _accepting(python_type, converter)
        return reader(f"{row.module}.{row.name}", base, general) if base is python_type else general
    if isinstance(python_type, type):
        return _accepting(python_type, python_type)
    return python_type if callable(python_type) else None


def _accepting(python_type: type, converter: Converter) -> Converter:
    """Also take a value that is already ``python_type`` (a human-side value, a default)."""

    def convert(value: Any) -> Any:
        return value if isinstance(value, python_type) else converter(value)

    return convert


def scalar_matcher(python_type: Any, converter: Converter) -> Callable[[Any], bool]:
    """Whether a JSON scalar is written as ``python_type`` (used to pick a union branch)."""
    looks_like = written_as(python_type)
    if looks_like is not None:
        return lambda value: isinstance(value, str) and looks_like(value)

    def fits(value: Any) -> bool:
        try:
            converter(value)
        except Exception:
            return False
        return True

    return fits


def written_as(python_type: Any) -> Callable[[str], bool] | None:
    """Whether a string is written as ``python_type`` (its row's ``looks_like``), if known."""
    found = scalar_of(python_type)
    return None if found is None else found[0].looks_like


def type_name(python_type: Any) -> str:
    """A short display name for a Python type (``datetime``, ``IPv4Address``)."""
    return str(getattr(python_type, "__name__", None) or python_type)
