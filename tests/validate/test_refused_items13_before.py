"""Issue 33's thirteenth round (a container walked from its refused item): issues that stay
what they were at 1ecdea5.

A ranked checker's loop over the items of a property's own list, tuple or dict that refuses
one names it in ``_runtime.NAMED`` beside its refusal (``refusal_looped``), and the walk of
that property starts its loop at that item (found in C: the first item that is or equals
it, never one after it) instead of judging each from the first again. Compared with 1ecdea5
in two processes, its ``src`` and this tree's, on every corpus signature's texts, their
containers given wrong items at the start, the middle, the end and in several places, items
equal but not identical to their neighbours (``1``, ``True``, ``1.0``), duplicates beside a
wrong item, dicts with keys that are not strings, tuples and sets in place of lists; and on
schemas of the shapes the walk now answers from the refused item (unique items, bounds,
prefix items, ``contains``, date items judged at once, patterns under a budget, searches
made to give up, nested containers, records as items, a union of records holding the same
list). In one process, the walk from the refused item gives what the walk from the first
gives for values Python alone makes (subclasses, an ``__eq__`` that raises or always answers
yes, a container judged after it was changed).
"""

from __future__ import annotations

import json
import pickle
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmarks import corpus
from tests.support import before
from tests.support.budget import scaled, spread
from tests.support.corpora import values
from tests.support.refusals import every_text
from tests.validate.test_refused_inside_budgeted_before import ROOT, _judge

from llmapp import application
from llmapp.validate import _runtime, validator
from llmapp.validate._runtime import Refusal

ROUND_START = "1ecdea5"
"""The commit before a checker's loop named the item it refused."""

_WRONG: list[Any] = [{"wrong": True}, "not a number", -14, 2.5, True, None, [1], "2024-02-30"]
"""What is put in place of an item."""


