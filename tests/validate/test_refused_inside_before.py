"""Issue 33's eleventh round (the walk at the place the checker refused): issues that stay
what they were at ea07c65.

A checker of an object that refuses while judging one of its properties says so
(``Refusal.inside``, ``_I0``...), and the walk goes to that property's issues without
asking its test again: a leaf's one issue, a union's ``_pick``, an array of date or time
items judged one by one, not at once first. Where the walk's tests may answer otherwise
than the check's (a pattern search that may give up, a memo counting the work), the
checkers refuse outside any property, as before. Compared with ea07c65 in two processes,
its ``src`` and this tree's, on every corpus signature's texts (``refusals.every_text``),
mutations of them and a wrong value of every JSON type put at each property, and on
schemas of the shapes the walk now answers from the refusal, with generated values.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from benchmarks import corpus
from tests.support import before
from tests.support.budget import scaled, spread
from tests.support.corpora import values
from tests.support.refusals import every_text

from llmapp import application
from llmapp.validate import validator
from llmapp.validate._runtime import WHOLE, Refusal, refusal_in

ROUND_ELEVEN = "ea07c65"
"""The commit before a checker's refusal named the property it was refused in."""

ROOT = Path(__file__).resolve().parents[2]
CHILD = ROOT / "benchmarks" / "_verdicts.py"

_WRONG: list[Any] = [
    {"wrong": True},
    "not a container",
    "2024-01-31",
    "12:30:00",
    [],
    [True, 1],
    ["2024-01-31T12:00:00Z", {"wrong": True}],
    ["12:30:00", "nope"],
    3,
    2.5,
    True,
    None,
    {"k": "2024-01-31"},
    {"k": {"wrong": True}},
]
"""What is put in place of each property: every JSON type, wrong items, wrong texts."""


def _corpus_entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    built = corpus.generate()
    app = application(built.tools)
    texts: dict[str, list[Any]] = {}
    for name, _label, text in every_text(built):
        texts.setdefault(name, []).append(json.loads(text))
    found = []
    for case in spread(built.cases, scaled(2, 1)):
        schema = app.require(case.name).parameters
        made: list[Any] = []
        for data in texts[case.name]:
            made.append(data)
            made.extend(values.mutations(data, rnd, 2))
        data = json.loads(case.texts["valid"])
        for key in data:
            for wrong in _WRONG:
                made.append({**data, key: wrong})
        made.extend(values.guided(schema, rnd) for _ in range(scaled(4, 12)))
        found.append((f"corpus:{case.name}", schema, made))
    return found


_RECORD = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "when": {"type": "string", "format": "date-time"},
        "tags": {"type": "array", "items": {"type": "string", "format": "date"}, "maxItems": 3},
    },
    "required": ["id", "when"],
    "additionalProperties": False,
}

_SCHEMAS: list[Any] = [
    {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "link": {
                "anyOf": [
                    {"type": "object", "additionalProperties": {"type": "boolean"}},
                    {"type": "null"},
                ]
            },
            "when": {"type": "string", "format": "date"},
            "at": {
                "anyOf": [
                    {"type": "string", "format": "date-time"},
                    {"type": "string", "format": "date-time-local"},
                ]
            },
            "times": {"type": "array", "items": {"type": "string", "format": "time"}},
            "long": {
                "type": "array",
                "items": {"type": "string", "format": "date"},
                "minItems": 1,
                "maxItems": 2,
            },
            "hex": {"type": "string", "pattern": "^#[0-9a-f]{6}$"},
            "maybe": {"type": "string", "format": "date", "nullable": True},
            "either": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 2}]},
        },
        "required": ["a", "when"],
        "additionalProperties": False,
    },
    {
        "type": "object",
        "properties": {
            "record": {"$ref": "#/$defs/R"},
            "records": {"type": "array", "items": {"$ref": "#/$defs/R"}, "maxItems": 4},
            "or": {"anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}]},
            "map": {"type": "object", "additionalProperties": {"$ref": "#/$defs/R"}},
        },
        "required": ["record"],
        "$defs": {"R": _RECORD},
    },
    {
        "type": "object",
        "properties": {
            "u": {
                "anyOf": [
                    {"type": "string", "format": "date"},
                    {"type": "integer"},
                ],
                "minLength": 3,
            },
            "c": {
                "anyOf": [{"type": "integer"}, {"type": "string"}],
                "if": {"type": "integer"},
                "then": {"minimum": 3},
            },
        },
        "required": ["u"],
    },
    {
        "type": "object",
        "properties": {
            f"p{index:02d}": {"type": "string", "format": "date"} for index in range(30)
        },
        "required": [f"p{index:02d}" for index in range(0, 30, 3)],
        "additionalProperties": False,
    },
    {
        "type": "object",
        "properties": {
            "a": {"type": "string", "pattern": "^(a+)\\1$"},
            "b": {"type": "string", "format": "date"},
            "c": {"anyOf": [{"type": "string", "pattern": "^(b+)\\1$"}, {"type": "null"}]},
        },
        "required": ["a"],
    },
]

