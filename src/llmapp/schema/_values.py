"""Python default values -> their JSON form in a schema (``"default": ...``).

An Enum becomes its value, a dataclass or NamedTuple a dict, a tuple or set a
list, a ``datetime`` its ISO text, bytes base64 -- the same JSON the LLM would
write for that type. A value with no JSON form gives ``UNREPRESENTABLE`` and
the schema simply shows no default; so does a naive ``datetime`` or ``time``,
whose text would lack the offset its own format requires.
"""

from __future__ import annotations

import binascii
import dataclasses
import enum
import ipaddress
import math
import pathlib
import sys
from collections.abc import Callable, Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

__all__ = ["UNREPRESENTABLE", "json_value"]


class _Unrepresentable:
    def __repr__(self) -> str:
        return "UNREPRESENTABLE"


UNREPRESENTABLE: Any = _Unrepresentable()


def _duration(value: timedelta) -> str:
    """ISO 8601 duration: ``P1DT2H3M4.5S``; negative durations get a leading ``-``."""
    sign = "-" if value < timedelta(0) else ""
    value = abs(value)
    hours, rest = divmod(value.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    clock = ""
    if hours:
        clock += f"{hours}H"
    if minutes:
        clock += f"{minutes}M"
    if seconds or value.microseconds:
        fraction = f".{value.microseconds:06d}".rstrip("0") if value.microseconds else ""
        clock += f"{seconds}{fraction}S"
    days = f"{value.days}D" if value.days else ""
    if not days and not clock:
        return "PT0S"
    return f"{sign}P{days}" + (f"T{clock}" if clock else "")


def _clock(value: datetime | time) -> Any:
    """ISO text with its offset; a naive value has none, and formats ``date-time`` and
    ``time`` require one, so its default would fail its own schema: none is shown."""
    return UNREPRESENTABLE if value.utcoffset() is None else value.isoformat()


def _sequence(values: Any) -> Any:
    items = [json_value(item) for item in values]
    return UNREPRESENTABLE if any(item is UNREPRESENTABLE for item in items) else items


def _unordered(values: Any) -> Any:
    items = _sequence(values)
    if items is UNREPRESENTABLE:
        return items
    try:
        return sorted(items)  # a set has no order; sorting keeps the schema deterministic
    except TypeError:
        return items


def _mapping(values: Mapping[Any, Any]) -> Any:
    if not all(isinstance(key, str) for key in values):
        return UNREPRESENTABLE
    result = {key: json_value(item) for key, item in values.items()}
    return UNREPRESENTABLE if UNREPRESENTABLE in result.values() else result


def _float(value: float) -> Any:
    return value if math.isfinite(value) else UNREPRESENTABLE


def _dataclass(value: Any) -> Any:
    return _mapping({f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init})


# Ordered: bool before int, datetime before date, NamedTuple before tuple, Enum before str/int.
_ROWS: tuple[tuple[type | tuple[type, ...], Callable[[Any], Any]], ...] = (
    (enum.Enum, lambda value: json_value(value.value)),
    ((bool, str, type(None)), lambda value: value),
    (int, int),
    (float, _float),
    ((datetime, time), _clock),
    (date, lambda value: value.isoformat()),
    (timedelta, _duration),
    ((ipaddress.IPv4Address, ipaddress.IPv6Address), str),
    (pathlib.PurePath, lambda value: value.as_posix()),
    ((bytes, bytearray), lambda value: binascii.b2a_base64(value, newline=False).decode("ascii")),
    (Mapping, _mapping),
    ((set, frozenset), _unordered),
    ((list, tuple), _sequence),
)


_UNLOADED_ROWS: tuple[tuple[str, str, Callable[[Any], Any]], ...] = (
    ("uuid", "UUID", str),
    ("decimal", "Decimal", lambda value: str(value) if value.is_finite() else UNREPRESENTABLE),
)
"""Types of modules llmapp does not import itself (``uuid`` costs ~2 ms): a value of
one can only exist once the user's code has imported its module."""


def json_value(value: Any) -> Any:
    """The JSON form of a Python value, or ``UNREPRESENTABLE``."""
    if value is None or type(value) in (str, bool, int):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _dataclass(value)
    as_dict = getattr(value, "_asdict", None)
    if isinstance(value, tuple) and callable(as_dict):  # a NamedTuple is an object in the schema
        return _mapping(as_dict())
    dump = _pydantic_dump(value)
    if dump is not None:
        return dump
    for types, convert in _ROWS:
        if isinstance(value, types):
            return convert(value)
    for module, name, convert in _UNLOADED_ROWS:
        loaded = sys.modules.get(module)
        if loaded is not None and isinstance(value, getattr(loaded, name)):
            return convert(value)
    return UNREPRESENTABLE


def _pydantic_dump(value: Any) -> Any:
    main = sys.modules.get("pydantic.main")
    base = getattr(main, "BaseModel", None)
    if base is None or not isinstance(value, base):
        return None
    try:
        return value.model_dump(mode="json", by_alias=True)
    except Exception:  # a model that cannot serialise itself has no default to show
        return UNREPRESENTABLE
