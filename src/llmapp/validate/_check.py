"""Writes a fast checker: ``c_<Name>(v, d) -> bool``, False at the first mistake.

No issue objects, no paths. Objects closed by ``additionalProperties: false`` are
checked without a key loop: the properties found are counted and compared with
``len(v)``, which also rejects non-string keys. Keyword order within a node:
type, per-value conditions, object keywords, array keywords, then applicators in
``APPLIED_ORDER`` (``$ref``, ``allOf``, ``anyOf``, ``oneOf``, ``not``, ``if``).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from llmapp._codegen.compact import shared_getter
from llmapp.jsonschema import Node, is_mapping, is_schema

from .._codegen.source import literal
from ._conditions import finite_bounds, guard, type_test
from ._functions import CHECK
from ._patterns import PatternError, compile_pattern
from ._repeats import repeated
from ._runtime import NAMED_REFUSALS, refusal_at, refusal_in, unique_plain
from ._vocabulary import (
    ARRAY_KEYWORDS,
    LEAF_ONLY,
    OBJECT_KEYWORDS,
    closed_object,
    contains_bounds,
    has_structure,
    is_trivial,
    iterates_keys,
    object_parts,
)
from ._writer import SPLIT_LEVEL, PathCode, Writer

__all__ = ["CheckWriter"]

_OBJECT = frozenset({"object"})
_OBJECT_SET = frozenset(OBJECT_KEYWORDS)
_ARRAY_SET = frozenset(ARRAY_KEYWORDS)
_ITEMS = frozenset({"items", "prefixItems", "additionalItems", "contains"})
"""The keywords that check an array's items, which ``uniqueItems`` waits for."""
_PLAIN_TYPES = frozenset({"string", "integer", "number"})
"""Item types whose Python equality is JSON equality (``_plain_items``)."""
_NO_PATH = PathCode.variable("p")
"""A checker writes no paths: the shared keywords get this one and never write it."""
_GETTER_KEYS = 6
"""From this many required keys on, one ``itemgetter`` call reads them all: as quick to
run as the subscripts from there on, and a fraction of their source to compile and of
their code to keep (a root checker reading fewer reads each where its property is
checked, ``_ranked_properties``: each subscript a constant and a handler's range more)."""


