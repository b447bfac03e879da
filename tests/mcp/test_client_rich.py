"""The client door on a server with rich results, progress and questions (the conformance
fixture, in process): images reach the model as each vendor's own blocks, progress reaches
the caller, and the server's questions reach the handlers the session was given."""

from __future__ import annotations

import base64
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from examples.mcp_everything import RED_PIXEL, Everything
from mcp import Client

import llmapp.mcp
from llmapp.mcp import EmbeddedResource, Image
from llmapp.vendors import anthropic, gemini, openai


def run(body: Any, **client: Any) -> Any:
    async def main() -> Any:
        server = llmapp.mcp.server(Everything, Everything())
        async with Client(server, mode="legacy", **client) as connected:
            app = llmapp.mcp.application(await connected.list_tools())
            return await body(connected, app)

    return anyio.run(main)


def test_content_blocks_come_back_as_values_and_the_model_reads_them_named() -> None:
    async def body(client: Client, app: Any) -> Any:
        image = await llmapp.mcp.call(client, app.function("test_image_content"), "{}")
        mixed = await llmapp.mcp.call(client, app.function("test_multiple_content_types"), {})
        text = await llmapp.mcp.call(client, app.function("test_simple_text"), {})
        return image, mixed, text

    image, mixed, text = run(body)
    assert image.value == [Image(RED_PIXEL, "image/png")]
    assert image.data == f"[image/png image, {len(RED_PIXEL)} bytes]"
    assert mixed.value == [
        "Multiple content types test:",
        Image(RED_PIXEL, "image/png"),
        EmbeddedResource(
            "test://mixed-content-resource", '{"test":"data","value":123}', "application/json"
        ),
    ]
    assert "base64" not in mixed.data and "iVBOR" not in mixed.data
    assert text.value == {"result": "This is a simple text response for testing."}


def test_each_vendor_gets_the_image_as_its_own_block() -> None:
    use = {"type": "tool_use", "id": "t1", "name": "test_image_content", "input": {}}
    chat = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "test_image_content", "arguments": "{}"},
            }
        ],
    }
    responses = {
        "output": [
            {
                "type": "function_call",
                "call_id": "r1",
                "name": "test_image_content",
                "arguments": "{}",
            }
        ]
    }
    part = {"function_call": {"id": "g1", "name": "test_image_content", "args": {}}}

    async def body(client: Client, app: Any) -> Any:
        return (
            await anthropic.acall_tools(app, client, {"content": [use]}),
            await openai.acall_tools(app, client, chat),
            await openai.acall_tools(app, client, responses),
            await gemini.acall_tools(app, client, {"parts": [part]}),
        )

    (claude,), (chat_answer,), (responses_answer,), (gemini_answer,) = run(body)
    encoded = base64.b64encode(RED_PIXEL).decode()
    assert claude["content"] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": encoded}}
    ]
    assert chat_answer["content"] == f"[image/png image, {len(RED_PIXEL)} bytes]"
    assert responses_answer["output"] == [
        {"type": "input_image", "image_url": f"data:image/png;base64,{encoded}"}
    ]
    response = gemini_answer["function_response"]
    assert response["parts"] == [{"inline_data": {"mime_type": "image/png", "data": RED_PIXEL}}]


def test_progress_reaches_the_caller_and_questions_the_session_s_handlers() -> None:
    told: list[tuple[float, float | None]] = []
    asked: list[str] = []

    async def elicitation(context: Any, params: types.ElicitRequestParams) -> Any:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"username": "ada", "email": "a@b"})

    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> Any:
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text="42"), model="m"
        )

    async def body(client: Client, app: Any) -> Any:
        progress = await llmapp.mcp.call(
            client,
            app.function("test_tool_with_progress"),
            {},
            progress=lambda done, total, message: told.append((done, total)),
        )
        elicited = await llmapp.mcp.call(
            client, app.function("test_elicitation"), {"message": "Who are you?"}
        )
        sampled = await llmapp.mcp.call(client, app.function("test_sampling"), {"prompt": "6x7"})
        return progress, elicited, sampled

    progress, elicited, sampled = run(
        body, elicitation_callback=elicitation, sampling_callback=sampling
    )
    assert progress.success and told == [(0, 100), (50, 100), (100, 100)]
    assert asked == ["Who are you?"]
    assert "'username': 'ada'" in elicited.value["result"]
    assert sampled.value == {"result": "LLM response: 42"}


class Charts:
    """Charts."""

    def chart(self, month: str) -> list[str | Image]:
        """Draw a month's chart."""
        return [f"Sales of {month}", Image(RED_PIXEL, "image/png")]


def test_a_class_method_returning_an_image_reaches_claude_as_an_image() -> None:
    from llmapp import application

    use = {"type": "tool_use", "id": "t1", "name": "chart", "input": {"month": "May"}}
    (answer,) = anthropic.call_tools(application(Charts), Charts(), {"content": [use]})
    assert [block["type"] for block in answer["content"]] == ["text", "image"]
    assert answer["content"][0]["text"] == "Sales of May"
