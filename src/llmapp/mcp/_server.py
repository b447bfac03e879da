"""An application served as an MCP server: ``server(app, target)`` builds it, ``serve`` runs it.

The server is the SDK's low-level ``mcp.server.Server`` with two handlers:

- ``tools/list``: ``llmapp.vendors.mcp.tools(app)``, built once: the model's side of
  each function's parameters as ``inputSchema``, ``outputSchema`` from the return type,
  title, description and annotations from ``@tag`` lines (see ``llmapp.vendors.mcp``).
- ``tools/call``: the application's own execution (read, repair, validate, convert,
  call), through ``LlmApplication.aexecute`` and a ``Runner`` of the server's own: the
  reading and validation of every call and the plain, static and class methods run in
  the runner's bounded worker threads, off the event loop, so neither an expensive
  validation nor a slow method holds up the calls beside it; ``async`` methods run on
  the loop; each call is bounded by the runner's timeout. Wrong arguments are answered
  ``isError: true`` with the feedback text and the method does not run; an exception in
  the method is answered ``isError: true`` with its bounded message, and the server
  goes on answering.

Over stdio, ``serve`` reads and writes the wire on the event loop's own pipes
(``_stdio``), not through the SDK's worker threads, where the loop can watch them.

Human-side parameters never come from the model: a ``human`` hook supplies them. It is
called for each call of a function that has a human side, with the function and the
SDK's ``ServerRequestContext`` (``context.request`` is the HTTP request over
streamable HTTP, ``context.meta`` the request's ``_meta``, ``context.session`` the
connection), and returns the values (or an awaitable of them)::

    def human(function, context):
        return {"user_id": context.request.headers["x-user"]}

A hook that raises is answered ``isError: true`` with a generic text (hooks read
secrets: the exception and its traceback go to the ``llmapp.mcp`` logger only); values
that are missing are answered with the path that lacks one, never a value.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from llmapp._errors import ExecutionError
from llmapp.app import Runner
from llmapp.mcp._sdk import sdk
from llmapp.mcp._stdio import loop_streams
from llmapp.vendors.mcp import tool_result, tools

if TYPE_CHECKING:
    from mcp.server import Server, ServerRequestContext
    from mcp.types import CallToolRequestParams, CallToolResult, ListToolsResult

    from llmapp.app import LlmApplication, LlmFunction

__all__ = ["HumanHook", "Transport", "serve", "server"]

HumanHook = Callable[[Any, Any], "Mapping[str, Any] | Awaitable[Mapping[str, Any] | None] | None"]
"""``(function, context) -> values``: the human side of a call, from the request context."""

Transport = Literal["stdio", "streamable-http"]

logger = logging.getLogger("llmapp.mcp")


def server(
    app: LlmApplication | type,
    target: Any,
    *,
    name: str | None = None,
    version: str | None = None,
    instructions: str | None = None,
    human: HumanHook | None = None,
    runner: Runner | None = None,
) -> Server[Any]:
    """The SDK server for an application, not yet running.

    Args:
        app: an ``LlmApplication``, or a class (its ``application(cls)`` is used).
        target: what the calls run on: an instance of the class (or the class itself
            when every method is static or a class method).
        name: the server's name (default: the class's name).
        version: the server's version (default: none).
        instructions: what the server tells clients about using it.
        human: supplies the human side of separated functions (see the module docstring).
        runner: the worker threads and the per-call timeout (default: ``Runner()`` of its
            own: 32 threads, at most 16 for one function, no timeout).

    Returns:
        An ``mcp.server.Server``: run it with ``serve``, or over any transport the SDK
        offers (``server.run(read, write, server.create_initialization_options())``,
        ``server.streamable_http_app()``).

    Example::

        llmapp.mcp.serve(application(Shop), Shop(), transport="stdio")
    """
    if isinstance(app, type):
        from llmapp.app import application

        app = application(app)
    lowlevel = sdk("mcp.server.lowlevel")
    handlers = _Handlers(app, target, human, runner)
    built: Server[Any] = lowlevel.Server(
        name or app.cls.__name__,
        version=version or "",
        instructions=instructions,
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
    )
    return built


class _Handlers:
    """The two request handlers of one served application."""

    def __init__(
        self, app: LlmApplication, target: Any, human: HumanHook | None, runner: Runner | None
    ) -> None:
        types = sdk("mcp.types")
        self.app = app
        self.target = target
        self.human = human
        self.listing: ListToolsResult = types.ListToolsResult(
            tools=[types.Tool.model_validate(entry) for entry in tools(app)]
        )
        self.runner = runner or Runner()
        self.result_type = types.CallToolResult

    async def list_tools(self, context: ServerRequestContext[Any], params: Any) -> ListToolsResult:
        return self.listing

    async def call_tool(
        self, context: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> CallToolResult:
        # A model, not a dict: the SDK writes it in the spelling of the connection's protocol era.
        answer = await self._answer(context, params)
        result: CallToolResult = self.result_type.model_validate(answer)
        return result

    async def _answer(
        self, context: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> dict[str, Any]:
        name, arguments = params.name, params.arguments
        function = self.app.function(name)
        try:
            human = await self._human(function, context)
        except Exception:  # a hook reads secrets: its text stays in the server's log
            logger.exception("%s: the human hook raised", name)
            return _refusal(f"{name} could not run: its server-side values are unavailable.")
        try:
            # Reading, validation and the method run off the loop, within the runner's limits.
            result = await self.app.aexecute(
                self.target, name, arguments, human, runner=self.runner
            )
        except ExecutionError as error:  # the server's setup; its text names paths, never values
            return _refusal(f"{name} could not run: {error}")
        return tool_result(function, result)

    async def _human(
        self, function: LlmFunction | None, context: ServerRequestContext[Any]
    ) -> Mapping[str, Any] | None:
        separated = function.separated if function is not None else None
        if self.human is None or separated is None or separated.human is None:
            return None
        values = self.human(function, context)
        if inspect.isawaitable(values):
            values = await values
        return values


def _refusal(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


def serve(
    app: LlmApplication | type,
    target: Any,
    transport: Transport = "stdio",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    **options: Any,
) -> None:
    """Run an application as an MCP server until it is stopped.

    Args:
        app: an ``LlmApplication``, or a class.
        target: what the calls run on (see ``server``).
        transport: ``"stdio"`` (the process's stdin and stdout) or ``"streamable-http"``.
        host: the address to listen on over HTTP (only this machine by default).
        port: the port to listen on over HTTP.
        path: the endpoint's path over HTTP.
        **options: ``name``, ``version``, ``instructions``, ``human`` (see ``server``).

    Raises:
        ValueError: an unknown transport.
    """
    run = _TRANSPORTS.get(transport)
    if run is None:
        raise ValueError(f"transport must be one of {sorted(_TRANSPORTS)}, not {transport!r}")
    built = server(app, target, **options)
    sdk("anyio").run(functools.partial(run, built, host, port, path))


async def _stdio(built: Server[Any], host: str, port: int, path: str) -> None:
    stdio = sdk("mcp.server.stdio")
    async with loop_streams() as streams, stdio.stdio_server(*streams or ()) as (read, write):
        await built.run(read, write, built.create_initialization_options())


async def _streamable_http(built: Server[Any], host: str, port: int, path: str) -> None:
    uvicorn = sdk("uvicorn")
    asgi = built.streamable_http_app(streamable_http_path=path, host=host)
    config = uvicorn.Config(asgi, host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()


_TRANSPORTS: dict[str, Callable[[Server[Any], str, int, str], Awaitable[None]]] = {
    "stdio": _stdio,
    "streamable-http": _streamable_http,
}
