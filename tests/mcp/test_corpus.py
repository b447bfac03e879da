"""Every real tool list under ``../shared/corpora/mcp-tools`` through ``llmapp.mcp.application``.

For each tool: values generated from its input schema that jsonschema accepts validate;
valid values altered the way models err (a wrong type, a missing required key, an extra
key, a stringified object or array) fail at the altered path; and on random values
(guided near misses and mutations) llmapp's verdict agrees with jsonschema reading the
tool's own, un-normalised schema (its root closed, as llmapp closes it).
"""

from __future__ import annotations

import collections
import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.support.budget import scaled
from tests.support.corpora.alterations import alterations
from tests.support.corpora.reference import reference_validator
from tests.support.corpora.schemas import without_unsupported
from tests.support.corpora.values import guided, mutations

from llmapp.mcp import McpLlmFunction, application

LISTS = (
    "github-mcp-server/tools_list.json",
    *(
        f"chief-builder-mcp_tool_description_validator/tools_list/{name}.json"
        for name in (
            "official-everything",
            "official-filesystem",
            "official-memory",
            "official-sequential-thinking",
            "thirdparty-playwright",
            "thirdparty-sqlite",
        )
    ),
)
EXPECTED_COUNTS = {
    "github-mcp-server/tools_list.json": 117,
    "chief-builder-mcp_tool_description_validator/tools_list/official-everything.json": 11,
    "chief-builder-mcp_tool_description_validator/tools_list/official-filesystem.json": 14,
    "chief-builder-mcp_tool_description_validator/tools_list/official-memory.json": 9,
    "chief-builder-mcp_tool_description_validator/tools_list/official-sequential-thinking.json": 1,
    "chief-builder-mcp_tool_description_validator/tools_list/thirdparty-playwright.json": 22,
    "chief-builder-mcp_tool_description_validator/tools_list/thirdparty-sqlite.json": 5,
}
ATTEMPTS = scaled(30, 60)
"""Values generated per tool (see ``tests/support/budget.py``)."""


def _listed(path: Path) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["tools"]
    return tools


@pytest.fixture(scope="module")
def tool_lists(corpus: Callable[..., Path]) -> dict[str, list[dict[str, Any]]]:
    return {name: _listed(corpus("mcp-tools", name)) for name in LISTS}


def test_every_tool_list_converts_without_an_error(tool_lists: dict[str, Any]) -> None:
    counts = {}
    for name, tools in tool_lists.items():
        app = application(tools)
        assert app.errors == [], (name, app.errors)
        counts[name] = len(app.functions)
        assert [f.name for f in app.functions] == [t["name"] for t in tools]
    assert counts == EXPECTED_COUNTS
    assert sum(counts.values()) == 179


def test_the_snapshots_and_the_small_fixtures_convert_too(corpus: Callable[..., Path]) -> None:
    snapshots = sorted(corpus("mcp-tools", "github-mcp-server", "toolsnaps").glob("*.json"))
    tools = [json.loads(path.read_text(encoding="utf-8")) for path in snapshots]
    app = application(tools)
    assert (len(app.functions), app.errors) == (117, [])
    fixtures = corpus("mcp-tools", "chief-builder-mcp_tool_description_validator", "fixtures")
    read = {
        name: json.loads((fixtures / name).read_text(encoding="utf-8"))
        for name in ("tool-array.json", "bare-array.json", "single-tool.json")
    }
    read["single-tool.json"] = [read["single-tool.json"]]  # one tool object, not a list
    for name, listed in read.items():
        converted = application(listed)
        assert converted.errors == [] and converted.functions, name


def _closed(schema: dict[str, Any]) -> dict[str, Any]:
    """The tool's own schema closed at the root, as ``application`` closes it."""
    opening = ("additionalProperties", "patternProperties", "unevaluatedProperties")
    if any(key in schema for key in opening):
        return schema
    return {**schema, "additionalProperties": False}


def _pairs(tool_lists: dict[str, Any]) -> list[tuple[McpLlmFunction, Any]]:
    """Each tool (format and content keywords taken out: llmapp asserts them, jsonschema
    does not) as a function, with jsonschema's validator of its own schema."""
    found = []
    for tools in tool_lists.values():
        plain = [
            {**tool, "inputSchema": without_unsupported(tool["inputSchema"])} for tool in tools
        ]
        for tool, function in zip(plain, application(plain).functions, strict=True):
            found.append((function, reference_validator(_closed(tool["inputSchema"]))))
    return found


@pytest.mark.budgeted
def test_generated_values_validate_and_alterations_fail_where_they_say(
    tool_lists: dict[str, Any],
) -> None:
    kinds: collections.Counter[str] = collections.Counter()
    valid_total = 0
    for function, reference in _pairs(tool_lists):
        rnd = random.Random(function.name)
        valid = []
        for _ in range(ATTEMPTS):
            value = guided(function.parameters, rnd)
            if isinstance(value, dict) and reference.is_valid(value):
                valid.append(value)
        assert valid, f"{function.name}: no valid value generated"
        valid_total += len(valid)
        for value in valid:
            assert function.validate(copy.deepcopy(value)).success, (function.name, value)
            for alteration in alterations(function.parameters, value):
                if reference.is_valid(alteration.arguments):
                    continue  # e.g. a stringified object where a string is also allowed
                kinds[alteration.kind] += 1
                outcome = function.validate(alteration.arguments)
                assert not outcome.success, (function.name, alteration)
                paths = {issue.path for issue in outcome.errors}
                assert alteration.path in paths, (function.name, alteration, paths)
    assert valid_total > ATTEMPTS * 33
    assert set(kinds) >= {"number-as-string", "missing-required", "extra-key", "enum-case"}


@pytest.mark.budgeted
def test_verdicts_agree_with_jsonschema_on_random_values(tool_lists: dict[str, Any]) -> None:
    compared = 0
    for function, reference in _pairs(tool_lists):
        rnd = random.Random("random:" + function.name)
        for _ in range(ATTEMPTS):
            value = guided(function.parameters, rnd)
            for candidate in (value, *mutations(value, rnd, count=3)):
                expected = reference.is_valid(candidate)
                verdict = function.validate(candidate).success
                assert verdict is expected, (function.name, candidate)
                compared += 1
    assert compared > ATTEMPTS * 666
