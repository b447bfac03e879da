"""Types: what a schema declares, what a value is, and schemas that accept anything."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._keywords import KEYWORDS

__all__ = ["JSON_TYPES", "accepts_anything", "declared_types", "json_type"]

JSON_TYPES = ("string", "integer", "number", "boolean", "null", "array", "object")
"""The seven JSON-Schema type names, in the order expected texts list them."""

_ONE_TYPE = {name: frozenset({name}) for name in JSON_TYPES}
_VALIDATING = frozenset(name for name, row in KEYWORDS.items() if row.validates)


def declared_types(schema: Mapping[str, Any]) -> frozenset[str] | None:
    """The JSON types the ``type`` keyword allows, or None when ``type`` is absent.

    A list keeps its string entries; OpenAPI's ``nullable`` is not read here (callers
    that accept OpenAPI 3.0 add ``null`` themselves).
    """
    declared = schema.get("type")
    if isinstance(declared, str):
        found = _ONE_TYPE.get(declared)
        return found if found is not None else frozenset({declared})
    if isinstance(declared, list):
        return frozenset(name for name in declared if isinstance(name, str))
    return None


def json_type(value: object) -> str | None:
    """The JSON type of a Python value, or None for a value JSON cannot hold.

    The one rule every stage uses: ``True``/``False`` are ``boolean`` (not integers);
    ``3`` and ``3.0`` are ``integer``; NaN and infinities are not JSON; a ``dict`` (or
    subclass) is an ``object``; a ``list`` or ``tuple`` (or subclass) is an ``array``.
    """
    if value is None:
        return "null"
    if value is True or value is False:
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        if value - value != 0.0:
            return None
        return "integer" if value.is_integer() else "number"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return None


def accepts_anything(schema: Any) -> bool:
    """Whether a schema accepts every value: ``True``, ``{}``, or only annotations.

    A schema holding any keyword of ``KEYWORDS`` that can refuse a value
    (``minLength``, ``$ref``, ``anyOf``, ...) does not accept anything, even though
    some values pass it whatever they are (``{"minLength": 3}`` accepts numbers).
    Unknown keywords (``x-...``) are annotations.
    """
    if schema is True:
        return True
    if not isinstance(schema, Mapping):
        return False
    return _VALIDATING.isdisjoint(schema)
