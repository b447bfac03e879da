"""Issue 33's twelfth round (a record's refusal carried to its walk): issues that stay what
they were at f26a9cc.

A ranked checker refusing a property that is a record by ``$ref`` keeps that record's
checker's own answer in its refusal (``Refusal.inner``, ``_runtime.within``), and the
walk hands it to the record's walker instead of checking the record again and walking it
from its start. Compared with f26a9cc in two processes, its ``src`` and this tree's, on
every corpus signature's texts, with wrong values put inside the records nested in the
valid text (each key of a record, of a record in a list, the record a non-dict
``Mapping``), and on schemas of records by ``$ref`` (chained, under a union, recursive:
deep, cyclic, too deep; beside searches under a pattern budget, once as they run and once
with every third search made to give up).
"""

from __future__ import annotations

import collections
import json
import random
from typing import Any

import pytest
from benchmarks import corpus
from tests.support import before
from tests.support.corpora import values
from tests.support.refusals import every_text
from tests.validate.test_refused_inside_budgeted_before import _SCHEMAS as _BUDGETED
from tests.validate.test_refused_inside_budgeted_before import (
    _with_record,
    judged_before_and_now,
)

from llmapp import application
from llmapp.validate import validator
from llmapp.validate._runtime import WHOLE, Refusal

ROUND_START = "f26a9cc"
"""The commit before a refusal carried the refusal of the record it refused."""

_WRONG: list[Any] = [
    {"wrong": True},
    "not a container",
    "2024-01-31",
    "ref1",
    "aaaa",
    [],
    [True, 1],
    3,
    2.5,
    True,
    None,
]
"""What is put in place of each key of a nested record: every JSON type, some texts."""


def _nested(data: Any) -> list[Any]:
    """``data`` with each key of each record one level below its top wrong, in turn; the
    record left without that key; and the record as a ``UserDict`` (a ``Mapping`` that
    is no dict)."""
    made: list[Any] = []
    if not isinstance(data, dict):
        return made
    for key, record in data.items():
        if isinstance(record, list) and record and isinstance(record[0], dict):
            for changed in _nested({"item": record[0]}):
                made.append({**data, key: [changed["item"], *record[1:]]})
            continue
        if not isinstance(record, dict):
            continue
        made.append({**data, key: collections.UserDict(record)})
        for inner in record:
            made.append({**data, key: {k: v for k, v in record.items() if k != inner}})
            for wrong in _WRONG:
                made.append({**data, key: {**record, inner: wrong}})
    return made


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
        made.extend(_nested(json.loads(case.texts["valid"])))
        for data in (json.loads(case.texts[label]) for label in ("1 mistake", "3 mistakes")):
            made.extend(_nested(data))
            made.extend(values.mutations(data, rnd, 3))
        found.append((f"corpus:{case.name}", schema, made))
    return found


_LEAF = {
    "type": "object",
    "properties": {
        "kind": {"enum": ["leaf"]},
        "when": {"type": "string", "format": "date"},
        "n": {"type": "integer", "minimum": 0},
    },
    "required": ["kind", "when"],
    "additionalProperties": False,
}

_SCHEMAS: list[Any] = [
    {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "record": {"$ref": "#/$defs/Mid"},
            "or": {"anyOf": [{"$ref": "#/$defs/Leaf"}, {"$ref": "#/$defs/Mid"}, {"type": "null"}]},
            "one": {"oneOf": [{"$ref": "#/$defs/Leaf"}, {"$ref": "#/$defs/Other"}]},
            "tail": {"$ref": "#/$defs/Leaf"},
        },
        "required": ["a", "record"],
        "additionalProperties": False,
        "$defs": {
            "Leaf": _LEAF,
            "Other": {**_LEAF, "properties": {**_LEAF["properties"], "kind": {"enum": ["other"]}}},
            "Mid": {
                "type": "object",
                "properties": {
                    "kind": {"enum": ["mid"]},
                    "leaf": {"$ref": "#/$defs/Leaf"},
                    "at": {"type": "string", "format": "date-time"},
                    "more": {"$ref": "#/$defs/Leaf"},
                },
                "required": ["kind", "leaf"],
            },
        },
    },
    {
        "type": "object",
        "properties": {
            "id": {"type": "string", "format": "uuid"},
            "tree": {"$ref": "#/$defs/Holder"},
            "node": {"$ref": "#/$defs/Node"},
            # a union's branch that reaches the cycle: its walk, refused by the union's
            # test, starts from the branch checker's refusal (``WalkWriter._call``)
            "maybe": {"anyOf": [{"$ref": "#/$defs/Holder"}, {"type": "null"}]},
        },
        "required": ["id", "tree"],
        "additionalProperties": False,
        "$defs": {
            "Holder": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "maxLength": 4},
                    "root": {"$ref": "#/$defs/Node"},
                    "when": {"type": "string", "format": "date"},
                },
                "required": ["name", "root"],
                "additionalProperties": False,
            },
            "Node": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
                "required": ["label", "children"],
                "additionalProperties": False,
            },
        },
    },
]
"""Records by ``$ref``: chained, in unions, beside a recursive definition (the second's
``Holder`` reaches ``Node``'s cycle: its check may stop on the depth limit)."""

