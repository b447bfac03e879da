"""pydantic-ai streams a tool call's arguments: the toolset's ``watch`` reports each
definite mistake while pydantic-ai's own streamed model is still writing them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Literal

from tests.support.sdk import needs

from llmapp import application, llm_application
from llmapp.streaming import CallMistake, CallStarted

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage
    from pydantic_ai.models.function import AgentInfo, FunctionModel

pytestmark = needs("pydantic_ai")


@llm_application
class Desk:
    def file(self, title: str, status: Literal["open", "closed"], pages: int) -> str:
        """File a document."""
        return f"filed {title}"


def streamed(text: str, written: list[int]) -> FunctionModel:
    """A model writing one call to ``file`` eight characters at a time, then text."""
    from pydantic_ai.models.function import DeltaToolCall, FunctionModel

    async def respond(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        if len(messages) > 1:
            yield "done"
            return
        yield {0: DeltaToolCall(name="file", json_args="", tool_call_id="c1")}
        for start in range(0, len(text), 8):
            written.append(start + 8)
            yield {0: DeltaToolCall(json_args=text[start : start + 8])}

    return FunctionModel(stream_function=respond)


def watch(text: str) -> tuple[list[Any], int, list[int]]:
    from pydantic_ai import Agent

    from llmapp.agents.pydantic_ai import toolset

    written: list[int] = []
    tools = toolset(application(Desk), Desk())
    agent = Agent(streamed(text, written), toolsets=[tools])

    async def run() -> tuple[list[Any], int]:
        seen: list[Any] = []
        at = -1
        async with agent.run_stream_events("file it") as events:
            async for event in tools.watch(events):
                seen.append(event)
                if isinstance(event, CallMistake) and at < 0:
                    at = written[-1]
        return seen, at

    seen, at = asyncio.run(run())
    return seen, at, written


def test_a_mistake_is_reported_while_the_call_is_written() -> None:
    text = json.dumps({"title": "minutes", "status": "lost", "pages": 12, "note": "x" * 80})
    seen, at, written = watch(text)
    assert isinstance(seen[0], CallStarted) and seen[0].name == "file"
    mistakes = [e for e in seen if isinstance(e, CallMistake)]
    assert [(i.path, i.expected) for i in mistakes[0].issues] == [
        ("$input.status", '("open" | "closed")')
    ]
    assert at < len(text) // 2 < written[-1]  # seen before half the text was written


def test_a_right_call_reports_no_mistake() -> None:
    seen, _, _ = watch(json.dumps({"title": "minutes", "status": "open", "pages": 12}))
    assert [type(e) for e in seen] == [CallStarted]
