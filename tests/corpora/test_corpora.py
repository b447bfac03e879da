"""The corpus fixtures themselves, checked with jsonschema: converter, answers, alterations, loaders."""

from __future__ import annotations

import collections
import json
import random
import re

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import spread
from tests.support.corpora import bfcl, differential, reference, schemas, values
from tests.support.corpora.alterations import EXTRA_KEY, MISSING, alterations, render

needs_bfcl = pytest.mark.skipif(
    not bfcl.available(), reason=f"BFCL corpus not found at {bfcl.BFCL}"
)


# --- the dialect converter ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dialect", "expected"),
    [
        ({"type": "float"}, {"type": "number"}),
        ({"type": "double"}, {"type": "number"}),
        ({"type": "long"}, {"type": "integer"}),
        ({"type": "String", "description": "d"}, {"type": "string", "description": "d"}),
        ({"type": "char"}, {"type": "string"}),
        ({"type": "Boolean", "default": True}, {"type": "boolean", "default": True}),
        ({"type": "any"}, {}),
        ({"type": ""}, {}),
        ({"type": "HashMap"}, {"type": "object"}),
        ({"type": "dict", "required": ["a"]}, {"type": "object", "required": ["a"]}),
        (
            {"type": "tuple", "items": {"type": "float"}},
            {"type": "array", "items": {"type": "number"}},
        ),
        (
            {"type": "ArrayList", "items": {"type": "long"}},
            {"type": "array", "items": {"type": "integer"}},
        ),
        (
            {"type": "array", "items": {"type": "string"}, "enum": ["a", "b"]},
            {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
        ),
        (
            {"type": "integer", "enum": [1, 2], "maximum": 400},
            {"type": "integer", "enum": [1, 2], "maximum": 400},
        ),
        ({"type": "string", "format": "date"}, {"type": "string", "format": "date"}),
        (
            {
                "type": "dict",
                "properties": {"min": {"type": "float", "optional": True}},
                "required": [],
            },
            {
                "type": "object",
                "properties": {"min": {"type": "number"}},
                "required": [],
                "additionalProperties": False,
            },
        ),
    ],
)
def test_converter_maps_the_dialect(dialect, expected):
    parameters = {"type": "dict", "properties": {"p": dialect}, "required": ["p"]}
    assert bfcl.to_parameters(parameters) == {
        "type": "object",
        "properties": {"p": expected},
        "required": ["p"],
        "additionalProperties": False,
    }


def test_converter_closes_the_root_even_without_required():
    assert bfcl.to_parameters({"type": "dict", "properties": {}}) == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


@pytest.mark.parametrize(
    "parameters",
    [
        {"type": "dict", "properties": {"p": {"type": "Integer"}}},
        {"type": "dict", "properties": {"p": {"type": "string", "pattern": "x"}}},
        {"type": "string"},
    ],
)
def test_converter_refuses_what_it_does_not_know(parameters):
    with pytest.raises(ValueError):
        bfcl.to_parameters(parameters)


def test_names_are_sanitised_like_bfcl():
    assert bfcl.llm_name("math.factorial") == "math_factorial"
    assert bfcl.llm_name("EuclideanDistance.calculate") == "EuclideanDistance_calculate"


@needs_bfcl
def test_sanitised_names_are_valid_and_distinct_within_each_question():
    for question_id, offered in bfcl.questions().items():
        names = [f.llm_name for f in offered]
        assert len(set(names)) == len(names), question_id
        assert all(re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name) for name in names), question_id


# --- the whole BFCL corpus ------------------------------------------------------------------


@needs_bfcl
@pytest.mark.budgeted
def test_every_function_converts_to_a_valid_schema():
    functions = bfcl.functions()
    assert len(functions) == 2229  # 2078 offered with questions + 151 multi-turn docs
    for function in spread(functions, 2):
        jsonschema.Draft202012Validator.check_schema(function.parameters)
        assert function.parameters["additionalProperties"] is False


