"""LangChain / LangGraph: approval as LangGraph's interrupt, context from the RunnableConfig."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import pytest
from tests.support.sdk import needs

from llmapp import application
from llmapp.markers import Context

from .vault import Deps
from .vault import Vault as _Vault

if TYPE_CHECKING:
    from langchain_core.messages import AIMessage, ToolMessage
    from langchain_core.runnables import RunnableConfig
    from langgraph.graph import MessagesState

pytestmark = needs("langchain_core", "langgraph")


class Vault(_Vault):
    """Keeps secrets."""

    def whoami(self, deps: Annotated[Deps, Context()]) -> str:
        """Who is asking."""
        return deps.user


def _graph(vault: Vault, *replies: AIMessage):  # type: ignore[no-untyped-def]
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    from llmapp.agents.langchain import tools

    from .langchain_graph import ToolCallingFake

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
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langgraph.types import Command

    from .langchain_graph import call

    vault = Vault()
    graph = _graph(vault, call("wipe", {"reason": "leak"}, "a"), AIMessage("done"))
    config = {"configurable": {"thread_id": "t", "deps": Deps("ann")}}
    paused = graph.invoke({"messages": [HumanMessage("wipe it")]}, config)
    (interrupt,) = paused["__interrupt__"]
    assert interrupt.value == {
        "tool": "wipe",
        "arguments": {"reason": "leak"},
        "description": "Wipe the vault.",
        "question": 'Approve the call of wipe?\nreason: "leak"',
    }
    assert vault.log == []
    state = graph.invoke(Command(resume=resume), config)
    (answer,) = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert vault.log == ran
    assert answer.status == ("success" if resume else "error")
    assert state["messages"][-1].content == "done"


def test_configurable_values_are_the_calls_context() -> None:
    from llmapp.agents.langchain import tools

    (audit, _, whoami) = tools(application(Vault), Vault())
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


def test_a_tool_hidden_for_the_runs_config_is_not_offered_to_the_model() -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    from llmapp.agents.langchain import tools, visible

    from .langchain_graph import call

    made = tools(application(Vault), Vault())
    offered: list[list[str]] = []

    class Recording(GenericFakeChatModel):
        """LangChain's fake chat model, keeping the names of the tools each turn binds."""

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            offered.append([convert_to_openai_tool(tool)["function"]["name"] for tool in tools])
            return self

    def run(config: dict[str, Any], *replies: AIMessage) -> list[ToolMessage]:
        model = Recording(messages=iter(replies))

        def call_model(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
            bound = model.bind_tools(visible(made, config))  # per run: what exists for it
            return {"messages": [bound.invoke(state["messages"])]}

        builder = StateGraph(MessagesState)
        builder.add_node("model", call_model)
        builder.add_node("tools", ToolNode(made))
        builder.add_edge(START, "model")
        builder.add_conditional_edges("model", tools_condition, {"tools": "tools", END: END})
        builder.add_edge("tools", "model")
        state = builder.compile().invoke({"messages": [HumanMessage("audit")]}, config)
        return [m for m in state["messages"] if isinstance(m, ToolMessage)]

    ann = {"configurable": {"deps": Deps("ann")}}
    (refused,) = run(ann, call("audit", {}, "a"), AIMessage("done"))
    assert offered == [["wipe", "whoami"], ["wipe", "whoami"]]
    assert refused.status == "error" and "no function named 'audit'" in refused.content
    offered.clear()
    root = {"configurable": {"deps": Deps("root", admin=True)}}
    (audited,) = run(root, call("audit", {}, "b"), AIMessage("done"))
    assert offered[0] == ["audit", "wipe", "whoami"]
    assert audited.status == "success" and audited.content == '"audited"'
    assert visible(made) == made[1:]  # no config: the predicate sees no admin
