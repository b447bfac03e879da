"""Discriminators: declared by the schema, or inferred from const/enum tags."""

from __future__ import annotations

from typing import Any

from llmapp.jsonschema import discriminator, resolve_pointer

ROOT: dict[str, Any] = {
    "$defs": {
        "Cat": {"type": "object", "properties": {"kind": {"const": "cat"}, "lives": {}}},
        "Dog": {"type": "object", "properties": {"kind": {"enum": ["dog", "puppy"]}}},
        "Cow": {"type": "object", "properties": {"moo": {"type": "boolean"}}},
    }
}


def resolve(ref: str) -> Any:
    return resolve_pointer(ROOT, ref, fragment=True)


BRANCHES = [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]


def test_inferred_from_const_and_enum_through_refs() -> None:
    found = discriminator({"anyOf": BRANCHES}, BRANCHES, resolve)
    assert found is not None
    assert (found.property, dict(found.mapping), found.declared) == (
        "kind",
        {"cat": 0, "dog": 1, "puppy": 1},
        False,
    )
    assert found.values() == ["cat", "dog", "puppy"]


def test_no_discriminator_when_a_branch_has_no_tag_or_tags_collide() -> None:
    branches = [*BRANCHES, {"$ref": "#/$defs/Cow"}]
    assert discriminator({"anyOf": branches}, branches, resolve) is None
    same = [{"properties": {"k": {"const": "a"}}}, {"properties": {"k": {"const": "a"}}}]
    assert discriminator({"anyOf": same}, same) is None


def test_declared_mapping_and_implicit_names() -> None:
    union = {
        "oneOf": BRANCHES,
        "discriminator": {"propertyName": "kind", "mapping": {"kitty": "#/$defs/Cat"}},
    }
    found = discriminator(union, BRANCHES, resolve)
    assert found is not None and found.declared
    assert dict(found.mapping) == {"kitty": 0, "cat": 0, "dog": 1, "puppy": 1}
    cows = [{"$ref": "#/$defs/Cow"}]
    implicit = discriminator({"oneOf": cows, "discriminator": {"propertyName": "t"}}, cows, resolve)
    assert implicit is not None and dict(implicit.mapping) == {"Cow": 0}
