"""Running a server until it is stopped: over stdio, or streamable HTTP on uvicorn.

``serve`` says on stderr what it serves and where (the ``llmapp.mcp`` logger, which it
points at stderr unless told not to), and ends quietly: Ctrl-C, SIGTERM, the client
closing stdin or the pipe breaking under stdout end the process without a traceback.

Over stdio the wire is the SDK's own ``stdio_server``: it keeps a method's stray output
off the wire and puts the standard descriptors back on exit.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from llmapp.kernel import MCP, log_to_stderr
from llmapp.mcp._asgi import asgi
from llmapp.mcp._auth import Auth
from llmapp.mcp._sdk import sdk
from llmapp.mcp._server import Transport, served, server

if TYPE_CHECKING:
    from llmapp.app import Application

__all__ = ["quietly", "serve", "url"]


def serve(
    app: Application[Any, Any, Any] | type,
    target: Any = None,
    transport: Transport = "stdio",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    stateless: bool = False,
    auth: Auth | None = None,
    allow_unauthenticated: bool = False,
    log_level: str | None = "info",
    **options: Any,
) -> None:
    """Run an application as an MCP server until it is stopped.

    Args:
        app: any application (``llmapp.Application``), or a class.
        target: what the calls run on (see ``server``).
        transport: ``"stdio"`` (the process's stdin and stdout) or ``"streamable-http"``.
        host: the address to listen on over HTTP (only this machine by default; any
            other needs ``auth`` or ``allow_unauthenticated``).
        port: the port to listen on over HTTP.
        path: the endpoint's path over HTTP.
        stateless: over HTTP, no sessions (see ``asgi``).
        auth: over HTTP, bearer-token authentication (see ``Auth``).
        allow_unauthenticated: serve a non-loopback host without ``auth``.
        log_level: the ``llmapp`` loggers' level, their records sent to stderr; ``None``
            leaves logging as the caller set it up.
        **options: ``name``, ``version``, ``instructions``, ``human``, ``runner``,
            ``elicit`` (see ``server``).

    Raises:
        ValueError: an unknown transport, or a non-loopback host without auth.
    """
    if log_level is not None:
        log_to_stderr(log_level)
    if transport == "stdio":
        built = server(app, target, **options)
        line = served(built, "over stdio")
        quietly(lambda: _announced(line, functools.partial(_stdio, built)))
    elif transport == "streamable-http":
        mounted = asgi(
            app,
            target,
            path=path,
            stateless=stateless,
            host=host,
            auth=auth,
            allow_unauthenticated=allow_unauthenticated,
            **options,
        )
        mode = (", stateless" if stateless else "") + (
            ", JSON responses" if mounted.json_response else ""
        )
        secured = ", bearer auth" if auth is not None else ""
        where = f"over streamable-http at {url(host, port, path)}{mode}{secured}"
        line = served(mounted.server, where)
        quietly(lambda: _announced(line, functools.partial(_uvicorn, mounted, host, port)))
    else:
        raise ValueError(f"transport must be 'stdio' or 'streamable-http', not {transport!r}")


def quietly(run: Callable[[], Any]) -> None:
    """Run until stopped; Ctrl-C and a broken or closed pipe end it without a traceback."""
    import asyncio  # loaded by then: the server runs on it

    try:
        run()
    except (KeyboardInterrupt, asyncio.CancelledError):
        # Python 3.10's event loop ends a Ctrl-C'd server's main task as cancelled, where
        # 3.11 and newer raise KeyboardInterrupt: both are the stop that was asked for.
        pass
    except BaseException as error:
        if not _pipe_closed(error):
            raise
        # stdout is gone: point it at the null device so the exit's flush cannot fail again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _pipe_closed(error: BaseException) -> bool:
    if isinstance(error, (BrokenPipeError, ConnectionResetError)):
        return True
    nested: Any = getattr(error, "exceptions", None)  # an exception group from a task group
    return bool(nested) and all(_pipe_closed(inner) for inner in nested)


def _announced(line: str, run: Callable[[], Any]) -> None:
    MCP.info("%s", line)
    sdk("anyio").run(run)


async def _stdio(built: Any) -> None:
    stdio = sdk("mcp.server.stdio")
    async with stdio.stdio_server() as (read, write):
        await built.run(read, write, built.create_initialization_options())


async def _uvicorn(mounted: Any, host: str, port: int) -> None:
    uvicorn = sdk("uvicorn")
    config = uvicorn.Config(mounted, host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()


def url(host: str, port: int, path: str) -> str:
    """The URL clients reach an HTTP server at."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"
