"""The frames around the checker (issue 33, eleventh round) against ``ea07c65``.

A call of a function's generated validation now calls a plain function
(``Validator.caller``, kept by ``OnFirstUse.calling``) instead of the ``Validator``
instance; a refusal's walk, its explanations and its ``ValidationFailure`` are made in
one frame (``_failure``); the pattern budget is entered and left by plain calls
(``budget_begun``, ``budget_ended``). What a call answers must not move: ``ea07c65``'s
``validate/_validator.py`` (read from git, run beside today's on today's generated code)
judges every value here too, and each of today's ways in (the call, ``caller()``,
``refusal`` after ``valid``, ``is_valid``, ``Function.validate`` and ``validate_types``)
must give its answer: the same kind of result, the same data object, the same issues
(path, expected, value, description), never an exception. Schemas of each kind the frames
treat apart (plain, recursive, with a pattern budget, with a memo, with searches on
``re``, booleans, a scalar root), on generated (hypothesis), guided and hostile values
(cycles, deep nesting, mappings and texts whose methods raise), with walkers gone cold,
from threads, and inside a caller's own pattern budget.
"""

from __future__ import annotations

import random
import threading
import types
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.corpora import values as guided_values

from llmapp._patterns import matching
from llmapp.kernel._function import Function, LlmFunction
from llmapp.validate import Validation, ValidationFailure, ValidationSuccess
from llmapp.validate._validator import Validator

BEFORE = "ea07c65"
"""The round's start: the frames as they were."""

_TREE = {
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["name"],
            "additionalProperties": False,
        }
    },
    "$ref": "#/$defs/Node",
}
_TWICE = {
    "$defs": {
        "D": {
            "type": "object",
            "properties": {
                "x": {"type": "string"},
                "b": {"allOf": [{"$ref": "#/$defs/D"}, {"allOf": [{"$ref": "#/$defs/D"}]}]},
            },
        }
    },
    "$ref": "#/$defs/D",
}
SCHEMAS: dict[str, Any] = {
    "plain": {
        "type": "object",
        "properties": {
            "id": {"type": "integer", "minimum": 1},
            "when": {"type": "string", "format": "date-time"},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
            "kind": {"enum": ["a", "b"]},
            "inner": {
                "type": "object",
                "properties": {"n": {"type": "number"}, "ok": {"type": "boolean"}},
                "required": ["n"],
                "additionalProperties": False,
            },
        },
        "required": ["id", "kind"],
        "additionalProperties": False,
    },
    "recursive": _TREE,
    "budget": {
        "type": "object",
        "properties": {
            "s": {"type": "string", "pattern": "(a+)+$"},
            "t": {"type": "string", "pattern": "(?<=x)y"},
            "n": {"type": "integer"},
        },
        "required": ["s"],
    },
    "budget, recursive": {
        "$defs": {
            "L": {
                "type": "object",
                "properties": {
                    "v": {"type": "string", "pattern": "^(a|aa)+$"},
                    "next": {"anyOf": [{"$ref": "#/$defs/L"}, {"type": "null"}]},
                },
                "required": ["v"],
            }
        },
        "$ref": "#/$defs/L",
    },
    "memo": _TWICE,
    "searches on re": {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}-\\d+$"}},
        "patternProperties": {"^x-": {"type": "integer"}},
    },
    "scalar": {"type": "integer", "minimum": 1, "multipleOf": 3},
    "true": True,
    "false": False,
}


class _Raising(dict):  # type: ignore[type-arg]
    """A mapping whose reads raise: the checker and the walker meet an exception."""

    def __getitem__(self, key: Any) -> Any:
        raise RuntimeError("hostile")

    def get(self, key: Any, default: Any = None) -> Any:
        raise RuntimeError("hostile")

    def items(self) -> Any:
        raise RuntimeError("hostile")

    def keys(self) -> Any:
        raise RuntimeError("hostile")

    def __iter__(self) -> Any:
        raise RuntimeError("hostile")

    def __len__(self) -> int:
        raise RuntimeError("hostile")


