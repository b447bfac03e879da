"""A missing required key refused at its own rank (issue 33, twelfth round) against f26a9cc.

A root checker of fewer than six required keys reads each where its property is checked,
inside one ``try``; a missing key's ``KeyError`` is answered by ``_runtime.missed`` with
the refusal at that key's rank (every property before it passed), where f26a9cc answered
``_M0`` and asked the check again of a copy with ``None`` filled in (``refilled``, which
a checker of six keys and more, read by one ``itemgetter``, still asks). The issues must not
move: f26a9cc's validator, run from its own ``src`` (``git archive``) in a process of its
own, judges the same values as today's, on every corpus signature's texts and their
variants (``tests.support.missing_keys``: each key missing, pairs missing, with an extra
key, with a wrong value before and after it, ``{}``, a dict subclass, a mapping that is not
a dict, a key and a text raising ``KeyError`` of a key's name, a copy that raises), and
on schemas of the kinds the validator treats apart (a pattern budget, a memo, nested
records, optional properties between required ones, a key past the named refusals, many
keys).
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

from benchmarks import corpus
from tests.support import before, missing_keys
from tests.support.refusals import every_text

from llmapp import application
from llmapp.validate import validator
from llmapp.validate._runtime import WHOLE, missed, refilled, refusal_in

BEFORE = "f26a9cc"
"""The round's start: a missing key answered ``_M0``, then the refilled check."""

_RECORD = {
    "type": "object",
    "properties": {"n": {"type": "number"}, "tag": {"enum": ["a", "b"]}},
    "required": ["n", "tag"],
    "additionalProperties": False,
}
SCHEMAS: dict[str, Any] = {
    "optional between": {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "string"},
            "c": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "d": {"enum": ["x", "y"]},
            "e": {"type": "boolean"},
        },
        "required": ["a", "c", "d"],
        "additionalProperties": False,
    },
    "required outside properties": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "required": ["b", "z", "a"],
    },
    "nested records": {
        "type": "object",
        "properties": {
            "one": {"$ref": "#/$defs/R"},
            "many": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/R"}, _RECORD]}},
            "last": {"type": "string"},
        },
        "required": ["one", "many", "last"],
        "$defs": {"R": {**_RECORD, "properties": {**_RECORD["properties"], "x": {}}}},
    },
    "budget": {
        "type": "object",
        "properties": {
            "t": {"type": "string", "pattern": "(?<=x)y"},
            "s": {"type": "string", "pattern": "(a+)+$"},
            "n": {"type": "integer"},
        },
        "required": ["t", "s", "n"],
    },
    "memo": {
        "$defs": {
            "D": {
                "type": "object",
                "properties": {
                    "x": {"type": "string"},
                    "b": {"allOf": [{"$ref": "#/$defs/D"}, {"allOf": [{"$ref": "#/$defs/D"}]}]},
                },
            }
        },
        "type": "object",
        "properties": {
            "k": {"type": "integer"},
            "d": {"$ref": "#/$defs/D"},
            "m": {"type": "string"},
        },
        "required": ["k", "d", "m"],
    },
    "past the named refusals": {
        "type": "object",
        "properties": {f"p{at:02d}": {"type": "string", "format": "date"} for at in range(30)},
        "required": ["p00", "p12", "p25", "p27", "p29"],
        "additionalProperties": False,
    },
    "many keys": {
        "type": "object",
        "properties": {f"k{at}": {"type": "integer", "minimum": at} for at in range(8)},
        "required": [f"k{at}" for at in range(1, 8)],
    },
    "object or null": {
        "type": ["object", "null"],
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "required": ["a", "b"],
    },
}
_VALID: dict[str, Any] = {
    "optional between": {"a": 1, "b": "t", "c": [1, 2], "d": "x", "e": True},
    "required outside properties": {"a": 1, "b": "t", "z": 0},
    "nested records": {"one": {"n": 1, "tag": "a"}, "many": [{"n": 2, "tag": "b"}], "last": "l"},
    "budget": {"t": "xy", "s": "aaa", "n": 3},
    "memo": {"k": 1, "d": {"x": "s", "b": {"x": "t"}}, "m": "m"},
    "past the named refusals": {f"p{at:02d}": "2024-01-02" for at in range(30)},
    "many keys": {f"k{at}": at for at in range(8)},
    "object or null": {"a": 1, "b": "t"},
}


