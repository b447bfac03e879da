"""The walk started where the checker refused (issue 33, tenth round) against ``ceb4ff8``.

A checker of an object now returns, where it refuses, a ``Refusal`` naming how many of
the object's properties it found valid, and the walker of that object judges only the
ones after them. The issues must be those of the whole walk, in the same order with the
same texts:

- against ``ceb4ff8``'s whole ``src`` (``git archive``, judged in a process of its own by
  ``benchmarks/_verdicts.py``): every corpus signature's valid and mistaken arguments and
  values made from the valid ones (each key and each member one level below wrong as a
  record, a text, a null, a number, an empty list; left out; an extra key; two keys wrong;
  list items wrong), and schemas written here for the cases the walk's skip must get right
  (closed objects with optional properties, nested records, records in lists and in
  unions, recursion, ``allOf``, ``patternProperties``, dependencies, nullable objects,
  nesting past the split level) with guided values and near misses of them;
- in this process, the walk from the refusal (``refusal(value, valid(value))``) against
  the whole walk (``refusal(value)``: the same walkers, nothing skipped) and the call, on
  hypothesis values put under each signature's keys, and on dict subclasses whose ``get``
  answers other values than the copy the checker judges.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from benchmarks.corpus import Corpus, generate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.corpora import values as guided_values

from llmapp import application
from llmapp.validate import Validator, validator
from llmapp.validate._runtime import WHOLE, Refusal

ROOT = Path(__file__).resolve().parents[2]
BEFORE = "ceb4ff8"
CHILD = ROOT / "benchmarks" / "_verdicts.py"

_WRONG: tuple[Any, ...] = ({"wrong": True}, "3", None, 7, [], 1.5, True)
"""What a value is replaced by: a record, a text, a null, numbers, an empty list, a bool."""

_ITEM = {
    "type": "object",
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "name": {"type": "string", "minLength": 1},
        "when": {"type": "string", "format": "date-time"},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "note": {"type": ["string", "null"]},
    },
    "required": ["id", "name"],
    "additionalProperties": False,
}
_DEEP: dict[str, Any] = {"type": "integer"}
for _level in range(14):
    _DEEP = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "next": _DEEP, "z": {"type": "boolean"}},
        "required": ["a", "next"],
        "additionalProperties": False,
    }

SCHEMAS: dict[str, Any] = {
    "closed, optional": {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "string", "format": "date"},
            "c": {"type": "boolean"},
            "d": {"type": "number", "maximum": 3},
            "e": {"$ref": "#/$defs/Item"},
        },
        "required": ["a", "c"],
        "additionalProperties": False,
        "$defs": {"Item": _ITEM},
    },
    "records in lists": {
        "type": "object",
        "properties": {
            "first": {"type": "string"},
            "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
            "pairs": {"type": "array", "prefixItems": [{"$ref": "#/$defs/Item"}, _ITEM]},
            "last": {"$ref": "#/$defs/Item"},
            "map": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Item"}},
        },
        "required": ["first", "items", "last"],
        "additionalProperties": False,
        "$defs": {"Item": _ITEM},
    },
    "unions of records": {
        "type": "object",
        "properties": {
            "kind": {"enum": ["a", "b"]},
            "either": {"anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}, _ITEM]},
            "one": {"oneOf": [{"$ref": "#/$defs/Item"}, {"type": "string"}]},
            "many": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/Item"}, _DEEP]}},
        },
        "required": ["kind", "either"],
        "additionalProperties": False,
        "$defs": {"Item": _ITEM},
    },
    "recursive": {
        "$ref": "#/$defs/Node",
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {
                    "value": {"type": "integer"},
                    "label": {"type": "string", "maxLength": 5},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                    "meta": {"$ref": "#/$defs/Meta"},
                },
                "required": ["value"],
                "additionalProperties": False,
            },
            "Meta": {
                "type": "object",
                "properties": {"at": {"type": "string"}, "up": {"$ref": "#/$defs/Node"}},
                "required": ["at"],
            },
        },
    },
    "applicators beside": {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "string"},
            "c": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
        },
        "required": ["a"],
        "allOf": [
            {"properties": {"a": {"maximum": 10}, "b": {"minLength": 2}}, "required": ["b"]},
            {"if": {"properties": {"a": {"const": 1}}}, "then": {"required": ["c"]}},
        ],
        "patternProperties": {"^a|^x": {"type": "integer"}},
        "dependentRequired": {"b": ["c"]},
        "dependentSchemas": {"c": {"properties": {"a": {"minimum": 0}}}},
        "propertyNames": {"maxLength": 3},
        "minProperties": 1,
        "maxProperties": 4,
    },
    "open, not an object alone": {
        "type": ["object", "array", "null"],
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "object", "properties": {"c": {"type": "string"}}, "required": ["c"]},
        },
        "required": ["a"],
        "items": {"type": "integer"},
    },
    "nullable": {
        "type": "object",
        "nullable": True,
        "properties": {"a": {"type": "integer"}, "b": {"$ref": "#/$defs/Item"}},
        "required": ["a", "b"],
        "additionalProperties": {"type": "string"},
        "$defs": {"Item": _ITEM},
    },
    "deep": _DEEP,
}


@cache
def _corpus() -> Corpus:
    return generate()


@cache
def _app() -> Any:
    return application(_corpus().tools)


def _schema(name: str) -> Any:
    return _app().require(name).checked_parameters


def _wrong_members(value: Any) -> Iterator[Any]:
    """``value`` (a record or a list) with one member wrong, left out, or one more."""
    if isinstance(value, dict):
        for key in value:
            for wrong in _WRONG:
                yield {**value, key: wrong}
            yield {k: v for k, v in value.items() if k != key}
        yield {**value, "zz extra": [1, "two"]}
    elif isinstance(value, list):
        for index in range(min(len(value), 3)):
            for wrong in ({"wrong": True}, None, "3"):
                yield [*value[:index], wrong, *value[index + 1 :]]
            if isinstance(value[index], dict):
                for member in _wrong_members(value[index]):
                    yield [*value[:index], member, *value[index + 1 :]]


def _made(valid: Any) -> list[Any]:
    """Values made from a valid record: each member wrong, then each member's members."""
    made = list(_wrong_members(valid))
    if isinstance(valid, dict):
        keys = list(valid)
        for key in keys:
            made.extend({**valid, key: member} for member in _wrong_members(valid[key]))
        if len(keys) > 1:
            made.append({**valid, keys[0]: {"wrong": True}, keys[-1]: None})
            made.append({**valid, keys[-1]: "3", "zz extra": 1})
        made.append([valid])
    return made


