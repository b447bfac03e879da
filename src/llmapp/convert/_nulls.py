"""Whether a type accepts JSON ``null``, which decides if ``null`` means "not given"."""

from __future__ import annotations

from ..introspect.model import (
    AliasDef,
    AnyNode,
    EnumDef,
    LiteralNode,
    Node,
    NullNode,
    RefNode,
    TypeGraph,
    TypeKey,
    UnionNode,
)

__all__ = ["accepts_null"]


def accepts_null(node: Node, graph: TypeGraph, _through: frozenset[TypeKey] = frozenset()) -> bool:
    """Whether ``null`` is a valid value of ``node`` (``None``, ``Any``, ``X | None``, ...)."""
    if isinstance(node, (NullNode, AnyNode)):
        return True
    if isinstance(node, LiteralNode):
        return None in node.values
    if isinstance(node, UnionNode):
        return any(accepts_null(option, graph, _through) for option in node.options)
    if isinstance(node, RefNode) and node.key not in _through:
        definition = graph.definitions.get(node.key)
        if isinstance(definition, AliasDef):
            return accepts_null(definition.type, graph, _through | {node.key})
        return isinstance(definition, EnumDef) and None in definition.values
    return False
