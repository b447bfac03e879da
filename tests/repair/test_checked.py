"""Validating first and repairing only what was refused gives what repairing everything gave.

The call step used to run ``check(coerce(data, schema))`` on every call. It now runs
``Coercion.checked(data, check)``: the validator first, and a repair only along the issues
it reports. The two must agree on every input, in the verdict, the data, every issue and
the feedback text. The reference is ``coerce`` as it was before the change (read from git
at ``BEFORE``), over every schema of the corpora and the catalogue snapshots with the values
of the validator differential (the suites' own data, values shaped by the schema and near
misses such as a number written as a string), each also with its scalars written as text,
and with hypothesis values.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from benchmarks import validator_differential
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.budget import scaled
from tests.support.corpora import values as corpus_values

from llmapp import explain, validator
from llmapp._results import Validation, ValidationFailure
from llmapp.repair import Coercion, coercer
from llmapp.validate import SchemaError

BEFORE = "be8e0e1"
"""The last commit whose call step repaired every value before checking it."""


def _strict(value: Any) -> Any:
    """A value with its JSON types spelled out: ``1``, ``1.0`` and ``True`` differ."""
    if isinstance(value, dict):
        return ("object", [(key, _strict(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("array", [_strict(item) for item in value])
    return (type(value).__name__, repr(value))


def _outcome(validation: Validation) -> Any:
    if not isinstance(validation, ValidationFailure):
        return (True, _strict(validation.data))
    issues = [
        (issue.path, issue.expected, _strict(issue.value), issue.description)
        for issue in validation.errors
    ]
    return (False, _strict(validation.data), issues, explain.feedback(validation))


def _walks(
    monkeypatch: pytest.MonkeyPatch, schema: Any, value: Any, check: Any
) -> tuple[Any, list[object]]:
    """``checked``'s outcome for ``value`` and every walk the repair pass made on its way."""
    from llmapp.repair import _coerce

    walks: list[object] = []
    walk = _coerce._Walk
    monkeypatch.setattr(_coerce, "_Walk", lambda *args: walks.append(args) or walk(*args))
    return _outcome(coercer(schema).checked(value, check)), walks


def _assert_not_walked(
    monkeypatch: pytest.MonkeyPatch, old_coerce: Callable[[Any, Any], Any], schema: Any, value: Any
) -> None:
    """``checked`` answers ``value`` as the old whole-value repair did, and walks nothing."""
    check = validator(schema)
    expected = _outcome(check(old_coerce(value, schema)))
    outcome, walks = _walks(monkeypatch, schema, value, check)
    assert outcome == expected
    assert walks == []


def _as_text(value: Any, rnd: random.Random) -> Any:
    """The value with some scalars (and containers) written as JSON text: what coerce repairs."""
    if isinstance(value, dict):
        return {key: _as_text(item, rnd) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_text(item, rnd) for item in value]
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value) if rnd.random() < 0.3 else value
    return value


def _cases(count: int) -> Iterator[tuple[str, Any, Callable[[Any], Validation], list[Any]]]:
    for schema_id, schema, made in validator_differential.entries(count, names=True):
        try:
            check = validator(schema)
        except (SchemaError, RecursionError):
            continue
        rnd = random.Random(schema_id)
        yield schema_id, schema, check, [*made, *(_as_text(value, rnd) for value in made)]


@pytest.fixture(scope="module")
def cases() -> list[tuple[str, Any, Callable[[Any], Validation], list[Any]]]:
    return list(_cases(2))


@pytest.fixture(scope="module")
def old_coerce() -> Callable[[Any, Any], Any]:
    """``coerce`` of ``BEFORE``; where git cannot give it, today's whole repair walk, which
    the corpus test shows to be the same wherever both are there."""
    try:
        module = before.load(BEFORE, "llmapp/repair/_coerce.py")
    except pytest.skip.Exception:
        return lambda value, schema: Coercion(schema)(value)
    coerce: Callable[[Any, Any], Any] = module.coerce
    return coerce


@pytest.mark.slow  # about 30 s: every corpus schema compiled; CI runs the slow tests
def test_checked_agrees_with_coerce_then_check_over_the_corpora(
    old_coerce: Callable[[Any, Any], Any], cases: list[Any]
) -> None:
    compared = differences = repaired = 0
    shown: list[str] = []
    for schema_id, schema, check, made in cases:
        coercion = Coercion(schema)
        for value in made:
            assert _strict(coercion(value)) == _strict(old_coerce(value, schema))
            expected = _outcome(check(old_coerce(value, schema)))
            found = _outcome(coercion.checked(value, check))
            compared += 1
            repaired += expected != _outcome(check(value))
            if found != expected:
                differences += 1
                shown.append(f"{schema_id}: {value!r}\n  before {expected!r}\n  now    {found!r}")
    assert compared > 5_000 and repaired > 100, (compared, repaired)
    assert differences == 0, "\n".join(shown[:5])


