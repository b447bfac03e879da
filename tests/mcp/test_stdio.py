"""``serve`` over stdio (the SDK's ``stdio_server``): a method's ``print`` kept off the wire,
the standard descriptors put back afterwards, and stdout to a regular file served too."""

from __future__ import annotations

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
