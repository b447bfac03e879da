"""A cheap MCP load generator for ``mcp_http_bench``: raw HTTP/1.1 over asyncio sockets.

The SDK's own client costs more per call than a server does, so with a few clients the
figures measured the clients. Here a client is one keep-alive connection: ``initialize``
once (its ``mcp-session-id``, if the server gives one), the ``notifications/initialized``
notification, then ``tools/call`` POSTs built from a template (only the id changes), one
after the other. Each answer is read whole (``Content-Length`` or chunked; JSON or an
event stream) and checked: the right id, and the booking back for valid arguments, an
``isError`` answer naming as many mistakes as the first one did for wrong ones. An answer
that is not right ends the run with an error, never a figure.

One process drives many clients (``drive``, ``python -m benchmarks._http_load``);
``mcp_http_bench`` keeps a few of them for the whole run, the same for every server, and
reads the server's CPU time from ``/proc`` meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

__all__ = ["drive", "process_cpu"]

PROTOCOL = "2025-11-25"


class WrongAnswer(Exception):
    """An answer that is not the right one for its call."""


def _request(port: int, body: bytes, session: str | None) -> bytes:
    lines = [
        "POST /mcp HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Accept: application/json, text/event-stream",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
    ]
    if session is not None:
        lines += [f"mcp-session-id: {session}", f"mcp-protocol-version: {PROTOCOL}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def _answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One HTTP response, read whole: status, headers (lower-case names), body."""
    head = await reader.readuntil(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    status = int(status_line.split(" ", 2)[1])
    headers = {}
    for line in header_lines:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n"))[:-2].split(b";")[0], 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                break
            parts.append(chunk[:-2])
        body = b"".join(parts)
    else:
        body = await reader.readexactly(int(headers.get("content-length", "0")))
    return status, headers, body


def _message(headers: dict[str, str], body: bytes) -> Any:
    """The JSON-RPC message of an answer: the body, or the event stream's data line."""
    if headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:] for line in body.split(b"\n") if line.startswith(b"data:")]
        if not data:
            raise WrongAnswer(f"an event stream without data: {body[:200]!r}")
        return json.loads(data[-1])
    return json.loads(body)


def _named(result: dict[str, Any], keys: list[str]) -> int:
    text = " ".join(block.get("text", "") for block in result.get("content", []))
    return sum(key in text for key in keys)


class _Client:
    """One connection, one session, calls one after the other."""

    def __init__(self, port: int, arguments: dict[str, Any], expected: Any, keys: list[str]):
        self.port = port
        self.expected = expected  # the booking back, or None: an error naming the keys
        self.keys = keys
        self.named = -1
        self.session: str | None = None
        self.next_id = 1
        params = json.dumps({"name": "book", "arguments": arguments}, separators=(",", ":"))
        self.call_template = b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}'
        self.params = params.encode()

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        hello = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": PROTOCOL,
                "capabilities": {},
                "clientInfo": {"name": "load", "version": "1"},
            },
        }
        self.writer.write(_request(self.port, json.dumps(hello).encode(), None))
        status, headers, body = await _answer(self.reader)
        if status != 200 or "result" not in _message(headers, body):
            raise WrongAnswer(f"initialize answered {status}: {body[:200]!r}")
        self.session = headers.get("mcp-session-id")
        note = b'{"jsonrpc":"2.0","method":"notifications/initialized"}'
        self.writer.write(_request(self.port, note, self.session))
        status, _, body = await _answer(self.reader)
        if status != 202:
            raise WrongAnswer(f"notifications/initialized answered {status}: {body[:200]!r}")

    async def call(self) -> None:
        """One ``tools/call``, its answer read whole and checked."""
        ident = self.next_id
        self.next_id += 1
        self.writer.write(
            _request(self.port, self.call_template % (ident, self.params), self.session)
        )
        status, headers, body = await _answer(self.reader)
        message = _message(headers, body) if status == 200 else None
        if message is None or message.get("id") != ident or "result" not in message:
            raise WrongAnswer(f"call {ident} answered {status}: {body[:300]!r}")
        result = message["result"]
        if self.expected is not None:
            if result.get("isError") or not self._booked(result):
                raise WrongAnswer(f"a valid call answered {body[:300]!r}")
        else:
            named = _named(result, self.keys)
            if not result.get("isError") or (self.named >= 0 and named != self.named):
                raise WrongAnswer(f"a wrong call answered {body[:300]!r}")
            self.named = named

    def _booked(self, result: dict[str, Any]) -> bool:
        if result.get("structuredContent") == self.expected:
            return True
        texts = [block.get("text") for block in result.get("content", [])]
        return any(_json_or_none(text) == self.expected for text in texts)


def _json_or_none(text: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


async def _drive(job: dict[str, Any]) -> dict[str, Any]:
    expected = None if job["wrong"] else job["expected"]
    clients = [
        _Client(job["port"], job["arguments"], expected, job["keys"]) for _ in range(job["clients"])
    ]
    await asyncio.gather(*(client.connect() for client in clients))
    await asyncio.gather(*(client.call() for client in clients))  # warm up, and what it names
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    latencies: list[float] = []
    cpu = time.process_time()
    end = time.perf_counter() + job["seconds"]

    async def calling(client: _Client) -> None:
        while (began := time.perf_counter()) < end:
            await client.call()
            done = time.perf_counter()
            if done <= end:  # a call that ends past the window is not counted
                latencies.append(done - began)

    await asyncio.gather(*(calling(client) for client in clients))
    cpu = time.process_time() - cpu
    for client in clients:
        client.writer.close()
    named = min(client.named for client in clients)
    return {"latencies": latencies, "named": named, "cpu": cpu}


def drive() -> None:
    """A load-generator process: for each job read from stdin (a JSON line), its clients.

    For each job it connects and warms up its clients, says ``ready``, starts on the next
    line (``go``), and writes its figures to stdout as JSON; it ends with stdin.
    """
    for line in sys.stdin:
        print(json.dumps(asyncio.run(_drive(json.loads(line)))), flush=True)


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process and every process under it, from ``/proc``."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        stats[int(entry)] = fields
        children.setdefault(int(fields[1]), []).append(int(entry))
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        fields = stats.get(current)
        if fields is not None:
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        todo += children.get(current, [])
    return total


if __name__ == "__main__":
    drive()
