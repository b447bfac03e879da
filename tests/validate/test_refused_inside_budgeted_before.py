"""Issue 33's eleventh round, second wave (a refusal inside a property under a pattern
budget): issues that stay what they were at 7591d5f.

A validator whose check runs under a pattern budget now keeps a property's inside refusal
(``_I3``) where that property's code can never run a search that may give up (no budgeted
``Matcher``, no guarded shared definition, no checker reaching either): only the others
refuse outside (``_inside.outside_where_searched``). Compared with 7591d5f in two
processes, its ``src`` and this tree's, on every corpus signature's texts and wrong values
put at each property of the validators under a budget, and on schemas mixing budgeted
patterns with records, unions and shared definitions: once as they run, and once with
every third search made to give up (noted as timed out, "no match"). The walk runs the
same searches in both trees, so the searches that give up are the same ones.
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
from tests.support.budget import scaled
from tests.support.corpora import values
from tests.support.refusals import every_text

from llmapp import application
from llmapp.validate import validator
from llmapp.validate._runtime import Refusal

ROUND_START = "7591d5f"
"""The commit before a validator under a pattern budget kept any inside refusal."""

ROOT = Path(__file__).resolve().parents[2]

_CHILD = """
import pickle, sys
sys.path.insert(0, sys.argv[4])
from _verdicts import outcomes
import llmapp
from llmapp._patterns import matching

if sys.argv[3] == "give-up":
    searches = [0]

    def giving_up(search):
        def stub(self, text):
            searches[0] += 1
            if searches[0] % 3 == 1:  # gave up: noted, "no match", as a timeout is
                matching._STATE.note(text, matching.TIMED_OUT)
                return None
            return search(self, text)
        return stub

    for kind in (matching._LinearMatcher, matching._BoundedMatcher):
        kind.search = giving_up(kind.search)

with open(sys.argv[1], "rb") as file:
    entries = pickle.load(file)
result = {"llmapp": llmapp.__file__, "outcomes": outcomes(entries)}
with open(sys.argv[2], "wb") as file:
    pickle.dump(result, file)
