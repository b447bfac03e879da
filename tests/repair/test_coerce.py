"""coerce: each unambiguous repair, what it must leave alone, and never mutating or raising."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled

from llmapp.repair import coerce

INT = {"type": "integer"}
NUM = {"type": "number"}
BOOL = {"type": "boolean"}
STR = {"type": "string"}
NULL = {"type": "null"}


def obj(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "additionalProperties": False}


CIRCLE = obj(kind={"type": "string", "enum": ["circle"]}, radius=NUM)
SQUARE = obj(kind={"type": "string", "enum": ["square"]}, side=INT)
SHAPES = {"$defs": {"Circle": CIRCLE, "Square": SQUARE}}

# (id, schema, data, expected)
REPAIRS: list[tuple[str, Any, Any, Any]] = [
    # numbers where a number is wanted
    ("integer from string", INT, "3", 3),
    ("negative integer", INT, "-12", -12),
    ("integer written with .0", INT, "3.0", 3),
    ("integer with spaces", INT, " 42 ", 42),
    ("big integer", INT, "123456789012345678901234567890", 123456789012345678901234567890),
    ("number from integer string stays int", NUM, "3", 3),
    ("number from decimal string", NUM, "2.5", 2.5),
    ("number with exponent", NUM, "1e3", 1000.0),
    ("number and integer together prefer number", {"type": ["integer", "number"]}, "3.0", 3.0),
    # booleans
    ("boolean true", BOOL, "true", True),
    ("boolean false any case", BOOL, "FALSE", False),
    # null
    ("null where only null", NULL, "null", None),
    ("null in a nullable integer", {"anyOf": [INT, NULL]}, "null", None),
    ("null with OpenAPI nullable", {"type": "integer", "nullable": True}, "NULL", None),
    ("integer in a nullable integer", {"anyOf": [INT, NULL]}, "7", 7),
    ("integer in a type array", {"type": ["integer", "null"]}, "7", 7),
    # JSON held in strings
    ("object from string", obj(a=INT), '{"a": "1"}', {"a": 1}),
    ("array from string", {"type": "array", "items": INT}, '["1", 2]', [1, 2]),
    ("object stringified twice", obj(a=INT), json.dumps(json.dumps({"a": "1"})), {"a": 1}),
    (
        "array stringified three times",
        {"type": "array"},
        json.dumps(json.dumps(json.dumps([1]))),
        [1],
    ),
    ("object from string in nullable union", {"anyOf": [obj(a=INT), NULL]}, '{"a": "2"}', {"a": 2}),
    # nesting and references
    ("nested properties", obj(a=obj(b=INT)), {"a": {"b": "5"}}, {"a": {"b": 5}}),
    ("array items", {"type": "array", "items": BOOL}, ["true", "false", True], [True, False, True]),
    (
        "prefixItems then items",
        {"type": "array", "prefixItems": [INT, BOOL], "items": NUM},
        ["1", "true", "2.5"],
        [1, True, 2.5],
    ),
    (
        "draft-04 tuple items",
        {"type": "array", "items": [INT], "additionalItems": BOOL},
        ["1", "true"],
        [1, True],
    ),
    (
        "additionalProperties schema",
        {"type": "object", "additionalProperties": INT},
        {"x": "1", "y": "2"},
        {"x": 1, "y": 2},
    ),
    (
        "patternProperties",
        {"type": "object", "patternProperties": {"^n_": INT}},
        {"n_a": "1", "s": "1"},
        {"n_a": 1, "s": "1"},
    ),
    (
        "$defs reference",
        {**obj(a={"$ref": "#/$defs/N"}), "$defs": {"N": INT}},
        {"a": "1"},
        {"a": 1},
    ),
    (
        "definitions reference",
        {**obj(a={"$ref": "#/definitions/N"}), "definitions": {"N": INT}},
        {"a": "1"},
        {"a": 1},
    ),
    (
        "components reference",
        {**obj(a={"$ref": "#/components/schemas/N"}), "components": {"schemas": {"N": INT}}},
        {"a": "1"},
        {"a": 1},
    ),
    (
        "reference chain",
        {**obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": {"$ref": "#/$defs/B"}, "B": INT}},
        {"a": "1"},
        {"a": 1},
    ),
    (
        "escaped pointer",
        {**obj(a={"$ref": "#/$defs/a~1b"}), "$defs": {"a/b": INT}},
        {"a": "1"},
        {"a": 1},
    ),
    (
        "recursive type",
        {
            "$ref": "#/$defs/Node",
            "$defs": {"Node": obj(v=INT, next={"anyOf": [{"$ref": "#/$defs/Node"}, NULL]})},
        },
        {"v": "1", "next": {"v": "2", "next": None}},
        {"v": 1, "next": {"v": 2, "next": None}},
    ),
    (
        "allOf merges properties",
        {"allOf": [obj(a=INT), {"properties": {"b": BOOL}}]},
        {"a": "1", "b": "true"},
        {"a": 1, "b": True},
    ),
    ("allOf with one reference", {"allOf": [{"$ref": "#/$defs/N"}], "$defs": {"N": INT}}, "4", 4),
    ("enum of integers without type", {"enum": [1, 2, 3]}, "2", 2),
    ("const boolean", {"const": True}, "true", True),
    # unions: one branch by type
    (
        "union picks the only object branch",
        {"anyOf": [obj(a=INT), {"type": "array"}]},
        {"a": "1"},
        {"a": 1},
    ),
    (
        "union picks the only array branch",
        {"anyOf": [{"type": "array", "items": INT}, INT]},
        ["1"],
        [1],
    ),
    ("oneOf like anyOf", {"oneOf": [obj(a=INT), NULL]}, {"a": "1"}, {"a": 1}),
    ("union of scalars by string", {"anyOf": [INT, BOOL]}, "true", True),
    # unions: one branch by discriminator or tag
    (
        "discriminator with mapping",
        {
            "oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}],
            "discriminator": {
                "propertyName": "kind",
                "mapping": {"circle": "#/$defs/Circle", "square": "#/$defs/Square"},
            },
            **SHAPES,
        },
        {"kind": "square", "side": "2"},
        {"kind": "square", "side": 2},
    ),
    (
        "discriminator by enum",
        {
            "oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}],
            "discriminator": {"propertyName": "kind"},
            **SHAPES,
        },
        {"kind": "circle", "radius": "1.5"},
        {"kind": "circle", "radius": 1.5},
    ),
    (
        "discriminator by reference name",
        {
            "oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
            "discriminator": {"propertyName": "t"},
            "$defs": {"A": obj(t=STR, n=INT), "B": obj(t=STR, n=BOOL)},
        },
        {"t": "B", "n": "true"},
        {"t": "B", "n": True},
    ),
    (
        "x-discriminator",
        {"anyOf": [CIRCLE, SQUARE], "x-discriminator": {"propertyName": "kind"}},
        {"kind": "square", "side": "3"},
        {"kind": "square", "side": 3},
    ),
    (
        "tagged union without discriminator",
        {"anyOf": [CIRCLE, SQUARE]},
        {"kind": "square", "side": "3"},
        {"kind": "square", "side": 3},
    ),
    (
        "tag by const",
        {"anyOf": [obj(k={"const": "a"}, n=INT), obj(k={"const": "b"}, n=BOOL)]},
        {"k": "b", "n": "false"},
        {"k": "b", "n": False},
    ),
    (
        "discriminated union inside a string",
        {"anyOf": [CIRCLE, SQUARE]},
        '{"kind": "circle", "radius": "2"}',
        {"kind": "circle", "radius": 2},
    ),
]

# (id, schema, data): coerce returns an equal value, of the same types
UNCHANGED: list[tuple[str, Any, Any]] = [
    ("string wanted", STR, "3"),
    ("string or integer keeps the string", {"anyOf": [STR, INT]}, "3"),
    ("type array with string", {"type": ["string", "integer"]}, "3"),
    ("string enum", {"type": "string", "enum": ["true", "false"]}, "true"),
    ("string enum in the wrong case", {"type": "string", "enum": ["low", "high"]}, "HIGH"),
    ("nullable string keeps null text", {"type": "string", "nullable": True}, "null"),
    ("untyped schema", {}, "3"),
    ("boolean schema true", True, "3"),
    ("only annotations", {"description": "anything"}, "3"),
    ("union with an unconstrained branch", {"anyOf": [INT, {}]}, "3"),
    ("string through a reference", {"$ref": "#/$defs/S", "$defs": {"S": STR}}, "3"),
    (
        "string through a union reference",
        {"anyOf": [{"$ref": "#/$defs/S"}, INT], "$defs": {"S": STR}},
        "3",
    ),
    ("integer keeps a float", INT, 3.0),
    ("integer keeps a non-integral float", INT, 3.5),
    ("integer keeps a non-integral string", INT, "3.5"),
    ("integer keeps an exponent string", INT, "1e3"),
    ("integer keeps leading zeros", INT, "007"),
    ("number keeps nan text", NUM, "NaN"),
    ("number keeps overflow text", NUM, "1e999"),
    ("number keeps hex text", NUM, "0x10"),
    ("number never from boolean", NUM, True),
    ("boolean never from number", BOOL, 1),
    ("boolean keeps yes", BOOL, "yes"),
    ("boolean keeps 1", BOOL, "1"),
    ("string never from number", STR, 3),
    ("null keeps none text", NULL, "None"),
    ("integer keeps null text", INT, "null"),
    ("object keeps invalid JSON", obj(a=INT), "{a: 1}"),
    ("object keeps an array string", obj(a=INT), "[1]"),
    ("array keeps an object string", {"type": "array"}, '{"a": 1}'),
    ("object keeps a plain quoted string", obj(a=INT), '"hello"'),
    ("ambiguous object union", {"anyOf": [obj(a=INT), obj(a=BOOL)]}, {"a": "1"}),
    (
        "ambiguous array union",
        {"anyOf": [{"type": "array", "items": INT}, {"type": "array", "items": BOOL}]},
        ["1"],
    ),
    (
        "discriminator with unknown tag",
        {"anyOf": [CIRCLE, SQUARE], "discriminator": {"propertyName": "kind"}},
        {"kind": "hexagon", "side": "1"},
    ),
    ("extra key without a schema", obj(a=INT), {"b": "1"}),
    ("unresolvable reference", {"$ref": "#/$defs/Missing"}, "3"),
    ("remote reference is not followed", {"$ref": "https://example.com/s.json"}, "3"),
    (
        "reference cycle",
        {"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}},
        "3",
    ),
    ("self-referencing union", {"anyOf": [{"$ref": "#"}]}, ["1"]),
    ("tuple is not an array", {"type": "array", "items": INT}, ("1",)),
    ("bad pattern", {"type": "object", "patternProperties": {"(": INT}}, {"(": "1"}),
    ("malformed keywords", {"type": 5, "properties": [], "items": "x", "anyOf": "y"}, {"a": ["1"]}),
]


@pytest.mark.parametrize(
    ("schema", "data", "expected"), [c[1:] for c in REPAIRS], ids=[c[0] for c in REPAIRS]
)
def test_each_repair(schema: Any, data: Any, expected: Any) -> None:
    before = copy.deepcopy(data)
    result = coerce(data, schema)
    assert _typed(result) == _typed(expected)
    assert data == before


@pytest.mark.parametrize(
    ("schema", "data"), [c[1:] for c in UNCHANGED], ids=[c[0] for c in UNCHANGED]
)
def test_leaves_alone(schema: Any, data: Any) -> None:
    assert _typed(coerce(data, schema)) == _typed(data)


def test_whole_arguments_object() -> None:
    schema = {
        **obj(
            query=STR,
            limit=INT,
            exact=BOOL,
            filters={"$ref": "#/$defs/Filters"},
            shape={"anyOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}]},
            note={"anyOf": [STR, NULL]},
        ),
        "$defs": {
            "Filters": obj(min_price=NUM, tags={"type": "array", "items": STR}),
            **SHAPES["$defs"],
        },
    }
    data = {
        "query": "42",
        "limit": "10",
        "exact": "false",
        "filters": json.dumps({"min_price": "9.5", "tags": ["1", "2"]}),
        "shape": {"kind": "circle", "radius": "3"},
        "note": "null",
        "unknown": "1",
    }
    assert coerce(data, schema) == {
        "query": "42",
        "limit": 10,
        "exact": False,
        "filters": {"min_price": 9.5, "tags": ["1", "2"]},
        "shape": {"kind": "circle", "radius": 3},
        "note": "null",
        "unknown": "1",
    }


def test_result_is_a_copy_even_when_nothing_changes() -> None:
    data = {"a": [{"b": 1}]}
    result = coerce(data, {})
    assert result == data
    assert (
        result is not data and result["a"] is not data["a"] and result["a"][0] is not data["a"][0]
    )


def test_cycles_in_the_input_are_safe() -> None:
    loop: list[Any] = ["1"]
    loop.append(loop)
    result = coerce(loop, {"type": "array", "items": {"anyOf": [INT, {"type": "array"}]}})
    assert result[0] == 1 and result[1] is loop
    assert loop[0] == "1"


def test_very_deep_input_does_not_raise() -> None:
    deep: Any = "1"
    for _ in range(5000):
        deep = [deep]
    schema: dict[str, Any] = {
        "$ref": "#/$defs/L",
        "$defs": {"L": {"anyOf": [INT, {"type": "array", "items": {"$ref": "#/$defs/L"}}]}},
    }
    result = coerce(deep, schema)
    shallow: Any = result
    for _ in range(50):
        shallow = shallow[0]
    assert isinstance(shallow, list)


def test_nothing_is_turned_into_a_string() -> None:
    schema = {**obj(a=STR, b=STR, c=STR), "required": ["a", "b", "c"]}
    assert coerce({"a": 1, "b": None, "c": True}, schema) == {
        "a": 1,
        "b": None,
        "c": True,
    }


# --- properties ------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=20,
)
stringy = (
    json_values
    | json_values.map(json.dumps)
    | st.sampled_from(["3", "3.0", "true", "null", "-1", "[1]", '{"a": "1"}'])
)
type_names = st.sampled_from(["string", "integer", "number", "boolean", "null", "array", "object"])
schemas = st.recursive(
    st.fixed_dictionaries(
        {},
        optional={"type": type_names | st.lists(type_names, max_size=3), "nullable": st.booleans()},
    )
    | st.sampled_from(
        [
            {"$ref": "#/$defs/A"},
            {"$ref": "#"},
            {"$ref": "#/nope"},
            {},
            True,
            {"enum": [1, "a", None]},
            {"const": 2},
        ]
    ),
    lambda children: st.fixed_dictionaries(
        {},
        optional={
            "type": type_names,
            "anyOf": st.lists(children, max_size=3),
            "oneOf": st.lists(children, max_size=3),
            "allOf": st.lists(children, max_size=2),
            "properties": st.dictionaries(
                st.sampled_from(["a", "b", "kind"]), children, max_size=3
            ),
            "additionalProperties": children | st.booleans(),
            "items": children | st.lists(children, max_size=2),
            "prefixItems": st.lists(children, max_size=2),
            "discriminator": st.fixed_dictionaries(
                {"propertyName": st.just("kind")},
                optional={
                    "mapping": st.dictionaries(
                        st.text(max_size=3), st.sampled_from(["#/$defs/A", "#/x"])
                    )
                },
            ),
        },
    ),
    max_leaves=12,
).map(lambda s: {**s, "$defs": {"A": s}} if isinstance(s, dict) else s)


@pytest.mark.budgeted
@settings(
    max_examples=scaled(150, 300), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(stringy, schemas)
def test_never_raises_and_never_mutates(data: Any, schema: Any) -> None:
    before = copy.deepcopy(data)
    schema_before = copy.deepcopy(schema)
    coerce(data, schema)
    assert data == before
    assert schema == schema_before


@pytest.mark.budgeted
@settings(max_examples=scaled(150, 300), deadline=None)
@given(st.text(max_size=10) | st.sampled_from(["3", "true", "null", "[1]", '{"a": 1}']), schemas)
def test_never_changes_a_string_the_schema_accepts_as_a_string(text: str, schema: Any) -> None:
    for accepting in (
        {"anyOf": [schema, STR]},
        {"oneOf": [STR, schema]},
        {"type": ["string", "integer", "object"]},
    ):
        assert coerce(text, accepting) == text
    nested = {"type": "object", "properties": {"a": {"anyOf": [schema, STR]}}}
    assert coerce({"a": text}, nested) == {"a": text}


REALISTIC = [
    obj(a=INT, b={"anyOf": [STR, NULL]}, c={"type": "array", "items": NUM, "maxItems": 3}),
    {"anyOf": [CIRCLE, SQUARE]},
    {"type": "array", "items": {"anyOf": [INT, BOOL, STR]}, "maxItems": 4},
    obj(t={"type": ["string", "null"]}, n={"type": "number", "nullable": True}),
    {
        "type": "object",
        "additionalProperties": {"type": "array", "items": BOOL, "maxItems": 2},
        "maxProperties": 3,
    },
]


@pytest.mark.parametrize("schema", REALISTIC, ids=range(len(REALISTIC)))
def test_valid_values_are_never_changed(schema: dict[str, Any]) -> None:
    @settings(
        max_examples=150,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(_valid(schema).filter(jsonschema.Draft202012Validator(schema).is_valid))
    def check(value: Any) -> None:
        assert _typed(coerce(value, schema)) == _typed(value)

    check()


def _valid(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of the schema's shape (hypothesis-jsonschema does not run on this hypothesis)."""
    if "anyOf" in schema:
        return st.one_of([_valid(branch) for branch in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    types = schema.get("type", "string")
    if isinstance(types, list):
        return st.one_of([_valid({**schema, "type": name}) for name in types])
    if schema.get("nullable"):
        return st.none() | _valid({**schema, "nullable": False})
    scalars = {
        "string": st.text(max_size=5) | st.sampled_from(["3", "true", "null", "[1]"]),
        "integer": st.integers() | st.integers(-5, 5).map(float),
        "number": st.floats(allow_nan=False, allow_infinity=False) | st.integers(),
        "boolean": st.booleans(),
        "null": st.none(),
    }
    if types in scalars:
        return scalars[types]
    if types == "array":
        return st.lists(_valid(schema.get("items", {})), max_size=4)
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties")
    return st.fixed_dictionaries(
        {}, optional={key: _valid(sub) for key, sub in properties.items()}
    ) | (
        st.dictionaries(st.text(max_size=3), _valid(extra), max_size=3)
        if isinstance(extra, dict)
        else st.nothing()
    )


def _typed(value: Any) -> Any:
    """The value with each scalar paired with its type, so 3 and 3.0 and True differ."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_typed(item) for item in value])
    return (type(value).__name__, value)


def test_references_are_followed_as_the_validator_follows_them():
    # $anchor and $id URIs, not only "#/..." pointers: one reading of $ref
    import llmapp

    schema = {
        "$id": "https://example.com/root",
        "type": "object",
        "properties": {
            "by_anchor": {"$ref": "#count"},
            "by_id": {"$ref": "https://example.com/flag"},
        },
        "$defs": {
            "Count": {"$anchor": "count", "type": "integer"},
            "Flag": {"$id": "https://example.com/flag", "type": "boolean"},
        },
    }
    repaired = coerce({"by_anchor": "3", "by_id": "true"}, schema)
    assert repaired == {"by_anchor": 3, "by_id": True}
    assert llmapp.validator(schema)(repaired).success


def test_an_inferred_discriminator_picks_the_branch():
    schema = {
        "anyOf": [
            {
                "type": "object",
                "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}},
            },
            {
                "type": "object",
                "properties": {"kind": {"const": "dog"}, "age": {"type": "integer"}},
            },
        ]
    }
    assert coerce({"kind": "dog", "age": "4"}, schema) == {"kind": "dog", "age": 4}
    assert coerce({"kind": "cow", "age": "4"}, schema) == {"kind": "cow", "age": "4"}


class _Text(str):
    """A ``str`` subclass: no pinned text agrees with it (``_same`` asks the type)."""


def test_a_branch_is_chosen_by_its_pinned_values_whatever_their_types() -> None:
    from llmapp.repair._index import SchemaIndex

    # "card" in both: no discriminator, each branch's pinned values decide
    branches = [
        {"type": "object", "properties": {"kind": {"enum": ["card", "cash"]}}},
        {
            "type": "object",
            "properties": {"kind": {"enum": ["card", 1]}, "n": {"const": "x"}},
        },
    ]
    union = {"anyOf": branches}
    index = SchemaIndex(union)
    cases = [
        ({"kind": "cash"}, 0),
        ({"kind": _Text("cash")}, None),
        ({"kind": 1}, 1),
        ({"kind": True}, None),
        ({"kind": "card", "n": "y"}, 0),
        ({"kind": "card", "n": "x"}, None),
        ({"kind": "other"}, None),
    ]
    for value, expected in cases:
        chosen = index.choose(value, union, branches)
        assert chosen is (None if expected is None else branches[expected]), value
