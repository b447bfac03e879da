"""FastMCP: approval by elicitation end to end, and tools hidden per request, over FastMCP's
in-memory Client on both protocol eras (2026-07-28's multi-round-trip asks, and the
handshake era's server-initiated ``elicitation/create``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import pytest
from tests.support.sdk import needs

from llmapp import CallContext, application, controls

if TYPE_CHECKING:
    from fastmcp import Client

pytestmark = needs("fastmcp")


def _console(context: CallContext) -> str | None:
    from fastmcp import Context

    ctx = context.get(Context)
    return ctx.session.client_params.client_info.name if ctx is not None else None


class Vault:
    """Keeps secrets."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def wipe(self, reason: str) -> str:
        """Wipe the vault.

        @tag destructive
        """
        self.log.append(reason)
        return "wiped"

    @controls(enabled=lambda context: _console(context) == "admin-console")
    def audit(self) -> str:
        """Audit the vault (admin consoles only)."""
        return "audited"

    def peek(self) -> str:
        """Look inside."""
        return "gold"


ERAS = [pytest.param({}, id="2026-07-28"), pytest.param({"mode": "legacy"}, id="handshake")]


def _session(vault: Vault, body: Any, **client: Any) -> Any:
    from fastmcp import Client, FastMCP

    from llmapp.agents.fastmcp import add_tools

    server = FastMCP("vault")
    add_tools(server, application(Vault), vault)

    async def main() -> Any:
        async with Client(server, **client) as session:
            return await body(session)

    return asyncio.run(main())


@pytest.mark.parametrize("era", ERAS)
def test_an_approved_elicitation_runs_the_destructive_call(era: dict[str, Any]) -> None:
    asked: list[str] = []

    async def approve(message: str, response_type: Any, params: Any, context: Any) -> bool:
        asked.append(message)
        return True

    vault = Vault()

    async def body(session: Client[Any]) -> Any:
        return await session.call_tool("wipe", {"reason": "leak"}, raise_on_error=False)

    result = _session(vault, body, elicitation_handler=approve, **era)
    assert asked == [
        'Approve the call of wipe?\nreason: "leak"'
    ]  # the one question every door asks
    assert vault.log == ["leak"]
    assert result.is_error is False and result.structured_content == {"result": "wiped"}


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("answer", ["decline", "cancel", "no"])
def test_a_declined_elicitation_does_not_run_it(era: dict[str, Any], answer: str) -> None:
    from fastmcp.client.elicitation import ElicitResult

    async def decline(message: str, response_type: Any, params: Any, context: Any) -> Any:
        return False if answer == "no" else ElicitResult(action=answer)

    vault = Vault()

    async def body(session: Client[Any]) -> Any:
        return await session.call_tool("wipe", {"reason": "leak"}, raise_on_error=False)

    result = _session(vault, body, elicitation_handler=decline, **era)
    assert vault.log == []
    assert result.is_error is True
    assert result.content[0].text == "The user declined the call of wipe; it did not run."


def test_an_answer_the_server_did_not_ask_for_does_not_approve() -> None:
    # A client retrying with a made-up answer and no sealed state is asked again.
    from mcp_types import ElicitResult as WireAnswer

    vault = Vault()

    async def body(session: Client[Any]) -> Any:
        forged = {"llmapp-approval": WireAnswer(action="accept", content={"value": True})}
        return await session.session.call_tool(
            "wipe", {"reason": "leak"}, input_responses=forged, allow_input_required=True
        )

    result = _session(vault, body, elicitation_handler=lambda *args: True)
    assert vault.log == []
    assert getattr(result, "result_type", None) == "input_required"


@pytest.mark.parametrize("era", ERAS)
def test_a_tool_hidden_for_the_request_is_not_listed(era: dict[str, Any]) -> None:
    from mcp.types import Implementation

    async def body(session: Client[Any]) -> Any:
        listed = [tool.name for tool in await session.list_tools()]
        called = await session.call_tool("audit", {}, raise_on_error=False)
        return listed, called

    (listed, refused) = _session(Vault(), body, **era)
    assert listed == ["wipe", "peek"]
    assert refused.is_error and "no function named 'audit'" in refused.content[0].text
    admin = Implementation(name="admin-console", version="1")
    (listed, audited) = _session(Vault(), body, client_info=admin, **era)
    assert listed == ["wipe", "audit", "peek"]
    assert audited.is_error is False and audited.structured_content == {"result": "audited"}
