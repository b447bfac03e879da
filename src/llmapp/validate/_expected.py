"""The ``expected`` text of a schema, written like a type (typia style).

``string & MinLength<3> & Format<"email">``, ``integer & Minimum<1>``,
``Array<Product>``, ``("low" | "normal" | "high")``, ``(1 (LOW) | 2 (HIGH))`` (an enum
with its members' names, ``x-enum-varnames``), ``(Product | null)``,
``Record<string, number>``; a ``$ref`` to a named definition reads as its name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from llmapp._scalars.table import NUMERIC_TEXT_FORMATS
from llmapp.jsonschema import MISSING, declared_types, enum_names, ref_name, resolve_pointer

from ._vocabulary import labels

__all__ = ["expected_of", "expected_text", "reference_text"]

RefText = Callable[[str], str]

_NUMERIC = labels("number")
_STRING = labels("string")
_ARRAY = labels("array")
_OBJECT = labels("object")
_TYPE_ORDER = ("string", "integer", "number", "boolean", "array", "object", "null")
_INTEGER_FORMATS = ("int32", "int64", "uint32", "uint64")


def expected_of(schema: Mapping[str, Any] | bool, root: Any = None) -> str:
    """The expected text for a schema, as validation issues show it.

    Args:
        schema: any JSON schema (or boolean schema).
        root: the document its ``$ref``s point into; refs to named definitions read as
            the name whether or not it is given.

    Returns:
        Text such as ``integer & Minimum<1>`` or ``(Product | null)``.

    Example:
        >>> expected_of({"type": "string", "format": "email"})
        'string & Format<"email">'
    """
    seen: set[str] = set()

    def ref_text(ref: str) -> str:
        name = ref_name(ref)
        target = _local(root, ref) if root is not None and ref.startswith("#") else None
        if target is None or ref in seen:
            return name or "any"
        seen.add(ref)
        try:
            return reference_text(name, target, ref_text)
        finally:
            seen.discard(ref)

    return expected_text(schema, ref_text)


def reference_text(name: str | None, target: Any, ref_text: RefText) -> str:
    """How a reference to ``target`` reads: a structured definition by its name, an
    enum or a scalar by what it allows (``("low" | "high")`` tells the model more
    than ``Priority``)."""
    if name and _structured(target):
        return name
    text = expected_text(target, ref_text)
    return name if name and text in ("object", "any") else text


def _structured(schema: Any) -> bool:
    """Whether a definition reads as its name: a rendering choice (what makes a schema
    a "type" for the model), so the keywords are listed here, not in the table."""
    if not isinstance(schema, Mapping):
        return False
    keys = (
        "properties",
        "additionalProperties",
        "patternProperties",
        "items",
        "prefixItems",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "not",
        "if",
    )
    if any(key in schema for key in keys):
        return True
    return not (declared_types(schema) or frozenset()).isdisjoint(("object", "array"))


def _local(root: Any, ref: str) -> Any:
    """The schema a local reference (``#/$defs/X``) names in ``root``, or None."""
    node = resolve_pointer(root, ref, fragment=True)
    return node if node is not MISSING and isinstance(node, (Mapping, bool)) else None


def expected_text(schema: Any, ref_text: RefText) -> str:
    """Expected text with refs rendered by ``ref_text``."""
    return _join_union(_alternatives(schema, ref_text))


def _join_union(members: list[str]) -> str:
    if not members:
        return "never"
    if len(members) == 1:
        return members[0]
    return "(" + " | ".join(members) + ")"


def _alternatives(schema: Any, ref_text: RefText) -> list[str]:
    """The union members a schema allows (one member when it is not a union)."""
    if schema is False:
        return ["never"]
    if not isinstance(schema, Mapping):
        return ["any"]
    members = _core(schema, ref_text)
    if schema.get("nullable") is True and "null" not in members:
        members = [*members, "null"]
    return _dedupe(members)


def _dedupe(members: list[str]) -> list[str]:
    return list(dict.fromkeys(members))


def _core(schema: Mapping[str, Any], ref_text: RefText) -> list[str]:
    if "const" in schema:
        return [_json(schema["const"])]
    if isinstance(schema.get("enum"), list):
        names = enum_names(schema) or ()
        return [
            _named(value, names[i] if names else None) for i, value in enumerate(schema["enum"])
        ] or ["never"]
    parts: list[str] = []
    members: list[str] | None = None
    ref = schema.get("$ref")
    if isinstance(ref, str):
        parts.append(ref_text(ref))
    declared = _declared_types(schema)
    if declared is not None:
        typed = [_typed(name, schema, ref_text) for name in declared]
        if len(typed) == 1:
            parts.append(typed[0])
        else:
            members = typed
    elif not parts and not _has_combinator(schema):
        implied = _implied_type(schema)
        if implied is not None:
            parts.append(_typed(implied, schema, ref_text))
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and branches:
            union = _dedupe(
                [
                    m
                    for branch in branches
                    for a in _alternatives(branch, ref_text)
                    for m in _members(a)
                ]
            )
            if members is None and not parts:
                members = union
            else:
                parts.append(_join_union(union))
    branches = schema.get("allOf")
    if isinstance(branches, list) and branches:
        texts = [expected_text(branch, ref_text) for branch in branches]
        parts.extend(text for text in texts if text != "any")
    if "not" in schema:
        parts.append(f"Not<{expected_text(schema['not'], ref_text)}>")
    if members is not None:
        if parts:
            return [" & ".join([_join_union(members), *parts])]
        return members
    return [" & ".join(_dedupe(parts))] if parts else ["any"]


def _members(text: str) -> list[str]:
    """The members of a parenthesised union text (``("a" | "b")``), else the text itself."""
    if not (text.startswith("(") and text.endswith(")")):
        return [text]
    members, depth, start, quoted, escaped = [], 0, 1, False, False
    for index, char in enumerate(text):
        if quoted:
            escaped, quoted = (False, True) if escaped else (char == "\\", char != '"')
            continue
        if char == '"':
            quoted = True
        elif char in "([<":
            depth += 1
        elif char in ")]>":
            depth -= 1
            if depth == 0 and index != len(text) - 1:
                return [text]  # "(A) & (B)": not one union
        elif depth == 1 and text.startswith(" | ", index):
            members.append(text[start:index])
            start = index + 3
    members.append(text[start:-1])
    return members if len(members) > 1 else [text]


def _named(value: Any, name: str | None) -> str:
    """An enum value, with its member's name where the name says more than the value
    (``3 (HIGH)``; ``"low"`` for ``LOW = "low"``); a name that is no identifier is quoted."""
    text = _json(value)
    if name is None or name == value or (isinstance(value, str) and name.lower() == value.lower()):
        return text
    return f"{text} ({name if name.isidentifier() else _json(name)})"


def _has_combinator(schema: Mapping[str, Any]) -> bool:
    return any(isinstance(schema.get(k), list) for k in ("anyOf", "oneOf", "allOf"))


def _declared_types(schema: Mapping[str, Any]) -> list[str] | None:
    """The declared types in expected-text order (``integer`` within ``number``); None
    for no ``type`` or an empty list."""
    declared = declared_types(schema)
    if declared is None or schema["type"] == []:
        return None
    names = set(declared)
    if "number" in names:
        names.discard("integer")
    return sorted(names, key=lambda n: (_TYPE_ORDER.index(n) if n in _TYPE_ORDER else 99, n))


def _implied_type(schema: Mapping[str, Any]) -> str | None:
    """The type an untyped schema's keywords imply: the labelled constraints of a family
    (``MinLength``, ``Minimum``...) and, for objects and arrays, the keywords a reader
    takes for one (``{"minItems": 1}`` reads ``Array<any> & MinItems<1>``)."""
    keys = set(schema)
    if keys & {"properties", "additionalProperties", "required", "patternProperties"}:
        return "object"
    if keys & {"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"}:
        return "array"
    if keys & {name for name, _ in _STRING}:
        return "string"
    if keys & {name for name, _ in _NUMERIC}:
        return "number"
    return None


def _typed(name: str, schema: Mapping[str, Any], ref_text: RefText) -> str:
    if name in ("integer", "number"):
        return _constrained(name, schema, _NUMERIC, _number_format(schema))
    if name == "string":
        extra = []
        if isinstance(schema.get("format"), str):
            extra.append(f"Format<{_json(schema['format'])}>")
        if schema.get("contentEncoding") == "base64":
            extra.append('ContentEncoding<"base64">')
        text = _constrained(name, schema, _STRING, extra)
        if schema.get("format") in NUMERIC_TEXT_FORMATS:  # its bounds judge the number it writes
            text = _constrained(text, schema, _NUMERIC, [])
        return text
    if name == "array":
        extra = ["UniqueItems<true>"] if schema.get("uniqueItems") is True else []
        if "contains" in schema:
            extra.append(f"Contains<{expected_text(schema['contains'], ref_text)}>")
        return _constrained(_array(schema, ref_text), schema, _ARRAY, extra)
    if name == "object":
        return _constrained(_object(schema, ref_text), schema, _OBJECT, [])
    return name


def _number_format(schema: Mapping[str, Any]) -> list[str]:
    fmt = schema.get("format")
    return [f"Type<{_json(fmt)}>"] if fmt in _INTEGER_FORMATS else []


def _constrained(
    base: str,
    schema: Mapping[str, Any],
    keywords: tuple[tuple[str, str], ...],
    extra: list[str],
) -> str:
    parts = [base]
    for keyword, tag in keywords:
        value = schema.get(keyword)
        if value is None or value is False:
            continue
        if value is True and keyword.startswith("exclusive"):
            bound = "minimum" if keyword == "exclusiveMinimum" else "maximum"
            parts = [p for p in parts if not p.startswith(bound.capitalize() + "<")]
            if bound in schema:
                parts.append(f"{tag}<{_json(schema[bound])}>")
            continue
        parts.append(f"{tag}<{_json(value)}>")
    return " & ".join(parts + extra)


def _array(schema: Mapping[str, Any], ref_text: RefText) -> str:
    prefix = schema.get("prefixItems")
    items = schema.get("items")
    if isinstance(items, list):
        prefix, items = items, schema.get("additionalItems")
    if isinstance(prefix, list) and prefix:
        members = [expected_text(sub, ref_text) for sub in prefix]
        if items is not False and items is not None:
            members.append("..." + f"Array<{expected_text(items, ref_text)}>")
        return "[" + ", ".join(members) + "]"
    if items is None or items is True:
        return "Array<any>"
    return f"Array<{expected_text(items, ref_text)}>"


def _object(schema: Mapping[str, Any], ref_text: RefText) -> str:
    extra = schema.get("additionalProperties")
    if "properties" not in schema and isinstance(extra, Mapping):
        return f"Record<string, {expected_text(extra, ref_text)}>"
    return "object"


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
