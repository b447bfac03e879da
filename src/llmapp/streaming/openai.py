"""OpenAI's streams: Chat Completions chunks and Responses API events, call by call.

``stream_calls(app, target, events)`` reads the SDK's own stream (``client.chat.
completions.create(..., stream=True)`` or ``client.responses.create(..., stream=True)``,
or their plain-dict forms) and yields, per tool call, ``CallStarted`` (its name),
``CallMistake`` (each definite mistake in its arguments, as soon as it is written) and
``CallFinished`` (its ``CallResult``: the call ran once its arguments ended whole;
``finish_reason == "length"`` or an incomplete response cut the last call, which never
runs). ``astream_calls`` is the same over an async stream, running calls with
``aexecute``. Stop iterating at a ``CallMistake`` to stop paying for the rest: its
``feedback`` is the text to send back.

Example::

    events = client.chat.completions.create(model=..., messages=..., tools=..., stream=True)
    for event in llmapp.streaming.openai.stream_calls(app, Shop(), events):
        if isinstance(event, CallMistake):
            events.close()             # stop the generation: the call is wrong already
            ...                        # answer the call with event.feedback
            break
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any

from llmapp.streaming._calls import adrive, drive
from llmapp.streaming._events import StreamEvent
from llmapp.vendors import Human, call_id, items, read

__all__ = ["astream_calls", "stream_calls"]


def stream_calls(
    app: Any, target: Any, events: Iterable[Any], *, human: Human | None = None, **options: Any
) -> Iterator[StreamEvent]:
    """Each tool call of an OpenAI stream: its name, its definite mistakes, its result.

    Args:
        app: the application whose functions the model calls (any door).
        target: what its ``execute`` runs the calls on (an instance, a connection...).
        events: the SDK's stream of chunks (Chat Completions) or events (Responses).
        human: function name -> the values a human supplies for its human side.
        options: passed to every ``execute`` (``context=``...).
    """
    return drive(app, target, events, _Reader().steps, human, options)


def astream_calls(
    app: Any,
    target: Any,
    events: AsyncIterable[Any] | Iterable[Any],
    *,
    human: Human | None = None,
    **options: Any,
) -> AsyncIterator[StreamEvent]:
    """``stream_calls`` over an async stream; calls run with ``aexecute``."""
    return adrive(app, target, events, _Reader().steps, human, options)


class _Reader:
    """Steps from chunks or events; remembers which Responses items are function calls."""

    def __init__(self) -> None:
        self.items: dict[Any, Any] = {}

    def steps(self, event: Any) -> list[Any]:
        kind = read(event, "type")
        if isinstance(kind, str) and kind.startswith("response."):
            return self._responses(kind, event)
        return _chat(event)

    def _responses(self, kind: str, event: Any) -> list[Any]:
        if kind == "response.output_item.added":
            item = read(event, "item")
            if read(item, "type") != "function_call":
                return []
            key = read(item, "id") or read(event, "output_index")
            self.items[read(event, "output_index")] = key
            steps: list[Any] = [("start", key, call_id(item, "call_id"), read(item, "name"))]
            if read(item, "arguments"):
                steps.append(("delta", key, read(item, "arguments")))
            return steps
        if kind == "response.function_call_arguments.delta":
            key = read(event, "item_id") or self.items.get(read(event, "output_index"))
            return [("delta", key, read(event, "delta") or "")]
        if kind == "response.output_item.done":
            item = read(event, "item")
            if read(item, "type") != "function_call":
                return []
            key = read(item, "id") or self.items.get(read(event, "output_index"))
            return [("end", key, read(item, "status") == "incomplete")]
        if kind == "response.completed":
            return [("close", False)]
        if kind in ("response.incomplete", "response.failed"):
            return [("close", True)]
        return []


def _chat(chunk: Any) -> list[Any]:
    steps: list[Any] = []
    for choice in items(chunk, "choices"):
        if read(choice, "index") not in (0, None):
            continue  # one answer is followed: n > 1 asks for several
        for call in items(read(choice, "delta"), "tool_calls"):
            key = read(call, "index")
            function = read(call, "function")
            name = read(function, "name")
            if name:
                steps.append(("start", key, call_id(call, "id"), name))
            arguments = read(function, "arguments")
            if arguments:
                steps.append(("delta", key, arguments))
        reason = read(choice, "finish_reason")
        if reason:
            steps.append(("close", reason == "length"))
    return steps
