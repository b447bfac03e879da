"""The offline checkers, one table per vendor: a schema, and the problems (pointer: reason)
the vendor's strict mode would refuse it for; and what each strict export changes."""

from __future__ import annotations

from typing import Any

import pytest

from llmapp import LlmApplicationError, LlmFunction
from llmapp.vendors import anthropic, gemini, openai


def obj(
    properties: dict[str, Any], required: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }
    return {**schema, **extra}


STRING = {"type": "string"}
TREE = obj(
    {"name": STRING, "parent": {"anyOf": [{"$ref": "#/$defs/Tree"}, {"type": "null"}]}},
    **{
        "$defs": {
            "Tree": obj(
                {"name": STRING, "parent": {"anyOf": [{"$ref": "#/$defs/Tree"}, {"type": "null"}]}}
            )
        }
    },
)

OPENAI = [
    (obj({"a": STRING}), []),
    (obj({"a": {"type": ["string", "null"], "format": "email", "pattern": "^a"}}), []),
    (obj({"a": STRING}, required=[]), ["/: `required` must list every property (missing ['a'])"]),
    (
        {"type": "object", "properties": {"a": STRING}, "required": ["a"]},
        ["/: an object needs `additionalProperties: false`"],
    ),
    (
        obj({"a": {"type": "object", "additionalProperties": STRING}}),
        [
            "/properties/a: `additionalProperties` must be false (free-form keys are not"
            " supported) in OpenAI strict mode",
            "/properties/a: an object needs `additionalProperties: false`",
        ][:1],
    ),
    (
        obj({"a": {"type": "string", "minLength": 1}}),
        ["/properties/a: `minLength` is not supported by OpenAI strict mode"],
    ),
    (
        obj({"a": {"type": "string", "format": "uri"}}),
        ["/properties/a: `format` 'uri' is not a supported format in OpenAI strict mode"],
    ),
    (
        obj({"a": {"description": "anything"}}),
        ["/properties/a: a schema without a type (Any) is not supported"],
    ),
    (
        obj({"a": {"$ref": "#/$defs/A", "description": "x"}}, **{"$defs": {"A": STRING}}),
        ["/properties/a: a `$ref` cannot have sibling keywords"],
    ),
    (
        obj({"a": {"type": "array", "prefixItems": [STRING]}}),
        ["/properties/a: `prefixItems` is not supported by OpenAI strict mode"],
    ),
    ({"anyOf": [obj({})]}, ["/: the root must be a plain object (`type: object`, no `anyOf`)"]),
]


@pytest.mark.parametrize(("schema", "expected"), OPENAI)
def test_openai_problems(schema: dict[str, Any], expected: list[str]) -> None:
    found = openai.problems(schema)
    assert found[: len(expected)] == expected
    assert bool(found) == bool(expected)
    assert openai.accepts(schema) == (not expected)  # stops at the first problem: same verdict


ANTHROPIC = [
    (obj({"a": STRING}, required=[]), []),  # optional properties are fine
    (obj({"a": {"type": "array", "items": STRING, "minItems": 1}}), []),
    (obj({"a": {"type": "string", "pattern": "^[a-z]+$", "format": "uri"}}), []),
    (
        obj({"a": {"type": "integer", "minimum": 1}}),
        ["/properties/a: `minimum` is not supported by Anthropic strict tool use"],
    ),
    (
        obj({"a": {"type": "array", "items": STRING, "minItems": 2}}),
        ["/properties/a: `minItems` may only be 0 or 1 in Anthropic strict tool use"],
    ),
    (
        obj({"a": {"type": "string", "pattern": "(a)\\1"}}),
        [
            "/properties/a: `pattern` uses backreferences, lookaround or \\b in Anthropic strict tool use"
        ],
    ),
    (
        obj({"a": {"type": "string", "pattern": "^(?!x)"}}),
        [
            "/properties/a: `pattern` uses backreferences, lookaround or \\b in Anthropic strict tool use"
        ],
    ),
    (
        {"type": "object", "properties": {"a": STRING}},
        ["/: an object needs `additionalProperties: false`"],
    ),
    (
        obj({"a": {"enum": [{"x": 1}]}}),
        [
            "/properties/a: `enum` may only list strings, numbers, booleans and null in Anthropic strict tool use"
        ],
    ),
    (TREE, ["/$defs/Tree: recursive schemas are not supported"]),
]


@pytest.mark.parametrize(("schema", "expected"), ANTHROPIC)
def test_anthropic_problems(schema: dict[str, Any], expected: list[str]) -> None:
    assert anthropic.problems(schema) == expected


