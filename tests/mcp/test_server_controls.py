"""llmapp.mcp.server and the per-tool controls: tools/list per request, approval by
elicitation, the request context as a context parameter (the SDK's own Client, in process)."""

from __future__ import annotations

from typing import Annotated, Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp import Client
from mcp.server import ServerRequestContext
from mcp.server.auth.provider import AccessToken
from tests.mcp.production import serving
from tests.mcp.test_asgi import session_calls

import llmapp.mcp
from llmapp import CallContext, controls
from llmapp.markers import Context


def _role(context: CallContext) -> Any:
    request = context.get(ServerRequestContext)
    meta = getattr(request, "meta", None)
    return meta.get("role") if isinstance(meta, dict) else None


class Vault:
    """Keeps secrets."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def method(self, request: ServerRequestContext[Any]) -> str:
        """The request's method, read from the request context."""
        return str(request.method)

    @controls(enabled=lambda context: _role(context) == "admin")
    def audit(self) -> str:
        """Audit the vault."""
        return "audited"

    def wipe(self, reason: str, token: Annotated[AccessToken, Context()] | None = None) -> str:
        """Wipe the vault.

        @approval
        """
        assert token is None  # in process: no bearer token was verified
        self.log.append(reason)
        return "wiped"


def _session(vault: Vault, work: Any, **client: Any) -> Any:
    server = llmapp.mcp.server(Vault, vault)
    out: list[Any] = []

    async def main() -> None:
        async with Client(server, **client) as session:
            out.append(await work(session))

    anyio.run(main)
    return out[0]


def test_tools_list_leaves_out_a_tool_hidden_for_the_request() -> None:
    async def names(session: Any) -> tuple[list[str], list[str], Any]:
        plain = [tool.name for tool in (await session.list_tools()).tools]
        admin = await session.list_tools(meta={"role": "admin"})
        hidden = await session.call_tool("audit", {})
        return plain, [tool.name for tool in admin.tools], hidden

    plain, admin, hidden = _session(Vault(), names)
    assert "audit" not in plain and "audit" in admin
    assert hidden.is_error and "no function named 'audit'" in hidden.content[0].text


def test_the_request_context_reaches_a_context_parameter_and_not_the_schema() -> None:
    async def work(session: Any) -> Any:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
        return listed["method"].input_schema, await session.call_tool("method", {})

    schema, result = _session(Vault(), work)
    assert schema["properties"] == {}
    assert result.structured_content == {"result": "tools/call"}


@pytest.mark.parametrize(("approve", "ran"), [(True, ["leak"]), (False, [])])
def test_a_call_that_needs_approval_is_asked_of_the_user(approve: bool, ran: list[str]) -> None:
    asked: list[str] = []

    async def elicitation(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": approve})

    vault = Vault()
    with serving(llmapp.mcp.asgi(Vault, vault)) as base:
        (result,) = anyio.run(
            lambda: session_calls(
                f"{base}/mcp", ("wipe", {"reason": "leak"}), elicitation_callback=elicitation
            )
        )
    assert vault.log == ran
    assert asked == [
        'Approve the call of wipe?\nreason: "leak"'
    ]  # the one question every door asks
    assert result.is_error is (not approve)


def test_a_client_that_cannot_be_asked_gets_the_approval_message() -> None:
    vault = Vault()

    async def work(session: Any) -> Any:
        return await session.call_tool("wipe", {"reason": "leak"})

    result = _session(vault, work)
    assert vault.log == [] and result.is_error
    assert "needs a human's approval" in result.content[0].text
