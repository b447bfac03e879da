"""``python -m benchmarks.mcp_http_bench [--quick]``: MCP servers over streamable HTTP, under load.

Side by side in one run, each server in its own subprocess on uvicorn (127.0.0.1):

- the SDK's ``MCPServer`` and FastMCP (when installed) serving the same function with
  their default HTTP settings (sessions, an event stream per answer), and llmapp's
  ``llmapp mcp --transport streamable-http`` (default: sessions; JSON answers, since no
  call of this function can send anything but its answer), and llmapp with an event
  stream per answer (what a server whose calls may ask the user answers with);
- llmapp stateless (``--stateless``: no sessions, JSON answers) with 1, 2 and 4 uvicorn
  workers (``--workers N``).

The load is the same for every server (``_http_load``): up to two load-generator
processes of raw HTTP/1.1 on asyncio sockets, one keep-alive connection and one session
per client, calls one after the other, every answer read whole and checked. (The SDK's
own client costs more per call than the servers do: with it the figures measured the
clients.) The SDK's own client checks each server once at the start. For 1, 8 and 32
concurrent clients: calls per second, median and 99th-percentile latency, with valid
arguments and with three mistakes (a number for a string, text for an integer, a key the
function does not take), and how many of the three each server's answer names; beside
them the server's CPU time per call and the cores it kept busy (its process and any
workers under it, from ``/proc``), and the load generators' cores. Every server logs at
WARNING, so no per-call log line is timed. The machine has 2 cores shared by every
process here: throughput grows with workers only until they are busy.

Every server runs from the start; within each figure they take turns, round after
round, so a change in the machine's load falls on all alike (the figure is the median
round; ``min`` is the slowest). Not part of ``python -m benchmarks``: it starts servers.
``--quick`` (one round of 1 s per figure) takes about a minute and a half; the default
(3 rounds of 3 s) about eight minutes. ``MCP_HTTP_BENCH_PROFILE=DIR`` runs each server
under cProfile, its stats written to ``DIR`` when it stops; ``MCP_HTTP_BENCH_TRACE=1``
prints each round's figures to stderr as they come.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from typing import Annotated, Any

from annotated_types import Ge, Le
from typing_extensions import TypedDict  # pydantic (FastMCP) reads only this one before 3.12

from benchmarks._http_load import process_cpu
from benchmarks._report import table
from benchmarks._timing import ROOT

VALID = {"room": "12B", "nights": 2}
WRONG = {"room": 12, "nights": "two", "pets": True}
WRONG_KEYS = ("room", "nights", "pets")
CLIENTS = (1, 8, 32)
LOADERS = 2


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


def _llmapp_streams(port: int) -> None:
    import llmapp.mcp

    # what a server whose calls may ask the user answers with: an event stream each
    _uvicorn(llmapp.mcp.asgi(Desk, Desk(), json_response=False), port)


def _llmapp(*extra: str) -> list[str]:
    target = "benchmarks.mcp_http_bench:Desk"
    base = ["-m", "llmapp", "mcp", target, "--transport", "streamable-http"]
    return [sys.executable, *base, "--log-level", "warning", *extra]


SERVERS: dict[str, Any] = {
    "MCPServer (SDK)": "sdk",
    "FastMCP": "fastmcp",
    "llmapp (default)": (),
    "llmapp, event streams": "streams",
    "llmapp stateless, 1 worker": ("--stateless",),
    "llmapp stateless, 2 workers": ("--workers", "2"),
    "llmapp stateless, 4 workers": ("--workers", "4"),
}


def _spawn(which: str, port: int) -> subprocess.Popen[bytes]:
    spec = SERVERS[which]
    if isinstance(spec, str):
        line = [sys.executable, "-m", "benchmarks.mcp_http_bench", "--serve", spec, str(port)]
    else:
        line = _llmapp(*spec, "--port", str(port))
    profile = os.environ.get("MCP_HTTP_BENCH_PROFILE")
    if profile:  # a directory: each server runs under cProfile, its stats written on exit
        slug = "".join(c if c.isalnum() else "_" for c in which)
        line = [line[0], "-m", "cProfile", "-o", os.path.join(profile, f"{slug}.prof"), *line[1:]]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src")])}
    return subprocess.Popen(
        line, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def _listening(which: str, process: subprocess.Popen[bytes], port: int) -> None:
    import socket

    deadline = time.monotonic() + 60

    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{which} exited at start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"{which} did not listen on {port}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if os.environ.get("MCP_HTTP_BENCH_PROFILE"):  # uvicorn re-raises SIGTERM: no stats then
        process.send_signal(signal.SIGINT)
    else:
        process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# --- the client side: a few load-generator processes, the same for every server ----------


def _sdk_check(port: int) -> int:
    """The SDK's own client, once per server: both calls answered right; how many it names."""
    import anyio

    async def check() -> int:
        from mcp import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        url = f"http://127.0.0.1:{port}/mcp"
        async with (
            streamable_http_client(url) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            good = await session.call_tool("book", VALID)
            bad = await session.call_tool("book", WRONG)
        if good.is_error or good.structured_content != {**VALID, "breakfast": False}:
            raise RuntimeError(f"a valid call answered {good}")
        if not bad.is_error:
            raise RuntimeError(f"a wrong call answered {bad}")
        text = " ".join(getattr(block, "text", "") for block in bad.content)
        return sum(key in text for key in WRONG_KEYS)

    named: int = anyio.run(check)
    return named


class _Loaders:
    """``LOADERS`` load-generator processes, kept for the whole run."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src")])}
        self.processes = [
            subprocess.Popen(
                [sys.executable, "-m", "benchmarks._http_load"],
                cwd=ROOT,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            for _ in range(LOADERS)
        ]

    def _say(self, process: subprocess.Popen[bytes], line: str) -> None:
        assert process.stdin is not None
        process.stdin.write(line.encode() + b"\n")
        process.stdin.flush()

    def _hear(self, process: subprocess.Popen[bytes]) -> bytes:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("a load process failed (see above)")
        return line

    def load(self, port: int, pid: int, clients: int, wrong: bool, seconds: float) -> Figure:
        """``clients`` connections over the load processes, all calling for ``seconds``.

        The server's CPU time (its process and any workers under it) is read over the
        same window: ``cpu`` is its CPU time per call, ``busy`` the cores it kept busy.
        """
        used = self.processes[: min(clients, LOADERS)]
        shares = [clients // len(used) + (i < clients % len(used)) for i in range(len(used))]
        job = {
            "port": port,
            "arguments": WRONG if wrong else VALID,
            "expected": {**VALID, "breakfast": False},
            "keys": list(WRONG_KEYS),
            "wrong": wrong,
            "seconds": seconds,
        }
        for process, share in zip(used, shares, strict=True):
            self._say(process, json.dumps({**job, "clients": share}))
        for process in used:  # every client connected and warmed up before any starts
            if self._hear(process).strip() != b"ready":
                raise RuntimeError(f"a load process could not start against {port}")
        before = process_cpu(pid)
        for process in used:
            self._say(process, "go")
        time.sleep(seconds)
        server_cpu = process_cpu(pid) - before
        latencies: list[float] = []
        named, load_cpu = 3, 0.0
        for process in used:
            found = json.loads(self._hear(process))
            latencies += found["latencies"]
            named = min(named, found["named"])
            load_cpu += found["cpu"]
        latencies.sort()
        calls = len(latencies)
        return {
            "rate": calls / seconds,
            "p50": statistics.median(latencies) * 1000 if latencies else float("nan"),
            "p99": latencies[int(calls * 0.99)] * 1000 if latencies else float("nan"),
            "named": named,
            "cpu": server_cpu / calls * 1e6 if calls else float("nan"),
            "busy": server_cpu / seconds,
            "load": load_cpu / seconds,
        }

    def close(self) -> None:
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.close()
            process.wait(timeout=30)


Figure = dict[str, float]


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
    parser.add_argument("--quick", action="store_true", help="1 round of 1 s per figure")
    parser.add_argument("--seconds", type=float, help="seconds per round (default 3)")
    parser.add_argument("--rounds", type=int, help="rounds per figure (default 3)")
    parser.add_argument("--only", help="server names to run, separated by ; (default: all)")
    parser.add_argument("--serve", nargs=2, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve:
        {"sdk": _sdk, "fastmcp": _fastmcp, "streams": _llmapp_streams}[options.serve[0]](
            int(options.serve[1])
        )
        return 0
    seconds = options.seconds or (1.0 if options.quick else 3.0)
    rounds = options.rounds or (1 if options.quick else 3)
    chosen = [w for w in SERVERS if not options.only or w in options.only.split(";")]
    missing = [w for w in chosen if not _available(w)]
    running = [w for w in chosen if w not in missing]
    ports = {which: _free_port() for which in running}
    processes: dict[str, subprocess.Popen[bytes]] = {}
    results: dict[tuple[str, str, int], list[dict[str, float]]] = {}
    sdk_named: dict[str, int] = {}
    loads = [os.getloadavg()[0]]
    loaders = _Loaders()
    try:
        for which in running:  # all at once, idle but the one being measured
            processes[which] = _spawn(which, ports[which])
        for which in running:
            _listening(which, processes[which], ports[which])
            sdk_named[which] = _sdk_check(ports[which])
        for label, wrong in (("valid", False), ("3 mistakes", True)):
            for clients in CLIENTS:
                # Servers take turns within each figure, so a change in the machine's load
                # falls on all of them alike.
                for _ in range(rounds):
                    for which in running:
                        pid = processes[which].pid
                        figure = loaders.load(ports[which], pid, clients, wrong, seconds)
                        results.setdefault((which, label, clients), []).append(figure)
                        if os.environ.get("MCP_HTTP_BENCH_TRACE"):
                            print(
                                time.strftime("%X"), which, label, clients, figure, file=sys.stderr
                            )
                loads.append(os.getloadavg()[0])
    finally:
        loaders.close()
        for process in processes.values():
            _stop(process)
    _report(running, results, sdk_named, rounds, seconds, loads)
    for which in missing:
        print(f"\n{which}: not installed, left out")
    return 0


def _report(
    running: list[str],
    results: dict[tuple[str, str, int], list[dict[str, float]]],
    sdk_named: dict[str, int],
    rounds: int,
    seconds: float,
    loads: list[float],
) -> None:
    """The table (median round by calls/s, and the slowest round's calls/s), then ratios."""
    rows, median = [], {}
    for which in running:
        for (server, label, clients), found in results.items():
            if server != which:
                continue
            by_rate = sorted(found, key=lambda figure: figure["rate"])
            figure = median[server, label, clients] = by_rate[len(by_rate) // 2]
            rows.append(
                [
                    which,
                    label,
                    str(clients),
                    f"{figure['rate']:.0f}",
                    f"{by_rate[0]['rate']:.0f}",
                    f"{figure['p50']:.1f}",
                    f"{figure['p99']:.1f}",
                    f"{figure['cpu']:.0f}",
                    f"{figure['busy']:.2f}",
                    f"{figure['load']:.2f}",
                    f"{figure['named']:.0f} of 3" if label != "valid" else "",
                ]
            )
    print(
        f"streamable HTTP, {rounds} rounds of {seconds:g} s per figure (median round, and the "
        f"slowest), clients in up to {LOADERS} load processes; load average "
        f"{min(loads):.1f}-{max(loads):.1f}"
    )
    headers = [
        "server",
        "arguments",
        "clients",
        "calls/s",
        "min",
        "p50 ms",
        "p99 ms",
        "server µs/call",
        "server cores",
        "load cores",
        "named",
    ]
    print(table(headers, rows))
    checked = ", ".join(f"{which} {named} of 3" for which, named in sdk_named.items())
    print(f"\nthe SDK's client, once per server: every answer right; mistakes named: {checked}")
    for base in ("MCPServer (SDK)", "FastMCP"):
        for which in ("llmapp (default)", "llmapp stateless, 4 workers"):
            keys = [
                key
                for key in median
                if key[0] == which and median.get((base, *key[1:]), {}).get("rate")
            ]
            ratios = [median[key]["rate"] / median[(base, *key[1:])]["rate"] for key in keys]
            cpu = [median[(base, *key[1:])]["cpu"] / median[key]["cpu"] for key in keys]
            if ratios:
                held = "yes" if min(ratios) >= 1 else "NO"
                print(
                    f"{which} vs {base}, every row: {min(ratios):.2f}x-{max(ratios):.2f}x the "
                    f"calls/s ({held} for >= 1x), {min(cpu):.2f}x-{max(cpu):.2f}x less server "
                    "CPU per call"
                )


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


if __name__ == "__main__":
    raise SystemExit(main())
