"""Declared types, the JSON type of a value, schemas that accept anything."""

from __future__ import annotations

import math
from collections import OrderedDict

import pytest

from llmapp.jsonschema import KEYWORDS, accepts_anything, declared_types, json_type


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, "null"),
        (True, "boolean"),
        (0, "integer"),
        (3.0, "integer"),
        (3.5, "number"),
        (math.nan, None),
        (math.inf, None),
        ("x", "string"),
        ([1], "array"),
        ((1,), "array"),
        ({}, "object"),
        (OrderedDict(), "object"),
        (object(), None),
        (b"x", None),
    ],
)
def test_json_type_has_one_rule(value: object, expected: str | None) -> None:
    assert json_type(value) == expected


def test_declared_types() -> None:
    assert declared_types({}) is None
    assert declared_types({"type": "string"}) == {"string"}
    assert declared_types({"type": ["string", "null", 3]}) == {"string", "null"}


@pytest.mark.parametrize("schema", [True, {}, {"title": "x", "x-any": 1}, {"description": "d"}])
def test_accepts_anything(schema: object) -> None:
    assert accepts_anything(schema)


@pytest.mark.parametrize(
    "schema", [False, {"minLength": 3}, {"$ref": "#/$defs/A"}, {"anyOf": []}, {"type": "string"}]
)
def test_does_not_accept_anything(schema: object) -> None:
    assert not accepts_anything(schema)


def test_every_assertion_and_applicator_keyword_counts_as_constraining() -> None:
    for name, row in KEYWORDS.items():
        assert accepts_anything({name: 1}) is (not row.validates), name
