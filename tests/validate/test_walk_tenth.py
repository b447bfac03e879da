"""Issue 33's tenth round (the walker's cost per value): issues that stay what they were at
ceb4ff8.

A union's walker writes ``_pick``'s answer into its code for the JSON types that settle it
(``_unions.settled``); an array's or a dict's items of a date, time or duration format are
walked one by one only when the check at once refuses them; ``unique`` freezes only the
items that are not plain; an IPv6 text without a dot that the hex groups' pattern refuses is
refused without the constructor. Each is compared with ceb4ff8: ``pick``, ``unique`` and
``is_ipv6`` read from git, on adversarial and generated values (subclasses, bools beside numbers, whole floats,
NaN, tuples, records); whole validators in two processes, ceb4ff8's ``src`` and this tree's,
on the corpus's signatures with their texts, mutations of them and a wrong value of every
JSON type put at each property, and on union, set and format schemas with generated values.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import pickle
import random
import subprocess
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

import pytest
from benchmarks import corpus
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.budget import scaled, spread
from tests.support.corpora import values

from llmapp import application
from llmapp._results import ValidationIssue
from llmapp.validate import _runtime, _unions
from llmapp.validate._unions import Branch, UnionInfo
from llmapp.validate._walk import WalkWriter
from llmapp.validate._writer import PathCode

ROUND_TEN = "ceb4ff8"
"""The commit before the walker settled unions by type and judged formats at once."""

ROOT = Path(__file__).resolve().parents[2]
CHILD = ROOT / "benchmarks" / "_verdicts.py"


@pytest.fixture(scope="module")
def old_unions() -> types.ModuleType:
    return before.load(ROUND_TEN, "llmapp/validate/_unions.py")


@pytest.fixture(scope="module")
def old_runtime() -> types.ModuleType:
    return before.load(ROUND_TEN, "llmapp/validate/_runtime.py")


class _Int(int):
    pass


class _Str(str):
    pass


class _Float(float):
    pass


class _Dict(dict[str, Any]):
    pass


class _List(list[Any]):
    pass


class _Tuple(tuple[Any, ...]):
    pass


_ODD: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -3,
    1.0,
    0.0,
    2.5,
    math.nan,
    math.inf,
    -math.inf,
    "",
    "x",
    "1",
    "12:30:00",
    [],
    [1],
    (),
    (1, "a"),
    {},
    {"wrong": True},
    {"kind": "a"},
    {"kind": "b", "x": 1},
    {1: "int key"},
    _Int(2),
    _Str("s"),
    _Float(1.0),
    _Float(0.5),
    _Dict(kind="a"),
    _List([1]),
    _Tuple((1,)),
    object(),
    {1, 2},
    b"bytes",
]
"""Values of every JSON type and of none, with subclasses of each container and scalar."""

_KINDS: list[frozenset[str] | None] = [
    frozenset({"object"}),
    frozenset({"array"}),
    frozenset({"string"}),
    frozenset({"integer"}),
    frozenset({"number"}),
    frozenset({"boolean"}),
    frozenset({"null"}),
    frozenset({"string", "null"}),
    frozenset({"integer", "string"}),
    None,
]


def _unions_drawn() -> list[UnionInfo]:
    """Unions of two to four branches over every type set, some listing values only, some
    of several records (scored by keys), some with a discriminator."""
    rnd = random.Random(10)
    found = []
    for _ in range(300):
        branches = []
        for _ in range(rnd.randint(2, 4)):
            types_ = rnd.choice(_KINDS)
            keys = frozenset(rnd.sample(["kind", "x", "y", "z"], rnd.randint(0, 3)))
            required = frozenset(key for key in keys if rnd.random() < 0.5)
            branches.append(Branch(types_, keys, required, rnd.random() < 0.5, rnd.random() < 0.3))
        tags = None
        discriminator = None
        if rnd.random() < 0.2:
            discriminator = "kind"
            tags = {"a": 0, "b": len(branches) - 1}
        found.append(UnionInfo("(A | B)", tuple(branches), discriminator, tags, '("a" | "b")'))
    return found


_UNION_INFOS = _unions_drawn()


class _Emitter:
    """What ``WalkWriter._choice`` asks of its writer's emitter: globals by name."""

    def __init__(self) -> None:
        self.globals: dict[str, Any] = {}

    def constant(self, value: Any, hint: str) -> str:
        self.globals[hint] = value
        return hint


def _choice_code(info: UnionInfo) -> tuple[types.CodeType, dict[str, Any]]:
    writer = WalkWriter.__new__(WalkWriter)
    writer.out = _Emitter()  # type: ignore[assignment]
    code = writer._choice(info, "v", PathCode.variable("p"))
    names = {**writer.out.globals, "_pick": _unions.pick, "_Issue": ValidationIssue}
    return compile(code, "<choice>", "eval"), names


def _as_tuples(issues: list[ValidationIssue]) -> list[tuple[Any, ...]]:
    return [(i.path, i.expected, repr(i.value), i.description) for i in issues]


