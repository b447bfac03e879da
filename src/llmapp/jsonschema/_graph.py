"""A schema as a graph: its subschemas, the definitions it refers to, and which of
those definitions reach themselves (recursive types)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from llmapp._digraph import on_cycles

from ._refs import is_mapping, ref_name, subschemas

__all__ = ["recursive_definitions", "referenced_definitions", "walk"]

Tokens = tuple[str, ...]


def walk(schema: Any, tokens: Tokens = ()) -> Iterator[tuple[Tokens, Mapping[str, Any]]]:
    """Every subschema (the schema itself first) with its pointer tokens; values that are
    data (``const``, ``default``, ``examples``) are not looked into."""
    if not is_mapping(schema):
        return
    yield tokens, schema
    for sub_tokens, sub in subschemas(schema):
        yield from walk(sub, tokens + sub_tokens)


def referenced_definitions(schema: Any) -> set[str]:
    """Names of the definitions ``schema`` refers to itself (not through other definitions)."""
    names: set[str] = set()
    for _, node in walk(schema):
        ref = node.get("$ref")
        name = ref_name(ref) if isinstance(ref, str) else None
        if name is not None:
            names.add(name)
    return names


def recursive_definitions(definitions: Mapping[str, Any]) -> frozenset[str]:
    """The names in ``definitions`` (a ``$defs`` mapping) that reach themselves through
    ``$ref``s, directly or through other definitions."""
    edges = {
        name: referenced_definitions({k: v for k, v in body.items() if k != "$defs"})
        for name, body in definitions.items()
        if is_mapping(body)
    }
    return on_cycles(edges)
