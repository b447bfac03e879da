"""Sessions over streamable HTTP answer with JSON when no call can send more than its answer,
and keep an event stream per answer when a call may ask the user or use the request context."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import httpx2
from mcp.server import ServerRequestContext
from tests.mcp.production import Accounts, hook, serving
from tests.mcp.scenario import initialize_request
from tests.mcp.test_asgi import session_calls, text

import llmapp.mcp

ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


class Desk:
    """Books rooms."""

    def book(self, room: str, nights: int) -> str:
        """Book a room."""
        return f"{room} for {nights}"


class Careful:
    """Books rooms, asking first."""

    def book(self, room: str) -> str:
        """Book a room.

        @approval
        """
        return room


class Aware:
    """Reads its request."""

    def method(self, request: ServerRequestContext[Any]) -> str:
        """The request's method."""
        return str(request.method)


def _initialize(base: str) -> httpx2.Response:
    hello = initialize_request("2025-11-25")
    return httpx2.post(f"{base}/mcp", json=hello, headers=ACCEPT)


def test_a_server_whose_calls_only_answer_gives_json_in_its_sessions() -> None:
    mounted = llmapp.mcp.asgi(Desk, Desk())
    assert mounted.json_response
    with serving(mounted) as base:
        hello = _initialize(base)
        session = hello.headers["mcp-session-id"]
        headers = {**ACCEPT, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        httpx2.post(f"{base}/mcp", json=note, headers=headers)
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "book", "arguments": {"room": "12B", "nights": "x"}},
        }
        raw = httpx2.post(f"{base}/mcp", json=call, headers=headers)
        good, wrong = anyio.run(
            lambda: session_calls(
                f"{base}/mcp",
                ("book", {"room": "12B", "nights": 2}),
                ("book", {"room": 12, "nights": 2, "pets": True}),
            )
        )
    assert hello.headers["content-type"].startswith("application/json")
    assert raw.headers["content-type"].startswith("application/json")
    answer = raw.json()
    assert answer["id"] == 2 and answer["result"]["isError"] is True
    assert '"path": "$input.nights"' in answer["result"]["content"][0]["text"]
    assert good.structured_content == {"result": "12B for 2"}
    assert wrong.is_error
    for path in ("$input.room", "$input.pets"):
        assert f'"path": "{path}"' in text(wrong)


def test_a_server_whose_calls_may_ask_or_read_the_request_keeps_event_streams() -> None:
    for asking in (
        llmapp.mcp.asgi(Careful, Careful()),  # approval, asked by elicitation
        llmapp.mcp.asgi(Accounts, Accounts(), human=hook),  # the hook reads the request
        llmapp.mcp.asgi(Aware, Aware()),  # the method is handed the request context
    ):
        assert not asking.json_response
    with serving(llmapp.mcp.asgi(Careful, Careful())) as base:
        assert _initialize(base).headers["content-type"].startswith("text/event-stream")
    # nothing asks when elicitation is off: the approval message is the answer
    assert llmapp.mcp.asgi(Careful, Careful(), elicit=False).json_response
    assert not llmapp.mcp.asgi(Desk, Desk(), json_response=False).json_response
