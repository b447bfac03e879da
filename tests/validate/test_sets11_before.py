"""``uniqueItems`` (sets, frozensets) against ``ea07c65`` (issue 33, eleventh round).

``unique`` now answers at once where the items that are not plain (a record, a list, a
bool) are each alone of their kind and the plain ones distinct: items of two JSON kinds
are never equal, so nothing is frozen; and it compares two or three plain items in
pairs, without a set. Its answers must be ``ea07c65``'s:

- ``unique`` itself, against ``ea07c65``'s module read from git, over hypothesis lists of
  JSON values (nested, bools beside numbers, ``1`` and ``1.0``, ``-0.0``, NaN, huge
  integers), items nested past the equality depth, items of subclasses (unhashable ones
  too) and of no JSON kind, and lists where one item repeats (the same NaN twice);
- the issues of every corpus signature with a set, on its three payloads and values made
  from the valid one (each member wrong, a record among a set's strings, a duplicate),
  judged by ``ea07c65``'s whole ``src`` in a process of its own.
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.corpora import values as guided_values
from tests.validate.test_resume10_before import _corpus, _made, _schema, judged_alike

from llmapp._limits import MAX_EQUALITY_DEPTH
from llmapp.validate import _runtime

BEFORE = "ea07c65"
"""The commit before this round's changes."""

SETS = [
    "tool_016",
    "tool_033",
    "tool_066",
    "tool_163",
    "tool_168",
    "tool_180",
    "tool_192",
    "tool_220",
    "tool_255",
]
"""The corpus signatures with a set or a frozenset (``uniqueItems``)."""


@pytest.fixture(scope="module")
def old_runtime() -> types.ModuleType:
    before.require(BEFORE)
    return before.load(BEFORE, "llmapp/validate/_runtime.py")


class _Text(str):
    """A string whose hash a set cannot take."""

    __hash__ = None  # type: ignore[assignment]


class _Number(int):
    """An integer of a subclass: a number to JSON, not a plain item to ``unique``."""


class _List(list[Any]):
    """A list of a subclass: an array to JSON, of no exact type ``unique`` knows."""


class _Other:
    """A value of no JSON kind: equal only to itself."""


NAN = float("nan")
_DEEP: list[Any] = ["x"]
for _level in range(MAX_EQUALITY_DEPTH + 3):
    _DEEP = [_DEEP]

_ODD = st.sampled_from(
    [
        NAN,
        -0.0,
        0.0,
        1,
        1.0,
        True,
        False,
        2**70,
        float(2**70),
        _Text("a"),
        _Number(1),
        _List([1]),
        _Other(),
        _DEEP,
        [_DEEP],
        {"k": _DEEP},
        ("a",),
        (1, True),
        [1, True],
    ]
)
_ITEMS = st.one_of(guided_values.json_values(), _ODD)


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_ITEMS, max_size=7), st.data())
def test_unique_answers_as_before(
    old_runtime: types.ModuleType, items: list[Any], data: st.DataObject
) -> None:
    if items and data.draw(st.booleans()):  # an item twice: the same object, or a copy
        again = data.draw(st.sampled_from(items))
        copied = _copy(again) if data.draw(st.booleans()) else again
        items.insert(data.draw(st.integers(0, len(items))), copied)
    assert _runtime.unique(items) == old_runtime.unique(items)
    assert _runtime.unique(tuple(items)) == old_runtime.unique(tuple(items))


def _copy(value: Any) -> Any:
    """A JSON value's equal copy (other objects as they are)."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError, RecursionError):
        return value


_CASES: list[list[Any]] = [
    ["charlie bravo", {"wrong": True}, "juliet quebec"],
    [{"wrong": True}, "papa papa"],
    [NAN, NAN, {"wrong": True}],
    [NAN, NAN, _Other()],
    [NAN, {"a": _Other()}, "x"],
    [NAN, NAN, [_Other()]],
    [1, 1.0, {"a": 1}],
    [1, True, [1]],
    [True, 1, False, 0],
    [True, {"a": 1}, [1], "1", 1, None],
    [True, True, "a"],
    [{"a": 1}, {"a": 1.0}, "b"],
    [[1], (1.0,), "b"],
    [_Text("a"), {"a": 1}],
    [_Text("a"), _Text("a")],
    ["a", _Number(1), {"a": 1}],
    [_List([1]), [1], "x"],
    [-0.0, 0.0, {"b": 2}],
    [2**70, float(2**70), [2]],
    [_DEEP, _DEEP, "x"],
    [_DEEP, "x", {}],
    [{}, [], "", 0, None, False],
    [NAN, NAN],
    [NAN, float("nan")],
    [NAN, "a", NAN],
    ["a", NAN, float("nan")],
    [1, 1.0],
    [-0.0, 0.0, "x"],
    [2**70, float(2**70)],
    [2**70, 2**70 + 1, float(2**70)],
    [True, 1],
    [1, "1", True],
    [None, None],
    ["a", None, "a"],
    [_Text("a"), "a"],
    ["b", _Text("a"), "a"],
    [_Number(1), 1, "x"],
    [("a",), ("a",)],
]
"""The shapes the new answers and the old paths meet on: a NaN beside a record or an
unfreezable value, JSON-equal numbers beside a record, bools beside numbers, subclasses,
nesting past the equality depth; two and three items (compared in pairs), the same NaN
twice or two NaNs among them."""


@pytest.mark.parametrize("items", _CASES, ids=range(len(_CASES)))
def test_unique_answers_as_before_on_chosen_lists(
    old_runtime: types.ModuleType, items: list[Any]
) -> None:
    for index in range(len(items)):
        turned = items[index:] + items[:index]
        assert _runtime.unique(turned) == old_runtime.unique(turned)
        assert _runtime.unique(tuple(turned)) == old_runtime.unique(tuple(turned))
        assert _runtime.unique_plain(turned) == old_runtime.unique_plain(turned)


_EXTRAS: tuple[Any, ...] = ({"wrong": True}, [1], True, 1, 1.0, None)
"""What a set is given beside its items: a record, a list, a bool, numbers, a null."""


def _lists_changed(items: list[Any]) -> Iterator[list[Any]]:
    """``items`` with an item more (each extra, and its first item again)."""
    for extra in (*_EXTRAS, *items[:1]):
        yield [*items, extra]
        yield [extra, *items]


def _set_variants(value: Any) -> Iterator[Any]:
    """``value`` with each list of its top level, and the first lists inside one, changed."""
    if not isinstance(value, dict):
        return
    for key, member in value.items():
        if not isinstance(member, list):
            continue
        for changed in _lists_changed(member):
            yield {**value, key: changed}
        for index, item in enumerate(member[:3]):
            if isinstance(item, list):
                for changed in _lists_changed(item):
                    yield {**value, key: [*member[:index], changed, *member[index + 1 :]]}


@cache
def _entries() -> list[tuple[str, Any, list[Any]]]:
    entries = []
    for case in _corpus().cases:
        if case.name not in SETS:
            continue
        texts = [json.loads(case.texts[label]) for label in ("valid", "1 mistake", "3 mistakes")]
        made = texts + _made(texts[0]) + [v for text in texts for v in _set_variants(text)]
        entries.append((case.name, _schema(case.name), made))
    return entries


def test_set_signatures_issues_are_ea07c65s() -> None:
    before.require(BEFORE)
    entries = _entries()
    assert sorted(name for name, _, _ in entries) == SETS
    old = judged_alike(BEFORE, entries)
    refused = sum(1 for name, _, _ in entries for was in old[name] if not was[0])
    assert refused > 500
