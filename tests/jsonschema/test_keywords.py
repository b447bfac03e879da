"""The keyword table and what is derived from it."""

from __future__ import annotations

from llmapp.jsonschema import KEYWORDS, keywords, subschemas


def test_subschema_keywords_come_from_the_table_in_walk_order() -> None:
    assert keywords(shape="schema-list") == ("prefixItems", "items", "allOf", "anyOf", "oneOf")
    assert keywords(shape="schema")[:3] == ("additionalProperties", "items", "contains")
    assert "properties" in keywords(shape="schema-map")


def test_families_and_labels() -> None:
    assert set(keywords(family="number", labelled=True)) == {
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    }
    assert KEYWORDS["minLength"].label == "MinLength"
    assert KEYWORDS["type"].family is None


def test_subschemas_follow_every_shape_of_the_table() -> None:
    schema = {
        "properties": {"a/b": {"type": "string"}},
        "items": [{"type": "integer"}],
        "not": False,
        "anyOf": [{}, 3],
        "title": {"not": "a schema"},
    }
    found = {tokens: sub for tokens, sub in subschemas(schema)}
    assert found == {
        ("not",): False,
        ("items", "0"): {"type": "integer"},
        ("anyOf", "0"): {},
        ("properties", "a/b"): {"type": "string"},
    }
