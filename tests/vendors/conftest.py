"""Fixtures for the vendor exports: a class to call, and a recording server on 127.0.0.1.

``loopback`` is a small HTTP server on a free local port, run in a thread: it records
every request (path and JSON body) and answers with what ``server.reply(path, body)``
returns, a canned vendor response. The vendors' own SDK clients are pointed at it.
"""

from __future__ import annotations

import enum
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace
from typing import Annotated, Any

import pytest
from annotated_types import Ge, MinLen

from llmapp import llm_application
from llmapp.markers import Human

Reply = Callable[[str, dict[str, Any]], dict[str, Any]]


class Priority(enum.Enum):
    """How fast an order ships."""

    LOW = "low"
    HIGH = "high"


@dataclass
class Line:
    """One line of an order.

    Attributes:
        sku: The product's code.
        quantity: How many.
    """

    sku: Annotated[str, MinLen(3)]
    quantity: Annotated[int, Ge(1)] = 1


@llm_application
class Orders:
    """Orders a model may place; every call is recorded with the Python values it received."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, tuple[Any, ...]]] = []

    def place(
        self, customer: str, lines: list[Line], when: date, priority: Priority = Priority.LOW
    ) -> dict[str, Any]:
        """Place an order.

        Args:
            customer: Who orders.
            lines: What is ordered.
            when: The delivery day.
            priority: How fast it ships.
        """
        self.seen.append(("place", (customer, lines, when, priority)))
        return {"order": len(self.seen), "lines": len(lines)}

    def sign(self, order: int, note: str, signature: Annotated[str, Human()]) -> str:
        """Sign an order; the signature comes from the user.

        Args:
            order: The order's number.
            note: A note for the record.
            signature: The user's signature.
        """
        self.seen.append(("sign", (order, note, signature)))
        return f"order {order} signed"

    def fail(self, reason: str) -> None:
        """Always raises.

        Args:
            reason: The message of the exception.
        """
        raise RuntimeError(reason)


VALID = {"customer": "Ann", "lines": [{"sku": "abc", "quantity": 2}], "when": "2026-12-01"}
WRONG = {
    "customer": 5,
    "lines": [{"sku": "x", "quantity": 0}],
    "when": "tomorrow",
    "priority": "urgent",
}
WRONG_PATHS = (
    "$input.customer",
    "$input.lines[0].sku",
    "$input.lines[0].quantity",
    "$input.when",
    "$input.priority",
)


class Loopback:
    """A recording HTTP server on 127.0.0.1 that answers with canned vendor responses."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.reply: Reply = lambda path, body: {}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append((self.path, body))
                data = json.dumps(server.reply(self.path, body)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler

    def __enter__(self) -> Loopback:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


# -- canned vendor responses: a list of (call id, function name, arguments), or a final text --


Calls = list[tuple[str, str, dict[str, Any]]]


def chat(calls: Calls, text: str | None = None) -> dict[str, Any]:
    """A Chat Completions response."""
    tool_calls = [
        {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for i, n, a in calls
    ]
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if tool_calls:
        message["tool_calls"] = tool_calls
    choice = {
        "index": 0,
        "finish_reason": "tool_calls" if calls else "stop",
        "message": message,
        "logprobs": None,
    }
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-test",
        "choices": [choice],
    }


def responses(calls: Calls, text: str | None = None) -> dict[str, Any]:
    """A Responses API response."""
    output: list[dict[str, Any]] = [
        {
            "type": "function_call",
            "id": f"fc_{i}",
            "call_id": i,
            "name": n,
            "arguments": json.dumps(a),
            "status": "completed",
        }
        for i, n, a in calls
    ]
    if text is not None:
        output.append(
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        )
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 0,
        "model": "gpt-test",
        "status": "completed",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


def anthropic(calls: Calls, text: str | None = None) -> dict[str, Any]:
    """An Anthropic Messages response."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    content += [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in calls]
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def gemini(calls: Calls, text: str | None = None) -> dict[str, Any]:
    """A Gemini generateContent response."""
    parts: list[dict[str, Any]] = [{"text": text}] if text else []
    parts += [{"functionCall": {"id": i, "name": n, "args": a}} for i, n, a in calls]
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}


def script(respond: Callable[..., dict[str, Any]], calls: Calls, text: str) -> Reply:
    """Reply with the tool calls to the first request, and with a final text afterwards."""

    def reply(path: str, body: dict[str, Any]) -> dict[str, Any]:
        return respond([], text) if _answers_in(body) else respond(calls)

    return reply


def _answers_in(body: dict[str, Any]) -> bool:
    text = json.dumps(body)
    return any(
        marker in text
        for marker in (
            '"tool_call_id"',
            '"function_call_output"',
            '"tool_result"',
            "functionResponse",
            "function_response",
        )
    )


@pytest.fixture
def kit() -> SimpleNamespace:
    """The test class, the two canned calls (one right, one wrong) and the response builders."""
    return SimpleNamespace(
        Orders=Orders,
        Line=Line,
        Priority=Priority,
        VALID=VALID,
        WRONG=WRONG,
        WRONG_PATHS=WRONG_PATHS,
        TWO_CALLS=[("call_1", "place", VALID), ("call_2", "place", WRONG)],
        chat=chat,
        responses=responses,
        anthropic=anthropic,
        gemini=gemini,
        script=script,
    )


@pytest.fixture
def loopback() -> Iterator[Loopback]:
    """A started recording server; set ``loopback.reply`` to choose its answers."""
    with Loopback() as server:
        yield server