class CheckWriter(Writer):
    """Writes checker functions into the emitter."""

    # -- the failure switch: ``return False`` (or the recursive checkers' ``fail``) ------

    def require(
        self,
        test: str,
        failed: str | None,
        path: PathCode,
        expected: str,
        value: str,
        description: str | None = None,
    ) -> None:
        self.out.require(test, failed)

    def fail(
        self, path: PathCode, expected: str, value: str, description: str | None = None
    ) -> None:
        self.out.line(self.out.fail)

    def visit(self, node: Node, v: str, path: PathCode) -> None:
        self.block(node, v)

    def test(self, node: Node, v: str) -> str:
        return self.expressions.check(node, v)

    def expected(self, node: Node) -> str:
        return ""

    ranked: str | None = None
    """The pointer of the node whose function is being written when its refusals name
    how far its properties got (``Analysis.ranks``), else None."""

    def function(self, node: Node, name: str) -> None:
        recursive = node.pointer in self.analysis.recursive
        if recursive:
            # A refused value is noted on its way out (see ``_runtime.FailedValues``), so
            # the walkers skip re-checking it: without that, each level of an invalid
            # chain would check the whole rest of the chain again (quadratic).
            self.out.fail = "return _failed(v)"
        elif self.analysis.ranks(node):
            self.ranked = node.pointer
        header = f"{name}: is v valid against {'#' + node.pointer!r}?"
        try:
            with self.out.function(f"{name}(v, d)", header):
                if recursive:
                    self.out.line(f"if d > {self.max_depth}: raise _Deep")
                elif self.ranked is not None:
                    self._refuse_at(0)
                self.body(node, "v")
                self.out.line("return True")
        finally:
            self.out.fail = "return False"
            self.ranked = None

    def _refuse_at(self, at: int, inside: bool = False) -> None:
        """Refusals from here on return the ``Refusal`` saying that the first ``at``
        properties of the function's own object were found valid (the tests before are
        not merged with the ones after: a refusal then names the property it is in), and
        with ``inside`` that the property ``at`` itself is refused (``refusal_in``)."""
        if at < NAMED_REFUSALS:
            named = f"_I{at}" if inside else f"_R{at}"
        else:
            made = refusal_in(at) if inside else refusal_at(at)
            named = self.out.constant(made, "REFUSED")
        self.out.fail_with(f"return {named}")

    def block(self, node: Node, v: str) -> None:
        """Statements that ``return False`` when ``v`` does not match ``node``."""
        schema = node.schema
        if type(schema) is dict and LEAF_ONLY.isdisjoint(schema):
            self._leaf(node, v)
            return
        if is_trivial(schema) or not is_schema(schema):
            return
        if self.out.level >= SPLIT_LEVEL and has_structure(schema):
            self.out.require(self.expressions.call(node, v))
            return
        self.body(node, v)

    def _leaf(self, node: Node, v: str) -> None:
        """A schema judging the value on its own (types and constraints): one test."""
        if is_trivial(node.schema):
            return
        types = self.analysis.types(node)
        if types is not None and "object" in types:
            self.body(node, v)  # objects get their key checks
            return
        tests = []
        if types is not None:
            bounded = finite_bounds(node.schema)
            tests.append(type_test(types, v, strict_keys=False, bounded=bounded))
        tests += self.conditions.local(node, v, types)
        self.out.require_all(tests)

    def body(self, node: Node, v: str) -> None:
        schema = node.schema
        if schema is False:
            self.out.line(self.out.fail)
            return
        if not is_mapping(schema) or is_trivial(schema):
            return
        if schema.get("nullable") is True:
            with self.out.block(f"if {v} is not None:"):
                self._typed(node, v)
        else:
            self._typed(node, v)

    def _typed(self, node: Node, v: str) -> None:
        schema = node.schema
        types = self.analysis.types(node)
        conditions = self.conditions.local(node, v, types)
        objects = not _OBJECT_SET.isdisjoint(schema)
        unique = None
        if types == _OBJECT:
            self._object_type(node, v, conditions, objects)
        else:
            # ``uniqueItems`` freezes every item (a dict or a list item, a tuple of its
            # own): asked after the items' own checks, which refuse a wrong item first.
            # A checker's order changes no verdict, only what a refusal costs.
            unique = guard("array", types, v, f"_unique({v})")
            if _ITEMS.isdisjoint(schema) or unique is None or unique not in conditions:
                unique = None
            else:
                conditions = [test for test in conditions if test != unique]
                if self._plain_items(node):
                    plain = self.out.constant(unique_plain, "unique_plain")
                    unique = guard("array", types, v, f"{plain}({v})")
            strict = types is not None and "object" in types and not iterates_keys(schema)
            tests = []
            if types is not None:
                tests.append(type_test(types, v, strict_keys=strict, bounded=finite_bounds(schema)))
            tests += conditions
            self.out.require_all(tests)
            if objects:
                self.guarded(
                    types, "object", f"isinstance({v}, dict)", lambda: self._object(node, v)
                )
        if not _ARRAY_SET.isdisjoint(schema):
            arrays = f"isinstance({v}, (list, tuple))"
            present = _required_items(schema, types, v, conditions)
            self.guarded(types, "array", arrays, lambda: self._array(node, v, present))
        if unique is not None:
            self.out.require(unique)
        self.applicators(node, v, _NO_PATH, "")

    def _plain_items(self, node: Node) -> bool:
        """Whether every item of the array ``node`` checks is required to be a string, an
        integer or a number by its own ``type`` (``items`` alone, no ``prefixItems``, no
        ``nullable``): the items' checks, which come first, have then found strings or
        JSON numbers (never a bool), whose set tells ``uniqueItems`` at once."""
        schema = node.schema
        items = schema.get("items")
        if "prefixItems" in schema or not is_mapping(items) or items.get("nullable") is True:
            return False
        declared = items.get("type")
        declared = [declared] if isinstance(declared, str) else declared
        if not (isinstance(declared, list) and declared and _PLAIN_TYPES.issuperset(declared)):
            return False
        types = self.analysis.types(self.analysis.child(node, "items"))
        return types is not None and _PLAIN_TYPES.issuperset(types)

    def _object_type(self, node: Node, v: str, conditions: list[str], objects: bool) -> None:
        """``type: object``: a dict subclass is copied to a plain dict once, so that the
        lookups below can be ``v[key]`` (no ``__missing__``, no overridden ``get``)."""
        self.out.line(
            f"if type({v}) is not dict and ({v} := _as_dict({v})) is None: {self.out.fail}"
        )
        schema = node.schema
        if not (closed_object(schema) or iterates_keys(schema)):
            conditions = [f"_str_keys({v})", *conditions]
        self.out.require_all(conditions)
        if objects:
            self._object(node, v, plain=True)

    # -- objects -----------------------------------------------------------------

    def _object(self, node: Node, v: str, *, plain: bool = False) -> None:
        schema = node.schema
        props, required = object_parts(schema)
        closed = closed_object(schema)
        counter = None
        if closed:
            present = len(props.keys() & required)
            if not props.keys() <= set(required):
                counter = self.functions.local("count")
                self.out.line(f"{counter} = {present}")
            else:
                self.out.require(f"len({v}) == {present}", f"len({v}) != {present}")
        ranked = self.ranked == node.pointer and v == "v"
        names = [name for name in props if name in required]
        # Only the root checker's refusal reaches a walker every time (the validator hands
        # it on); a nested one's is mostly dropped by the checker that called it.
        root = ranked and not node.pointer
        if root and plain and 0 < len(names) < _GETTER_KEYS and self._unguarded():
            self._ranked_properties(node, v, names, counter)
        else:
            found = self._required(v, names, plain, root)
            self._properties(node, v, found, ranked, counter)
        if ranked:
            self._refuse_at(len(props))
        for name in required:
            if name not in props:
                self.out.require(f"{literal(name)} in {v}", f"{literal(name)} not in {v}")
        if counter is not None:
            self.out.require(f"len({v}) == {counter}", f"len({v}) != {counter}")
        self.dependencies(node, v, _NO_PATH, props)
        if iterates_keys(schema) and (not closed or "propertyNames" in schema):
            self._key_loop(node, v, props)

    def _property(self, child: Node, item: str, ranked: bool) -> None:
        """``block`` for a property's value ``item``; in a ranked checker, one that is a
        record by ``$ref`` (``Analysis.carried``) refuses with its checker's answer kept
        in its own refusal (``_runtime.within``), which the walk hands that record's walker;
        a union of such records (``Analysis.carried_branches``) with each one's answer."""
        analysis = self.analysis
        target = analysis.carried(child) if ranked else None
        branches = analysis.carried_branches(child) if ranked and target is None else None
        if target is None and branches is None:
            self.block(child, item)
            return
        kept = self.out.fail.removeprefix("return ")
        if target is not None:
            refused = self.functions.local("refused")
            call = self.expressions.call(target, item)
            self.out.line(f"if not ({refused} := {call}): return _within({kept}, {refused})")
            return
        union = self.expressions.union("anyOf", analysis.branches(child, "anyOf"), item)
        answers = []
        for found in branches or ():
            answer = "_WHOLE"
            if found is not None:
                refused = self.functions.local("refused")
                union, kept_it = _answer_kept(union, self.expressions.call(found, item), refused)
                answer = refused if kept_it else answer
            answers.append(answer)
        self.out.line(f"if not {union}: return _within({kept}, ({', '.join(answers)},))")

    def _properties(
        self,
        node: Node,
        v: str,
        found: dict[str, str],
        ranked: bool,
        counter: str | None,
        read: list[str] | None = None,
    ) -> None:
        """The properties' checks in their written order, the required ones read into
        ``found`` already, or each of ``read`` where its property is checked (into
        ``found`` then); ``ranked``: each refusal naming its property's rank."""
        props, required = object_parts(node.schema)
        for at, name in enumerate(props):
            if ranked:
                self._refuse_at(at, inside=True)
            if read is not None and name in read:
                found[name] = self.functions.local("v_" + name)
                self.out.line(f"{found[name]} = {v}[{literal(name)}]")
            if name in found:
                self._property(self.analysis.child(node, "properties", name), found[name], ranked)
            elif name not in required:
                self._optional(node, v, name, counter)

    def _ranked_properties(self, node: Node, v: str, names: list[str], counter: str | None) -> None:
        """The root's properties, each required key (``names``) read where its property is
        checked, inside one ``try``: a missing key ends the check once every property
        before it has passed, so ``_runtime.missed`` answers the refusal at its rank from
        the ``KeyError`` alone, and the walk judges the properties from there on (the
        check is not asked again of a copy with the key filled in)."""
        with self.out.block("try:"):  # a plain dict: a missing key is a KeyError
            self._properties(node, v, {}, True, counter, read=names)
        # The keys up to the last required one, constants the code holds already.
        props = list(object_parts(node.schema)[0])
        last = max(props.index(name) for name in names)
        keys = ", ".join(literal(name) if name in names else "None" for name in props[: last + 1])
        with self.out.block("except KeyError:"):
            self.out.line(f"return _missed({v}, {keys})")

    def _unguarded(self) -> bool:
        """Whether the validator will check without a memo and search no pattern off the
        ``re`` engine (a pattern budget then never gives up). Else a checker reading each
        key where its property is checked would search (or count) before it met a missing
        key, where the walk that follows, judging every property, searches again: what a
        budget lets pass would then move with the order of the reads. (A validator whose
        shared recursive definition is guarded enters a budget too: ``_outside_only``
        makes its ``_missed`` answer ``WHOLE``, as its ``_M0``.)"""
        analysis = self.analysis
        return _searches_on_re(analysis.root.schema) and not repeated(analysis)

    def _required(self, v: str, names: list[str], plain: bool, refill: bool) -> dict[str, str]:
        """Look every required property up at once; a missing one ends the check
        (``refill``: with ``_M0``, ``_runtime.MISSED``)."""
        found = {name: self.functions.local("v_" + name) for name in names}
        if not found:
            return found
        if not plain:
            for name, item in found.items():
                self.out.line(f"{item} = {v}.get({literal(name)}, _MISSING)")
                self.out.require(f"{item} is not _MISSING", f"{item} is _MISSING")
            return found
        with self.out.block("try:"):  # a plain dict: a missing key is a KeyError
            if len(found) >= _GETTER_KEYS:
                getter = self.out.constant(shared_getter(tuple(found)), "KEYS")
                self.out.line(f"{', '.join(found.values())} = {getter}({v})")
            else:
                for name, item in found.items():
                    self.out.line(f"{item} = {v}[{literal(name)}]")
        with self.out.block("except KeyError:"):
            # The root's: the validator asks what the check passes (``_runtime.refilled``),
            # so that its walk judges only the properties from the first refused on.
            self.out.line("return _M0" if refill else self.out.fail)
        return found

    def _optional(self, node: Node, v: str, name: str, counter: str | None) -> None:
        child = self.analysis.child(node, "properties", name)
        key = literal(name)
        if is_trivial(child.schema):
            if counter is not None:
                self.out.line(f"if {key} in {v}: {counter} += 1")
            return
        item = self.functions.local("v_" + name)
        self.out.line(f"{item} = {v}.get({key}, _MISSING)")
        with self.out.block(f"if {item} is not _MISSING:"):
            if counter is not None:
                self.out.line(f"{counter} += 1")
            self._property(child, item, self.ranked == node.pointer and v == "v")

    def _key_loop(self, node: Node, v: str, props: dict[str, Any]) -> None:
        schema = node.schema
        with self.key_loop(node, v, props) as (key, item, known):
            self.out.require(f"isinstance({key}, str)")
            if "propertyNames" in schema:
                names = self.analysis.child(node, "propertyNames")
                self.out.require(self.expressions.check(names, key))
            self.key_schemas(node, key, known, item, _NO_PATH)

    # -- arrays ------------------------------------------------------------------

    def _array(self, node: Node, v: str, present: int) -> None:
        schema = node.schema
        rest_key, count = self.prefix_items(node, v, _NO_PATH, present)
        rest = schema.get(rest_key)
        if rest is False:
            self.out.require(f"len({v}) <= {count}", f"len({v}) > {count}")
        elif is_mapping(rest) and not is_trivial(rest):
            item = self.functions.local("item")
            source = v if count == 0 else f"{v}[{count}:]"
            child = self.analysis.child(node, rest_key)
            target = self._in_loop(child)
            with (
                self.unless_usual(target.schema, source, f".every({source})"),
                self.out.block(f"for {item} in {source}:"),
            ):
                if target is not child:
                    self.out.line(f"# {item} against {'#' + target.pointer!r}, written in place")
                self.block(target, item)
        if "contains" in schema:
            self._contains(node, v)

    def _in_loop(self, items: Node) -> Node:
        """What the loop over an array's items checks each item against: the definition
        a bare ``$ref`` points at, written in the loop itself (no call per item), when
        it holds no reference (the code grows by its size alone, never down a chain) and
        no other validator shares its checker; else ``items``."""
        analysis = self.analysis
        if not (is_mapping(items.schema) and analysis.is_bare_ref(items)):
            return items
        target = analysis.target(items)
        if target is None or analysis.refs_in(target):
            return items  # on a cycle, or reaching other definitions
        if self.functions.is_shared(target, CHECK):
            return items
        return target

    def _contains(self, node: Node, v: str) -> None:
        low, high = contains_bounds(node.schema)
        if low == 0 and high is None:
            return
        counter, item = self.functions.local("matches"), self.functions.local("item")
        test = self.expressions.check(self.analysis.child(node, "contains"), item)
        self.out.line(f"{counter} = 0")
        with self.out.block(f"for {item} in {v}:"), self.out.block(f"if {test}:"):
            self.out.line(f"{counter} += 1")
            if high is None:
                self.out.line(f"if {counter} >= {low}: break")
        condition = f"{counter} >= {low}" + (
            f" and {counter} <= {high}" if high is not None else ""
        )
        self.out.require(f"({condition})")

    # -- applicators (the rest are ``Writer``'s) ----------------------------------

    def reference(self, target: Node, v: str, path: PathCode) -> None:
        self.out.require_all(self.expressions.reference(target, v))

    def union(
        self, node: Node, keyword: str, branches: list[Node], v: str, path: PathCode, expected: str
    ) -> None:
        self.out.require(self.expressions.union(keyword, branches, v))


