"""``python -m benchmarks.mcp_http_bench [--quick]``: MCP servers over streamable HTTP, under load.

Side by side in one run, each server in its own subprocess on uvicorn (127.0.0.1), driven
by the SDK's own client (``streamable_http_client`` + ``ClientSession``) from client
processes of their own, so the clients' work does not fall on the server's process:

- the SDK's ``MCPServer`` and FastMCP (when installed) serving the same function with
  their default HTTP settings, and llmapp's ``llmapp mcp --transport streamable-http``
  (default: sessions and an event stream per answer);
- llmapp stateless (``--stateless``: no sessions, JSON answers) with 1, 2 and 4 uvicorn
  workers (``--workers N``).

For 1, 8 and 32 concurrent clients (each its own session, calls one after the other):
calls per second, median and 99th-percentile latency, with valid arguments and with
three mistakes (a number for a string, text for an integer, a key the function does not
take), and how many of the three each server's answer names. Every server logs at
WARNING, so no per-call log line is timed. The machine has 2 cores shared by every
process here: throughput grows with workers only until they are busy.

Every server runs from the start; within each figure they take turns, round after
round, so a change in the machine's load falls on all alike (the figure is the median
round). Not part of ``python -m benchmarks``: it starts servers. ``--quick`` (one round
of 1.5 s per figure) takes about three minutes; the default (3 rounds of 3 s) about
twenty.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Annotated, Any

from annotated_types import Ge, Le
from typing_extensions import TypedDict  # pydantic (FastMCP) reads only this one before 3.12

from benchmarks._report import table
from benchmarks._timing import ROOT

VALID = {"room": "12B", "nights": 2}
WRONG = {"room": 12, "nights": "two", "pets": True}
WRONG_KEYS = ("room", "nights", "pets")
CLIENTS = (1, 8, 32)
CLIENT_PROCESSES = 4


class Booking(TypedDict):
    """A booking as every server returns it."""

    room: str
    nights: int
    breakfast: bool


def book(room: str, nights: Annotated[int, Ge(1), Le(30)], breakfast: bool = False) -> Booking:
    """Book a hotel room.

    Args:
        room: the room's number.
        nights: how many nights.
        breakfast: whether breakfast is included.
    """
    return {"room": room, "nights": nights, "breakfast": breakfast}


class Desk:
    """A hotel desk (what ``llmapp mcp benchmarks.mcp_http_bench:Desk`` serves)."""

    book = staticmethod(book)


def _uvicorn(app: Any, port: int) -> None:
    import uvicorn

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def _sdk(port: int) -> None:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("Desk", log_level="WARNING")
    server.add_tool(book)
    _uvicorn(server.streamable_http_app(), port)


def _fastmcp(port: int) -> None:
    import logging

    from fastmcp import FastMCP

    server = FastMCP("Desk")
    server.tool(book)
    logging.getLogger("fastmcp").setLevel(logging.WARNING)
    _uvicorn(server.http_app(path="/mcp"), port)


def _llmapp(*extra: str) -> list[str]:
    target = "benchmarks.mcp_http_bench:Desk"
    base = ["-m", "llmapp", "mcp", target, "--transport", "streamable-http"]
    return [sys.executable, *base, "--log-level", "warning", *extra]


SERVERS: dict[str, Any] = {
    "MCPServer (SDK)": "sdk",
    "FastMCP": "fastmcp",
    "llmapp (default)": (),
    "llmapp stateless, 1 worker": ("--stateless",),
    "llmapp stateless, 2 workers": ("--workers", "2"),
    "llmapp stateless, 4 workers": ("--workers", "4"),
}


def _start(which: str, port: int) -> subprocess.Popen[bytes]:
    spec = SERVERS[which]
    if isinstance(spec, str):
        line = [sys.executable, "-m", "benchmarks.mcp_http_bench", "--serve", spec, str(port)]
    else:
        line = _llmapp(*spec, "--port", str(port))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src")])}
    process = subprocess.Popen(
        line, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    import socket

    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{which} exited at start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"{which} did not listen on {port}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# --- the client side: one process runs some of the sessions -------------------------------


async def _sessions(url: str, count: int, arguments: dict[str, Any], seconds: float) -> Any:
    """``count`` sessions: connected and warmed up, then (on the parent's word) calling."""
    import anyio
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    latencies: list[float] = []
    named: list[int] = []
    ready = anyio.Event()
    go = anyio.Event()
    connected = 0

    async def one() -> None:
        nonlocal connected
        async with (
            streamable_http_client(url) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            answer = await session.call_tool("book", arguments)  # warm up, and what it names
            text = " ".join(getattr(block, "text", "") for block in answer.content)
            named.append(sum(key in text for key in WRONG_KEYS))
            connected += 1
            if connected == count:
                ready.set()
            await go.wait()
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                began = time.perf_counter()
                await session.call_tool("book", arguments)
                latencies.append(time.perf_counter() - began)

    async def signals() -> None:
        await ready.wait()
        print("ready", flush=True)
        await anyio.to_thread.run_sync(sys.stdin.readline)
        go.set()

    async with anyio.create_task_group() as group:
        group.start_soon(signals)
        for _ in range(count):
            group.start_soon(one)
    return {"latencies": latencies, "named": min(named) if named else 0}


def _client_main(url: str, count: int, wrong: bool, seconds: float) -> None:
    import anyio

    arguments = WRONG if wrong else VALID
    found = anyio.run(_sessions, url, count, arguments, seconds)
    print(json.dumps(found))


def _load(port: int, clients: int, wrong: bool, seconds: float) -> dict[str, float]:
    """``clients`` sessions over up to four client processes, all calling for ``seconds``."""
    processes = min(clients, CLIENT_PROCESSES)
    shares = [clients // processes + (i < clients % processes) for i in range(processes)]
    url = f"http://127.0.0.1:{port}/mcp"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src")])}
    running = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "benchmarks.mcp_http_bench",
                "--client",
                json.dumps([url, share, wrong, seconds]),
            ],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        for share in shares
    ]
    for process in running:  # every session connected before any starts calling
        assert process.stdout is not None
        if process.stdout.readline().strip() != b"ready":
            raise RuntimeError("a client process could not connect")
    for process in running:
        assert process.stdin is not None
        process.stdin.write(b"go\n")
        process.stdin.flush()
    latencies: list[float] = []
    named = 3
    for process in running:
        out, _ = process.communicate(timeout=seconds + 120)
        found = json.loads(out)
        latencies += found["latencies"]
        named = min(named, found["named"])
    latencies.sort()
    return {
        "rate": len(latencies) / seconds,
        "p50": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "p99": latencies[int(len(latencies) * 0.99)] * 1000 if latencies else float("nan"),
        "named": named,
    }


def _available(which: str) -> bool:
    if SERVERS[which] != "fastmcp":
        return True
    try:
        import fastmcp  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mcp_http_bench")
    parser.add_argument("--quick", action="store_true", help="1 round of 1.5 s per figure")
    parser.add_argument("--seconds", type=float, help="seconds per round (default 3)")
    parser.add_argument("--rounds", type=int, help="rounds per figure (default 3)")
    parser.add_argument("--only", help="server names to run, separated by ; (default: all)")
    parser.add_argument("--serve", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--client", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve:
        {"sdk": _sdk, "fastmcp": _fastmcp}[options.serve[0]](int(options.serve[1]))
        return 0
    if options.client:
        _client_main(*json.loads(options.client))
        return 0
    seconds = options.seconds or (1.5 if options.quick else 3.0)
    rounds = options.rounds or (1 if options.quick else 3)
    chosen = [w for w in SERVERS if not options.only or w in options.only.split(";")]
    missing = [w for w in chosen if not _available(w)]
    running = [w for w in chosen if w not in missing]
    ports = {which: _free_port() for which in running}
    processes = []
    results: dict[tuple[str, str, int], dict[str, float]] = {}
    try:
        for which in running:  # all at once, idle but the one being measured
            processes.append(_start(which, ports[which]))
        for label, wrong in (("valid", False), ("3 mistakes", True)):
            for clients in CLIENTS:
                # Servers take turns within each figure, so a change in the machine's load
                # falls on all of them alike; each figure is the median round.
                found: dict[str, list[dict[str, float]]] = {which: [] for which in running}
                for _ in range(rounds):
                    for which in running:
                        found[which].append(_load(ports[which], clients, wrong, seconds))
                for which in running:
                    by_rate = sorted(found[which], key=lambda figure: figure["rate"])
                    results[which, label, clients] = by_rate[len(by_rate) // 2]
    finally:
        for process in processes:
            _stop(process)
    rows = [
        [
            which,
            label,
            str(clients),
            f"{figure['rate']:.0f}",
            f"{figure['p50']:.1f}",
            f"{figure['p99']:.1f}",
            f"{figure['named']:.0f} of 3" if label != "valid" else "",
        ]
        for which in running
        for (server, label, clients), figure in results.items()
        if server == which
    ]
    print(
        f"streamable HTTP, median of {rounds} rounds of {seconds:g} s per figure, "
        f"clients in up to {CLIENT_PROCESSES} processes"
    )
    headers = ["server", "arguments", "clients", "calls/s", "p50 ms", "p99 ms", "named"]
    print(table(headers, rows))
    for which in missing:
        print(f"\n{which}: not installed, left out")
    base = "MCPServer (SDK)"
    for which in ("llmapp (default)", "llmapp stateless, 4 workers"):
        ratios = [
            results[which, label, clients]["rate"] / results[base, label, clients]["rate"]
            for label in ("valid", "3 mistakes")
            for clients in CLIENTS
            if (which, label, clients) in results and (base, label, clients) in results
        ]
        if ratios:
            held = "yes" if min(ratios) >= 1 else "NO"
            print(
                f"\n{which} vs MCPServer, every row: {min(ratios):.2f}x-{max(ratios):.2f}x "
                f"the calls/s ({held} for >= 1x)",
                end="",
            )
    print()
    return 0


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


if __name__ == "__main__":
    raise SystemExit(main())