GEMINI = [
    (obj({"a": STRING}, required=[]), []),
    (obj({"a": {"type": "array", "prefixItems": [STRING], "maxItems": 1}}), []),
    (obj({"a": {"type": "integer", "enum": [1, 2]}}), []),
    (
        obj({"a": {"type": "string", "minLength": 1}}),
        ["/properties/a: `minLength` is not supported by Gemini's JSON Schema support"],
    ),
    (
        obj({"a": {"enum": [True]}}),
        ["/properties/a: `enum` may only list strings and numbers in Gemini's JSON Schema support"],
    ),
    (
        obj({"a": {"const": "x"}}),
        ["/properties/a: `const` is not supported by Gemini's JSON Schema support"],
    ),
    (
        obj({"a": {"$ref": "#/$defs/A", "description": "x"}}, **{"$defs": {"A": STRING}}),
        ["/properties/a: a `$ref` cannot have sibling keywords (other than `$`-keywords)"],
    ),
    (
        TREE,
        [
            "/$defs/Tree/properties/parent: a recursive reference in a required property (Gemini"
            " unrolls cycles only through optional properties; nullable is not enough)"
        ],
    ),
    # The same tree with an optional parent is fine.
    (
        obj(TREE["properties"], **{"$defs": {"Tree": obj(TREE["properties"], required=["name"])}}),
        [],
    ),
]


@pytest.mark.parametrize(("schema", "expected"), GEMINI)
def test_gemini_problems(schema: dict[str, Any], expected: list[str]) -> None:
    assert gemini.problems(schema) == expected


def function(parameters: dict[str, Any]) -> LlmFunction:
    return LlmFunction(name="f", description="A function.", parameters=parameters)


def test_openai_strict_makes_optional_properties_required_and_nullable() -> None:
    schema = obj({"a": STRING, "b": {"type": "integer", "default": 3}}, required=["a"])
    [entry] = openai.tools([function(schema)], strict=True)
    assert entry["function"]["parameters"] == obj(
        {
            "a": STRING,
            "b": {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "@default 3"},
        }
    )
    assert entry["function"]["strict"] is True


def test_anthropic_strict_keeps_optional_properties_and_moves_constraints() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer", "minimum": 1, "description": "Count."}},
        "required": [],
    }
    [entry] = anthropic.tools([function(schema)], strict=True)
    assert entry == {
        "name": "f",
        "description": "A function.",
        "input_schema": obj(
            {"n": {"type": "integer", "description": "Count.\n\n@minimum 1"}}, required=[]
        ),
        "strict": True,
    }


def test_anthropic_strict_counts_the_request_limits() -> None:
    many = [
        LlmFunction(name=f"f{i}", description=None, parameters=obj({"a": STRING}))
        for i in range(anthropic.MAX_STRICT_TOOLS + 1)
    ]
    with pytest.raises(LlmApplicationError, match="21 strict tools in one request"):
        anthropic.tools(many, strict=True)
    assert len(anthropic.tools(many)) == 21  # without strict there is no such limit


def test_gemini_strict_rewrites_what_the_subset_lacks() -> None:
    schema = obj(
        {
            "kind": {"const": "box"},
            "size": {"$ref": "#/$defs/Size", "description": "How big."},
            "label": {"type": "string", "maxLength": 9},
        },
        **{"$defs": {"Size": {"type": "integer", "enum": [1, 2]}}},
    )
    [entry] = gemini.tools([function(schema)], strict=True)
    assert entry["parameters_json_schema"]["properties"] == {
        "kind": {"type": "string", "enum": ["box"]},
        "size": {"anyOf": [{"$ref": "#/$defs/Size"}], "description": "How big."},
        "label": {"type": "string", "description": "@maxLength 9"},
    }


def test_gemini_openapi_form() -> None:
    schema = obj(
        {
            "tag": {"anyOf": [{"$ref": "#/$defs/Tag"}, {"type": "null"}], "description": "A tag."},
            "pair": {"type": "array", "prefixItems": [STRING, {"type": "integer"}]},
            "level": {"type": "integer", "enum": [1, 2], "exclusiveMinimum": 0},
        },
        **{"$defs": {"Tag": {"type": "string", "enum": ["a", "b"]}}},
    )
    [entry] = gemini.tools([function(schema)], schema="openapi")
    assert entry["parameters"] == {
        "type": "OBJECT",
        "properties": {
            "tag": {
                "type": "STRING",
                "enum": ["a", "b"],
                "description": "A tag.",
                "nullable": True,
            },
            "pair": {
                "type": "ARRAY",
                "items": {"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}]},
                "minItems": 2,
                "maxItems": 2,
                "description": '@prefixItems [{"type": "string"}, {"type": "integer"}]',
            },
            "level": {"type": "INTEGER", "description": "@enum [1, 2]\n@exclusiveMinimum 0"},
        },
        "required": ["tag", "pair", "level"],
    }
    assert gemini.openapi_problems(entry["parameters"]) == []


def test_gemini_openapi_refuses_recursion() -> None:
    with pytest.raises(LlmApplicationError, match=r"f\.Tree: a recursive type needs `\$ref`"):
        gemini.tools([function(TREE)], schema="openapi")


@pytest.mark.parametrize("module", [openai, anthropic, gemini])
def test_a_source_must_be_functions(module: Any) -> None:
    with pytest.raises(TypeError, match="application"):
        module.tools("not functions")
    with pytest.raises(TypeError, match="not an LLM function"):
        module.tools([object()])


def test_unknown_forms_are_refused() -> None:
    with pytest.raises(ValueError, match="api"):
        openai.tools([function(obj({}))], api="completions")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="schema"):
        gemini.tools([function(obj({}))], schema="yaml")  # type: ignore[arg-type]
