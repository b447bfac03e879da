"""normalise: foreign JSON Schema (draft-04 .. 2020-12) to the LLM-schema form.

Whole-structure comparisons for each rewrite, located problems for what cannot be
rewritten, and the JSON-Schema-Test-Suite (draft 4 and 2020-12) as a property: the
normalised schema, read as 2020-12, gives every test the verdict the suite expects.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from llmapp.jsonschema import Problem, normalise

DRAFT7 = "http://json-schema.org/draft-07/schema#"
DRAFT4 = "http://json-schema.org/draft-04/schema#"

CASES: list[tuple[str, Any, dict[str, Any]]] = [
    ("true", True, {}),
    ("false", False, {"not": {}}),
    (
        "nested booleans",
        {"properties": {"a": True, "b": False}, "items": False},
        {"properties": {"a": {}, "b": {"not": {}}}, "items": False},
    ),
    (
        "$schema, $id and $comment dropped",
        {"$schema": DRAFT7, "$id": "https://x.test/s", "$comment": "c", "type": "object"},
        {"type": "object"},
    ),
    (
        "definitions to $defs, unused dropped",
        {
            "$schema": DRAFT7,
            "definitions": {"Id": {"type": "integer"}, "Unused": {"type": "string"}},
            "properties": {"id": {"$ref": "#/definitions/Id"}},
        },
        {"properties": {"id": {"$ref": "#/$defs/Id"}}, "$defs": {"Id": {"type": "integer"}}},
    ),
    (
        "draft-07 $ref hides its siblings but title/description stay",
        {
            "$schema": DRAFT7,
            "definitions": {"Id": {"type": "integer"}},
            "properties": {
                "id": {"$ref": "#/definitions/Id", "type": "string", "description": "d"}
            },
        },
        {
            "properties": {"id": {"description": "d", "$ref": "#/$defs/Id"}},
            "$defs": {"Id": {"type": "integer"}},
        },
    ),
    (
        "2020-12 $ref keeps its siblings",
        {
            "$defs": {"Id": {"type": "integer"}},
            "properties": {"id": {"$ref": "#/$defs/Id", "minimum": 1}},
        },
        {
            "properties": {"id": {"minimum": 1, "$ref": "#/$defs/Id"}},
            "$defs": {"Id": {"type": "integer"}},
        },
    ),
    (
        "a reference to the root copies the root into $defs",
        {"type": "object", "properties": {"child": {"$ref": "#"}}},
        {
            "type": "object",
            "properties": {"child": {"$ref": "#/$defs/Root"}},
            "$defs": {
                "Root": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Root"}}}
            },
        },
    ),
    (
        "a reference into a property gets a name of its own",
        {"properties": {"a": {"type": "string"}, "b": {"$ref": "#/properties/a"}}},
        {
            "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/a"}},
            "$defs": {"a": {"type": "string"}},
        },
    ),
    (
        "nested definitions are hoisted, names kept apart",
        {
            "definitions": {"A": {"type": "string"}},
            "properties": {
                "x": {"$ref": "#/definitions/A"},
                "y": {
                    "definitions": {"A": {"type": "integer"}},
                    "$ref": "#/properties/y/definitions/A",
                },
            },
        },
        {
            "properties": {"x": {"$ref": "#/$defs/A"}, "y": {"$ref": "#/$defs/A_2"}},
            "$defs": {"A": {"type": "string"}, "A_2": {"type": "integer"}},
        },
    ),
    (
        "definitions reached only through other definitions",
        {
            "$defs": {"A": {"items": {"$ref": "#/$defs/B"}}, "B": {"type": "null"}},
            "$ref": "#/$defs/A",
        },
        {
            "$ref": "#/$defs/A",
            "$defs": {"A": {"items": {"$ref": "#/$defs/B"}}, "B": {"type": "null"}},
        },
    ),
    (
        "an $anchor reference",
        {"$defs": {"X": {"$anchor": "thing", "type": "string"}}, "items": {"$ref": "#thing"}},
        {"items": {"$ref": "#/$defs/X"}, "$defs": {"X": {"type": "string"}}},
    ),
    (
        "a pointer with escapes",
        {"$defs": {"a/b": {"type": "string"}}, "items": {"$ref": "#/$defs/a~1b"}},
        {"items": {"$ref": "#/$defs/a~1b"}, "$defs": {"a/b": {"type": "string"}}},
    ),
    (
        "draft-04 exclusive bounds",
        {
            "$schema": DRAFT4,
            "minimum": 1,
            "exclusiveMinimum": True,
            "maximum": 9,
            "exclusiveMaximum": False,
        },
        {"exclusiveMinimum": 1, "maximum": 9},
    ),
    (
        "tuple items",
        {"items": [{"type": "string"}, {"type": "integer"}], "additionalItems": False},
        {"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False},
    ),
    (
        "closing booleans stay booleans",
        {"additionalProperties": False, "unevaluatedProperties": True, "allOf": [True, False]},
        {"additionalProperties": False, "unevaluatedProperties": True, "allOf": [{}, {"not": {}}]},
    ),
    (
        "additionalItems without tuple items never applied",
        {"items": {"type": "string"}, "additionalItems": False},
        {"items": {"type": "string"}},
    ),
    (
        "dependencies split",
        {"dependencies": {"a": ["b"], "c": {"required": ["d"]}}},
        {"dependentRequired": {"a": ["b"]}, "dependentSchemas": {"c": {"required": ["d"]}}},
    ),
    (
        "values that look like keywords are left alone",
        {"properties": {"$ref": {"const": {"$ref": "#/nowhere"}}, "definitions": {"enum": [True]}}},
        {"properties": {"$ref": {"const": {"$ref": "#/nowhere"}}, "definitions": {"enum": [True]}}},
    ),
]


@pytest.mark.parametrize(("label", "schema", "expected"), CASES, ids=[c[0] for c in CASES])
def test_rewrites(label: str, schema: Any, expected: dict[str, Any]) -> None:
    before = copy.deepcopy(schema)
    assert normalise(schema) == (expected, [])
    assert schema == before  # the input is never modified


def test_missing_and_remote_targets_are_located_problems() -> None:
    schema = {
        "properties": {
            "a": {"$ref": "#/definitions/Nope"},
            "b": {"items": {"$ref": "other.json#/x"}},
            "c": 3,
        }
    }
    out, problems = normalise(schema)
    assert out == {"properties": {"a": {}, "b": {"items": {}}, "c": {}}}
    assert problems == [
        Problem("#/properties/a", "$ref '#/definitions/Nope' points at nothing in this document"),
        Problem(
            "#/properties/b/items", "$ref 'other.json#/x' is not a reference within this document"
        ),
        Problem("#/properties/c", "not a schema (an object or boolean)"),
    ]
    assert str(problems[2]) == "#/properties/c: not a schema (an object or boolean)"


def test_a_problem_in_a_place_copied_twice_is_reported_once() -> None:
    _, problems = normalise({"properties": {"me": {"$ref": "#"}, "bad": {"$ref": "#/x"}}})
    assert problems == [
        Problem("#/properties/bad", "$ref '#/x' points at nothing in this document")
    ]


def test_a_missing_target_inside_an_unused_definition_is_no_problem() -> None:
    assert normalise({"definitions": {"Unused": {"$ref": "#/gone"}}, "type": "object"}) == (
        {"type": "object"},
        [],
    )


# --- the JSON-Schema-Test-Suite as a property ----------------------------------------------

SUITE = (
    Path(__file__).resolve().parents[3] / "shared" / "corpora" / "json-schema-test-suite" / "tests"
)

LEFT_OUT = {
    "dynamicRef.json": "$dynamicRef is read as a static $ref (documented)",
    "refRemote.json": "references into other documents are problems, not fetched",
    "vocabulary.json": "custom meta-schemas are not read",
    "unevaluatedItems.json": "unevaluated* needs the annotations of the dropped applicators' places",
    "unevaluatedProperties.json": "as unevaluatedItems",
    "format.json": "format is an annotation in 2020-12 and an assertion in llmapp: compared elsewhere",
    "content.json": "as format",
}
"""Suite files whose meaning the normaliser does not claim to keep, and why."""


def _suite_groups() -> list[Any]:
    if not SUITE.is_dir():
        return []
    found = []
    for draft, dialect in (("draft4", DRAFT4), ("draft2020-12", None)):
        for path in sorted((SUITE / draft).glob("*.json")):
            if path.name in LEFT_OUT:
                continue
            for group in json.loads(path.read_text(encoding="utf-8")):
                schema = group["schema"]
                if dialect is not None and isinstance(schema, dict):
                    schema = {"$schema": dialect, **schema}
                ident = f"{draft}/{path.stem}:{group['description']}"
                if "Unicode property escape" in group["description"]:
                    continue  # \\p{...}: Python's re (so the reference library) cannot compile it
                found.append(pytest.param(schema, group["tests"], id=ident))
    return found


_GROUPS = _suite_groups()


@pytest.mark.skipif(not _GROUPS, reason=f"JSON-Schema-Test-Suite corpus not found at {SUITE}")
@pytest.mark.parametrize(("schema", "tests"), _GROUPS)
def test_suite_verdicts_survive_normalisation(schema: Any, tests: list[dict[str, Any]]) -> None:
    normalised, problems = normalise(schema)
    if problems:  # only the suite's references to remote meta-schemas
        assert all("is not a reference within this document" in p.reason for p in problems)
        return
    check = jsonschema.Draft202012Validator(normalised)
    for test in tests:
        assert check.is_valid(test["data"]) is test["valid"], (test["description"], normalised)
