"""The streamable-HTTP server as an ASGI app: mounted in FastAPI, stateless, behind a token,
asking the user for what only the user knows; the SDK's own client over 127.0.0.1."""

from __future__ import annotations

from typing import Annotated, Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import httpx2
import mcp.types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.server.auth.provider import AccessToken
from mcp.shared.exceptions import MCPError
from tests.mcp.production import Accounts, hook, serving
from tests.mcp.scenario import initialize_request

import llmapp.mcp
from llmapp.markers import Context
from llmapp.mcp import Auth, StaticTokens

TOKEN = "token-of-ada-0123456789"


def text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


async def session_calls(url: str, *calls: tuple[str, dict[str, Any]], **client: Any) -> list[Any]:
    headers = client.pop("headers", {})
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write, **client) as session,
    ):
        await session.initialize()
        return [await session.call_tool(name, arguments) for name, arguments in calls]


def test_mounted_in_a_fastapi_app_its_lifespan_is_handled() -> None:
    from fastapi import FastAPI

    api = FastAPI()

    @api.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    api.mount("/tools", llmapp.mcp.asgi(Accounts, Accounts(), human=hook))
    with serving(api) as base:
        health_answer = httpx2.get(f"{base}/health").json()
        (echo, balance) = anyio.run(
            lambda: session_calls(
                f"{base}/tools/mcp",
                ("echo", {"text": "ab", "times": "2"}),
                ("balance", {"currency": "EUR"}),
                headers={"x-user": "ada"},
            )
        )
    assert health_answer == {"status": "ok"}
    assert echo.structured_content == {"result": "abab"}
    assert balance.structured_content == {"result": "ada: 100 EUR"}


def test_stateless_json_answers_need_no_session() -> None:
    mounted = llmapp.mcp.asgi(Accounts, Accounts(), stateless=True, human=hook)
    with serving(mounted) as base:
        (wrong,) = anyio.run(
            lambda: session_calls(f"{base}/mcp", ("echo", {"text": 3, "times": 0, "x": 1}))
        )
        raw = httpx2.post(
            f"{base}/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"accept": "application/json, text/event-stream"},
        )
    assert wrong.is_error
    for path in ("$input.text", "$input.times", "$input.x"):
        assert f'"path": "{path}"' in text(wrong)
    assert raw.headers["content-type"].startswith("application/json")
    assert "mcp-session-id" not in raw.headers


def test_a_wrong_token_is_refused_and_a_right_one_reaches_the_hook() -> None:
    auth = Auth(StaticTokens({TOKEN: "ada"}))
    mounted = llmapp.mcp.asgi(Accounts, Accounts(), auth=auth, human=hook)
    with serving(mounted) as base:
        refused = httpx2.post(
            f"{base}/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"authorization": "Bearer wrong-token-9876543210"},
        )
        missing = httpx2.post(f"{base}/mcp", json={})
        sneaky, balance = anyio.run(
            lambda: session_calls(
                f"{base}/mcp",
                ("balance", {"currency": "EUR", "user_id": "root"}),
                ("balance", {"currency": "EUR"}),
                headers={"authorization": f"Bearer {TOKEN}"},
            )
        )
    assert refused.status_code == 401 and missing.status_code == 401
    assert sneaky.is_error and '"path": "$input.user_id"' in text(sneaky)
    assert balance.structured_content == {"result": "ada: 100 EUR"}


def test_a_non_loopback_host_without_auth_is_refused_unless_said() -> None:
    with pytest.raises(ValueError, match="without authentication"):
        llmapp.mcp.asgi(Accounts, Accounts(), host="0.0.0.0")
    llmapp.mcp.asgi(Accounts, Accounts(), host="0.0.0.0", allow_unauthenticated=True)
    llmapp.mcp.asgi(Accounts, Accounts(), host="::1")


