"""The MCP server's calls: bounded worker threads, a timeout, validation off the loop, and a
human hook's failure kept on the server."""

from __future__ import annotations

import logging
import threading
from typing import Annotated, Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp import Client

import llmapp.mcp
from llmapp import Runner, ValidationSuccess, application, llm_application
from llmapp.markers import Human

WAIT = 10


@llm_application
class Slow:
    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = 0
        self.checked_on: list[str] = []

    def block(self, n: int) -> int:
        """Wait until released."""
        self.started += 1
        self.release.wait(WAIT)
        return n

    def echo(self, text: str) -> str:
        """Echo."""
        return text

    async def forever(self) -> str:
        """Never returns."""
        await anyio.sleep(3600)
        return "late"

    def whoami(self, note: str, user: Annotated[str, Human()]) -> str:
        """Who am I."""
        return user


def text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def test_slow_sync_calls_do_not_make_a_quick_one_wait() -> None:
    slow = Slow()
    served = llmapp.mcp.server(Slow, slow, runner=Runner(threads=8))

    async def main() -> tuple[types.CallToolResult, bool]:
        async with Client(served) as client, anyio.create_task_group() as group:
            for n in range(60):
                group.start_soon(client.call_tool, "block", {"n": n})
            while slow.started < 4:
                await anyio.sleep(0.01)
            quick = await client.call_tool("echo", {"text": "fast"})
            still_blocked = slow.started == 4  # per function: half of the 8 threads
            slow.release.set()
            return quick, still_blocked

    quick, still_blocked = anyio.run(main)
    assert not quick.is_error and quick.structured_content == {"result": "fast"}
    assert still_blocked and slow.started == 60


def test_a_call_past_the_timeout_is_a_bounded_error_answer() -> None:
    served = llmapp.mcp.server(Slow, Slow(), runner=Runner(timeout=0.05))

    async def main() -> types.CallToolResult:
        async with Client(served) as client:
            return await client.call_tool("forever", {})

    answer = anyio.run(main)
    assert answer.is_error
    assert text(answer) == "The function raised TimeoutError: forever did not finish within 0.05 s"


def test_validation_runs_off_the_event_loop() -> None:
    seen: list[str] = []

    def hook(arguments: Any) -> ValidationSuccess:
        seen.append(threading.current_thread().name)
        return ValidationSuccess(arguments)

    served = llmapp.mcp.server(application(Slow, validate={"echo": hook}), Slow())

    async def main() -> None:
        async with Client(served) as client:
            await client.call_tool("echo", {"text": "a"})

    anyio.run(main)
    assert seen == ["llmapp worker"]


def test_a_failing_hook_is_answered_generically_and_logged_on_the_server(caplog) -> None:
    def hook(function: Any, context: Any) -> dict[str, str]:
        raise ConnectionError("postgres://admin:DB-PASSWORD-1234@db.internal/users unreachable")

    served = llmapp.mcp.server(Slow, Slow(), human=hook)

    async def main() -> types.CallToolResult:
        async with Client(served) as client:
            return await client.call_tool("whoami", {"note": "hi"})

    with caplog.at_level(logging.ERROR, logger="llmapp"):
        answer = anyio.run(main)
    assert answer.is_error and "DB-PASSWORD" not in text(answer)
    assert text(answer) == "whoami could not run: its server-side values are unavailable."
    (record,) = [r for r in caplog.records if r.name.startswith("llmapp")]
    assert record.exc_info is not None and "DB-PASSWORD-1234" in str(record.exc_info[1])


class Archive:
    """Files by year and month."""

    def month(self, year: int, month: str, part: str) -> str:
        """One month's file.

        @tag resource archive://{year}-{month}.{part}
        """
        return f"{year}/{month}/{part}"


def test_a_resource_uri_is_matched_in_time_linear_in_its_length() -> None:
    # Each variable stops at the first character of the template text after it, so no
    # URI can make the match backtrack: a long one of separators once stalled the loop.
    from llmapp._patterns.linear import is_linear
    from llmapp.mcp._prompts import _matcher

    assert is_linear(_matcher("archive://{year}-{month}.{part}").pattern)
    assert is_linear(_matcher("bank://statements/{month}").pattern)
    found: dict[str, Any] = {}

    async def main() -> None:
        async with Client(llmapp.mcp.server(application(Archive), Archive())) as client:
            found["read"] = await client.session.read_resource("archive://2024-05.txt")
            with pytest.raises(Exception, match="no resource matches"):
                await client.session.read_resource("archive://" + "-." * 50_000 + "/")

    anyio.run(main)
    assert found["read"].contents[0].text == "2024/05/txt"


class Glued:
    """A template whose variables touch."""

    def pair(self, a: str, b: str) -> str:
        """Two parts with nothing between them.

        @tag resource glued://{a}{b}
        """
        return a + b


def test_a_resource_template_with_two_variables_side_by_side_is_refused() -> None:
    # No URI tells where {a} ends and {b} begins, and trying each split would cost time
    # quadratic in the URI, so the server is not made.
    with pytest.raises(ValueError, match=r"glued://\{a\}\{b\}.*\{a\} and \{b\} are side by side"):
        llmapp.mcp.server(application(Glued), Glued())
