"""What the writers need to know about each schema node, worked out once per node.

``Analysis(schema)`` reads the root document through ``llmapp.jsonschema.Resolver``
and answers, per node (cached by its JSON pointer, so each fact is computed and each
build problem reported once): the node a ``$ref`` points at, the branches of a
union, the declared types (malformed keywords reported on the way), the expected
text, and, for the whole document up front, which definitions are on a ``$ref``
cycle (``recursive``), which reach one (``reaching``) and which are ``$ref``
targets at all (``targets``). Build problems collect in ``problems``; nothing here
writes code.
"""

from __future__ import annotations

import json
from typing import Any

from llmapp.jsonschema import (
    JSON_TYPES,
    Node,
    Resolver,
    declared_types,
    is_mapping,
    is_schema,
    name_of,
    ref_name,
    subschemas,
)

from .._digraph import on_cycles, reachable
from .._errors import BuildProblem
from ._expected import reference_text
from ._vocabulary import IN_PLACE, KIND_CHECKED, MAP_VALUED, REF_SIBLINGS, VALIDATING

__all__ = ["Analysis"]

_JSON_TYPE_SET = frozenset(JSON_TYPES)
_KIND_RANKS = {keyword: rank for rank, keyword in enumerate(KIND_CHECKED)}
_KIND_SET = frozenset(KIND_CHECKED)
_UNION_LISTS = ("allOf", "anyOf", "oneOf")
_DEFINITIONS = ("$defs", "definitions")
_FEW_ROUTES = 64
"""At most this many ``$ref`` chains to any definition: no need to count what a value meets."""
_CANONICAL = json.JSONEncoder(sort_keys=True, allow_nan=True, check_circular=False)
_UNION_SINGLES = ("not", "if", "then", "else")


_ANY_OF = frozenset(("anyOf",))