def _same_choice(old: types.ModuleType, info: UnionInfo, value: Any) -> None:
    code, names = _choice_code(info)
    found: list[ValidationIssue] = []
    chosen = eval(code, {**names, "v": value, "p": "$input.u", "e": found})
    expected: list[ValidationIssue] = []
    was = old.pick(value, "$input.u", expected, info)
    assert (chosen, _as_tuples(found)) == (was, _as_tuples(expected)), (info, value)


def test_written_choice_is_ceb4ff8s_pick_on_odd_values(old_unions: types.ModuleType) -> None:
    for info in _UNION_INFOS:
        for value in _ODD:
            _same_choice(old_unions, info, value)


@settings(max_examples=scaled(150, 600), deadline=None)
@given(st.sampled_from(_UNION_INFOS), values.json_values())
def test_written_choice_is_ceb4ff8s_pick_on_generated_values(
    old_unions: types.ModuleType, info: UnionInfo, value: Any
) -> None:
    _same_choice(old_unions, info, value)


def test_pick_is_ceb4ff8s(old_unions: types.ModuleType) -> None:
    for info in _UNION_INFOS:
        for value in _ODD:
            found: list[ValidationIssue] = []
            expected: list[ValidationIssue] = []
            chosen = _unions.pick(value, "$input", found, info)
            assert chosen == old_unions.pick(value, "$input", expected, info)
            assert _as_tuples(found) == _as_tuples(expected)


_ITEMS = st.one_of(
    values.json_values(),
    st.sampled_from([True, False, 1, 0, 1.0, 0.0, _Int(1), _Float(1.0), _Str("a"), "a"]),
    st.builds(_Int, st.integers(-3, 3)),
    st.builds(_Str, st.text(max_size=2)),
    st.builds(tuple, st.lists(st.integers(0, 2), max_size=2)),
    st.just(math.nan),
)


def _unique_reference(runtime: types.ModuleType, items: list[Any]) -> bool:
    """Every pair compared with ``json_equal``, as ``unique`` does for items it cannot
    freeze."""
    return not any(
        runtime.json_equal(item, other)
        for index, item in enumerate(items)
        for other in items[index + 1 :]
    )


@settings(max_examples=scaled(400, 2000), deadline=None)
@given(st.lists(_ITEMS, max_size=6))
def test_unique_is_ceb4ff8s(old_runtime: types.ModuleType, items: list[Any]) -> None:
    assert _runtime.unique(items) == old_runtime.unique(items)
    assert _runtime.unique(tuple(items)) == old_runtime.unique(tuple(items))
    if not any(isinstance(item, float) and math.isnan(item) for item in items):
        assert _runtime.unique(items) == _unique_reference(old_runtime, items)


def test_unique_on_odd_lists(old_runtime: types.ModuleType) -> None:
    odd = [item for item in _ODD if type(item) not in (set, bytes, object)]
    for first in odd:
        for second in odd:
            for third in (None, 1, True, "x", [1], {"k": 1}, (1,)):
                items = [first, second, third]
                assert _runtime.unique(items) == old_runtime.unique(items), items


# -- whole validators, ceb4ff8's src and this tree's, each in its own process ----------

_WRONG: list[Any] = [
    {"wrong": True},
    "not a container",
    [],
    [True, 1],
    ["12:30:00", {"wrong": True}],
    [1, 1.0],
    ["a", "a"],
    3,
    3.0,
    2.5,
    True,
    None,
    (1, 2),
    {"k": "2024-01-31"},
    {"k": 1},
]
"""What is put in place of each property: every JSON type, duplicates, wrong items."""


def _corpus_entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    built = corpus.generate()
    app = application(built.tools)
    found = []
    for case in spread(built.cases, scaled(3, 1)):
        schema = app.require(case.name).parameters
        made: list[Any] = []
        for text in case.texts.values():
            data = json.loads(text)
            made.append(data)
            made.extend(values.mutations(data, rnd, 6))
            for key in data:
                for wrong in _WRONG:
                    made.append({**data, key: wrong})
        found.append((f"corpus:{case.name}", schema, made))
    return found


_SCHEMAS: list[Any] = [
    {"anyOf": [{"type": "array", "items": {"type": "string", "format": "time"}}, {"type": "null"}]},
    {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
    {"anyOf": [{"enum": ["a", "b"]}, {"type": "null"}]},
    {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "format": "date-time"}]},
    {"oneOf": [{"type": "number"}, {"type": "boolean"}, {"type": "array"}]},
    {
        "anyOf": [
            {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
            {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]},
            {"type": "null"},
        ]
    },
    {
        "oneOf": [
            {"$ref": "#/$defs/A"},
            {"$ref": "#/$defs/B"},
        ],
        "discriminator": {"propertyName": "kind"},
        "$defs": {
            "A": {
                "type": "object",
                "properties": {"kind": {"const": "a"}, "x": {"type": "integer"}},
                "required": ["kind", "x"],
                "additionalProperties": False,
            },
            "B": {
                "type": "object",
                "properties": {"kind": {"const": "b"}, "y": {"type": "string"}},
                "required": ["kind"],
            },
        },
    },
    {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "minItems": 1},
    {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
    {"type": "array", "items": {"type": "number"}, "uniqueItems": True},
    {"type": "array", "uniqueItems": True},
    {"type": "array", "items": {"type": "string", "format": "date"}, "maxItems": 3},
    {"type": "array", "items": {"type": "string", "format": "date-time"}},
    {"type": "array", "items": {"type": "string", "format": "duration"}},
    {
        "type": "array",
        "prefixItems": [{"type": "integer"}],
        "items": {"type": "string", "format": "time"},
    },
    {"type": "object", "additionalProperties": {"type": "string", "format": "date"}},
    {
        "type": "object",
        "additionalProperties": {
            "anyOf": [
                {"type": "string", "format": "date-time"},
                {"type": "string", "format": "date-time-local"},
            ]
        },
    },
    {"type": "object", "additionalProperties": {"type": "string", "format": "duration"}},
    {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": {"type": "string", "format": "date"},
    },
    {
        "type": "array",
        "items": {
            "anyOf": [
                {"type": "array", "items": {"type": "string", "format": "date"}},
                {"type": "null"},
            ]
        },
    },
]

