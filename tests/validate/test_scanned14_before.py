"""Issue 33's fourteenth round (the walk of an array of plain items): issues that stay what
they were at 8a6790b.

A walker reaching an array whose items are judged by one test each (no structure) runs
that test alone first, in a loop without an index, and walks the items one by one only
from the first it refuses on (``_runtime.items_from``: from the first item equal to it,
those before having passed). Compared with 8a6790b in two processes, its ``src`` and this
tree's, on every corpus signature's texts with their mutations, and on arrays of plain
items (nested, with prefix items, in unions, as dict values) holding wrong items first,
last, twice, equal to a valid one (``True`` after ``1``, ``1.0`` after ``1``, the same text
twice) and of every JSON type.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.support import before
from tests.support.corpora import values
from tests.validate.test_records12_before import _corpus_entries
from tests.validate.test_refused_inside_budgeted_before import judged_before_and_now

from llmapp.validate import validator
from llmapp.validate._runtime import items_from

ROUND_START = "8a6790b"
"""The commit before this round's change to the walk of arrays of plain items."""

_ITEMS: list[Any] = [
    {"type": "integer", "minimum": 0},
    {"type": "string", "maxLength": 3},
    {"enum": ["a", "b", 1, True]},
    {"type": "number", "multipleOf": 0.5},
    {"type": "string", "format": "date"},
    {"type": ["string", "null"], "pattern": "^x"},
    {"const": 1},
]

_SCHEMAS: list[Any] = [
    *({"type": "array", "items": item, "maxItems": 6} for item in _ITEMS),
    *(
        {
            "type": "object",
            "properties": {
                "lists": {"type": "array", "items": {"type": "array", "items": item}},
                "pair": {"type": "array", "prefixItems": [{"type": "string"}], "items": item},
                "either": {"anyOf": [{"type": "array", "items": item}, {"type": "null"}]},
                "map": {"type": "object", "additionalProperties": {"type": "array", "items": item}},
                "n": {"type": "integer"},
            },
            "additionalProperties": False,
        }
        for item in _ITEMS
    ),
]

_PLAIN = [0, 1, 2, True, False, 1.0, 0.5, -1, "a", "b", "x", "xyzw", "2024-01-31", None, [], {}]


def _lists(rnd: random.Random) -> list[list[Any]]:
    made = [[], [1, True], [True, 1], [1, 1.0, True], ["a", "a", "zzzz"], [1, [], 1], [None] * 3]
    for _ in range(60):
        made.append([rnd.choice(_PLAIN) for _ in range(rnd.randrange(0, 9))])
    return made


def _entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    found = []
    for index, schema in enumerate(_SCHEMAS):
        made: list[Any] = []
        for items in _lists(rnd):
            made.append(items)
            made.append({"lists": [items, [], items[::-1]], "n": rnd.choice([1, "x"])})
            made.append({"pair": ["p", *items], "either": items, "map": {"k": items, "j": []}})
            made.append({"pair": [1, *items], "either": items or None})
        for _ in range(40):
            value = values.guided(schema, rnd)
            made.append(value)
            made.extend(values.mutations(value, rnd, 2))
        found.append((f"plain:{index}", schema, made))
    return found + _corpus_entries(rnd)


@pytest.mark.budgeted
def test_issues_are_8a6790bs() -> None:
    before.require(ROUND_START)
    entries = _entries(random.Random(3314))
    old, new = judged_before_and_now(ROUND_START, entries)
    assert before.same_outcomes(old, new) > 5000


class _Items(list):  # type: ignore[type-arg]
    """A list whose ``index`` answers otherwise than a list's."""

    def index(self, *args: Any) -> int:
        return len(self)


def test_items_from_starts_at_the_first_equal_item_of_a_plain_list() -> None:
    assert list(items_from([1, 2, True], True)) == [(0, 1), (1, 2), (2, True)]
    assert list(items_from([0, 2, "x", "x"], "x")) == [(2, "x"), (3, "x")]
    assert list(items_from(("a", "b"), "b")) == [(1, "b")]
    assert list(items_from(_Items(["a", "b"]), "b")) == [(0, "a"), (1, "b")]


def test_an_array_of_plain_items_names_each_wrong_item() -> None:
    check = validator({"type": "array", "items": {"type": "integer"}, "maxItems": 2})
    found = check([1, True, 2, "x", 1.5, True]).errors
    assert [issue.path for issue in found] == [
        "$input",
        "$input[1]",
        "$input[3]",
        "$input[4]",
        "$input[5]",
    ]
    assert [issue.path for issue in check(_Items([1, "x", 2])).errors] == ["$input", "$input[1]"]
    assert [issue.path for issue in check([1, 2, 3]).errors] == ["$input"]
