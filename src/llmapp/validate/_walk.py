"""Writes an issue walker: ``w_<Name>(v, p, e, d)`` appends every mistake to ``e``.

Run only after the checker said no. One issue per wrong value (with the whole
expected text of its schema); a value of the wrong type is not descended into; a
missing required key is reported at its own path with ``UNDEFINED``; a key that must
not be there has ``expected == "undefined"``. ``$ref``s are checked first and walked
only when invalid. Unions ask ``_pick`` which branch to explain, unless the value's JSON
type settles it (``_unions.settled``, written in). Items of a date, time or duration
format are judged at once first, as the checkers do, and one by one only when refused.
"""

from __future__ import annotations

from typing import Any

from llmapp.jsonschema import Node, is_mapping, is_schema

from .._codegen.source import literal
from ._analysis import Analysis
from ._conditions import conjunction, type_test
from ._formats import usual_texts
from ._functions import CHECK, WALK
from ._shapes import describe_union, union_shape
from ._unions import UnionInfo, settled
from ._vocabulary import (
    ARRAY_KEYWORDS,
    OBJECT_KEYWORDS,
    VALIDATING,
    closed_object,
    contains_bounds,
    has_structure,
    is_trivial,
    iterates_keys,
    object_parts,
)
from ._writer import SPLIT_LEVEL, PathCode, Writer

__all__ = ["PathCode", "WalkWriter"]

_OBJECT_SET = frozenset(OBJECT_KEYWORDS)
_ARRAY_SET = frozenset(ARRAY_KEYWORDS)


