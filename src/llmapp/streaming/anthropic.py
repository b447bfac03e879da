"""Anthropic's message stream, call by call.

``stream_calls(app, target, events)`` reads ``client.messages.create(..., stream=True)``
(raw events) or ``client.messages.stream(...)`` (whose events include the raw ones) and
yields, per ``tool_use`` block, ``CallStarted``, each ``CallMistake`` as the
``input_json_delta`` pieces arrive, and ``CallFinished``. A block is whole once another
block starts or the message ends for a reason other than ``max_tokens``; the block the
token limit cut never runs. ``astream_calls`` is the same over an async stream.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any

from llmapp.streaming._calls import adrive, drive
from llmapp.streaming._events import StreamEvent
from llmapp.vendors import Human, call_id, read

__all__ = ["astream_calls", "stream_calls"]


def stream_calls(
    app: Any, target: Any, events: Iterable[Any], *, human: Human | None = None, **options: Any
) -> Iterator[StreamEvent]:
    """Each tool call of an Anthropic stream: its name, its definite mistakes, its result
    (arguments as for ``llmapp.streaming.openai.stream_calls``)."""
    return drive(app, target, events, _steps, human, options)


def astream_calls(
    app: Any,
    target: Any,
    events: AsyncIterable[Any] | Iterable[Any],
    *,
    human: Human | None = None,
    **options: Any,
) -> AsyncIterator[StreamEvent]:
    """``stream_calls`` over an async stream; calls run with ``aexecute``."""
    return adrive(app, target, events, _steps, human, options)


def _steps(event: Any) -> list[Any]:
    kind = read(event, "type")
    if kind == "content_block_start":
        block = read(event, "content_block")
        if read(block, "type") != "tool_use":
            return []
        key = read(event, "index")
        steps: list[Any] = [("start", key, call_id(block, "id"), read(block, "name"))]
        given = read(block, "input")
        if given:  # a whole input given at the start (not what the API streams)
            steps.append(("delta", key, json.dumps(given)))
        return steps
    if kind == "content_block_delta":
        delta = read(event, "delta")
        if read(delta, "type") == "input_json_delta":
            return [("delta", read(event, "index"), read(delta, "partial_json") or "")]
        return []
    if kind == "message_delta":
        reason = read(read(event, "delta"), "stop_reason")
        return [("close", reason == "max_tokens")] if reason else []
    return []