ORDER = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "items": {
            "type": "array",
            "items": {"$ref": "#/$defs/Item"},
        },
        "note": {"type": "string"},
        "pet": {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}},
                },
                {
                    "type": "object",
                    "properties": {"kind": {"const": "dog"}, "good": {"type": "boolean"}},
                },
            ]
        },
    },
    "required": ["id", "items"],
    "additionalProperties": False,
    "$defs": {
        "Item": {
            "type": "object",
            "properties": {
                "sku": {"type": "string"},
                "quantity": {"type": "integer", "minimum": 1},
                "tags": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["sku", "quantity"],
            "additionalProperties": False,
        }
    },
}


@pytest.mark.budgeted
@settings(max_examples=scaled(60, 150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_checked_agrees_on_arguments_hypothesis_writes(
    old_coerce: Callable[[Any, Any], Any], data: st.DataObject
) -> None:
    rnd = random.Random(data.draw(st.integers(0, 2**32)))
    shaped = corpus_values.guided(ORDER, rnd)
    value = data.draw(
        st.sampled_from([shaped, _as_text(shaped, rnd), *corpus_values.mutations(shaped, rnd, 3)])
        | corpus_values.json_values()
    )
    check = validator(ORDER)
    expected = _outcome(check(old_coerce(value, ORDER)))
    assert _outcome(coercer(ORDER).checked(value, check)) == expected


def test_a_discriminator_whose_branches_share_a_tag_repairs_first() -> None:
    # Coerce enters the mapped branch even where the value is valid under another one:
    # validating first would keep what coerce changes, so this schema repairs first.
    schema = {
        "oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
        "discriminator": {"propertyName": "kind", "mapping": {"a": "#/$defs/A"}},
        "$defs": {
            "A": {
                "type": "object",
                "properties": {"kind": {"type": "string"}, "n": {"type": "integer"}},
            },
            "B": {
                "type": "object",
                "properties": {"kind": {"type": "string"}, "n": {"type": "string"}},
            },
        },
    }
    check = validator(schema)
    assert not coercer(schema)._index.exact_when_valid()
    value = {"kind": "a", "n": "3"}
    assert check(value).success  # valid under the second branch; coerce makes n an integer
    assert _outcome(coercer(schema).checked(value, check)) == _outcome(
        check(coercer(schema)(value))
    )


def test_threads_sharing_a_schema_repair_as_one_thread_does() -> None:
    # The schema's caches fill on first use, under the index's lock: threads that meet a
    # recursive $ref for the first time together must still read it the same way.
    from concurrent.futures import ThreadPoolExecutor

    def schema() -> dict[str, Any]:
        return {
            "$ref": "#/$defs/Node",
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {
                        "n": {"type": "integer"},
                        "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                        "pet": ORDER["properties"]["pet"],  # type: ignore[index]
                    },
                }
            },
        }

    value = {
        "n": "1",
        "kids": [{"n": "2", "kids": [{"n": "3", "pet": {"kind": "cat", "lives": "9"}}]}],
    }
    expected = _strict(Coercion(schema())(value))
    for _ in range(20):
        shared = Coercion(schema())
        check = validator(shared.schema)
        with ThreadPoolExecutor(8) as pool:
            found = list(pool.map(lambda _: _strict(shared(value)), range(32)))
            checked = list(pool.map(lambda _: _outcome(shared.checked(value, check)), range(32)))
        assert found == [expected] * 32
        assert checked == [checked[0]] * 32 and checked[0][0]


TOO_MANY = {
    "type": "object",
    "properties": {
        "rows": {
            "type": "array",
            "items": {"type": "array", "items": {"enum": ["a", "b"]}},
            "maxItems": 3,
        },
        "sizes": {
            "type": "object",
            "additionalProperties": {"type": "integer"},
            "maxProperties": 2,
        },
        "pet": ORDER["properties"]["pet"],  # type: ignore[index]
    },
}


@pytest.mark.parametrize(
    "value",
    [
        {"rows": [["a"], [], ["b", "a"], ["a"]]},
        {"sizes": {"x": 1, "y": 2, "z": 3}},
        {"rows": [[]] * 5, "sizes": {"x": 1, "y": 2, "z": 3}, "pet": {"kind": "dog"}},
    ],
)
def test_a_container_refused_whole_with_valid_members_is_not_walked(
    monkeypatch: pytest.MonkeyPatch, value: Any
) -> None:
    # The issue is the container's own (too many members): repair would walk every
    # member and change none, since the validator refused none of them.
    check = validator(TOO_MANY)
    first = check(value)
    outcome, walks = _walks(monkeypatch, TOO_MANY, value, check)
    assert outcome == _outcome(first)
    assert walks == []


