"""A vendor's strict schema subset as a table, and the two things done with it.

Each vendor module describes what its strict mode accepts as a ``Subset``: one
row per keyword it accepts, with a test of the values it accepts there. Then:

- ``conform(schema, subset)`` returns a copy in which every assertion or annotation
  the vendor refuses is moved into the description as an ``@keyword value`` line
  (the form ``llmapp.schema`` already uses), so the model still reads it and
  llmapp's validator still enforces it. Keywords that hold subschemas or
  references cannot be moved: they stay, and ``refusals`` reports them.
- ``refusals(schema, subset)`` lists every keyword the vendor refuses, as
  ``Refusal(tokens, reason)``: the JSON-pointer tokens of the subschema and why.

Shared helpers for the vendor checkers: ``transform`` (rebuild a schema through its
subschemas), ``definitions`` and ``inline_refs``, ``where`` (a refusal as ``param.path``
for build errors), ``note`` and ``text`` (``@keyword value`` description lines),
``is_object``, and the value tests several vendors share (``anything``,
``json_types``, ``closed``, ``one_schema``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from llmapp.jsonschema import (
    JSON_TYPES,
    KEYWORDS,
    MAX_REF_HOPS,
    declared_types,
    is_mapping,
    pointer_from,
    reachable_definitions,
    recursive_definitions,
    ref_name,
    walk,
)

__all__ = [
    "Refusal",
    "Subset",
    "anything",
    "closed",
    "conform",
    "definitions",
    "inline_refs",
    "is_object",
    "json_types",
    "movable",
    "note",
    "one_schema",
    "refusals",
    "text",
    "transform",
    "untyped_or_ref_siblings",
    "where",
]

Schema = dict[str, Any]
Tokens = tuple[str, ...]
Accept = Callable[[Any], str | None]
"""A keyword's value -> why the vendor refuses it, or None when it accepts it."""


def anything(value: Any) -> str | None:
    """Accepts every value."""
    return None


def json_types(value: Any) -> str | None:
    """``type``: one JSON type name or a list of them."""
    named = value if isinstance(value, list) else [value]
    return None if all(name in JSON_TYPES for name in named) else "names an unknown type"


def closed(value: Any) -> str | None:
    """``additionalProperties``: only ``false``."""
    return None if value is False else "must be false (free-form keys are not supported)"


def one_schema(value: Any) -> str | None:
    """``items``: one schema, not the old tuple form (a list of schemas)."""
    return None if is_mapping(value) else "must be one schema (not a tuple's list)"


def is_object(schema: Mapping[str, Any]) -> bool:
    """Whether a schema describes an object (declares the type or lists properties)."""
    return "object" in (declared_types(schema) or ()) or "properties" in schema


def untyped_or_ref_siblings(node: Mapping[str, Any], typed: Iterable[str]) -> list[str]:
    """The node rules OpenAI's and Anthropic's strict modes share: a ``$ref`` stands alone,
    and a schema says its type (``typed`` names the keywords that count as saying it)."""
    reasons: list[str] = []
    if "$ref" in node and len(node) > 1:
        reasons.append("a `$ref` cannot have sibling keywords")
    if node.keys().isdisjoint(typed) and "properties" not in node:
        reasons.append("a schema without a type (Any) is not supported")
    return reasons


@dataclass(frozen=True, slots=True)
class Subset:
    """What one vendor's strict mode accepts.

    Attributes:
        vendor: how messages name it (``"OpenAI strict mode"``).
        keywords: accepted keyword -> test of its value (``anything`` for any value).
    """

    vendor: str
    keywords: Mapping[str, Accept] = field(default_factory=dict)

    def refusal(self, keyword: str, value: Any) -> str | None:
        """Why the vendor refuses ``keyword: value``, or None."""
        accept = self.keywords.get(keyword)
        if accept is None:
            return f"`{keyword}` is not supported by {self.vendor}"
        reason = accept(value)
        return None if reason is None else f"`{keyword}` {reason} in {self.vendor}"


@dataclass(frozen=True, slots=True)
class Refusal:
    """One thing a vendor refuses: where (pointer tokens into the schema) and why."""

    tokens: Tokens
    reason: str

    def __str__(self) -> str:
        return f"{pointer_from(self.tokens) or '/'}: {self.reason}"


def movable(keyword: str) -> bool:
    """Whether a refused keyword can become a description line (it holds no subschema)."""
    row = KEYWORDS.get(keyword)
    return row is None or (row.shape is None and row.kind in ("assertion", "annotation"))


def transform(schema: Mapping[str, Any], rewrite: Callable[[Any], Any]) -> Schema:
    """A copy of ``schema`` whose direct subschemas are replaced by ``rewrite(sub)``."""
    result = dict(schema)
    for keyword, value in schema.items():
        row = KEYWORDS.get(keyword)
        shape = row.shape if row is not None else None
        if shape is None:
            continue
        if isinstance(value, list) and shape in ("schema-list", "schema-or-list"):
            result[keyword] = [rewrite(sub) if is_mapping(sub) else sub for sub in value]
        elif is_mapping(value) and shape == "schema-map":
            result[keyword] = {name: rewrite(sub) for name, sub in value.items()}
        elif is_mapping(value) and shape in ("schema", "schema-or-list"):
            result[keyword] = rewrite(value)
    return result


