"""BFCL (non-live) through llmapp's validator: accepted answers pass, LLM-style mistakes fail where made.

The functions come from ``tests/support/corpora/bfcl.py`` (BFCL dialect -> LLM parameters schema), the
mistakes from ``tests/support/corpora/alterations.py``. Answers that do not fit their own schema are BFCL
data quirks, listed with the reason in ``bfcl.KNOWN_EXCEPTIONS``; they must fail, like any wrong
argument would.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from tests.support.budget import spread
from tests.support.corpora import bfcl
from tests.support.corpora.alterations import MISSING, Alteration, alterations

from llmapp._results import UNDEFINED, ValidationIssue
from llmapp.validate import Validator, validator

pytestmark = pytest.mark.skipif(
    not bfcl.available(), reason=f"BFCL corpus not found at {bfcl.BFCL}"
)

CATEGORIES = [c for c in bfcl.CATEGORIES if c != "irrelevance"]


@pytest.fixture(scope="module")
def compiled() -> Callable[[bfcl.Function], Any]:
    """The llmapp validator of a BFCL function, compiled once per function."""
    cache: dict[tuple[str, str], Any] = {}

    def of(function: bfcl.Function) -> Any:
        key = (function.question_id, function.name)
        if key not in cache:
            cache[key] = validator(function.parameters)
        return cache[key]

    return of


def _category(question_id: str) -> str:
    return question_id.rsplit("_", 1)[0]


def _answers(category: str) -> list[bfcl.Answer]:
    if not bfcl.available():
        return []
    return [a for a in bfcl.all_answers() if _category(a.call.question_id) == category]


def _shown(issues: list[ValidationIssue]) -> str:
    return "; ".join(f"{i.path}: {i.expected} (got {i.value!r})" for i in issues)


@pytest.mark.budgeted
def test_every_function_compiles_to_a_validator_that_wants_an_object(compiled):
    functions = bfcl.functions()
    for function in spread(functions, 3):
        check = compiled(function)  # a schema it cannot compile raises SchemaError
        assert isinstance(check, Validator)
        refused = check(None)
        assert not refused.success and refused.errors[0].path == "$input", function.name
    assert len(functions) == 2229


@pytest.mark.parametrize("category", CATEGORIES)
def test_accepted_answers_validate(compiled, category):
    checked = 0
    refused = []
    for answer in _answers(category):
        if answer.id in bfcl.KNOWN_EXCEPTIONS:
            continue
        checked += 1
        check = compiled(answer.call.function)
        result = check(answer.arguments)
        if not result.success or not check.is_valid(answer.arguments):
            refused.append(f"{answer.id} {json.dumps(answer.arguments)}: {_shown(result.errors)}")
        else:
            assert result.data == answer.arguments
    assert checked > 0
    assert not refused, f"{len(refused)} accepted answers refused:\n" + "\n".join(refused[:20])


def test_known_quirks_fail(compiled):
    answers = {a.id: a for a in bfcl.all_answers()}
    assert set(bfcl.KNOWN_EXCEPTIONS) <= set(answers), "a known exception is no longer generated"
    accepted = [
        answer_id
        for answer_id in bfcl.KNOWN_EXCEPTIONS
        if compiled(answers[answer_id].call.function)(answers[answer_id].arguments).success
    ]
    assert not accepted, f"answers that break their schema were accepted: {accepted}"


_TYPE_WORDS = {
    "integer": ("integer",),
    "number": ("number",),
    "string": ("string",),
    "boolean": ("boolean",),
    "array": ("Array<", "array"),
    "object": ("object", "{", "Record<"),
}


def _names_the_type(expected: str, schema: dict[str, Any] | None) -> bool:
    """Whether an issue's expected text is about the schema of the place."""
    if not expected or expected == "undefined":
        return False
    schema = schema or {}
    if isinstance(schema.get("enum"), list):
        return any(json.dumps(member) in expected for member in schema["enum"])
    words = _TYPE_WORDS.get(schema.get("type", ""), ())
    return not words or any(word in expected for word in words)


def _problem(alteration: Alteration, issues: list[ValidationIssue]) -> str | None:
    """What is wrong with the issues reported for an alteration, or None."""
    paths = [issue.path for issue in issues]
    if paths != [alteration.path]:
        return f"expected one issue at {alteration.path}, got {paths}"
    (issue,) = issues
    wanted_value = UNDEFINED if alteration.value is MISSING else alteration.value
    if issue.value is not wanted_value and issue.value != wanted_value:
        return f"issue value {issue.value!r}, expected {wanted_value!r}"
    if alteration.kind == "extra-key":
        return (
            None
            if issue.expected == "undefined"
            else f"expected 'undefined', got {issue.expected!r}"
        )
    if not _names_the_type(issue.expected, alteration.schema):
        return f"expected text {issue.expected!r} does not describe {alteration.schema}"
    return None


@pytest.mark.parametrize("category", CATEGORIES)
def test_alterations_fail_at_the_altered_path(compiled, category):
    checked = 0
    wrong = []
    for answer in _answers(category):
        if answer.id in bfcl.KNOWN_EXCEPTIONS:
            continue
        check = compiled(answer.call.function)
        for alteration in alterations(answer.call.function.parameters, answer.arguments):
            checked += 1
            result = check(alteration.arguments)
            if result.success or check.is_valid(alteration.arguments):
                wrong.append(f"{answer.id} {alteration.kind} at {alteration.path}: accepted")
                continue
            problem = _problem(alteration, result.errors)
            if problem:
                wrong.append(f"{answer.id} {alteration.kind} at {alteration.path}: {problem}")
    assert checked > 0
    assert not wrong, f"{len(wrong)} of {checked} alterations misreported:\n" + "\n".join(
        wrong[:20]
    )


def _function(question_id: str) -> bfcl.Function:
    (function,) = bfcl.questions()[question_id]
    return function


@pytest.mark.parametrize(
    ("arguments", "issues"),
    [
        ({"base": 10, "height": 5, "unit": "units"}, []),
        ({"base": "10", "height": 5}, [ValidationIssue("$input.base", "integer", "10")]),
        ({"base": 10}, [ValidationIssue("$input.height", "integer", UNDEFINED)]),
        (
            {"base": 10, "height": 5, "colour": "red"},
            [ValidationIssue("$input.colour", "undefined", "red")],
        ),
        (
            {"base": 10.5, "height": None, "unit": 3},
            [
                ValidationIssue("$input.base", "integer", 10.5),
                ValidationIssue("$input.height", "integer", None),
                ValidationIssue("$input.unit", "string", 3),
            ],
        ),
    ],
)
def test_a_simple_function_reports_every_mistake(compiled, arguments, issues):
    # simple_python_0: calculate_triangle_area(base: integer, height: integer, unit?: string)
    result = compiled(_function("simple_python_0"))(arguments)
    assert [(i.path, i.expected, i.value) for i in ([] if result.success else result.errors)] == [
        (i.path, i.expected, i.value) for i in issues
    ]


def test_nested_dict_answers_are_checked_inside(compiled):
    # simple_java_1: params is a HashMap (free-form object): anything inside goes, a string does not
    check = compiled(_function("simple_java_1"))
    good = {"object": "Customers", "useShortName": True, "params": {"limit": 50}}
    assert check(good).success
    result = check({**good, "params": '{"limit": 50}'})
    assert [i.path for i in result.errors] == ["$input.params"]