@needs_bfcl
def test_answers_are_built_from_every_call():
    calls = bfcl.calls()
    assert len(calls) == 1897
    answers = bfcl.all_answers()
    assert len(answers) == 3499
    by_variant = collections.Counter(a.variant.split("-")[0] for a in answers)
    assert by_variant["first"] == len(calls)


@needs_bfcl
def test_nested_acceptable_values_are_decoded():
    (call,) = [c for c in bfcl.calls() if c.question_id == "simple_java_1"]
    (answer,) = bfcl.answers(call)
    assert answer.arguments == {
        "object": "Customers",
        "useShortName": True,
        "params": {"limit": 50, "schemaFilter": "public"},
    }
    (call,) = [c for c in bfcl.calls() if c.question_id == "simple_python_0"]
    assert [(a.variant, a.arguments) for a in bfcl.answers(call)] == [
        ("first", {"base": 10, "height": 5, "unit": "units"}),
        ("choice-1", {"base": 10, "height": 5}),
    ]


@needs_bfcl
def test_accepted_answers_fit_their_schema_except_the_known_quirks():
    answers = {a.id: a for a in bfcl.all_answers()}
    misfits = {
        answer_id
        for answer_id, answer in answers.items()
        if not jsonschema.Draft202012Validator(
            answer.call.function.parameters, format_checker=jsonschema.FormatChecker()
        ).is_valid(answer.arguments)
    }
    assert misfits == set(bfcl.KNOWN_EXCEPTIONS)


@needs_bfcl
def test_every_alteration_breaks_the_answer_where_it_says():
    kinds: collections.Counter[str] = collections.Counter()
    for answer in bfcl.all_answers():
        if answer.id in bfcl.KNOWN_EXCEPTIONS:
            continue
        checker = jsonschema.Draft202012Validator(answer.call.function.parameters)
        for alteration in alterations(answer.call.function.parameters, answer.arguments):
            kinds[alteration.kind] += 1
            errors = list(checker.iter_errors(alteration.arguments))
            where = {tuple(e.absolute_path) for e in errors}
            if alteration.kind in ("missing-required", "extra-key"):
                assert where == {alteration.location[:-1]}, alteration
            else:
                assert where == {alteration.location}, alteration
    assert set(kinds) == {
        "number-as-string",
        "missing-required",
        "enum-case",
        "extra-key",
        "stringified-object",
        "stringified-array",
    }
    assert sum(kinds.values()) > 15_000


def test_alterations_of_a_small_schema():
    schema = bfcl.to_parameters(
        {
            "type": "dict",
            "properties": {
                "unit": {"type": "string", "enum": ["Celsius", "Fahrenheit"]},
                "days": {"type": "integer"},
                "where": {
                    "type": "dict",
                    "properties": {"lat": {"type": "float"}},
                    "required": ["lat"],
                },
            },
            "required": ["days"],
        }
    )
    made = {
        (a.kind, a.path): a.value
        for a in alterations(schema, {"unit": "Celsius", "days": 3, "where": {"lat": 1.5}})
    }
    assert made == {
        ("enum-case", "$input.unit"): "CELSIUS",
        ("number-as-string", "$input.days"): "3",
        ("missing-required", "$input.days"): MISSING,
        ("extra-key", f"$input.{EXTRA_KEY}"): "surprise",
        ("stringified-object", "$input.where"): '{"lat": 1.5}',
        ("number-as-string", "$input.where.lat"): "1.5",
        ("missing-required", "$input.where.lat"): MISSING,
        ("extra-key", f"$input.where.{EXTRA_KEY}"): "surprise",
    }


def test_paths_are_written_like_llmapp():
    assert render(()) == "$input"
    assert render(("customer", "age")) == "$input.customer.age"
    assert render(("items", 3, "sku")) == "$input.items[3].sku"
    assert render(("content-type",)) == '$input["content-type"]'
    assert render(("a b", 0)) == '$input["a b"][0]'


