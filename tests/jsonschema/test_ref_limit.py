"""Every stage follows a chain of ``$ref``s as far as ``MAX_REF_HOPS``, and no further.

Each schema here holds a chain of references, from a property to an integer (or a
tagged object); at the limit every stage reads through it, one past the limit every
stage treats it as a reference that cannot be followed.
"""

from __future__ import annotations

from typing import Any

import pytest

import llmapp
from llmapp._limits import MAX_REF_DEPTH
from llmapp.jsonschema import MAX_REF_HOPS, Resolver
from llmapp.schema._discriminators import declare_discriminators
from llmapp.validate import SchemaError
from llmapp.vendors._subset import inline_refs
from llmapp.vendors.openai import problems

AT_LIMIT = MAX_REF_HOPS
PAST_LIMIT = MAX_REF_HOPS + 1


def chain(prefix: str, refs: int, end: Any) -> dict[str, Any]:
    """Definitions ``prefix0 .. prefix{refs-1}`` such that ``#/$defs/{prefix}0`` starts a
    chain of ``refs`` references (counting that one) ending at ``end``."""
    defs: dict[str, Any] = {
        f"{prefix}{i}": {"$ref": f"#/$defs/{prefix}{i + 1}"} for i in range(refs - 1)
    }
    defs[f"{prefix}{refs - 1}"] = end
    return defs


def parameters(refs: int) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/d0"}},
        "required": ["x"],
        "additionalProperties": False,
        "$defs": chain("d", refs, {"type": "integer"}),
    }


def test_the_validator_bound_is_the_shared_limit() -> None:
    assert MAX_REF_DEPTH == MAX_REF_HOPS


def test_resolver_chases_to_the_limit_and_not_past_it() -> None:
    at = parameters(AT_LIMIT)
    node = Resolver(at).chase("#/$defs/d0", "urn:llmapp:root")
    assert node is not None and node.schema == {"type": "integer"}
    past = parameters(PAST_LIMIT)
    assert Resolver(past).chase("#/$defs/d0", "urn:llmapp:root") is None


def test_a_cycle_of_references_cannot_be_chased() -> None:
    schema = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}
    assert Resolver(schema).chase("#/$defs/a", "urn:llmapp:root") is None


def test_validator_builds_at_the_limit_and_refuses_past_it() -> None:
    check = llmapp.validator(parameters(AT_LIMIT))
    assert check({"x": 1}).success
    assert not check({"x": "a"}).success
    with pytest.raises(SchemaError, match="\\$ref"):
        llmapp.validator(parameters(PAST_LIMIT))


def test_coerce_repairs_at_the_limit_and_leaves_the_value_past_it() -> None:
    assert llmapp.coerce({"x": "3"}, parameters(AT_LIMIT)) == {"x": 3}
    assert llmapp.coerce({"x": "3"}, parameters(PAST_LIMIT)) == {"x": "3"}


def tagged_union(refs: int) -> dict[str, Any]:
    def pet(tag: str) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"kind": {"const": tag}},
            "required": ["kind"],
        }

    return {
        "type": "object",
        "properties": {
            "pet": {"anyOf": [{"$ref": "#/$defs/cat0"}, {"$ref": "#/$defs/dog0"}]},
        },
        "$defs": {**chain("cat", refs, pet("cat")), **chain("dog", refs, pet("dog"))},
    }


def test_a_discriminator_is_inferred_to_the_limit_and_not_past_it() -> None:
    at = tagged_union(AT_LIMIT)
    declare_discriminators(at)
    assert at["properties"]["pet"]["discriminator"] == {
        "propertyName": "kind",
        "mapping": {"cat": "#/$defs/cat0", "dog": "#/$defs/dog0"},
    }
    past = tagged_union(PAST_LIMIT)
    declare_discriminators(past)
    assert "discriminator" not in past["properties"]["pet"]


def test_inlining_reaches_the_end_at_the_limit_and_keeps_the_reference_past_it() -> None:
    inlined, cyclic = inline_refs(parameters(AT_LIMIT))
    assert inlined["properties"]["x"] == {"type": "integer"}
    assert "$defs" not in inlined and cyclic == set()
    kept, cyclic = inline_refs(parameters(PAST_LIMIT))
    assert "$ref" in kept["properties"]["x"] and "$defs" in kept and cyclic == set()


def test_openai_accepts_a_chain_at_the_limit_and_names_one_past_it() -> None:
    assert problems(parameters(AT_LIMIT)) == []
    refused = problems(parameters(PAST_LIMIT))
    assert refused == [
        f"/properties/x: $ref '#/$defs/d0' cannot be followed (broken, or over {MAX_REF_HOPS} hops)"
    ]


def test_openai_names_a_reference_that_points_at_nothing() -> None:
    schema = {
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/gone"}},
        "required": ["x"],
        "additionalProperties": False,
    }
    assert problems(schema) == [
        f"/properties/x: $ref '#/$defs/gone' cannot be followed (broken, or over {MAX_REF_HOPS} hops)"
    ]


def openapi_document(refs: int) -> dict[str, Any]:
    """An operation whose one parameter is a chain of ``refs`` parameter references."""
    parameters: dict[str, Any] = {
        f"p{i}": {"$ref": f"#/components/parameters/p{i + 1}"} for i in range(refs - 1)
    }
    parameters[f"p{refs - 1}"] = {
        "name": "q",
        "in": "query",
        "required": True,
        "schema": {"type": "integer"},
    }
    operation = {
        "parameters": [{"$ref": "#/components/parameters/p0"}],
        "responses": {"200": {"description": "ok"}},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "chain", "version": "1"},
        "paths": {"/s": {"get": operation}},
        "components": {"parameters": parameters},
    }


def test_an_openapi_operation_builds_at_the_limit_and_is_refused_past_it() -> None:
    import llmapp.http

    at = llmapp.http.application(openapi_document(AT_LIMIT))
    assert [len(f.parameters["properties"]) for f in at.functions] == [1]
    assert at.errors == []
    past = llmapp.http.application(openapi_document(PAST_LIMIT))
    assert past.functions == []
    [error] = past.errors
    assert f"$ref '#/components/parameters/p{AT_LIMIT}' cannot be followed" in str(error)


def test_a_node_s_own_reference_is_followed_one_step() -> None:
    schema = {
        "$id": "https://example.com/root.json",
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"type": "string"}, "c": {"$ref": "#/nowhere"}},
        "properties": {"x": {"$ref": "#/$defs/a"}, "y": {"type": "integer"}},
    }
    resolver = Resolver(schema)
    x = resolver.at("/properties/x")
    assert x is not None
    step = resolver.target(x)
    assert step is not None and step.pointer == "/$defs/a"  # one step, not the chain's end
    assert resolver.target(step) is not None and resolver.target(step).pointer == "/$defs/b"
    assert resolver.target(resolver.child(resolver.root_node, "properties", "y")) is None
    assert resolver.target(resolver.child(resolver.root_node, "$defs", "c")) is None


def test_a_chase_without_a_base_starts_at_the_root_s() -> None:
    schema = {
        "$id": "https://example.com/root.json",
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {}},
    }
    resolver = Resolver(schema)
    chased = resolver.chase("#/$defs/a")
    assert chased is not None and chased.pointer == "/$defs/b"
    assert chased == resolver.chase("#/$defs/a", resolver.root_node.base)
