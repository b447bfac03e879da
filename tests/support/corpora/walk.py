"""Walking JSON Schemas by keyword: the subschemas of a schema, and copies changed throughout.

Keywords are told apart from data: a property named ``format`` is a name, not the keyword.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_ONE = (
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "items",
    "additionalItems",
    "unevaluatedItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
)


def subschemas(schema: Any) -> Iterator[Any]:
    """The schemas directly inside a schema (by keyword, so a property named "format" is data)."""
    if not isinstance(schema, dict):
        return
    for keyword in _SCHEMA_MAPS:
        if isinstance(schema.get(keyword), dict):
            yield from schema[keyword].values()
    for keyword in _SCHEMA_LISTS:
        if isinstance(schema.get(keyword), list):
            yield from schema[keyword]
    for keyword in _SCHEMA_ONE:
        value = schema.get(keyword)
        if isinstance(value, dict):
            yield value
        elif keyword == "items" and isinstance(value, list):
            yield from value  # draft-07 tuple form
    if isinstance(schema.get("dependencies"), dict):
        yield from (v for v in schema["dependencies"].values() if isinstance(v, dict))


def walk(schema: Any) -> Iterator[Any]:
    """The schema and every schema inside it, depth first."""
    yield schema
    for inner in subschemas(schema):
        yield from walk(inner)


def transform(schema: Any, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """A copy of the schema with ``change`` applied to every (sub)schema object, innermost first."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    for keyword in _SCHEMA_MAPS:
        if isinstance(out.get(keyword), dict):
            out[keyword] = {k: transform(v, change) for k, v in out[keyword].items()}
    for keyword in _SCHEMA_LISTS:
        if isinstance(out.get(keyword), list):
            out[keyword] = [transform(v, change) for v in out[keyword]]
    for keyword in _SCHEMA_ONE:
        if isinstance(out.get(keyword), (dict, list)):
            value = out[keyword]
            out[keyword] = (
                [transform(v, change) for v in value]
                if isinstance(value, list)
                else transform(value, change)
            )
    if isinstance(out.get("dependencies"), dict):
        out["dependencies"] = {k: transform(v, change) for k, v in out["dependencies"].items()}
    return change(out)
