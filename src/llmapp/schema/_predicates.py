"""Questions about one LLM schema, for writing ``separate`` predicates and the like."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "HUMAN_KEYWORD",
    "is_array",
    "is_boolean",
    "is_file",
    "is_human",
    "is_integer",
    "is_null",
    "is_number",
    "is_object",
    "is_reference",
    "is_string",
    "is_union",
    "is_unknown",
]

HUMAN_KEYWORD = "x-llmapp-human"
"""Schema keyword set to ``true`` on values only a human may compose."""

Schema = Mapping[str, Any]


def _has_type(schema: Schema, name: str) -> bool:
    declared = schema.get("type")
    return declared == name or (isinstance(declared, list) and name in declared)


def is_string(schema: Schema) -> bool:
    return _has_type(schema, "string")


def is_integer(schema: Schema) -> bool:
    return _has_type(schema, "integer")


def is_number(schema: Schema) -> bool:
    return _has_type(schema, "number")


def is_boolean(schema: Schema) -> bool:
    return _has_type(schema, "boolean")


def is_null(schema: Schema) -> bool:
    return _has_type(schema, "null")


def is_array(schema: Schema) -> bool:
    return _has_type(schema, "array")


def is_object(schema: Schema) -> bool:
    return _has_type(schema, "object")


def is_reference(schema: Schema) -> bool:
    return isinstance(schema.get("$ref"), str)


def is_union(schema: Schema) -> bool:
    return isinstance(schema.get("anyOf"), list) or isinstance(schema.get("oneOf"), list)


def is_unknown(schema: Schema) -> bool:
    """True for a schema that accepts any value (``{}``, or only annotations)."""
    # Imported here: the leaf imports urllib.parse (and with it ipaddress), which
    # building schemas does not otherwise load.
    from llmapp.jsonschema import accepts_anything

    return accepts_anything(schema)


def is_file(schema: Schema) -> bool:
    """True for binary content: ``contentMediaType``, ``contentEncoding`` or ``format: binary``.

    A nullable file (``anyOf [file, null]``) is a file too.
    """
    return any(_is_file_itself(option) for option in _with_nullable_options(schema))


def is_human(schema: Schema) -> bool:
    """True where llmapp's ``Human`` marker put its keyword (also inside ``anyOf [X, null]``)."""
    return any(option.get(HUMAN_KEYWORD) is True for option in _with_nullable_options(schema))


def _is_file_itself(schema: Schema) -> bool:
    return (
        "contentMediaType" in schema
        or "contentEncoding" in schema
        or schema.get("format") == "binary"
    )


def _with_nullable_options(schema: Schema) -> list[Schema]:
    """The schema, plus its non-null option when it is ``anyOf``/``oneOf`` ``[X, null]``."""
    options = schema.get("anyOf", schema.get("oneOf"))
    if isinstance(options, list) and len(options) == 2:
        rest = [o for o in options if isinstance(o, Mapping) and o.get("type") != "null"]
        if len(rest) == 1:
            return [schema, rest[0]]
    return [schema]
