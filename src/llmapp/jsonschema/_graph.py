"""A schema as a graph: its subschemas, the definitions it refers to or reaches, and
which of those definitions reach themselves (recursive types)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from llmapp._digraph import on_cycles

from ._refs import is_mapping, ref_name, subschemas

__all__ = ["reachable_definitions", "recursive_definitions", "referenced_definitions", "walk"]

Tokens = tuple[str, ...]
Skip = Callable[[Mapping[str, Any]], bool]
"""Says which subschemas a walk does not look into (human-side values, say)."""


def walk(
    schema: Any, tokens: Tokens = (), skip: Skip | None = None
) -> Iterator[tuple[Tokens, Mapping[str, Any]]]:
    """Every subschema (the schema itself first) with its pointer tokens; values that are
    data (``const``, ``default``, ``examples``) are not looked into, nor the subschemas
    ``skip`` accepts."""
    if not is_mapping(schema) or (skip is not None and skip(schema)):
        return
    yield tokens, schema
    for sub_tokens, sub in subschemas(schema):
        yield from walk(sub, tokens + sub_tokens, skip)


def referenced_definitions(schema: Any, skip: Skip | None = None) -> set[str]:
    """Names of the definitions ``schema`` refers to itself (not through other
    definitions), not looking inside the subschemas ``skip`` accepts."""
    names: set[str] = set()
    for _, node in walk(schema, (), skip):
        ref = node.get("$ref")
        name = ref_name(ref) if isinstance(ref, str) else None
        if name is not None:
            names.add(name)
    return names


def reachable_definitions(
    schema: Any, definitions: Mapping[str, Any], skip: Skip | None = None
) -> set[str]:
    """The names in ``definitions`` (a ``$defs`` mapping) that ``schema`` refers to,
    directly or through other definitions, not looking inside what ``skip`` accepts."""
    found: set[str] = set()
    pending = [schema]
    while pending:
        for name in referenced_definitions(pending.pop(), skip):
            if name in definitions and name not in found:
                found.add(name)
                pending.append(definitions[name])
    return found


def recursive_definitions(definitions: Mapping[str, Any]) -> frozenset[str]:
    """The names in ``definitions`` (a ``$defs`` mapping) that reach themselves through
    ``$ref``s, directly or through other definitions."""
    edges = {
        name: referenced_definitions({k: v for k, v in body.items() if k != "$defs"})
        for name, body in definitions.items()
        if is_mapping(body)
    }
    return on_cycles(edges)
