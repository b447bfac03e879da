"""What an MCP server's answer can do to the model's side: bounded in size and time, masked."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import anyio
import pytest

import llmapp.mcp as m
from llmapp.mcp._call import call
from llmapp.schema import is_human

TOOLS = m.application(
    [
        {"name": "big", "inputSchema": {"type": "object"}},
        {"name": "slow", "inputSchema": {"type": "object"}},
        {
            "name": "echo",
            "inputSchema": {
                "type": "object",
                "properties": {"pin": {"type": "string", "x-llmapp-human": True}},
            },
        },
    ],
    separate=is_human,
)


class Session:
    """What any MCP server can answer (the SDK accepts any text block)."""

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        if name == "slow":
            await asyncio.sleep(30)
        text = "x" * 200_000 if name == "big" else f"pin was {arguments.get('pin')}"
        return {"content": [{"type": "text", "text": text}], "isError": False}


def test_a_huge_text_result_reaches_the_model_cut_and_the_caller_whole() -> None:
    result = asyncio.run(call(Session(), TOOLS.require("big"), "{}"))
    assert result.success and result.value == "x" * 200_000
    assert len(result.message()) < 51_000
    assert "cut: 200,000 characters in all" in result.message()


def test_a_server_that_does_not_answer_in_time_is_a_failed_call() -> None:
    result = asyncio.run(call(Session(), TOOLS.require("slow"), "{}", deadline=0.1))
    assert not result.success and isinstance(result.error, TimeoutError)
    assert result.message() == "The function raised TimeoutError: slow did not answer within 0.1 s"


def test_a_human_value_the_server_echoes_is_masked_for_the_model() -> None:
    function = TOOLS.require("echo")
    result = asyncio.run(call(Session(), function, "{}", human={"pin": "SECRET-PIN-42"}))
    assert result.success and "SECRET-PIN-42" in result.value
    assert "SECRET-PIN-42" not in result.message()


def test_arguments_nested_deeper_than_an_mcp_message_carries_are_refused_unsent() -> None:
    # The SDK's client cannot write such a message (past about 250 levels) and its server
    # drops one it cannot read (past about 200): refused here, the model is told why.
    pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from tests.mcp.scenario import ROOT, environment

    results: dict[int, Any] = {}

    async def main() -> None:
        line = ["-m", "llmapp", "mcp", str(ROOT / "tests" / "mcp" / "deep_served.py") + ":Notes"]
        server = StdioServerParameters(
            command=sys.executable, args=line, env=environment(), cwd=ROOT
        )
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            function = m.application(await session.list_tools()).require("keep")
            for depth in (100, 220, 300):
                text = '{"note": ' + "[" * depth + "]" * depth + "}"
                results[depth] = await call(session, function, text, deadline=5)

    anyio.run(main)
    assert results[100].success and results[100].value == {"result": 1}
    for depth in (220, 300):
        refused = results[depth]
        assert not refused.success and refused.error is None, refused
        assert refused.validation is not None
        assert "levels" in refused.message() and "not called" in refused.message()


def test_only_what_the_model_can_read_of_a_long_answer_is_masked(monkeypatch: Any) -> None:
    # Masking a long human value (a document) walks every character it is given: an answer
    # of megabytes cost a second per call, of which the model reads 50,000 characters.
    from llmapp.kernel import Masker

    masked: list[int] = []
    original = Masker.mask
    monkeypatch.setattr(
        Masker, "mask", lambda self, text: masked.append(len(text)) or original(self, text)
    )
    document = "Lorem ipsum dolor sit amet, " * 10
    function = TOOLS.require("echo")

    class Long:
        async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
            text = "x" * 100_000 + document + "y" * 100_000
            return {"content": [{"type": "text", "text": document + text}], "isError": False}

    result = asyncio.run(call(Long(), function, "{}", human={"pin": document}, max_message=1000))
    assert max(masked) < 2_000
    assert document[:40] not in result.message() and "***" in result.message()
    assert "cut: 200,560 characters in all" in result.message()


def test_a_strict_call_nested_past_the_bound_is_refused_not_raised() -> None:
    # Strict mode's nulls are taken out before the check: that walk went as deep as the
    # data (a framework hands over what its JSON parser read) and ran out of stack.
    tree = {"$ref": "#/$defs/Node"}
    node = {"type": "object", "properties": {"kids": {"type": "array", "items": tree}}}
    schema = {"type": "object", "properties": {"node": tree}, "$defs": {"Node": node}}
    strict = m.application([{"name": "tree", "inputSchema": schema}], strict=True)
    nested: dict[str, Any] = {"kids": []}
    for _ in range(450):
        nested = {"kids": [nested]}
    result = asyncio.run(call(Session(), strict.require("tree"), {"node": nested}))
    assert not result.success and result.validation is not None
    assert "nesting deeper than" in result.message()


def test_a_human_value_a_failed_tool_echoes_is_masked_for_the_model() -> None:
    # The success path masked what the server echoed; a tool error's text went as it was.
    class Refusing:
        async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
            text = f"denied: pin {arguments.get('pin')} is wrong"
            return {"content": [{"type": "text", "text": text}], "isError": True}

    function = TOOLS.require("echo")
    result = asyncio.run(call(Refusing(), function, "{}", human={"pin": "SECRET-PIN-42"}))
    assert not result.success and "SECRET-PIN-42" in str(result.error)  # the caller's, whole
    assert result.message() == "The function raised McpToolError: denied: pin *** is wrong"
