"""LangChain / LangGraph: llmapp's tools bound to a fake chat model and run by ToolNode, offline."""

from __future__ import annotations

import asyncio
from datetime import date

from tests.support.sdk import needs

from .conftest import RIGHT, SECRET, WRONG

pytestmark = needs("langchain_core", "langgraph")


def test_a_wrong_call_is_an_error_tool_message_with_llmapps_feedback_and_the_corrected_call_runs(
    app, desk
):
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langgraph.prebuilt import ToolNode

    from llmapp.agents.langchain import tools

    from .langchain_graph import ToolCallingFake, call, graph

    made = tools(app, desk)
    replies = iter([call("book", WRONG, "a"), call("book", RIGHT, "b"), AIMessage("done")])
    model = ToolCallingFake(messages=replies).bind_tools(made)
    state = graph(model, ToolNode(made)).invoke({"messages": [HumanMessage("Book blue.")]})
    answers = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert [m.status for m in answers] == ["error", "success"]
    for path in ("$input.seats", "$input.day", "$input.extra"):
        assert path in answers[0].content
    assert answers[1].content == '{"room": "blue", "seats": 4}'
    assert desk.seen == [("book", ("blue", 4, date(2026, 12, 24)))]
    assert state["messages"][-1].content == "done"


def test_bind_tools_sends_the_models_side_only(app, desk):
    from llmapp.agents.langchain import tools

    from .langchain_graph import ToolCallingFake

    model = ToolCallingFake(messages=iter([]))
    model.bind_tools(tools(app, desk))
    sent = {tool["function"]["name"]: tool["function"] for tool in model.bound}
    assert sent["sign"]["parameters"] == app.function("sign").separated.llm
    assert sent["book"]["parameters"] == app.function("book").parameters
    assert sent["book"]["description"] == app.function("book").description


def test_the_human_side_comes_from_the_runnable_config(app, desk):
    from llmapp.agents.langchain import tools

    (sign,) = tools((app, desk, ["sign"]), human=lambda name, config: config["configurable"])
    message = sign.invoke(
        {"type": "tool_call", "name": "sign", "args": {"booking": "blue"}, "id": "c"},
        config={"configurable": {"signature": SECRET}},
    )
    assert message.status == "success" and SECRET not in message.content
    assert desk.seen == [("sign", ("blue", SECRET))]


def test_a_method_that_raises_is_an_error_tool_message_in_an_async_graph(app, desk):
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langgraph.prebuilt import ToolNode

    from llmapp.agents.langchain import tools

    from .langchain_graph import ToolCallingFake, call, graph

    made = tools(app, desk)
    model = ToolCallingFake(messages=iter([call("cancel", {"room": "blue"}, "c"), AIMessage("ok")]))
    running = graph(model, ToolNode(made)).ainvoke({"messages": [HumanMessage("Cancel.")]})
    state = asyncio.run(running)
    (message,) = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert message.status == "error"
    assert "PermissionError: blue is locked" in message.content


def test_keys_named_like_langchains_own_parameters_reach_the_validator(app, desk):
    from llmapp.agents.langchain import tools

    (book,) = tools((app, desk, ["book"]))
    message = book.invoke(
        {"type": "tool_call", "name": "book", "args": {**RIGHT, "config": 1}, "id": "c"}
    )
    assert message.status == "error" and "$input.config" in message.content
    assert desk.seen == []
