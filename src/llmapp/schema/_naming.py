"""Unique, deterministic ``$defs`` names for a graph, and which definitions are recursive.

Two types with the same name from different modules (``shop.a.Product`` and
``shop.b.Product``) are told apart by the shortest module suffix that makes
them unique (``a_Product``, ``b_Product``); anything still equal gets a
number in the order of the keys' ``repr``. The result depends only on the
graph, never on dict order, so the same classes always give the same names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from llmapp._codegen.fresh import fresh_name
from llmapp._digraph import on_cycles
from llmapp.introspect.model import (
    AliasDef,
    ArrayNode,
    Definition,
    DictNode,
    Node,
    ObjectDef,
    RefNode,
    TupleNode,
    TypeKey,
    UnionNode,
)

__all__ = ["assign_names", "recursive_keys", "references"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_]")


def _prefix_parts(definition: Definition) -> list[str]:
    outer = definition.qualname.split(".")[:-1]
    parts = [*definition.module.split("."), *outer]
    return [_UNSAFE.sub("_", part) for part in parts if part and part != "<locals>"]


def _qualify(group: list[Definition]) -> dict[TypeKey, str]:
    """Names for definitions sharing one display name: add module parts until unique."""
    parts = {d.key: _prefix_parts(d) for d in group}
    deepest = max(len(p) for p in parts.values())
    for depth in range(1, deepest + 1):
        names = {d.key: "_".join([*parts[d.key][-depth:], d.name]) for d in group}
        if len(set(names.values())) == len(group):
            return names
    ordered = sorted(group, key=lambda d: repr(d.key))
    return {d.key: f"{d.name}_{index}" for index, d in enumerate(ordered, start=1)}


def assign_names(definitions: Mapping[TypeKey, Definition]) -> dict[TypeKey, str]:
    """A unique ``$defs`` name for every definition."""
    groups: dict[str, list[Definition]] = {}
    for definition in definitions.values():
        groups.setdefault(definition.name, []).append(definition)
    proposed: dict[str, list[TypeKey]] = {}
    for name, group in groups.items():
        if len(group) == 1:
            proposed.setdefault(name, []).append(group[0].key)
        else:
            for key, qualified in _qualify(group).items():
                proposed.setdefault(qualified, []).append(key)
    taken: set[str] = set()
    names: dict[TypeKey, str] = {}
    for name in sorted(proposed):
        keys = proposed[name]
        # One proposed name for several keys (a qualified name may equal some other
        # type's plain name): in the order of the keys' repr.
        for key in sorted(keys, key=repr) if len(keys) > 1 else keys:
            unique = fresh_name(name, taken)
            taken.add(unique)
            names[key] = unique
    return names


def _children(node: Node) -> Iterable[Node]:
    if isinstance(node, ArrayNode):
        return (node.item,)
    if isinstance(node, TupleNode):
        return node.items
    if isinstance(node, DictNode):
        return (node.value,)
    if isinstance(node, UnionNode):
        return node.options
    return ()


def references(node: Node) -> Iterator[TypeKey]:
    """Keys of the definitions a node uses directly (not through other definitions)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, RefNode):
            yield current.key
        else:
            stack.extend(_children(current))


def definition_references(definition: Definition) -> Iterator[TypeKey]:
    if isinstance(definition, ObjectDef):
        for item in definition.fields:
            yield from references(item.type)
        if definition.additional is not None:
            yield from references(definition.additional)
    elif isinstance(definition, AliasDef):
        yield from references(definition.type)


def recursive_keys(definitions: Mapping[TypeKey, Definition]) -> frozenset[TypeKey]:
    """Definitions that reach themselves (directly or through others)."""
    edges = {key: set(definition_references(d)) for key, d in definitions.items()}
    return on_cycles(edges)