def _containers(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every list and dict of a value, by its place."""
    if not isinstance(value, (list, dict)):
        return
    yield at, value
    for key, item in value.items() if isinstance(value, dict) else enumerate(value):
        yield from _containers(item, (*at, key))


def _set(value: Any, at: tuple[Any, ...], new: Any) -> Any:
    """``value`` with ``new`` at ``at`` (copied along the way, the rest shared)."""
    if not at:
        return new
    copy = list(value) if isinstance(value, list) else dict(value)
    copy[at[0]] = _set(value[at[0]], at[1:], new)
    return copy


def _item_variants(container: Any, rnd: random.Random) -> Iterator[Any]:
    """``container`` with wrong items in the places a refused item may be."""
    if isinstance(container, dict):
        keys = list(container)
        for chosen in _places(len(keys), rnd):
            yield {
                k: rnd.choice(_WRONG) if i in chosen else v
                for i, (k, v) in enumerate(container.items())
            }
        middle = len(keys) // 2
        pairs = list(container.items())
        yield dict([*pairs[:middle], (7, 1), *pairs[middle:]])  # a key that is not a string
        yield dict([*pairs[:middle], (None, {"wrong": True}), *pairs[middle:], (2.5, 1)])
        return
    count = len(container)
    for chosen in _places(count, rnd):
        wrong = rnd.choice(_WRONG)
        yield [wrong if i in chosen else item for i, item in enumerate(container)]
    if count:
        middle = count // 2
        twin = values._twin(container[middle])
        # equal, not identical, beside a wrong one; a duplicate of it after a wrong item
        yield [*container[:middle], twin, {"wrong": True}, *container[middle:]]
        yield [*container[:middle], True, 1, 1.0, *container[middle:]]
        yield [*container[:middle], {"wrong": True}, *container[middle:], container[middle]]
        yield (*container[:middle], "wrong", *container[middle:])
        yield [*container, *container]


def _places(count: int, rnd: random.Random) -> list[set[int]]:
    """Sets of positions among ``count``: the first, the middle, the last, several."""
    if not count:
        return []
    chosen = [{0}, {count // 2}, {count - 1}, {count // 3, count // 2, count - 1}]
    chosen.append(set(rnd.sample(range(count), min(count, 3))))
    return chosen


def _variants(data: Any, rnd: random.Random) -> list[Any]:
    """``data`` with each of its containers given wrong items, or made a set or a tuple."""
    made = []
    for at, container in _containers(data):
        for changed in _item_variants(container, rnd):
            made.append(_set(data, at, changed))
        if isinstance(container, list) and at:
            made.append(_set(data, at, tuple(container)))
            made.append(_set(data, at, frozenset(_hashable(container))))
    return made


def _hashable(items: list[Any]) -> list[Any]:
    """The numbers among ``items``: a set of them prints alike in every process (not a
    set of texts, whose order follows each process's hash seed)."""
    return [item for item in items if isinstance(item, (int, float))]


def _corpus_entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    built = corpus.generate()
    app = application(built.tools)
    texts: dict[str, list[Any]] = {}
    for name, _label, text in every_text(built):
        texts.setdefault(name, []).append(json.loads(text))
    found = []
    for case in spread(built.cases, scaled(2, 1)):
        made: list[Any] = []
        for data in texts[case.name]:
            made.append(data)
            made.extend(values.mutations(data, rnd, 2))
        for label in ("valid", "1 mistake", "3 mistakes"):
            made.extend(_variants(json.loads(case.texts[label]), rnd))
        found.append((f"corpus:{case.name}", app.require(case.name).parameters, made))
    return found


_RECORD = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["id"],
    "additionalProperties": False,
}

_SCHEMAS: list[Any] = [
    {
        "type": "object",
        "properties": {
            "ints": {"type": "array", "items": {"type": "integer", "minimum": 1}},
            "unique": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
            "bounded": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 4},
            "pair": {
                "type": "array",
                "prefixItems": [{"type": "string"}, {"type": "integer"}],
                "items": {"type": "boolean"},
            },
            "has": {"type": "array", "items": {"type": "integer"}, "contains": {"const": 3}},
            "dates": {"type": "array", "items": {"type": "string", "format": "date"}},
            "nested": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
            "maybe": {"type": "array", "items": {"type": "number"}, "nullable": True},
            "map": {"type": "object", "additionalProperties": {"type": "number", "maximum": 9}},
            "fives": {"type": "array", "items": {"type": "integer", "multipleOf": 5}},
            "mails": {
                "type": "object",
                "additionalProperties": {"type": "string", "format": "email"},
            },
        },
        "required": ["ints", "map"],
        "additionalProperties": False,
    },
    {
        "type": "object",
        "properties": {
            "records": {"type": "array", "items": {"$ref": "#/$defs/R"}},
            "inline": {"type": "array", "items": {"$ref": "#/$defs/S"}},
            "by": {"type": "object", "additionalProperties": {"$ref": "#/$defs/R"}},
            "lists": {
                "type": "array",
                "items": {"type": "object", "additionalProperties": {"$ref": "#/$defs/R"}},
            },
            "named": {
                "type": "object",
                "properties": {"a": {"type": "integer"}},
                "patternProperties": {"^x": {"type": "string"}},
                "propertyNames": {"maxLength": 3},
            },
        },
        "required": ["records"],
        "$defs": {
            "R": _RECORD,
            "S": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
        },
    },
    {
        "type": "object",
        "properties": {
            "words": {"type": "array", "items": {"type": "string", "pattern": "^(a+)\\1$"}},
            "keys": {
                "type": "object",
                "additionalProperties": {"type": "string", "pattern": "^(b+)\\1$"},
            },
            "after": {"type": "array", "items": {"type": "integer"}},
        },
        "required": ["words"],
    },
    {
        "type": "object",
        "properties": {
            "either": {"anyOf": [{"$ref": "#/$defs/Ints"}, {"$ref": "#/$defs/Texts"}]},
            "record": {"$ref": "#/$defs/Ints"},
            "or": {"anyOf": [{"$ref": "#/$defs/Texts"}, {"type": "null"}]},
        },
        "required": ["either"],
        "$defs": {
            "Ints": {
                "type": "object",
                "properties": {
                    "values": {"type": "array", "items": {"$ref": "#/$defs/N"}},
                    "map": {"type": "object", "additionalProperties": {"$ref": "#/$defs/N"}},
                },
                "required": ["values"],
            },
            "Texts": {
                "type": "object",
                "properties": {
                    "values": {"type": "array", "items": {"$ref": "#/$defs/T"}},
                    "map": {"type": "object", "additionalProperties": {"$ref": "#/$defs/T"}},
                },
                "required": ["values"],
            },
            "N": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
            "T": {"type": "object", "properties": {"n": {"type": "string", "maxLength": 2}}},
        },
    },
]

_ITEMS: list[Any] = [0, 1, 2, 3, 3, True, 1.0, 2.5, -1, None, "a", "aa", "aaaa", "bb", "2024-01-31"]


