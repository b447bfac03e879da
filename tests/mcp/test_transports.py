"""End to end: ``llmapp mcp`` serving a class in a subprocess, driven by the SDK's own client
over stdio and over streamable HTTP on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import httpx2
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from tests.mcp.scenario import ROOT, command, converse, environment, free_port, wait_for_port


def test_stdio_end_to_end() -> None:
    async def main() -> None:
        line = command()
        server = StdioServerParameters(command=line[0], args=line[1:], env=environment(), cwd=ROOT)
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await converse(session)

    anyio.run(main)


def test_streamable_http_end_to_end() -> None:
    port = free_port()
    process = subprocess.Popen(
        command("--transport", "streamable-http", "--port", str(port)),
        cwd=ROOT,
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_port(port, process)

        async def main() -> None:
            url = f"http://127.0.0.1:{port}/mcp"
            async with (
                streamable_http_client(url) as (read, write),
                ClientSession(read, write) as session,
            ):
                await converse(session)

        anyio.run(main)
    finally:
        process.terminate()
        process.wait(timeout=10)


HOOKED = """
import sys
import llmapp.mcp
from tests.mcp.served import Desk

def human(function, context):
    return {"user": context.request.headers["x-user"]}

llmapp.mcp.serve(Desk, Desk(), "streamable-http", port=int(sys.argv[1]), human=human)
"""


def test_over_http_the_human_hook_reads_the_request(tmp_path: Path) -> None:
    script = tmp_path / "hooked.py"
    script.write_text(HOOKED)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(script), str(port)],
        cwd=ROOT,
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    answers: list[str] = []
    try:
        wait_for_port(port, process)

        async def main() -> None:
            url = f"http://127.0.0.1:{port}/mcp"
            async with (
                httpx2.AsyncClient(headers={"x-user": "ada"}) as http,
                streamable_http_client(url, http_client=http) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                answer = await session.call_tool("whoami", {"greeting": "Hello"})
                answers.append(answer.structured_content["result"])

        anyio.run(main)
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert answers == ["Hello, ada"]