@pytest.mark.parametrize(
    "value",
    [
        {"rows": [["a"], [], ["b", "a"], ['"a"'], [3]]},  # a member refused too
        {"sizes": {"x": "1", "y": 2, "z": 3}},  # a member repaired: "1" is 1
        {"pet": [{"kind": "cat"}]},  # a container where a union is
        {"rows": {"a": 1}},  # an object where an array is
    ],
)
def test_a_container_with_a_member_to_repair_is_still_walked(
    old_coerce: Callable[[Any, Any], Any], value: Any
) -> None:
    check = validator(TOO_MANY)
    expected = _outcome(check(old_coerce(value, TOO_MANY)))
    assert _outcome(coercer(TOO_MANY).checked(value, check)) == expected


@pytest.mark.parametrize(
    "value",
    [
        {"rows": [[{"wrong": True}]], "sizes": {"x": ["1"]}},  # where a string, an integer is
        {"rows": [["a", ["b", "3"]]]},  # an array where an enum's string is
        {"sizes": {"x": {"n": "1", "m": [None, '{"a": 1}']}}},  # nothing in it is repaired
    ],
)
def test_a_container_where_the_schema_says_nothing_of_members_is_not_walked(
    old_coerce: Callable[[Any, Any], Any], monkeypatch: pytest.MonkeyPatch, value: Any
) -> None:
    # Its members would be walked against any schema, which changes nothing.
    _assert_not_walked(monkeypatch, old_coerce, TOO_MANY, value)


OPTIONAL = {
    "type": "object",
    "properties": {
        "owner": {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "minLength": 2},
                        "age": {"type": "integer"},
                        "tags": {"type": "array", "items": {"type": "string"}},
                    },
                    "additionalProperties": False,
                },
                {"type": "null"},
            ]
        },
        "pet": ORDER["properties"]["pet"],  # type: ignore[index]
    },
}


@pytest.mark.parametrize(
    "value",
    [
        {"owner": {"name": "a", "age": 3}},  # too short, nothing to repair
        {"owner": {"name": "ab", "age": {"wrong": True}, "tags": ["x"]}},
        {"owner": {"name": "ab", "age": 3, "extra": [1]}},
    ],
)
def test_an_optional_record_with_nothing_to_repair_is_not_walked(
    old_coerce: Callable[[Any, Any], Any], monkeypatch: pytest.MonkeyPatch, value: Any
) -> None:
    # The union is ``X | None`` and the value an object: repair would take X and walk it.
    _assert_not_walked(monkeypatch, old_coerce, OPTIONAL, value)


IN_OPTIONAL = {
    "type": "object",
    "properties": {
        "price": {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {
                        "owner": {
                            "anyOf": [
                                {"type": "string", "format": "time"},
                                {"type": "string", "format": "date"},
                            ]
                        },
                        "count": {"type": "integer"},
                    },
                    "required": ["owner"],
                    "additionalProperties": False,
                },
                {"type": "null"},
            ]
        }
    },
}


@pytest.mark.parametrize(
    "value",
    [
        {"price": {"owner": {"wrong": True}, "unexpected": 1}},  # an object where texts are
        {"price": {"owner": [{"n": "1"}], "count": 2}},  # an array there
    ],
)
def test_a_union_no_branch_enters_inside_an_optional_record_is_not_walked(
    old_coerce: Callable[[Any, Any], Any], monkeypatch: pytest.MonkeyPatch, value: Any
) -> None:
    # The optional record is walked whole by repair, and in it the union at the issue
    # takes its container by no branch: nothing changes (``Money | None`` with a union of
    # time formats in it, the corpus's ``tool_020``).
    _assert_not_walked(monkeypatch, old_coerce, IN_OPTIONAL, value)


@pytest.mark.parametrize(
    "value",
    [
        {"price": {"owner": {"wrong": True}, "count": "2"}},  # "2" is repaired beside it
        {"price": {"owner": '"10:00:00Z"'}},  # a string: the union takes it
    ],
)
def test_an_optional_record_around_a_union_with_a_member_to_repair_is_still_checked_alike(
    old_coerce: Callable[[Any, Any], Any], value: Any
) -> None:
    check = validator(IN_OPTIONAL)
    expected = _outcome(check(old_coerce(value, IN_OPTIONAL)))
    assert _outcome(coercer(IN_OPTIONAL).checked(value, check)) == expected


