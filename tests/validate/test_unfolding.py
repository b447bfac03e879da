"""A validation costs what the schema says, not what it unfolds to (issue 31, point 3).

A definition that names the next one twice, twenty levels over, is a small schema that
unfolds to a million checks; a recursive definition met twice at one place doubles the
work at every level of the value. Repeats are written once, schemas past the bound are
refused at build with their location, repeated recursion is remembered per call, and the
issues of one path are bounded.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

import llmapp.mcp
from llmapp import SchemaError, validator
from llmapp._limits import MAX_ISSUES_PER_PATH, MAX_UNFOLDED
from llmapp.http import application as http_application
from llmapp.validate._runtime import Memo
from llmapp.validate._validator import NOT_CHECKED_WORK


def _chain(levels: int, link: Any, *, prefix: str = "#/$defs/") -> dict[str, Any]:
    """``D0 .. D<levels>``, each ``link(ref to the next)``, the last a string."""
    defs = {f"D{i}": link({"$ref": f"{prefix}D{i + 1}"}) for i in range(levels)}
    defs[f"D{levels}"] = {"type": "string"}
    return defs


def _parameters(defs: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"note": {"$ref": "#/$defs/D0"}}, "$defs": defs}


def test_a_definition_named_twice_is_checked_once() -> None:
    schema = _parameters(_chain(18, lambda ref: {"allOf": [ref, ref]}))
    check = validator(schema)
    failure = check({"note": 5})
    assert [(issue.path, issue.expected) for issue in failure.errors] == [("$input.note", "string")]
    assert check({"note": "text"}).success


def test_repeated_anyof_branches_are_written_once() -> None:
    def nested(depth: int) -> dict[str, Any]:
        if depth == 0:
            return {"type": "string"}
        return {"anyOf": [nested(depth - 1), nested(depth - 1)]}

    check = validator({"type": "object", "properties": {"note": nested(10)}})
    assert len(check({"note": 5}).errors) == 1
    assert len(check.source) < 20_000


@pytest.mark.parametrize(
    "link",
    [
        lambda ref: {"allOf": [ref, {"allOf": [ref]}]},
        lambda ref: {"anyOf": [ref, {**ref, "minLength": 0}]},
        lambda ref: {"oneOf": [ref, {"allOf": [ref]}]},
        lambda ref: {
            "allOf": [{"properties": {"a": ref}}, {"properties": {"a": ref}, "type": "object"}]
        },
    ],
    ids=["allOf", "anyOf", "oneOf", "properties"],
)
def test_a_schema_that_unfolds_past_the_bound_is_refused_where_it_does(link: Any) -> None:
    schema = _parameters(_chain(22, link))
    with pytest.raises(SchemaError) as raised:
        validator(schema)
    (problem,) = raised.value.problems
    assert problem.location.startswith("#/$defs/D")
    assert f"more than {MAX_UNFOLDED:,} subschemas" in problem.reason


def test_within_the_bound_a_repeated_definition_is_still_checked() -> None:
    schema = _parameters(_chain(6, lambda ref: {"allOf": [ref, {"allOf": [ref]}]}))
    check = validator(schema)
    assert check({"note": "x"}).success
    assert not check({"note": 5}).success


def test_the_mcp_door_reports_the_tool_it_cannot_bound() -> None:
    schema = _parameters(_chain(22, lambda ref: {"allOf": [ref, {"allOf": [ref]}]}))
    app = llmapp.mcp.application([{"name": "annotate", "inputSchema": schema}])
    assert app.functions == []
    (problem,) = app.errors
    assert problem.name == "annotate"
    assert "#/$defs/D" in problem.reason and "subschemas" in problem.reason


def test_the_http_door_reports_the_operation_it_cannot_bound() -> None:
    link = lambda ref: {"allOf": [ref, {"allOf": [ref]}]}  # noqa: E731
    components = _chain(22, link, prefix="#/components/schemas/")
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/D0"}}}}
    document = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "components": {"schemas": components},
        "paths": {
            "/notes": {"post": {"requestBody": body, "responses": {"200": {"description": "ok"}}}}
        },
    }
    app = http_application(document)
    assert app.functions == []
    (error,) = app.errors
    assert (error.method, error.path) == ("post", "/notes")
    assert "subschemas" in " ".join(error.messages)


_TWICE = {
    "$defs": {
        "D": {
            "type": "object",
            "properties": {
                "b": {"allOf": [{"$ref": "#/$defs/D"}, {"allOf": [{"$ref": "#/$defs/D"}]}]},
                "x": {"type": "string"},
            },
        }
    },
    "$ref": "#/$defs/D",
}


def _nested(depth: int, leaf: Any) -> Any:
    value = {"x": leaf}
    for _ in range(depth):
        value = {"b": value}
    return value


def test_a_recursive_definition_met_twice_at_one_place_is_checked_once_per_value() -> None:
    check = validator(_TWICE)
    assert check(_nested(200, "a")).success
    failure = check(_nested(200, 5))
    assert len(failure.errors) == 1
    assert failure.errors[0].path == "$input" + ".b" * 200 + ".x"
    assert check.is_valid(_nested(200, "a")) and not check.is_valid(_nested(200, 5))


@pytest.mark.parametrize("leaf", ["a", 5, None])
@pytest.mark.parametrize("depth", [0, 1, 3])
def test_remembered_checks_agree_with_jsonschema(depth: int, leaf: Any) -> None:
    value = _nested(depth, leaf)
    expected = jsonschema.Draft202012Validator(_TWICE).is_valid(value)
    assert validator(_TWICE)(value).success is expected


def test_a_shared_subvalue_is_answered_for_each_place() -> None:
    check = validator(_TWICE)
    shared = {"x": 5}
    assert not check({"b": shared, "x": "a"}).success
    assert check({"b": {"x": "a"}, "x": "a"}).success


def test_issues_per_path_are_bounded_with_a_count_of_the_rest() -> None:
    branches = [{"type": "string", "minLength": n} for n in range(1, 41)]
    check = validator({"allOf": branches})
    failure = check("")
    assert len(failure.errors) == MAX_ISSUES_PER_PATH + 1
    last = failure.errors[-1]
    assert last.path == "$input"
    assert last.description is not None and "24 issues at this path left out" in last.description
    assert json.dumps([issue.path for issue in failure.errors])  # plain data


def test_a_call_past_its_budget_of_checks_is_refused_with_a_clear_issue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Memo, "BUDGET", 50)
    check = validator({**_TWICE, "$comment": "a validator of its own"})
    assert check(_nested(10, "a")).success  # within the budget
    failure = check(_nested(200, "a"))
    assert [(issue.path, issue.description) for issue in failure.errors] == [
        ("$input", NOT_CHECKED_WORK)
    ]
    assert not check.is_valid(_nested(200, "a"))
    assert check(_nested(10, "a")).success  # each call has the whole budget
