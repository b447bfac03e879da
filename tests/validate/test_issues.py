"""Issues exactly as DESIGN.md shows them: paths, expected texts, values, one per mistake."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from llmapp.validate import UNDEFINED, ValidationIssue, expected_of

PRODUCT = {
    "type": "object",
    "properties": {
        "sku": {"type": "string", "minLength": 3},
        "quantity": {"type": "integer", "minimum": 1},
        "price": {"type": "number", "exclusiveMinimum": 0},
    },
    "required": ["sku", "quantity"],
    "additionalProperties": False,
}
ORDER = {
    "type": "object",
    "properties": {
        "customer": {
            "type": "object",
            "properties": {
                "age": {"type": "integer", "minimum": 0},
                "email": {"type": "string", "format": "email"},
            },
            "required": ["age"],
            "additionalProperties": False,
        },
        "items": {"type": "array", "items": {"$ref": "#/$defs/Product"}},
        "priority": {"type": "string", "enum": ["low", "normal", "high"]},
        "gift": {"anyOf": [{"$ref": "#/$defs/Product"}, {"type": "null"}]},
        "headers": {
            "type": "object",
            "properties": {"content-type": {"type": "string"}, "x": {"type": "integer"}},
            "additionalProperties": False,
        },
    },
    "required": ["customer", "items", "priority"],
    "additionalProperties": False,
    "$defs": {"Product": PRODUCT},
}
GOOD_ORDER = {
    "customer": {"age": 30, "email": "ada@example.com"},
    "items": [{"sku": "abc", "quantity": 1}, {"sku": "def", "quantity": 2, "price": 1.5}],
    "priority": "low",
}


def order(**changes: Any) -> dict[str, Any]:
    data = {**GOOD_ORDER, **changes}
    return {key: value for key, value in data.items() if value is not UNDEFINED}


ISSUES = [
    (
        "wrong nested scalar",
        order(customer={"age": "30"}),
        [("$input.customer.age", "integer & Minimum<0>", "30")],
    ),
    (
        "format",
        order(customer={"age": 1, "email": "nope"}),
        [("$input.customer.email", 'string & Format<"email">', "nope")],
    ),
    ("minimum", order(customer={"age": -1}), [("$input.customer.age", "integer & Minimum<0>", -1)]),
    (
        "item in an array, through a $ref",
        order(items=[{"sku": "abc", "quantity": 1}] * 3 + [{"sku": 7, "quantity": 1}]),
        [("$input.items[3].sku", "string & MinLength<3>", 7)],
    ),
    (
        "enum",
        order(priority="urgent"),
        [("$input.priority", '("low" | "normal" | "high")', "urgent")],
    ),
    (
        "array of refs",
        order(items={"sku": "abc"}),
        [("$input.items", "Array<Product>", {"sku": "abc"})],
    ),
    ("union with null", order(gift=5), [("$input.gift", "(Product | null)", 5)]),
    (
        "key that is not an identifier",
        order(headers={"content-type": 1}),
        [('$input.headers["content-type"]', "string", 1)],
    ),
    (
        "superfluous key",
        order(headers={"x": 1, "y-z": 2}),
        [('$input.headers["y-z"]', "undefined", 2)],
    ),
    ("superfluous key at the root", order(extra=True), [("$input.extra", "undefined", True)]),
    (
        "missing required key",
        order(priority=UNDEFINED),
        [("$input.priority", '("low" | "normal" | "high")', UNDEFINED)],
    ),
    (
        "missing key inside a $ref",
        order(items=[{"sku": "abc"}]),
        [("$input.items[0].quantity", "integer & Minimum<1>", UNDEFINED)],
    ),
    ("missing object", order(customer=UNDEFINED), [("$input.customer", "object", UNDEFINED)]),
    (
        "several mistakes, all reported in schema order",
        order(
            customer={"age": True}, items=[{"sku": "ab", "quantity": 0, "price": 0}], priority=None
        ),
        [
            ("$input.customer.age", "integer & Minimum<0>", True),
            ("$input.items[0].sku", "string & MinLength<3>", "ab"),
            ("$input.items[0].quantity", "integer & Minimum<1>", 0),
            ("$input.items[0].price", "number & ExclusiveMinimum<0>", 0),
            ("$input.priority", '("low" | "normal" | "high")', None),
        ],
    ),
    ("the root of the wrong type", [1], [("$input", "object", [1])]),
]


@pytest.mark.parametrize(("data", "expected"), [pytest.param(d, e, id=i) for i, d, e in ISSUES])
def test_issues_of_an_order(
    compile: Callable[..., Any], data: Any, expected: list[tuple[str, str, Any]]
) -> None:
    result = compile(ORDER)(data)
    assert not result.success
    assert [(e.path, e.expected, e.value) for e in result.errors] == expected
    assert result.data is data


def test_a_good_order_passes(compile: Callable[..., Any]) -> None:
    result = compile(ORDER)(GOOD_ORDER)
    assert result.success and result.data is GOOD_ORDER


SCALARS = [
    # (schema, wrong value, expected text)
    ({"type": "integer", "minimum": 1}, 0, "integer & Minimum<1>"),
    ({"type": "integer", "multipleOf": 5}, 7, "integer & MultipleOf<5>"),
    ({"type": "number", "exclusiveMinimum": 0}, 0, "number & ExclusiveMinimum<0>"),
    ({"type": "number", "minimum": 0, "exclusiveMinimum": True}, 0, "number & ExclusiveMinimum<0>"),
    (
        {"type": "number", "maximum": 1.5, "exclusiveMaximum": True},
        1.5,
        "number & ExclusiveMaximum<1.5>",
    ),
    (
        {"type": "string", "minLength": 3, "format": "email"},
        "a@",
        'string & MinLength<3> & Format<"email">',
    ),
    ({"type": "string", "pattern": "^[a-z]+$"}, "A", 'string & Pattern<"^[a-z]+$">'),
    ({"type": "string", "maxLength": 2}, "abc", "string & MaxLength<2>"),
    ({"type": ["string", "null"]}, 1, "(string | null)"),
    ({"type": "string", "nullable": True}, 1, "(string | null)"),
    ({"type": "string", "enum": ["a", "b"], "nullable": True}, "c", '("a" | "b" | null)'),
    ({"const": "yes"}, "no", '"yes"'),
    ({"enum": [1, "one", None]}, 2, '(1 | "one" | null)'),
    ({"type": "array", "items": {"type": "string"}}, "x", "Array<string>"),
    (
        {"type": "array", "items": {"type": "string"}, "minItems": 1},
        [],
        "Array<string> & MinItems<1>",
    ),
    ({"type": "array", "uniqueItems": True}, [1, 1], "Array<any> & UniqueItems<true>"),
    (
        {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
        1,
        "[string, integer]",
    ),
    ({"type": "object", "additionalProperties": {"type": "number"}}, [], "Record<string, number>"),
    ({"type": "object", "minProperties": 1}, {}, "object & MinProperties<1>"),
    ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, None, "(string | integer)"),
    ({"type": "boolean"}, 1, "boolean"),
    ({"type": "null"}, 0, "null"),
    ({"type": "string", "format": "date-time"}, "yesterday", 'string & Format<"date-time">'),
    ({"type": "integer", "format": "int32"}, 2**31, 'integer & Type<"int32">'),
    ({"type": "string", "contentEncoding": "base64"}, "%%", 'string & ContentEncoding<"base64">'),
    ({"not": {"type": "string"}}, "s", "Not<string>"),
    (False, 1, "never"),
]


@pytest.mark.parametrize(("schema", "value", "expected"), SCALARS)
def test_expected_text(compile: Callable[..., Any], schema: Any, value: Any, expected: str) -> None:
    result = compile(schema)(value)
    assert result.errors == [ValidationIssue("$input", expected, value)]
    assert expected_of(schema) == expected


TYPES = [
    # (schema, valid values, invalid values)
    (
        {"type": "integer"},
        [0, -3, 3.0, 10**30, -0.0],
        [True, False, 3.5, "3", None, math.nan, math.inf],
    ),
    (
        {"type": "number"},
        [0, 1.5, -2, 1e308, 3.0],
        [True, math.nan, math.inf, -math.inf, "1", None],
    ),
    ({"type": "boolean"}, [True, False], [0, 1, "true", None]),
    ({"type": "string"}, ["", "é", "🐲"], [b"x", 1, None]),
    ({"type": "null"}, [None], [0, "", False]),
    ({"type": "array"}, [[], [1], (1, 2)], [{}, "ab", {1, 2}]),
    ({"type": "object"}, [{}, {"a": 1}], [[], {1: "a"}, {("a",): 1}, "x"]),
    ({"enum": [1, True]}, [1, 1.0, True], [False, 0, "1"]),
    ({"const": 0}, [0, 0.0, -0.0], [False, "0", None]),
    ({"const": False}, [False], [0, 0.0, None]),
    (
        {"type": "array", "uniqueItems": True},
        [[1, True], [[1], [True]], [{"a": 1}, {"a": 2}]],
        [[1, 1.0], [{"a": [1]}, {"a": [1.0]}]],
    ),
    ({"type": "string", "minLength": 2, "maxLength": 2}, ["🐲🐲", "ab"], ["🐲", "abc"]),
]


@pytest.mark.parametrize(("schema", "valid", "invalid"), TYPES)
def test_json_semantics(
    compile: Callable[..., Any], schema: Any, valid: list[Any], invalid: list[Any]
) -> None:
    check = compile(schema)
    for value in valid:
        assert check(value).success, value
        assert check.is_valid(value), value
    for value in invalid:
        result = check(value)
        assert not result.success and result.errors, value
        assert not check.is_valid(value), value


def test_a_dict_with_a_non_string_key_is_reported_per_key(compile: Callable[..., Any]) -> None:
    check = compile({"type": "object", "properties": {"a": {"type": "integer"}}})
    result = check({"a": 1, 2: "b"})
    assert result.errors == [
        ValidationIssue("$input[2]", "undefined", "b", "object keys must be strings")
    ]


def test_dict_subclasses_are_objects_and_are_not_mutated(compile: Callable[..., Any]) -> None:
    from collections import OrderedDict, defaultdict

    check = compile(PRODUCT)
    assert check(OrderedDict(sku="abc", quantity=1)).success
    data: defaultdict[str, Any] = defaultdict(int, sku="abc")
    result = check(data)
    assert [e.path for e in result.errors] == ["$input.quantity"]
    assert dict(data) == {"sku": "abc"}


def test_tuples_are_arrays(compile: Callable[..., Any]) -> None:
    check = compile(
        {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}
    )
    assert check(("a", 1, 2)).success
    assert [e.path for e in check(("a", 1, "2")).errors] == ["$input[2]"]


def test_required_keys_of_a_property_less_object(compile: Callable[..., Any]) -> None:
    result = compile({"type": "object", "required": ["a"]})({})
    assert result.errors == [ValidationIssue("$input.a", "any", UNDEFINED)]


def test_dependent_required_reports_the_missing_key(compile: Callable[..., Any]) -> None:
    schema = {
        "type": "object",
        "properties": {"card": {"type": "string"}, "cvv": {"type": "string"}},
        "dependentRequired": {"card": ["cvv"]},
    }
    result = compile(schema)({"card": "4242"})
    assert result.errors == [
        ValidationIssue("$input.cvv", "string", UNDEFINED, "required when 'card' is present")
    ]


def test_pattern_properties_and_additional_schema(compile: Callable[..., Any]) -> None:
    schema = {
        "type": "object",
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": {"type": "integer"},
    }
    result = compile(schema)({"x-a": 1, "b": "c", "d": 2})
    assert [(e.path, e.expected) for e in result.errors] == [
        ('$input["x-a"]', "string"),
        ("$input.b", "integer"),
    ]


def test_property_names(compile: Callable[..., Any]) -> None:
    result = compile({"type": "object", "propertyNames": {"maxLength": 2}})({"abc": 1, "ok": 2})
    assert [(e.path, e.expected, e.value) for e in result.errors] == [
        ("$input.abc", "string & MaxLength<2>", "abc")
    ]


def test_contains(compile: Callable[..., Any]) -> None:
    check = compile({"type": "array", "contains": {"type": "integer"}, "maxContains": 1})
    assert check(["a", 1]).success
    result = check([1, 2])
    assert [(e.path, e.expected) for e in result.errors] == [
        ("$input", "Array<any> & Contains<integer>")
    ]
    assert "2 items match" in (result.errors[0].description or "")


def test_false_items_report_each_extra_item(compile: Callable[..., Any]) -> None:
    check = compile({"type": "array", "prefixItems": [{"type": "integer"}], "items": False})
    assert [(e.path, e.expected, e.value) for e in check([1, "a", "b"]).errors] == [
        ("$input[1]", "undefined", "a"),
        ("$input[2]", "undefined", "b"),
    ]


def test_expected_of_reads_ref_names_and_resolves_other_refs() -> None:
    root = {
        "$defs": {
            "Level": {"type": "string", "enum": ["low", "high"]},
            "Pet": {"type": "object", "properties": {"name": {"type": "string"}}},
        },
        "properties": {"b": {"type": "integer"}},
    }
    # A structured definition reads as its name, an enum or scalar as what it allows.
    assert expected_of({"$ref": "#/$defs/Pet"}, root) == "Pet"
    assert expected_of({"$ref": "#/$defs/Level"}, root) == '("low" | "high")'
    assert (
        expected_of({"anyOf": [{"$ref": "#/$defs/Level"}, {"type": "null"}]}, root)
        == '("low" | "high" | null)'
    )
    assert expected_of({"$ref": "#/$defs/Level"}) == "Level"  # without the root, the name
    assert expected_of({"$ref": "#/components/schemas/Pet"}) == "Pet"
    assert expected_of({"$ref": "#/properties/b"}, root) == "integer"
    assert expected_of({"type": "array", "items": {"$ref": "#/definitions/T"}}) == "Array<T>"
    assert expected_of({"$ref": "#/$defs/A~1B"}) == "A/B"
    assert expected_of({}) == "any"
    assert expected_of(True) == "any"


def test_an_enum_definition_reads_as_its_values_in_issues(compile: Callable[..., Any]) -> None:
    schema = {
        "type": "object",
        "properties": {"level": {"$ref": "#/$defs/Level"}},
        "required": ["level"],
        "$defs": {"Level": {"type": "string", "enum": ["low", "high"]}},
    }
    check = compile(schema)
    assert [(e.path, e.expected) for e in check({}).errors] == [
        ("$input.level", '("low" | "high")')
    ]
    assert [(e.path, e.expected) for e in check({"level": "mid"}).errors] == [
        ("$input.level", '("low" | "high")')
    ]
