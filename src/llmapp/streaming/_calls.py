"""The tool calls of one streamed response: one driver, sync or async, for every vendor.

Each vendor module turns its SDK's stream events into four steps (``Step``): a call
starts (its key in the response, its id, its name), a piece of its arguments arrives,
a call ends (whole, or cut by the token limit), every open call ends (the response
ended, cut or not). ``Calls`` applies them: each call's arguments go through an
``ArgumentStream`` as they arrive, its definite mistakes are yielded at once, and a
call that ends whole runs through the application's own ``execute`` (the answer the
same text gets without streaming). A call cut by the token limit, or still open when
the events stop, never runs: its answer says where the text stopped and what was still
missing. A call with a key written twice never runs either (``ArgumentStream.finish``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator, Mapping
from typing import Any, Union

from llmapp import repair
from llmapp._aio import async_items
from llmapp._results import ValidationFailure, ValidationIssue
from llmapp.jsonschema import ROOT
from llmapp.kernel import CallResult
from llmapp.streaming._arguments import ArgumentStream
from llmapp.streaming._events import CallFinished, CallMistake, CallStarted, StreamEvent
from llmapp.vendors import Human, ToolCall, arun_one, run_one

__all__ = ["Calls", "Step", "adrive", "drive"]

Step = Union[  # noqa: UP007 (a runtime alias on Python 3.10)
    tuple[str, Any, str | None, str],  # ("start", key, id, name)
    tuple[str, Any, str],  # ("delta", key, text)
    tuple[str, Any, bool],  # ("end", key, cut)
    tuple[str, bool],  # ("close", cut)
]
Translate = Callable[[Any], Iterable[Any]]
"""A vendor's reading of one SDK event into steps."""


class _Call:
    __slots__ = ("arguments", "id", "index", "name", "text")

    def __init__(self, index: int, id: str | None, name: str, arguments: ArgumentStream | None):
        self.index = index
        self.id = id
        self.name = name
        self.arguments = arguments
        self.text: list[str] = []


