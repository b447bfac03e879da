"""``llmapp mcp``: the instance from a factory, and what it says when it cannot serve."""

from __future__ import annotations

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from tests.mcp.scenario import ROOT, command, environment

from llmapp._cli import main


def test_a_factory_builds_the_instance_served() -> None:
    counted: list[object] = []

    async def talk() -> None:
        line = command("--factory", "busy_desk")
        server = StdioServerParameters(command=line[0], args=line[1:], env=environment(), cwd=ROOT)
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            counted.append((await session.call_tool("count", {})).structured_content)

    anyio.run(talk)
    assert counted == [{"result": 3}]


def test_what_cannot_be_served_is_said_with_an_exit_status(
    capsys: pytest.CaptureFixture[str],
) -> None:
    served = str(ROOT / "tests" / "mcp" / "served.py")
    assert main(["mcp", f"{served}:Nowhere"]) == 2
    assert "cannot load" in capsys.readouterr().err
    assert main(["mcp", f"{served}:Desk", "--factory", "no_such_factory"]) == 1
    assert "cannot serve" in capsys.readouterr().err
    assert main(["mcp", f"{served}:Order"]) == 1  # a dataclass that needs arguments
    assert "cannot serve" in capsys.readouterr().err
