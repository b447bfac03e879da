"""FastMCP: approval and the request Context as a context parameter, FastMCP's own Client."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from tests.support.sdk import needs

from llmapp import application

if TYPE_CHECKING:
    from .fastmcp_vault import Vault

pytestmark = needs("fastmcp")


def _calls(vault: Vault, *calls: tuple[str, dict[str, Any]], **client: Any) -> list[Any]:
    from fastmcp import Client, FastMCP

    from llmapp.agents.fastmcp import add_tools

    from .fastmcp_vault import Vault

    server = FastMCP("vault")
    add_tools(server, application(Vault), vault)

    async def main() -> list[Any]:
        async with Client(server, **client) as session:
            listed = {tool.name: tool for tool in await session.list_tools()}
            assert listed["request"].input_schema["properties"] == {}
            return [await session.call_tool(n, a, raise_on_error=False) for n, a in calls]

    return asyncio.run(main())


def test_the_fastmcp_context_reaches_a_context_parameter() -> None:
    from .fastmcp_vault import Vault

    (result,) = _calls(Vault(), ("request", {}))
    assert result.structured_content == {"result": "vault"}


def test_a_destructive_call_that_nobody_can_approve_does_not_run() -> None:
    # The client declares no elicitation (no handler): the user cannot be asked, so the
    # call is answered with the approval message (tests/agents/test_fastmcp_elicitation.py
    # asks and answers).
    from .fastmcp_vault import Vault

    vault = Vault()
    (result,) = _calls(vault, ("wipe", {"reason": "leak"}))
    assert vault.log == [] and result.is_error
    assert "needs a human's approval" in result.content[0].text
