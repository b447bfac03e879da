"""A function's own @timeout through the toolsets: the model is answered with a bounded error."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import TYPE_CHECKING

from tests.support.sdk import needs

from llmapp import application

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage, ModelResponse
    from pydantic_ai.models.function import AgentInfo

pytestmark = needs("pydantic_ai", "agents")


RELEASE = threading.Event()


class Slow:
    """Slow things."""

    def stall(self) -> str:
        """Wait for a release that does not come in time.

        @timeout 0.2
        """
        RELEASE.wait(30)
        return "released"


def test_pydantic_ai_answers_a_call_past_its_timeout_with_a_bounded_error() -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import (
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import FunctionModel

    from llmapp.agents import pydantic_ai

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("stall", json.dumps({}), "c1")])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(respond), toolsets=[pydantic_ai.toolset(application(Slow), Slow())])
    try:
        result = agent.run_sync("stall")
    finally:
        RELEASE.set()
    (returned,) = [
        part
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]
    assert returned.content == "The function raised TimeoutError: stall did not finish within 0.2 s"


def test_the_agents_sdk_answers_a_call_past_its_timeout_with_a_bounded_error() -> None:
    from agents import Agent as SdkAgent
    from agents import Runner as SdkRunner

    from llmapp.agents import openai_agents

    from .agents_sdk import Scripted

    RELEASE.clear()
    model = Scripted(("stall", "{}"))
    agent = SdkAgent(name="slow", model=model, tools=openai_agents.tools(application(Slow), Slow()))
    try:
        asyncio.run(SdkRunner.run(agent, "stall"))
    finally:
        RELEASE.set()
    outputs = [item for item in model.inputs[-1] if item.get("type") == "function_call_output"]
    assert (
        outputs[0]["output"]
        == "The function raised TimeoutError: stall did not finish within 0.2 s"
    )
