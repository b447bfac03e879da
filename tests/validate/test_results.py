"""The result classes behave as frozen dataclasses: fields, equality, hash, repr, immutability."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import typing
from typing import Any

import pytest

from llmapp.validate import (
    UNDEFINED,
    ValidationFailure,
    ValidationIssue,
    ValidationSuccess,
    validator,
)

ISSUE = ValidationIssue("$input.age", "integer & Minimum<0>", -1)
FAILURE = ValidationFailure({"age": -1}, [ISSUE])
SUCCESS = ValidationSuccess({"age": 1})


def test_fields_read_back() -> None:
    assert (ISSUE.path, ISSUE.expected, ISSUE.value, ISSUE.description) == (
        "$input.age",
        "integer & Minimum<0>",
        -1,
        None,
    )
    described = ValidationIssue(path="$input", expected="x", value=1, description="why")
    assert described.description == "why"
    assert SUCCESS.data == {"age": 1} and SUCCESS.success is True
    assert FAILURE.data == {"age": -1} and FAILURE.errors == [ISSUE]
    assert FAILURE.success is False


def test_repr_is_the_dataclass_repr() -> None:
    assert repr(ISSUE) == (
        "ValidationIssue(path='$input.age', expected='integer & Minimum<0>', value=-1, "
        "description=None)"
    )
    assert repr(SUCCESS) == "ValidationSuccess(data={'age': 1}, success=True)"
    assert (
        repr(FAILURE) == f"ValidationFailure(data={{'age': -1}}, errors=[{ISSUE!r}], success=False)"
    )
    missing = ValidationIssue("$input.name", "string", UNDEFINED)
    assert repr(missing).endswith("value=undefined, description=None)")


def test_equality_and_hash_by_value_and_class() -> None:
    twin = ValidationIssue("$input.age", "integer & Minimum<0>", -1, None)
    assert ISSUE == twin and hash(ISSUE) == hash(twin)
    assert ISSUE != ValidationIssue("$input.age", "integer & Minimum<0>", -1, "why")
    assert ISSUE != ("$input.age", "integer & Minimum<0>", -1, None)
    assert ValidationSuccess(1) == ValidationSuccess(1) != ValidationSuccess(2)
    assert hash(ValidationSuccess(1)) == hash(ValidationSuccess(1))
    assert ValidationSuccess(1) != ValidationFailure(1, [])
    assert FAILURE == ValidationFailure({"age": -1}, [twin])
    with pytest.raises(TypeError):
        hash(FAILURE)  # errors is a list, as with the dataclass


@pytest.mark.parametrize("result", [ISSUE, SUCCESS, FAILURE])
def test_fields_cannot_be_assigned_or_added(result: Any) -> None:
    for name in (*(f.name for f in dataclasses.fields(result)), "success", "extra"):
        if hasattr(result, name) or name == "extra":
            with pytest.raises(AttributeError):
                setattr(result, name, 0)
    with pytest.raises(AttributeError):
        delattr(result, dataclasses.fields(result)[0].name)


def test_dataclass_functions_still_work() -> None:
    assert dataclasses.is_dataclass(ISSUE) and dataclasses.is_dataclass(ValidationFailure)
    assert [f.name for f in dataclasses.fields(ISSUE)] == [
        "path",
        "expected",
        "value",
        "description",
    ]
    assert [f.name for f in dataclasses.fields(SUCCESS)] == ["data", "success"]
    assert dataclasses.asdict(FAILURE) == {
        "data": {"age": -1},
        "errors": [
            {
                "path": "$input.age",
                "expected": "integer & Minimum<0>",
                "value": -1,
                "description": None,
            }
        ],
        "success": False,
    }
    assert dataclasses.replace(ISSUE, description="why") == ValidationIssue(
        "$input.age", "integer & Minimum<0>", -1, "why"
    )
    assert dataclasses.replace(SUCCESS, data=2) == ValidationSuccess(2)
    assert typing.get_type_hints(ValidationIssue)["path"] is str


@pytest.mark.parametrize("result", [ISSUE, SUCCESS, FAILURE])
def test_copies_and_pickles_are_equal(result: Any) -> None:
    assert copy.copy(result) == result
    assert copy.deepcopy(result) == result
    assert pickle.loads(pickle.dumps(result)) == result


def test_pattern_matching_by_position() -> None:
    match ISSUE:
        case ValidationIssue(path, expected):
            assert (path, expected) == ("$input.age", "integer & Minimum<0>")
        case _:
            pytest.fail("no match")
    match FAILURE:
        case ValidationFailure(data, [ValidationIssue(path)]):
            assert path == "$input.age" and data == {"age": -1}
        case _:
            pytest.fail("no match")


def test_validators_return_these_classes() -> None:
    check = validator({"type": "integer"})
    success, failure = check(1), check("x")
    assert type(success) is ValidationSuccess and success == ValidationSuccess(1)
    assert type(failure) is ValidationFailure
    assert failure == ValidationFailure("x", [ValidationIssue("$input", "integer", "x")])
    assert ValidationSuccess[int](3).data == 3
