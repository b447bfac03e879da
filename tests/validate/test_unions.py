"""Unions explain their best branch: by discriminator, else by type and keys, else fewest issues."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from llmapp.validate import UNDEFINED, ValidationIssue

CAT = {
    "type": "object",
    "properties": {
        "kind": {"const": "cat"},
        "lives": {"type": "integer"},
        "name": {"type": "string"},
    },
    "required": ["kind", "lives"],
    "additionalProperties": False,
}
DOG = {
    "type": "object",
    "properties": {
        "kind": {"const": "dog"},
        "bark": {"type": "string"},
        "name": {"type": "string"},
    },
    "required": ["kind", "bark"],
    "additionalProperties": False,
}
DEFS = {"Cat": CAT, "Dog": DOG}
BRANCHES = [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]


def pets(keyword: str = "anyOf", **extra: Any) -> dict[str, Any]:
    return {"$defs": DEFS, keyword: BRANCHES, **extra}


def issues(result: Any) -> list[tuple[str, str, Any]]:
    return [(e.path, e.expected, e.value) for e in result.errors]


@pytest.mark.parametrize("keyword", ["anyOf", "oneOf"])
def test_the_branch_whose_keys_match_is_explained(
    compile: Callable[..., Any], keyword: str
) -> None:
    check = compile(pets(keyword))
    assert check({"kind": "dog", "bark": "woof"}).success
    assert issues(check({"kind": "dog", "bark": 3})) == [("$input.bark", "string", 3)]
    assert issues(check({"kind": "cat", "lives": "9"})) == [("$input.lives", "integer", "9")]
    assert issues(check({"kind": "cat"})) == [("$input.lives", "integer", UNDEFINED)]


def test_a_value_no_branch_can_take_gets_the_union_text(compile: Callable[..., Any]) -> None:
    check = compile(pets())
    assert issues(check(5)) == [("$input", "(Cat | Dog)", 5)]


def test_nullable_ref_explains_the_object(compile: Callable[..., Any]) -> None:
    schema = {"$defs": DEFS, "anyOf": [{"$ref": "#/$defs/Cat"}, {"type": "null"}]}
    check = compile(schema)
    assert check(None).success
    assert issues(check({"kind": "cat", "lives": 1.5})) == [("$input.lives", "integer", 1.5)]
    assert issues(check("cat")) == [("$input", "(Cat | null)", "cat")]


def test_type_arrays_and_scalar_unions_report_once(compile: Callable[..., Any]) -> None:
    check = compile(
        {"anyOf": [{"type": "string", "format": "email"}, {"type": "string", "format": "uuid"}]}
    )
    assert issues(check("x")) == [
        ("$input", '(string & Format<"email"> | string & Format<"uuid">)', "x")
    ]
    check = compile({"anyOf": [{"type": "string", "format": "email"}, {"type": "null"}]})
    assert issues(check("x")) == [("$input", 'string & Format<"email">', "x")]


@pytest.mark.parametrize("spelling", ["discriminator", "x-discriminator"])
def test_discriminator_picks_the_branch(compile: Callable[..., Any], spelling: str) -> None:
    check = compile(pets("oneOf", **{spelling: {"propertyName": "kind"}}))
    # Without the discriminator the dog branch would match best (bark present).
    assert issues(check({"kind": "cat", "bark": "woof"})) == [
        ("$input.lives", "integer", UNDEFINED),
        ("$input.bark", "undefined", "woof"),
    ]
    assert issues(check({"kind": "cow"})) == [("$input.kind", '("cat" | "dog")', "cow")]
    assert issues(check({"bark": "woof"})) == [("$input.kind", '("cat" | "dog")', UNDEFINED)]


def test_discriminator_mapping_and_implicit_names(compile: Callable[..., Any]) -> None:
    cat = {k: v for k, v in CAT.items()}
    cat["properties"] = {**CAT["properties"], "kind": {"type": "string"}}
    dog = {k: v for k, v in DOG.items()}
    dog["properties"] = {**DOG["properties"], "kind": {"type": "string"}}
    mapped = {
        "$defs": {"Cat": cat, "Dog": dog},
        "oneOf": BRANCHES,
        "discriminator": {
            "propertyName": "kind",
            "mapping": {"meow": "#/$defs/Cat", "woof": "#/$defs/Dog"},
        },
    }
    check = compile(mapped)
    assert issues(check({"kind": "woof", "bark": 1})) == [("$input.bark", "string", 1)]
    implicit = {**mapped, "discriminator": {"propertyName": "kind"}}
    check = compile(implicit)
    assert issues(check({"kind": "Cat", "lives": "x"})) == [("$input.lives", "integer", "x")]


def test_ties_are_broken_by_the_fewest_issues(compile: Callable[..., Any]) -> None:
    schema = {
        "anyOf": [
            {"type": "array", "items": {"type": "string"}},
            {"type": "array", "items": {"type": "integer"}},
        ]
    }
    check = compile(schema)
    assert issues(check([1, 2, "x"])) == [("$input[2]", "integer", "x")]
    assert issues(check(["a", 2, "b"])) == [("$input[1]", "string", 2)]


def test_one_of_matching_twice(compile: Callable[..., Any]) -> None:
    check = compile({"oneOf": [{"type": "integer"}, {"minimum": 2}]})
    assert check(1).success
    result = check(3)
    assert result.errors == [
        ValidationIssue(
            "$input",
            "(integer | number & Minimum<2>)",
            3,
            "matches more than one of the oneOf alternatives",
        )
    ]


def test_all_of_reports_every_branch(compile: Callable[..., Any]) -> None:
    check = compile({"allOf": [{"type": "object", "required": ["a"]}, {"required": ["b"]}]})
    assert [e.path for e in check({}).errors] == ["$input.a", "$input.b"]


def test_if_then_else(compile: Callable[..., Any]) -> None:
    schema = {
        "type": "object",
        "if": {"properties": {"country": {"const": "US"}}},
        "then": {"required": ["zip"]},
        "else": {"required": ["postcode"]},
    }
    check = compile(schema)
    assert [e.path for e in check({"country": "US"}).errors] == ["$input.zip"]
    assert [e.path for e in check({"country": "FR"}).errors] == ["$input.postcode"]
    assert check({"country": "FR", "postcode": "75001"}).success


def test_a_scalar_outside_a_listing_gets_the_whole_union_text() -> None:
    from llmapp import validator

    nullable_enum = {
        "anyOf": [{"type": "string", "enum": ["low", "high"]}, {"type": "null"}],
    }
    failure = validator(nullable_enum)("LOW")
    assert [(i.path, i.expected, i.value) for i in failure.errors] == [
        ("$input", '("low" | "high" | null)', "LOW")
    ]
    mixed = {"anyOf": [{"const": 1}, {"const": "one"}, {"type": "null"}]}
    assert [i.expected for i in validator(mixed)(2).errors] == ['(1 | "one" | null)']
    # a branch that is a type, not a listing, still explains itself
    bounded = {"anyOf": [{"type": "integer", "minimum": 5}, {"type": "null"}]}
    assert [i.expected for i in validator(bounded)(2).errors] == ["integer & Minimum<5>"]
