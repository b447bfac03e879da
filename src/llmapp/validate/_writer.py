"""What checker and walker writers share: one way of writing a failure, and every
keyword whose checking is the same in both.

A keyword's method is written once, here, in terms of four primitives each writer
defines: ``require`` (the value must pass a test), ``fail`` (it fails here), ``visit``
(check it against a subschema) and ``test`` (a subschema as a boolean expression). A
checker's failure is ``return False`` and it has no paths or expected texts; a
walker's failure appends an issue at the path with the expected text. Keywords whose
checking differs (a walker reports each extra item, a checker stops at the first) stay
in the writers (``_check.py``, ``_walk.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, ClassVar, NamedTuple

from llmapp.jsonschema import Node, is_mapping, is_schema, step

from .._codegen.compact import shared_names
from .._codegen.source import Emitter, literal
from ._analysis import Analysis
from ._conditions import Conditions
from ._expressions import Expressions
from ._formats import usual_texts
from ._functions import Functions
from ._patterns import PatternError, compile_pattern, search_test
from ._vocabulary import APPLIED_ORDER, is_trivial

__all__ = ["SPLIT_LEVEL", "Parts", "PathCode", "Writer"]

SPLIT_LEVEL = 9
"""Indentation level past which a nested subschema moves into its own function
(Python allows 20 statically nested blocks and ~100 indentation levels)."""

_APPLIED = frozenset(APPLIED_ORDER)
_DEPENDENCIES = ("dependentRequired", "dependentSchemas", "dependencies")
_DEPENDENCY_SET = frozenset(_DEPENDENCIES)


# Plain classes, not frozen dataclasses: a dataclass compiles its methods when this
# module loads, on the way to the first validator of the process.
class PathCode:
    """A path as generated code: constant steps folded at build time, dynamic ones as code
    (a value: never changed once made). Each part is a kind (``_TEXT``, ``_CODE`` a ``str``
    expression, ``_INDEX`` an ``int`` one) and its text."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple[tuple[int, str], ...]) -> None:
        self.parts = parts

    @staticmethod
    def variable(name: str) -> PathCode:
        return PathCode(((_CODE, name),))

    @staticmethod
    def constant(text: str) -> PathCode:
        return PathCode(((_TEXT, text),))

    def key(self, name: str) -> PathCode:
        return self._add(_TEXT, step(name))

    def index(self, position: int) -> PathCode:
        return self._add(_TEXT, step(position))

    def dynamic(self, code: str) -> PathCode:
        return self._add(_CODE, code)

    def position(self, code: str) -> PathCode:
        """The step to the item at ``code``, an ``int`` (``step`` of one, written in: no
        call to it for each issue)."""
        return self._add(_TEXT, "[")._add(_INDEX, code)._add(_TEXT, "]")

    def _add(self, kind: int, text: str) -> PathCode:
        last = self.parts[-1]
        if kind == _TEXT and last[0] == _TEXT:
            return PathCode((*self.parts[:-1], (_TEXT, last[1] + text)))
        return PathCode((*self.parts, (kind, text)))

    def code(self) -> str:
        """The path's expression: an f-string where an index is in it (an ``int``
        formatted there costs less than its ``str()`` and the concatenations; the ``str``
        parts, exact ones, are themselves), else the parts' concatenation."""
        parts = self.parts
        if all(kind != _INDEX for kind, _ in parts):
            return " + ".join(literal(text) if kind == _TEXT else text for kind, text in parts)
        template = "".join(
            text.replace("{", "{{").replace("}", "}}") if kind == _TEXT else "{" + text + "}"
            for kind, text in parts
        )
        return "f" + literal(template)


_TEXT, _CODE, _INDEX = 0, 1, 2
"""``PathCode``'s kinds of parts: a constant text, a ``str`` expression, an ``int`` one (an
expression is a name or a call of one: no quote nor backslash, as an f-string's needs)."""


class Parts(NamedTuple):
    """What the writers of one validator read and write into."""

    analysis: Analysis
    functions: Functions
    expressions: Expressions
    conditions: Conditions
    emitter: Emitter
    max_depth: int


