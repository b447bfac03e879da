"""Every Python example of the docs pages runs as written, on its own, from any folder.

The vendor loops talk to the vendor's API: here a stub on localhost stands in for it (the
SDKs read ``OPENAI_BASE_URL`` and ``ANTHROPIC_BASE_URL``), answering the first request with
a tool call and the next, which carries the tool's result, with a text.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from tests.support.examples import ROOT, examples, run

EXAMPLES = examples(sorted((ROOT / "docs").rglob("*.md")))
ORDER = {"sku": "PS-1", "quantity": "2"}  # as models write it: the number as text


def openai_answer(request: dict[str, Any]) -> dict[str, Any]:
    answered = request["messages"][-1]["role"] == "tool"
    message: dict[str, Any] = {"role": "assistant", "content": "Ordered." if answered else None}
    if not answered:
        call = {"name": "order", "arguments": json.dumps(ORDER)}
        message["tool_calls"] = [{"id": "call_1", "type": "function", "function": call}]
    choice = {"index": 0, "message": message, "finish_reason": "stop" if answered else "tool_calls"}
    return {"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]}


def anthropic_answer(request: dict[str, Any]) -> dict[str, Any]:
    last = request["messages"][-1]["content"]
    answered = isinstance(last, list) and last[0].get("type") == "tool_result"
    content = (
        [{"type": "text", "text": "Ordered."}]
        if answered
        else [{"type": "tool_use", "id": "toolu_1", "name": "order", "input": ORDER}]
    )
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": content,
        "stop_reason": "end_turn" if answered else "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


class VendorStub(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        answer = openai_answer if self.path.endswith("/chat/completions") else anthropic_answer
        body = json.dumps(answer(request)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def vendor_stub() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), VendorStub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_docs_have_examples():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("example", EXAMPLES, ids=[each.name for each in EXAMPLES])
def test_docs_example_runs(example, tmp_path: Path, vendor_stub: str, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", f"{vendor_stub}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", vendor_stub)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    run(example, tmp_path)
