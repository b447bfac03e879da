"""Definitions whose checkers and walkers validators share, by the content of their closure.

The functions of one OpenAPI document (or one MCP server) each get a parameters schema
holding the ``$defs`` it reaches; written out per validator, a document of 1,000
operations compiled every shared definition up to 1,000 times. A definition is shared
instead when its closure (itself and every definition it reaches) is plain: a
``#/$defs/<name>`` of a root without ``$schema`` or ``$id``, reaching only other such
definitions, none on a ``$ref`` cycle (recursive ones keep per-call state in their
validator), with no ``$id``, anchor or dynamic reference inside. ``closure(analysis,
node)`` gives its canonical key and the schema ``{"$defs": closure, "$ref":
"#/$defs/<name>"}``; a validator compiled from that schema is kept, weakly, by key, and
its ``c_<name>``/``w_<name>`` serve every validator whose schema holds the same
closure. Pointers inside the closure read as they do in each sharing schema, so
problems and issues are the same as when the definition is written out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from llmapp.jsonschema import Node

from .._digraph import reachable
from ._analysis import Analysis

__all__ = ["closure"]

_DEF = re.compile(r"/\$defs/([^/~]+)\Z")
_KEY = json.JSONEncoder(sort_keys=True, allow_nan=True, check_circular=False)
_SCOPED = ('"$id"', '"$anchor"', '"$dynamicAnchor"', '"$dynamicRef"', '"$schema"')
"""Keywords that change how a reference resolves: a closure holding one is not shared."""


def closure(analysis: Analysis, node: Node) -> tuple[str, dict[str, Any], list[str]] | None:
    """The key and schema of the shareable definition at ``node``, and the pointers of the
    definitions it reaches, leaves first (each one shareable too); None when it is not."""
    root = analysis.root.schema
    name = _name(analysis, node.pointer)
    if name is None or not isinstance(root, Mapping) or "$schema" in root or "$id" in root:
        return None
    defs = root.get("$defs")
    if not isinstance(defs, Mapping):
        return None
    reached = reachable(analysis.edges, node.pointer)
    names = [_name(analysis, pointer) for pointer in reached]
    if any(found is None for found in names):
        return None
    schema = {"$defs": {found: defs[found] for found in sorted({name, *names})}}  # type: ignore[type-var]
    schema["$ref"] = f"#/$defs/{name}"  # type: ignore[assignment]
    try:
        key = _KEY.encode(schema)
    except (TypeError, ValueError, RecursionError):
        return None
    if any(keyword in key for keyword in _SCOPED):
        return None
    return key, schema, _leaves_first(analysis, reached - {node.pointer})


def _name(analysis: Analysis, pointer: str) -> str | None:
    """The ``$defs`` name at ``pointer``, when it may be shared (not on or near a cycle)."""
    match = _DEF.match(pointer)
    if match is None or pointer in analysis.reaching or pointer in analysis.recursive:
        return None
    return match[1]


def _leaves_first(analysis: Analysis, pointers: set[str]) -> list[str]:
    """``pointers`` so that each comes after every definition it reaches (none is on a
    cycle), so compiling them in order never compiles one inside another."""
    order: list[str] = []
    placed: set[str] = set()

    def place(pointer: str) -> None:
        todo = [(pointer, False)]
        while todo:
            current, done = todo.pop()
            if done:
                if current not in placed:
                    placed.add(current)
                    order.append(current)
                continue
            if current in placed:
                continue
            todo.append((current, True))
            todo.extend((target, False) for target in sorted(analysis.edges.get(current, ())))

    for pointer in sorted(pointers):
        place(pointer)
    return order