class WalkWriter(Writer):
    """Writes walker functions into the emitter."""

    ranked: str | None = None
    """The pointer of the node whose walker is being written when it takes its checker's
    ``Refusal`` (``Analysis.ranks``), else None."""

    refused_here: str | None = None
    """While a ``_knowable`` property is written, the test true where the checker refused
    inside it (``r == 5``): its leaf test, union test or check at once of its date items
    is then not asked (``_refused_here``)."""

    def function(self, node: Node, name: str) -> None:
        header = (
            f"{name}: append to e an issue for each way v (at path p) fails {'#' + node.pointer!r}"
        )
        # ``m``: the checker's refusal of v (``_runtime.Refusal``), read where it ranks.
        with self.out.function(f"{name}(v, p, e, d, m=_WHOLE)", header):
            if node.pointer in self.analysis.recursive:
                with self.out.block(f"if d > {self.max_depth}:"):
                    reason = f"nested deeper than {self.max_depth} levels"
                    self.issue(PathCode.variable("p"), self.analysis.expected(node), "v", reason)
                    self.out.line("raise _Deep")
            elif self.analysis.ranks(node):
                # The checker judged a copy of a dict subclass (``_as_dict``), and the walk
                # reads the value itself: only a plain dict's properties are taken as passed.
                self.ranked = node.pointer
                # ``r``: the refusal's ``place``, twice the properties passed, plus 1 where
                # refused inside the next one.
                self.out.line("r = m.place")
                self.out.line("if r and type(v) is not dict: r = 0")
            # The root walker is called with "$input" only, unless a "$ref" points at the
            # root: then its paths are folded into constants.
            fixed = not node.pointer and "" not in self.analysis.targets
            path = PathCode.constant("$input") if fixed else PathCode.variable("p")
            try:
                self.body(node, "v", path)
            finally:
                self.ranked = None

    # -- the failure switch: an issue at the path, with the expected text -----------

    def issue(
        self, path: PathCode, expected: str, value: str, description: str | None = None
    ) -> None:
        extra = "" if description is None else f", {literal(description)}"
        self.out.line(f"e.append(_Issue({path.code()}, {literal(expected)}, {value}{extra}))")

    def require(
        self,
        test: str,
        failed: str | None,
        path: PathCode,
        expected: str,
        value: str,
        description: str | None = None,
    ) -> None:
        with self.out.block(f"if {failed or 'not ' + conjunction([test])}:"):
            self.issue(path, expected, value, description)

    def fail(
        self, path: PathCode, expected: str, value: str, description: str | None = None
    ) -> None:
        self.issue(path, expected, value, description)

    def visit(self, node: Node, v: str, path: PathCode) -> None:
        self.block(node, v, path)

    def test(self, node: Node, v: str) -> str:
        return self.expressions.safe(node, v)

    def expected(self, node: Node) -> str:
        return self.analysis.expected(node)

    def block(self, node: Node, v: str, path: PathCode) -> None:
        """Statements appending an issue for each way ``v`` fails ``node``."""
        schema = node.schema
        if is_trivial(schema) or not is_schema(schema):
            return
        if self.out.level >= SPLIT_LEVEL and has_structure(schema):
            self._call(v, path, node)
            return
        self.body(node, v, path)

    def _call(self, v: str, path: PathCode, target: Node, known: str | None = None) -> None:
        """Check ``v`` with ``target``'s function and walk it only when that fails;
        ``known``: the test true where the checker refused ``v`` by that very function,
        whose answer is then the refusal's ``inner`` (``Analysis.carried``), not asked again."""
        analysis = self.analysis
        check = self.functions.name(target, CHECK)
        walk = self.functions.name(target, WALK)
        depth = analysis.depth_of(target)
        asked = f"{check}({v}, {depth})"
        if known is not None:
            asked = f"m.inner if {known} else {asked}"
        if target.pointer in analysis.reaching or analysis.may_raise(target):
            # The check may hit the depth limit: its DepthExceeded means "walk it".
            # A value a recursive checker already refused is walked without a new check.
            recursive = target.pointer in analysis.recursive
            noted = f"id({v}) in _FAILED or id({v}) in _DEEP or " if recursive else ""
            bad = self.functions.local("failed")
            # A ranked checker's refusal tells its walker where to start, as below; a
            # recursive one's names nothing (and a noted value skips its check).
            kept = known is not None or (not recursive and analysis.ranks(target))
            refused = self.functions.local("refused") if kept else None
            with self.out.block("try:"):
                answer = asked if refused is None else f"({refused} := {asked})"
                self.out.line(f"{bad} = {noted}not {answer}")
            with self.out.block("except _Deep:"):
                if recursive:  # too deep from here: a cycle met again is walked unchecked
                    self.out.line(f"_DEEP.add(id({v}))")
                self.out.line(
                    f"{bad} = True" if refused is None else f"{bad}, {refused} = True, _WHOLE"
                )
            given = "" if refused is None else f", {refused}"
            self.out.line(f"if {bad}: {walk}({v}, {path.code()}, e, {depth}{given})")
            return
        if analysis.ranks(target):  # the checker's refusal tells its walker where to start
            refused = self.functions.local("refused")
            self.out.line(
                f"if not ({refused} := {asked}): {walk}({v}, {path.code()}, e, {depth}, {refused})"
            )
            return
        self.out.line(f"if not {asked}: {walk}({v}, {path.code()}, e, {depth})")

    def body(self, node: Node, v: str, path: PathCode) -> None:
        schema = node.schema
        if schema is False:
            self.issue(path, "never", v)
            return
        if not is_mapping(schema) or is_trivial(schema):
            return
        if schema.get("nullable") is True:
            with self.out.block(f"if {v} is not None:"):
                self._typed(node, v, path)
        else:
            self._typed(node, v, path)

    def _typed(self, node: Node, v: str, path: PathCode, refused: bool = False) -> None:
        """``refused``: ``v`` is known to fail ``node`` (``_refused``)."""
        schema = node.schema
        types = self.analysis.types(node)
        conditions = self.conditions.local(node, v, types)
        expected = self.analysis.expected(node)
        structured = has_structure(schema) or (types is not None and "object" in types)
        if not structured:
            tests = [type_test(types, v, strict_keys=False)] if types is not None else []
            tests += conditions
            if tests and refused:
                self.issue(path, expected, v)
            elif tests:
                with self.out.block(f"if {self._refused_here()}not {conjunction(tests)}:"):
                    self.issue(path, expected, v)
            return
        if types is None:
            self._rest(node, v, path, types, conditions, expected, refused)
            return
        with self.out.block(f"if not {type_test(types, v, strict_keys=False)}:"):
            self.issue(path, expected, v)
        with self.out.block("else:"):
            self._rest(node, v, path, types, conditions, expected, refused)

    def _rest(
        self,
        node: Node,
        v: str,
        path: PathCode,
        types: frozenset[str] | None,
        conditions: list[str],
        expected: str,
        refused: bool = False,
    ) -> None:
        schema = node.schema
        if conditions:
            with self.out.block(f"if not {conjunction(conditions)}:"):
                self.issue(path, expected, v)
        if not _OBJECT_SET.isdisjoint(schema) or (types and "object" in types):
            self.guarded(
                types,
                "object",
                f"isinstance({v}, dict)",
                lambda: self._object(node, v, path, types, refused),
            )
        if not _ARRAY_SET.isdisjoint(schema):
            self.guarded(
                types,
                "array",
                f"isinstance({v}, (list, tuple))",
                lambda: self._array(node, v, path, refused),
            )
        self.applicators(node, v, path, expected)

    # -- objects -----------------------------------------------------------------

    def _object(
        self,
        node: Node,
        v: str,
        path: PathCode,
        types: frozenset[str] | None,
        refused: bool = False,
    ) -> None:
        """``refused``: the object's own check has just said no (a union's branch): a dict
        of date or time texts is judged one by one, not first at once again."""
        schema = node.schema
        props, required = object_parts(schema)
        # A closed object whose known keys account for len(v) has no key to report.
        counted = closed_object(schema) and "propertyNames" not in schema
        counter = self.functions.local("count") if counted else None
        if counter is not None:
            self.out.line(f"{counter} = 0")
        ranked = self.ranked == node.pointer and v == "v"
        for at, name in enumerate(props):
            rank = at if ranked else None
            self._property(node, v, path, name, name in required, counter, rank)
        for name in required:
            if name not in props:
                with self.out.block(f"if {literal(name)} not in {v}:"):
                    self.issue(path.key(name), "any", "_UNDEFINED")
        self.dependencies(node, v, path, props)
        if counter is not None:
            with self.out.block(f"if len({v}) != {counter}:"):
                self._key_loop(node, v, path, props, refused)
        elif iterates_keys(schema) or closed_object(schema):
            self._key_loop(node, v, path, props, refused)
        elif types is not None and "object" in types:
            key = self.functions.local("key")
            with self.out.block(f"for {key} in _nonstr_keys({v}):"):
                where = path.dynamic(f"_step({key})")
                self.issue(where, "undefined", f"{v}[{key}]", "object keys must be strings")

    def _property(
        self,
        node: Node,
        v: str,
        path: PathCode,
        name: str,
        required: bool,
        counter: str | None,
        rank: int | None,
    ) -> None:
        """The property ``name`` of ``v``; ``rank``: its place among the properties where
        the walker takes its checker's ``Refusal`` (judged only from its ``at`` on)."""
        child = self.analysis.child(node, "properties", name)
        trivial = is_trivial(child.schema)
        if trivial and not required:
            if counter is not None:
                self.out.line(f"if {literal(name)} in {v}: {counter} += 1")
            return
        item = self.functions.local("v_" + name)
        where = path.key(name)
        self.out.line(f"{item} = {v}.get({literal(name)}, _MISSING)")
        if required:
            with self.out.block(f"if {item} is _MISSING:"):
                self.issue(where, self.analysis.expected(child), "_UNDEFINED")
            if not trivial or counter is not None:
                with self.out.block("else:"):
                    if counter is not None:
                        self.out.line(f"{counter} += 1")
                    self._judged(child, item, where, rank)
            return
        with self.out.block(f"if {item} is not _MISSING:"):
            if counter is not None:
                self.out.line(f"{counter} += 1")
            self._judged(child, item, where, rank)

    def _judged(self, child: Node, item: str, where: PathCode, rank: int | None) -> None:
        """``block`` for a property, skipped where the checker found it valid (its
        ``rank`` below its ``at``: those issues would be none)."""
        if rank is None or not _worth_skipping(child.schema):
            self.block(child, item, where)
            return
        inside = 2 * rank + 1  # the ``place`` of a refusal inside this very property
        with self.out.block(f"if r <= {inside}:"):
            # Refused inside this very property (``Refusal.inside``): the test that opens its
            # issues is not asked again (``_refused_here``).
            self.refused_here = f"r == {inside}" if self._knowable(child) else None
            try:
                self.block(child, item, where)
            finally:
                self.refused_here = None

    def _refused_here(self) -> str:
        """``refused_here`` as the first operand of the test it opens (``r == 5 or ``),
        taken once: the property's own test, never one nested in it."""
        known, self.refused_here = self.refused_here, None
        return "" if known is None else known + " or "

    def _knowable(self, child: Node) -> bool:
        """Whether a property's walk known refused (``Refusal.inside``) is cheaper than its
        walk: a value judged whole by one test (a leaf's type and conditions, a union
        alone), or an array or a dict whose date or time items are judged at once first."""
        schema = child.schema
        if not _worth_skipping(schema) or schema.get("nullable") is True:
            return False
        if self.analysis.carried(child) is not None:
            return True  # its checker's refusal is kept in the one refusing it (``reference``)
        if not _REFERENCES.isdisjoint(schema):
            return False
        if VALIDATING.intersection(schema) == _ANY_OF:
            return True
        if not has_structure(schema):
            return "object" not in (self.analysis.types(child) or ())
        if "prefixItems" in schema:
            return False  # (a prefix item's own test would open first)
        if _ARRAY_SET.isdisjoint(schema):
            return _texts_mapping(schema)
        return usual_texts(schema.get("items")) is not None

    def _key_loop(
        self, node: Node, v: str, path: PathCode, props: dict[str, Any], refused: bool
    ) -> None:
        schema = node.schema
        at_once = None if refused else self._refused_here()
        with self.key_loop(node, v, props, at_once) as (key, item, known):
            where = path.dynamic(f"_step({key})")
            with self.out.block(f"if not isinstance({key}, str):"):
                self.issue(where, "undefined", item, "object keys must be strings")
                self.out.line("continue")
            if "propertyNames" in schema:
                names = self.analysis.child(node, "propertyNames")
                with self.out.block(f"if not {self.expressions.safe(names, key)}:"):
                    reason = "this key is not an allowed property name"
                    self.issue(where, self.analysis.expected(names), key, reason)
            self.key_schemas(node, key, known, item, where)

    # -- arrays ------------------------------------------------------------------

    def _array(self, node: Node, v: str, path: PathCode, refused: bool = False) -> None:
        """``refused``: the array's own check has just said no (a union's branch), most
        often for an item: its items are judged one by one, not first at once again."""
        schema = node.schema
        rest_key, count = self.prefix_items(node, v, path)
        rest = schema.get(rest_key)
        index = self.functions.local("index")
        where = path.position(index)
        if rest is False:
            with self.out.block(f"for {index} in range({count}, len({v})):"):
                self.issue(where, "undefined", f"{v}[{index}]")
        elif is_mapping(rest) and not is_trivial(rest):
            item = self.functions.local("item")
            items = v if count == 0 else f"{v}[{count}:]"
            source = f"enumerate({v})" if count == 0 else f"enumerate({items}, {count})"
            at_once = None if refused else self._refused_here()
            child = self.analysis.child(node, rest_key)
            with self.unless_usual(rest, items, f"{{}}.left({items})", at_once):
                if count == 0 and not has_structure(rest):
                    self._scanned(child, v, item, index, where)
                else:
                    with self.out.block(f"for {index}, {item} in {source}:"):
                        self.block(child, item, where)
        if "contains" in schema:
            self._contains(node, v, path)

    def _scanned(self, child: Node, v: str, item: str, index: str, where: PathCode) -> None:
        """The loop over items judged by one test each (no structure): the test alone
        first, in a loop without an index, then, from the first item it refuses, the
        walk. An array is walked most often for another of its values than its items
        (its length, an item of a sibling), and then no item is walked at all."""
        with (
            self.out.block(f"for {item} in {v}:"),
            self.out.block(f"if not ({self.expressions.safe(child, item)}):"),
        ):
            with self.out.block(f"for {index}, {item} in _items_from({v}, {item}):"):
                self.block(child, item, where)
            self.out.line("break")

    def _contains(self, node: Node, v: str, path: PathCode) -> None:
        low, high = contains_bounds(node.schema)
        if low == 0 and high is None:
            return
        counter, item = self.functions.local("matches"), self.functions.local("item")
        test = self.expressions.safe(self.analysis.child(node, "contains"), item)
        self.out.line(f"{counter} = sum(1 for {item} in {v} if {test})")
        condition = f"{counter} >= {low}" + (
            f" and {counter} <= {high}" if high is not None else ""
        )
        with self.out.block(f"if not ({condition}):"):
            reason = f"{{}} items match 'contains' (expected at least {low}" + (
                f" and at most {high})" if high is not None else ")"
            )
            self.out.line(
                f"e.append(_Issue({path.code()}, {literal(self.analysis.expected(node))}, "
                f"{v}, {literal(reason)}.format({counter})))"
            )

    # -- applicators (the rest are ``Writer``'s) ----------------------------------

    def reference(self, target: Node, v: str, path: PathCode) -> None:
        known, self.refused_here = self.refused_here, None
        self._call(v, path, target, known)

    def union(
        self, node: Node, keyword: str, branches: list[Node], v: str, path: PathCode, expected: str
    ) -> None:
        found = self.expressions.with_either(branches, v) if keyword == "anyOf" else branches
        tests = [
            "(" + " and ".join(branch) + ")"
            if isinstance(branch, list)
            else self.expressions.safe(branch, v)
            for branch in found
        ]
        if keyword == "anyOf":
            if not any(map(self.analysis.may_raise, branches)):
                tests.sort(key=lambda test: test != f"{v} is None")  # as the checkers do
            known = self.refused_here
            with self.out.block(f"if {self._refused_here()}not ({' or '.join(tests)}):"):
                self._explain(node, keyword, branches, v, path, known)
            return
        counter = self.functions.local("count")
        self.out.line(f"{counter} = _count_true({', '.join(tests)})")
        with self.out.block(f"if {counter} == 0:"):
            self._explain(node, keyword, branches, v, path)
        with self.out.block(f"elif {counter} > 1:"):
            self.issue(path, expected, v, "matches more than one of the oneOf alternatives")

    def _explain(
        self,
        node: Node,
        keyword: str,
        branches: list[Node],
        v: str,
        path: PathCode,
        known: str | None = None,
    ) -> None:
        """Ask ``_pick`` which branch failed least badly and walk that one; ``known``: the
        test true where the checker refused this very union, keeping its branches' answers
        (``Analysis.carried_branches``): the branch picked is walked from its own."""
        info = describe_union(self.analysis, node, keyword, branches)
        carried = self.analysis.carried_branches(node) if known is not None else None
        choice = self.functions.local("branch")
        self.out.line(f"{choice} = {self._choice(info, v, path)}")
        tie = _may_tie(self.analysis, branches)
        depth = "d + 1" if any(self.analysis.may_raise(b) for b in branches) else "d"
        for index, branch in enumerate(branches):
            given = ""
            if carried is not None and carried[index] is not None:
                given = f", m.inner[{index}] if {known} else _WHOLE"
            with self.out.block(f"{'if' if index == 0 else 'elif'} {choice} == {index}:"):
                refused = not self.analysis.may_raise(branch)
                if tie and has_structure(branch.schema) and not (refused and self._bare(branch)):
                    # Its walker is written for ``_tie`` anyway: called, not written again
                    # here (nested unions would write each branch once per level above it).
                    walker = self.functions.name(branch, WALK)
                    self.out.line(f"{walker}({v}, {path.code()}, e, {depth}{given})")
                elif refused:
                    self._refused(branch, v, path, given)
                else:
                    self.block(branch, v, path)
        if tie:
            walkers = ", ".join(self.functions.name(branch, WALK) for branch in branches)
            with self.out.block(f"elif {choice} != -1:"):
                self.out.line(f"_tie({v}, {path.code()}, e, {depth}, {choice}, ({walkers},))")

    def _choice(self, info: UnionInfo, v: str, path: PathCode) -> str:
        """``_pick``'s answer as an expression: written in for the JSON types that settle
        it (``settled``; an answer of -1 appends the union's issue), so that a list where
        ``list[X] | None`` is refused, or a record where a scalar is, asks no Python call;
        ``_pick`` for the other types."""
        # Each answer's classes and tests, in the order of the types first giving it.
        classes: dict[int, list[str]] = {}
        tests: dict[int, list[str]] = {}
        for kind, test in _KIND_TESTS:
            chosen = settled(info, kind)
            if chosen is not None:
                classes.setdefault(chosen, []).extend(_KIND_CLASSES.get(kind, ()))
                tests.setdefault(chosen, []).extend([test.format(v=v)] if test else [])
        where = path.code()
        choice = f"_pick({v}, {where}, e, {self.out.constant(info, 'UNION')})"
        for chosen in reversed(classes):
            names = classes[chosen]
            kinds = names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"
            found = [f"isinstance({v}, {kinds})"] if names else []
            answer = str(chosen)
            if chosen == -1:
                issue = f"_Issue({where}, {literal(info.expected)}, {v})"
                answer = f"(e.append({issue}) or -1)"
            choice = f"{answer} if {' or '.join(found + tests[chosen])} else {choice}"
        return choice

    def _refused(self, branch: Node, v: str, path: PathCode, given: str = "") -> None:
        """``block`` for a union branch whose check, asked just before ``_pick`` and unable
        to stop on the depth limit, said no: the same issues, without asking it again
        (a refused date-time or record would be read once more). A branch of a scalar
        type gets its issue; a bare ``$ref`` its walker (``given``: the refusal argument
        its checker's kept answer makes); anything else is walked whole."""
        schema = branch.schema
        analysis = self.analysis
        target = self._bare(branch)
        if target is not None:
            walk = self.functions.name(target, WALK)
            self.out.line(f"{walk}({v}, {path.code()}, e, {analysis.depth_of(target)}{given})")
        elif (
            (not analysis.is_bare_ref(branch) or analysis.target(branch) is None)
            and is_mapping(schema)
            and not is_trivial(schema)
            and schema.get("nullable") is not True
            and not (self.out.level >= SPLIT_LEVEL and has_structure(schema))
        ):
            self._typed(branch, v, path, refused=True)
        else:
            self.block(branch, v, path)

    def _bare(self, branch: Node) -> Node | None:
        """The definition a branch that is a bare ``$ref`` names, where no cycle reaches it:
        a refused branch's issues are then one call of that definition's walker (written
        anyway), never its check asked again (a tie's branch walker would)."""
        analysis = self.analysis
        target = analysis.target(branch) if analysis.is_bare_ref(branch) else None
        return target if target is not None and target.pointer not in analysis.reaching else None


