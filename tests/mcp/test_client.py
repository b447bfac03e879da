"""The client direction end to end: the SDK's own ``MCPServer`` (so the other side is not
llmapp's) listed through ``llmapp.mcp.application`` and called through ``llmapp.mcp.call``."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

import llmapp.mcp
from llmapp import CallResult
from llmapp.vendors import anthropic, gemini, openai
from llmapp.vendors import mcp as mcp_vendor


def peer() -> tuple[MCPServer, list[dict[str, Any]]]:
    """An SDK server with two tools, and the list of the calls that reached it."""
    server = MCPServer("peer")
    received: list[dict[str, Any]] = []

    @server.tool()
    def book_room(room: str, nights: int, breakfast: bool = False) -> dict[str, Any]:
        """Book a hotel room."""
        received.append({"room": room, "nights": nights, "breakfast": breakfast})
        return {"booking": f"{room}-{nights}", "breakfast": breakfast}

    @server.tool()
    def cancel(booking: str) -> str:
        """Cancel a booking."""
        received.append({"booking": booking})
        raise ToolError(f"no booking {booking}")  # the SDK's way to send the message on

    return server, received


def converse(body: Any) -> Any:
    server, received = peer()
    found: list[Any] = []

    async def main() -> None:
        async with Client(server) as client:
            session = client.session
            app = llmapp.mcp.application(await session.list_tools())
            found.append(await body(session, app, received))

    anyio.run(main)
    return found[0]


def test_a_mistake_never_reaches_the_server_and_a_valid_call_runs() -> None:
    async def body(session: Any, app: Any, received: list[Any]) -> None:
        assert app.errors == []
        assert [f.name for f in app.functions] == ["book_room", "cancel"]
        book = app.function("book_room")
        assert book.parameters["required"] == ["room", "nights"]
        assert book.parameters["additionalProperties"] is False

        wrong = await llmapp.mcp.call(session, book, {"room": 12, "nights": "two", "pets": 1})
        assert isinstance(wrong, CallResult) and not wrong.success
        assert {issue.path for issue in wrong.validation.errors} == {
            "$input.room",
            "$input.nights",
            "$input.pets",
        }
        assert '"path": "$input.nights"' in wrong.feedback
        assert received == []  # stopped here: the server never saw it

        cut = await llmapp.mcp.call(session, book, '{"room": "12B", "nights": 2')
        assert not cut.success and "cut off" in cut.feedback
        assert received == []  # a cut-off answer is never half-run

        right = await llmapp.mcp.call(session, book, '{"room": "12B", "nights": "2",}')
        assert right.success, right
        assert right.data == {"booking": "12B-2", "breakfast": False}
        assert received == [{"room": "12B", "nights": 2, "breakfast": False}]

    converse(body)


def test_a_strict_application_sends_no_null_for_an_optional_key() -> None:
    server, received = peer()
    found: list[Any] = []

    async def main() -> None:
        async with Client(server) as client:
            app = llmapp.mcp.application(await client.session.list_tools(), strict=True)
            book = app.function("book_room")
            assert book.parameters["required"] == ["room", "nights", "breakfast"]
            assert book.source_parameters["required"] == ["room", "nights"]
            args = {"room": "1", "nights": 1, "breakfast": None}
            found.append(await llmapp.mcp.call(client.session, book, args))
            # checked against the tool's own schema, as a class's strict function is: an
            # optional key left out is still a valid call
            found.append(await llmapp.mcp.call(client.session, book, {"room": "1", "nights": 1}))

    anyio.run(main)
    assert all(result.success for result in found), found
    assert received == [{"room": "1", "nights": 1, "breakfast": False}] * 2


def test_a_tool_error_is_a_call_result_error() -> None:
    async def body(session: Any, app: Any, received: list[Any]) -> None:
        result = await llmapp.mcp.call(session, app.function("cancel"), {"booking": "x"})
        assert not result.success
        assert isinstance(result.error, llmapp.mcp.McpToolError)
        assert "no booking x" in str(result.error)
        assert "no booking x" in result.message()

    converse(body)


def test_the_application_runs_calls_through_the_vendors_call_tools() -> None:
    async def body(session: Any, app: Any, received: list[Any]) -> list[dict[str, Any]]:
        return await mcp_vendor.acall_tools(
            app,
            session,
            [
                {"name": "book_room", "arguments": {"room": "7", "nights": 1}},
                {"name": "book_room", "arguments": {"room": "7"}},
                {"name": "nope", "arguments": {}},
            ],
        )

    ok, missing, unknown = converse(body)
    assert ok["isError"] is False and '"booking": "7-1"' in ok["content"][0]["text"]
    assert missing["isError"] is True and '"nights": undefined' in missing["content"][0]["text"]
    assert (
        unknown["isError"] is True and "no function named 'nope'" in unknown["content"][0]["text"]
    )


def test_mcp_functions_export_through_every_vendor_like_class_functions() -> None:
    async def body(session: Any, app: Any, received: list[Any]) -> Any:
        return app

    app = converse(body)
    schema = app.function("book_room").parameters
    assert openai.tools(app)[0]["function"]["parameters"] == schema
    assert [entry["name"] for entry in openai.tools(app, api="responses")] == [
        "book_room",
        "cancel",
    ]
    assert anthropic.tools(app)[0]["input_schema"] == schema
    assert gemini.tools(app)[0]["parameters_json_schema"] == schema
    assert mcp_vendor.tools(app)[0]["inputSchema"] == schema


def test_a_human_side_value_of_a_tool_comes_from_the_caller_never_from_the_model() -> None:
    server, received = peer()
    found: list[Any] = []

    def is_string(schema: Any) -> bool:
        return schema.get("type") == "string"

    async def main() -> None:
        async with Client(server) as client:
            listed = await client.session.list_tools()
            app = llmapp.mcp.application(listed, separate=is_string)
            book = app.function("book_room")
            assert "room" not in book.llm_parameters["properties"]
            assert "room" in book.separated.human["properties"]
            sneaked = {"room": "from the model", "nights": 1}
            found.append(await app.aexecute(client.session, "book_room", sneaked, {"room": "9"}))
            found.append(
                await app.aexecute(client.session, "book_room", {"nights": 2}, {"room": "9"})
            )

    anyio.run(main)
    sneaked, booked = found
    assert not sneaked.success and sneaked.validation is not None
    assert [issue.path for issue in sneaked.validation.errors] == ["$input.room"]
    assert booked.success, booked
    assert received == [{"room": "9", "nights": 2, "breakfast": False}]