# --- the other corpora ----------------------------------------------------------------------


def test_schema_loaders_find_every_source():
    found = schemas.corpus_schemas()
    by_source = collections.Counter(entry.source for entry in found)
    if not schemas.CORPORA.is_dir():
        pytest.skip(f"corpora not found at {schemas.CORPORA}")
    assert by_source["mcp"] >= 170  # 179 tools + output schemas, duplicates dropped
    assert by_source["openapi"] >= 300
    assert by_source["bfcl"] >= 1500
    assert all(reason for reason in schemas.SKIPPED.values())


def test_component_schemas_stand_alone():
    found = {e.id: e for e in schemas.corpus_schemas() if e.source == "openapi"}
    if not found:
        pytest.skip("no OpenAPI 3.1 documents in the corpora")
    entry = found["openapi:bbs:IBbsArticle"]
    assert entry.schema["$ref"] == "#/$defs/IBbsArticle"
    assert "IBbsArticle" in entry.schema["$defs"]
    checker = reference.reference_validator(entry.reference)
    assert not checker.is_valid({})


def test_draft4_bounds_become_2020_12_bounds():
    schema = {
        "oneOf": [{"type": "null"}, {"type": "number", "minimum": 0, "exclusiveMinimum": True}]
    }
    assert reference.draft4_bounds(schema) == {
        "oneOf": [{"type": "null"}, {"type": "number", "exclusiveMinimum": 0}]
    }
    assert reference.draft4_bounds({"maximum": 3, "exclusiveMaximum": False}) == {"maximum": 3}


def test_unsupported_keywords_go_only_where_they_are_keywords():
    schema = {
        "type": "object",
        "properties": {"format": {"type": "string", "format": "email"}},
        "items": [{"format": "date"}],
        "format": "x",
    }
    assert schemas.without_unsupported(schema) == {
        "type": "object",
        "properties": {"format": {"type": "string"}},
        "items": [{}],
    }


# --- the value generators -------------------------------------------------------------------


@settings(max_examples=50, database=None)
@given(st.integers(0, 10_000))
def test_guided_values_are_json_and_often_valid(seed):
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer", "minimum": 1}, "b": {"enum": ["x", "y"]}},
        "required": ["a"],
        "additionalProperties": False,
    }
    rnd = random.Random(seed)
    produced = [values.guided(schema, rnd) for _ in range(20)]
    checker = jsonschema.Draft202012Validator(schema)
    assert any(checker.is_valid(p) for p in produced)
    for value in produced:
        mutated = values.mutations(value, rnd, 3)
        assert len(mutated) == 3
        json.dumps(mutated, allow_nan=False)


# --- the differential harness ---------------------------------------------------------------


class _Verdict:
    def __init__(self, errors: list[object]):
        self.success = not errors
        self.errors = errors


class _IgnoresRequired:
    """A validator with a planted bug: jsonschema without the ``required`` keyword."""

    checker = jsonschema.validators.extend(
        jsonschema.Draft202012Validator, validators={"required": lambda *args: iter(())}
    )

    def __init__(self, schema: object):
        self.inner = self.checker(schema)

    def is_valid(self, value: object) -> bool:
        return bool(self.inner.is_valid(value))

    def __call__(self, value: object) -> _Verdict:
        return _Verdict(list(self.inner.iter_errors(value)))


def test_the_harness_finds_a_planted_bug():
    entries = [
        e for e in schemas.corpus_schemas() if e.source == "mcp" and e.schema.get("required")
    ]
    if not entries:
        pytest.skip("no MCP schemas in the corpora")
    tally = differential.run(
        entries[:10], _IgnoresRequired, differential.Budget(examples=3, guided=6)
    )
    assert tally.values > 100
    found = list(tally.disagreements.values())
    assert found
    assert all(d.ours is True and d.reference is False for d in found)