def _cases() -> list[tuple[str, Any, list[Any]]]:
    """Each schema, with the variants of its texts (the corpus's) or its valid value."""
    built = corpus.generate()
    app = application(built.tools)
    rnd = random.Random(12)
    texts: dict[str, list[Any]] = {}
    for name, _label, text in every_text(built):
        texts.setdefault(name, []).append(json.loads(text))
    found = [(name, app.require(name).parameters, data) for name, data in texts.items()]
    found += [(name, SCHEMAS[name], [_VALID[name]]) for name in SCHEMAS]
    cases = []
    for name, schema, data in found:
        required = schema.get("required", []) if isinstance(schema, dict) else []
        values = [v for d in data for v in missing_keys.variants(d, required, rnd)]
        cases.append((name, schema, values))
    return cases


def _before(cases: list[tuple[str, Any, list[Any]]], folder: Path) -> list[Any]:
    """The issues f26a9cc's validator gives every value, in a process of its own."""
    before.require(BEFORE)
    archive = subprocess.run(
        ["git", "-C", str(before.ROOT), "archive", BEFORE, "src"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder / "src"), str(before.ROOT)]))
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.missing_keys"],
        input=json.dumps([[schema, values] for _, schema, values in cases]),
        capture_output=True,
        text=True,
        env=env,
        cwd=before.ROOT,
        check=True,
    )
    answers: list[Any] = json.loads(done.stdout)
    return answers


def test_missing_keys_give_the_issues_of_before(tmp_path: Path) -> None:
    cases = _cases()
    old = _before(cases, tmp_path)
    compared = 0
    for (name, schema, values), answers in zip(cases, old, strict=True):
        check = validator(schema)
        for value, was in zip(values, answers, strict=True):
            assert missing_keys.issues(check, missing_keys.decode(value)) == was, (name, value)
            compared += 1
    assert compared > 10_000


def test_the_refusal_is_at_the_missing_key() -> None:
    check = validator(SCHEMAS["optional between"])
    good = _VALID["optional between"]
    for key, at in (("a", 0), ("c", 2), ("d", 3)):
        assert check.valid({k: v for k, v in good.items() if k != key}) is refusal_in(at)
    assert check.valid({"b": 1}) is refusal_in(0)  # the first missing one, not the wrong one
    assert check.valid({"a": 1, "c": [-1]}) is refusal_in(2)  # a wrong value comes first
    assert check.valid({"a": 1, "c": []}) is refusal_in(3)
    many = validator(SCHEMAS["past the named refusals"])
    left = {k: v for k, v in _VALID["past the named refusals"].items() if k != "p27"}
    assert many.valid(left) is refusal_in(27)


def test_a_keyerror_from_elsewhere_knows_nothing() -> None:
    assert missed({}, "a") is WHOLE  # no exception being handled
    key = "b"
    try:
        {}[key]
    except KeyError:
        assert missed({"a": 1}, "a", None, key) is refusal_in(2)
        assert missed({"a": 1}, "a") is WHOLE  # not one of its keys
        assert missed({key: 1}, "a", key) is WHOLE  # not a key the value lacks
    key_raising = missing_keys.decode({"__spec__": "raising key", "data": {}, "key": "b"})
    try:
        key_raising["b"]
    except KeyError:
        assert missed({}, "b") is WHOLE  # raised in a frame of the key's own
    for name in ("budget", "memo", "many keys"):  # read at once, as before
        assert "return _missed(" not in validator(SCHEMAS[name]).source
    assert "return _missed(" in validator(SCHEMAS["optional between"]).source


def test_the_check_is_asked_again_only_where_a_property_comes_before_the_missing_one() -> None:
    """``refilled`` (a root reading its keys at once) asks the check of a filled copy only
    where some property the value holds comes before the first required one it lacks:
    else that check would stop before any property the walk could skip."""
    asked: list[object] = []

    def check(value: object, depth: int) -> object:
        asked.append(value)
        return refusal_in(1)

    names = ["a", "b", "c"]
    written = ["a", "x", "b", "c"]
    assert refilled(check, {"b": 1, "c": 2}, names, written) is WHOLE  # "a" first, missing
    assert refilled(check, {}, names, written) is WHOLE
    assert refilled(check, {"z": 1}, [*names, "z2"], written) is WHOLE  # nothing written held
    assert asked == []
    assert refilled(check, {"x": 1, "c": 2}, ["b", "c"], written) is refusal_in(1)  # "x", "b"
    assert refilled(check, {"a": 1}, names, written) is refusal_in(1)
    assert refilled(check, {"c": 1}, ["a", "c", "q"], ["c"]) is refusal_in(1)  # "q" unwritten
    assert len(asked) == 3
