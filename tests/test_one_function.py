"""One function record whatever its origin: a method, an OpenAPI operation, an MCP tool.

Each door's function is ``llmapp.Function`` (a frozen, slotted dataclass) with only its
origin's own fields added; the schema checked has one name (``checked_parameters``) on
every door, and the names the HTTP and MCP records had for it still read it.
"""

from __future__ import annotations

import dataclasses
import weakref
from typing import Annotated, Any

import pytest
from annotated_types import Ge

import llmapp
import llmapp.http
import llmapp.mcp
from llmapp import Function, LlmFunction, application
from llmapp.http import HttpLlmFunction
from llmapp.mcp import McpLlmFunction

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"limit": {"type": "integer", "minimum": 1}, "word": {"type": "string"}},
    "required": ["limit"],
    "additionalProperties": False,
}

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "t", "version": "1"},
    "paths": {
        "/search": {
            "post": {
                "operationId": "search",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": SCHEMA}},
                },
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}

TOOL: dict[str, Any] = {"name": "search", "description": "Search.", "inputSchema": SCHEMA}


class Shop:
    def search(self, limit: Annotated[int, Ge(1)], word: str | None = None) -> list[str]:
        """Search."""
        return []


def functions(strict: bool) -> list[Function]:
    return [
        application(Shop, strict=strict).functions[0],
        llmapp.http.application(DOCUMENT, strict=strict).functions[0],
        llmapp.mcp.application([TOOL], strict=strict).functions[0],
    ]


def arguments(function: Function, limit: int) -> dict[str, Any]:
    """The model's arguments: an operation's body is under ``body``."""
    return {"body": {"limit": limit}} if isinstance(function, HttpLlmFunction) else {"limit": limit}


@pytest.mark.parametrize("strict", [False, True])
def test_every_door_makes_the_one_frozen_slotted_record(strict: bool) -> None:
    made = functions(strict)
    assert [type(f) for f in made] == [LlmFunction, HttpLlmFunction, McpLlmFunction]
    for function in made:
        assert isinstance(function, Function)
        assert not hasattr(function, "__dict__")
        weakref.ref(function)  # the exports keep per-function caches by weak reference
        with pytest.raises(dataclasses.FrozenInstanceError):
            function.name = "other"  # type: ignore[misc]
        assert function.validate(arguments(function, 0)).success is False
        assert function.validate_types(arguments(function, 1)).success is True


def test_the_schema_checked_has_one_name_and_the_old_names_read_it() -> None:
    class_function, http_function, mcp_function = functions(strict=True)
    for function in (class_function, http_function, mcp_function):
        # Strict: the model's schema moved the bound into a description; the checked one
        # keeps it.
        assert function.checked_parameters != function.parameters
    assert isinstance(http_function, HttpLlmFunction)
    assert isinstance(mcp_function, McpLlmFunction)
    assert http_function.validation_parameters is http_function.checked_parameters
    assert mcp_function.source_parameters is mcp_function.checked_parameters
    loose_http, loose_mcp = functions(strict=False)[1:]
    assert isinstance(loose_http, HttpLlmFunction) and isinstance(loose_mcp, McpLlmFunction)
    assert loose_http.validation_parameters is None
    assert loose_mcp.source_parameters is None


def test_a_copy_with_a_new_name_keeps_what_it_checks() -> None:
    for function in functions(strict=True):
        renamed = dataclasses.replace(function, name="find")
        assert type(renamed) is type(function) and renamed.name == "find"
        assert renamed.checked_parameters == function.checked_parameters
        assert renamed.validate(arguments(renamed, 0)).success is False


def test_the_records_share_every_field_but_their_origin_s_own() -> None:
    shared = {f.name for f in dataclasses.fields(Function)}
    assert {f.name for f in dataclasses.fields(LlmFunction)} == shared
    assert {f.name for f in dataclasses.fields(HttpLlmFunction)} - shared == {
        "method",
        "path",
        "_operation",
        "_route",
    }
    assert {f.name for f in dataclasses.fields(McpLlmFunction)} - shared == {"annotations", "tool"}
