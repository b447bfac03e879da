"""A 2025 client asked on the stateless HTTP transport: the question rides the call's event
stream, the answer comes back in a POST of its own and finds the call that asked (one
process); a forged, late or another caller's answer is refused, and the questions waiting
are bounded in count and time. Served on 127.0.0.1."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import httpx
import mcp.types as types
from mcp import Client
from mcp.shared.exceptions import NoBackChannelError
from tests.mcp.production import serving
from tests.mcp.test_context import FORM, Asked, Importer

import llmapp.mcp
from llmapp.mcp import Auth, McpContext, StaticTokens
from llmapp.mcp._stateless import Asks

HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-11-25",
}


class Curious:
    """Asks the user."""

    async def ask(self, ctx: McpContext) -> str:
        """Ask the user their ledger."""
        answer = await ctx.elicit("Which ledger?", FORM)
        return f"{answer.action} {answer.content}"


def test_a_2025_client_is_asked_on_the_stateless_transport() -> None:
    """The SDK's own client, 2025 protocol, stateless server: sampled and elicited in one
    run of the method, with its progress."""
    importer, asked = Importer(), Asked()

    async def main(url: str) -> Any:
        async with Client(
            url,
            mode="legacy",
            sampling_callback=asked.sampling,
            elicitation_callback=asked.elicitation,
        ) as client:
            return await client.call_tool(
                "import_orders", {"source": "s3://orders"}, progress_callback=asked.on_progress
            )

    with serving(llmapp.mcp.asgi(Importer, importer, stateless=True)) as base:
        result = anyio.run(main, f"{base}/mcp")
    assert not result.is_error, result
    assert result.structured_content == {
        "result": "three orders -> accept {'ledger': 'test', 'copies': 2}"
    }
    assert importer.rounds == 1
    assert asked.progress == [0, 1, 2]
    assert len(asked.sampled) == len(asked.elicited) == 1


def test_concurrent_stateless_calls_each_get_their_own_answer() -> None:
    async def elicitation(context: Any, params: types.ElicitRequestParams) -> Any:
        await anyio.sleep(0.05)  # both questions wait at once
        return types.ElicitResult(action="accept", content={"ledger": params.message})

    class Echo:
        async def ask(self, name: str, ctx: McpContext) -> str:
            """Ask back a name.

            Args:
                name: what to ask.
            """
            answer = await ctx.elicit(name, {"type": "object", "properties": {}})
            return str((answer.content or {}).get("ledger"))

    results: dict[str, Any] = {}

    async def one(url: str, name: str) -> None:
        async with Client(url, mode="legacy", elicitation_callback=elicitation) as client:
            results[name] = (await client.call_tool("ask", {"name": name})).structured_content

    async def main(url: str) -> None:
        async with anyio.create_task_group() as group:
            for name in ("main", "test", "audit"):
                group.start_soon(one, url, name)

    with serving(llmapp.mcp.asgi(Echo, Echo(), stateless=True)) as base:
        anyio.run(main, f"{base}/mcp")
    assert results == {name: {"result": name} for name in ("main", "test", "audit")}


def _call(request_id: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "ask", "arguments": {}},
    }


def _answer(answer_id: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": answer_id,
        "result": {"action": "accept", "content": {"ledger": "test"}},
    }


async def _events(response: httpx.Response) -> Any:
    """The JSON-RPC messages of an event-stream response, as they come."""
    async for line in response.aiter_lines():
        if line.startswith("data:") and line[5:].strip():
            yield json.loads(line[5:])


def test_a_forged_another_callers_or_late_answer_is_refused() -> None:
    auth = Auth(StaticTokens({"token-of-ada-0123456789": "ada", "token-of-bob-0123456789": "bob"}))
    ada = {**HEADERS, "Authorization": "Bearer token-of-ada-0123456789"}
    bob = {**HEADERS, "Authorization": "Bearer token-of-bob-0123456789"}
    mounted = llmapp.mcp.asgi(Curious, Curious(), stateless=True, auth=auth)

    async def main(url: str) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with httpx.AsyncClient(timeout=10) as http:
            async with http.stream("POST", url, json=_call(), headers=ada) as response:
                events = _events(response)
                question = await events.__anext__()
                assert question["method"] == "elicitation/create"
                asked = question["id"]
                seen["id"] = asked
                forged = await http.post(url, json=_answer("llmapp-ask-guessed"), headers=ada)
                numbered = await http.post(url, json=_answer(0), headers=ada)
                stolen = await http.post(url, json=_answer(asked), headers=bob)
                seen["refused"] = [forged.status_code, numbered.status_code, stolen.status_code]
                seen["error"] = forged.json()["error"]["message"]
                answered = await http.post(url, json=_answer(asked), headers=ada)
                seen["answered"] = answered.status_code
                seen["result"] = await events.__anext__()
            late = await http.post(url, json=_answer(asked), headers=ada)
            seen["late"] = late.status_code
        return seen

    with serving(mounted) as base:
        seen = anyio.run(main, f"{base}/mcp")
    assert seen["id"].startswith("llmapp-ask-") and len(seen["id"]) > 30  # unguessable
    assert seen["refused"] == [404, 404, 404]
    assert seen["error"] == "no question of this server awaits this answer"
    assert seen["answered"] == 202
    assert seen["result"]["result"]["structuredContent"] == {"result": "accept {'ledger': 'test'}"}
    assert seen["late"] == 404


def test_a_question_unanswered_in_time_fails_its_call_and_is_forgotten() -> None:
    mounted = llmapp.mcp.asgi(Curious, Curious(), stateless=True)
    asks: Asks = mounted.manager._handle_stateless_request.__self__
    asks.timeout = 0.3

    async def main(url: str) -> Any:
        async with httpx.AsyncClient(timeout=10) as http:
            async with http.stream("POST", url, json=_call(), headers=HEADERS) as response:
                events = _events(response)
                question = await events.__anext__()
                assert len(asks) == 1
                told = [message async for message in events]  # nobody answers
            cancelled, result = told  # the client is told the question is withdrawn
            assert cancelled["method"] == "notifications/cancelled"
            late = await http.post(url, json=_answer(question["id"]), headers=HEADERS)
            return result, late.status_code

    with serving(mounted) as base:
        result, late = anyio.run(main, f"{base}/mcp")
    assert result["result"]["isError"] is True
    assert "timed out" in result["result"]["content"][0]["text"]
    assert late == 404
    assert len(asks) == 0


def test_questions_waiting_at_once_are_bounded() -> None:
    asks = Asks(manager=None, limit=2)
    first, second = asks.open("transport", None), asks.open("transport", None)
    with pytest.raises(NoBackChannelError):
        asks.open("transport", None)
    assert asks.awaiting(first, None) == "transport"
    assert asks.awaiting(first, "another caller") is None
    asks.close(first)
    assert asks.awaiting(first, None) is None
    assert asks.open("transport", None) not in (first, second)


def test_a_call_answered_with_json_cannot_ask_and_says_why() -> None:
    mounted = llmapp.mcp.asgi(Curious, Curious(), stateless=True, json_response=True)

    async def main(url: str) -> Any:
        async with Client(url, mode="legacy", elicitation_callback=Asked().elicitation) as client:
            return await client.call_tool("ask", {})

    with serving(mounted) as base:
        result = anyio.run(main, f"{base}/mcp")
    assert result.is_error
    assert "NotAskable" in result.content[0].text
    assert "no way to ask the client" in result.content[0].text
