"""coerce: a null for an optional property that cannot be null means "not given"."""

from __future__ import annotations

from llmapp import coerce

SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "limit": {"type": "integer", "default": 10},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "item": {"$ref": "#/$defs/Item"},
    },
    "required": ["query"],
    "additionalProperties": False,
    "$defs": {
        "Item": {
            "type": "object",
            "properties": {"sku": {"type": "string"}, "quantity": {"type": "integer"}},
            "required": ["sku"],
        }
    },
}


def test_null_for_optional_non_nullable_is_dropped():
    data = {"query": "x", "limit": None, "note": None, "item": {"sku": "a", "quantity": None}}
    assert coerce(data, SCHEMA) == {"query": "x", "note": None, "item": {"sku": "a"}}
    assert data["limit"] is None  # the input is not mutated


def test_null_for_required_or_undeclared_stays():
    assert coerce({"query": None}, SCHEMA) == {"query": None}
    assert coerce({"query": "x", "extra": None}, SCHEMA) == {"query": "x", "extra": None}
    assert coerce({"query": "x", "item": {"sku": None}}, SCHEMA) == {
        "query": "x",
        "item": {"sku": None},
    }
