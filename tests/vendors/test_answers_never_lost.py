"""A call that ran never loses its answer, whatever goes wrong in another call of the batch."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Annotated, Any

import pytest

import llmapp.mcp
from llmapp import application, llm_application
from llmapp.markers import Human
from llmapp.vendors import anthropic, gemini, openai
from llmapp.vendors import mcp as vendor_mcp


@llm_application
class Shop:
    def __init__(self) -> None:
        self.ran: list[str] = []

    def search(self, query: str) -> list[str]:
        """Search."""
        self.ran.append(query)
        return [query]

    def pay(self, amount: int, card: Annotated[str, Human()]) -> str:
        """Pay."""
        return "paid"


def _chat(*calls: tuple[str, str, str]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
            for i, n, a in calls
        ],
    }


CALLS = [
    ("1", "search", '{"query": "a"}'),
    ("2", "pay", '{"amount": 5}'),
    ("3", "search", '{"query": "b"}'),
]


def test_a_call_that_raises_is_answered_and_the_others_keep_theirs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app, shop = application(Shop), Shop()
    with caplog.at_level(logging.ERROR, logger="llmapp.vendors"):
        answers = openai.call_tools(app, shop, _chat(*CALLS))  # no human values for pay
    assert [a["tool_call_id"] for a in answers] == ["1", "2", "3"]
    assert answers[0]["content"] == '["a"]' and answers[2]["content"] == '["b"]'
    assert (
        answers[1]["content"] == "The call could not be run (ExecutionError); nothing was returned."
    )
    assert shop.ran == ["a", "b"]
    assert "ExecutionError" in caplog.text  # the developer sees the whole error


def test_the_async_twins_keep_every_answer() -> None:
    app, shop = application(Shop), Shop()
    answers = asyncio.run(openai.acall_tools(app, shop, _chat(*CALLS)))
    assert [a["content"][:2] for a in answers] == ['["', "Th", '["']
    blocks = [{"type": "tool_use", "id": i, "name": n, "input": {}} for i, n, _ in CALLS]
    results = asyncio.run(anthropic.acall_tools(app, Shop(), blocks))
    assert [r["is_error"] for r in results] == [True, True, True]  # query missing, pay misused
    parts = [{"function_call": {"id": i, "name": n, "args": {"query": "q"}}} for i, n, _ in CALLS]
    responses = asyncio.run(gemini.acall_tools(app, Shop(), parts))
    assert ["output" in r["function_response"]["response"] for r in responses] == [
        True,
        False,
        True,
    ]


class _Session:
    """What any MCP server can answer: a text block nested deeper than Python reads."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "broken":
            raise ConnectionResetError("the server went away")
        text = "[" * 100_000 + "]" * 100_000 if name == "deep" else '"ok"'
        return {"content": [{"type": "text", "text": text}], "isError": False}


TOOLS = llmapp.mcp.application(
    [{"name": name, "inputSchema": {"type": "object"}} for name in ("ok", "deep", "broken")]
)


def test_a_deeply_nested_mcp_result_is_a_failed_result() -> None:
    result = asyncio.run(llmapp.mcp.call(_Session(), TOOLS.function("deep"), {}))
    assert not result.success and result.error is not None
    assert (
        result.message()
        == "The function raised McpToolError: deep answered JSON nested too deeply to read"
    )
    assert asyncio.run(TOOLS.aexecute(_Session(), "deep", {})).success is False


def test_an_mcp_batch_keeps_the_answers_of_the_calls_that_ran() -> None:
    message = {
        "content": [
            {"type": "tool_use", "id": n, "name": n, "input": {}} for n in ("ok", "deep", "broken")
        ]
    }
    answers = asyncio.run(anthropic.acall_tools(TOOLS, _Session(), message))
    assert [(a["tool_use_id"], a["is_error"]) for a in answers] == [
        ("ok", False),
        ("deep", True),
        ("broken", True),
    ]
    assert answers[0]["content"] == '"ok"'
    assert "ConnectionResetError" in answers[2]["content"]
    assert "went away" not in answers[2]["content"]  # the exception's text stays in the log
    results = asyncio.run(
        vendor_mcp.acall_tools(TOOLS, _Session(), [{"name": "ok"}, {"name": "broken"}])
    )
    assert [r["isError"] for r in results] == [False, True]