_KIND_CLASSES = {"object": ["dict"], "array": ["list", "tuple"], "string": ["str"]}
"""The JSON types whose values are the instances of these classes (no class is a subclass
of two of them), so one ``isinstance`` tells several."""

_KIND_TESTS = (
    ("object", ""),
    ("array", ""),
    ("string", ""),
    ("boolean", "{v} is True or {v} is False"),
    ("null", "{v} is None"),
    ("integer", "type({v}) is int"),
)
"""For each JSON type, a test true only of values of it (``json_type``), where one is
cheap: a float's type depends on its value, so a float goes to ``_pick``."""


def _texts_mapping(schema: Any) -> bool:
    """Whether an object's schema says only that it is a dict of date or time texts (its
    ``additionalProperties`` a ``usual_texts`` schema, its size bounded at most): the
    walk's first test to open is then the key loop's check at once (``key_loop``)."""
    return _MAPPING_KEYWORDS.issuperset(VALIDATING.intersection(schema)) and (
        usual_texts(schema.get("additionalProperties")) is not None
    )


_MAPPING_KEYWORDS = frozenset(("type", "additionalProperties", "minProperties", "maxProperties"))


def _worth_skipping(schema: Any) -> bool:
    """Whether judging a property against ``schema`` costs more than the test that skips
    it: one that looks inside the value, combines subschemas or reads a text's format or
    pattern (a type test, bounds or an enum alone cost about what the skip's test does,
    which a walk from the first property would pay for nothing)."""
    if not is_mapping(schema) or is_trivial(schema):
        return False
    return has_structure(schema) or not _JUDGED_BY_CALLS.isdisjoint(schema)


_ANY_OF = frozenset(("anyOf",))
_REFERENCES = frozenset(("$ref", "$dynamicRef", "if", "then", "else"))
"""Keywords a ``_knowable`` property's schema is without: a reference is walked with its
own checker's refusal, a condition judges beside the union."""

_JUDGED_BY_CALLS = frozenset(("format", "pattern", "contentEncoding", "multipleOf"))
"""A leaf's keywords whose test is a call or a search, not a comparison."""


def _may_tie(analysis: Analysis, branches: list[Node]) -> bool:
    """Whether two branches could both take the same object or array."""
    containers = 0
    for branch in branches:
        types = union_shape(analysis, branch).types
        if types is None or types & {"object", "array"}:
            containers += 1
    return containers > 1