class _Text(str):
    """A text whose methods raise."""

    def __len__(self) -> int:
        raise ValueError("hostile")

    def __hash__(self) -> int:
        raise ValueError("hostile")

    def __eq__(self, other: object) -> bool:
        raise ValueError("hostile")


def _hostile() -> list[Any]:
    cyclic: dict[str, Any] = {"name": "a"}
    cyclic["children"] = [cyclic]
    loop: list[Any] = []
    loop.append(loop)
    deep: Any = {"name": "x"}
    for _ in range(3000):
        deep = {"name": "x", "children": [deep]}
    nested: Any = 1
    for _ in range(5000):
        nested = [nested]
    return [
        cyclic,
        loop,
        deep,
        nested,
        _Raising(a=1),
        {"id": _Raising(), "kind": "a"},
        {"s": _Text("aaa!"), "name": _Text("n")},
        _Text("x"),
        {"id": 1, "kind": "a", "tags": [_Text("t")]},
        {"v": "a" * 40 + "!", "s": "a" * 40 + "!", "t": "xy"},
        {"code": "ABC-12", "x-a": "no", "x-b": 1},
        {"b": {"b": {"b": {"x": 5}}}},
        {"b": {"b": {"b": {"x": "ok"}}}},
        {"v": "aa", "next": {"v": "a", "next": None}},
        {"s": "aaaa", "n": 1, "t": "xy"},
        {"name": "r", "children": [{"name": "c"}]},
        {"id": 1, "kind": "a", "inner": {"n": 1.5}},
        float("nan"),
        float("inf"),
        -3,
        9,
        None,
        "",
        [],
        {},
    ]


def _seen(value: Any) -> str:
    try:
        return repr(value)
    except Exception as error:  # a hostile value's repr: its kind stands for it
        return f"<{type(error).__name__}>"


def _answer(call: Callable[[Any], Validation], value: Any) -> tuple[Any, ...]:
    """What a way in answered: its kind, whether its data is the value, its issues."""
    try:
        result = call(value)
    except Exception as error:  # compared: neither side may raise
        return ("raised", type(error).__name__)
    issues = (
        [(i.path, i.expected, _seen(i.value), i.description) for i in result.errors]
        if type(result) is ValidationFailure
        else []
    )
    return (type(result).__name__, result.success, result.data is value, issues)


@pytest.fixture(scope="module")
def old() -> types.ModuleType:
    return before.load(BEFORE, "llmapp/validate/_validator.py")


def _pairs(old: types.ModuleType, name: str) -> tuple[Any, Validator, LlmFunction]:
    schema = SCHEMAS[name]
    function = LlmFunction(name="f", description=None, parameters={"type": "object"})
    function = function.with_validator(Validator(schema))
    return old.Validator(schema), Validator(schema), function


def _ways(new: Validator, function: Function) -> dict[str, Callable[[Any], Validation]]:
    """Today's ways in to a validation, each to give the old call's answer."""

    def after_valid(value: Any) -> Validation:
        outcome = new.valid(value)
        assert bool(outcome) is new.is_valid(value)
        return new(value) if outcome else new.refusal(value, outcome)

    return {
        "call": new,
        "caller": new.caller(),
        "refusal after valid": after_valid,
        "refusal, whole walk": lambda value: (
            new(value) if new.is_valid(value) else new.refusal(value)
        ),
        "Function.validate": function.validate,
        "validate_types": function.validate_types,
    }


def _same(old: Any, new: Validator, function: Function, values: list[Any]) -> None:
    for index, value in enumerate(values):
        was = _answer(old, value)
        assert was[0] != "raised", (index, was)
        for way, call in _ways(new, function).items():
            assert _answer(call, value) == was, (way, index, _seen(value)[:200])
        if index % 3 == 0:
            new._cool()  # the walkers go cold: the next refusal compiles them again
        assert matching._STATE.left is None  # the budget left as it was: none


