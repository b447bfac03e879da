"""``python -m benchmarks.mcp_bench [--calls N] [--rounds N] [--tools N] [--against TREE]``: MCP servers over stdio.

Side by side in one run, each server in its own subprocess, driven by the SDK's own client
(``stdio_client`` + ``ClientSession``), one sequential caller:

- ``tools/call`` round trips per second to the same function served by llmapp
  (``llmapp.mcp.serve``, on the SDK's ``stdio_server``) and by the SDK's ``MCPServer``
  (the same transport): with valid arguments, and with arguments holding three mistakes
  (a number for a string, text for an integer, a key the function does not take), with
  how many of the three each server's answer names, and each server's CPU per call;
- the time of one ``tools/list`` round trip for a server of ``--tools`` (500) functions.

``--against TREE`` adds llmapp's row served from another tree's ``src`` (a checkout of
an earlier commit), in the same run, so before and after meet the same load; a tree from
before llmapp's own stdio transport was dropped shows that transport
(``benchmarks/README.md`` section 6 says why it went).

Reports the median over ``--rounds`` rounds of ``--calls`` calls each. Target: llmapp at
least as fast as ``MCPServer``, with every mistake reported. Not part of
``python -m benchmarks``: it starts servers and takes about a minute.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any, TypedDict

from annotated_types import Ge, Le

from benchmarks._report import table
from benchmarks._timing import ROOT

VALID = {"room": "12B", "nights": 2}
WRONG = {"room": 12, "nights": "two", "pets": True}
WRONG_KEYS = ("room", "nights", "pets")


class Booking(TypedDict):
    """A booking as both servers return it."""

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


def cpu() -> float:
    """The server process's CPU time so far, in seconds (every thread)."""
    return time.process_time()


def lookup(query: str, limit: int = 10) -> list[str]:
    """Look something up.

    Args:
        query: what to look for.
        limit: how many answers at most.
    """
    return [query] * min(limit, 1)


def _desk(tools: int) -> type:
    methods: dict[str, Any] = {"book": staticmethod(book), "cpu": staticmethod(cpu)}
    for index in range(tools):
        methods[f"lookup_{index}"] = staticmethod(lookup)
    return type("Desk", (), methods)


def _llmapp_serve(tools: int) -> None:
    import llmapp.mcp

    desk = _desk(tools)
    llmapp.mcp.serve(desk, desk, log_level="warning")  # as MCPServer: no line per call timed


def _sdk_serve(tools: int) -> None:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("Desk", log_level="WARNING")  # its INFO line per rejected call is not timed
    server.add_tool(book)
    server.add_tool(cpu)
    for index in range(tools):
        server.add_tool(lookup, name=f"lookup_{index}")
    server.run("stdio")


SERVERS = {"llmapp": _llmapp_serve, "MCPServer": _sdk_serve}


Runs = dict[str, tuple[str, "str | None"]]
"""Row label -> (server in ``SERVERS``, the tree whose ``src`` serves it or None for this one)."""


def _runs(against: str | None) -> Runs:
    runs: Runs = {which: (which, None) for which in SERVERS}
    if against:
        for which in SERVERS:
            if which.startswith("llmapp"):
                runs[f"{which} ({os.path.basename(os.path.abspath(against))})"] = (which, against)
    return runs


