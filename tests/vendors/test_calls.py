"""``call_tools`` / ``acall_tools`` of every vendor, on plain-dict responses: what each answer
says for a right call, wrong arguments, an unknown name and a method that raises; call ids
and order; async calls running concurrently; any object with ``execute``/``aexecute``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from llmapp import CallResult, application, llm_application
from llmapp.vendors import anthropic, gemini, openai

Answer = dict[str, Any]


def text_of(vendor: str, answer: Answer) -> str:
    """The text an answer carries, whatever the vendor's shape."""
    readers: dict[str, Callable[[Answer], str]] = {
        "chat": lambda a: a["content"],
        "responses": lambda a: a["output"],
        "anthropic": lambda a: a["content"],
        "gemini": lambda a: next(iter(a["function_response"]["response"].values())),
    }
    return readers[vendor](answer)


def failed(vendor: str, answer: Answer) -> bool | None:
    """The vendor's error flag (None where the vendor has none)."""
    flags: dict[str, Callable[[Answer], bool | None]] = {
        "chat": lambda a: None,
        "responses": lambda a: None,
        "anthropic": lambda a: a["is_error"],
        "gemini": lambda a: "error" in a["function_response"]["response"],
    }
    return flags[vendor](answer)


def call_id(vendor: str, answer: Answer) -> str:
    readers: dict[str, Callable[[Answer], str]] = {
        "chat": lambda a: a["tool_call_id"],
        "responses": lambda a: a["call_id"],
        "anthropic": lambda a: a["tool_use_id"],
        "gemini": lambda a: a["function_response"]["id"],
    }
    return readers[vendor](answer)


VENDORS = ["chat", "responses", "anthropic", "gemini"]
MODULES = {"chat": openai, "responses": openai, "anthropic": anthropic, "gemini": gemini}


def respond(kit: Any, vendor: str, calls: list[tuple[str, str, dict[str, Any]]]) -> Any:
    builders = {
        "chat": kit.chat,
        "responses": kit.responses,
        "anthropic": kit.anthropic,
        "gemini": kit.gemini,
    }
    return builders[vendor](calls)


@pytest.mark.parametrize("vendor", VENDORS)
def test_every_outcome_is_answered_in_order(kit: Any, vendor: str) -> None:
    app, orders = application(kit.Orders), kit.Orders()
    calls = [
        ("c1", "place", kit.VALID),
        ("c2", "place", kit.WRONG),
        ("c3", "plase", kit.VALID),
        ("c4", "fail", {"reason": "the warehouse is closed"}),
    ]
    answers = MODULES[vendor].call_tools(app, orders, respond(kit, vendor, calls))

    assert [call_id(vendor, a) for a in answers] == ["c1", "c2", "c3", "c4"]
    texts = [text_of(vendor, a) for a in answers]
    assert json.loads(texts[0]) == {"order": 1, "lines": 1}
    assert all(path in texts[1] for path in kit.WRONG_PATHS)
    assert "Did you mean 'place'?" in texts[2]
    assert texts[3] == "The function raised RuntimeError: the warehouse is closed"
    assert "Traceback" not in texts[3]
    flags = [failed(vendor, a) for a in answers]
    assert flags == ([None] * 4 if vendor in ("chat", "responses") else [False, True, True, True])


@pytest.mark.parametrize("vendor", VENDORS)
def test_acall_tools_answers_like_call_tools(kit: Any, vendor: str) -> None:
    app = application(kit.Orders)
    response = respond(kit, vendor, kit.TWO_CALLS)
    sync = MODULES[vendor].call_tools(app, kit.Orders(), response)
    orders = kit.Orders()
    asynchronous = asyncio.run(MODULES[vendor].acall_tools(app, orders, response))
    assert asynchronous == sync
    assert [name for name, _ in orders.seen] == ["place"]


@llm_application
class Gate:
    """Two async methods that only finish when they run at the same time."""

    def __init__(self) -> None:
        self.opened = asyncio.Event()

    async def wait(self) -> str:
        """Wait until the gate opens."""
        await self.opened.wait()
        return "passed"

    async def open(self) -> str:
        """Open the gate."""
        self.opened.set()
        return "opened"


