"""What checker and walker writers share: what they read, the parts of a key loop and
of an array that both write (with callbacks for what each writes per subschema), and
the dispatch of applicator keywords to each writer's methods."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from llmapp.jsonschema import Node, is_mapping

from .._source import Emitter
from ._analysis import Analysis
from ._conditions import Conditions
from ._expressions import Expressions
from ._functions import Functions
from ._patterns import PatternError, compile_pattern
from ._vocabulary import APPLIED_ORDER, is_trivial

__all__ = ["SPLIT_LEVEL", "Parts", "Writer"]

SPLIT_LEVEL = 9
"""Indentation level past which a nested subschema moves into its own function
(Python allows 20 statically nested blocks and ~100 indentation levels)."""

_APPLIED = frozenset(APPLIED_ORDER)


@dataclass(frozen=True)
class Parts:
    """What the writers of one validator read and write into."""

    analysis: Analysis
    functions: Functions
    expressions: Expressions
    conditions: Conditions
    emitter: Emitter
    max_depth: int


class Writer:
    """Base of ``CheckWriter`` and ``WalkWriter``.

    Each applicator keyword has a method of the same name in both subclasses
    (``APPLICATOR_WRITERS``); ``applicators`` calls them in ``APPLIED_ORDER``
    (``$ref`` and ``$dynamicRef`` share one method, called once).
    """

    APPLICATOR_WRITERS: ClassVar[dict[str, str]] = {
        "$ref": "_reference",
        "$dynamicRef": "_reference",
        "allOf": "_all_of",
        "anyOf": "_any_of",
        "oneOf": "_one_of",
        "not": "_not",
        "if": "_conditional",
    }

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.analysis = parts.analysis
        self.functions = parts.functions
        self.expressions = parts.expressions
        self.conditions = parts.conditions
        self.out = parts.emitter
        self.max_depth = parts.max_depth

    def function(self, node: Node, name: str) -> None:
        """Write the function ``name`` for ``node``."""
        raise NotImplementedError

    def applicators(self, node: Node, v: str, *context: Any) -> None:
        """Write every applicator of ``node`` through the subclass's method for it."""
        present = _APPLIED.intersection(node.schema)
        written: set[str] = set()
        for keyword in APPLIED_ORDER:
            method = self.APPLICATOR_WRITERS[keyword]
            if keyword in present and method not in written:
                written.add(method)
                getattr(self, method)(node, v, *context)

    def guarded(
        self, types: frozenset[str] | None, name: str, test: str, emit: Callable[[], None]
    ) -> None:
        """``emit`` the code for JSON type ``name``: as is when the declared types allow
        nothing else, under ``if test:`` when they allow others too, not at all when
        they exclude it."""
        if types is not None and types <= {name}:
            emit()
        elif types is None or name in types:
            with self.out.block(f"if {test}:"):
                emit()

    def key_schemas(
        self,
        node: Node,
        key: str,
        known: str,
        visit: Callable[[Node], None],
        additional: Callable[[], None],
    ) -> None:
        """Inside a loop over an object's ``key``s: ``visit`` each ``patternProperties``
        schema whose pattern matches the key, and run ``additional`` for a key that no
        property (the global ``known``) nor pattern claims. Checkers and walkers differ
        only in what visiting and a disallowed key write."""
        out = self.out
        schema = node.schema
        extra = schema.get("additionalProperties")
        patterns = schema.get("patternProperties")
        patterns = patterns if is_mapping(patterns) else {}
        if extra is None or extra is True:
            matched = None
        elif patterns:
            matched = self.functions.local("matched")
            out.line(f"{matched} = {key} in {known}")
        else:
            out.line(f"if {key} in {known}: continue")
            matched = ""
        for pattern in patterns:
            regex = self._pattern_constant(node, pattern)
            if regex is None:
                continue
            with out.block(f"if {regex}.search({key}) is not None:"):
                if matched:
                    out.line(f"{matched} = True")
                visit(self.analysis.child(node, "patternProperties", pattern))
        if matched is None:
            return
        if matched:
            with out.block(f"if not {matched}:"):
                additional()
        else:
            additional()

    def prefix_items(
        self, node: Node, v: str, visit: Callable[[Node, str, int], None]
    ) -> tuple[str, int]:
        """Write the checks of an array's positional items (``prefixItems``, or draft 4's
        list ``items``): ``visit(schema, item variable, position)`` for each non-trivial
        one. Returns the keyword for the items after them and how many positions there
        are, for the caller's own rest-of-array loop."""
        schema = node.schema
        prefix_key, rest_key = (
            ("items", "additionalItems")
            if isinstance(schema.get("items"), list)
            else ("prefixItems", "items")
        )
        prefix = schema.get(prefix_key)
        count = len(prefix) if isinstance(prefix, list) else 0
        for position in range(count):
            child = self.analysis.child(node, prefix_key, str(position))
            if is_trivial(child.schema):
                continue
            item = self.functions.local(f"item_{position}")
            with self.out.block(f"if len({v}) > {position}:"):
                self.out.line(f"{item} = {v}[{position}]")
                visit(child, item, position)
        return rest_key, count

    def _pattern_constant(self, node: Node, pattern: str) -> str | None:
        """The global holding a ``patternProperties`` regex, or None (reported) if unusable."""
        try:
            compiled = compile_pattern(pattern)
        except PatternError as error:
            self.analysis.report(node, "patternProperties", f"{pattern!r} cannot be used: {error}")
            return None
        return self.out.constant(compiled, "PATTERN")