async def _measure(tools: int, calls: int, rounds: int, runs: Runs) -> dict[str, dict[str, Any]]:
    """Every figure of every server; rounds alternate between the servers, so a change in
    the machine's load falls on both alike."""
    found: dict[str, dict[str, Any]] = {which: {} for which in runs}
    async with contextlib.AsyncExitStack() as stack:
        sessions = {w: await stack.enter_async_context(_connected(runs[w], 0)) for w in runs}
        for label, arguments in (("valid", VALID), ("wrong", WRONG)):
            rates: dict[str, list[float]] = {which: [] for which in runs}
            spent: dict[str, list[float]] = {which: [] for which in runs}
            for which, session in sessions.items():
                answer = await session.call_tool("book", arguments)
                text = " ".join(getattr(block, "text", "") for block in answer.content)
                found[which][label + " named"] = sum(key in text for key in WRONG_KEYS)
                found[which][label + " error"] = answer.is_error
                for _ in range(min(calls, 50)):  # warm up
                    await session.call_tool("book", arguments)
            for _ in range(rounds):
                for which, session in sessions.items():
                    before = await _cpu(session)
                    started = time.perf_counter()
                    for _ in range(calls):
                        await session.call_tool("book", arguments)
                    rates[which].append(calls / (time.perf_counter() - started))
                    spent[which].append((await _cpu(session) - before) / calls)
            for which in runs:
                found[which][label] = statistics.median(rates[which])
                found[which][label + " cpu"] = statistics.median(spent[which])
    async with contextlib.AsyncExitStack() as stack:
        sessions = {w: await stack.enter_async_context(_connected(runs[w], tools)) for w in runs}
        times: dict[str, list[float]] = {which: [] for which in runs}
        for which, session in sessions.items():
            found[which]["tools"] = len((await session.list_tools()).tools)
        for _ in range(max(rounds, 5)):
            for which, session in sessions.items():
                started = time.perf_counter()
                await session.list_tools()
                times[which].append(time.perf_counter() - started)
        for which in runs:
            found[which]["list"] = statistics.median(times[which])
    return found


async def _cpu(session: Any) -> float:
    answer = await session.call_tool("cpu", {})
    seconds: float = answer.structured_content["result"]
    return seconds


@contextlib.asynccontextmanager
async def _connected(run: tuple[str, str | None], tools: int) -> AsyncIterator[Any]:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    which, tree = run
    args = ["-m", "benchmarks.mcp_bench", "--serve", which, "--tools", str(tools)]
    env = dict(os.environ)
    src = os.path.join(os.path.abspath(tree), "src") if tree else os.path.join(ROOT, "src")
    env["PYTHONPATH"] = os.pathsep.join([src, str(ROOT)])
    server = StdioServerParameters(command=sys.executable, args=args, cwd=ROOT, env=env)
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(server, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mcp_bench")
    parser.add_argument("--calls", type=int, default=300, help="calls per round (300)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per figure (5)")
    parser.add_argument("--tools", type=int, default=500, help="extra tools listed (500)")
    parser.add_argument("--against", help="another tree whose llmapp is measured beside this one")
    parser.add_argument("--serve", choices=sorted(SERVERS), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve:
        SERVERS[options.serve](options.tools)
        return 0
    import anyio

    runs = _runs(options.against)
    results = anyio.run(_measure, options.tools, options.calls, options.rounds, runs)
    rows = [
        [
            which,
            f"{found['valid']:.0f}",
            f"{found['valid cpu'] * 1e6:.0f}",
            f"{found['wrong']:.0f}",
            f"{found['wrong cpu'] * 1e6:.0f}",
            f"{found['wrong named']} of 3" + ("" if found["wrong error"] else " (no isError)"),
            f"{found['list'] * 1000:.1f}",
            str(found["tools"]),
        ]
        for which, found in results.items()
    ]
    print(
        f"stdio, one sequential client, median of {options.rounds} rounds of {options.calls} calls"
    )
    headers = [
        "server",
        "valid calls/s",
        "server CPU µs/call",
        "wrong calls/s",
        "server CPU µs/call",
        "mistakes named",
        "tools/list ms",
        "tools",
    ]
    print(table(headers, rows))
    ours, theirs = results["llmapp"], results["MCPServer"]
    for label in ("valid", "wrong"):
        ratio = ours[label] / theirs[label]
        held = "yes" if ratio >= 1 else "NO"
        cpu_ratio = theirs[label + " cpu"] / ours[label + " cpu"]
        print(
            f"\nllmapp vs MCPServer, {label} arguments: {ratio:.2f}x the calls/s "
            f"({held} for >= 1x), {cpu_ratio:.2f}x less server CPU per call",
            end="",
        )
    print(f"\nllmapp names every mistake: {'yes' if ours['wrong named'] == 3 else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