def _corpus_entries() -> list[tuple[str, Any, list[Any]]]:
    entries = []
    for case in _corpus().cases:
        texts = [json.loads(case.texts[label]) for label in ("valid", "1 mistake", "3 mistakes")]
        entries.append((case.name, _schema(case.name), texts + _made(texts[0])))
    return entries


def _schema_entries() -> list[tuple[str, Any, list[Any]]]:
    entries = []
    for name, schema in SCHEMAS.items():
        rnd = random.Random(name)
        made: list[Any] = []
        for _ in range(25):
            try:
                value = guided_values.guided(schema, rnd)
            except (RecursionError, KeyError, TypeError, ValueError, IndexError):
                continue
            made.append(value)
            made.extend(guided_values.mutations(value, rnd, 3))
            made.extend(_made(value))
        entries.append((name, schema, made))
    return entries


def _judged(src: Path, entries: list[tuple[str, Any, list[Any]]], work: Path) -> Any:
    source, target = work / "entries.pickle", work / f"{src.parent.name}.pickle"
    with source.open("wb") as file:
        pickle.dump(entries, file)
    environment = {"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"}
    subprocess.run(
        [sys.executable, str(CHILD), str(source), str(target)], check=True, env=environment
    )
    with target.open("rb") as file:
        result = pickle.load(file)
    assert result["llmapp"].startswith(str(src))
    return result["outcomes"]


def judged_alike(commit: str, entries: list[tuple[str, Any, list[Any]]]) -> Any:
    """The outcomes of ``entries`` under ``commit``'s ``src``, each judged in a process of
    its own as today's are, after asserting that today's are the same, in the same order."""
    before.require(commit)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        old = _judged(before.extract(commit, work / "old"), entries, work)
        new = _judged(ROOT / "src", entries, work)
    differences = [
        (name, index, was, now)
        for name, _, _ in entries
        for index, (was, now) in enumerate(zip(old[name], new[name], strict=True))
        if was != now
    ]
    assert not differences, differences[:5]
    return old


@pytest.mark.budgeted
@pytest.mark.parametrize("which", ["corpus", "schemas"])
def test_issues_are_ceb4ff8s(which: str) -> None:
    before.require(BEFORE)
    entries = _corpus_entries() if which == "corpus" else _schema_entries()
    old = judged_alike(BEFORE, entries)
    checked = sum(len(made) for _, _, made in entries)
    refused = sum(1 for name, _, _ in entries for was in old[name] if not was[0])
    assert checked > (15_000 if which == "corpus" else 2_000)
    assert refused > checked // 2


