"""Unions: pick the branch a validated value belongs to, then convert it as that branch.

Most unions are told apart by the JSON kind of the value alone (``datetime |
None``, ``list[Item] | Item``): those compile to one dict lookup on ``type(value)``.
When several branches share a kind and at least one of them converts
(``Cat | Dog``, ``datetime | date``), the branches are tried in declaration
order with a structural *matcher* each -- keys and required keys of objects,
literal and enum values, lengths of tuples, the written form of dates -- and
the first that fits converts the value; branches that share one converter
(``datetime``'s aware and local text) need no choosing. Constraints (minimum,
pattern, ...) are not checked: validation already did, and the branch only
decides the type.

Records told apart by a tag (``Cat | Dog`` where each has a required ``kind`` of
its own literal strings) are chosen by the tag alone, without their matchers,
where that is the chooser's answer: the other branches' matchers refuse the tag,
and the tagged branch's matcher refuses a validated value only where its
converter does (``Matchers.fidelity``), in which case the chooser decides. A
branch that holds such a union of records is chosen by its tag too: the union
inside fits where it converted by its own tag, and where it did not (it asked its
chooser) it counts that in ``_CHOSEN``, and the branch's converted value is set
aside for the chooser's answer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, NamedTuple

from ..introspect.model import (
    AliasDef,
    AnyNode,
    ArrayNode,
    BooleanNode,
    Definition,
    DictNode,
    EnumDef,
    IntegerNode,
    LiteralNode,
    Node,
    NullNode,
    NumberNode,
    ObjectDef,
    RefNode,
    StringNode,
    TupleNode,
    TypeKey,
    UnionNode,
)
from ._bounds import by_kind as checked_by_kind
from ._bounds import with_bounds
from ._compiler import NodeCompiler
from ._readers import PURE
from ._scalars import Converter, scalar_matcher, written_as

__all__ = ["Matchers", "compile_union", "json_kinds"]

Matcher = Callable[[Any], bool]

_NONE = type(None)
_ALL_KINDS: frozenset[type] = frozenset({_NONE, bool, int, float, str, list, dict})
_NUMBERS: frozenset[type] = frozenset({int, float})


def _value_kinds(values: tuple[Any, ...]) -> frozenset[type]:
    kinds = {type(value) for value in values}
    if kinds & _NUMBERS:
        kinds |= _NUMBERS  # JSON does not tell 1 from 1.0
    return frozenset(kinds)


def json_kinds(
    node: Node, compiler: NodeCompiler, _through: frozenset[TypeKey] = frozenset()
) -> frozenset[type]:
    """The Python types a JSON value of ``node`` can have after ``json.loads``."""
    if isinstance(node, RefNode):
        if node.key in _through:
            return frozenset()
        definition = compiler.definition(node.key)
        if isinstance(definition, EnumDef):
            return _value_kinds(definition.values)
        if isinstance(definition, AliasDef):
            return json_kinds(definition.type, compiler, _through | {node.key})
        return frozenset({dict})
    if isinstance(node, UnionNode):
        return frozenset().union(
            *(json_kinds(option, compiler, _through) for option in node.options)
        )
    if isinstance(node, LiteralNode):
        return _value_kinds(node.values)
    return _KINDS.get(type(node), _ALL_KINDS)


_KINDS: dict[type[Node], frozenset[type]] = {
    StringNode: frozenset({str}),
    IntegerNode: _NUMBERS,
    NumberNode: _NUMBERS,
    BooleanNode: frozenset({bool}),
    NullNode: frozenset({_NONE}),
    AnyNode: _ALL_KINDS,
    ArrayNode: frozenset({list}),
    TupleNode: frozenset({list}),
    DictNode: frozenset({dict}),
}


def compile_union(compiler: NodeCompiler, node: UnionNode) -> Converter | None:
    """The converter for a union: a lookup on the value's JSON kind, then matchers if needed."""
    converters = with_bounds(node, [compiler.compile(option) for option in node.options])
    if all(converter is None for converter in converters):
        return None
    branches_by_kind: dict[type, list[int]] = {}
    for index, option in enumerate(node.options):
        for kind in json_kinds(option, compiler):
            branches_by_kind.setdefault(kind, []).append(index)
    table: dict[type, Converter | None] = {}
    lone: tuple[type, Converter, list[Matcher]] | None = None  # the last ``_alike`` made
    for kind, indices in branches_by_kind.items():
        if kind is float:  # 3.0 for ``int | float`` stays a float: exact kinds first
            indices.sort(key=lambda index: isinstance(node.options[index], IntegerNode))
        candidates = [converters[index] for index in indices]
        if len(indices) == 1 or all(candidate is None for candidate in candidates):
            table[kind] = candidates[0]
        elif (first := candidates[0]) is not None and all(c is first for c in candidates):
            matchers = [compiler.matchers.of(node.options[i]) for i in indices]
            table[kind] = _alike(first, matchers)
            lone = (kind, first, matchers)
        else:
            # A branch like one before it (``datetime``'s two written forms beside ``date``)
            # would answer as that one did: tried once.
            pairs = ((compiler.matchers.of(node.options[i]), converters[i]) for i in indices)
            branches = list(dict.fromkeys(pairs))
            chooser = table[kind] = _chooser(branches)
            if kind is dict and (tags := _tags(compiler, node, indices, converters)):
                table[kind] = _tagged(tags, chooser)

    def by_kind(value: Any) -> Any:
        converter = table.get(type(value))
        return value if converter is None else converter(value)

    convert: Converter = checked_by_kind(table) or by_kind
    if lone is not None and sum(converter is not None for converter in table.values()) == 1:
        # ``datetime`` (aware or local text), ``datetime | None``: the kind's test and
        # ``_alike`` in one frame, every other kind kept as it is.
        kind, alike, matchers = lone
        convert = _alike(alike, matchers, kind)
    if all(converter is None or converter in PURE for converter in converters):
        PURE.add(convert)  # its branches' readers and the matchers: its value alone decides
    return convert


