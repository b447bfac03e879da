"""The rest of the MCP surface, on the conformance fixture (``examples/mcp_everything.py``)
served in process to the SDK's own client in a 2025-11-25 session: rich results, binary
resources, completion, subscriptions, ``logging/setLevel``, ``$schema``, icons and titles,
and naive datetimes described without a format MCP clients do not know."""

from __future__ import annotations

import base64
from datetime import datetime, time
from typing import Any, Literal

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from examples.mcp_everything import RED_PIXEL, SILENCE, Everything
from mcp import Client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

import llmapp.mcp
from llmapp import application
from llmapp.mcp import McpContext, completes
from llmapp.vendors.mcp import LOCAL_FORMATS, tools

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def run(server: Any, body: Any, **client: Any) -> Any:
    async def main() -> Any:
        async with Client(server, mode="legacy", **client) as connected:
            return await body(connected)

    return anyio.run(main)


def everything(**options: Any) -> Any:
    return llmapp.mcp.server(Everything, Everything(), **options)


def test_rich_results_are_content_blocks_and_have_no_output_schema() -> None:
    async def body(client: Client) -> Any:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        calls = {
            name: await client.call_tool(name, {})
            for name in (
                "test_image_content",
                "test_audio_content",
                "test_embedded_resource",
                "test_resource_link",
                "test_multiple_content_types",
                "test_simple_text",
            )
        }
        return listed, calls

    listed, calls = run(everything(), body)
    for name in ("test_image_content", "test_multiple_content_types", "test_resource_link"):
        assert listed[name].output_schema is None
        assert calls[name].structured_content is None
    assert listed["test_simple_text"].output_schema is not None  # a text keeps its structure
    (image,) = calls["test_image_content"].content
    assert (image.type, image.mime_type, base64.b64decode(image.data)) == (
        "image",
        "image/png",
        RED_PIXEL,
    )
    (audio,) = calls["test_audio_content"].content
    assert (audio.type, audio.mime_type, base64.b64decode(audio.data)) == (
        "audio",
        "audio/wav",
        SILENCE,
    )
    (embedded,) = calls["test_embedded_resource"].content
    assert embedded.resource.model_dump(by_alias=True, exclude_none=True, mode="json") == {
        "uri": "test://embedded-resource",
        "mimeType": "text/plain",
        "text": "This is an embedded resource content.",
    }
    (link,) = calls["test_resource_link"].content
    assert (link.type, link.uri, link.name) == (
        "resource_link",
        "test://static-text",
        "static-text",
    )
    assert [block.type for block in calls["test_multiple_content_types"].content] == [
        "text",
        "image",
        "resource",
    ]


def test_bytes_with_a_media_type_are_a_blob_and_prompts_carry_content() -> None:
    async def body(client: Client) -> Any:
        binary = await client.read_resource("test://static-binary")
        data = await client.read_resource("test://template/123/data")
        image = await client.get_prompt("test_prompt_with_image")
        embedded = await client.get_prompt(
            "test_prompt_with_embedded_resource", {"resourceUri": "test://x"}
        )
        return binary, data, image, embedded

    binary, data, image, embedded = run(everything(), body)
    (blob,) = binary.contents
    assert (blob.mime_type, base64.b64decode(blob.blob)) == ("image/png", RED_PIXEL)
    (text,) = data.contents
    assert text.mime_type == "application/json" and '"id": "123"' in text.text
    assert [message.content.type for message in image.messages] == ["image", "text"]
    assert embedded.messages[0].content.resource.uri == "test://x"


class Trips:
    """Trips."""

    @completes(city=lambda value, arguments: ["Paris", "Parma", "Porto", "Oslo"])
    def plan(self, city: str, pace: Literal["slow", "fast"] = "slow") -> str:
        """Plan a trip.

        @tag prompt
        """
        return f"{city} {pace}"

    def broken(self, city: str) -> str:
        """A prompt whose completion raises.

        @tag prompt
        """
        return city


completes(city=lambda value, arguments: 1 / 0)(Trips.broken)