class Calls:
    """The calls of one response, by the vendor's key, while its events arrive."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._open: dict[Any, _Call] = {}
        self._count = 0

    def step(self, step: Any) -> tuple[list[StreamEvent], list[_Call], list[_Call]]:
        """The events one step gives, the calls it ended whole and those it ended cut."""
        kind = step[0]
        if kind == "start":
            return self._start(*step[1:])
        if kind == "delta":
            return self._delta(*step[1:]), [], []
        if kind == "end":
            found = self._open.pop(step[1], None)
            ended = [] if found is None else [found]
            return [], ([] if step[2] else ended), (ended if step[2] else [])
        calls, self._open = list(self._open.values()), {}
        return [], ([] if step[1] else calls), (calls if step[1] else [])

    def _start(
        self, key: Any, id: str | None, name: Any
    ) -> tuple[list[StreamEvent], list[_Call], list[_Call]]:
        if key in self._open:
            return [], [], []
        # The model writes one call after another: a new one means the others ended.
        ended, self._open = list(self._open.values()), {}
        function = self.app.function(name) if isinstance(name, str) else None
        # A class application's own bound on the text read (``LlmConfig.max_length``).
        limit = getattr(getattr(self.app, "config", None), "max_length", repair.MAX_LENGTH)
        arguments = ArgumentStream(function, max_length=limit) if function is not None else None
        call = self._open[key] = _Call(self._count, id, name, arguments)
        self._count += 1
        return [CallStarted(call.index, id, name)], ended, []

    def _delta(self, key: Any, text: Any) -> list[StreamEvent]:
        call = self._open.get(key)
        if call is None or not isinstance(text, str) or not text:
            return []
        call.text.append(text)
        arguments = call.arguments
        issues = arguments.feed(text) if arguments is not None else []
        if not issues or arguments is None:
            return []
        return [CallMistake(call.index, call.id, call.name, issues, arguments.feedback())]


def drive(
    app: Any,
    target: Any,
    events: Iterable[Any],
    translate: Translate,
    human: Human | None,
    options: Mapping[str, Any],
) -> Iterator[StreamEvent]:
    """The events of a sync SDK stream; whole calls run through ``app.execute``."""
    calls = Calls(app)
    for event in events:
        for step in translate(event):
            yield from _events(calls, step, lambda c: _run(app, target, c, human, options))
    yield from _events(calls, ("close", True), lambda c: _run(app, target, c, human, options))


async def adrive(
    app: Any,
    target: Any,
    events: AsyncIterable[Any] | Iterable[Any],
    translate: Translate,
    human: Human | None,
    options: Mapping[str, Any],
) -> AsyncIterator[StreamEvent]:
    """The events of an async (or sync) SDK stream; whole calls run through ``app.aexecute``."""
    calls = Calls(app)
    async for event in async_items(events):
        for step in translate(event):
            for item in _events(calls, step, None):
                if isinstance(item, _Call):
                    yield CallFinished(
                        item.index,
                        item.id,
                        item.name,
                        await _arun(app, target, item, human, options),
                    )
                else:
                    yield item
    for item in _events(calls, ("close", True), None):
        yield item if not isinstance(item, _Call) else _finished(item, cut=True)


def _events(calls: Calls, step: Any, run: Callable[[_Call], Any] | None) -> Iterator[Any]:
    """The events of one step; with no ``run``, a whole call is yielded for the caller to run."""
    events, whole, cut = calls.step(step)
    yield from events
    for call in whole:
        refused = _refused(call)
        if refused is not None:
            yield CallFinished(call.index, call.id, call.name, refused)
        elif run is None:
            yield call
        else:
            yield CallFinished(call.index, call.id, call.name, run(call))
    for call in cut:
        yield _finished(call, cut=True)


def _refused(call: _Call) -> CallResult | None:
    """The call step's refusal of a call the stream saw write a key twice, else None."""
    arguments = call.arguments
    if arguments is None or not arguments.duplicates:
        return None
    answer = arguments.finish()
    return answer if isinstance(answer, CallResult) else None


def _run(
    app: Any, target: Any, call: _Call, human: Human | None, options: Mapping[str, Any]
) -> Any:
    return run_one(app, target, ToolCall(call.id, call.name, "".join(call.text)), human, options)


async def _arun(
    app: Any, target: Any, call: _Call, human: Human | None, options: Mapping[str, Any]
) -> Any:
    tool_call = ToolCall(call.id, call.name, "".join(call.text))
    return await arun_one(app, target, tool_call, human, options)


def _finished(call: _Call, *, cut: bool) -> CallFinished:
    return CallFinished(call.index, call.id, call.name, _cut_result(call), cut=cut)


def _cut_result(call: _Call) -> CallResult:
    """A call the token limit cut: never run; where its text stopped and what it lacked."""
    text = "".join(call.text)
    arguments = call.arguments
    if arguments is None:
        issue = ValidationIssue(ROOT, "JSON object", text, "the output was cut off")
        feedback = "The output was cut off by the token limit before this call was complete."
        return CallResult(
            call.name, False, validation=ValidationFailure(text, [issue]), feedback=feedback
        )
    answer = arguments.finish()
    missing = arguments.missing()
    lacking = f" Still missing: {', '.join(missing)}." if missing else ""
    note = (
        f"The output was cut off by the token limit after {len(text):,} characters of this "
        f"call's arguments, so it did not run.{lacking} Write the call again, shorter if need be."
    )
    if isinstance(answer, CallResult):
        return dataclasses.replace(answer, feedback=f"{answer.feedback}\n\n{note}")
    data, repairs = answer
    issue = ValidationIssue(ROOT, "JSON object", data, "the output was cut off by the token limit")
    return CallResult(
        call.name,
        False,
        validation=ValidationFailure(data, [issue]),
        feedback=note,
        deprecated=arguments.function.deprecated,
        repairs=repairs,
    )