def _alike(converter: Converter, matchers: list[Matcher], kind: type | None = None) -> Converter:
    """Branches that all convert with one converter: ``_chooser``'s answer, with no branch
    tried first (a value no branch fits and the converter refuses stays as it is). With
    ``kind``, the union's whole converter: a value of any other kind stays as it is."""

    def convert(value: Any) -> Any:
        try:
            return converter(value)
        except Exception:
            if any(fits(value) for fits in matchers):
                raise
            return value

    if kind is None:
        return convert

    def of_kind(value: Any) -> Any:
        if type(value) is not kind:
            return value
        try:
            return converter(value)
        except Exception:
            if any(fits(value) for fits in matchers):
                raise
            return value

    return of_kind


def _chooser(branches: list[tuple[Matcher, Converter | None]]) -> Converter:
    fallbacks = [converter for _, converter in branches if converter is not None]

    def choose(value: Any) -> Any:
        first_error: Exception | None = None
        for fits, converter in branches:
            if fits(value):
                if converter is None:
                    return value
                try:
                    return converter(value)
                except Exception as error:  # the next branch that fits may take it
                    first_error = first_error or error
        if first_error is not None:
            raise first_error
        # No branch fits: the matchers are stricter than the schema somewhere.
        # Take the first branch that converts without complaint, else the value as is.
        for converter in fallbacks:
            try:
                return converter(value)
            except Exception:
                continue
        return value

    return choose


class _Tags(NamedTuple):
    """How a union's records are told apart by a tag (``_tags``)."""

    key: str
    by_tag: dict[str, Converter | None]
    """Each tag's branch converter; a tag left out goes to the chooser."""
    whole: bool
    """Every record's tags are in ``by_tag``."""
    checked: bool
    """A branch in ``by_tag`` holds a union of records told apart by a tag (``TAGGED``):
    its converted value stands only where no union inside asked its chooser."""


