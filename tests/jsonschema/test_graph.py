"""``llmapp.jsonschema``'s schema graph: subschemas, referenced and recursive definitions."""

from __future__ import annotations

from llmapp.jsonschema import (
    reachable_definitions,
    recursive_definitions,
    referenced_definitions,
    walk,
)

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


def test_reachable_definitions_follow_references_through_definitions() -> None:
    assert reachable_definitions({"$ref": "#/$defs/Leaf"}, DEFS) == {"Leaf", "Tree"}
    assert reachable_definitions({"$ref": "#/$defs/Missing"}, DEFS) == set()
    assert reachable_definitions(DEFS["Data"], DEFS) == set()


def test_skipped_subschemas_are_not_looked_into() -> None:
    schema = {
        "properties": {
            "mine": {"$ref": "#/$defs/Even"},
            "theirs": {"x-human": True, "items": {"$ref": "#/$defs/Tree"}},
        }
    }
    human = lambda node: node.get("x-human") is True  # noqa: E731
    assert reachable_definitions(schema, DEFS) == {"Even", "Odd", "Tree"}
    assert reachable_definitions(schema, DEFS, human) == {"Even", "Odd"}
    assert [tokens for tokens, _ in walk(schema, (), human)] == [(), ("properties", "mine")]