def test_a_name_that_is_no_text_is_an_unknown_function_with_human_values_too() -> None:
    # The model's name is looked up in the human values: a list there was unhashable.
    call = {"id": "1", "type": "function", "function": {"name": ["pay"], "arguments": "{}"}}
    message = {"role": "assistant", "tool_calls": [call]}
    for human in (None, {"pay": {"card": "4111-1111"}}):
        (answer,) = openai.call_tools(application(Shop), Shop(), message, human=human)
        assert answer["content"].startswith("There is no function named \"['pay']\"")


async def _cancelled_underneath() -> None:
    """What a client library does to a request it gave up on: its future is cancelled."""
    future = asyncio.get_running_loop().create_future()
    future.cancel()
    await future


@llm_application
class Flaky:
    def __init__(self) -> None:
        self.ran: list[int] = []
        self.started = asyncio.Event()

    async def pay(self, amount: int) -> str:
        """Pay."""
        self.ran.append(amount)
        return f"paid {amount}"

    async def flaky(self) -> str:
        """A request its client cancelled underneath it."""
        await _cancelled_underneath()
        return "never"

    async def slow(self) -> str:
        """Slow."""
        self.started.set()
        await asyncio.sleep(60)
        return "late"


FLAKY_CALLS = [("1", "pay", '{"amount": 5}'), ("2", "flaky", "{}")]

needs_cancelling = pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="Python 3.10 keeps no count of a task's cancellation requests (Task.cancelling): "
    "there every CancelledError is taken as a real cancellation and propagates",
)


@needs_cancelling
def test_a_method_s_own_cancelled_error_is_its_call_s_error() -> None:
    app = application(Flaky)
    result = asyncio.run(app.aexecute(Flaky(), "flaky", "{}"))
    assert not result.success and isinstance(result.error, asyncio.CancelledError)
    assert result.message() == "The function raised CancelledError."
    sync = app.execute(Flaky(), "flaky", "{}")  # no loop running: asyncio.run inside
    assert not sync.success and isinstance(sync.error, asyncio.CancelledError)


@needs_cancelling
@pytest.mark.parametrize("calls", [FLAKY_CALLS, FLAKY_CALLS[1:]])
def test_a_batch_answers_every_call_when_one_raises_its_own_cancelled_error(
    calls: list[tuple[str, str, str]],
) -> None:
    shop = Flaky()
    answers = asyncio.run(openai.acall_tools(application(Flaky), shop, _chat(*calls)))
    assert [a["tool_call_id"] for a in answers] == [i for i, _, _ in calls]
    assert answers[-1]["content"] == "The function raised CancelledError."
    assert shop.ran == ([5] if len(calls) == 2 else [])


def test_a_real_cancellation_of_the_batch_still_propagates() -> None:
    async def main() -> None:
        shop = Flaky()
        calls = _chat(("1", "pay", '{"amount": 5}'), ("2", "slow", "{}"))
        batch = asyncio.ensure_future(openai.acall_tools(application(Flaky), shop, calls))
        await shop.started.wait()
        batch.cancel()
        with pytest.raises(asyncio.CancelledError):
            await batch
        single = asyncio.ensure_future(application(Flaky).aexecute(shop, "slow", "{}"))
        await asyncio.sleep(0.05)
        single.cancel()
        with pytest.raises(asyncio.CancelledError):
            await single

    asyncio.run(main())


class _CancellingSession:
    """An MCP session whose request its own library cancelled."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        await _cancelled_underneath()
        return {}


@needs_cancelling
def test_an_mcp_session_s_own_cancelled_error_is_the_call_s_error() -> None:
    result = asyncio.run(llmapp.mcp.call(_CancellingSession(), TOOLS.function("ok"), {}))
    assert not result.success and isinstance(result.error, asyncio.CancelledError)


@llm_application
class SyncFlaky:
    def flaky(self) -> str:
        """A sync method whose library raised CancelledError in its thread."""
        raise asyncio.CancelledError()


def test_a_sync_method_s_cancelled_error_in_a_worker_thread_is_its_call_s_error() -> None:
    result = asyncio.run(application(SyncFlaky).aexecute(SyncFlaky(), "flaky", "{}"))
    assert not result.success and isinstance(result.error, asyncio.CancelledError)
    assert application(SyncFlaky).execute(SyncFlaky(), "flaky", "{}").success is False
