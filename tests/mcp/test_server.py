"""llmapp.mcp.server in-process (the SDK's ``Client`` connected to the ``Server`` object):
concurrency of sync methods, async methods, the human-side hook, unknown tools."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp import Client
from mcp.server import Server
from tests.mcp.served import Desk

import llmapp.mcp
from llmapp import application, controls


def run(server: Server[Any], *calls: tuple[str, dict[str, Any]]) -> list[types.CallToolResult]:
    """Connect the SDK's client to the server in-process and make the calls concurrently."""
    answers: list[Any] = [None] * len(calls)

    async def main() -> None:
        async with Client(server) as client:

            async def one(index: int, name: str, arguments: dict[str, Any]) -> None:
                answers[index] = await client.call_tool(name, arguments)

            async with anyio.create_task_group() as group:
                for index, (name, arguments) in enumerate(calls):
                    group.start_soon(one, index, name, arguments)

    anyio.run(main)
    return answers


def text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def test_it_is_the_sdk_low_level_server_named_after_the_class() -> None:
    built = llmapp.mcp.server(application(Desk), Desk())
    assert isinstance(built, Server)
    assert built.name == "Desk"
    assert llmapp.mcp.server(Desk, Desk(), name="desk", version="1.2").version == "1.2"


def test_ten_slow_sync_calls_run_side_by_side() -> None:
    answers = run(llmapp.mcp.server(Desk, Desk()), *[("nap", {"seconds": 1.0})] * 10)
    spans = [answer.structured_content for answer in answers]
    assert all(not answer.is_error for answer in answers)
    # Every call started before any call ended: all ten slept at the same time (a second
    # each, so a thread started late on a loaded machine still starts before the first ends).
    assert max(span["start"] for span in spans) < min(span["end"] for span in spans)


def test_an_async_method_runs_on_the_loop() -> None:
    (answer,) = run(llmapp.mcp.server(Desk, Desk()), ("shout", {"text": "hi"}))
    assert answer.structured_content == {"result": "HI"}
    assert text(answer) == '"HI"'


def test_human_values_come_from_the_hook_with_the_request_context() -> None:
    seen: list[Any] = []

    def human(function: Any, context: Any) -> dict[str, str]:
        seen.append((function.name, context.method))
        return {"user": "ada"}

    (answer,) = run(llmapp.mcp.server(Desk, Desk(), human=human), ("whoami", {"greeting": "Hello"}))
    assert answer.structured_content == {"result": "Hello, ada"}
    assert seen == [("whoami", "tools/call")]


def test_an_async_hook_is_awaited_and_the_model_cannot_set_a_human_value() -> None:
    async def human(function: Any, context: Any) -> dict[str, str]:
        return {"user": "ada"}

    served = llmapp.mcp.server(Desk, Desk(), human=human)
    good, sneaky = run(
        served, ("whoami", {"greeting": "Hi"}), ("whoami", {"greeting": "Hi", "user": "root"})
    )
    assert good.structured_content == {"result": "Hi, ada"}
    assert sneaky.is_error
    assert '"path": "$input.user", "expected": "undefined"' in text(sneaky)


def test_a_failing_hook_or_no_hook_is_an_error_answer_not_a_crash() -> None:
    def broken(function: Any, context: Any) -> dict[str, str]:
        raise PermissionError("no session user")

    (failed,) = run(llmapp.mcp.server(Desk, Desk(), human=broken), ("whoami", {"greeting": "Hi"}))
    assert failed.is_error
    assert text(failed) == "whoami could not run: its server-side values are unavailable."
    (missing,) = run(llmapp.mcp.server(Desk, Desk()), ("whoami", {"greeting": "Hi"}))
    assert missing.is_error
    assert text(missing) == (
        "whoami could not run: values from the user are missing "
        "(this client cannot ask its user for values)."
    )


def test_an_unknown_tool_is_answered_with_the_names_there_are() -> None:
    (answer,) = run(llmapp.mcp.server(Desk, Desk()), ("place_ordr", {}))
    assert answer.is_error
    assert "Did you mean 'place_order'?" in text(answer)


def test_arguments_are_repaired_before_they_are_checked() -> None:
    (answer,) = run(
        llmapp.mcp.server(Desk, Desk()), ("place_order", {"sku": "ABC", "quantity": "3"})
    )
    assert not answer.is_error
    assert answer.structured_content["quantity"] == 3
    assert json.loads(text(answer))["quantity"] == 3


class Library:
    """Lends books."""

    def lend(self, title: str) -> str:
        """Lend a book."""
        return title

    def greeting(self, who: str) -> str:
        """A greeting to start with.

        @tag prompt
        """
        return f"Hello {who}"

    def shelf(self, number: int) -> str:
        """One shelf.

        @tag resource library://shelves/{number}
        """
        return "shelf"

    @controls(enabled=lambda context: False)
    def audit(self) -> str:
        """Audit the loans (for no one here)."""
        return "audited"


def test_an_unknown_tool_is_answered_with_the_names_of_the_tools_only() -> None:
    # Prompts and resources are functions of the application but no tools: a name offered
    # to the model would be answered "not a tool of this server".
    server = llmapp.mcp.server(application(Library), Library())
    lent, audit = run(server, ("lent", {}), ("audit", {}))
    assert lent.is_error and audit.is_error
    assert text(lent) == (
        "There is no function named 'lent'. Did you mean 'lend'? The functions are: 'lend'."
    )
    assert text(audit) == "There is no function named 'audit'. The functions are: 'lend'."
