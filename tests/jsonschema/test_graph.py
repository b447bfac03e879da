"""``llmapp.jsonschema``'s schema graph: subschemas, referenced and recursive definitions."""

from __future__ import annotations

from llmapp.jsonschema import recursive_definitions, referenced_definitions, walk

DEFS = {
    "Tree": {"type": "object", "properties": {"children": {"items": {"$ref": "#/$defs/Tree"}}}},
    "Even": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Odd"}]},
    "Odd": {"properties": {"next": {"$ref": "#/$defs/Even"}}},
    "Leaf": {"properties": {"tree": {"$ref": "#/$defs/Tree"}}},
    "Data": {"const": {"$ref": "#/$defs/Data"}, "default": {"$ref": "#/$defs/Data"}},
}


def test_a_definition_reaching_itself_directly_or_through_others_is_recursive() -> None:
    assert recursive_definitions(DEFS) == {"Tree", "Even", "Odd"}


def test_a_definition_that_only_reaches_a_recursive_one_is_not() -> None:
    assert "Leaf" not in recursive_definitions(DEFS)


def test_references_inside_data_are_not_references() -> None:
    assert referenced_definitions(DEFS["Data"]) == set()
    assert "Data" not in recursive_definitions(DEFS)


def test_referenced_definitions_are_the_direct_ones() -> None:
    assert referenced_definitions(DEFS["Leaf"]) == {"Tree"}
    assert referenced_definitions({"$ref": "#/$defs/Even"}) == {"Even"}


def test_walk_yields_every_subschema_with_its_pointer_tokens() -> None:
    found = [tokens for tokens, _ in walk(DEFS["Tree"])]
    assert found == [(), ("properties", "children"), ("properties", "children", "items")]
