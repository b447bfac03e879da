"""A validating proxy: another MCP server's tools (the SDK's own ``MCPServer``, over stdio)
served again by ``llmapp.mcp.server(mcp_app, session)``. The model's wrong arguments get the
issues the class door gives for the same model and nothing reaches the upstream server; a
valid call is forwarded and its answer comes back."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from tests.mcp.proxied import Order
from tests.mcp.scenario import ROOT, environment

import llmapp.mcp
from llmapp import CallResult, application


class Warehouse:
    """The same tool as a class of one's own: the class door."""

    def place(self, order: Order) -> dict[str, Any]:
        """Place an order."""
        return {"placed": order.quantity}


VALID = {"kind": "pickup", "lines": [{"sku": "SKU-1", "count": 2}], "quantity": 3}
WRONG = {
    "a pattern": {**VALID, "kind": "boat"},
    "nested: a pattern and a bound": {**VALID, "lines": [{"sku": "1", "count": 0}]},
    "minItems": {**VALID, "lines": []},
    "a maximum and a wrong type": {**VALID, "quantity": 101, "kind": 3},
    "a missing key": {key: value for key, value in VALID.items() if key != "lines"},
}


def _text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def _issues(result: CallResult) -> list[tuple[str, str]]:
    assert not result.success and result.validation is not None, result
    return sorted((issue.path, issue.expected) for issue in result.validation.errors)


Proxied = Callable[[llmapp.mcp.McpLlmApplication, ClientSession, Client], Awaitable[None]]


def _through_proxy(tmp_path: Path, body: Proxied) -> list[Any]:
    """Start the upstream server over stdio, serve its tools again through llmapp, connect
    the SDK's client to that proxy, run ``body``; what reached upstream, one per call."""
    log = tmp_path / "received.jsonl"
    log.touch()
    parameters = StdioServerParameters(
        command=sys.executable,
        args=["-m", "tests.mcp.proxied"],
        env={**environment(), "PROXIED_LOG": str(log)},
        cwd=ROOT,
    )

    async def main() -> None:
        with anyio.fail_after(60), (tmp_path / "stderr.txt").open("w") as errlog:
            async with (
                stdio_client(parameters, errlog=errlog) as (read, write),
                ClientSession(read, write) as upstream,
            ):
                await upstream.initialize()
                app = llmapp.mcp.application(await upstream.list_tools(), name="warehouse")
                assert app.errors == []
                async with Client(llmapp.mcp.server(app, upstream)) as client:
                    await body(app, upstream, client)

    anyio.run(main)
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_wrong_calls_are_explained_as_the_class_door_does_and_never_forwarded(
    tmp_path: Path,
) -> None:
    by_class = application(Warehouse)
    answers: dict[str, tuple[CallResult, types.CallToolResult]] = {}

    async def body(app: Any, upstream: ClientSession, client: Client) -> None:
        listed = await client.list_tools()
        assert [tool.name for tool in listed.tools] == ["place"]
        for case, order in WRONG.items():
            direct = await app.aexecute(upstream, "place", {"order": order})
            answers[case] = direct, await client.call_tool("place", {"order": order})

    received = _through_proxy(tmp_path, body)
    assert received == []
    for case, (direct, served) in answers.items():
        expected = _issues(by_class.execute(Warehouse(), "place", {"order": WRONG[case]}))
        assert _issues(direct) == expected, case
        assert served.is_error, case
        assert _text(served) == direct.feedback, case


def test_a_valid_call_is_forwarded_and_its_answer_comes_back(tmp_path: Path) -> None:
    answers: list[types.CallToolResult] = []

    async def body(app: Any, upstream: ClientSession, client: Client) -> None:
        answers.append(await client.call_tool("place", {"order": VALID}))

    received = _through_proxy(tmp_path, body)
    assert received == [VALID]
    assert not answers[0].is_error
    assert json.loads(_text(answers[0])) == {"placed": 3}