_FORMAT_TEXTS = [
    "2024-01-31",
    "2024-02-30",
    "2024-01-31T12:00:00Z",
    "2024-01-31T12:00:00",
    "2024-01-31T24:00:00Z",
    "2024-01-31T12:00:00+01:60",
    "12:30:00",
    "24:00:00",
    "12:30:00Z",
    "12:30:60",
    "P1D",
    "PT3H30M",
    "three days",
    "",
    "2024-01-31\x002024-01-31",
    "٢٠٢٤-01-31",
]


def _targeted_entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    found = []
    scalars = [*_FORMAT_TEXTS, *(item for item in _ODD if type(item) in (int, float, str))]
    plain = [item for item in _ODD if type(item) in (type(None), bool, int, float, str)]
    for index, schema in enumerate(_SCHEMAS):
        made: list[Any] = [*plain, *_WRONG, [], {}]
        for _ in range(scaled(60, 240)):
            size = rnd.randint(0, 5)
            items = [rnd.choice(scalars + _WRONG) for _ in range(size)]
            made.append(items)
            made.append({f"k{i}": item for i, item in enumerate(items)})
            made.append({"a": 1, **{f"k{i}": item for i, item in enumerate(items)}})
            made.append({"kind": rnd.choice(["a", "b", "c"]), "x": rnd.choice(scalars)})
            made.append([rnd.choice(_FORMAT_TEXTS) for _ in range(size)])
        for _ in range(scaled(10, 40)):
            made.append(values.guided(schema, rnd))
        made.extend(values.mutations(made[-1], rnd, 4))
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
def test_issues_are_ceb4ff8s_on_corpus_and_targeted_values() -> None:
    before.require(ROUND_TEN)
    rnd = random.Random(33)
    entries = _corpus_entries(rnd) + _targeted_entries(rnd)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        before.extract(ROUND_TEN, work)
        source = work / "entries.pickle"
        with source.open("wb") as file:
            pickle.dump(entries, file)
        old = _judge(work / "src", source, work / "old.pickle")
        new = _judge(ROOT / "src", source, work / "new.pickle")
    assert before.same_outcomes(old, new) > 1000


# -- an IPv6 text of hex groups alone that the pattern refuses -------------------------


@pytest.fixture(scope="module")
def old_table() -> types.ModuleType:
    return before.load(ROUND_TEN, "llmapp/_scalars/table.py")


_IPV6_TEXTS = [
    "2001:db8:::1",
    "::ffff:1.2.3.4",
    "::ffff:1.2.3.256",
    "1:2:3:4:5:6:7::",
    "1:2:3:4:5:6:7:8::",
    "::1:2:3:4:5:6:7",
    "::1:2:3:4:5:6:7:8",
    "12345::",
    "1::2::3",
    ":1::",
    "1:2:3:4:5:6:1.2.3.4",
    "1:2:3:4:5:6:7:1.2.3.4",
    "fe80::1%eth0",
    "::1/64",
    "٠::1",
    "::",
    ":",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8:9",
    "00000::1",
    " ::1",
    "::1 ",
    "::1\n",
    "::G",
]


def test_ipv6_is_ceb4ff8s_on_short_texts(old_table: types.ModuleType) -> None:
    from llmapp._scalars.table import is_ipv6

    texts = [
        "".join(chars)
        for alphabet, longest in (("01f:", scaled(7, 9)), ("0ag:.%/", scaled(4, 5)))
        for length in range(longest + 1)
        for chars in itertools.product(alphabet, repeat=length)
    ]
    for text in [*_IPV6_TEXTS, *texts]:
        assert is_ipv6(text) == old_table.is_ipv6(text), text


@settings(max_examples=scaled(300, 1500), deadline=None)
@given(st.text(alphabet="0123456789abcdefABCDEFG:.%/ \u0660", max_size=40))
def test_ipv6_is_ceb4ff8s_on_generated_texts(old_table: types.ModuleType, text: str) -> None:
    from llmapp._scalars.table import is_ipv6

    assert is_ipv6(text) == old_table.is_ipv6(text)