def test_a_missing_human_value_is_asked_of_the_user() -> None:
    asked: list[Any] = []

    async def elicitation(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append((params.message, params.requested_schema))
        return types.ElicitResult(action="accept", content={"pin": "4321-secret"})

    async def declining(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="decline")

    mounted = llmapp.mcp.asgi(Accounts, Accounts())
    with serving(mounted) as base:
        (moved,) = anyio.run(
            lambda: session_calls(
                f"{base}/mcp", ("transfer", {"amount": 5}), elicitation_callback=elicitation
            )
        )
        (declined,) = anyio.run(
            lambda: session_calls(
                f"{base}/mcp", ("transfer", {"amount": 5}), elicitation_callback=declining
            )
        )
    assert moved.structured_content == {"result": "moved 5"}
    ((message, schema),) = asked
    assert "transfer" in message
    assert schema == {
        "type": "object",
        "properties": {"pin": {"type": "string", "title": "pin", "description": "the user's PIN."}},
        "required": ["pin"],
    }
    assert declined.is_error
    assert text(declined) == (
        "transfer could not run: values from the user are missing (the user chose 'decline')."
    )


def test_prompts_and_resources_read_and_check_their_arguments() -> None:
    mounted = llmapp.mcp.asgi(Accounts, Accounts(), human=hook)

    async def main() -> dict[str, Any]:
        async with (
            streamable_http_client(f"{base}/mcp") as (read, write),
            ClientSession(read, write) as session,
        ):
            init = await session.initialize()
            found: dict[str, Any] = {"instructions": init.instructions}
            found["prompts"] = (await session.list_prompts()).prompts
            found["templates"] = (await session.list_resource_templates()).resource_templates
            found["tools"] = [tool.name for tool in (await session.list_tools()).tools]
            found["prompt"] = await session.get_prompt("summary", {"topic": "tax", "words": "20"})
            with pytest.raises(MCPError) as wrong:
                await session.get_prompt("summary", {"topic": "tax", "words": "3"})
            found["wrong"] = wrong.value.error.message
            found["resource"] = await session.read_resource("bank://statements/4")
            with pytest.raises(MCPError) as bad:
                await session.read_resource("bank://statements/zero")
            found["bad"] = bad.value.error.message
            return found

    with serving(mounted) as base:
        found = anyio.run(main)
    assert (
        found["instructions"]
        == "Accounts of the bank's customers.\n\nCall balance before moving money."
    )
    (prompt,) = found["prompts"]
    assert prompt.name == "summary"
    assert [(a.name, a.required) for a in prompt.arguments] == [("topic", True), ("words", False)]
    (template,) = found["templates"]
    assert template.uri_template == "bank://statements/{month}"
    assert "summary" not in found["tools"] and "statement" not in found["tools"]
    assert found["prompt"].messages[0].content.text == "Summarise tax in about 20 words."
    assert '"path": "$input.words"' in found["wrong"] and "Minimum<10>" in found["wrong"]
    assert found["resource"].contents[0].text == '{"month": 4, "lines": []}'
    assert '"path": "$input.month"' in found["bad"]


def test_a_function_whose_human_side_nobody_can_supply_is_not_listed() -> None:
    built = llmapp.mcp.server(Accounts, Accounts())

    async def main() -> tuple[list[str], types.CallToolResult]:
        from mcp import Client

        async with Client(built) as client:
            listed = [tool.name for tool in (await client.list_tools()).tools]
            return listed, await client.call_tool("pay", {"amount": 1})

    listed, pay = anyio.run(main)
    assert "pay" not in listed and "transfer" in listed and "balance" in listed
    assert pay.is_error and text(pay) == "pay is not a tool of this server."
    line = llmapp.mcp._server.served(built, "over stdio")
    assert line.endswith("over stdio; not listed, nobody can supply their human side: pay")


class Vault:
    """Opens with the caller's token."""

    def open(self, door: str, token: Annotated[AccessToken, Context()]) -> str:
        """Open a door."""
        raise PermissionError(f"{token.token} may not open {door}")


def test_the_verified_token_in_a_method_s_error_is_masked_for_the_client(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("WARNING", logger="llmapp")
    auth = Auth(StaticTokens({TOKEN: "ada"}))
    with serving(llmapp.mcp.asgi(Vault, Vault(), auth=auth)) as base:
        (refused,) = anyio.run(
            lambda: session_calls(
                f"{base}/mcp",
                ("open", {"door": "east"}),
                headers={"authorization": f"Bearer {TOKEN}"},
            )
        )
    assert refused.is_error
    assert text(refused) == "The function raised PermissionError: *** may not open east"
    assert TOKEN not in caplog.text


def test_on_the_default_host_only_a_loopback_host_header_with_a_port_is_answered() -> None:
    # The SDK's DNS-rebinding check, as the README tells a user writing a test client.
    from starlette.testclient import TestClient

    initialize = initialize_request()
    headers = {"accept": "application/json, text/event-stream"}
    status: dict[str, int] = {}
    for base in ("http://testserver", "http://127.0.0.1", "http://127.0.0.1:8000"):
        with TestClient(llmapp.mcp.asgi(Accounts, Accounts()), base_url=base) as client:
            status[base] = client.post("/mcp", json=initialize, headers=headers).status_code
    assert status == {
        "http://testserver": 421,
        "http://127.0.0.1": 421,
        "http://127.0.0.1:8000": 200,
    }
