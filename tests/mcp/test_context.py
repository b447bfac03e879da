"""``McpContext``: one method body that reports progress, logs, asks the client's model and
its user, served over streamable HTTP on 127.0.0.1 to the SDK's own client, in a 2025-11-25
session (requests to the client) and in the 2026-07-28 protocol, stateless (the call ends
with ``InputRequiredResult`` and runs again with the answers)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp import Client
from mcp.shared.exceptions import MCPDeprecationWarning
from tests.mcp.production import serving

import llmapp.mcp
from llmapp.mcp import McpContext

FORM = {
    "type": "object",
    "properties": {
        "ledger": {"type": "string", "enum": ["main", "test"], "default": "main"},
        "copies": {"type": "integer", "minimum": 1, "default": 1},
    },
    "required": ["ledger"],
}


class Importer:
    """Imports orders."""

    def __init__(self) -> None:
        self.rounds = 0

    async def import_orders(self, source: str, ctx: McpContext) -> str:
        """Import the orders of a source.

        Args:
            source: Where the orders are.
        """
        self.rounds += 1
        await ctx.progress(0, 2, "starting")
        await ctx.log("debug", "below the level the client set")
        await ctx.log("info", f"reading {source}")
        summary = await ctx.sample(f"Summarise {source}", max_tokens=50)
        await ctx.progress(1, 2)
        answer = await ctx.elicit("Import into which ledger?", FORM)
        await ctx.progress(2, 2, "done")
        return f"{summary.text} -> {answer.action} {answer.content}"


class Asked:
    """What the client was asked and told."""

    def __init__(self) -> None:
        self.sampled: list[Any] = []
        self.elicited: list[Any] = []
        self.logs: list[Any] = []
        self.progress: list[float] = []

    async def sampling(self, context: Any, params: types.CreateMessageRequestParams) -> Any:
        self.sampled.append(params)
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="three orders"),
            model="test-model",
            stop_reason="endTurn",
        )

    async def elicitation(self, context: Any, params: types.ElicitRequestParams) -> Any:
        self.elicited.append(params)
        return types.ElicitResult(action="accept", content={"ledger": "test", "copies": 2})

    async def logging(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append((params.level, params.data))

    async def on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        self.progress.append(progress)


async def _call(url: str, asked: Asked, mode: str) -> Any:
    async with Client(
        url,
        mode=mode,  # type: ignore[arg-type]
        sampling_callback=asked.sampling,
        elicitation_callback=asked.elicitation,
        logging_callback=asked.logging,
        log_level="info" if mode != "legacy" else None,
    ) as client:
        if mode == "legacy":
            with pytest.warns(MCPDeprecationWarning):  # the 2026 protocol drops it
                await client.set_logging_level("info")
        return await client.call_tool(
            "import_orders", {"source": "s3://orders"}, progress_callback=asked.on_progress
        )


@pytest.mark.parametrize(
    ("mode", "stateless"), [("legacy", False), ("2026-07-28", True)], ids=["2025", "2026"]
)
def test_one_method_body_asks_in_both_protocol_eras(mode: str, stateless: bool) -> None:
    importer, asked = Importer(), Asked()
    mounted = llmapp.mcp.asgi(Importer, importer, stateless=stateless)
    with serving(mounted) as base:
        result = anyio.run(_call, f"{base}/mcp", asked, mode)
    assert not result.is_error, result
    assert result.structured_content == {
        "result": "three orders -> accept {'ledger': 'test', 'copies': 2}"
    }
    assert [params.messages[0].content.text for params in asked.sampled] == [
        "Summarise s3://orders"
    ]
    (form,) = asked.elicited
    assert form.requested_schema == FORM
    assert form.message == "Import into which ledger?"
    if mode == "legacy":  # one run, told as it goes
        assert importer.rounds == 1
        assert asked.progress == [0, 1, 2]
        assert ("info", "reading s3://orders") in asked.logs
    else:  # a round per question: asked, answered, run again to the next one or the end
        assert importer.rounds == 3
    assert ("debug", "below the level the client set") not in asked.logs


class Curious:
    """Asks without a back channel."""

    async def ask(self, ctx: McpContext) -> str:
        """Ask the user."""
        answer = await ctx.elicit("Name?", {"type": "object", "properties": {}})
        return str(answer.action)


def test_an_answer_to_a_question_never_asked_is_not_taken() -> None:
    """A 2026 client sending answers with no sealed state: the method asks as if none came."""
    mounted = llmapp.mcp.asgi(Curious, Curious(), stateless=True)

    async def main(url: str) -> Any:
        async with Client(url, mode="2026-07-28") as client:
            return await client.session.call_tool(
                "ask",
                {},
                input_responses={"0-forged": {"action": "accept", "content": {}}},
                allow_input_required=True,
            )

    with serving(mounted) as base:
        result = anyio.run(main, f"{base}/mcp")
    assert isinstance(result, types.InputRequiredResult)
    (request,) = result.input_requests.values()
    assert request.method == "elicitation/create"


class Slow:
    """Runs until cancelled."""

    def __init__(self) -> None:
        self.started = anyio.Event()
        self.cancelled = anyio.Event()

    async def wait(self, ctx: McpContext) -> str:
        """Wait for ever."""
        self.started.set()
        try:
            await anyio.sleep_forever()
        finally:
            self.cancelled.set()
        return "never"


def test_a_client_cancelling_a_call_cancels_the_async_method() -> None:
    slow = Slow()

    async def main() -> bool:
        async with Client(llmapp.mcp.server(Slow, slow), mode="legacy") as client:
            with anyio.fail_after(5):
                async with anyio.create_task_group() as group:
                    group.start_soon(client.call_tool, "wait", {})
                    await slow.started.wait()
                    group.cancel_scope.cancel()  # the client gives up: notifications/cancelled
            with anyio.fail_after(5):  # told at once, not at a timeout
                await slow.cancelled.wait()
            return slow.cancelled.is_set()

    assert anyio.run(main)


class Greeter:
    """Greets."""

    async def greeting(self, ctx: McpContext) -> str:
        """A greeting for whoever answers.

        @tag prompt
        """
        answer = await ctx.elicit("Your name?", {"type": "object", "properties": {}})
        return f"Hello, {(answer.content or {}).get('name')}"

    async def card(self, ctx: McpContext) -> str:
        """A card for whoever answers.

        @tag resource greet://card
        """
        answer = await ctx.elicit("Your name?", {"type": "object", "properties": {}})
        return f"Card for {(answer.content or {}).get('name')}"


def test_prompts_and_resources_ask_through_input_required_in_2026() -> None:
    async def elicitation(context: Any, params: types.ElicitRequestParams) -> Any:
        return types.ElicitResult(action="accept", content={"name": "Ada"})

    async def main(url: str) -> Any:
        async with Client(url, mode="2026-07-28", elicitation_callback=elicitation) as client:
            return await client.get_prompt("greeting"), await client.read_resource("greet://card")

    with serving(llmapp.mcp.asgi(Greeter, Greeter(), stateless=True)) as base:
        prompt, card = anyio.run(main, f"{base}/mcp")
    assert prompt.messages[0].content.text == "Hello, Ada"
    assert card.contents[0].text == "Card for Ada"