_TEXTS = ["2024-01-31", "2024-02-30", "2024-01-31T12:00:00Z", "leaf", "mid", "other", "x", ""]


def _chain(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"label": "end", "children": []}
    for _ in range(depth):
        node = {"label": "n", "children": [node]}
    return node


def _recursive_values() -> list[Any]:
    """The second schema's values down the ``Node`` chain: deep, too deep, cyclic, wrong
    at the end of a long chain, beside a wrong sibling of the chain."""
    made: list[Any] = []
    cyclic: dict[str, Any] = {"label": "c", "children": []}
    cyclic["children"].append(cyclic)
    wrong_end = _chain(40)
    end = wrong_end
    while end["children"]:
        end = end["children"][0]
    end["label"] = 3
    for root in (_chain(3), _chain(600), cyclic, wrong_end, {"label": 1, "children": [{}]}):
        for name, when in (("ok", "2024-01-31"), ("toolong", "2024-01-31"), ("ok", "no")):
            tree = {"name": name, "root": root, "when": when}
            made.append({"id": "12345678-1234-1234-1234-123456789abc", "tree": tree})
            made.append({"id": "nope", "tree": tree, "node": root})
            made.append({"id": "12345678-1234-1234-1234-123456789abc", "tree": tree, "node": 1})
            made.append({"id": "nope", "tree": {"name": "ok", "root": _chain(1)}, "maybe": tree})
    return made


def _targeted_entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    found = []
    scalars: list[Any] = [*_TEXTS, 0, 1, -1, 2.5, True, None]
    budgeted = [_with_record(schema) for schema in _BUDGETED]
    for index, schema in enumerate([*_SCHEMAS, *budgeted]):
        made: list[Any] = [[], {}, None, "x"]
        if index == 1:
            made.extend(_recursive_values())
        for _ in range(120):
            value = values.guided(schema, rnd)
            made.append(value)
            made.extend(values.mutations(value, rnd, 2))
            made.extend(rnd.sample(_nested(value), min(6, len(_nested(value)))))
            if isinstance(value, dict) and value:
                key = rnd.choice(list(value))
                made.append({**value, key: rnd.choice(scalars + _WRONG)})
        found.append((f"targeted:{index}", schema, made))
    return found


@pytest.mark.budgeted
@pytest.mark.parametrize("mode", ["as they run", "give-up"])
def test_issues_are_f26a9ccs_on_nested_records(mode: str) -> None:
    before.require(ROUND_START)
    rnd = random.Random(3313)
    entries = _targeted_entries(rnd)
    if mode == "as they run":
        entries += _corpus_entries(rnd)
    old, new = judged_before_and_now(ROUND_START, entries, mode)
    assert before.same_outcomes(old, new) > 1000


def test_a_refused_record_is_kept_in_the_refusal() -> None:
    check = validator(_SCHEMAS[0])
    leaf = {"kind": "leaf", "when": "2024-01-31"}
    good = {"a": 1, "record": {"kind": "mid", "leaf": leaf}, "tail": leaf}
    assert check.valid(good) is True
    refused = check.valid({**good, "record": {"kind": "mid", "leaf": {**leaf, "n": -1}}})
    assert type(refused) is Refusal and refused.place == 3
    assert refused.inner.place == 3 and refused.inner.inner.place == 5  # Mid.leaf, Leaf.n
    assert check.valid({**good, "a": "x"}).inner is WHOLE  # the kept ones know nothing more
    assert [issue.path for issue in check({**good, "tail": {**leaf, "when": 1}}).errors] == [
        "$input.tail.when"
    ]
