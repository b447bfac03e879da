"""Deep schemas from third parties: ``validator()`` gives a working validator or a
``SchemaError`` that says the schema is too deep, never a ``RecursionError``."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmapp._limits import MAX_REF_DEPTH, MAX_SCHEMA_DEPTH
from llmapp.validate import SchemaError, validator
from llmapp.validate._schema_depth import depth_problem

Wrap = Callable[[dict[str, Any]], dict[str, Any]]

WRAPS: dict[str, Wrap] = {
    "items": lambda s: {"type": "array", "items": s},
    "prefixItems": lambda s: {"type": "array", "prefixItems": [s]},
    "properties": lambda s: {"type": "object", "properties": {"a": s}, "required": ["a"]},
    "additionalProperties": lambda s: {"type": "object", "additionalProperties": s},
    "patternProperties": lambda s: {"type": "object", "patternProperties": {"^a": s}},
    "anyOf": lambda s: {"anyOf": [s, {"type": "null"}]},
    "oneOf": lambda s: {"oneOf": [s, {"type": "string"}]},
    "allOf": lambda s: {"allOf": [s, {"not": {"type": "string"}}]},
    "not": lambda s: {"not": {"not": s}},
    "if": lambda s: {"if": {"type": "array"}, "then": s, "else": {"type": "string"}},
    "$defs": lambda s: anchored(s),
}


def anchored(schema: dict[str, Any]) -> dict[str, Any]:
    """A level of ``$defs`` whose ``$ref`` names its target by an anchor (a pointer
    such as ``#/$defs/D`` always starts at the root)."""
    name = f"a{next(_ANCHORS)}"
    return {"$defs": {"D": {**schema, "$anchor": name}}, "$ref": f"#{name}"}


_ANCHORS = itertools.count()


def nest(wraps: list[Wrap]) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer"}
    for wrap in wraps:
        schema = wrap(schema)
    return schema


def deep_list(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def exercise(schema: dict[str, Any]) -> None:
    """Build, then run the checker and the walker on a few values: none may raise."""
    check = validator(schema)
    for value in (1, None, "x", deep_list(3), {"a": [1]}, deep_list(MAX_SCHEMA_DEPTH + 5)):
        check(value)
    assert check.source


# (how deep, whatever the wrapping)
@pytest.mark.parametrize("name", WRAPS)
def test_every_keyword_works_at_the_limit(name: str) -> None:
    wrap = WRAPS[name]
    # "not" wraps twice per level: half as many levels reach the limit
    levels = MAX_SCHEMA_DEPTH // 2 if name == "not" else MAX_SCHEMA_DEPTH - 1
    exercise(nest([wrap] * levels))


@pytest.mark.parametrize("name", WRAPS)
@pytest.mark.parametrize("levels", [MAX_SCHEMA_DEPTH + 1, 1_000, 5_000])
def test_deeper_is_a_schema_error_with_its_location(name: str, levels: int) -> None:
    with pytest.raises(SchemaError) as raised:
        validator(nest([WRAPS[name]] * levels))
    [problem] = raised.value.problems
    assert f"more than {MAX_SCHEMA_DEPTH} levels deep" in problem.reason
    assert problem.location.startswith("#/")


def test_arrays_nested_hundreds_deep_are_refused_not_a_recursion_error() -> None:
    """A schema nested 1,000 deep raised RecursionError (an array nested 200 deep did too)."""
    for levels in (200, 1_000):
        with pytest.raises(SchemaError, match=f"nested more than {MAX_SCHEMA_DEPTH} levels deep"):
            validator(nest([WRAPS["items"]] * levels))


@pytest.mark.parametrize("keyword", ["enum", "const"])
def test_deep_enum_and_const_values(keyword: str) -> None:
    def schema(value: Any) -> dict[str, Any]:
        return {keyword: [value]} if keyword == "enum" else {keyword: value}

    fine = deep_list(MAX_SCHEMA_DEPTH - 1)
    check = validator({"type": "object", "properties": {"a": schema(fine)}})
    assert check({"a": deep_list(MAX_SCHEMA_DEPTH - 1)}).success
    assert not check({"a": deep_list(MAX_SCHEMA_DEPTH - 2)}).success
    for depth in (MAX_SCHEMA_DEPTH + 1, 10_000):
        with pytest.raises(SchemaError) as raised:
            validator({"type": "object", "properties": {"a": schema(deep_list(depth))}})
        assert [p.location for p in raised.value.problems] == [f"#/properties/a/{keyword}"]


def chain(count: int) -> dict[str, Any]:
    """``count`` ``$defs``, each an object whose property refers to the next."""
    defs: dict[str, Any] = {
        f"D{i}": {"type": "object", "properties": {"a": {"$ref": f"#/$defs/D{i + 1}"}}}
        for i in range(count)
    }
    defs[f"D{count}"] = {"type": "integer"}
    return {"$defs": defs, "$ref": "#/$defs/D0"}


def nested_value(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


def test_a_chain_of_defs_within_the_limit_works() -> None:
    """Real documents chain refs deeply (Stripe's reach about 100 levels): they build."""
    check = validator(chain(MAX_REF_DEPTH - 1))
    assert check(nested_value(MAX_REF_DEPTH - 1)).success
    check = validator(chain(200))
    failure = check(nested_value(199))
    assert not failure.success
    assert failure.errors[0].path == "$input" + ".a" * 199


@pytest.mark.parametrize("count", [MAX_REF_DEPTH + 1, 10_000])
def test_a_chain_of_defs_past_the_limit_is_a_schema_error(count: int) -> None:
    """A 10k chain built for 40 s and then called every valid value too deep."""
    with pytest.raises(SchemaError, match=f"more than {MAX_REF_DEPTH} levels deep"):
        validator(chain(count))


def test_recursion_is_not_a_chain() -> None:
    tree = {
        "$defs": {
            "T": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
            }
        },
        "$ref": "#/$defs/T",
    }
    check = validator(tree)
    value: Any = {}
    for _ in range(100):
        value = {"kids": [value]}
    assert check(value).success


def test_nested_defs_past_the_limit() -> None:
    schema: dict[str, Any] = {"type": "integer"}
    for _ in range(10_000):
        schema = {"$defs": {"D": schema}, "$ref": "#/$defs/D"}
    with pytest.raises(SchemaError, match=f"more than {MAX_SCHEMA_DEPTH} levels deep"):
        validator(schema)


def test_a_cyclic_schema_object_is_a_schema_error() -> None:
    schema: dict[str, Any] = {"type": "array"}
    schema["items"] = schema
    with pytest.raises(SchemaError, match=f"more than {MAX_SCHEMA_DEPTH} levels deep"):
        validator(schema)


def test_building_from_deep_in_the_callers_stack_is_a_schema_error() -> None:
    """Within the limit, but the caller has already used most of the stack."""
    import sys

    schema = nest([WRAPS["items"]] * (MAX_SCHEMA_DEPTH - 1))
    schema["title"] = "deep-in-the-stack"  # not in validator()'s cache

    def descend(levels: int) -> Any:
        if levels:
            return descend(levels - 1)
        try:
            return validator(schema)
        except SchemaError as error:
            return error

    spare = 60  # frames left for validator(): enough for its own first calls only
    result = descend(sys.getrecursionlimit() - len(_stack()) - spare)
    if isinstance(result, SchemaError):
        assert "too deeply nested to compile here" in str(result)
    else:  # this Python needed fewer frames than that: it built, and it must work
        assert result(deep_list(MAX_SCHEMA_DEPTH - 1)).success


def _stack() -> list[Any]:
    import inspect

    return inspect.stack(0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(sorted(WRAPS)), min_size=1, max_size=MAX_SCHEMA_DEPTH // 2))
def test_any_mix_within_the_limit_works(names: list[str]) -> None:
    exercise(nest([WRAPS[name] for name in names]))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(sorted(WRAPS)), min_size=MAX_SCHEMA_DEPTH + 1, max_size=400))
def test_any_mix_past_the_limit_is_a_schema_error(names: list[str]) -> None:
    with pytest.raises(SchemaError):
        validator(nest([WRAPS[name] for name in names]))


def _near_the_limits() -> list[Any]:
    """The smallest schemas on either side of each limit, and past them."""
    around = (MAX_SCHEMA_DEPTH - 2, MAX_SCHEMA_DEPTH - 1, MAX_SCHEMA_DEPTH, MAX_SCHEMA_DEPTH + 1)
    schemas: list[Any] = [nest([wrap] * levels) for wrap in WRAPS.values() for levels in around]
    schemas += [{"enum": [deep_list(depth)]} for depth in around]
    schemas += [{"const": deep_list(depth)} for depth in around]
    schemas += [chain(count) for count in (MAX_REF_DEPTH - 1, MAX_REF_DEPTH, MAX_REF_DEPTH + 1)]
    return schemas


def test_the_json_text_shortcut_gives_the_walks_answer() -> None:
    """A schema whose JSON text is too small to nest past a limit is not walked: next to
    each limit, the answer with the text is the answer of the walks."""
    for schema in _near_the_limits():
        text = json.dumps(schema, sort_keys=True)
        assert depth_problem(schema, text) == depth_problem(schema)