def _targeted_entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    found = []
    for index, schema in enumerate(_SCHEMAS):
        made: list[Any] = [[], {}, None]
        for _ in range(scaled(60, 240)):
            value = values.guided(schema, rnd)
            made.append(value)
            made.extend(_variants(value, rnd))
            if isinstance(value, dict) and value:
                key = rnd.choice(list(value))
                items = [rnd.choice(_ITEMS + _WRONG) for _ in range(rnd.randint(0, 9))]
                made.append({**value, key: items})
                made.append({**value, key: {f"k{i}": item for i, item in enumerate(items)}})
        found.append((f"targeted:{index}", schema, made))
    return found


@pytest.mark.budgeted
@pytest.mark.parametrize("mode", ["as they run", "give-up"])
def test_issues_are_1ecdea5s_on_corpus_and_targeted_values(mode: str) -> None:
    before.require(ROUND_START)
    rnd = random.Random(1313)
    entries = _targeted_entries(rnd)
    if mode == "as they run":
        entries += _corpus_entries(rnd)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        before.extract(ROUND_START, work)
        source = work / "entries.pickle"
        with source.open("wb") as file:
            pickle.dump(entries, file)
        old = _judge(work / "src", source, work / "old.pickle", mode)
        new = _judge(ROOT / "src", source, work / "new.pickle", mode)
    assert before.same_outcomes(old, new) > 1000


class _Listed(list[Any]):
    """A list whose iteration yields other items than its own (read by the check and by
    the walk alike, never searched)."""

    def __iter__(self) -> Iterator[Any]:
        return iter([*super().__iter__(), "tail"])


class _Mapped(dict[Any, Any]):
    def items(self) -> Any:
        return reversed(list(super().items()))


class _Equal:
    """An item equal to everything, or raising when compared."""

    def __init__(self, raises: bool) -> None:
        self.raises = raises

    def __eq__(self, other: object) -> bool:
        if self.raises:
            raise RuntimeError("no comparing")
        return True

    __hash__ = object.__hash__


def _python_values() -> list[Any]:
    record = {"id": 1}
    wrong = {"wrong": True}
    good = {"ints": [1], "map": {}}
    return [
        {**good, "fives": _Listed([5, 10, "x", 3])},
        {**good, "mails": _Mapped({"a": "a@b.io", "b": "x", "c": 99})},
        {**good, "fives": [5, _Equal(False), 10, "x", "y"]},
        {**good, "fives": [5, _Equal(True), 10, "x", _Equal(True)]},
        {**good, "mails": {"a": "a@b.io", _Equal(True): 2, "c": "x"}},
        {**good, "mails": {"a": "a@b.io", _Equal(False): "x", "c": "x"}},
        {**good, "nested": [[1], _Listed([2, "x"]), [3, "y"]]},
        {**good, "nested": [[1], _Equal(True), [3, "y"], _Equal(False)]},
        {**good, "nested": ([1], [2, "x"], [2, "x"], [3])},
        {"records": [record, _Mapped({"id": "x"}), wrong, {"id": 2}]},
        {"records": [record, _Mapped({"id": 1}), {"id": 2}, wrong], "by": _Mapped({"a": wrong})},
        {"records": [record, record, wrong, wrong, {"id": 1.0}, {"id": True}]},
        {"records": [], "lists": [{"a": record}, _Mapped({"b": wrong}), {"c": record}]},
    ]


def test_the_walk_from_the_refused_item_finds_what_the_whole_walk_finds() -> None:
    for schema in _SCHEMAS:
        check = validator(schema)
        for value in _python_values():
            refused = check.valid(value)
            if refused:
                continue
            whole = check.refusal(value, False).errors  # walked from every first item
            assert check(value).errors == whole, value


def _named(check: Any, value: Any) -> tuple[Any, Any]:
    """The refusal of ``value`` and what it named in ``_runtime.NAMED`` (None: nothing)."""
    _runtime.NAMED[0] = None
    refused = check.valid(value)
    named = _runtime.NAMED[0]
    return refused, None if named is None else named[2]


