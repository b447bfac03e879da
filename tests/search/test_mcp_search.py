"""A large application over MCP: the served search tool, paginated ``tools/list``, and a client
that reads every page and searches before exporting (the SDK's ``Client``, in-process)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp import Client
from mcp.shared.exceptions import MCPError

import llmapp.mcp
from llmapp import application
from llmapp.search import SearchIndex
from llmapp.vendors import openai

VERBS = ("create", "delete", "list", "update", "archive")
NOUNS = ("invoice", "customer", "payment", "refund", "subscription", "coupon", "product", "price")


def _method(name: str, verb: str, noun: str) -> Any:
    def method(self: Any, identifier: str, note: str = "") -> str:
        return f"{name} {identifier}"

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"{verb.capitalize()} a {noun}.\n\nArgs:\n    identifier: Which {noun}.\n"
    return method


Billing = type(
    "Billing",
    (),
    {f"{v}_{n}": _method(f"{v}_{n}", v, n) for n in NOUNS for v in VERBS}
    | {"__doc__": "Billing, in forty functions."},
)


def session(server: Any, steps: Any, mode: str = "auto") -> Any:
    out: dict[str, Any] = {}

    async def main() -> None:
        async with Client(server, mode=mode) as client:
            await steps(client, out)

    anyio.run(main)
    return out


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_search_tool_lists_what_this_session_found(mode: str) -> None:
    # A handshake-era connection lasts: its next tools/list shows what it found. A
    # 2026-era request stands alone: the answer's inputSchema lets the model call at once.
    app = application(Billing)
    server = llmapp.mcp.server(app, Billing(), search=True)

    async def steps(client: Any, out: dict[str, Any]) -> None:
        out["before"] = [tool.name for tool in (await client.list_tools()).tools]
        answer = await client.call_tool("search_tools", {"query": "refund payments", "k": 2})
        out["answer"] = answer
        names = [each["name"] for each in answer.structured_content["functions"]]
        out["after"] = [tool.name for tool in (await client.list_tools(cache_mode="refresh")).tools]
        out["call"] = await client.call_tool(names[0], {"identifier": "p1"})
        out["unfound"] = await client.call_tool("archive_coupon", {"identifier": "c1"})
        out["wrong"] = await client.call_tool("search_tools", {"k": 2})

    out = session(server, steps, mode)
    assert out["before"] == ["search_tools"]
    found = out["answer"].structured_content["functions"]
    names = [each["name"] for each in found]
    assert len(names) == 2 and all(name.startswith(tuple(VERBS)) for name in names)
    assert all(each["inputSchema"]["required"] == ["identifier"] for each in found)
    listed = sorted(names, key=[f.name for f in app.functions].index)
    assert out["after"] == ["search_tools", *(listed if mode == "legacy" else [])]
    assert not out["call"].is_error and f"{names[0]} p1" in out["call"].content[0].text
    assert not out["unfound"].is_error  # every served function stays callable by name
    assert out["wrong"].is_error and "$input.query" in out["wrong"].content[0].text


def test_refunds_are_found_by_their_words() -> None:
    server = llmapp.mcp.server(application(Billing), Billing(), search=True)

    async def steps(client: Any, out: dict[str, Any]) -> None:
        answer = await client.call_tool("search_tools", {"query": "delete a refund"})
        out["names"] = [each["name"] for each in answer.structured_content["functions"]]

    assert session(server, steps)["names"][0] == "delete_refund"


def test_tools_list_is_paginated_by_cursor() -> None:
    server = llmapp.mcp.server(application(Billing), Billing(), page_size=15)

    async def steps(client: Any, out: dict[str, Any]) -> None:
        pages = []
        cursor = None
        while True:
            page = await client.list_tools(cursor=cursor)
            pages.append([tool.name for tool in page.tools])
            cursor = page.next_cursor
            if cursor is None:
                break
        out["pages"] = pages
        out["all"] = [tool.name for tool in await llmapp.mcp.all_tools(client)]
        try:
            await client.list_tools(cursor="not-ours")
        except MCPError as error:
            out["refused"] = error.error.code

    out = session(server, steps)
    assert [len(page) for page in out["pages"]] == [15, 15, 10]
    every = [name for page in out["pages"] for name in page]
    assert every == [f.name for f in application(Billing).functions]
    assert out["all"] == every
    assert out["refused"] == -32602


def test_a_client_searches_a_large_server_before_exporting() -> None:
    server = llmapp.mcp.server(application(Billing), Billing(), page_size=7)

    async def steps(client: Any, out: dict[str, Any]) -> None:
        out["tools"] = await llmapp.mcp.all_tools(client)

    listed = session(server, steps)["tools"]
    upstream = llmapp.mcp.application(listed)
    assert len(upstream.functions) == 40
    chosen = SearchIndex(upstream).search("cancel the subscription", k=3)
    exported = openai.tools(chosen)
    assert "archive_subscription" in [t["function"]["name"] for t in exported] or any(
        "subscription" in t["function"]["name"] for t in exported
    )
    assert len(exported) == 3
    json.dumps(exported)
    types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in listed])
