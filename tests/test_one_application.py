"""One application class with the same verbs at every door.

A class's, an OpenAPI document's, an MCP tool list's and a composition's application are
each an ``llmapp.Application``; ``execute`` and ``aexecute`` have one signature and one
docstring (the base's: a door's override carries none), and a composition hands the
caller's runner to the part that runs the call. That an MCP tool list has no sync target
is said in the types: ``tests/typing/test_mypy.py`` (``DOORS``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from typing import Any

import pytest

import llmapp.http
import llmapp.mcp
from llmapp import (
    Application,
    ComposedApplication,
    Controls,
    LlmApplication,
    Runner,
    application,
    compose,
)
from llmapp.http import Connection, HttpLlmApplication
from llmapp.mcp import McpLlmApplication

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "notes", "version": "1"},
    "paths": {
        "/notes": {"get": {"operationId": "notes", "responses": {"200": {"description": "ok"}}}}
    },
}
TOOL: dict[str, Any] = {"name": "read", "inputSchema": {"type": "object"}}


class Shop:
    def order(self, count: int) -> int:
        """Place an order."""
        return count


def apps() -> list[Application[Any, Any, Any]]:
    shop = application(Shop)
    notes = llmapp.http.application(DOCUMENT)
    files = llmapp.mcp.application([TOOL])
    return [shop, notes, files, compose((shop, Shop()), (notes, Connection("http://127.0.0.1")))]


def test_every_door_s_application_is_the_one_class() -> None:
    kinds = [type(app) for app in apps()]
    assert kinds == [LlmApplication, HttpLlmApplication, McpLlmApplication, ComposedApplication]
    for app in apps():
        assert isinstance(app, Application)
        assert app.visible() == app.functions  # nothing hidden without controls


@pytest.mark.parametrize("verb", ["execute", "aexecute"])
def test_the_verbs_have_one_signature_and_one_docstring(verb: str) -> None:
    base = inspect.signature(getattr(Application, verb))
    expected = [(p.name, p.kind, p.default) for p in base.parameters.values()][2:]
    for app in apps():
        method = getattr(type(app), verb)
        parameters = list(inspect.signature(method).parameters.values())[2:]
        assert [(p.name, p.kind, p.default) for p in parameters] == expected, type(app)
        # The door adds its last step, not a second description of the verb.
        assert method.__doc__ is None or type(app) is McpLlmApplication, type(app)
        if type(app) is not McpLlmApplication or verb == "aexecute":
            assert inspect.getdoc(method) == inspect.getdoc(getattr(Application, verb))


def test_a_composition_hands_the_runner_to_the_part_that_runs_the_call() -> None:
    shop = application(Shop)
    composed = compose((shop, Shop()))
    runner = Runner(threads=1)
    ran: list[Runner | None] = []
    original = shop.aexecute

    async def spy(*args: Any, runner: Runner | None = None, **kwargs: Any) -> Any:
        ran.append(runner)
        return await original(*args, runner=runner, **kwargs)

    shop.aexecute = spy  # type: ignore[method-assign]
    result = asyncio.run(composed.aexecute(None, "order", '{"count": 2}', runner=runner))
    assert result.success and result.data == 2
    assert ran == [runner]


def test_an_mcp_tool_list_answers_a_sync_call_with_the_misuse_it_is() -> None:
    files = llmapp.mcp.application([TOOL])
    with pytest.raises(llmapp.ExecutionError, match="asynchronous"):
        files.execute(None, "read", "{}")  # type: ignore[arg-type]


def test_a_request_runs_within_the_runner_s_time_limit(caplog: pytest.LogCaptureFixture) -> None:
    import httpx

    notes = llmapp.http.application(DOCUMENT)
    (name,) = [function.name for function in notes.functions]
    sent: list[str] = []

    async def slow(request: httpx.Request) -> httpx.Response:
        sent.append(request.url.path)
        await asyncio.sleep(5)
        return httpx.Response(200, json=[])

    async def quick(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=["a note"])

    async def call(answer: Any, runner: Runner | None) -> Any:
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
            connection = Connection("http://notes.test", client=client)
            return await notes.aexecute(connection, name, "{}", runner=runner)

    with caplog.at_level("INFO", logger="llmapp.http"):
        late = asyncio.run(call(slow, Runner(timeout=0.05)))
    assert sent == ["/notes"] and not late.success
    expected = f"The function raised TimeoutError: {name} did not finish within 0.05 s"
    assert late.message() == expected
    assert [r.name for r in caplog.records if name in r.getMessage()] == ["llmapp.http"]
    assert asyncio.run(call(quick, Runner(timeout=5))).data == ["a note"]
    assert asyncio.run(call(quick, None)).data == ["a note"]


def test_a_remote_tool_runs_within_the_runner_s_time_limit() -> None:
    files = llmapp.mcp.application([TOOL])

    class Session:
        async def call_tool(self, name: str, arguments: Any, **options: Any) -> Any:
            await asyncio.sleep(5)

    late = asyncio.run(files.aexecute(Session(), "read", "{}", runner=Runner(timeout=0.05)))
    assert not late.success and isinstance(late.error, TimeoutError)
    assert "read did not finish within 0.05 s" in late.message()
    wrong = asyncio.run(files.aexecute(Session(), "read", "[]", runner=Runner(timeout=0.05)))
    assert not wrong.success and wrong.validation is not None  # answered before any wait


class User:
    def __init__(self, admin: bool) -> None:
        self.admin = admin


ADMINS = Controls(enabled=lambda context: context.get(User, User(False)).admin, approval=True)


def test_a_remote_tool_s_controls_hold_as_a_method_s() -> None:
    (plain,) = llmapp.mcp.application([TOOL]).functions
    files = McpLlmApplication([dataclasses.replace(plain, controls=ADMINS)], [])
    sent: list[Any] = []

    class Session:
        async def call_tool(self, name: str, arguments: Any, **options: Any) -> Any:
            sent.append(arguments)
            return {"content": [{"type": "text", "text": "done"}], "isError": False}

    def run(context: Any, approved: bool = False) -> Any:
        return asyncio.run(
            files.aexecute(Session(), "read", "{}", context=context, approved=approved)
        )

    hidden = run(User(admin=False))
    assert "There is no function named 'read'" in (hidden.feedback or "") and sent == []
    asked = run(User(admin=True))
    assert asked.approval is not None and asked.approval.name == "read" and sent == []
    assert run(User(admin=True), approved=True).data == "done" and sent == [{}]


def test_an_operation_s_controls_hold_as_a_method_s() -> None:
    import httpx

    loose = llmapp.http.application(DOCUMENT)
    (plain,) = loose.functions
    notes = HttpLlmApplication(
        [dataclasses.replace(plain, controls=ADMINS)], [], loose.config, loose.servers
    )
    sent: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request.url.path)
        return httpx.Response(200, json=["a note"])

    connection = Connection(
        "http://notes.test", client=httpx.Client(transport=httpx.MockTransport(answer))
    )

    def run(context: Any, approved: bool = False) -> Any:
        return notes.execute(connection, plain.name, "{}", context=context, approved=approved)

    hidden = run(User(admin=False))
    assert f"There is no function named '{plain.name}'" in (hidden.feedback or "")
    assert sent == []
    asked = run(User(admin=True))
    assert asked.approval is not None and asked.approval.name == plain.name and sent == []
    assert run(User(admin=True), approved=True).data == ["a note"] and sent == ["/notes"]


def test_max_length_holds_at_every_door() -> None:
    import httpx

    long = '{"pad": "' + "x" * 80 + '"}'
    files = llmapp.mcp.application([TOOL], max_length=50)
    notes = llmapp.http.application(DOCUMENT, max_length=50)
    assert [f.max_length for f in (*files.functions, *notes.functions)] == [50, 50]
    sent: list[Any] = []

    class Session:
        async def call_tool(self, name: str, arguments: Any, **options: Any) -> Any:
            sent.append(arguments)
            return {"content": [], "isError": False}

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request.url.path)
        return httpx.Response(200, json=[])

    client = httpx.Client(transport=httpx.MockTransport(answer))
    connection = Connection("http://notes.test", client=client)
    cut = [
        asyncio.run(files.aexecute(Session(), "read", long)),
        notes.execute(connection, notes.functions[0].name, long),
    ]
    for result in cut:
        assert not result.success and "50" in (result.feedback or ""), result
    assert sent == []
    assert asyncio.run(files.aexecute(Session(), "read", "{}")).success and sent == [{}]