def test_completion_from_a_declared_function_and_from_the_type() -> None:
    async def body(client: Client) -> Any:
        prompt = types.PromptReference(type="ref/prompt", name="plan")
        declared = await client.complete(prompt, {"name": "city", "value": "pa"})
        literal = await client.complete(prompt, {"name": "pace", "value": "f"})
        broken = await client.complete(
            types.PromptReference(type="ref/prompt", name="broken"), {"name": "city", "value": ""}
        )
        template = await client.complete(
            types.ResourceTemplateReference(type="ref/resource", uri="test://template/{id}/data"),
            {"name": "id", "value": "12"},
        )
        return declared, literal, broken, template

    declared, literal, broken, template = run(llmapp.mcp.server(Trips, Trips()), body)
    assert declared.completion.values == ["Paris", "Parma"]
    assert (declared.completion.total, declared.completion.has_more) == (2, False)
    assert literal.completion.values == ["fast"]
    assert broken.completion.values == []
    assert template.completion.values == []  # Trips serves no such template
    (fixture,) = run(
        everything(),
        lambda client: _gather(
            client.complete(
                types.ResourceTemplateReference(
                    type="ref/resource", uri="test://template/{id}/data"
                ),
                {"name": "id", "value": "12"},
            )
        ),
    )
    assert fixture.completion.values == ["123", "124"]


async def _gather(*awaitables: Any) -> list[Any]:
    return [await each for each in awaitables]


def test_subscribers_hear_of_updates_until_they_unsubscribe() -> None:
    built = everything()
    heard: list[str] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            heard.append(message.params.uri)

    async def body(client: Client) -> Any:
        with pytest.warns(MCPDeprecationWarning):  # 2026-07-28 listens instead
            await client.subscribe_resource("test://watched-resource")
        await llmapp.mcp.updated(built, "test://watched-resource")
        await llmapp.mcp.updated(built, "test://static-text")  # not subscribed to
        await anyio.sleep(0.1)
        with pytest.warns(MCPDeprecationWarning):
            await client.unsubscribe_resource("test://watched-resource")
        await llmapp.mcp.updated(built, "test://watched-resource")
        await anyio.sleep(0.1)
        with (
            pytest.raises(MCPError, match="no resource matches"),
            pytest.warns(MCPDeprecationWarning),
        ):
            await client.subscribe_resource("test://nothing-here")
        return None

    run(built, body, message_handler=on_message)
    assert heard == ["test://watched-resource"]


class Chatty:
    """Logs."""

    async def work(self, ctx: McpContext) -> str:
        """Log at each level."""
        for level in ("debug", "info", "warning", "error"):
            await ctx.log(level, f"at {level}")
        return "done"


def test_log_messages_honour_the_level_the_client_set() -> None:
    logs: list[str] = []

    async def logging(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params.data)

    async def body(client: Client) -> Any:
        await client.call_tool("work", {})
        with pytest.warns(MCPDeprecationWarning):
            await client.set_logging_level("warning")
        await client.call_tool("work", {})
        return None

    run(llmapp.mcp.server(Chatty, Chatty()), body, logging_callback=logging)
    assert logs == ["at debug", "at info", "at warning", "at error", "at warning", "at error"]


def test_listing_names_the_dialect_and_titles_and_icons_reach_the_client() -> None:
    icon = {"src": "https://example.com/icon.png", "mimeType": "image/png"}
    built = everything(title="Everything server", icons=[icon], website_url="https://example.com")

    async def body(client: Client) -> Any:
        return (
            (await client.list_tools()).tools,
            (await client.list_resources()).resources,
            client.server_info,
        )

    listed, resources, info = run(built, body)
    assert all(tool.input_schema["$schema"] == DIALECT for tool in listed)
    schema = next(t for t in listed if t.name == "json_schema_2020_12_tool").input_schema
    assert "address" in schema["$defs"] and schema["additionalProperties"] is False
    simple = next(t for t in listed if t.name == "test_simple_text")
    assert simple.title == "Simple text" and simple.icons[0].src.startswith("data:image/png")
    static = next(r for r in resources if r.uri == "test://static-text")
    assert static.title == "Static text" and static.icons[0].src.startswith("data:image/png")
    assert info.title == "Everything server" and info.icons[0].src == icon["src"]


class Clock:
    """Times."""

    def shift(self, when: datetime, at: time) -> datetime:
        """Shift a time."""
        return when


def test_naive_datetimes_are_described_by_a_pattern_not_an_unknown_format() -> None:
    (entry,) = tools(application(Clock))
    assert "-local" not in str(entry)
    when = entry["inputSchema"]["properties"]["when"]["anyOf"]
    assert when == [
        {"type": "string", "format": "date-time"},
        {"type": "string", "pattern": LOCAL_FORMATS["date-time-local"]},
    ]
    assert entry["outputSchema"]["properties"]["result"]["anyOf"] == when
    at = entry["inputSchema"]["properties"]["at"]["anyOf"]
    assert {"type": "string", "pattern": LOCAL_FORMATS["time-local"]} in at
    assert (
        application(Clock)
        .function("shift")
        .validate({"when": "2026-03-01T10:00:00", "at": "10:00:00"})
        .success
    )
