"""llmapp.mcp.application on hand-made tool lists, and llmapp.vendors.mcp's entries and answers."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from tests.mcp.served import Desk

from llmapp import CallResult, Function, application
from llmapp.mcp import McpLlmFunction, McpToolProblem
from llmapp.mcp import application as mcp_application
from llmapp.vendors import mcp as vendor

DRAFT7 = "http://json-schema.org/draft-07/schema#"

SEARCH = {
    "name": "search",
    "title": "Search",
    "description": "Search things.",
    "inputSchema": {
        "$schema": DRAFT7,
        "type": "object",
        "definitions": {"Limit": {"type": "integer", "minimum": 1}, "Unused": {"type": "null"}},
        "properties": {"query": {"type": "string"}, "limit": {"$ref": "#/definitions/Limit"}},
        "required": ["query"],
    },
    "outputSchema": {"type": "object", "properties": {"hits": {"type": "array"}}},
    "annotations": {"readOnlyHint": True, "openWorldHint": False, "destructiveHint": False},
}


def test_a_draft7_tool_becomes_an_llm_function() -> None:
    app = mcp_application([SEARCH])
    assert app.errors == []
    (function,) = app.functions
    assert isinstance(function, McpLlmFunction)
    assert function.name == "search"
    assert function.title == "Search"
    assert function.description == "Search things."
    assert function.parameters == {
        "type": "object",
        "properties": {"query": {"type": "string"}, "limit": {"$ref": "#/$defs/Limit"}},
        "required": ["query"],
        "$defs": {"Limit": {"type": "integer", "minimum": 1}},
        "additionalProperties": False,
    }
    assert function.output == {"type": "object", "properties": {"hits": {"type": "array"}}}
    assert function.tags == ["readOnly", "additive", "closedWorld"]
    assert function.separated is None and function.deprecated is False
    assert function.validate({"query": "x", "limit": 2}).success
    failure = function.validate({"query": 1, "limit": 0, "more": True})
    assert {e.path for e in failure.errors} == {"$input.query", "$input.limit", "$input.more"}


def test_sdk_tools_and_list_results_are_read_like_dicts() -> None:
    tool = types.Tool.model_validate(SEARCH)
    from_list = mcp_application(types.ListToolsResult(tools=[tool]))
    assert from_list.functions[0].parameters == mcp_application([SEARCH]).functions[0].parameters
    assert mcp_application([tool]).functions[0].tags == ["readOnly", "additive", "closedWorld"]
    assert mcp_application({"tools": [SEARCH]}).function("search") is not None


def test_a_tool_that_says_what_extra_keys_may_be_is_not_closed() -> None:
    open_tool = {"name": "t", "inputSchema": {"type": "object", "additionalProperties": True}}
    bare = {"name": "u", "inputSchema": {}}
    first, second = mcp_application([open_tool, bare]).functions
    assert first.parameters == {
        "type": "object",
        "properties": {},
        "additionalProperties": True,
        "required": [],
    }
    assert first.validate({"anything": 1}).success
    assert second.parameters == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


def test_a_root_reference_is_inlined_and_a_composed_root_is_left_open() -> None:
    zod = {
        "$schema": DRAFT7,
        "$ref": "#/definitions/Args",
        "definitions": {"Args": {"type": "object", "properties": {"a": {"type": "string"}}}},
    }
    composed = {"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}]}
    inlined, left_open = mcp_application(
        [{"name": "zod", "inputSchema": zod}, {"name": "composed", "inputSchema": composed}]
    ).functions
    assert inlined.parameters == {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": [],
        "additionalProperties": False,
    }
    assert "additionalProperties" not in left_open.parameters
    assert left_open.validate({"a": "x"}).success and not left_open.validate({"a": 1}).success


def test_tools_that_cannot_convert_are_errors_with_locations_and_the_rest_still_convert() -> None:
    app = mcp_application(
        [
            {"name": "dangling", "inputSchema": {"properties": {"a": {"$ref": "#/$defs/Gone"}}}},
            {"name": "scalar", "inputSchema": {"type": "string"}},
            {"name": "bad name!", "inputSchema": {}},
            {"name": "no_schema"},
            {"name": "bad_pattern", "inputSchema": {"properties": {"a": {"pattern": "(("}}}},
            {"name": "bad_output", "inputSchema": {}, "outputSchema": {"$ref": "#/nowhere"}},
            SEARCH,
        ]
    )
    assert [f.name for f in app.functions] == ["search"]
    found = {(p.name, p.location): p.reason for p in app.errors}
    assert found[("dangling", "inputSchema#/properties/a")] == (
        "$ref '#/$defs/Gone' points at nothing in this document"
    )
    assert found[("scalar", "inputSchema#")] == "type must be object, not string"
    assert found[("bad name!", "name")] == "not an MCP tool name: 'bad name!'"
    assert found[("no_schema", "inputSchema")] == "missing"
    assert "pattern" in found[("bad_pattern", "inputSchema")]
    assert ("bad_output", "outputSchema#") in found
    assert all(isinstance(p, McpToolProblem) for p in app.errors)
    assert str(app.errors[0]) == (
        "dangling.inputSchema#/properties/a: $ref '#/$defs/Gone' points at nothing in this document"
    )


def test_strict_functions_and_the_tools_strict_mode_cannot_express() -> None:
    loose = {"name": "free", "inputSchema": {"type": "object", "additionalProperties": True}}
    app = mcp_application([SEARCH, loose], strict=True)
    (search,) = app.functions
    assert search.parameters["required"] == ["query", "limit"]
    # the model is shown the strict form; arguments are checked against the tool's own
    # schema, every constraint kept (the strict nulls are removed before, by ``call``)
    assert search.checked_parameters is search.source_parameters
    assert search.validate({"query": "x"}).success
    assert not search.validate({"query": "x", "limit": 0}).success
    assert search.source_parameters == mcp_application([SEARCH]).functions[0].parameters
    assert [(p.name, p.reason.startswith("strict: ")) for p in app.errors] == [("free", True)]


def test_strict_nulls_are_dropped_only_where_the_tool_refuses_them() -> None:
    from llmapp.mcp._call import without_strict_nulls

    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": ["string", "null"]},
            "c": {"$ref": "#/$defs/C"},
            "d": {"type": "array", "items": {"$ref": "#/$defs/C"}},
            "r": {"type": "integer"},
        },
        "required": ["r"],
        "$defs": {"C": {"type": "object", "properties": {"x": {"type": "integer"}}}},
    }
    value = {"a": None, "b": None, "c": {"x": None}, "d": [{"x": None}, {"x": 1}], "r": None}
    assert without_strict_nulls(value, schema, schema) == {
        "b": None,
        "c": {},
        "d": [{}, {"x": 1}],
        "r": None,
    }


def test_a_list_that_is_not_a_tool_list_is_refused() -> None:
    with pytest.raises(TypeError):
        mcp_application("search")


def test_mcp_application_execute_is_async_only() -> None:
    from llmapp import ExecutionError

    with pytest.raises(ExecutionError, match="aexecute"):
        mcp_application([SEARCH]).execute(None, "search", {})


# --- llmapp.vendors.mcp -------------------------------------------------------------------


def test_entries_are_sdk_tools_with_the_model_side_only() -> None:
    entries = vendor.tools(application(Desk))
    for entry in entries:
        assert (
            types.Tool.model_validate(entry).model_dump(by_alias=True, exclude_none=True) == entry
        )
    whoami = next(e for e in entries if e["name"] == "whoami")
    assert list(whoami["inputSchema"]["properties"]) == ["greeting"]


def test_output_schemas_wrap_what_is_not_an_object() -> None:
    assert vendor.output_schema(None) is None
    obj = {"type": "object", "properties": {}}
    assert vendor.output_schema(obj) == (obj, False)
    listed = {"type": "array", "items": {"$ref": "#/$defs/P"}, "$defs": {"P": obj}}
    assert vendor.output_schema(listed) == (
        {
            "type": "object",
            "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/P"}}},
            "required": ["result"],
            "additionalProperties": False,
            "$defs": {"P": obj},
        },
        True,
    )
    referenced = {"$ref": "#/$defs/P", "$defs": {"P": obj}}
    assert vendor.output_schema(referenced) == (obj, False)  # P inlined, and used nowhere else
    tree = {"type": "object", "properties": {"kids": {"items": {"$ref": "#/$defs/Tree"}}}}
    recursive = {"$ref": "#/$defs/Tree", "$defs": {"Tree": tree, "Unused": obj}}
    assert vendor.output_schema(recursive) == ({**tree, "$defs": {"Tree": tree}}, False)
    nullable = {"anyOf": [obj, {"type": "null"}]}
    assert vendor.output_schema(nullable)[1] is True


def test_annotation_tags_in_any_spelling() -> None:
    (function,) = mcp_application([{**SEARCH, "annotations": {}}]).functions
    tags = ["read-only", "IDEMPOTENT", "open_world", "destructive", "catalog"]
    functions = [dataclasses.replace(function, tags=tags)]  # a function is frozen
    (entry,) = vendor.tools(functions)
    assert entry["title"] == "Search"
    assert entry["annotations"] == {
        "readOnlyHint": True,
        "idempotentHint": True,
        "openWorldHint": True,
        "destructiveHint": True,
    }


def test_call_tools_answers_each_request_as_the_server_does() -> None:
    app = application(Desk)
    desk = Desk()
    requests: list[Any] = [
        types.CallToolRequestParams(name="place_order", arguments={"sku": "ABC", "quantity": 1}),
        {"name": "count", "arguments": {}},
        {"params": {"name": "explode", "arguments": {"reason": "boom"}}},
        {"name": "place_order", "arguments": {"sku": "A"}},
    ]
    placed, counted, exploded, wrong = vendor.call_tools(app, desk, requests)
    assert placed == {
        "content": [
            {
                "type": "text",
                "text": '{"number": 1, "sku": "ABC", "quantity": 1, "speed": "standard"}',
            }
        ],
        "structuredContent": {"number": 1, "sku": "ABC", "quantity": 1, "speed": "standard"},
        "isError": False,
    }
    assert counted["structuredContent"] == {"result": 1}
    assert exploded == {
        "content": [{"type": "text", "text": "The function raised ValueError: boom"}],
        "isError": True,
    }
    assert wrong["isError"] is True and '"path": "$input.quantity"' in wrong["content"][0]["text"]
    for answer in (placed, counted, exploded, wrong):
        types.CallToolResult.model_validate(answer)
    (single,) = vendor.call_tools(app, desk, {"name": "count", "arguments": None})
    assert single["structuredContent"] == {"result": 1}


def test_a_result_without_output_has_no_structured_content() -> None:
    function = McpLlmFunction(name="f", description=None, parameters={"type": "object"})
    answer = vendor.tool_result(function, CallResult(name="f", success=True, data=None))
    assert answer == {"content": [{"type": "text", "text": "null"}], "isError": False}


def test_strict_entries_follow_openai_rules() -> None:
    (entry,) = vendor.tools(mcp_application([SEARCH]), strict=True)
    schema = entry["inputSchema"]
    assert schema["required"] == ["query", "limit"]
    assert schema["properties"]["limit"] == {"anyOf": [{"$ref": "#/$defs/Limit"}, {"type": "null"}]}
    from llmapp import LlmApplicationError

    loose = {"name": "free", "inputSchema": {"type": "object", "additionalProperties": True}}
    with pytest.raises(LlmApplicationError, match="free"):
        vendor.tools(mcp_application([loose]), strict=True)


def test_a_tool_is_the_one_frozen_function_record() -> None:
    (function,) = mcp_application([SEARCH], strict=True).functions
    assert isinstance(function, Function)
    with pytest.raises(dataclasses.FrozenInstanceError):
        function.tags = []  # type: ignore[misc]
    assert not hasattr(function, "__dict__")  # slotted
    # The one name for the schema checked; the old one still reads it.
    assert function.source_parameters is function.checked_parameters
    assert function.checked_parameters != function.parameters
    loose = mcp_application([SEARCH]).functions[0]
    assert loose.source_parameters is None and loose.checked_parameters is loose.parameters


def test_a_tool_list_is_checked_at_build_and_each_validator_compiles_at_its_first_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from llmapp._codegen import source as generated_source
    from llmapp.validate import _validator

    bad = {"name": "bad", "inputSchema": {"properties": {"a": {"pattern": "(("}}}}
    mcp_application([SEARCH, bad])  # the modules a build imports
    compiled: list[str] = []

    # Counted where generated code is made, not at ``compile``: code whose shape was
    # compiled before is made from that template without a ``compile`` call.
    for module in (_validator, generated_source):
        real = module.compiled

        def counting(source: Any, filename: Any, *args: Any, real: Any = real) -> Any:
            compiled.append(str(filename))
            return real(source, filename, *args)

        monkeypatch.setattr(module, "compiled", counting)
    schema = {**SEARCH["inputSchema"], "title": "Another search"}  # not in the cache
    tools = [
        {**SEARCH, "name": "search_again", "inputSchema": schema},
        {**bad, "name": "bad_again"},
    ]
    app = mcp_application(tools)
    assert [problem.name for problem in app.errors] == ["bad_again"]
    assert compiled == []  # the schemas checked, nothing compiled
    (function,) = app.functions
    assert function.validate({"query": "x", "limit": 2}).success
    assert not function.validate({"query": "x", "limit": 0}).success
    assert compiled and all(name.startswith("<llmapp-validator") for name in compiled)
