"""Build-time side of unions: the shape of each branch and the discriminator's tags.

``describe_union`` gives the walker a ``UnionInfo`` describing a union for
``_unions.pick``: each branch's types, property names, required names and whether it
is closed (following ``$ref`` and ``allOf``), plus the declared discriminator
(``llmapp.jsonschema.discriminator``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from llmapp.jsonschema import Node, declared_types, discriminator, json_type

from .._codegen.source import Emitter
from ._analysis import Analysis
from ._unions import Branch, UnionInfo

__all__ = ["describe_union", "parts", "union_info", "union_shape"]


def union_info(
    analysis: Analysis, emitter: Emitter, node: Node, keyword: str, branches: list[Node]
) -> str:
    """A global describing a union for ``_pick`` (``describe_union``): what the walkers of
    earlier commits call, which the tests' differentials load beside today's modules."""
    return emitter.constant(describe_union(analysis, node, keyword, branches), "UNION")


def describe_union(analysis: Analysis, node: Node, keyword: str, branches: list[Node]) -> UnionInfo:
    """What describes a union for ``_pick`` (shapes, discriminator tags)."""
    shapes = tuple(union_shape(analysis, branch) for branch in branches)
    prop, tags = _discriminator(analysis, node, branches)
    tag_text = "(" + " | ".join(json.dumps(tag, ensure_ascii=False) for tag in tags) + ")"
    expected = analysis.expected(node) if keyword != "allOf" else "any"
    tag_expected = tag_text if len(tags) > 1 else tag_text[1:-1]
    key = (
        expected,
        tuple((b.types, b.properties, b.required, b.closed, b.literal) for b in shapes),
        prop,
        tuple(tags.items()),
        tag_expected,
    )
    info = _UNIONS.get(key)
    if info is None:
        info = UnionInfo(expected, shapes, prop, tags or None, tag_expected)
        if len(_UNIONS) >= _UNIONS_SIZE:
            _UNIONS.clear()
        _UNIONS[key] = info
    return info


_UNIONS: dict[tuple[Any, ...], UnionInfo] = {}
"""The unions described lately, by what describes them: a ``UnionInfo`` is never changed
(its cache of branches by kind follows from its branches), so the validators of an
application share one for each union they repeat (every ``X | None`` of a kind), as the
sets of names are shared. At most ``_UNIONS_SIZE`` remembered, so what stays once no
validator holds them is bounded."""
_UNIONS_SIZE = 512


def parts(analysis: Analysis, node: Node, limit: int = 16) -> list[Node]:
    """``node`` with the targets of its ``$ref`` and its ``allOf`` branches, flattened."""
    found: list[Node] = []
    stack = [node]
    while stack and len(found) < limit:
        current = stack.pop()
        if not isinstance(current.schema, Mapping):
            continue
        found.append(current)
        target = analysis.target(current)
        if target is not None:
            stack.append(target)
        stack.extend(analysis.branches(current, "allOf"))
    return found


def union_shape(analysis: Analysis, branch: Node) -> Branch:
    """What ``branch`` accepts, as far as choosing between branches goes."""
    schemas = [part.schema for part in parts(analysis, branch)]
    types: frozenset[str] | None = None
    for part in schemas:
        declared = declared_types(part)
        if declared is None and "const" in part:
            declared = frozenset({json_type(part["const"]) or "any"})
        if declared is None and isinstance(part.get("enum"), list):
            declared = frozenset(json_type(x) or "any" for x in part["enum"])
        if declared is not None:
            if part.get("nullable") is True:
                declared = declared | {"null"}
            types = declared if types is None else types & declared
    properties: set[str] = set()
    required: set[str] = set()
    closed = False
    for part in schemas:
        if isinstance(part.get("properties"), Mapping):
            properties.update(k for k in part["properties"] if isinstance(k, str))
        if isinstance(part.get("required"), list):
            required.update(k for k in part["required"] if isinstance(k, str))
        closed = closed or (
            part.get("additionalProperties") is False and "patternProperties" not in part
        )
    literal = any("enum" in part or "const" in part for part in schemas)
    shared_types = None if types is None else _shared(types)
    return Branch(shared_types, _shared(properties), _shared(required), closed, literal)


_TYPE_SETS: dict[frozenset[str], frozenset[str]] = {frozenset(): frozenset()}
"""One set for each set of JSON type names met, and the empty set: every union's
branches hold such sets (an empty ``frozenset`` takes 216 bytes), and every validator
of an application holds its unions' branches."""
_TYPE_NAMES = frozenset(
    ("null", "boolean", "object", "array", "number", "string", "integer", "any")
)


def _shared(names: set[str] | frozenset[str]) -> frozenset[str]:
    """``names`` as a frozenset: the one shared set when it is empty or holds JSON type
    names only (finitely many such sets)."""
    frozen = frozenset(names)
    if frozen <= _TYPE_NAMES:
        return _TYPE_SETS.setdefault(frozen, frozen)
    return frozen


def _discriminator(
    analysis: Analysis, node: Node, branches: list[Node]
) -> tuple[str | None, dict[str, int]]:
    """The declared discriminator's property and tags (inferred ones are not used: a
    union without a declared one is explained by the branches' shapes)."""

    def resolve(ref: str) -> Any:
        found = analysis.resolver.resolve(ref, node.base)
        return None if found is None else found.schema

    found = discriminator(node.schema, [branch.schema for branch in branches], resolve)
    if found is None or not found.declared:
        return None, {}
    return found.property, dict(found.mapping)