class Writer:
    """Base of ``CheckWriter`` and ``WalkWriter``: the shared keywords, over the failure
    switch (``require``/``fail``) and the subschema steps (``visit``/``test``) each
    subclass defines. ``applicators`` calls ``APPLICATOR_WRITERS`` in ``APPLIED_ORDER``
    (``$ref`` and ``$dynamicRef`` share one method, called once)."""

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

    # -- the failure switch and the subschema steps (one of each per writer) --------

    def require(
        self,
        test: str,
        failed: str | None,
        path: PathCode,
        expected: str,
        value: str,
        description: str | None = None,
    ) -> None:
        """The value must pass ``test`` (an operand of ``and``; ``failed``, its negation
        if given); when it does not, it fails at ``path``."""
        raise NotImplementedError

    def fail(
        self, path: PathCode, expected: str, value: str, description: str | None = None
    ) -> None:
        """The value fails here, whatever it is."""
        raise NotImplementedError

    def visit(self, node: Node, v: str, path: PathCode) -> None:
        """Check ``v`` (at ``path``) against the subschema ``node``."""
        raise NotImplementedError

    def test(self, node: Node, v: str) -> str:
        """``node`` as a boolean expression over ``v`` (for ``not``, ``if``...)."""
        raise NotImplementedError

    def expected(self, node: Node) -> str:
        """The expected text a failure against ``node`` writes ("" when none is written)."""
        raise NotImplementedError

    def reference(self, target: Node, v: str, path: PathCode) -> None:
        """Check ``v`` against a ``$ref``'s ``target``."""
        raise NotImplementedError

    def union(
        self, node: Node, keyword: str, branches: list[Node], v: str, path: PathCode, expected: str
    ) -> None:
        """``anyOf`` or ``oneOf`` over its (non-empty) ``branches``."""
        raise NotImplementedError

    # -- applicators ----------------------------------------------------------------

    def applicators(self, node: Node, v: str, path: PathCode, expected: str) -> None:
        """Write every applicator of ``node`` (``expected``: its expected text)."""
        present = _APPLIED.intersection(node.schema)
        if not present:
            return
        written: set[Callable[..., None]] = set()
        for keyword in APPLIED_ORDER:
            write = self.APPLICATOR_WRITERS[keyword]
            if keyword in present and write not in written:
                written.add(write)
                write(self, node, v, path, expected)

    def _reference(self, node: Node, v: str, path: PathCode, expected: str) -> None:
        target = self.analysis.target(node)
        if target is not None:
            self.reference(target, v, path)

    def _all_of(self, node: Node, v: str, path: PathCode, expected: str) -> None:
        for branch in self.analysis.branches(node, "allOf"):
            self.visit(branch, v, path)

    def _any_of(self, node: Node, v: str, path: PathCode, expected: str) -> None:
        branches = self.analysis.branches(node, "anyOf")
        if branches:
            self.union(node, "anyOf", branches, v, path, expected)

    def _one_of(self, node: Node, v: str, path: PathCode, expected: str) -> None:
        branches = self.analysis.branches(node, "oneOf")
        if branches:
            self.union(node, "oneOf", branches, v, path, expected)

    def _not(self, node: Node, v: str, path: PathCode, expected: str) -> None:
        negated = self.test(self.analysis.child(node, "not"), v)
        self.require(f"not {negated}", negated, path, expected, v)

    def _conditional(self, node: Node, v: str, path: PathCode, expected: str) -> None:
        schema = node.schema
        if "then" not in schema and "else" not in schema:
            return
        condition = self.test(self.analysis.child(node, "if"), v)
        with self.out.block(f"if {condition}:"):
            if "then" in schema:
                self.visit(self.analysis.child(node, "then"), v, path)
        if "else" in schema:
            with self.out.block("else:"):
                self.visit(self.analysis.child(node, "else"), v, path)

    APPLICATOR_WRITERS: ClassVar[dict[str, Callable[..., None]]] = {
        "$ref": _reference,
        "$dynamicRef": _reference,
        "allOf": _all_of,
        "anyOf": _any_of,
        "oneOf": _one_of,
        "not": _not,
        "if": _conditional,
    }
    """The writer of each applicator keyword: ``(writer, node, v, path, expected)``."""

    # -- object keywords both writers check alike -----------------------------------

    def dependencies(self, node: Node, v: str, path: PathCode, props: dict[str, Any]) -> None:
        """``dependentRequired``, ``dependentSchemas`` and draft 4's ``dependencies``."""
        if _DEPENDENCY_SET.isdisjoint(node.schema):
            return
        for keyword in _DEPENDENCIES:
            value = node.schema.get(keyword)
            if not is_mapping(value):
                continue
            for key, dependency in value.items():
                if isinstance(dependency, list):
                    names = [name for name in dependency if isinstance(name, str)]
                    if names:
                        with self.out.block(f"if {literal(key)} in {v}:"):
                            for name in names:
                                self._dependent_key(node, v, path, props, key, name)
                elif is_schema(dependency) and not is_trivial(dependency):
                    with self.out.block(f"if {literal(key)} in {v}:"):
                        self.visit(self.analysis.child(node, keyword, key), v, path)

    def _dependent_key(
        self, node: Node, v: str, path: PathCode, props: dict[str, Any], key: str, name: str
    ) -> None:
        expected = "any"
        if name in props:
            expected = self.expected(self.analysis.child(node, "properties", name))
        self.require(
            f"{literal(name)} in {v}",
            f"{literal(name)} not in {v}",
            path.key(name),
            expected,
            "_UNDEFINED",
            f"required when {key!r} is present",
        )

    def additional(self, node: Node, item: str, where: PathCode) -> None:
        """A key that no property nor pattern claims (its value ``item`` at ``where``)."""
        if node.schema.get("additionalProperties") is False:
            self.fail(where, "undefined", item)
        else:
            self.visit(self.analysis.child(node, "additionalProperties"), item, where)

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

    def unless_usual(
        self, items: Any, values: str, call: str, known: str | None = ""
    ) -> AbstractContextManager[object]:
        """What is written inside (the loop over a container's items) runs only when
        ``items``, the schema of every item, is a date, time or duration string and a
        ``UsualTexts`` (``DurationTexts``) check, ``call`` (``.every(v)`` or
        ``.mapping(v)``), does not accept them all at once: then each item is judged
        alone, as before. When it does, the loop would find nothing. A walker writes it
        too: a container it judges has often been refused for another value than its
        items (its length, an item of another field), and the check at once refused
        costs about one item's own check. ``known``: a first operand of the test (``r == 5 or ``)
        true where the items are known refused: then they are judged one by one at once;
        None where they are known refused whatever the value (a union's branch its check
        refused): then no test is written."""
        at_once = usual_texts(items)
        if at_once is None or known is None:
            return nullcontext()
        name = self.out.constant(at_once, "usual_texts")
        self.out.line(f"# {values}: usual texts judged at once, else one by one")
        return self.out.block(f"if {known}not {name}{call}:")

    @contextmanager
    def key_loop(
        self, node: Node, v: str, props: dict[str, Any], refused: str | None = ""
    ) -> Iterator[tuple[str, str, str | None]]:
        """The loop over the keys of the object ``v`` that both writers open, giving its key
        and item variables and the constant naming the declared properties (None without
        any: no key is claimed, and no test per key says so). Where only the extra keys'
        values are judged, a check at once may accept them all (``unless_usual``;
        ``refused``: the walker's test true where they are known refused, its ``known``)."""
        schema = node.schema
        key, item = self.functions.local("key"), self.functions.local("item")
        known = self.out.constant(shared_names(frozenset(props)), "PROPERTIES") if props else None
        extra = schema.get("additionalProperties")
        if props or "propertyNames" in schema or "patternProperties" in schema:
            extra = None  # other keys than the extra ones: left to the loop
        with (
            self.unless_usual(extra, f"{v}.items()", f".mapping({v})", refused),
            self.out.block(f"for {key}, {item} in {v}.items():"),
        ):
            yield key, item, known

    def key_schemas(
        self,
        node: Node,
        key: str,
        known: str | None,
        item: str,
        where: PathCode,
    ) -> None:
        """Inside a loop over an object's ``key``s (``item`` its value, at ``where``):
        ``visit`` each ``patternProperties`` schema whose pattern matches the key, and
        check a key that no property (the global ``known``; ``None`` where there is none)
        nor pattern claims against ``additionalProperties``."""
        out = self.out
        schema = node.schema
        extra = schema.get("additionalProperties")
        patterns = schema.get("patternProperties")
        patterns = patterns if is_mapping(patterns) else {}
        if extra is None or extra is True:
            matched = None
        elif patterns:
            matched = self.functions.local("matched")
            out.line(f"{matched} = {key} in {known}" if known else f"{matched} = False")
        else:
            if known:
                out.line(f"if {key} in {known}: continue")
            matched = ""
        for pattern in patterns:
            found = self._pattern_test(node, pattern, key)
            if found is None:
                continue
            with out.block(f"if {found}:"):
                if matched:
                    out.line(f"{matched} = True")
                self.visit(self.analysis.child(node, "patternProperties", pattern), item, where)
        if matched is None:
            return
        if matched:
            with out.block(f"if not {matched}:"):
                self.additional(node, item, where)
        else:
            self.additional(node, item, where)

    def prefix_items(self, node: Node, v: str, path: PathCode, present: int = 0) -> tuple[str, int]:
        """Write the checks of an array's positional items (``prefixItems``, or draft 4's
        list ``items``); the first ``present`` are known to be there (a checker has
        required ``minItems`` already) and read without asking the length. Returns the
        keyword for the items after them and how many positions there are, for the
        caller's own rest-of-array loop."""
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
            with (
                nullcontext()
                if position < present
                else self.out.block(f"if len({v}) > {position}:")
            ):
                self.out.line(f"{item} = {v}[{position}]")
                self.visit(child, item, path.index(position))
        return rest_key, count

    def _pattern_test(self, node: Node, pattern: str, key: str) -> str | None:
        """The test that ``key`` matches a ``patternProperties`` regex, or None (reported)
        if the regex is unusable."""
        try:
            compiled = compile_pattern(pattern)
        except PatternError as error:
            self.analysis.report(node, "patternProperties", f"{pattern!r} cannot be used: {error}")
            return None
        return search_test(self.out.constant, compiled, key)
