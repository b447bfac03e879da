"""Tool search in every toolset: ``ToolSearch(app)`` is an application each framework takes.

The model is shown ``search_tools``; a search loads functions; a call of a loaded function
runs through the application's own ``execute``. pydantic-ai asks for the tools at every
step, so the loaded functions appear within the run; the Agents SDK marks tools deferred
for its own ``ToolSearchTool``.
"""

from __future__ import annotations

import asyncio
import json
from datetime import date
from typing import Any

import pytest

from llmapp.search import ToolSearch

from .conftest import RIGHT


def test_pydantic_ai_shows_what_a_search_loaded_from_the_next_step(app: Any, desk: Any) -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from llmapp.agents.pydantic_ai import toolset

    offered: list[list[str]] = []
    calls = [("search_tools", {"query": "book a meeting room"}), ("book", RIGHT)]

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        offered.append(sorted(tool.name for tool in info.function_tools))
        turn = len(offered) - 1
        if turn < len(calls):
            name, arguments = calls[turn]
            return ModelResponse(parts=[ToolCallPart(name, json.dumps(arguments), f"c{turn}")])
        return ModelResponse(parts=[TextPart("done")])

    searching = ToolSearch(app, k=1)
    agent = Agent(FunctionModel(respond), toolsets=[toolset(searching, desk)])
    assert agent.run_sync("Book the blue room.").output == "done"
    assert offered == [["search_tools"], ["book", "search_tools"], ["book", "search_tools"]]
    assert desk.seen == [("book", ("blue", 4, date(2026, 12, 24)))]


def test_the_agents_sdk_marks_tools_deferred(app: Any, desk: Any) -> None:
    pytest.importorskip("agents")
    from llmapp.agents.openai_agents import tools

    made = tools(app, desk, defer=True, keep=["book"])
    assert {tool.name: tool.defer_loading for tool in made} == {
        "book": False,
        "sign": True,
        "cancel": True,
    }
    searching = ToolSearch(app)
    assert [tool.name for tool in tools(searching, desk)] == ["search_tools"]


def test_the_agents_sdk_runs_a_search_as_a_tool(app: Any, desk: Any) -> None:
    pytest.importorskip("agents")
    from agents.tool_context import ToolContext

    from llmapp.agents.openai_agents import tools

    searching = ToolSearch(app, k=2)
    (search,) = tools(searching, desk)
    context = ToolContext(
        context=None, tool_name="search_tools", tool_call_id="1", tool_arguments=""
    )
    answer = json.loads(asyncio.run(search.on_invoke_tool(context, '{"query": "book a room"}')))
    assert answer["functions"][0]["name"] == "book"
    assert [tool.name for tool in tools(searching, desk)][:2] == ["search_tools", "book"]


def test_langchain_and_llamaindex_take_a_tool_search(app: Any, desk: Any) -> None:
    pytest.importorskip("langchain_core")
    pytest.importorskip("llama_index.core")
    from llmapp.agents import langchain, llamaindex

    searching = ToolSearch(app, k=1)
    (search,) = langchain.tools(searching, desk)
    found = json.loads(search.invoke({"query": "cancel a booking"}))
    assert [each["name"] for each in found["functions"]] == ["cancel"]
    assert [tool.name for tool in langchain.tools(searching, desk)] == ["search_tools", "cancel"]
    made = llamaindex.tools(searching, desk)
    assert [tool.metadata.name for tool in made] == ["search_tools", "cancel"]
    output = made[0].call(query="book a room")
    assert not output.is_error and "book" in output.content


def test_fastmcp_lists_a_function_once_a_search_loaded_it(app: Any, desk: Any) -> None:
    pytest.importorskip("fastmcp")
    from fastmcp import Client, FastMCP

    from llmapp.agents.fastmcp import add_tools

    server: FastMCP[Any] = FastMCP("desk")
    added = add_tools(server, ToolSearch(app, k=1), desk)
    assert [tool.name for tool in added] == ["search_tools", "book", "sign", "cancel"]

    async def main() -> dict[str, Any]:
        async with Client(server) as client:
            before = [tool.name for tool in await client.list_tools()]
            found = await client.call_tool("search_tools", {"query": "book a room"})
            after = [tool.name for tool in await client.list_tools()]
            booked = await client.call_tool("book", RIGHT)
        return {"before": before, "found": found, "after": after, "booked": booked}

    out = asyncio.run(main())
    assert out["before"] == ["search_tools"]
    assert out["found"].structured_content["functions"][0]["name"] == "book"
    assert out["after"] == ["search_tools", "book"]
    assert not out["booked"].is_error
    assert desk.seen == [("book", ("blue", 4, date(2026, 12, 24)))]


def test_the_llamaindex_retriever_offers_what_the_searches_loaded(app: Any, desk: Any) -> None:
    pytest.importorskip("llama_index.core")
    from llmapp.agents import llamaindex

    searching = ToolSearch(app, k=1)
    made = llamaindex.tools((searching, desk, searching.every))
    assert [tool.metadata.name for tool in made] == ["search_tools", "book", "sign", "cancel"]
    offered = llamaindex.retriever(made)
    assert [tool.metadata.name for tool in offered.retrieve("anything")] == ["search_tools"]
    made[0].call(query="cancel a booking")
    assert [tool.metadata.name for tool in offered.retrieve("anything")] == [
        "search_tools",
        "cancel",
    ]


def test_langchain_binds_what_the_searches_loaded(app: Any, desk: Any) -> None:
    pytest.importorskip("langchain_core")
    from llmapp.agents import langchain

    searching = ToolSearch(app, k=1)
    made = langchain.tools((searching, desk, searching.every))
    assert [tool.name for tool in langchain.visible(made)] == ["search_tools"]
    made[0].invoke({"query": "book a room"})
    assert [tool.name for tool in langchain.visible(made)] == ["search_tools", "book"]
    assert made[1].invoke(RIGHT) == '{"room": "blue", "seats": 4}'