@pytest.mark.parametrize(
    "value",
    [
        {"owner": {"name": "a", "age": "3"}},  # "3" is repaired beside the refusal
        {"owner": {"name": "a", "tags": '["x"]'}},  # a stringified list beside it
        {"owner": [{"name": "ab"}]},  # an array where the record or null is
        {"pet": {"kind": "cat", "lives": {"wrong": True}}},  # a union of two records
    ],
)
def test_an_optional_record_with_a_member_to_repair_is_still_walked(
    old_coerce: Callable[[Any, Any], Any], value: Any
) -> None:
    check = validator(OPTIONAL)
    expected = _outcome(check(old_coerce(value, OPTIONAL)))
    assert _outcome(coercer(OPTIONAL).checked(value, check)) == expected


AT_END = {
    "type": "object",
    "properties": {
        "tokens": {
            "anyOf": [
                {"type": "array", "items": {"type": "string", "maxLength": 5}, "maxItems": 3},
                {"type": "null"},
            ]
        },
        "counts": {
            "anyOf": [
                {
                    "type": "object",
                    "additionalProperties": {"type": "integer"},
                    "maxProperties": 2,
                },
                {"type": "null"},
            ]
        },
        "loose": {"anyOf": [{"type": "array", "maxItems": 1}, {"type": "null"}]},
    },
}


@pytest.mark.parametrize(
    "value",
    [
        {"tokens": ["a", "b", "c", "d"]},  # too many, each valid
        {"counts": {"x": 1, "y": 2, "z": 3}},
        {"loose": [{"n": "1"}, ["2"]]},  # members of any schema: never changed
        {"tokens": ["a", "b", "c", "d"], "counts": {"x": 1, "y": 2, "z": 3}},
    ],
)
def test_an_optional_container_refused_whole_is_not_walked(
    old_coerce: Callable[[Any, Any], Any], monkeypatch: pytest.MonkeyPatch, value: Any
) -> None:
    # The issue is at the optional container itself: repair would take its one branch
    # and walk every member, changing none, since the validator refused none of them.
    _assert_not_walked(monkeypatch, old_coerce, AT_END, value)


@pytest.mark.parametrize(
    "value",
    [
        {"tokens": ["a", "b", "c", "toolong"]},  # a member refused too
        {"tokens": ["a", "b", "c", 4]},  # a member repaired: 4 is "4"
        {"counts": {"x": "1", "y": 2, "z": 3}},  # "1" is 1
        {"counts": ["x"]},  # an array where the object or null is
        {"tokens": {"a": "b"}},  # an object where the array or null is
    ],
)
def test_an_optional_container_with_a_member_to_repair_is_still_walked(
    old_coerce: Callable[[Any, Any], Any], value: Any
) -> None:
    check = validator(AT_END)
    expected = _outcome(check(old_coerce(value, AT_END)))
    assert _outcome(coercer(AT_END).checked(value, check)) == expected


TAGGED = {
    "type": "object",
    "properties": {
        "weight": {"type": "array", "items": {"enum": ["a", "b"]}},
        "due": {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {
                        "kind": {"const": "card"},
                        "when": {"type": "array", "items": {"type": "string"}},
                        "status": {"type": "integer"},
                    },
                    "required": ["kind"],
                },
                {
                    "type": "object",
                    "properties": {"kind": {"const": "cash"}, "tags": {"type": "number"}},
                    "required": ["kind"],
                },
                {"type": "null"},
            ]
        },
        "end": {"type": "boolean"},
        "at": {"anyOf": [{"type": "string", "format": "date"}, {"type": "integer"}]},
    },
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    "value",
    [
        {"due": {"kind": "none of them", "when": ["x", "1", 2], "tags": "3"}},
        {"due": {"kind": 7, "status": "9"}, "extra": 1},
        {"at": {"wrong": True, "n": "1"}},  # an object where no branch takes one
        {"at": [["2024-01-01"]], "end": True},
    ],
)
def test_a_union_no_branch_of_which_repair_can_enter_is_not_walked(
    old_coerce: Callable[[Any, Any], Any], monkeypatch: pytest.MonkeyPatch, value: Any
) -> None:
    # Repair enters a union by one chosen branch; with none (a tag no branch has), it walks
    # the container's members against any schema, which changes nothing.
    _assert_not_walked(monkeypatch, old_coerce, TAGGED, value)