class Analysis:
    """The facts about one root schema that code generation reads."""

    def __init__(self, schema: Any) -> None:
        self.resolver = Resolver(schema)
        self.child = self.resolver.child
        """The node of a subschema: ``child(node, "properties", name)``."""
        self.problems: dict[str, BuildProblem] = {}
        self._targets: dict[str, Node | None] = {}
        self._types: dict[str, frozenset[str] | None] = {}
        self._refs: dict[str, list[Node]] = {}
        self._branches: dict[tuple[str, str], list[Node]] = {}
        self._followed: set[str] = set()
        self._expected: dict[str, str] = {}
        self._naming: set[str] = set()
        self.targets: frozenset[str] = frozenset()
        """Pointers of the nodes some ``$ref`` points at."""
        self.edges: dict[str, set[str]] = {}
        """Pointer of the root and of each ``$ref`` target -> pointers its refs point at."""
        self.recursive, self.reaching = self._recursion()

    @property
    def root(self) -> Node:
        return self.resolver.root_node

    def report(self, node: Node, keyword: str, reason: str) -> None:
        """Record a build problem at ``node`` (and ``keyword``), once."""
        location = "#" + node.pointer + ("/" + keyword if keyword else "")
        self.problems.setdefault(location + reason, BuildProblem(location, reason))

    # -- references and recursion ----------------------------------------------

    def target(self, node: Node) -> Node | None:
        """The node a ``$ref`` (or ``$dynamicRef``, resolved statically) points at."""
        pointer = node.pointer
        if pointer not in self._targets:
            self._targets[pointer] = self._target(node)
        return self._targets[pointer]

    def _target(self, node: Node) -> Node | None:
        schema = node.schema
        if not is_mapping(schema):
            return None
        for keyword in ("$ref", "$dynamicRef"):
            ref = schema.get(keyword)
            if ref is None:
                continue
            if not isinstance(ref, str):
                self.report(node, keyword, "must be a string")
                return None
            found = self.resolver.resolve(ref, node.base)
            if found is None:
                self.report(
                    node,
                    keyword,
                    f"cannot resolve {ref!r} (only refs into this document are supported)",
                )
            return found
        return None

    def is_bare_ref(self, node: Node) -> bool:
        """A subschema that only points elsewhere (``$ref`` plus annotations): checking
        it is checking its target, nothing more."""
        return is_mapping(node.schema) and REF_SIBLINGS.isdisjoint(node.schema)

    def refs_in(self, node: Node) -> list[Node]:
        """Targets of every ref in the subtree of ``node``."""
        found = self._refs.get(node.pointer)
        if found is None:
            found = [
                target
                for holder in self.resolver.refs_under(node)
                if (target := self.target(holder)) is not None
            ]
            self._refs[node.pointer] = found
        return found

    def _recursion(self) -> tuple[frozenset[str], frozenset[str]]:
        """Which definitions are on a ``$ref`` cycle, and which reach one."""
        edges: dict[str, set[str]] = {}
        direct: dict[str, set[str]] = {}
        todo = [self.root]
        while todo:
            node = todo.pop()
            if node.pointer in edges:
                continue
            targets = self.refs_in(node)
            edges[node.pointer] = {target.pointer for target in targets}
            direct[node.pointer] = {target.pointer for target in self._in_place_refs(node)}
            todo.extend(targets)
        self.edges = edges
        self.targets = frozenset(target for found in edges.values() for target in found)
        reached = {pointer: reachable(edges, pointer) for pointer in edges}
        recursive = frozenset(p for p, seen in reached.items() if p in seen)
        reaching = frozenset(p for p, seen in reached.items() if p in recursive or seen & recursive)
        looping = on_cycles(direct)
        for pointer in (p for p in direct if p in looping):  # in document order
            self.report(
                self.resolver.at(pointer) or self.root,
                "",
                "a $ref cycle that never looks inside the value (it would recurse forever)",
            )
        return recursive, reaching

    def _in_place_refs(self, node: Node) -> list[Node]:
        """Ref targets applied to the same value as ``node`` (through applicators, not
        through properties or items): a cycle of these never terminates."""
        found = []
        stack = [node]
        while stack:
            current = stack.pop()
            if not is_mapping(current.schema) or IN_PLACE.isdisjoint(current.schema):
                continue
            target = self.target(current)
            if target is not None:
                found.append(target)
            for keyword in _UNION_LISTS:
                stack.extend(self.branches(current, keyword) if current.schema.get(keyword) else [])
            for keyword in _UNION_SINGLES:
                if is_mapping(current.schema.get(keyword)):
                    stack.append(self.child(current, keyword))
        return found

    def unfolded(self, limit: int) -> Node | None:
        """Where checking one value may apply more than ``limit`` subschemas, or None.

        Counts how many subschemas checking one value may apply, each ``$ref`` followed (a
        definition on a cycle counted once where it is named: its repeats follow the
        value's depth), capped at ``limit + 1``.

        A schema's size does not bound its cost: a definition naming the next twice, 22
        times over, is 1.6 KB and applies four million subschemas to a value. Iterative,
        each node counted once however many places reach it.
        """
        if self._routes(_FEW_ROUTES) <= _FEW_ROUTES:
            return None  # each subschema applied a few times at most: the schema's size rules
        sizes: dict[str, int] = {}
        stack: list[tuple[Node, list[Node] | None]] = [(self.root, None)]
        while stack:
            node, below = stack.pop()
            if below is None:
                if node.pointer in sizes:
                    continue
                below = self._unfolding(node)
                stack.append((node, below))
                stack.extend((child, None) for child in below if child.pointer not in sizes)
                continue
            total = 1 + sum(sizes[child.pointer] for child in below)
            if self.target(node) is not None and node.pointer not in self._followed:
                total += 1  # a definition on a cycle, counted where it is named
            sizes[node.pointer] = min(total, limit + 1)
            if total > limit:
                return node  # its subschemas are each within the limit: the deepest past it
        return None

    def _routes(self, limit: int) -> int:
        """How many chains of ``$ref``s lead from the root to a definition (recursion cut,
        repeats counted; capped at ``limit + 1``): at most that many copies of any
        subschema are applied to one value. Reads the references alone: ``n`` of them
        make at most ``2 ** n`` chains (each chain is a set of them, in nesting order)."""
        if len(self.resolver.refs) < limit.bit_length():
            return 1 << len(self.resolver.refs)
        counts: dict[str, int] = {}
        stack: list[tuple[Node, list[Node] | None]] = [(self.root, None)]
        while stack:
            node, below = stack.pop()
            if node.pointer in counts:
                continue
            if below is None:
                below = [t for t in self._named(node) if t.pointer not in self.recursive]
                stack.append((node, below))
                stack.extend((target, None) for target in below if target.pointer not in counts)
                continue
            total = 1 + sum(counts[target.pointer] for target in below)
            counts[node.pointer] = min(total, limit + 1)
        return counts[self.root.pointer]

    def _named(self, node: Node) -> list[Node]:
        """The targets of the references in ``node``'s subtree outside the definitions it
        holds (those count where they are named), repeats included."""
        if node.pointer:
            return self.refs_in(node)  # a definition holding definitions counts them too
        inner = tuple(f"/{keyword}/" for keyword in _DEFINITIONS)
        return [
            target
            for holder in self.resolver.refs_under(node)
            if not holder.pointer.startswith(inner) and (target := self.target(holder)) is not None
        ]

    def _unfolding(self, node: Node) -> list[Node]:
        """The nodes ``unfolded`` adds up below ``node``: its subschemas (``allOf``/``anyOf``
        without repeats, definitions only where named) and a ``$ref``'s target unless
        that is on a cycle."""
        schema = node.schema
        if not is_mapping(schema):
            return []
        found = []
        for tokens, _ in subschemas(schema):
            if tokens[0] not in _DEFINITIONS and tokens[0] not in _UNION_LISTS:
                found.append(self.child(node, *tokens))
        for keyword in _UNION_LISTS:
            if isinstance(schema.get(keyword), list):
                found.extend(self.branches(node, keyword))
        target = self.target(node)
        if target is not None and target.pointer not in self.recursive:
            self._followed.add(node.pointer)
            found.append(target)
        return found

    def may_raise(self, node: Node) -> bool:
        """Whether checking ``node`` can reach a recursive definition (and its depth guard)."""
        return any(target.pointer in self.reaching for target in self.refs_in(node))

    def ranks(self, node: Node) -> bool:
        """Whether ``node``'s checker says, where it refuses, how many of its ``properties``
        it had found valid (a ``_runtime.Refusal``), and its walker skips their judging:
        an object schema with properties on no ``$ref`` cycle (a recursive checker's
        refusal is its ``_failed`` note, which names nothing)."""
        properties = node.schema.get("properties") if is_mapping(node.schema) else None
        return bool(properties) and is_mapping(properties) and node.pointer not in self.recursive

    def carried(self, node: Node) -> Node | None:
        """The definition a property's schema ``node`` is a bare ``$ref`` to, where a ranked
        checker refusing that property keeps the definition's own refusal for its walker
        (``_runtime.within``): one that ``ranks`` (a recursive one's refusal names nothing);
        else None."""
        target = self.target(node) if self.is_bare_ref(node) else None
        return target if target is not None and self.ranks(target) else None

    def carried_branches(self, node: Node) -> list[Node | None] | None:
        """For a property's schema ``node`` that is an ``anyOf`` alone (no type, no
        condition, not nullable): each branch's ``carried`` definition, where the branch
        cannot stop on the depth limit (the walk may walk a branch one level deeper than
        the check judged it), else None; None where no branch has one. A ranked checker
        refusing the union keeps those definitions' refusals for the walk of the branch
        it picks."""
        schema = node.schema
        if not is_mapping(schema) or VALIDATING.intersection(schema) != _ANY_OF:
            return None
        if schema.get("nullable") is True:
            return None
        found = [
            None if self.may_raise(branch) else self.carried(branch)
            for branch in self.branches(node, "anyOf")
        ]
        return found if any(target is not None for target in found) else None

    def depth_of(self, callee: Node) -> str:
        """The depth argument for a call into ``callee``'s function.

        ``d`` counts generated calls that can repeat along a recursion: calls into a
        definition on a ``$ref`` cycle, and into any other function (a union branch, a
        split-off subschema) whose subtree reaches one. So it bounds the Python frames a
        cyclic or very deep input can pile up, not only the ``$ref`` hops.
        """
        if callee.pointer in self.recursive:
            return "d + 1"
        if callee.pointer not in self.reaching and self.may_raise(callee):
            return "d + 1"
        return "d"

    # -- the node's own keywords -------------------------------------------------

    def types(self, node: Node) -> frozenset[str] | None:
        """The declared JSON types of ``node`` (None: any), malformed keywords reported."""
        pointer = node.pointer
        if pointer in self._types:
            return self._types[pointer]
        if not _KIND_SET.isdisjoint(node.schema):
            self._check_kinds(node)
        found = self._types[pointer] = self._declared(node)
        return found

    def _declared(self, node: Node) -> frozenset[str] | None:
        types = declared_types(node.schema)
        if types is not None:
            if types <= _JSON_TYPE_SET:
                return types
            unknown = sorted(name for name in types if name not in _JSON_TYPE_SET)
            self.report(node, "type", f"unknown type {', '.join(map(repr, unknown))}")
            return types - set(unknown)
        if "type" in node.schema:
            self.report(node, "type", "must be a type name or a list of them")
        return None

    def _check_kinds(self, node: Node) -> None:
        schema = node.schema
        present = _KIND_SET.intersection(schema)
        for keyword in sorted(present, key=_KIND_RANKS.__getitem__):
            value = schema[keyword]
            if keyword in MAP_VALUED:
                if not is_mapping(value):
                    self.report(node, keyword, "must be an object")
            elif keyword == "required":
                if not (isinstance(value, list) and all(isinstance(n, str) for n in value)):
                    self.report(node, "required", "must be an array of property names")
            elif not is_schema(value) and not (keyword == "items" and isinstance(value, list)):
                self.report(node, keyword, "must be a schema")  # a list: draft 4 tuple items

    def branches(self, node: Node, keyword: str) -> list[Node]:
        """The subschemas of ``allOf``/``anyOf``/``oneOf`` (reported unless a non-empty list)."""
        value = node.schema.get(keyword)
        if value is None:
            return []
        if not isinstance(value, list) or not value:
            self.report(node, keyword, "must be a non-empty array of schemas")
            return []
        if len(value) == 1:
            return [self.child(node, keyword, "0")]
        key = (node.pointer, keyword)
        found = self._branches.get(key)
        if found is None:
            found = [self.child(node, keyword, str(i)) for i in range(len(value))]
            if keyword != "oneOf":
                found = self._distinct(found)
            self._branches[key] = found
        return found

    def _distinct(self, branches: list[Node]) -> list[Node]:
        """``allOf``/``anyOf`` branches without repeats: a value passes X and X (or X or X)
        when it passes X, so a repeat is written and checked once. A chain of definitions
        each naming the next twice would otherwise double the work at every link."""
        kept: list[Node] = []
        for branch in branches:
            if not any(self._same(branch, other) for other in kept):
                kept.append(branch)
        return kept

    def _same(self, one: Node, other: Node) -> bool:
        """Whether two branches check the same: bare ``$ref``s to one target, or equal
        JSON read under one base URI (Python's ``==`` first, quick to say no; then the
        JSON texts, where ``1 == True`` is not)."""
        if self.is_bare_ref(one) and self.is_bare_ref(other):
            target, found = self.target(one), self.target(other)
            if target is not None and found is not None and target.pointer == found.pointer:
                return True
        if one.base != other.base or not is_mapping(one.schema):
            return False  # a boolean branch costs nothing: kept, and its issue with it
        try:
            return bool(one.schema == other.schema) and _CANONICAL.encode(
                one.schema
            ) == _CANONICAL.encode(other.schema)
        except (TypeError, ValueError, RecursionError):
            return False

    # -- expected texts ------------------------------------------------------------

    def expected(self, node: Node) -> str:
        """The expected text of ``node`` (a structured named definition reads as its name)."""
        found = self._expected.get(node.pointer)
        if found is None:
            found = reference_text(name_of(node.pointer), node.schema, self._ref_text)
            self._expected[node.pointer] = found
        return found

    def _ref_text(self, ref: str) -> str:
        target = self.resolver.resolve(ref, self.root.base)
        if target is None or target.pointer in self._naming:
            return ref_name(ref) or "any"
        self._naming.add(target.pointer)
        try:
            name = name_of(target.pointer) or ref_name(ref)
            return reference_text(name, target.schema, self._ref_text)
        finally:
            self._naming.discard(target.pointer)