def test_the_refusal_names_the_refused_item_or_key() -> None:
    check = validator(_SCHEMAS[0])
    good = {"ints": [1], "map": {}}
    inner = [1, "x"]
    refused, named = _named(check, {**good, "nested": [[1], inner, [2, "y"]]})
    assert type(refused) is Refusal and refused.place == 13 and named is inner
    assert refused is _runtime.refusal_looped(6) and refused is not _runtime.refusal_in(6)
    records = validator(_SCHEMAS[1])
    wrong = {"wrong": True}
    refused, named = _named(records, {"records": [{"id": 1}], "by": {"a": {"id": 1}, "b": wrong}})
    assert refused is _runtime.refusal_looped(2) and named == "b"
    # the first item or key refused: none named (the walk starts there anyway), no call
    refused, named = _named(records, {"records": [{"id": 1}], "by": {"b": wrong, "a": {"id": 1}}})
    assert refused is _runtime.refusal_in(2) and named is None
    refused, named = _named(check, {**good, "nested": [inner, [2]]})
    assert refused is _runtime.refusal_in(6) and named is None
    # refused for its length, for a duplicate, for a prefix item, or a leaf item (its walk
    # costs less than the name's search): no item named
    for value in (
        {**good, "bounded": ["a"]},
        {**good, "unique": [1, 2, 1]},
        {**good, "pair": [1, 1]},
        {**good, "fives": [5, 10, 3]},
        {**good, "mails": {"a": "a@b.io", "b": "no"}},
        {"ints": [1, 0], "map": {}},
        {"ints": [1], "map": {"a": 1, "b": 10}},
    ):
        refused, named = _named(check, value)
        assert named is None and refused is _runtime.refusal_in(refused.at), value
    assert [issue.path for issue in check({**good, "nested": [[1], [0, 1.5], [True]]}).errors] == [
        "$input.nested[1][1]",
        "$input.nested[2][0]",
    ]


def test_a_record_copied_from_a_dict_subclass_names_no_copy() -> None:
    records = validator(_SCHEMAS[1])
    items = [{"id": 1}, {"id": "x"}, _Mapped({"id": "x"})]
    value = {"records": items[::2]}
    refused, named = _named(records, value)
    # the copy the check judged is named: nowhere in the list, so every item is walked
    assert refused.at == 0 and named == items[1] and all(item is not named for item in items)
    assert [issue.path for issue in records(value).errors] == ["$input.records[1].id"]
    refused, named = _named(records, {"records": [{"id": 1}, 5, None]})
    assert named is None  # a refused non-dict item rebinds the loop's name: none named
    assert [issue.path for issue in records({"records": [{"id": 1}, 5, None]}).errors] == [
        "$input.records[1]",
        "$input.records[2]",
    ]


def test_a_container_changed_since_its_refusal_is_walked_whole() -> None:
    check = validator(_SCHEMAS[0])
    nested: list[Any] = [[1], [2], ["x"], [3]]
    good = {"ints": [1], "map": {}, "nested": nested}
    refused, named = _named(check, good)
    assert refused is _runtime.refusal_looped(6) and named is nested[2]
    nested[0] = ["y"]  # refused at its first item now: the plain refusal, the entry left
    assert [issue.path for issue in check(good).errors] == [
        "$input.nested[0][0]",
        "$input.nested[2][0]",
    ]
    unique = {**good, "nested": [[1], [1]], "unique": [1, 2, 2]}
    refused, named = _named(check, {**good, "nested": [*unique["nested"][:1], ["z"]]})
    assert refused is _runtime.refusal_looped(6)
    # refused for another property after an entry named this list: its items all walked
    assert [issue.path for issue in check({**unique, "ints": [0]}).errors] == [
        "$input.ints[0]",
        "$input.unique",
    ]


def test_branches_holding_one_list_name_their_own_items() -> None:
    check = validator(_SCHEMAS[3])
    # Ints refuses the second record first, Texts the third: each branch's walk from its own
    shared = [{"n": "a"}, {"n": "b"}, {"n": "bbb"}, {"n": 1}, {}]
    shared.insert(0, {"n": 2})
    value = {"either": {"values": shared}, "record": {"values": shared}}
    assert check(value).errors == check.refusal(value, False).errors
    mapped = {"either": {"values": [], "map": {"a": {"n": 1}, "b": {"n": "ccc"}, "c": {}}}}
    assert check(mapped).errors == check.refusal(mapped, False).errors


def test_a_search_that_may_give_up_names_no_item() -> None:
    check = validator(_SCHEMAS[2])
    refused = check.valid({"words": ["aa", "aaa", "a"]})
    # refused outside the property: the walk reads no item the loop named
    assert type(refused) is Refusal and refused.inside == -1
    assert [issue.path for issue in check({"words": ["aa", "aaa", "a"]}).errors] == [
        "$input.words[1]",
        "$input.words[2]",
    ]