"""

_WRONG: list[Any] = [
    {"wrong": True},
    "not a container",
    "refx",
    "ref12",
    "aaaa",
    "\ud800",
    [],
    [True, 1],
    3,
    2.5,
    True,
    None,
]
"""What is put in place of each property: every JSON type, texts a pattern judges."""

_RECORD = {
    "type": "object",
    "properties": {
        "kind": {"enum": ["card"]},
        "code": {"type": "string", "pattern": "^(a+)\\1$"},
        "n": {"type": "integer", "minimum": 0},
    },
    "required": ["kind", "n"],
    "additionalProperties": False,
}

_PLAIN = {
    "type": "object",
    "properties": {
        "kind": {"enum": ["cash"]},
        "when": {"type": "string", "format": "date"},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
    },
    "required": ["kind", "when"],
    "additionalProperties": False,
}

_SCHEMAS: list[Any] = [
    {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "score": {"anyOf": [{"$ref": "#/$defs/P"}, {"$ref": "#/$defs/Q"}, {"type": "null"}]},
            # (``\\w`` holds the ``r`` that starts an attempt: RE2, within a budget)
            "host": {"type": "string", "pattern": "\\bref\\w+\\b"},
            "when": {"type": "string", "format": "date"},
            "record": {"$ref": "#/$defs/R"},
            "or": {"anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}]},
            "list": {"type": "array", "items": {"$ref": "#/$defs/P"}, "maxItems": 3},
            "back": {"type": "string", "pattern": "^(b+)\\1$"},
        },
        "required": ["a", "score", "host"],
        "additionalProperties": False,
        "$defs": {"P": _PLAIN, "Q": {**_PLAIN, "properties": {"kind": {"enum": ["bank"]}}}},
    },
    {
        "type": "object",
        "properties": {
            "first": {"$ref": "#/$defs/P"},
            "keyed": {
                "type": "object",
                "patternProperties": {"^(x+)\\1$": {"type": "integer"}},
            },
            "plain": {"type": "string", "maxLength": 3},
            "record": {"$ref": "#/$defs/R"},
        },
        "required": ["first"],
        "$defs": {"P": _PLAIN, "R": _RECORD},
    },
]
"""Schemas with budgeted searches beside properties without one. The first's ``R`` is
added below (``_with_record``); the second names the same ``R`` and ``P``, so a later
validator may call them as shared definitions."""


def _with_record(schema: dict[str, Any]) -> dict[str, Any]:
    defs = {**schema.get("$defs", {}), "R": _RECORD}
    return {**schema, "$defs": defs}


_TEXTS = ["aa", "aaa", "bbbb", "ref1", "refx", "2024-01-31", "2024-02-30", "xx", "", "\ud800"]


def _corpus_entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    built = corpus.generate()
    app = application(built.tools)
    texts: dict[str, list[Any]] = {}
    for name, _label, text in every_text(built):
        texts.setdefault(name, []).append(json.loads(text))
    found = []
    for case in built.cases:
        schema = app.require(case.name).parameters
        made = list(texts[case.name])
        if validator(schema).checker is None:  # under a budget: wrong values at each key
            data = json.loads(case.texts["valid"])
            for key in data:
                for wrong in _WRONG:
                    made.append({**data, key: wrong})
            for data in texts[case.name]:
                made.extend(values.mutations(data, rnd, 2))
        found.append((f"corpus:{case.name}", schema, made))
    return found


def _targeted_entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    found = []
    scalars: list[Any] = [*_TEXTS, 0, 1, -1, 2.5, True, None]
    for copy in range(2):  # the second copy of a schema calls its definitions shared
        for index, schema in enumerate(map(_with_record, _SCHEMAS)):
            made: list[Any] = [[], {}, None, "x"]
            for _ in range(scaled(40, 160)):
                value = values.guided(schema, rnd)
                made.append(value)
                made.extend(values.mutations(value, rnd, 2))
                if isinstance(value, dict) and value:
                    key = rnd.choice(list(value))
                    made.append({**value, key: rnd.choice(scalars + _WRONG)})
            found.append((f"targeted:{copy}:{index}", schema, made))
    return found


def _judge(src: Path, entries: Path, target: Path, mode: str) -> dict[str, Any]:
    environment = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-c", _CHILD, str(entries), str(target), mode]
    subprocess.run([*command, str(ROOT / "benchmarks")], check=True, env=environment)
    with target.open("rb") as file:
        result: dict[str, Any] = pickle.load(file)
    assert result["llmapp"].startswith(str(src)), result["llmapp"]
    return result["outcomes"]  # type: ignore[no-any-return]


def judged_before_and_now(
    commit: str, entries: list[tuple[str, Any, list[Any]]], mode: str = "as they run"
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The outcomes of ``entries`` under ``commit``'s ``src`` and under this tree's, each
    judged in a process of its own (``_judge``, ``mode``). The entries are pickled under
    a raised recursion limit: some values nest past the validators' depth limit."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        before.extract(commit, work)
        source = work / "entries.pickle"
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 6000))
        try:
            with source.open("wb") as file:
                pickle.dump(entries, file)
        finally:
            sys.setrecursionlimit(limit)
        old = _judge(work / "src", source, work / "old.pickle", mode)
        new = _judge(ROOT / "src", source, work / "new.pickle", mode)
    return old, new


@pytest.mark.budgeted
@pytest.mark.parametrize("mode", ["as they run", "give-up"])
def test_issues_are_7591d5fs_with_searches_that_give_up_or_not(mode: str) -> None:
    before.require(ROUND_START)
    rnd = random.Random(3312)
    entries = _corpus_entries(rnd) + _targeted_entries(rnd)
    if mode == "give-up":
        # The corpus's one budgeted search (``\\bref\\d+\\b``) runs on ``re`` here and
        # within a budget at ``ROUND_START``: only the targeted schemas give up alike.
        entries = [entry for entry in entries if not entry[0].startswith("corpus:")]
    old, new = judged_before_and_now(ROUND_START, entries, mode)
    assert before.same_outcomes(old, new) > (1000 if mode == "as they run" else 500)
    timed_out = sum(
        issue[3] is not None and "pattern" in issue[3]
        for was in old.values()
        if isinstance(was, list)
        for _, issues in was
        for issue in issues
    )
    assert (timed_out > 0) == (mode == "give-up")


def test_only_a_property_that_may_search_refuses_outside() -> None:
    check = validator(_with_record(_SCHEMAS[0]))
    assert check.checker is None  # under a budget
    good = {"a": 1, "score": None, "host": "ref1", "record": {"kind": "card", "n": 1}}
    assert check.valid(good) is True
    for key, at in (("a", 0), ("score", 1), ("when", 3), ("list", 6)):
        refused = check.valid({**good, key: "wrong"})
        assert type(refused) is Refusal and refused.at == refused.inside == at
    for key, at in (("host", 2), ("record", 4), ("or", 5), ("back", 7)):
        refused = check.valid({**good, key: "wrong"})
        assert type(refused) is Refusal and refused.at == at and refused.inside == -1
    assert [issue.path for issue in check({**good, "score": 3, "back": "bbb"}).errors] == [
        "$input.score",
        "$input.back",
    ]