_TEXTS = [
    "2024-01-31",
    "2024-02-30",
    "2024-01-31T12:00:00Z",
    "2024-01-31T12:00:00",
    "12:30:00",
    "24:00:00",
    "#00ff00",
    "#00FF00",
    "aa",
    "aaa",
    "bbbb",
    "",
    "x",
    "\ud800",
]


def _targeted_entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    found = []
    scalars: list[Any] = [*_TEXTS, 0, 1, 2, 2.5, -1, True, None]
    for index, schema in enumerate(_SCHEMAS):
        made: list[Any] = [[], {}, None, "x"]
        for _ in range(scaled(40, 160)):
            value = values.guided(schema, rnd)
            made.append(value)
            made.extend(values.mutations(value, rnd, 2))
            if isinstance(value, dict) and value:
                key = rnd.choice(list(value))
                made.append({**value, key: rnd.choice(scalars + _WRONG)})
                made.append({**value, key: [rnd.choice(scalars) for _ in range(rnd.randint(0, 4))]})
        found.append((f"targeted:{index}", schema, made))
    return found


def _judge(src: Path, entries: Path, target: Path) -> dict[str, Any]:
    environment = {**os.environ, "PYTHONPATH": str(src)}
    subprocess.run(
        [sys.executable, str(CHILD), str(entries), str(target)], check=True, env=environment
    )
    with target.open("rb") as file:
        result: dict[str, Any] = pickle.load(file)
    assert result["llmapp"].startswith(str(src)), result["llmapp"]
    return result["outcomes"]  # type: ignore[no-any-return]


@pytest.mark.budgeted
def test_issues_are_ea07c65s_on_corpus_and_targeted_values() -> None:
    before.require(ROUND_ELEVEN)
    rnd = random.Random(3311)
    entries = _corpus_entries(rnd) + _targeted_entries(rnd)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        before.extract(ROUND_ELEVEN, work)
        source = work / "entries.pickle"
        with source.open("wb") as file:
            pickle.dump(entries, file)
        old = _judge(work / "src", source, work / "old.pickle")
        new = _judge(ROOT / "src", source, work / "new.pickle")
    assert before.same_outcomes(old, new) > 1000


def test_the_refusal_names_the_property_refused() -> None:
    check = validator(_SCHEMAS[0])
    good = {"a": 1, "when": "2024-01-31", "times": ["12:30:00Z"]}
    assert check.valid(good) is True
    for key, at in (("a", 0), ("link", 1), ("when", 2), ("times", 4)):
        refused = check.valid({**good, key: "wrong"})
        assert type(refused) is Refusal and not refused
        assert refused.at == refused.inside == at and refused.place == 2 * at + 1
    missing = check.valid({"a": 1})  # refused at "when", its key read where it is checked
    assert missing is refusal_in(2) and missing.place == 5
    extra = check.valid({**good, "zz": 1})
    assert extra.at == 9 and extra.inside == -1 and extra.place == 18
    assert check.valid([]) is WHOLE and WHOLE.inside == -1
    assert check(good | {"link": {"x": 1}}).errors[0].path == "$input.link.x"


def test_a_refusal_past_the_named_ones_names_its_property() -> None:
    check = validator(_SCHEMAS[3])
    good = {f"p{index:02d}": "2024-01-02" for index in range(30)}
    for at in (0, 23, 24, 29):
        refused = check.valid({**good, f"p{at:02d}": "no"})
        assert type(refused) is Refusal and refused.at == refused.inside == at
        assert [issue.path for issue in check({**good, f"p{at:02d}": "no"}).errors] == [
            f"$input.p{at:02d}"
        ]


def test_a_search_that_may_give_up_refuses_outside() -> None:
    check = validator(_SCHEMAS[4])
    assert check.checker is None  # a budget around the check: the walk asks its tests again
    refused = check.valid({"a": "aaa", "b": "2024-01-31"})
    assert type(refused) is Refusal and refused.inside == -1
    assert [issue.path for issue in check({"a": "aaa", "b": "no"}).errors] == [
        "$input.a",
        "$input.b",
    ]