def _answer_kept(union: str, call: str, name: str) -> tuple[str, bool]:
    """``union`` (an ``or`` of operands) with its first operand that is ``call`` itself
    written ``(name := call)``, and whether there was one: an operand of the ``or`` at
    its top is asked whenever the union is refused, so ``name`` is then bound."""
    tree = ast.parse(union, mode="eval").body
    either = isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.Or)
    operands = tree.values if isinstance(tree, ast.BoolOp) and either else [tree]
    # Each operand's text without the brackets around it: bracketed again unless a call.
    written = [
        text if isinstance(operand, ast.Call) else f"({text})"
        for operand in operands
        for text in [ast.get_source_segment(union, operand) or ""]
    ]
    if call not in written:
        return union, False
    written[written.index(call)] = f"({name} := {call})"
    return "(" + " or ".join(written) + ")", True


def _searches_on_re(schema: Any) -> bool:
    """Whether every pattern in ``schema`` (read as JSON, keys and values, at any depth:
    a name that only looks like one counts too) runs on the ``re`` engine, which needs no
    budget (``Validator._budgeted``). Read from its JSON text, encoded and searched in C:
    a walk in Python of a large closure (an OpenAPI document's components) would be paid
    again by every function reaching it. In that text a ``"pattern": `` is a key, never
    part of a string (whose quotes are escaped); its value is decoded where it starts."""
    try:
        text = json.dumps(schema, check_circular=False)
    except (TypeError, ValueError, RecursionError):
        return _walked_on_re(schema)  # not JSON: read value by value
    if '"pattern' not in text:
        return True
    if '"patternProperties": ' in text:
        return _walked_on_re(schema)
    for found in _PATTERN_KEY.finditer(text):
        try:
            pattern, _ = _DECODER.raw_decode(text, found.end())
        except ValueError:
            return False
        if not _on_re(pattern):
            return False
    return True


_PATTERN_KEY = re.compile(r'"pattern": ')
_DECODER = json.JSONDecoder()


def _walked_on_re(schema: Any) -> bool:
    """``_searches_on_re`` by a walk of the values themselves."""
    todo = [schema]
    while todo:
        item = todo.pop()
        if isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, Mapping):
            for key, value in item.items():
                patterns: Iterable[object] = ()
                if key == "patternProperties" and is_mapping(value):
                    patterns = value
                elif key == "pattern":
                    patterns = (value,)
                if not all(_on_re(pattern) for pattern in patterns):
                    return False
                todo.append(value)
    return True


def _on_re(pattern: object) -> bool:
    try:
        return isinstance(pattern, str) and compile_pattern(pattern).engine == "re"
    except PatternError:
        return False


def _required_items(
    schema: Mapping[str, Any], types: frozenset[str] | None, v: str, conditions: list[str]
) -> int:
    """How many items the ``conditions`` a checker has just required ask an array ``v``
    to hold (its ``minItems``, guarded for the other types as ``guard`` writes it), else 0."""
    least = schema.get("minItems")
    if type(least) is not int:
        return 0
    return least if guard("array", types, v, f"len({v}) >= {least}") in conditions else 0
