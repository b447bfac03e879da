"""What the split walk sees in a schema node: a reference, an object, an array, or a whole leaf."""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from typing import Any

from llmapp.jsonschema import copy_json, declared_types, pointer_from, pointer_tokens

__all__ = [
    "Shape",
    "children",
    "copy_json",
    "def_ref",
    "nullable_option",
    "ref_name",
    "references",
    "shape_of",
]

DEFS_PREFIX = "#/$defs/"
_NULL = {"type": "null"}


class Shape(enum.Enum):
    """How the walk treats a node: split it (REF, OBJECT, ARRAY, NULLABLE) or keep it whole."""

    LEAF = "leaf"
    REF = "ref"
    OBJECT = "object"
    ARRAY = "array"
    NULLABLE = "nullable"
    """``anyOf``/``oneOf`` of one schema and ``{"type": "null"}``: ``Optional[X]``."""


# A node carrying one of these describes a choice or a relation between values, so the
# node is only meaningful whole: it goes to one side, as the predicate says for the node.
_WHOLE_KEYWORDS = frozenset(
    {
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "if",
        "enum",
        "const",
        "prefixItems",
        "patternProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "dependentSchemas",
        "dependentRequired",
    }
)


def _single_type(node: Mapping[str, Any]) -> str | None:
    declared = declared_types(node)
    return next(iter(declared)) if declared is not None and len(declared) == 1 else None


def shape_of(node: Any, defs: Mapping[str, Any]) -> Shape:
    """Classify ``node``; ``defs`` tells which references can be followed."""
    if not isinstance(node, Mapping):
        return Shape.LEAF
    if "$ref" in node:
        return Shape.REF if ref_name(node, defs) is not None else Shape.LEAF
    if nullable_option(node) is not None:
        return Shape.NULLABLE
    # A union in disguise (type list with null, OpenAPI 3.0 nullable) is not split either.
    if node.get("nullable") is True or not _WHOLE_KEYWORDS.isdisjoint(node):
        return Shape.LEAF
    declared = _single_type(node)
    if declared == "object" or ("type" not in node and isinstance(node.get("properties"), Mapping)):
        return Shape.OBJECT
    if declared == "array" and isinstance(node.get("items"), Mapping):
        return Shape.ARRAY
    return Shape.LEAF


def nullable_option(node: Mapping[str, Any]) -> tuple[str, int] | None:
    """``(keyword, index)`` of ``X`` when ``node`` is exactly ``anyOf``/``oneOf`` ``[X, null]``.

    Any other keyword that makes a node whole (a second union, ``enum``...) keeps it whole.
    """
    found = [keyword for keyword in ("anyOf", "oneOf") if keyword in node]
    if len(found) != 1 or len(_WHOLE_KEYWORDS.intersection(node)) != 1:
        return None
    options = node[found[0]]
    if not isinstance(options, list) or len(options) != 2:
        return None
    nulls = [index for index, option in enumerate(options) if option == _NULL]
    if len(nulls) != 1 or not isinstance(options[1 - nulls[0]], Mapping):
        return None
    return found[0], 1 - nulls[0]


def ref_name(node: Mapping[str, Any], defs: Mapping[str, Any]) -> str | None:
    """The ``$defs`` name ``node`` refers to, or ``None`` when it is not a known local def."""
    target = node.get("$ref")
    if not isinstance(target, str) or not target.startswith(DEFS_PREFIX):
        return None
    try:
        tokens = pointer_tokens(target, fragment=True)
    except ValueError:
        return None
    return tokens[1] if len(tokens) == 2 and tokens[1] in defs else None


def def_ref(name: str) -> str:
    """``#/$defs/<name>`` with the name escaped as a JSON-pointer segment."""
    return "#" + pointer_from(("$defs", name))


def children(node: Mapping[str, Any], shape: Shape) -> list[Any]:
    """The schemas the walk descends into: properties and schema extras, or array items."""
    if shape is Shape.OBJECT:
        found = list((node.get("properties") or {}).values())
        extra = node.get("additionalProperties")
        if isinstance(extra, Mapping):
            found.append(extra)
        return found
    if shape is Shape.ARRAY:
        return [node["items"]]
    if shape is Shape.NULLABLE:
        keyword, index = nullable_option(node) or ("", 0)
        return [node[keyword][index]]
    return []


def references(schema: Any) -> Iterator[str]:
    """Every ``$ref`` string anywhere in ``schema``, in document order."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from references(value)
    elif isinstance(schema, (list, tuple)):
        for item in schema:
            yield from references(item)
