"""Checks as Python expressions: a subschema inline, or a call to its checker.

Union branches, ``not``/``if``/``contains`` subschemas and ``$ref`` targets are
tested by expressions that both writers embed (``check``): a small subschema is
written inline (its type test, conditions and applicators joined by ``and``),
anything with object or array keywords becomes a call to its own checker.
"""

from __future__ import annotations

from llmapp.jsonschema import Node, is_mapping

from ._analysis import Analysis
from ._conditions import Conditions, type_test
from ._formats import either_format
from ._functions import CHECK, Functions
from ._vocabulary import CONTAINERS, has_structure, is_trivial

__all__ = ["Expressions"]

_STRING = frozenset({"string"})


class Expressions:
    """Builds check expressions for one validator."""

    def __init__(self, analysis: Analysis, functions: Functions, conditions: Conditions) -> None:
        self.analysis = analysis
        self.functions = functions
        self.conditions = conditions

    def call(self, node: Node, v: str) -> str:
        """A call to ``node``'s checker on ``v``."""
        return f"{self.functions.name(node, CHECK)}({v}, {self.analysis.depth_of(node)})"

    def check(self, node: Node, v: str, budget: int = 3) -> str:
        """A boolean expression checking ``v`` against ``node``: inline, or a call.

        ``budget`` bounds how deeply applicators nest inline before a call takes over.
        """
        inline = self._inline(node, v, budget)
        return inline if inline is not None else self.call(node, v)

    def local(self, node: Node, v: str) -> list[str]:
        """The tests ``node`` makes of ``v`` on its own: type, then per-value conditions."""
        types = self.analysis.types(node)
        tests = [type_test(types, v, strict_keys=True)] if types is not None else []
        return tests + self.conditions.local(node, v, types)

    def reference(self, target: Node, v: str) -> list[str]:
        """Checking ``v`` against a ``$ref``'s target, as operands of ``and``: a
        definition with no structure (an enum, a bounded scalar) inline, anything else a
        call to its checker."""
        schema = target.schema
        if is_mapping(schema) and not has_structure(schema):
            if is_trivial(schema):
                return []
            if schema.get("nullable") is not True:
                return self.local(target, v)
            inline = self._inline(target, v, 0)
            if inline is not None:
                return [inline]
        return [self.call(target, v)]

    def safe(self, node: Node, v: str) -> str:
        """``check`` for use inside a walker, where hitting the depth limit means False.

        A bare ``$ref`` to a recursive definition first asks whether that definition's
        checker already refused ``v`` (``FailedValues``), so a walk down an invalid
        chain does not check the rest of the chain again at every level.
        """
        analysis = self.analysis
        if not analysis.may_raise(node):
            return self.check(node, v)
        test = f"_passes({self.functions.name(node, CHECK)}, {v}, {analysis.depth_of(node)})"
        target = analysis.target(node)
        if (
            target is not None
            and target.pointer in analysis.recursive
            and analysis.is_bare_ref(node)
        ):
            return f"(id({v}) not in _FAILED and {test})"
        return test

    def union(self, keyword: str, branches: list[Node], v: str, budget: int = 3) -> str:
        """``anyOf`` (one branch passes) or ``oneOf`` (exactly one does) as one operand.

        Inline ``anyOf`` branches that all start with the same test (the type test of
        ``format`` variants of a string, say) make that test once:
        ``(A and (B or C))`` for ``((A and B) or (A and C))``, the same answer with less
        code to compile and one test fewer to run. A union of formats one check reads
        (``datetime``'s ``date-time`` or ``date-time-local``) is that check's call.
        """
        if keyword == "anyOf":
            operands = [
                branch if isinstance(branch, list) else self._operands(branch, v, budget)
                for branch in self.with_either(branches, v)
            ]
            if not any(map(self.analysis.may_raise, branches)):
                # ``None`` first: an optional's usual value is answered before a call.
                # Moved only where no branch can stop on the depth limit, whose
                # exception would otherwise be skipped.
                operands.sort(key=lambda operand: operand != [f"{v} is None"])
            first = operands[0][0] if operands[0] and len(operands[0]) > 1 else None
            if first is not None and all(len(o) > 1 and o[0] == first for o in operands):
                rests = (_conjunction(o[1:]) for o in operands)
                return f"({first} and ({' or '.join(rests)}))"
            return "(" + " or ".join(map(_conjunction, operands)) + ")"
        tests = [self.check(branch, v, budget) for branch in branches]
        return "_exactly_one(" + ", ".join(tests) + ")"

    def either(self, branches: list[Node], v: str) -> tuple[list[int], list[str]] | None:
        """The branches of an ``anyOf`` that one check reads (``datetime``'s
        ``date-time`` or ``date-time-local`` strings), by position, and the operands of
        ``and`` that stand for them (the type test, the check's call); else None."""
        joined = either_format([branch.schema for branch in branches])
        if joined is None:
            return None
        name, check, positions = joined
        call = f"{self.conditions.emitter.constant(check, name)}({v})"
        return positions, [type_test(_STRING, v, strict_keys=True), call]

    def with_either(self, branches: list[Node], v: str) -> list[Node | list[str]]:
        """An ``anyOf``'s branches, those one check reads (``either``) replaced, at the
        first one's place, by the operands of ``and`` that stand for them; and those
        that test nothing but a type (``int | str``), where no branch can stop on the
        depth limit, by one type test at the first one's place (``bare_types``)."""
        joined = self.either(branches, v)
        found: list[Node | list[str]] = list(branches)
        if joined is not None:
            positions, operands = joined
            found = [
                operands if index == positions[0] else branch
                for index, branch in enumerate(branches)
                if index not in positions[1:]
            ]
        if any(map(self.analysis.may_raise, branches)):
            return found
        return self.bare_types(found, v)

    def bare_types(self, branches: list[Node | list[str]], v: str) -> list[Node | list[str]]:
        """``branches`` with those whose whole check is a type test (``null`` apart, which
        the union asks first) replaced by one test of all their types, at the first
        one's place: its exact type tests (``type(v) is int``) come before any call
        (``_is_integer``), which a string item of ``int | str`` paid before its own test.
        The tests have no effect but their answer, so their order changes none."""
        bare: dict[int, frozenset[str]] = {}
        for index, branch in enumerate(branches):
            types = self._bare(branch, v)
            if types is not None:
                bare[index] = types
        if len(bare) < 2:
            return branches
        test = type_test(frozenset().union(*bare.values()), v, strict_keys=True)
        first = min(bare)
        return [
            [test] if index == first else branch
            for index, branch in enumerate(branches)
            if index == first or index not in bare
        ]

    def _bare(self, branch: Node | list[str], v: str) -> frozenset[str] | None:
        """The types of a branch whose whole check is their type test (no ``null``)."""
        if isinstance(branch, list) or not is_mapping(branch.schema):
            return None
        types = self.analysis.types(branch)
        if types is None or "null" in types or branch.schema.get("nullable") is True:
            return None
        if self._operands(branch, v, 3) != [type_test(types, v, strict_keys=True)]:
            return None
        return types

    def _operands(self, node: Node, v: str, budget: int) -> list[str]:
        """``check`` as operands of ``and``: the tests of an inline subschema that makes
        some and is not nullable, else ``check`` alone."""
        schema = node.schema
        if schema is False or not is_mapping(schema) or is_trivial(schema):
            return [self.check(node, v, budget)]
        if schema.get("nullable") is True:
            return [self.check(node, v, budget)]
        parts = self._parts(node, v, budget)
        if parts is None:
            return [self.call(node, v)]
        return parts or ["True"]

    def _inline(self, node: Node, v: str, budget: int) -> str | None:
        schema = node.schema
        if schema is False:
            return "False"
        if not is_mapping(schema) or is_trivial(schema):
            return "True"
        parts = self._parts(node, v, budget)
        if parts is None:
            return None
        expression = _conjunction(parts)
        if schema.get("nullable") is True:
            expression = f"({v} is None or {expression})"
        return expression

    def _parts(self, node: Node, v: str, budget: int) -> list[str] | None:
        """The tests of a mapping ``node`` written inline, as operands of ``and``; None
        when it needs a function of its own."""
        schema = node.schema
        if not CONTAINERS.isdisjoint(schema):
            return None
        if budget <= 0 and has_structure(schema):
            return None
        return self.local(node, v) + self._applicators(node, v, budget - 1)

    def _applicators(self, node: Node, v: str, budget: int) -> list[str]:
        analysis = self.analysis
        schema = node.schema
        parts = []
        target = analysis.target(node)
        if target is not None:
            parts.extend(self.reference(target, v))
        parts.extend(self.check(branch, v, budget) for branch in analysis.branches(node, "allOf"))
        for keyword in ("anyOf", "oneOf"):
            branches = analysis.branches(node, keyword)
            if branches:
                parts.append(self.union(keyword, branches, v, budget))
        if "not" in schema:
            parts.append(f"not {self.check(analysis.child(node, 'not'), v, budget)}")
        if "if" in schema:
            condition = self.check(analysis.child(node, "if"), v, budget)
            then = self._optional(node, "then", v, budget)
            otherwise = self._optional(node, "else", v, budget)
            if then != "True" or otherwise != "True":
                parts.append(f"({then} if {condition} else {otherwise})")
        return parts

    def _optional(self, node: Node, keyword: str, v: str, budget: int) -> str:
        if keyword not in node.schema:
            return "True"
        return self.check(self.analysis.child(node, keyword), v, budget)


def _conjunction(parts: list[str]) -> str:
    """Operands of ``and`` as one operand (``True`` for none)."""
    if len(parts) > 1:
        return "(" + " and ".join(parts) + ")"
    return parts[0] if parts else "True"
