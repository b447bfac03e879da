"""The OpenAI Agents SDK's side of the agents tests: a scripted Model.

A module of its own, imported by the tests that run the SDK, so that collecting the tests
does not import the SDK.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from agents import Model, ModelResponse, set_tracing_disabled
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

set_tracing_disabled(True)


class Scripted(Model):
    """A model that makes each call in turn, then says "done"; it keeps what it was given."""

    def __init__(self, *calls: tuple[str, str]) -> None:
        self.calls = list(calls)
        self.inputs: list[Any] = []
        self.tools: list[Any] = []

    async def get_response(
        self, system_instructions, input, model_settings, tools, *args, **kwargs
    ):
        self.inputs.append(input)
        self.tools = tools
        turn = len(self.inputs) - 1
        if turn < len(self.calls):
            name, arguments = self.calls[turn]
            item: Any = ResponseFunctionToolCall(
                arguments=arguments, call_id=f"c{turn}", name=name, type="function_call"
            )
        else:
            text = ResponseOutputText(text="done", type="output_text", annotations=[])
            item = ResponseOutputMessage(
                id="m", content=[text], role="assistant", status="completed", type="message"
            )
        return ModelResponse(output=[item], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError
