"""The stdio wire on the event loop's own pipes (``llmapp.mcp._stdio``): lines read whole or
skipped when too long, a method's ``print`` kept off the wire, the standard descriptors put
back afterwards, and the SDK's threaded streams used where the loop cannot watch the wire."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from tests.mcp.scenario import ROOT, command, environment

from llmapp.mcp._stdio import LineReader


async def _lines(chunks: list[bytes], limit: int) -> list[str]:
    reader = asyncio.StreamReader(limit=limit)
    for chunk in chunks:
        reader.feed_data(chunk)
    reader.feed_eof()
    return [line async for line in LineReader(reader)]


def test_lines_are_read_whole_with_their_newline() -> None:
    lines = asyncio.run(_lines([b'{"a": 1}\n{"b"', b": 2}\n"], limit=64))
    assert lines == ['{"a": 1}\n', '{"b": 2}\n']


def test_a_last_line_without_newline_is_still_read() -> None:
    assert asyncio.run(_lines([b"one\ntwo"], limit=64)) == ["one\n", "two"]


def test_a_line_over_the_limit_is_skipped_and_the_next_one_read() -> None:
    long = b"x" * 200 + b"\n"
    lines = asyncio.run(_lines([b"first\n", long, b"after\n"], limit=16))
    assert lines == ["first\n", "after\n"]


def test_an_endless_line_over_the_limit_ends_the_stream() -> None:
    assert asyncio.run(_lines([b"first\n", b"y" * 500], limit=16)) == ["first\n"]


def test_invalid_utf8_is_replaced_not_raised() -> None:
    assert asyncio.run(_lines([b"\xff\xfe ok\n"], limit=64)) == ["\ufffd\ufffd ok\n"]


PRINTING = """
import sys
import llmapp.mcp
from llmapp import llm_application


@llm_application
class Noisy:
    def shout(self, word: str) -> str:
        \"\"\"Say a word, and print it where a careless method would.\"\"\"
        print("stray output from", word)
        sys.stdout.flush()
        return word.upper()


llmapp.mcp.serve(Noisy, Noisy())
print("after serve: stdout is back, stdin blocking:", __import__("os").get_blocking(0))
"""


def _call_served(
    tmp_path: Path, source: str, tool: str, arguments: dict[str, Any]
) -> tuple[Any, str]:
    """Serve ``source`` (a script) in a subprocess, call one tool through the SDK's own
    client over stdio, and return the answer with what the server wrote to stderr."""
    script = tmp_path / "served_script.py"
    script.write_text(source)
    errors = tmp_path / "stderr.txt"

    async def main() -> Any:
        server = StdioServerParameters(
            command=sys.executable, args=[str(script)], env=environment(), cwd=ROOT
        )
        with errors.open("w") as errlog:
            async with (
                stdio_client(server, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await session.call_tool(tool, arguments)

    answer = anyio.run(main)
    return answer, errors.read_text()


def test_a_methods_print_goes_to_stderr_not_the_wire(tmp_path: Path) -> None:
    answer, errors = _call_served(tmp_path, PRINTING, "shout", {"word": "hello"})
    assert not answer.is_error
    assert answer.structured_content == {"result": "HELLO"}
    assert "stray output from hello" in errors


def test_after_serving_the_standard_descriptors_are_back(tmp_path: Path) -> None:
    script = tmp_path / "noisy.py"
    script.write_text(PRINTING)
    finished = subprocess.run(
        [sys.executable, str(script)],
        input=b"",  # a pipe that ends at once: the server stops
        capture_output=True,
        env=environment(),
        cwd=ROOT,
        timeout=60,
    )
    assert finished.returncode == 0, finished.stderr.decode()
    assert finished.stdout.decode().strip() == ("after serve: stdout is back, stdin blocking: True")


REFUSED = """
import asyncio.base_events
import llmapp.mcp
from llmapp import llm_application


async def refuse(self, protocol_factory, pipe):
    raise OSError("this loop takes no pipes")


asyncio.base_events.BaseEventLoop.connect_read_pipe = refuse


@llm_application
class Echo:
    def echo(self, word: str) -> str:
        \"\"\"Say a word back.\"\"\"
        return word


llmapp.mcp.serve(Echo, Echo())
"""


def test_a_loop_that_refuses_the_pipes_falls_back_to_the_sdks_streams(tmp_path: Path) -> None:
    answer, errors = _call_served(tmp_path, REFUSED, "echo", {"word": "still here"})
    assert answer.structured_content == {"result": "still here"}
    assert "served through the SDK's threads: this loop takes no pipes" in errors


def _message(method: str, params: dict[str, Any], ident: int | None = None) -> str:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
    if ident is not None:
        message["id"] = ident
    return json.dumps(message) + "\n"


def test_stdout_to_a_file_is_served_by_the_sdks_streams(tmp_path: Path) -> None:
    answers_file = tmp_path / "answers.jsonl"
    hello = {
        "protocolVersion": types.LATEST_PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    }
    requests = (
        _message("initialize", hello, 1)
        + _message("notifications/initialized", {})
        + _message("tools/list", {}, 2)
    )
    with answers_file.open("wb") as stdout:  # a regular file: no pipe for the loop to watch
        server = subprocess.Popen(
            command(),
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=subprocess.DEVNULL,
            env=environment(),
            cwd=ROOT,
        )
        assert server.stdin is not None
        server.stdin.write(requests.encode())
        server.stdin.flush()
        try:
            answers = _answers(answers_file, count=2)
        finally:
            server.stdin.close()  # the end of stdin stops the server
            server.wait(timeout=60)
    assert answers[1]["result"]["serverInfo"]["name"] == "Desk"
    assert "count" in {tool["name"] for tool in answers[2]["result"]["tools"]}


def _answers(path: Path, count: int, timeout: float = 60.0) -> dict[int, Any]:
    """The answers written to ``path``, by id, once ``count`` have arrived."""
    deadline = time.monotonic() + timeout
    while True:
        lines = path.read_text().splitlines()
        complete = [json.loads(line) for line in lines if line.endswith("}")]
        if len(complete) >= count or time.monotonic() > deadline:
            return {answer["id"]: answer for answer in complete if "id" in answer}
        time.sleep(0.05)