def _tags(
    compiler: NodeCompiler,
    node: UnionNode,
    indices: list[int],
    converters: list[Converter | None],
) -> _Tags | None:
    """The key that tells the records at ``indices`` apart, and the converter of each of its
    values, when every branch is a record with that key required and its own string values.

    A tag's branch is left out (and so goes to the chooser) where its matcher may refuse a
    validated value its converter takes, or where the branch has no converter to refuse.
    """
    records = []
    for index in indices:
        option = node.options[index]
        definition = compiler.definition(option.key) if isinstance(option, RefNode) else None
        if not isinstance(definition, ObjectDef):
            return None
        records.append((option, definition, converters[index]))
    for key in (field.name for field in records[0][1].fields if field.required):
        by_tag: dict[str, Converter | None] = {}
        taken: set[str] = set()
        whole, checked = True, False
        for option, definition, converter in records:
            values = _tag_values(compiler, definition, key)
            if values is None or taken & values:
                break
            taken |= values
            level = compiler.matchers.fidelity(option)
            if level == WHOLE or (level >= TAGGED and converter is not None):
                by_tag.update(dict.fromkeys(values, converter))
                checked = checked or level == TAGGED
            else:
                whole = False
        else:
            return _Tags(key, by_tag, whole, checked) if by_tag else None
    return None


def _tag_values(compiler: NodeCompiler, definition: ObjectDef, key: str) -> set[str] | None:
    """The strings a record's required field ``key`` takes, when it takes strings only."""
    for field in definition.fields:
        if field.name == key and field.required:
            kind = field.type
            if isinstance(kind, RefNode):
                enum = compiler.definition(kind.key)
                values: tuple[Any, ...] = enum.values if isinstance(enum, EnumDef) else ()
            else:
                values = kind.values if isinstance(kind, LiteralNode) else ()
            if values and all(type(value) is str for value in values):
                return set(values)
            return None
    return None


class _Chosen(threading.local):
    """How many values this thread's tagged unions left to their chooser (``_tagged``)."""

    count = 0


_CHOSEN = _Chosen()


def _tagged(tags: _Tags, choose: Converter) -> Converter:
    """The chooser's answer for records told apart by ``tags.key``: the tag's branch
    converts; a value it refuses, or whose tag has no entry, goes to ``choose``, and is
    counted in ``_CHOSEN``. Where ``tags.checked``, a value whose conversion counted a
    choice inside goes to ``choose`` too: its branch's matcher may not fit it."""
    key, by_tag, checked, notes = tags.key, tags.by_tag, tags.checked, _CHOSEN

    def chosen(value: Any) -> Any:
        notes.count += 1
        return choose(value)

    def convert(value: Any) -> Any:
        try:
            converter = by_tag[value[key]]
        except (KeyError, TypeError):  # no tag, another tag, or an unhashable one
            return chosen(value)
        if converter is None:
            return value
        before = notes.count if checked else 0
        try:
            made = converter(value)
        except Exception:
            return chosen(value)
        if checked and notes.count != before:
            return chosen(value)
        return made

    return convert


def _literal_matcher(values: tuple[Any, ...]) -> Matcher:
    keys = {(type(value) is bool, value) for value in values}

    def fits(value: Any) -> bool:
        try:
            return (type(value) is bool, value) in keys
        except TypeError:  # an unhashable value is no literal
            return False

    return fits


def _is_integer(value: Any) -> bool:
    return type(value) is int or (type(value) is float and value.is_integer())


def _is_number(value: Any) -> bool:
    return type(value) is int or type(value) is float


LOOSE, TAGGED, CONVERTS, WHOLE = 0, 1, 2, 3
"""``Matchers.fidelity``: what a node's matcher says of a value validated against it."""

