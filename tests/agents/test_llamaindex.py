"""LlamaIndex: llmapp's tools run by a FunctionAgent over LlamaIndex's MockFunctionCallingLLM."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from typing import Any

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms import MockFunctionCallingLLM

from llmapp.agents.llamaindex import tools

from .conftest import RIGHT, WRONG


def scripted(*calls: tuple[str, dict[str, Any]]) -> tuple[MockFunctionCallingLLM, list[Any]]:
    """The mock model making each call in turn, then saying "done"; it keeps what it saw."""
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
    messages = seen[-1][0]
    return [m.content for m in messages if m.role == MessageRole.TOOL]


def test_a_wrong_call_is_answered_with_llmapps_feedback_and_the_corrected_call_runs(app, desk):
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
    made = {tool.metadata.name: tool for tool in tools(app, desk)}
    sent = made["sign"].metadata.to_openai_tool()["function"]
    assert sent["parameters"] == app.function("sign").separated.llm
    assert sent["description"] == app.function("sign").description


def test_a_failed_call_is_an_error_output(app, desk):
    (cancel,) = tools((app, desk, ["cancel"]))
    output = cancel.call(room="blue")
    assert output.is_error is True
    assert output.content == "The function raised PermissionError: blue is locked"
    assert cancel.call(room=3).is_error is True
