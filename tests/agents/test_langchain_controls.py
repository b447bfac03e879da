"""LangChain / LangGraph: approval as LangGraph's interrupt, context from the RunnableConfig."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langgraph")

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command

from llmapp import CallContext, application, controls
from llmapp.agents.langchain import tools
from llmapp.markers import Context

from .test_langchain import ToolCallingFake, call


@dataclass
class Deps:
    user: str
    admin: bool = False


def _admin(context: CallContext) -> bool:
    deps = context.get(Deps)
    return deps is not None and deps.admin


class Vault:
    """Keeps secrets."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def whoami(self, deps: Annotated[Deps, Context()]) -> str:
        """Who is asking."""
        return deps.user

    @controls(enabled=_admin)
    def audit(self) -> str:
        """Audit the vault."""
        return "audited"

    def wipe(self, reason: str) -> str:
        """Wipe the vault.

        @tag destructive
        """
        self.log.append(reason)
        return "wiped"


def _graph(vault: Vault, *replies: AIMessage):  # type: ignore[no-untyped-def]
    made = tools(application(Vault), vault)
    model = ToolCallingFake(messages=iter(replies)).bind_tools(made)
    builder = StateGraph(MessagesState)
    builder.add_node("model", lambda state: {"messages": [model.invoke(state["messages"])]})
    builder.add_node("tools", ToolNode(made))
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "model")
    return builder.compile(checkpointer=InMemorySaver())


@pytest.mark.parametrize(("resume", "ran"), [(True, ["leak"]), (False, [])])
def test_a_destructive_call_pauses_the_graph_until_the_human_answers(
    resume: bool, ran: list[str]
) -> None:
    vault = Vault()
    graph = _graph(vault, call("wipe", {"reason": "leak"}, "a"), AIMessage("done"))
    config = {"configurable": {"thread_id": "t", "deps": Deps("ann")}}
    paused = graph.invoke({"messages": [HumanMessage("wipe it")]}, config)
    (interrupt,) = paused["__interrupt__"]
    assert interrupt.value == {
        "tool": "wipe",
        "arguments": {"reason": "leak"},
        "description": "Wipe the vault.",
    }
    assert vault.log == []
    state = graph.invoke(Command(resume=resume), config)
    (answer,) = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert vault.log == ran
    assert answer.status == ("success" if resume else "error")
    assert state["messages"][-1].content == "done"


def test_configurable_values_are_the_calls_context() -> None:
    (whoami, audit, _) = tools(application(Vault), Vault())
    assert whoami.args_schema == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }
    tool_call = {"type": "tool_call", "name": "whoami", "args": {}, "id": "c"}
    config = {"configurable": {"deps": Deps("ann")}}
    assert whoami.invoke(tool_call, config=config).content == '"ann"'
    hidden = audit.invoke({**tool_call, "name": "audit"}, config=config)
    assert hidden.status == "error" and "no function named 'audit'" in hidden.content
    admin = {"configurable": {"deps": Deps("root", admin=True)}}
    assert audit.invoke({**tool_call, "name": "audit"}, config=admin).content == '"audited"'