def _values(schema: Any, seed: str) -> list[Any]:
    rnd, made = random.Random(seed), []
    for _ in range(30):
        try:
            value = guided_values.guided(schema, rnd)
        except (RecursionError, KeyError, TypeError, ValueError, IndexError):
            continue
        made.append(value)
        made.extend(guided_values.mutations(value, rnd, 3))
    return made


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_guided_and_hostile_values_answer_as_before(old: types.ModuleType, name: str) -> None:
    was, new, function = _pairs(old, name)
    values = _values(SCHEMAS[name], name) + _hostile()
    _same(was, new, function, values)
    refused = sum(1 for value in values if not new.is_valid(value))
    assert 0 < refused < len(values) or isinstance(SCHEMAS[name], bool)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(list(SCHEMAS)), st.lists(guided_values.json_values(), max_size=4))
def test_generated_values_answer_as_before(name: str, values: list[Any]) -> None:
    was, new, function = _pairs(before.load(BEFORE, "llmapp/validate/_validator.py"), name)
    keyed = [{key: value for key in ("id", "kind", "s", "name", "v", "x", "b")} for value in values]
    _same(was, new, function, values + keyed)


@pytest.mark.parametrize("name", ["budget", "budget, recursive", "memo", "plain"])
def test_a_callers_own_budget_is_kept_as_before(old: types.ModuleType, name: str) -> None:
    """Inside a caller's ``PatternBudget``, a call has a budget of its own and leaves the
    caller's as it found it, as before."""
    was, new, function = _pairs(old, name)
    values = _values(SCHEMAS[name], name)[:20] + _hostile()[-12:]
    for value in values:
        with matching.PatternBudget():
            matching._STATE.left = 0.125
            expected = _answer(was, value)
            assert matching._STATE.left == 0.125
            for way, call in _ways(new, function).items():
                assert _answer(call, value) == expected, way
                assert matching._STATE.left == 0.125, way
        assert matching._STATE.left is None


@pytest.mark.parametrize("name", ["plain", "recursive", "budget", "memo"])
def test_threads_answer_as_one_thread_did_before(old: types.ModuleType, name: str) -> None:
    """Calls from several threads at once, walkers going cold among them, each answer
    the old call's."""
    was, new, function = _pairs(old, name)
    values = _values(SCHEMAS[name], name)[:40]
    expected = [_answer(was, value) for value in values]
    calls = [new.caller(), function.validate, new]
    found: list[tuple[int, Any]] = []
    lock = threading.Lock()

    def run(seed: int) -> None:
        rnd = random.Random(seed)
        for _ in range(150):
            index = rnd.randrange(len(values))
            answer = _answer(calls[seed % len(calls)], values[index])
            if rnd.random() < 0.05:
                new._cool()
            with lock:
                found.append((index, answer))

    threads = [threading.Thread(target=run, args=(seed,)) for seed in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 900
    assert all(answer == expected[index] for index, answer in found)


def test_the_caller_is_held_by_its_function_not_by_the_validator() -> None:
    """``caller`` makes a new function that holds the validator; the validator holds none
    of them (a cycle would keep it, and its source in ``linecache``, past its last use)."""
    check = Validator({"type": "object", "properties": {"a": {"type": "integer"}}})
    call = check.caller()
    assert call is not check.caller()
    assert call({"a": 1}).success and not call({"a": "1"}).success
    function = LlmFunction(name="f", description=None, parameters={"type": "object"})
    function = function.with_validator(check)
    assert function._generated.calling() is function._generated.calling()
    assert type(function.validate({"a": 1})) is ValidationSuccess
    guarded = Validator(SCHEMAS["budget"])
    assert guarded.caller() == guarded._guarded_call  # one frame already


def test_a_function_given_another_check_calls_that_check() -> None:
    """A check that is no ``Validator`` (a hand-written one, an object answering every
    attribute) is what a function's validation calls, as before."""
    seen: list[Any] = []

    def check(value: Any) -> Validation:
        seen.append(value)
        return ValidationSuccess(value)

    mocked = mock.MagicMock(return_value=ValidationSuccess(2))
    for made, answer in ((check, 1), (mocked, 2)):
        function = LlmFunction(name="f", description=None, parameters={"type": "object"})
        function = function.with_validator(made)
        assert function._generated.calling() is made
        assert function.validate(1).data == answer
        assert function.validate_types(1).data == answer
    assert seen == [1, 1]
    assert mocked.call_count == 2