# The formats whose check accepts only texts their row's ``looks_like`` takes (RFC 3339's
# date-times, dates and times, with or without an offset); a duration's check takes some
# the reader refuses too (``P1Y``), which ``looks_like_duration`` is that reading of.
_LOOKS_LIKE_ALL = frozenset({"date-time", "date-time-local", "date", "time", "time-local"})
_LOOKS_LIKE_READ = frozenset({"duration"})

_BASE_MATCHERS: dict[type[Node], Matcher] = {
    StringNode: lambda value: type(value) is str,
    IntegerNode: _is_integer,
    NumberNode: _is_number,
    BooleanNode: lambda value: type(value) is bool,
    NullNode: lambda value: value is None,
    AnyNode: lambda value: True,
}


class Matchers:
    """Structural matchers for the nodes of one graph; named types compiled once."""

    def __init__(self, compiler: NodeCompiler) -> None:
        self._compiler = compiler
        self._definitions: dict[TypeKey, Matcher] = {}
        self._fidelity: dict[TypeKey, int] = {}
        self._written: dict[Callable[[str], bool], Matcher] = {}

    def fidelity(self, node: Node) -> int:
        """What ``of(node)`` says of a value validated against ``node``: ``WHOLE``, that it
        fits; ``CONVERTS``, that it fits unless ``node``'s converter refuses the value (a
        matcher that tries the converter, in records and containers); ``TAGGED``, that it
        fits unless the converter refuses it or a union of records inside, told apart by a
        tag, left the value to its chooser while converting it (``_CHOSEN`` counts it);
        ``LOOSE``, nothing."""
        if isinstance(node, RefNode):
            return self._ref_fidelity(node.key)
        if isinstance(node, UnionNode):
            return self._union_fidelity(node)
        if isinstance(node, LiteralNode):
            return WHOLE
        if isinstance(node, TupleNode):
            return min((self.fidelity(item) for item in node.items), default=WHOLE)
        if isinstance(node, ArrayNode):
            return self.fidelity(node.item)
        if isinstance(node, DictNode):
            return self.fidelity(node.value)
        if self._compiler.compile(node) is None:
            return WHOLE  # the JSON type alone, which validation checked
        if written_as(node.python_type) is None:
            return CONVERTS  # the matcher is whether the converter takes the value
        fmt = node.format if isinstance(node, StringNode) else None
        if fmt in _LOOKS_LIKE_ALL:
            return WHOLE
        return CONVERTS if fmt in _LOOKS_LIKE_READ else LOOSE

    def _union_fidelity(self, node: UnionNode) -> int:
        levels = [self.fidelity(option) for option in node.options]
        kinds = [json_kinds(option, self._compiler) for option in node.options]
        if sum(map(len, kinds)) == len(frozenset().union(*kinds)):
            # One branch a JSON kind (``X | None``, a decimal's text or number): the union
            # converts a value by its kind's branch alone, which refuses what it refuses.
            return min(levels)
        if min(levels) == WHOLE:
            return WHOLE
        records = [index for index, found in enumerate(kinds) if dict in found]
        others = [level for level, found in zip(levels, kinds, strict=True) if dict not in found]
        if sum(map(len, kinds)) - len(frozenset().union(*kinds)) == len(records) - 1:
            # Records beside one branch of each other kind: told apart by a tag, the union
            # fits what it converts by the tag, and counts what it leaves to its chooser.
            converters = [self._compiler.compile(option) for option in node.options]
            tags = _tags(self._compiler, node, records, converters)
            if tags is not None and tags.whole:
                return min([TAGGED, *others])
        return LOOSE  # it may choose another way

    def _ref_fidelity(self, key: TypeKey) -> int:
        if key in self._fidelity:
            return self._fidelity[key]
        level = WHOLE
        while True:  # a recursive use reads the level assumed; lowered until it holds
            self._fidelity[key] = level
            before = set(self._fidelity)
            found = self._definition_fidelity(self._compiler.definition(key))
            if found == level:
                return level
            for decided in set(self._fidelity) - before:  # under the higher assumption
                del self._fidelity[decided]
            level = found

    def _definition_fidelity(self, definition: Definition) -> int:
        if isinstance(definition, EnumDef):
            return WHOLE
        if isinstance(definition, AliasDef):
            return self.fidelity(definition.type)
        level = min((self.fidelity(field.type) for field in definition.fields), default=WHOLE)
        if definition.additional is not None:
            extra = self.fidelity(definition.additional)
            if LOOSE < extra < WHOLE and definition.kind not in ("typeddict", "pydantic"):
                extra = LOOSE  # extra keys its converter does not convert
            level = min(level, extra)
        return level

    def of(self, node: Node) -> Matcher:
        """Whether a JSON value has the shape of ``node`` (kinds, keys, lengths, literals)."""
        if isinstance(node, RefNode):
            return self._ref(node.key)
        if isinstance(node, UnionNode):
            options = list(dict.fromkeys(self.of(option) for option in node.options))
            return lambda value: any(fits(value) for fits in options)
        if isinstance(node, LiteralNode):
            return _literal_matcher(node.values)
        if isinstance(node, (ArrayNode, TupleNode, DictNode)):
            return self._container(node)
        base = _BASE_MATCHERS.get(type(node), _BASE_MATCHERS[AnyNode])
        converter = self._compiler.compile(node)
        if converter is None:
            return base
        looks_like = written_as(node.python_type) if type(node) is StringNode else None
        if looks_like is not None:  # ``base`` and ``scalar_matcher``'s test in one frame
            matcher = self._written.get(looks_like)
            if matcher is None:  # one a type: a union tries it once
                matcher = self._written[looks_like] = lambda value: (
                    type(value) is str and looks_like(value)
                )
            return matcher
        fits = scalar_matcher(node.python_type, converter)
        return lambda value: base(value) and fits(value)

    def _container(self, node: ArrayNode | TupleNode | DictNode) -> Matcher:
        if isinstance(node, TupleNode):
            positions = [self.of(item) for item in node.items]
            size = len(positions)
            return lambda value: (
                type(value) is list
                and len(value) == size
                and all(fits(item) for fits, item in zip(positions, value, strict=True))
            )
        if isinstance(node, DictNode):
            fits_value = self.of(node.value)
            return lambda value: type(value) is dict and all(map(fits_value, value.values()))
        fits_item = self.of(node.item)
        low, high = node.min_items or 0, node.max_items
        return lambda value: (
            type(value) is list
            and low <= len(value)
            and (high is None or len(value) <= high)
            and all(map(fits_item, value))
        )

    def _ref(self, key: TypeKey) -> Matcher:
        if key in self._definitions:
            return self._definitions[key]
        cell: list[Matcher] = []
        self._definitions[key] = lambda value: cell[0](value)
        definition = self._compiler.definition(key)
        if isinstance(definition, EnumDef):
            matcher = _literal_matcher(definition.values)
        elif isinstance(definition, AliasDef):
            matcher = self.of(definition.type)
        else:
            matcher = self._object(definition)
        cell.append(matcher)
        self._definitions[key] = matcher
        return matcher

    def _object(self, definition: ObjectDef) -> Matcher:
        compiler = self._compiler
        fields = {
            field.name: (self.of(field.type), compiler.drops_null(field))
            for field in definition.fields
        }
        required = frozenset(field.name for field in definition.fields if field.required)
        extra = None if definition.additional is None else self.of(definition.additional)

        def fits(value: Any) -> bool:
            if type(value) is not dict or not required.issubset(value):
                return False
            for key, item in value.items():
                entry = fields.get(key)
                if entry is None:
                    if extra is None or not extra(item):
                        return False
                elif not (entry[0](item) or (item is None and entry[1])):
                    return False
            return True

        return fits
