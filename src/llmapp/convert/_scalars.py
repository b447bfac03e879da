"""Scalar conversions: the Python type a JSON scalar becomes (``python_type`` -> converter).

A dispatch table keyed by type, looked up along the target type's MRO, so a
subclass of ``PurePath`` or ``IPv4Address`` finds its row; types with no row
are called with the JSON value (``MyStr(value)``). ``None`` means "use the JSON
value as it is" and lets containers of such values skip conversion entirely.
"""

from __future__ import annotations

import enum
import ipaddress
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import PurePath
from typing import Any
from uuid import UUID

from ._formats import (
    decode_base64,
    looks_like_date,
    looks_like_datetime,
    looks_like_duration,
    looks_like_time,
    parse_date,
    parse_datetime,
    parse_duration,
    parse_time,
)

__all__ = [
    "Converter",
    "enum_converter",
    "scalar_converter",
    "scalar_matcher",
    "to_int",
    "type_name",
]

Converter = Callable[[Any], Any]

_AS_IS: frozenset[Any] = frozenset({str, bool, type(None), object})


def to_int(value: Any) -> Any:
    # JSON Schema counts 3.0 as an integer; Python code declared ``int`` wants 3.
    return value if type(value) is int else int(value)


def _to_float(value: Any) -> Any:
    return value if type(value) is float else float(value)


def _to_decimal(value: Any) -> Decimal:
    # repr() of a float is its shortest round-tripping text: 0.1 -> Decimal("0.1").
    return Decimal(value if isinstance(value, (str, int)) else repr(value))


def _to_timedelta(value: Any) -> timedelta:
    if isinstance(value, str):
        return parse_duration(value)
    return timedelta(seconds=value)


def _to_bytearray(value: str) -> bytearray:
    return bytearray(decode_base64(value))


def _constructor(python_type: Any) -> Converter:
    return python_type  # type: ignore[no-any-return]


# Rows are looked up along the target's MRO, so order does not matter here; each row
# takes the target type (a subclass may need its own constructor) and gives the converter.
_ROWS: dict[type, Callable[[Any], Converter]] = {
    int: lambda t: to_int if t is int else t,
    float: lambda t: _to_float if t is float else t,
    datetime: lambda t: parse_datetime if t is datetime else lambda v: t.fromisoformat(v),
    date: lambda t: parse_date if t is date else lambda v: t.fromisoformat(v),
    time: lambda t: parse_time if t is time else lambda v: t.fromisoformat(v),
    timedelta: lambda t: _to_timedelta,
    Decimal: lambda t: _to_decimal if t is Decimal else lambda v: t(_to_decimal(v)),
    bytes: lambda t: decode_base64 if t is bytes else lambda v: t(decode_base64(v)),
    bytearray: lambda t: _to_bytearray,
    UUID: _constructor,
    PurePath: _constructor,
    ipaddress.IPv4Address: _constructor,
    ipaddress.IPv6Address: _constructor,
    ipaddress.IPv4Network: _constructor,
    ipaddress.IPv6Network: _constructor,
    ipaddress.IPv4Interface: _constructor,
    ipaddress.IPv6Interface: _constructor,
}

# Strict "is it written like this type?" checks, for choosing a branch of a union.
_LOOKS_LIKE: dict[type, Callable[[str], bool]] = {
    datetime: looks_like_datetime,
    date: looks_like_date,
    time: looks_like_time,
    timedelta: looks_like_duration,
}


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
    for cls in getattr(python_type, "__mro__", ()):
        row = _ROWS.get(cls)
        if row is not None:
            converter = row(python_type)
            return converter if cls in (int, float) else _accepting(python_type, converter)
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
    for cls in getattr(python_type, "__mro__", ()):
        looks_like = _LOOKS_LIKE.get(cls)
        if looks_like is not None:
            return lambda value: isinstance(value, str) and looks_like(value)

    def fits(value: Any) -> bool:
        try:
            converter(value)
        except Exception:
            return False
        return True

    return fits


def type_name(python_type: Any) -> str:
    """A short display name for a Python type (``datetime``, ``IPv4Address``)."""
    return str(getattr(python_type, "__name__", None) or python_type)
