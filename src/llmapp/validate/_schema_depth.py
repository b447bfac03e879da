"""How deeply a schema may nest before ``validator()`` refuses it with ``SchemaError``.

The generator writes nested subschemas as nested code, by recursion, and ``enum``/``const``
values are compared and shown by recursion too; each ``$ref`` followed is a call when a
value is checked. A schema from a third party (an MCP server, an OpenAPI document)
nested a thousand levels deep would end in ``RecursionError``, and a chain of 10,000
``$defs`` took 40 s to build into a validator that called every valid value too deep.
So ``validator()`` refuses, with the pointer of the first place that is too deep:

- subschemas nested more than ``MAX_SCHEMA_DEPTH`` (100) levels inside one document
  (the test suite's deepest inline nesting is 80; real schemas a few tens);
- ``enum``/``const`` values nested more than ``MAX_SCHEMA_DEPTH`` levels;
- a chain of subschemas that follows more than ``MAX_REF_DEPTH`` (500) ``$ref``s, not
  counting recursion (Stripe's API reaches about 100);
- (checked by the generator, which knows which ``allOf``/``anyOf`` branches repeat) a
  schema that applies more than ``MAX_UNFOLDED`` subschemas to one value once its
  references are followed: a definition that names the next one twice, twenty times
  over, is small and costs a million checks.

Both walks are iterative and linear in the schema's size. A schema whose JSON text is
given and is too small to break either limit is not walked (``_within_limits``).
"""

from __future__ import annotations

from typing import Any

from llmapp._limits import MAX_REF_DEPTH, MAX_SCHEMA_DEPTH, too_deep
from llmapp.jsonschema import Node, Resolver, is_mapping, pointer_from, subschemas

from .._errors import BuildProblem

__all__ = ["depth_problem", "too_deep_here"]


def depth_problem(schema: Any, text: str | None = None) -> BuildProblem | None:
    """The first place where ``schema`` nests too deeply, or None.

    Args:
        schema: the schema.
        text: ``schema`` as JSON text (the validator's cache key), when it has one.
    """
    if text is not None and _within_limits(text):
        return None
    problem = _nesting_problem(schema)
    if problem is None and is_mapping(schema):  # shallow enough to index: follow refs
        problem = _chain_problem(Resolver(schema))
    return problem


def too_deep_here() -> BuildProblem:
    """The problem of a schema within the limits that ran out of stack where it was built
    (called from deep in the caller's stack)."""
    reason = f"too deeply nested to compile here (the limit is {MAX_SCHEMA_DEPTH} levels)"
    return BuildProblem("#", reason)


def _within_limits(text: str) -> bool:
    """Whether a schema whose JSON text is ``text`` is certainly within both limits.

    Each level of nesting (of subschemas, or inside an ``enum``/``const`` value) opens a
    ``{`` or ``[`` of its own, and each ``$ref`` a chain follows is written at a place of
    its own in the text (a chain never passes through one place twice): so a text with
    at most ``MAX_SCHEMA_DEPTH`` brackets and ``MAX_REF_DEPTH`` ``"$ref"`` strings needs
    no walk. Function schemas are that small; the walks cost more than compiling them
    (benchmarks/README.md has the figure).
    """
    brackets = text.count("{") + text.count("[")
    return brackets <= MAX_SCHEMA_DEPTH and text.count('"$ref"') <= MAX_REF_DEPTH


def _nesting_problem(schema: Any) -> BuildProblem | None:
    """The first place where ``schema`` nests past ``MAX_SCHEMA_DEPTH``, or None.

    Iterative, and linear in the schema's size times the limit, whatever the schema
    shares or however it loops (a cyclic ``dict`` is too deep at some point).
    """
    explored: dict[int, int] = {}  # id -> the deepest level it was explored from
    stack: list[tuple[Any, int, tuple[str, ...]]] = [(schema, 0, ())]
    while stack:
        node, depth, tokens = stack.pop()
        if depth > MAX_SCHEMA_DEPTH:
            return _problem(tokens, f"subschemas nested more than {MAX_SCHEMA_DEPTH} levels deep")
        if not is_mapping(node) or explored.get(id(node), -1) >= depth:
            continue
        explored[id(node)] = depth
        for keyword in ("enum", "const"):
            # the enum's own list is no level of its values
            limit = MAX_SCHEMA_DEPTH + (keyword == "enum")
            if keyword in node and too_deep(node[keyword], limit):
                reason = f"a value nested more than {MAX_SCHEMA_DEPTH} levels deep"
                return _problem((*tokens, keyword), reason)
        for child_tokens, child in subschemas(node):
            stack.append((child, depth + 1, tokens + child_tokens))
    return None


def _chain_problem(resolver: Resolver) -> BuildProblem | None:
    """Where a chain of subschemas passes through more than ``MAX_REF_DEPTH`` ``$ref``s.

    A depth-first walk that remembers each node's height (the most ``$ref``s on a chain
    below it), so each node is walked once; a ``$ref`` back to a node on the current
    chain is recursion, which validators bound at run time (``max_depth``): it ends
    the chain.
    """
    heights: dict[str, int] = {}
    root = resolver.root_node
    chain = {root.pointer}
    # (node, what is left to visit below it, its height so far, refs followed to reach it)
    stack = [(root, _next(resolver, root), 0, 0)]
    while stack:
        node, pending, height, hops = stack[-1]
        if pending:
            child, step = pending.pop()
            if child.pointer in chain:
                continue
            below = heights.get(child.pointer)
            if below is None and hops + step <= MAX_REF_DEPTH:
                chain.add(child.pointer)
                stack.append((child, _next(resolver, child), 0, hops + step))
                continue
            if below is None or hops + step + below > MAX_REF_DEPTH:
                reason = f"$ref chains nested more than {MAX_REF_DEPTH} levels deep"
                return BuildProblem("#" + child.pointer, reason)
            stack[-1] = (node, pending, max(height, step + below), hops)
            continue
        stack.pop()
        chain.discard(node.pointer)
        heights[node.pointer] = height
        if stack:
            parent, siblings, parent_height, parent_hops = stack[-1]
            step = hops - parent_hops
            stack[-1] = (parent, siblings, max(parent_height, step + height), parent_hops)
    return None


def _next(resolver: Resolver, node: Node) -> list[tuple[Node, int]]:
    """The nodes one level below, each with how many ``$ref``s it takes to get there:
    direct subschemas (none), and the target of a ``$ref`` (one)."""
    schema = node.schema
    if not is_mapping(schema):
        return []
    found = [(resolver.child(node, *tokens), 0) for tokens, _ in subschemas(schema)]
    target = resolver.target(node)
    if target is not None:
        found.append((target, 1))
    return found


def _problem(tokens: tuple[str, ...], reason: str) -> BuildProblem:
    return BuildProblem("#" + pointer_from(tokens), reason)