@pytest.mark.parametrize(
    "value",
    [
        # a string where an array is (repair reads it) beside an issue it cannot change
        {"weight": '["a"]', "due": {"kind": "none", "when": ["x", 2]}, "end": 1},
        {"weight": "not a container", "due": {"kind": "none"}, "end": 1},
        {"weight": ' \n["a"]', "due": {"kind": "none"}, "end": 1},
        {"weight": '"[]"', "end": "maybe", "at": "1.5"},  # text that may hold a string of one
        {"weight": ["a", "c"], "due": {"kind": "card", "status": "9"}},  # a branch is chosen
        {"due": {"kind": "cash", "tags": "3.5"}, "end": "true"},
        {"at": "7", "due": {"kind": "none"}},  # a string where the integer branch is
    ],
)
def test_only_the_issues_a_repair_may_change_are_walked_to(
    old_coerce: Callable[[Any, Any], Any], monkeypatch: pytest.MonkeyPatch, value: Any
) -> None:
    from llmapp.repair import _coerce

    check = validator(TAGGED)
    expected = _outcome(check(old_coerce(value, TAGGED)))
    walked: list[Any] = []
    walk = _coerce._Walk

    def counted(index: Any, children: Any = None, at: Any = None) -> Any:
        walked.append(set(at or ()))
        return walk(index, children, at)

    monkeypatch.setattr(_coerce, "_Walk", counted)
    assert _outcome(coercer(TAGGED).checked(value, check)) == expected
    if value.get("weight") == "not a container":
        # Neither the unchosen union's issue nor a text that reads as no array is walked to.
        assert walked == []
    if value.get("weight") in ('["a"]', ' \n["a"]'):
        assert walked == [{("weight",)}]  # text that may hold an array is read


DISCRIMINATED = {
    "type": "object",
    "properties": {
        "limit": {
            "type": "array",
            "items": {
                "anyOf": [{"$ref": "#/$defs/Cash"}, {"$ref": "#/$defs/Crypto"}],
                "discriminator": {
                    "propertyName": "kind",
                    "mapping": {"cash": "#/$defs/Cash", "crypto": "#/$defs/Crypto"},
                },
            },
            "maxItems": 3,
        }
    },
    "required": ["limit"],
    "additionalProperties": False,
    "$defs": {
        "Cash": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["cash"]},
                "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}},
                "count": {"type": "integer"},
            },
            "required": ["kind", "tags"],
            "additionalProperties": False,
        },
        "Crypto": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["crypto"]},
                "email": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
                "note": {"type": "string"},
            },
            "required": ["kind", "email"],
            "additionalProperties": False,
        },
    },
}


@pytest.mark.parametrize(
    "value",
    [
        {"limit": [{"kind": "crypto"}]},  # a required member left out (the corpus's tool_080)
        {"limit": [{"kind": "crypto", "email": {"wrong": True}}], "unexpected": 1},
        {"limit": [{"kind": "cash", "tags": ["a", "long one"], "count": 2}]},
        {"limit": [{"kind": "cash", "tags": []}, {"kind": "crypto", "email": [1]}]},
        {"limit": [{"kind": "crypto", "email": 1, "note": "x", "more": None}]},
    ],
)
def test_a_branch_a_declared_discriminator_names_with_nothing_to_repair_is_not_walked(
    old_coerce: Callable[[Any, Any], Any], monkeypatch: pytest.MonkeyPatch, value: Any
) -> None:
    # The validator walks the branch the tag names, and so does repair, whole: its other
    # members are valid, so only the issues' own values could change, and none does.
    _assert_not_walked(monkeypatch, old_coerce, DISCRIMINATED, value)


@pytest.mark.parametrize(
    "value",
    [
        {"limit": [{"kind": "crypto", "email": "3"}]},  # "3" is 3 where the branch says so
        {"limit": [{"kind": "crypto", "email": "true", "note": 4}]},
        {"limit": [{"kind": "cash", "tags": '["a"]', "count": {"n": 1}}]},  # read beside
        {"limit": [{"kind": "cash", "tags": ["a"], "count": "7"}], "extra": 1},
        {"limit": [{"kind": "none", "email": "3"}]},  # a tag no branch has
        {"limit": [{"email": "3", "tags": "x"}]},  # no tag
        {"limit": [{"kind": 7, "email": "3"}]},  # a tag that is no text
        {"limit": [["crypto"]]},  # an array where a record is
    ],
)
def test_a_branch_a_declared_discriminator_names_with_a_member_to_repair_is_checked_alike(
    old_coerce: Callable[[Any, Any], Any], value: Any
) -> None:
    check = validator(DISCRIMINATED)
    expected = _outcome(check(old_coerce(value, DISCRIMINATED)))
    assert _outcome(coercer(DISCRIMINATED).checked(value, check)) == expected
