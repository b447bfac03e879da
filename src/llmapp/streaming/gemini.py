"""Gemini's streamed function calls, call by call.

``stream_calls(app, target, chunks)`` reads ``client.models.generate_content_stream(...)``
and yields, per function call, ``CallStarted``, each ``CallMistake`` and
``CallFinished``. The Gemini API sends each function call whole (its ``args``): it is
checked at once. Vertex AI's streamed arguments (``partial_args``: a JSON path and a
piece of its value, ``will_continue`` while more follows) are written back into JSON
text in the order they arrive, so their mistakes are seen while the model writes them.
A call is whole once another call starts or the response finishes for a reason other
than ``MAX_TOKENS``; the call the token limit cut never runs.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any

from llmapp.streaming._calls import adrive, drive
from llmapp.streaming._events import StreamEvent
from llmapp.vendors import Human, call_id, items, read

__all__ = ["astream_calls", "stream_calls"]

_SEGMENT = re.compile(r"\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]")


def stream_calls(
    app: Any, target: Any, chunks: Iterable[Any], *, human: Human | None = None, **options: Any
) -> Iterator[StreamEvent]:
    """Each function call of a Gemini stream: its name, its definite mistakes, its result
    (arguments as for ``llmapp.streaming.openai.stream_calls``)."""
    return drive(app, target, chunks, _Reader().steps, human, options)


def astream_calls(
    app: Any,
    target: Any,
    chunks: AsyncIterable[Any] | Iterable[Any],
    *,
    human: Human | None = None,
    **options: Any,
) -> AsyncIterator[StreamEvent]:
    """``stream_calls`` over an async stream; calls run with ``aexecute``."""
    return adrive(app, target, chunks, _Reader().steps, human, options)


class _Reader:
    def __init__(self) -> None:
        self.count = 0
        self.writer: _Writer | None = None  # the call whose arguments are streamed

    def steps(self, chunk: Any) -> list[Any]:
        steps: list[Any] = []
        candidates = items(chunk, "candidates")
        if not candidates:
            return steps
        candidate = candidates[0]
        for part in items(read(candidate, "content"), "parts"):
            call = read(part, "function_call")
            if call is not None:
                steps.extend(self._call(call))
        reason = read(candidate, "finish_reason")
        reason = getattr(reason, "value", reason)
        if reason:
            if self.writer is not None and reason != "MAX_TOKENS":
                steps.append(("delta", self.count - 1, self.writer.close()))
            self.writer = None
            steps.append(("close", reason == "MAX_TOKENS"))
        return steps

    def _call(self, call: Any) -> list[Any]:
        steps: list[Any] = []
        name = read(call, "name")
        if name:
            key, self.count = self.count, self.count + 1
            steps.append(("start", key, call_id(call, "id"), name))
            args = read(call, "args")
            if read(call, "will_continue"):
                self.writer = _Writer()
            elif args is not None or not read(call, "partial_args"):
                steps.append(("delta", key, json.dumps(args or {})))
                self.writer = None
        key = self.count - 1
        writer = self.writer
        if writer is not None:
            pieces = [writer.write(arg) for arg in items(call, "partial_args")]
            steps.extend(("delta", key, piece) for piece in pieces if piece)
            if not name and not read(call, "will_continue"):
                steps.append(("delta", key, writer.close()))
                self.writer = None
        return steps


class _Writer:
    """JSON text from ``partial_args`` in the order they arrive: the containers their
    paths open, their keys, and their values, a string value piece by piece."""

    def __init__(self) -> None:
        self.path: list[str | int] = []  # where the last value was written
        self.text_open = False
        self.started = False

    def write(self, arg: Any) -> str:
        path = _segments(read(arg, "json_path") or "$")
        if path is None:
            return ""
        out: list[str] = []
        continues = bool(read(arg, "will_continue"))
        if self.text_open and path == self.path:
            out.append(_text(read(arg, "string_value") or ""))
        else:
            if self.text_open:
                out.append('"')
                self.text_open = False
            out.append(self._move(path))
            value = _value(arg)
            if isinstance(value, str):
                out.append('"' + _text(value))
                self.text_open = True
            else:
                out.append(json.dumps(value))
        if self.text_open and not continues:
            out.append('"')
            self.text_open = False
        return "".join(out)

    def _move(self, path: list[str | int]) -> str:
        """Close what the new path leaves, open what it enters, up to its last step."""
        out: list[str] = []
        if not self.started:
            out.append("{")
            self.started = True
            self.path = []
            shared = 0
        else:
            shared = 0
            while shared < min(len(self.path), len(path)) - 1 and self.path[shared] == path[shared]:
                shared += 1
            for segment in reversed(self.path[shared + 1 :]):
                out.append("}" if isinstance(segment, str) else "]")
            out.append(",")
        for depth in range(shared, len(path)):
            segment = path[depth]
            if isinstance(segment, str):
                out.append(json.dumps(segment) + ":")
            last = depth == len(path) - 1
            if not last:
                out.append("{" if isinstance(path[depth + 1], str) else "[")
        self.path = path
        return "".join(out)

    def close(self) -> str:
        out = ['"'] if self.text_open else []
        self.text_open = False
        if not self.started:
            return "{}"
        for segment in reversed(self.path[1:]):
            out.append("}" if isinstance(segment, str) else "]")
        out.append("}")
        return "".join(out)


def _segments(path: str) -> list[str | int] | None:
    """``$.a.b[0]['c d']`` as its steps; None for a path this reader does not follow."""
    if not path.startswith("$"):
        return None
    segments: list[str | int] = []
    position = 1
    while position < len(path):
        match = _SEGMENT.match(path, position)
        if match is None:
            return None
        name, index, quoted = match.groups()
        segments.append(int(index) if index is not None else (name or quoted or ""))
        position = match.end()
    return segments or None


def _value(arg: Any) -> Any:
    for field in ("string_value", "number_value", "bool_value"):
        value = read(arg, field)
        if value is not None:
            return value
    return None


def _text(value: str) -> str:
    return json.dumps(value)[1:-1]
