"""The stdio transport's two byte streams, read and written by the event loop itself.

The SDK's ``stdio_server`` reads each line and writes and flushes each answer through a
worker thread (three thread round trips a ``tools/call``, most of a call's time on a
quick method). Where the loop can watch the descriptors (asyncio, POSIX, stdin and
stdout both pipes or sockets, as every MCP client starts a server), ``loop_streams``
gives ``stdio_server`` a line reader and a writer on the loop's own pipe transports;
the SDK still parses, frames and writes every message. Elsewhere it gives ``None`` and
the SDK's own streams are used.

As the SDK does, the wire is moved to private descriptors while serving: descriptor 0
reads the null device and descriptor 1 writes to stderr, so a method's stray ``print``
or a child process cannot corrupt the wire; both are put back on exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
import sys
from collections.abc import AsyncIterator, Iterator
from typing import IO

__all__ = ["DRAIN_SECONDS", "LINE_LIMIT", "LineReader", "LineWriter", "loop_streams"]

LINE_LIMIT = 64 * 1024 * 1024
"""The longest message read (bytes); a longer line is skipped, and the next one read."""

DRAIN_SECONDS = 5.0
"""How long answers still buffered at the end are given to reach a client."""

_log = logging.getLogger("llmapp.mcp")


class LineReader:
    """Lines of the wire, as ``str``, for ``async for``."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> LineReader:
        return self

    async def __anext__(self) -> str:
        while True:
            try:
                line = await self._reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as end:
                if not end.partial:
                    raise StopAsyncIteration from None
                line = end.partial
            except asyncio.LimitOverrunError:
                await self._skip_line()
                continue
            return line.decode("utf-8", errors="replace")

    async def _skip_line(self) -> None:
        """Drop an over-long line up to its newline (or the end of the wire)."""
        _log.warning("an MCP message longer than %d bytes was skipped", LINE_LIMIT)
        while True:
            try:
                await self._reader.readuntil(b"\n")
                return
            except asyncio.LimitOverrunError as overrun:
                await self._reader.readexactly(overrun.consumed)
            except asyncio.IncompleteReadError:
                return


class _FlowControl(asyncio.Protocol):
    """Knows when the pipe's buffer is full, so ``flush`` waits for the reader."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.closed = asyncio.Event()

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.writable.set()
        self.closed.set()


class LineWriter:
    """``write`` and ``flush`` as ``stdio_server`` calls them, on a pipe transport."""

    def __init__(self, transport: asyncio.WriteTransport, flow: _FlowControl) -> None:
        self._transport = transport
        self._flow = flow

    async def write(self, text: str) -> None:
        self._transport.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._flow.writable.wait()


@contextlib.asynccontextmanager
async def loop_streams() -> AsyncIterator[tuple[LineReader, LineWriter] | None]:
    """``(stdin, stdout)`` for ``stdio_server`` on the loop's pipes, or ``None`` where it
    cannot watch them (then the SDK's own streams serve)."""
    if not _watchable():
        yield None
        return
    with contextlib.ExitStack() as claims:
        try:
            wire_in = claims.enter_context(_claimed(0, os.O_RDONLY))
            wire_out = claims.enter_context(_claimed(1, os.O_WRONLY))
            opened = await _opened(wire_in, wire_out)
        except (OSError, ValueError) as error:  # the loop refused the wire after all
            claims.close()  # the descriptors are put back before the SDK claims them
            _log.warning("stdio served through the SDK's threads: %s", error)
            yield None
            return
        reader, read_transport, write_transport, flow = opened
        try:
            yield LineReader(reader), LineWriter(write_transport, flow)
        finally:
            read_transport.close()
            await _closed(write_transport, flow)


async def _opened(
    wire_in: IO[bytes], wire_out: IO[bytes]
) -> tuple[asyncio.StreamReader, asyncio.BaseTransport, asyncio.WriteTransport, _FlowControl]:
    """The loop's read and write transports on the two wires."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    read_transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), wire_in
    )
    try:
        write_transport, flow = await loop.connect_write_pipe(_FlowControl, wire_out)
    except BaseException:
        read_transport.close()
        raise
    return reader, read_transport, write_transport, flow


async def _closed(transport: asyncio.WriteTransport, flow: _FlowControl) -> None:
    """Close the wire once the answers still buffered are written (or after DRAIN_SECONDS,
    when the client reads no more)."""
    transport.close()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(flow.closed.wait(), DRAIN_SECONDS)
    if not flow.closed.is_set():
        transport.abort()


def _watchable() -> bool:
    """Whether both standard descriptors are pipes or sockets of a POSIX asyncio loop."""
    if sys.platform == "win32":
        return False
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # another event loop (trio): the SDK's threads serve
        return False
    for fd in (0, 1):
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            return False
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return False
    return True


@contextlib.contextmanager
def _claimed(fd: int, mode: int) -> Iterator[IO[bytes]]:
    """The wire of ``fd`` as a file of its own (the transport closes it), ``fd`` itself
    pointed at a stand-in until the block ends."""
    import fcntl  # POSIX only, as is this path

    saved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)  # above 0-2, even if one is closed
    try:
        stand_in = _stand_in(mode)
        try:
            os.dup2(stand_in, fd)
        finally:
            os.close(stand_in)
    except OSError:
        os.close(saved)
        raise
    try:
        wire = fcntl.fcntl(saved, fcntl.F_DUPFD_CLOEXEC, 3)
        yield os.fdopen(wire, _FILE_MODES[mode], buffering=0)
    finally:
        # The loop made the wire non-blocking, which its every descriptor shares.
        with contextlib.suppress(OSError):
            os.set_blocking(saved, True)
        os.dup2(saved, fd)
        os.close(saved)


def _stand_in(mode: int) -> int:
    """What ``fd`` points at while serving: the null device to read, stderr to write."""
    if mode == os.O_WRONLY:
        with contextlib.suppress(OSError):
            return os.dup(2)
    return os.open(os.devnull, mode)


_FILE_MODES = {os.O_RDONLY: "rb", os.O_WRONLY: "wb"}
