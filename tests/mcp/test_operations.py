"""``llmapp mcp`` as an operator runs it: N stateless workers, the startup line and the call
log on stderr, a quiet stop, ``--human``, and the client configuration it prints."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import httpx2
import mcp.types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from tests.mcp.scenario import ROOT, environment, free_port, initialize_request, wait_for_port

PRODUCTION = "tests/mcp/production.py:Accounts"
HOOK = "tests/mcp/production.py:hook"


def llmapp_mcp(*extra: str) -> list[str]:
    return [sys.executable, "-m", "llmapp", "mcp", PRODUCTION, *extra]


def text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def stop(process: subprocess.Popen[bytes]) -> tuple[int, str]:
    """Ctrl-C the server; its exit status and everything it wrote on stderr."""
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
    return process.returncode, err.decode()


def test_two_stateless_workers_answer_sixteen_clients() -> None:
    # Two workers show what four would (the calls spread over processes), at half the start-up.
    port = free_port()
    process = subprocess.Popen(
        llmapp_mcp(
            "--transport",
            "streamable-http",
            "--port",
            str(port),
            "--workers",
            "2",
            "--human",
            HOOK,
            "--log-level",
            "warning",
        ),
        cwd=ROOT,
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    answers: list[tuple[int, Any, Any, Any]] = []
    workers: set[int] = set()
    try:
        wait_for_port(port, process, timeout=60)

        async def client(index: int) -> None:
            async with (
                httpx2.AsyncClient(headers={"x-user": f"user{index}"}) as http,
                streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http) as (
                    read,
                    write,
                ),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                for _ in range(3):
                    pid = await session.call_tool("pid", {})
                    balance = await session.call_tool("balance", {"currency": "EUR"})
                    wrong = await session.call_tool("echo", {"text": 1, "times": 0, "no": 1})
                    answers.append((index, pid.structured_content["result"], balance, wrong))

        async def both_workers_answer() -> None:
            # A worker still starting on a busy machine leaves every call to the other: new
            # connections until two processes have answered show the calls spread out.
            with anyio.fail_after(60):
                while len(workers) < 2:
                    await client(-1)
                    workers.update(pid for index, pid, _, _ in answers if index == -1)

        async def main() -> None:
            await both_workers_answer()
            async with anyio.create_task_group() as group:
                for index in range(16):
                    group.start_soon(client, index)

        anyio.run(main)
    finally:
        status, err = stop(process)
    assert status == 0, err
    answers = [answer for answer in answers if answer[0] >= 0]
    assert len(answers) == 48 and len(workers) == 2
    for index, _, balance, wrong in answers:
        assert balance.structured_content == {"result": f"user{index}: 100 EUR"}
        assert wrong.is_error and text(wrong).count('"path"') == 3
    assert "Traceback" not in err, err


def test_startup_line_call_log_and_a_quiet_stop_over_http() -> None:
    port = free_port()
    process = subprocess.Popen(
        # Successes are DEBUG records: the default level (info) shows failures only.
        llmapp_mcp(
            "--transport",
            "streamable-http",
            "--port",
            str(port),
            "--human",
            HOOK,
            "--log-level",
            "debug",
        ),
        cwd=ROOT,
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_port(port, process)

        async def main() -> list[types.CallToolResult]:
            async with (
                httpx2.AsyncClient(headers={"x-pin": "1111-wrong"}) as http,
                streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http) as (
                    read,
                    write,
                ),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return [
                    await session.call_tool("echo", {"text": "hi", "times": "2"}),
                    await session.call_tool("echo", {"text": 1, "times": 0}),
                    await session.call_tool("transfer", {"amount": 3}),
                ]

        ok, wrong, raised = anyio.run(main)
        assert ok.structured_content == {"result": "hihi"}
        assert wrong.is_error
    finally:
        status, err = stop(process)
    assert status == 0, err
    assert (
        "llmapp mcp: serving Accounts (5 tools, 1 prompts, 1 resources) over streamable-http "
        f"at http://127.0.0.1:{port}/mcp" in err
    )
    assert "call echo: ok in " in err and ", 1 repairs" not in err.split("call echo: ok")[0]
    assert "call echo: invalid (2 issues)" in err
    assert "call transfer: error (PermissionError)" in err
    assert raised.is_error and "Traceback" not in text(raised)
    # The traceback is on the server's side only, and the human-side value in it is masked.
    assert "Traceback" in err and "PermissionError: wrong pin ***" in err
    assert "1111-wrong" not in err
    assert "KeyboardInterrupt" not in err


def test_a_closed_pipe_ends_the_stdio_server_quietly() -> None:
    process = subprocess.Popen(
        llmapp_mcp(),
        cwd=ROOT,
        env=environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    _, err = process.communicate(b"", timeout=30)  # the client closed stdin at once
    assert process.returncode == 0, err
    text = err.decode()
    assert (
        "llmapp mcp: serving Accounts (4 tools, 1 prompts, 1 resources) over stdio; "
        "not listed, nobody can supply their human side: pay\n" in text
    )
    assert "Traceback" not in text


def test_a_client_that_stops_reading_ends_the_stdio_server_quietly() -> None:
    process = subprocess.Popen(
        llmapp_mcp(),
        cwd=ROOT,
        env=environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdout.close()  # every answer now meets a broken pipe
    initialize = initialize_request()
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    lines = b"".join(json.dumps(m).encode() + b"\n" for m in (initialize, listing))
    _, err = process.communicate(lines, timeout=30)
    assert process.returncode == 0, err
    assert "Traceback" not in err.decode()


def test_ctrl_c_ends_the_stdio_server_quietly() -> None:
    process = subprocess.Popen(
        llmapp_mcp(),
        cwd=ROOT,
        env=environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    assert b"serving Accounts" in process.stderr.readline()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert "Traceback" not in err.decode() and "KeyboardInterrupt" not in err.decode()


def test_the_printed_client_config_starts_a_working_server(tmp_path: Any) -> None:
    printed = subprocess.run(
        llmapp_mcp("--print-config", "--human", HOOK),
        cwd=ROOT,
        env=environment(),
        capture_output=True,
        check=True,
        timeout=60,
    )
    config = json.loads(printed.stdout)
    entry = config["mcpServers"]["Accounts"]
    assert entry["command"] == sys.executable
    assert entry["args"][3] == f"{ROOT / 'tests/mcp/production.py'}:Accounts"
    answers: list[Any] = []

    async def main() -> None:
        # Started as a client starts it: from elsewhere, with only the environment it writes.
        env = {**environment(), **entry.get("env", {})}
        params = StdioServerParameters(
            command=entry["command"], args=entry["args"], env=env, cwd=str(tmp_path)
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            answers.append(await session.call_tool("balance", {"currency": "CHF"}))

    anyio.run(main)
    assert answers[0].structured_content == {"result": "stdio-user: 100 CHF"}
    http = subprocess.run(
        llmapp_mcp(
            "--print-config",
            "--transport",
            "streamable-http",
            "--port",
            "9000",
            "--token-env",
            "BANK_TOKEN",
        ),
        cwd=ROOT,
        env=environment(),
        capture_output=True,
        check=True,
        timeout=60,
    )
    assert json.loads(http.stdout) == {
        "mcpServers": {
            "Accounts": {
                "type": "http",
                "url": "http://127.0.0.1:9000/mcp",
                "headers": {"Authorization": "Bearer ${BANK_TOKEN}"},
            }
        }
    }


def test_token_from_the_environment_guards_the_cli_server() -> None:
    port = free_port()
    token = "cli-token-0123456789abcdef"
    process = subprocess.Popen(
        llmapp_mcp(
            "--transport",
            "streamable-http",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--token-env",
            "BANK_TOKEN",
            "--human",
            HOOK,
        ),
        cwd=ROOT,
        env={**environment(), "BANK_TOKEN": token},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_port(port, process)
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        refused = httpx2.post(f"http://127.0.0.1:{port}/mcp", json=body)

        async def main() -> types.CallToolResult:
            async with (
                httpx2.AsyncClient(headers={"authorization": f"Bearer {token}"}) as http,
                streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http) as (
                    read,
                    write,
                ),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await session.call_tool("balance", {"currency": "EUR"})

        balance = anyio.run(main)
    finally:
        status, err = stop(process)
    assert status == 0, err
    assert refused.status_code == 401
    assert balance.structured_content == {"result": "BANK_TOKEN: 100 EUR"}
    assert token not in err and ", bearer auth" in err


def test_an_open_bind_without_a_token_is_refused() -> None:
    refused = subprocess.run(
        llmapp_mcp("--transport", "streamable-http", "--host", "0.0.0.0"),
        cwd=ROOT,
        env=environment(),
        capture_output=True,
        timeout=60,
    )
    assert refused.returncode == 1
    assert b"without authentication" in refused.stderr
    assert os.environ.get("BANK_TOKEN") is None
