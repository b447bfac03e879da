"""``Validator.refusal`` answers a value ``valid`` refused as the validator's call does."""

from __future__ import annotations

from typing import Any

import pytest

from llmapp import validator

TREE = {
    "$defs": {
        "node": {
            "type": "object",
            "properties": {
                "label": {"type": "string", "pattern": "^[a-z]+(-[a-z]+)*$"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            },
            "required": ["label"],
            "additionalProperties": False,
        }
    },
    "$ref": "#/$defs/node",
}
FLAT = {
    "type": "object",
    "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "maximum": 9}},
    "required": ["query"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("schema", "value"),
    [
        (FLAT, {"query": 5, "limit": 10, "x": 1}),
        (FLAT, []),
        (TREE, {"label": "a", "children": [{"label": "B"}, {"children": []}]}),
        (TREE, {"label": "a", "children": [{"label": "b", "children": [{"label": 1}]}]}),
    ],
)
def test_a_refusal_is_the_calls_own_failure(schema: dict[str, Any], value: Any) -> None:
    check = validator(schema)
    assert not check.valid(value)
    assert check.refusal(value) == check(value)
    assert not check.refusal(value).success
