"""Reachability in a directed graph given as ``{node: successors}``: which nodes one
reaches, and which reach themselves (recursive types, ``$ref`` cycles)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

__all__ = ["on_cycles", "reachable"]

N = TypeVar("N", bound=Hashable)


def reachable(edges: Mapping[N, Iterable[N]], start: N) -> set[N]:
    """The nodes reached from ``start`` in one step or more (``start`` itself only
    through a cycle)."""
    seen: set[N] = set()
    stack = list(edges.get(start, ()))
    while stack:
        node = stack.pop()
        if node not in seen:
            seen.add(node)
            stack.extend(edges.get(node, ()))
    return seen


def on_cycles(edges: Mapping[N, Iterable[N]]) -> frozenset[N]:
    """The nodes that reach themselves."""
    return frozenset(node for node in edges if node in reachable(edges, node))
