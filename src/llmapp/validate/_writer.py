"""What checker and walker writers share: the emitter, and the parts of a key loop and
of an array that both write, with callbacks for what each writes per subschema."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from llmapp.jsonschema import Node, is_mapping

from ._codegen import is_trivial
from ._patterns import PatternError, compile_pattern

if TYPE_CHECKING:
    from ._codegen import Generator

__all__ = ["Writer"]


class Writer:
    """Base of ``CheckWriter`` and ``WalkWriter``: one generator, its emitter."""

    def __init__(self, generator: Generator) -> None:
        self.gen = generator
        self.out = generator.emitter

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
            matched = self.gen.fresh("m")
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
                visit(self.gen.resolver.child(node, "patternProperties", pattern))
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
            child = self.gen.resolver.child(node, prefix_key, str(position))
            if is_trivial(child.schema):
                continue
            item = self.gen.fresh("v")
            with self.out.block(f"if len({v}) > {position}:"):
                self.out.line(f"{item} = {v}[{position}]")
                visit(child, item, position)
        return rest_key, count

    def _pattern_constant(self, node: Node, pattern: str) -> str | None:
        """The global holding a ``patternProperties`` regex, or None (reported) if unusable."""
        try:
            compiled = compile_pattern(pattern)
        except PatternError as error:
            self.gen.report(node, "patternProperties", f"{pattern!r} cannot be used: {error}")
            return None
        return self.out.constant(compiled, "PATTERN")
