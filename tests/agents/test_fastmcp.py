"""FastMCP: llmapp's tools on a FastMCP server, and a FastMCP Client as llmapp.mcp's session,
both over FastMCP's in-memory transport."""

from __future__ import annotations

import asyncio
import json
from datetime import date

from tests.support.sdk import needs

import llmapp.mcp

from .conftest import RIGHT, SECRET, WRONG

pytestmark = needs("fastmcp")


def test_a_wrong_call_is_an_error_with_llmapps_feedback_and_the_corrected_call_runs(app, desk):
    from fastmcp import Client, FastMCP

    from llmapp.agents.fastmcp import add_tools

    server = FastMCP("desk")

    @server.tool
    def ping() -> str:
        """The server's own tool stays."""
        return "pong"

    add_tools(server, app, desk, human={"sign": {"signature": SECRET}})

    async def session() -> tuple[dict, object, object, object]:
        async with Client(server) as client:
            listed = {tool.name: tool for tool in await client.list_tools()}
            wrong = await client.call_tool_mcp("book", WRONG)
            right = await client.call_tool_mcp("book", RIGHT)
            signed = await client.call_tool_mcp("sign", {"booking": "blue"})
            return listed, wrong, right, signed

    listed, wrong, right, signed = asyncio.run(session())
    assert set(listed) == {"ping", "book", "sign", "cancel"}
    assert listed["sign"].input_schema == app.function("sign").separated.llm
    assert wrong.is_error is True
    for path in ("$input.seats", "$input.day", "$input.extra"):
        assert path in wrong.content[0].text
    assert right.is_error is False
    assert right.structured_content == {"room": "blue", "seats": 4}
    assert signed.is_error is False and SECRET not in signed.content[0].text
    assert desk.seen == [("book", ("blue", 4, date(2026, 12, 24))), ("sign", ("blue", SECRET))]


def test_a_fastmcp_client_is_a_session_for_llmapps_mcp_application_and_call():
    from fastmcp import Client, FastMCP

    server = FastMCP("rooms")
    booked: list[tuple[str, int]] = []

    @server.tool
    def book(room: str, seats: int) -> dict:
        """Book a room."""
        booked.append((room, seats))
        return {"room": room, "seats": seats}

    @server.tool
    def fail(room: str) -> str:
        """Always fails."""
        raise ValueError("no such room")

    async def session() -> tuple[object, object, object, object]:
        async with Client(server) as client:
            tools = llmapp.mcp.application(await client.list_tools())
            wrong = await llmapp.mcp.call(client, tools.function("book"), '{"room": 1}')
            right = await llmapp.mcp.call(
                client, tools.function("book"), '{"room": "a", "seats": "2"}'
            )
            failed = await tools.aexecute(client, "fail", {"room": "a"})
            return tools, wrong, right, failed

    tools, wrong, right, failed = asyncio.run(session())
    assert not tools.errors
    assert (
        wrong.success is False
        and "$input.room" in wrong.feedback
        and "$input.seats" in wrong.feedback
    )
    assert right.success is True and right.data == {"room": "a", "seats": 2}
    assert failed.success is False and "no such room" in failed.message()
    assert booked == [("a", 2)]
    assert json.loads(right.message()) == {"room": "a", "seats": 2}
