"""Build-time side of unions: the shape of each branch and the discriminator's tags.

``union_info`` gives the walker a global ``UnionInfo`` describing a union for
``_unions.pick``: each branch's types, property names, required names and whether it
is closed (following ``$ref`` and ``allOf``), plus the discriminator (OpenAPI
``discriminator``/``x-discriminator``: its ``mapping``, else each branch's ``const`` or
``enum`` for the property, else the referenced definition's name).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from llmapp.jsonschema import Node, name_of

from ._conditions import declared_types
from ._runtime import json_type
from ._unions import Branch, UnionInfo

if TYPE_CHECKING:
    from ._codegen import Generator

__all__ = ["parts", "union_info", "union_shape"]


def union_info(gen: Generator, node: Node, keyword: str, branches: list[Node]) -> str:
    """A global describing a union for ``_pick`` (shapes, discriminator tags)."""
    shapes = tuple(union_shape(gen, branch) for branch in branches)
    discriminator, tags = _discriminator(gen, node, branches)
    tag_text = "(" + " | ".join(json.dumps(tag, ensure_ascii=False) for tag in tags) + ")"
    info = UnionInfo(
        expected=gen.expected(node) if keyword != "allOf" else "any",
        branches=shapes,
        discriminator=discriminator,
        tags=tags or None,
        tag_expected=tag_text if len(tags) > 1 else tag_text[1:-1],
    )
    return gen.emitter.constant(info, "UNION")


def parts(gen: Generator, node: Node, limit: int = 16) -> list[Node]:
    """``node`` with the targets of its ``$ref`` and its ``allOf`` branches, flattened."""
    found: list[Node] = []
    stack = [node]
    while stack and len(found) < limit:
        current = stack.pop()
        if not isinstance(current.schema, Mapping):
            continue
        found.append(current)
        target = gen.target(current)
        if target is not None:
            stack.append(target)
        stack.extend(gen.branches(current, "allOf"))
    return found


def union_shape(gen: Generator, branch: Node) -> Branch:
    schemas = [part.schema for part in parts(gen, branch)]
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
    return Branch(types, frozenset(properties), frozenset(required), closed, literal)


def _discriminator(
    gen: Generator, node: Node, branches: list[Node]
) -> tuple[str | None, dict[str, int]]:
    spec = node.schema.get("discriminator") or node.schema.get("x-discriminator")
    if not isinstance(spec, Mapping) or not isinstance(spec.get("propertyName"), str):
        return None, {}
    prop = spec["propertyName"]
    tags: dict[str, int] = {}
    targets = [gen.target(branch) for branch in branches]
    mapping = spec.get("mapping")
    if isinstance(mapping, Mapping):
        for tag, ref in mapping.items():
            found = gen.resolver.resolve(ref, node.base) if isinstance(ref, str) else None
            for index, target in enumerate(targets):
                if found is not None and target is not None and target.pointer == found.pointer:
                    tags.setdefault(str(tag), index)
    for index, branch in enumerate(branches):
        values = _tag_values(gen, branch, prop)
        if not values and targets[index] is not None:
            name = name_of(targets[index].pointer)  # type: ignore[union-attr]
            values = [name] if name is not None and not isinstance(mapping, Mapping) else []
        for value in values:
            tags.setdefault(value, index)
    return prop, tags


def _tag_values(gen: Generator, branch: Node, prop: str) -> list[str]:
    for part in parts(gen, branch):
        properties = part.schema.get("properties")
        if not isinstance(properties, Mapping) or prop not in properties:
            continue
        for sub in parts(gen, gen.resolver.child(part, "properties", prop)):
            if isinstance(sub.schema.get("const"), str):
                return [sub.schema["const"]]
            enum = sub.schema.get("enum")
            if isinstance(enum, list):
                return [value for value in enum if isinstance(value, str)]
    return []