def _walked(check: Validator, value: Any) -> tuple[list[Any], list[Any], list[Any]]:
    """The issues of the walk from the check's refusal, of the whole walk, and of a call."""

    def issues(result: Any) -> list[Any]:
        return (
            []
            if result.success
            else [(i.path, i.expected, repr(i.value), i.description) for i in result.errors]
        )

    outcome = check.valid(value)
    if outcome:
        return [], [], issues(check(value))
    return (
        issues(check.refusal(value, outcome)),
        issues(check.refusal(value)),
        issues(check(value)),
    )


_NAMES = [f"tool_{index:03d}" for index in range(0, 300, 7)]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(_NAMES),
    st.data(),
    st.lists(guided_values.json_values(), min_size=1, max_size=3),
)
def test_walk_from_the_refusal_is_the_whole_walk(name: str, data: Any, wrong: list[Any]) -> None:
    check = validator(_schema(name))
    case = next(case for case in _corpus().cases if case.name == name)
    value = json.loads(case.texts["valid"])
    keys = list(value)
    for item in wrong:
        key = data.draw(st.sampled_from(keys))
        member = value[key]
        if isinstance(member, dict) and member and data.draw(st.booleans()):
            inner = data.draw(st.sampled_from(list(member)))
            value[key] = {**member, inner: item}
        elif isinstance(member, list) and member and data.draw(st.booleans()):
            at = data.draw(st.integers(0, len(member) - 1))
            value[key] = [*member[:at], item, *member[at + 1 :]]
        else:
            value[key] = item
    started, whole, called = _walked(check, value)
    assert started == whole == called


class _Lying(dict):  # type: ignore[type-arg]
    """A dict whose ``get`` answers a wrong value for every key: the checker judges a plain
    copy (``_as_dict``), the walker the object itself."""

    def get(self, key: Any, default: Any = None) -> Any:
        return {"lied": True} if key in self else default


def test_a_dict_subclass_is_walked_whole() -> None:
    for name in _NAMES:
        check = validator(_schema(name))
        case = next(case for case in _corpus().cases if case.name == name)
        valid = json.loads(case.texts["valid"])
        for value in (_Lying(valid), _Lying({**valid, "zz extra": 1})):
            started, whole, called = _walked(check, value)
            assert started == whole == called


def test_the_refusal_names_how_far_the_check_got() -> None:
    check = validator(SCHEMAS["closed, optional"])
    good = {"a": 1, "b": "2024-01-02", "c": True, "d": 1, "e": {"id": 1, "name": "x"}}
    assert check.valid(good) is True
    for key, at in (("a", 0), ("b", 1), ("c", 2), ("d", 3)):
        refused = check.valid({**good, key: {"wrong": True}})
        assert type(refused) is Refusal and not refused and refused.at == at
    assert check.valid({**good, "zz": 1}).at == 5  # every property passed, a key too many
    assert check.valid([]) is WHOLE
    deep = copy.deepcopy(good)
    deep["e"]["name"] = 3
    started, whole, called = _walked(check, deep)
    assert started == whole == called == [("$input.e.name", "string & MinLength<1>", "3", None)]


def test_a_walk_handed_false_walks_whole() -> None:
    check = validator(SCHEMAS["records in lists"])
    value = {"first": 1, "items": [{"id": 0, "name": ""}], "last": {"id": 1, "name": "x"}}
    assert check.refusal(value, False).errors == check(value).errors
    assert len(check(value).errors) == 3


def test_a_refusal_past_the_named_ones() -> None:
    # ``_R0``... name the first refusals among the helpers; later ones are constants.
    names = [f"p{index:02d}" for index in range(30)]
    schema = {
        "type": "object",
        "properties": {name: {"type": "string", "format": "date"} for name in names},
        "required": names[::2],
        "additionalProperties": False,
    }
    check = validator(schema)
    good = {name: "2024-01-02" for name in names}
    assert check.valid(good) is True
    for at in (0, 23, 24, 27, 29):
        wrong = {**good, names[at]: "no", "zz": 1}
        refused = check.valid(wrong)
        assert type(refused) is Refusal and refused.at == at
        started, whole, called = _walked(check, wrong)
        assert started == whole == called and len(called) == 2
