"""Schema -> Python source: two generated functions per node that needs one.

For the root and for every ``$ref`` target the generator writes

* ``c_<Name>(v, d) -> bool``: the fast checker. No issue objects, no path strings,
  returns False at the first mistake. ``Validator`` runs it first.
* ``w_<Name>(v, p, e, d)``: the walker, run only when the checker said no. It
  appends every issue to the caller's list ``e`` (never raises them, never loses
  them across a ``$ref``), with ``p`` the path of ``v``. Subschemas that are
  ``$ref``s are checked first and walked only when invalid, so valid subtrees cost
  one checker call.

The checkers are written first (``checker``: it finds every build problem) and the
walkers only on demand (``walker``, after the first value the checker refused), into
the same namespace, so building a validator compiles about a third of the code. A
``$ref`` to a definition with no structure (an enum, a bounded scalar) is checked
inline; consecutive checker tests merge into one ``if not (... and ...)``.

``d`` counts nested calls into recursive definitions (those on a ``$ref`` cycle);
only those functions test it, so non-recursive schemas pay nothing. Past the limit
the checker raises ``DepthExceeded`` (a cyclic input would otherwise be explored
along every union branch) and the walker records one issue first, then raises; the
``Validator`` catches it. Inline subschemas nested too deeply, union branches and
``not``/``if``/``contains`` subschemas that are not plain expressions get their own
functions. The keyword emitters live in ``_check.py`` and ``_walk.py`` (their shared
parts in ``_writer.py``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from llmapp.jsonschema import Node, Resolver, is_mapping, is_schema, name_of, ref_name

from .._errors import BuildProblem
from . import _runtime, _unions
from ._conditions import JSON_TYPES, Conditions, declared_types, type_test
from ._emitter import Emitter, literal
from ._expected import reference_text
from ._result import UNDEFINED, ValidationIssue
from ._schema_error import SchemaError

__all__ = ["CHECK", "WALK", "Generator", "Path"]

CHECK, WALK = "check", "walk"
SPLIT_LEVEL = 9
"""Indentation level past which a nested subschema moves into its own function
(Python allows 20 statically nested blocks and ~100 indentation levels)."""

OBJECT_KEYWORDS = (
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
)
ARRAY_KEYWORDS = ("prefixItems", "items", "additionalItems", "contains")
APPLICATORS = ("$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "not", "if")
LOCAL_KEYWORDS = (
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "contentEncoding",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
)
_MAP_KEYWORDS = ("properties", "patternProperties", "dependentSchemas", "dependentRequired")
_SCHEMA_KEYWORDS = (
    "additionalProperties",
    "propertyNames",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
)
_VALIDATING = frozenset(OBJECT_KEYWORDS + ARRAY_KEYWORDS + APPLICATORS + LOCAL_KEYWORDS)
OBJECT_SET = frozenset(OBJECT_KEYWORDS)
ARRAY_SET = frozenset(ARRAY_KEYWORDS)
_STRUCTURE = frozenset(OBJECT_KEYWORDS + ARRAY_KEYWORDS + APPLICATORS)
_CONTAINERS = frozenset(OBJECT_KEYWORDS + ARRAY_KEYWORDS)
LEAF_ONLY = _STRUCTURE | {"nullable"}
"""A dict schema with none of these keys judges its value on its own (a leaf)."""
_JSON_TYPE_SET = frozenset(JSON_TYPES)
_IN_PLACE = frozenset(
    ("$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "not", "if", "then", "else")
)
_KIND_ORDER = (*_MAP_KEYWORDS, *_SCHEMA_KEYWORDS, "required")
"""Keywords whose value must be of a certain kind, in the order problems are reported."""
_KIND_CHECKED = frozenset(_KIND_ORDER)
_KIND_RANKS = {keyword: rank for rank, keyword in enumerate(_KIND_ORDER)}

_HELPERS: dict[str, Any] = {
    "_is_integer": _runtime.is_integer,
    "_is_number": _runtime.is_number,
    "_str_keys": _runtime.str_keys,
    "_as_dict": _runtime.as_dict,
    "_nonstr_keys": _runtime.nonstr_keys,
    "_in_enum": _runtime.in_enum,
    "_json_equal": _runtime.json_equal,
    "_unique": _runtime.unique,
    "_multiple_of": _runtime.multiple_of,
    "_exactly_one": _runtime.exactly_one,
    "_count_true": _runtime.count_true,
    "_passes": _runtime.passes,
    "_key_path": _runtime.key_path,
    "_index_path": _runtime.index_path,
    "_pick": _unions.pick,
    "_tie": _unions.tie,
    "_Issue": ValidationIssue,
    "_UNDEFINED": UNDEFINED,
    "_MISSING": _runtime.MISSING,
    "_Deep": _runtime.DepthExceeded,
}


def is_trivial(schema: Any) -> bool:
    """True for a schema that accepts everything (``true``, ``{}``, annotations only)."""
    if schema is True:
        return True
    return is_mapping(schema) and _VALIDATING.isdisjoint(schema)


_REF_SIBLINGS = (_VALIDATING - {"$ref", "$dynamicRef"}) | {
    "nullable",
    "discriminator",
    "x-discriminator",
}


def _bare_ref(node: Node) -> bool:
    """A subschema that only points elsewhere (``$ref`` plus annotations): checking it
    is checking its target, nothing more."""
    schema = node.schema
    return is_mapping(schema) and _REF_SIBLINGS.isdisjoint(schema)


def has_structure(schema: Any) -> bool:
    """True for a schema with keywords that look inside the value or combine subschemas."""
    return is_mapping(schema) and not _STRUCTURE.isdisjoint(schema)


@dataclass(frozen=True)
class Path:
    """A path as generated code: constant steps folded at build time, dynamic ones as code."""

    parts: tuple[tuple[bool, str], ...]

    @staticmethod
    def variable(name: str) -> Path:
        return Path(((True, name),))

    def key(self, name: str) -> Path:
        return self._add(False, _runtime.key_path(name))

    def index(self, position: int) -> Path:
        return self._add(False, f"[{position}]")

    def dynamic(self, code: str) -> Path:
        return self._add(True, code)

    def _add(self, is_code: bool, text: str) -> Path:
        last = self.parts[-1]
        if not is_code and not last[0]:
            return Path((*self.parts[:-1], (False, last[1] + text)))
        return Path((*self.parts, (is_code, text)))

    def code(self) -> str:
        return " + ".join(text if is_code else literal(text) for is_code, text in self.parts)


def _reach(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = list(edges.get(start, ()))
    while stack:
        current = stack.pop()
        if current not in seen:
            seen.add(current)
            stack.extend(edges.get(current, ()))
    return seen


class Generator:
    """Generates the checker and walker source for one root schema."""

    def __init__(self, schema: Any, max_depth: int) -> None:
        self.resolver = Resolver(schema)
        self.max_depth = max_depth
        self.emitter = Emitter()
        self.emitter.reserve_all(_HELPERS)
        self.failed = _runtime.FailedValues()
        self.problems: dict[str, BuildProblem] = {}
        self._current: Node = self.resolver.root_node
        self.conditions = Conditions(self.emitter, self._report_keyword)
        self._stems: dict[str, str] = {}
        self._queue: deque[tuple[Node, str]] = deque()
        self._queued: set[tuple[str, str]] = set()
        self._counter = 0
        self._refs: dict[str, list[Node]] = {}
        self._targets: dict[str, Node | None] = {}
        self._expected: dict[str, str] = {}
        self._naming: set[str] = set()
        self.targets: frozenset[str] = frozenset()
        self.recursive, self.reaching = self._analyse()
        if self.recursive:
            self.emitter.reserve("_FAILED", self.failed.ids)
            self.emitter.reserve("_DEEP", self.failed.deep)
            self.emitter.reserve("_failed", self.failed.note)

    # -- driving ---------------------------------------------------------------

    def checker(self) -> tuple[str, str]:
        """The checkers' source and the root checker's name; raises ``SchemaError``.

        Every build problem is found here: the walkers read the same subschemas.
        """
        name = self.function(self.resolver.root_node, CHECK)
        source = self._drain()
        if self.problems:
            raise SchemaError(list(self.problems.values()))
        return source, name

    def walker(self) -> tuple[str, str]:
        """The walkers' source (with any checker they add) and the root walker's name.

        Written on demand, after ``checker``, into the same namespace; build problems
        were all reported by ``checker``.
        """
        name = self.function(self.resolver.root_node, WALK)
        return self._drain(), name

    def _drain(self) -> str:
        """Write every queued function; the source written since the last drain."""
        from ._check import CheckWriter

        checks = CheckWriter(self)
        walks = None
        while self._queue:
            node, mode = self._queue.popleft()
            self._counter = 0
            if mode == CHECK:
                checks.function(node, self.function(node, mode))
            else:
                if walks is None:
                    from ._walk import WalkWriter  # only once a value has failed

                    walks = WalkWriter(self)
                walks.function(node, self.function(node, mode))
            self.emitter.line()
        return self.emitter.take()

    def root_expected(self) -> str:
        """The expected text of the whole schema."""
        return self.expected(self.resolver.root_node)

    def function(self, node: Node, mode: str) -> str:
        """The name of the generated function for ``node`` (queued for writing if new)."""
        stem = self._stems.get(node.pointer)
        if stem is None:
            stem = self.emitter.name(self._hint(node))
            self._stems[node.pointer] = stem
        if (node.pointer, mode) not in self._queued:
            self._queued.add((node.pointer, mode))
            self._queue.append((node, mode))
        return ("c_" if mode == CHECK else "w_") + stem

    @staticmethod
    def _hint(node: Node) -> str:
        name = name_of(node.pointer)
        if name is not None:
            return name
        if not node.pointer:
            return "root"
        tokens = node.pointer.split("/")[-2:]
        return "_".join(token.lstrip("$") for token in tokens if token)

    def fresh(self, prefix: str) -> str:
        """A local variable name, unique within the function being written."""
        self._counter += 1
        return f"{prefix}{self._counter}"

    # -- problems --------------------------------------------------------------

    def focus(self, node: Node) -> None:
        self._current = node

    def report(self, node: Node, keyword: str, reason: str) -> None:
        location = "#" + node.pointer + ("/" + keyword if keyword else "")
        self.problems.setdefault(location + reason, BuildProblem(location, reason))

    def _report_keyword(self, keyword: str, reason: str) -> None:
        self.report(self._current, keyword, reason)

    # -- references and recursion ----------------------------------------------

    def target(self, node: Node) -> Node | None:
        """The node a ``$ref`` (or ``$dynamicRef``, resolved statically) points at."""
        pointer = node.pointer
        if pointer in self._targets:
            return self._targets[pointer]
        found = self._target(node)
        self._targets[pointer] = found
        return found

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

    def _analyse(self) -> tuple[frozenset[str], frozenset[str]]:
        """Which definitions are on a ``$ref`` cycle, and which reach one."""
        edges: dict[str, set[str]] = {}
        direct: dict[str, set[str]] = {}
        todo = [self.resolver.root_node]
        while todo:
            node = todo.pop()
            if node.pointer in edges:
                continue
            targets = self.refs_in(node)
            edges[node.pointer] = {target.pointer for target in targets}
            direct[node.pointer] = {target.pointer for target in self._in_place_refs(node)}
            todo.extend(targets)
        self.targets = frozenset(target for found in edges.values() for target in found)
        reachable = {pointer: _reach(edges, pointer) for pointer in edges}
        recursive = frozenset(p for p, seen in reachable.items() if p in seen)
        reaching = frozenset(
            p for p, seen in reachable.items() if p in recursive or seen & recursive
        )
        for pointer in direct:
            if pointer in _reach(direct, pointer):
                self.report(
                    self.resolver.at(pointer) or self.resolver.root_node,
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
            if not is_mapping(current.schema) or _IN_PLACE.isdisjoint(current.schema):
                continue
            target = self.target(current)
            if target is not None:
                found.append(target)
            for keyword in ("allOf", "anyOf", "oneOf"):
                stack.extend(self.branches(current, keyword) if current.schema.get(keyword) else [])
            for keyword in ("not", "if", "then", "else"):
                if is_mapping(current.schema.get(keyword)):
                    stack.append(self.resolver.child(current, keyword))
        return found

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

    def may_raise(self, node: Node) -> bool:
        """Whether checking ``node`` can reach a recursive definition (and its depth guard)."""
        return any(target.pointer in self.reaching for target in self.refs_in(node))

    # -- expressions -----------------------------------------------------------

    def check_expr(self, node: Node, v: str, budget: int = 3) -> str:
        """A boolean expression checking ``v`` against ``node``: inline, or a function call."""
        inline = self.inline_expr(node, v, budget)
        if inline is not None:
            return inline
        return f"{self.function(node, CHECK)}({v}, {self.depth_of(node)})"

    def ref_checks(self, target: Node, v: str) -> list[str]:
        """Checking ``v`` against a ``$ref``'s target, as operands of ``and``: a
        definition with no structure (an enum, a bounded scalar) inline, anything else a
        call to its checker."""
        schema = target.schema
        if is_mapping(schema) and not has_structure(schema):
            if is_trivial(schema):
                return []
            if schema.get("nullable") is not True:
                self.focus(target)
                types = self.checked_types(target)
                parts = [type_test(types, v, strict_keys=True)] if types is not None else []
                return parts + self.conditions.local(schema, v, types)
            inline = self.inline_expr(target, v, 0)
            if inline is not None:
                return [inline]
        return [f"{self.function(target, CHECK)}({v}, {self.depth_of(target)})"]

    def safe_check(self, node: Node, v: str) -> str:
        """``check_expr`` for use inside a walker, where hitting the depth limit means False.

        A bare ``$ref`` to a recursive definition first asks whether that definition's
        checker already refused ``v`` (``FailedValues``), so a walk down an invalid
        chain does not check the rest of the chain again at every level.
        """
        if not self.may_raise(node):
            return self.check_expr(node, v)
        test = f"_passes({self.function(node, CHECK)}, {v}, {self.depth_of(node)})"
        target = self.target(node)
        if target is not None and target.pointer in self.recursive and _bare_ref(node):
            return f"(id({v}) not in _FAILED and {test})"
        return test

    def inline_expr(self, node: Node, v: str, budget: int = 3) -> str | None:
        schema = node.schema
        if schema is True or is_trivial(schema):
            return "True"
        if schema is False:
            return "False"
        if not is_mapping(schema):
            return "True"
        if not _CONTAINERS.isdisjoint(schema):
            return None
        if budget <= 0 and has_structure(schema):
            return None
        self.focus(node)
        types = self.checked_types(node)
        parts = [type_test(types, v, strict_keys=True)] if types is not None else []
        parts += self.conditions.local(schema, v, types)
        parts += self._applicator_exprs(node, v, budget - 1)
        expression = " and ".join(parts) or "True"
        if len(parts) > 1:
            expression = f"({expression})"
        if schema.get("nullable") is True:
            expression = f"({v} is None or {expression})"
        return expression

    def _applicator_exprs(self, node: Node, v: str, budget: int) -> list[str]:
        schema = node.schema
        parts = []
        target = self.target(node)
        if target is not None:
            parts.extend(self.ref_checks(target, v))
        for keyword in ("allOf", "anyOf", "oneOf"):
            branches = self.branches(node, keyword)
            if not branches:
                continue
            exprs = [self.check_expr(branch, v, budget) for branch in branches]
            if keyword == "allOf":
                parts.extend(exprs)
            elif keyword == "anyOf":
                parts.append("(" + " or ".join(exprs) + ")")
            else:
                parts.append("_exactly_one(" + ", ".join(exprs) + ")")
        if "not" in schema:
            parts.append(f"not {self.check_expr(self.resolver.child(node, 'not'), v, budget)}")
        if "if" in schema:
            condition = self.check_expr(self.resolver.child(node, "if"), v, budget)
            then = self._optional_expr(node, "then", v, budget)
            otherwise = self._optional_expr(node, "else", v, budget)
            if then != "True" or otherwise != "True":
                parts.append(f"({then} if {condition} else {otherwise})")
        return parts

    def _optional_expr(self, node: Node, keyword: str, v: str, budget: int) -> str:
        if keyword not in node.schema:
            return "True"
        return self.check_expr(self.resolver.child(node, keyword), v, budget)

    # -- schema reading ----------------------------------------------------------

    def checked_types(self, node: Node) -> frozenset[str] | None:
        """The declared types of ``node``, reporting malformed keywords on the way."""
        self._check_kinds(node)
        types = declared_types(node.schema)
        if types is not None:
            if types <= _JSON_TYPE_SET:
                return types
            unknown = sorted(name for name in types if name not in JSON_TYPES)
            if unknown:
                self.report(node, "type", f"unknown type {', '.join(map(repr, unknown))}")
                types = types - set(unknown)
        elif "type" in node.schema:
            self.report(node, "type", "must be a type name or a list of them")
        return types

    def _check_kinds(self, node: Node) -> None:
        schema = node.schema
        present = _KIND_CHECKED.intersection(schema)
        if not present:
            return
        ordered = sorted(present, key=_KIND_RANKS.__getitem__) if len(present) > 1 else present
        for keyword in ordered:
            value = schema[keyword]
            if keyword in _MAP_KEYWORDS:
                if not is_mapping(value):
                    self.report(node, keyword, "must be an object")
            elif keyword == "required":
                if not (isinstance(value, list) and all(isinstance(n, str) for n in value)):
                    self.report(node, "required", "must be an array of property names")
            elif not is_schema(value) and not (keyword == "items" and isinstance(value, list)):
                self.report(node, keyword, "must be a schema")  # a list: draft 4 tuple items

    def branches(self, node: Node, keyword: str) -> list[Node]:
        value = node.schema.get(keyword)
        if value is None:
            return []
        if not isinstance(value, list) or not value:
            self.report(node, keyword, "must be a non-empty array of schemas")
            return []
        return [self.resolver.child(node, keyword, str(i)) for i in range(len(value))]

    def expected(self, node: Node) -> str:
        """The expected text of ``node`` (a structured named definition reads as its name)."""
        found = self._expected.get(node.pointer)
        if found is None:
            found = reference_text(name_of(node.pointer), node.schema, self._ref_text)
            self._expected[node.pointer] = found
        return found

    def _ref_text(self, ref: str) -> str:
        target = self.resolver.resolve(ref, self.resolver.root_node.base)
        if target is None or target.pointer in self._naming:
            return ref_name(ref) or "any"
        self._naming.add(target.pointer)
        try:
            name = name_of(target.pointer) or ref_name(ref)
            return reference_text(name, target.schema, self._ref_text)
        finally:
            self._naming.discard(target.pointer)
