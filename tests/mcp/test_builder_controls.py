"""``llmapp.mcp.application(controls=)``: a validating proxy's tools get the class door's
controls from the builder, in front of the SDK's own ``MCPServer`` (in process): a timeout
bounds a slow tool, a destructive one waits for approval and nothing reaches the upstream
server until approved, a disabled one is neither listed nor called, and served again over
``llmapp.mcp.server`` the same controls hold."""

from __future__ import annotations

import logging
import time
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp import Client, ClientSession
from mcp.server.mcpserver import MCPServer

import llmapp.mcp
from llmapp import CallContext, Controls


def peer() -> tuple[MCPServer, list[str]]:
    """An SDK server: a slow tool, a destructive one, an admin's one; the calls that reached it."""
    server = MCPServer("peer")
    received: list[str] = []

    @server.tool()
    async def slow(seconds: float) -> str:
        """Take a while."""
        received.append("slow")
        await anyio.sleep(seconds)
        return "done"

    @server.tool(annotations=types.ToolAnnotations(destructive_hint=True))
    def wipe(disk: str) -> str:
        """Wipe a disk."""
        received.append(f"wipe {disk}")
        return f"wiped {disk}"

    @server.tool()
    def audit() -> str:
        """Audit the disks."""
        received.append("audit")
        return "clean"

    return server, received


def _admins(context: CallContext) -> bool:
    return context.get(str) == "admin"


CONTROLS = {"slow": Controls(timeout=0.3), "audit": Controls(enabled=_admins)}


def upstream(body: Any, **options: Any) -> tuple[Any, list[str]]:
    """``body(app, session, received)`` against the SDK server, the app built with ``options``."""
    server, received = peer()
    found: list[Any] = []

    async def main() -> None:
        with anyio.fail_after(30):
            async with Client(server) as client:
                app = llmapp.mcp.application(await client.session.list_tools(), **options)
                found.append(await body(app, client.session, received))

    anyio.run(main)
    return found[0], received


def test_a_tool_s_timeout_bounds_its_call_without_a_runner() -> None:
    async def body(app: Any, session: ClientSession, received: list[str]) -> Any:
        started = time.monotonic()
        result = await app.aexecute(session, "slow", '{"seconds": 10}')
        return result, time.monotonic() - started

    (result, took), received = upstream(body, controls=CONTROLS)
    assert received == ["slow"] and took < 5
    assert not result.success and isinstance(result.error, TimeoutError)
    assert result.message() == "The function raised TimeoutError: slow did not finish within 0.3 s"


def test_a_destructive_tool_waits_and_nothing_reaches_upstream_until_approved(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def body(app: Any, session: ClientSession, received: list[str]) -> Any:
        waiting = await app.aexecute(session, "wipe", '{"disk": "d1"}')
        before = list(received)
        done = await app.aexecute(session, "wipe", '{"disk": "d1"}', approved=True)
        return app, waiting, before, done

    with caplog.at_level(logging.INFO, logger="llmapp.controls"):
        (app, waiting, before, done), received = upstream(body)
    assert app.require("wipe").controls == Controls(approval=True)  # destructiveHint
    assert "wipe: tagged destructive" in caplog.text
    assert waiting.approval is not None and waiting.approval.arguments == {"disk": "d1"}
    assert before == [] and done.success and received == ["wipe d1"]

    async def lifted(app: Any, session: ClientSession, received: list[str]) -> Any:
        return await app.aexecute(session, "wipe", '{"disk": "d2"}')

    result, received = upstream(lifted, controls={"wipe": Controls()})
    assert result.success and received == ["wipe d2"]


def test_a_disabled_tool_is_neither_listed_nor_called() -> None:
    async def body(app: Any, session: ClientSession, received: list[str]) -> Any:
        names = [f.name for f in app.visible("guest")]
        refused = await app.aexecute(session, "audit", "{}", context="guest")
        allowed = await app.aexecute(session, "audit", "{}", context="admin")
        return names, refused, allowed

    (names, refused, allowed), received = upstream(body, controls=CONTROLS)
    assert "audit" not in names and "slow" in names
    assert not refused.success and "no function named 'audit'" in refused.message()
    assert allowed.success and received == ["audit"]


def test_a_name_that_is_no_tool_is_a_build_error_with_the_others() -> None:
    async def body(app: Any, session: ClientSession, received: list[str]) -> Any:
        return app

    rule: dict[str, Controls] = {**CONTROLS, "wipe_all": Controls(approval=True)}
    app, _ = upstream(body, controls=rule)
    (problem,) = app.errors
    assert (problem.name, problem.location) == ("wipe_all", "controls")
    assert str(problem) == (
        "wipe_all.controls: controls= names no function (functions: audit, slow, wipe)"
    )
    assert [f.name for f in app.functions] == ["slow", "wipe", "audit"]


def test_one_rule_covers_every_tool() -> None:
    def rule(function: Any) -> Controls | None:
        # what the tags imply is already there: keep it, add a timeout to every tool
        own = function.controls or Controls()
        return Controls(approval=own.approval, timeout=5)

    async def body(app: Any, session: ClientSession, received: list[str]) -> Any:
        return {f.name: f.controls for f in app.functions}

    controls, _ = upstream(body, controls=rule)
    assert controls == {
        "slow": Controls(timeout=5),
        "wipe": Controls(approval=True, timeout=5),
        "audit": Controls(timeout=5),
    }


def test_served_again_the_same_controls_hold() -> None:
    server, received = peer()
    found: dict[str, Any] = {}

    async def main() -> None:
        with anyio.fail_after(30):
            async with Client(server) as upstream_client:
                session = upstream_client.session
                app = llmapp.mcp.application(await session.list_tools(), controls=CONTROLS)
                async with Client(llmapp.mcp.server(app, session)) as client:
                    found["names"] = [tool.name for tool in (await client.list_tools()).tools]
                    found["audit"] = await client.call_tool("audit", {})
                    found["wipe"] = await client.call_tool("wipe", {"disk": "d3"})
                    started = time.monotonic()
                    found["slow"] = await client.call_tool("slow", {"seconds": 10})
                    found["took"] = time.monotonic() - started

    anyio.run(main)
    assert found["names"] == ["slow", "wipe"]
    assert found["audit"].is_error and "no function named 'audit'" in found["audit"].content[0].text
    assert found["wipe"].is_error
    assert "needs a human's approval" in found["wipe"].content[0].text
    assert found["slow"].is_error and found["took"] < 5
    assert "slow did not finish within 0.3 s" in found["slow"].content[0].text
    assert received == ["slow"]  # neither the hidden nor the unapproved call went through


def test_a_long_tool_list_is_not_spelt_out_in_the_error() -> None:
    tools = [{"name": f"tool_{n}", "inputSchema": {"type": "object"}} for n in range(500)]
    app = llmapp.mcp.application(tools, controls={"tool_4999": Controls(approval=True)})
    (problem,) = app.errors
    assert problem.reason.startswith("controls= names no function of the 500 (close: tool_499")
    assert len(problem.reason) < 200
