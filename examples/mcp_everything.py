"""The MCP conformance suite's fixture server, written with llmapp's public API only.

``@modelcontextprotocol/conformance`` calls tools, prompts and resources by fixed names;
this class has them all, the way a user would write them::

    llmapp mcp examples/mcp_everything.py:Everything --transport streamable-http --port 8765
    npx @modelcontextprotocol/conformance server --url http://127.0.0.1:8765/mcp

``.ci/conformance`` runs every active scenario against it, with and without ``--stateless``.
"""

from __future__ import annotations

import asyncio
import base64
from datetime import datetime
from typing import Annotated, Literal, TypedDict

from llmapp.markers import ContentMediaType
from llmapp.mcp import (
    Audio,
    EmbeddedResource,
    Image,
    McpContext,
    NotAskable,
    ResourceLink,
    completes,
    icons,
)

RED_PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
)
"""A 1x1 red PNG."""
SILENCE = base64.b64decode(
    "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA=="
)
"""Eight samples of silence, as WAV."""
ICON = "data:image/png;base64," + base64.b64encode(RED_PIXEL).decode()


class address(TypedDict, total=False):
    """A postal address (named in lower case: the suite looks for ``$defs.address``)."""

    street: str
    city: str


class Everything:
    """Every feature the MCP conformance suite checks, one method each."""

    @icons(ICON)
    def test_simple_text(self) -> str:
        """Answer a simple text.

        @title Simple text
        """
        return "This is a simple text response for testing."

    def test_image_content(self) -> Image:
        """Answer an image."""
        return Image(RED_PIXEL, "image/png")

    def test_audio_content(self) -> Audio:
        """Answer audio."""
        return Audio(SILENCE, "audio/wav")

    def test_embedded_resource(self) -> EmbeddedResource:
        """Answer an embedded resource."""
        return EmbeddedResource(
            "test://embedded-resource", "This is an embedded resource content.", "text/plain"
        )

    def test_resource_link(self) -> ResourceLink:
        """Answer a link to a resource."""
        return ResourceLink("test://static-text", "static-text", mime_type="text/plain")

    def test_multiple_content_types(self) -> list[str | Image | EmbeddedResource]:
        """Answer a text, an image and an embedded resource."""
        return [
            "Multiple content types test:",
            Image(RED_PIXEL, "image/png"),
            EmbeddedResource(
                "test://mixed-content-resource",
                '{"test":"data","value":123}',
                "application/json",
            ),
        ]

    async def test_tool_with_logging(self, ctx: McpContext) -> str:
        """Send three log messages while running."""
        await ctx.log("info", "Tool execution started")
        await asyncio.sleep(0.05)
        await ctx.log("info", "Tool processing data")
        await asyncio.sleep(0.05)
        await ctx.log("info", "Tool execution completed")
        return "Logging test completed"

    def test_error_handling(self) -> str:
        """Always fail."""
        raise RuntimeError("This tool intentionally returns an error for testing")

    async def test_tool_with_progress(self, ctx: McpContext) -> str:
        """Report progress while running."""
        for done in (0, 50, 100):
            await ctx.progress(done, 100, f"{done}% done")
            if done < 100:
                await asyncio.sleep(0.05)
        return "Progress test completed"

    async def test_sampling(self, prompt: str, ctx: McpContext) -> str:
        """Ask the client's model.

        Args:
            prompt: The prompt to send to the LLM.
        """
        answer = await ctx.sample(prompt, max_tokens=100)
        return f"LLM response: {answer.text}"

    async def test_elicitation(self, message: str, ctx: McpContext) -> str:
        """Ask the user for a name and an email.

        Args:
            message: The message to show the user.
        """
        answer = await ctx.elicit(
            message,
            {
                "type": "object",
                "properties": {
                    "username": {"type": "string", "description": "User's response"},
                    "email": {"type": "string", "description": "User's email address"},
                },
                "required": ["username", "email"],
            },
        )
        return f"User response: action={answer.action}, content={answer.content}"

    async def test_elicitation_sep1034_defaults(self, ctx: McpContext) -> str:
        """Ask the user a form whose every field has a default."""
        answer = await ctx.elicit(
            "Test client default value handling - please accept with defaults",
            {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "User name", "default": "John Doe"},
                    "age": {"type": "integer", "description": "User age", "default": 30},
                    "score": {"type": "number", "description": "User score", "default": 95.5},
                    "status": {
                        "type": "string",
                        "description": "User status",
                        "enum": ["active", "inactive", "pending"],
                        "default": "active",
                    },
                    "verified": {
                        "type": "boolean",
                        "description": "Verification status",
                        "default": True,
                    },
                },
                "required": [],
            },
        )
        return f"Elicitation completed: action={answer.action}, content={answer.content}"

    async def test_elicitation_sep1330_enums(self, ctx: McpContext) -> str:
        """Ask the user a form with each kind of enum."""
        options = ["option1", "option2", "option3"]
        answer = await ctx.elicit(
            "Pick some options",
            {
                "type": "object",
                "properties": {
                    "untitledSingle": {"type": "string", "enum": options},
                    "titledSingle": {
                        "type": "string",
                        "oneOf": [
                            {"const": "value1", "title": "First Option"},
                            {"const": "value2", "title": "Second Option"},
                            {"const": "value3", "title": "Third Option"},
                        ],
                    },
                    "legacyEnum": {
                        "type": "string",
                        "enum": ["opt1", "opt2", "opt3"],
                        "enumNames": ["Option One", "Option Two", "Option Three"],
                    },
                    "untitledMulti": {
                        "type": "array",
                        "items": {"type": "string", "enum": options},
                    },
                    "titledMulti": {
                        "type": "array",
                        "items": {
                            "anyOf": [
                                {"const": "value1", "title": "First Choice"},
                                {"const": "value2", "title": "Second Choice"},
                                {"const": "value3", "title": "Third Choice"},
                            ]
                        },
                    },
                },
                "required": [],
            },
        )
        return f"Elicitation completed: action={answer.action}, content={answer.content}"

    async def test_elicitation_url(self, ctx: McpContext) -> str:
        """Send the user to a web page."""
        try:
            answer = await ctx.elicit_url(
                "Sign in to continue", "https://example.com/sign-in", "sign-in-1"
            )
        except NotAskable as refused:
            return f"Not asked: {refused}"
        return f"URL elicitation: action={answer.action}"

    def json_schema_2020_12_tool(self, name: str = "", address: address | None = None) -> str:
        """Tool with JSON Schema 2020-12 features.

        Args:
            name: A name.
            address: Where to send it.
        """
        return f"{name} at {address}"

    def test_local_time(self) -> datetime:
        """A naive date and time (described to clients by its pattern, not a format)."""
        return datetime(2026, 7, 28, 9, 30)

    def test_reconnection(self) -> str:
        """Answer at once (streams resume from the event store when one is configured)."""
        return "Reconnection test completed successfully"

    @icons(ICON)
    def static_text(self) -> str:
        """A static text resource.

        @title Static text
        @tag resource test://static-text
        """
        return "This is the content of the static text resource."

    def static_binary(self) -> Annotated[bytes, ContentMediaType("image/png")]:
        """A static binary resource (an image).

        @tag resource test://static-binary
        """
        return RED_PIXEL

    @completes(id=lambda value, arguments: ["123", "124", "200"])
    def template_data(self, id: str) -> dict[str, object]:
        """Data for an id.

        @tag resource test://template/{id}/data
        """
        return {"id": id, "templateTest": True, "data": f"Data for ID: {id}"}

    def watched_resource(self) -> str:
        """A resource clients may subscribe to.

        @tag resource test://watched-resource
        """
        return "Watched resource content"

    def test_simple_prompt(self) -> str:
        """A prompt without arguments.

        @tag prompt
        """
        return "This is a simple prompt for testing."

    @completes(arg1=lambda value, arguments: ["paris", "park", "party", "test"])
    def test_prompt_with_arguments(self, arg1: str, arg2: Literal["world", "moon"] | str) -> str:
        """A prompt with arguments.

        @tag prompt
        Args:
            arg1: First test argument.
            arg2: Second test argument.
        """
        return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"

    def test_prompt_with_embedded_resource(self, resourceUri: str) -> list[object]:
        """A prompt holding a resource.

        @tag prompt
        Args:
            resourceUri: URI of the resource to embed.
        """
        return [
            EmbeddedResource(resourceUri, "Embedded resource content for testing.", "text/plain"),
            "Please process the embedded resource above.",
        ]

    def test_prompt_with_image(self) -> list[object]:
        """A prompt holding an image.

        @tag prompt
        """
        return [Image(RED_PIXEL, "image/png"), "Please analyze the image above."]
