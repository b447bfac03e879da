"""LangChain's side of the agents tests: a fake chat model that records what ``bind_tools``
would send, and the graph that runs it. A module of its own, imported by the tests that run
LangChain, so that collecting the tests does not import it."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


class ToolCallingFake(GenericFakeChatModel):
    """LangChain's fake chat model, with ``bind_tools`` recording what would be sent."""

    bound: list[dict[str, Any]] = []

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        self.bound.extend(convert_to_openai_tool(tool) for tool in tools)
        return self


def call(name: str, arguments: dict[str, Any], id: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": arguments, "id": id}])


def graph(model: Any, node: ToolNode) -> Any:
    builder = StateGraph(MessagesState)
    builder.add_node("model", lambda state: {"messages": [model.invoke(state["messages"])]})
    builder.add_node("tools", node)
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "model")
    return builder.compile()