def note(schema: Schema, lines: list[str]) -> Schema:
    """Append lines to the schema's description (in place; returned for chaining)."""
    if lines:
        description = schema.get("description")
        text = "\n".join(lines)
        if not description:
            schema["description"] = text
        else:  # notes follow the text after a blank line, and earlier notes directly
            gap = "\n" if description.rpartition("\n")[2].startswith("@") else "\n\n"
            schema["description"] = f"{description}{gap}{text}"
    return schema


def text(value: Any) -> str:
    """A keyword's value as a description line writes it (strings bare, the rest as JSON)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def conform(schema: Mapping[str, Any], subset: Subset) -> Schema:
    """A copy where every refused assertion or annotation moved into the description."""

    def visit(node: Any) -> Any:
        if not is_mapping(node):
            return node
        kept: Schema = {}
        moved: list[str] = []
        for keyword, value in node.items():
            if keyword == "default" and value is None and subset.refusal(keyword, value):
                continue  # a null default says nothing a nullable or optional value does not
            if keyword != "description" and movable(keyword) and subset.refusal(keyword, value):
                moved.append(f"@{keyword} {text(value)}")
            else:
                kept[keyword] = value
        return note(transform(kept, visit), moved)

    result: Schema = visit(schema)
    return result


def refusals(
    schema: Mapping[str, Any],
    subset: Subset,
    rules: Callable[[Mapping[str, Any]], list[str]] | None = None,
) -> list[Refusal]:
    """What the vendor refuses in ``schema`` and its subschemas, in walk order.

    Args:
        schema: any schema.
        subset: the keywords the vendor accepts.
        rules: the vendor's further rules on one subschema (why it refuses it, if it does).
    """
    return list(each_refusal(schema, subset, rules))


def each_refusal(
    schema: Mapping[str, Any],
    subset: Subset,
    rules: Callable[[Mapping[str, Any]], list[str]] | None = None,
) -> Iterator[Refusal]:
    """``refusals`` one at a time, so a caller asking only whether there is one stops early."""
    for tokens, node in walk(schema):
        for keyword, value in node.items():
            reason = subset.refusal(keyword, value)
            if reason is not None:
                yield Refusal(tokens, reason)
        if rules is not None:
            for reason in rules(node):
                yield Refusal(tokens, reason)


def definitions(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """The root's ``$defs`` (an empty mapping when it has none)."""
    defs = schema.get("$defs")
    return defs if is_mapping(defs) else {}


_SKIPPED = frozenset({"properties", "anyOf", "oneOf", "allOf", "$defs", "definitions"})
_BRANCHES = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})


def where(tokens: Tokens) -> str:
    """A schema location as a parameter path: ``customer.email``, ``items[]``, ``Product.sku``."""
    parts: list[str] = []
    for index, token in enumerate(tokens):
        previous = tokens[index - 1] if index else None
        if token in ("items", "prefixItems", "additionalProperties") and previous != "properties":
            parts.append("[]" if token != "additionalProperties" else "{}")
        elif (token in _SKIPPED and previous != "properties") or previous in _BRANCHES:
            continue
        else:
            parts.append(f".{token}")
    return "".join(parts).lstrip(".")


def inline_refs(
    schema: Mapping[str, Any], *, siblings_only: bool = False
) -> tuple[Schema, set[str]]:
    """A copy with ``$ref``s replaced by their definitions (siblings win over the definition).

    Args:
        schema: a schema with its ``$defs`` at the root.
        siblings_only: replace only the ``$ref``s that have sibling keywords.

    Returns:
        The schema (its ``$defs`` kept only if some ``$ref`` remains) and the names of
        recursive definitions that had to stay references.
    """
    defs = definitions(schema)
    cyclic = recursive_definitions(defs)
    kept: set[str] = set()

    def visit(node: Any, hops: int = 0) -> Any:
        """``node`` with its references inlined; ``hops``: references followed to reach it."""
        if not is_mapping(node):
            return node
        ref = node.get("$ref")
        name = ref_name(ref) if isinstance(ref, str) else None
        if name is not None and name in defs and (len(node) > 1 or not siblings_only):
            if name in cyclic or hops == MAX_REF_HOPS:  # kept as written: a chain too long
                kept.add(name)  # cannot be followed, as everywhere else
                return transform(node, visit)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            return visit({**defs[name], **siblings}, hops + 1)
        if name is not None:
            kept.add(name)
        return transform(node, visit)

    body = visit({k: v for k, v in schema.items() if k != "$defs"})
    # Definitions still referenced may reach others.
    kept |= {n for name in kept if name in defs for n in reachable_definitions(defs[name], defs)}
    if kept:
        body["$defs"] = {name: visit(sub) for name, sub in defs.items() if name in kept}
    return body, kept & cyclic