@pytest.mark.parametrize("vendor", VENDORS)
def test_acall_tools_runs_the_calls_concurrently(kit: Any, vendor: str) -> None:
    app = application(Gate)
    response = respond(kit, vendor, [("w", "wait", {}), ("o", "open", {})])

    async def turn() -> list[Answer]:
        # Run one after the other, "wait" would never return: the guard turns that into a failure.
        answers: list[Answer] = await asyncio.wait_for(
            MODULES[vendor].acall_tools(app, Gate(), response), timeout=30
        )
        return answers

    answers = asyncio.run(turn())
    assert [call_id(vendor, a) for a in answers] == ["w", "o"]
    assert [json.loads(text_of(vendor, a)) for a in answers] == ["passed", "opened"]


@pytest.mark.parametrize(
    ("vendor", "shape"),
    [
        ("chat", lambda r: r["choices"][0]["message"]),  # the message alone
        ("responses", lambda r: r["output"]),  # the output list alone
        ("anthropic", lambda r: r["content"]),  # the content blocks alone
        ("gemini", lambda r: r["candidates"][0]["content"]),  # one Content
        ("gemini", lambda r: r["candidates"][0]["content"]["parts"]),  # its parts
    ],
)
def test_parts_of_a_response_are_read_too(
    kit: Any, vendor: str, shape: Callable[[Any], Any]
) -> None:
    app = application(kit.Orders)
    whole = MODULES[vendor].call_tools(app, kit.Orders(), respond(kit, vendor, kit.TWO_CALLS))
    part = MODULES[vendor].call_tools(app, kit.Orders(), shape(respond(kit, vendor, kit.TWO_CALLS)))
    assert part == whole
    assert len(part) == 2


@pytest.mark.parametrize("vendor", VENDORS)
def test_a_response_without_calls_has_no_answers(kit: Any, vendor: str) -> None:
    app = application(kit.Orders)
    final = {
        "chat": kit.chat,
        "responses": kit.responses,
        "anthropic": kit.anthropic,
        "gemini": kit.gemini,
    }[vendor]([], "Done.")
    assert MODULES[vendor].call_tools(app, kit.Orders(), final) == []


class Echo:
    """Not an application: any object with execute/aexecute plugs into call_tools."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, str, Any, Any]] = []

    def execute(self, target: Any, name: str, arguments: Any, human: Any = None) -> CallResult:
        self.calls.append((target, name, arguments, human))
        return CallResult(name=name, success=True, value=arguments, data={"echo": name})

    async def aexecute(
        self, target: Any, name: str, arguments: Any, human: Any = None
    ) -> CallResult:
        return self.execute(target, name, arguments, human)


@pytest.mark.parametrize("vendor", VENDORS)
def test_any_executor_plugs_in(kit: Any, vendor: str) -> None:
    echo = Echo()
    response = respond(kit, vendor, [("e1", "anything", {"a": 1})])
    answers = MODULES[vendor].call_tools(
        echo, "connection", response, human={"anything": {"token": "t"}}
    )
    assert json.loads(text_of(vendor, answers[0])) == {"echo": "anything"}
    target, name, arguments, human = echo.calls[0]
    assert (target, name, human) == ("connection", "anything", {"token": "t"})
    assert (json.loads(arguments) if isinstance(arguments, str) else arguments) == {"a": 1}


def test_null_for_an_optional_value_restores_its_default(kit: Any) -> None:
    """What a strict export makes the model write for a value it would have left out."""
    app, orders = application(kit.Orders), kit.Orders()
    response = kit.chat([("c1", "place", {**kit.VALID, "priority": None})])
    [answer] = openai.call_tools(app, orders, response)
    assert json.loads(answer["content"]) == {"order": 1, "lines": 1}
    assert orders.seen[0][1][3] is kit.Priority.LOW


@llm_application
class Clock:
    """A second class, to combine with another."""

    def now(self) -> str:
        """The time."""
        return "noon"


def test_functions_of_several_classes_combine(kit: Any) -> None:
    functions = [*application(kit.Orders).functions, *application(Clock).functions]
    names = [entry["function"]["name"] for entry in openai.tools(functions, strict=True)]
    assert names == ["place", "sign", "fail", "now"]
    assert [entry["name"] for entry in anthropic.tools(iter(functions))] == names
    assert [entry["name"] for entry in gemini.tools(tuple(functions))] == names
