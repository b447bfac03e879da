"""LlamaIndex: llmapp's tools run by a FunctionAgent over LlamaIndex's MockFunctionCallingLLM,
approval included (the workflow's InputRequiredEvent / HumanResponseEvent)."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from typing import TYPE_CHECKING, Any

import pytest
from tests.support.sdk import needs

from llmapp import CallContext, application, controls

from .conftest import RIGHT, WRONG

if TYPE_CHECKING:
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.base.llms.types import ChatMessage
    from llama_index.core.llms import MockFunctionCallingLLM
    from llama_index.core.workflow import InputRequiredEvent

pytestmark = needs("llama_index.core")


def scripted(*calls: tuple[str, dict[str, Any]]) -> tuple[MockFunctionCallingLLM, list[Any]]:
    """The mock model making each call in turn, then saying "done"; it keeps what it saw."""
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms import MockFunctionCallingLLM

    seen: list[Any] = []

    def respond(messages: Any, **kwargs: Any) -> ChatMessage:
        seen.append((list(messages), kwargs.get("tools")))
        turn = sum(1 for message in messages if message.role == MessageRole.TOOL)
        if turn < len(calls):
            name, arguments = calls[turn]
            block = ToolCallBlock(tool_call_id=f"c{turn}", tool_name=name, tool_kwargs=arguments)
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[block])
        return ChatMessage(role=MessageRole.ASSISTANT, content="done")

    return MockFunctionCallingLLM(response_generator=respond), seen


def tool_answers(seen: list[Any]) -> list[str]:
    from llama_index.core.base.llms.types import MessageRole

    messages = seen[-1][0]
    return [m.content for m in messages if m.role == MessageRole.TOOL]


def test_a_wrong_call_is_answered_with_llmapps_feedback_and_the_corrected_call_runs(app, desk):
    from llama_index.core.agent.workflow import FunctionAgent

    from llmapp.agents.llamaindex import tools

    llm, seen = scripted(("book", WRONG), ("book", RIGHT))
    agent = FunctionAgent(tools=tools(app, desk), llm=llm)

    async def run() -> Any:
        return await agent.run(user_msg="Book blue.")

    output = asyncio.run(run())
    assert str(output) == "done"
    first, second = tool_answers(seen)
    for path in ("$input.seats", "$input.day", "$input.extra"):
        assert path in first
    assert json.loads(second) == {"room": "blue", "seats": 4}
    assert desk.seen == [("book", ("blue", 4, date(2026, 12, 24)))]


def test_the_model_sees_its_own_side_of_the_parameters(app, desk):
    from llmapp.agents.llamaindex import tools

    made = {tool.metadata.name: tool for tool in tools(app, desk)}
    sent = made["sign"].metadata.to_openai_tool()["function"]
    assert sent["parameters"] == app.function("sign").separated.llm
    assert sent["description"] == app.function("sign").description


def test_a_failed_call_is_an_error_output(app, desk):
    from llmapp.agents.llamaindex import tools

    (cancel,) = tools((app, desk, ["cancel"]))
    output = cancel.call(room="blue")
    assert output.is_error is True
    assert output.content == "The function raised PermissionError: blue is locked"
    assert cancel.call(room=3).is_error is True


class Vault:
    """Keeps secrets."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def wipe(self, reason: str) -> str:
        """Wipe the vault.

        @tag destructive
        """
        self.log.append(reason)
        return "wiped"


@pytest.mark.parametrize(
    ("answer", "ran", "told"),
    [
        ({"response": "yes"}, ["leak"], '"wiped"'),
        ({"approved": True}, ["leak"], '"wiped"'),
        ({"response": "no"}, [], "A human declined the call of wipe; it did not run."),
    ],
)
def test_a_destructive_call_waits_for_the_humans_answer_in_the_workflow(
    answer: dict[str, Any], ran: list[str], told: str
) -> None:
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.workflow import HumanResponseEvent, InputRequiredEvent

    from llmapp.agents.llamaindex import ApprovalRequest, tools

    vault = Vault()
    llm, seen = scripted(("wipe", {"reason": "leak"}))
    agent = FunctionAgent(tools=tools(application(Vault), vault), llm=llm)

    async def run() -> tuple[list[InputRequiredEvent], Any]:
        handler = agent.run(user_msg="Wipe it.")
        asked: list[InputRequiredEvent] = []
        async for event in handler.stream_events():
            if isinstance(event, InputRequiredEvent):
                asked.append(event)
                assert vault.log == []  # paused: nothing ran before the answer
                reply = HumanResponseEvent(approval_id=event.approval_id, **answer)
                handler.ctx.send_event(reply)
        return asked, await handler

    asked, output = asyncio.run(run())
    (question,) = asked
    assert isinstance(question, ApprovalRequest)
    assert question.tool == "wipe" and question.arguments == {"reason": "leak"}
    assert question.description == "Wipe the vault."
    assert question.prefix == 'Approve the call of wipe?\nreason: "leak"\n(yes / no)'
    assert vault.log == ran
    assert tool_answers(seen) == [told]
    assert str(output) == "done"


def test_outside_a_workflow_a_call_that_needs_approval_is_refused() -> None:
    from llmapp.agents.llamaindex import tools

    vault = Vault()
    (wipe,) = tools(application(Vault), vault)
    output = asyncio.run(wipe.acall(reason="leak"))
    assert output.is_error and "needs a human's approval" in output.content
    assert vault.log == []


def _in_a_workflow(context: CallContext) -> bool:
    from llama_index.core.workflow import Context

    return context.get(Context) is not None


class Bank:
    """Holds accounts."""

    @controls(enabled=lambda context: not _in_a_workflow(context))
    def audit(self) -> str:
        """Audit every account (only outside a workflow)."""
        return "clean"

    @controls(enabled=_in_a_workflow)
    def balance(self, account: str) -> int:
        """The balance of an account (only in a workflow)."""
        return 7


def _run(agent: FunctionAgent, message: str) -> Any:
    async def run() -> Any:
        return await agent.run(user_msg=message)

    return asyncio.run(run())


def offered(seen: list[Any]) -> list[list[str]]:
    return [[tool.metadata.name for tool in sent] for _, sent in seen]


def test_the_retriever_offers_each_step_only_the_tools_enabled_for_its_context() -> None:
    from llama_index.core.agent.workflow import FunctionAgent

    from llmapp.agents.llamaindex import retriever, tools, visible

    made = tools(application(Bank), Bank())
    llm, seen = scripted(("balance", {"account": "a"}))
    agent = FunctionAgent(tool_retriever=retriever(made), llm=llm)
    assert str(_run(agent, "Balance?")) == "done"
    assert offered(seen) == [["balance"], ["balance"]]  # never audit, in either turn
    assert tool_answers(seen) == ["7"]
    assert [tool.metadata.name for tool in visible(made)] == ["audit"]  # outside a workflow


def test_a_call_of_a_tool_hidden_for_the_step_is_answered_as_not_found() -> None:
    from llama_index.core.agent.workflow import FunctionAgent

    from llmapp.agents.llamaindex import retriever, tools

    made = tools(application(Bank), Bank())
    llm, seen = scripted(("audit", {}))
    agent = FunctionAgent(tool_retriever=retriever(made), llm=llm)
    assert str(_run(agent, "Audit.")) == "done"
    (answer,) = tool_answers(seen)
    assert "audit" in answer and "not found" in answer
