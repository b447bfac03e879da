"""Python default values -> their JSON form in a schema (``"default": ...``).

An Enum becomes its value, a dataclass or NamedTuple a dict, a tuple or set a
list, a scalar type its ``dump`` in ``llmapp._scalars.table`` (a ``datetime`` its
ISO text, bytes base64) -- the same JSON the LLM would write for that type. A
value with no JSON form gives ``UNREPRESENTABLE`` and the schema simply shows no
default; so does a scalar whose JSON form fails its own type's forms (a ``NaN``
float or ``Decimal``): a default is only shown when it would pass validation.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
from collections.abc import Callable, Mapping
from typing import Any

from llmapp._scalars.table import Scalar, scalar_of

__all__ = ["UNREPRESENTABLE", "json_value"]


class _Unrepresentable:
    def __repr__(self) -> str:
        return "UNREPRESENTABLE"


UNREPRESENTABLE: Any = _Unrepresentable()


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


def _dataclass(value: Any) -> Any:
    return _mapping({f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init})


_JSON_TYPES: dict[type, str] = {str: "string", bool: "boolean", int: "integer", float: "number"}


def _scalar(row: Scalar, value: Any) -> Any:
    """``row.dump(value)`` when one of the row's forms accepts it, else ``UNREPRESENTABLE``."""
    dumped = row.dump(value)
    kind = _JSON_TYPES.get(type(dumped))
    kinds = (kind, "number") if kind == "integer" else (kind,)
    fits = any(
        form.json_type in kinds and (form.check is None or form.check(dumped)) for form in row.forms
    )
    return dumped if fits else UNREPRESENTABLE


# Ordered: NamedTuple before tuple, Enum before str/int, the scalar types before containers.
_CONTAINERS: tuple[tuple[type | tuple[type, ...], Callable[[Any], Any]], ...] = (
    (Mapping, _mapping),
    ((set, frozenset), _unordered),
    ((list, tuple), _sequence),
)


def json_value(value: Any) -> Any:
    """The JSON form of a Python value, or ``UNREPRESENTABLE``."""
    if value is None or type(value) in (str, bool, int):
        return value
    if isinstance(value, enum.Enum):
        return json_value(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _dataclass(value)
    as_dict = getattr(value, "_asdict", None)
    if isinstance(value, tuple) and callable(as_dict):  # a NamedTuple is an object in the schema
        return _mapping(as_dict())
    dump = _pydantic_dump(value)
    if dump is not None:
        return dump
    scalar = scalar_of(type(value))
    if scalar is not None:
        return _scalar(scalar[0], value)
    for types, convert in _CONTAINERS:
        if isinstance(value, types):
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
