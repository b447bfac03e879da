"""The streamable-HTTP server as an ASGI application: run on uvicorn, or mounted in any app.

``asgi(app, target, ...)`` is the SDK's ``streamable_http_app`` of ``server(...)``
(its session manager, DNS-rebinding protection, bearer auth), wrapped so that it also
works mounted under a path of another Starlette or FastAPI application
(``api.mount("/tools", asgi(...))``): a mounted app's lifespan is not run by its
parent, so the session manager starts on the first request when no lifespan started
it, and stops with the parent's loop. Run as the whole application (uvicorn, or
``serve``), it starts and stops with the lifespan as usual.

``stateless=True`` keeps no session between requests (each request is answered by
a fresh session): any worker or replica can answer any request, so the same server runs
as N uvicorn workers (what ``llmapp mcp --workers N`` starts) or N replicas behind any
load balancer, without sticky sessions. A method may still ask a 2025 client (sampling,
elicitation) on the call's event stream: the answer comes back in a POST of its own, which
``_stateless.Asks`` hands to the call that asked, in the same process (with several
workers, a 2025 client that is asked needs sessions; a 2026-07-28 client needs nothing).

A request is answered with one JSON body rather than an event stream (``json_response``)
when stateless (unless a method takes the call's context: its progress and log messages
ride the stream), and with sessions too when no call can send anything but its answer
(``answers_only``: nothing asks the user, no hook or method is handed the request
context). An event stream per answer costs the server more than the call itself; a
server whose calls may ask the user keeps it, since a request's JSON answer has no room
for the questions asked while it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llmapp.mcp._auth import Auth, check_bind, rebinding_check

if TYPE_CHECKING:
    from starlette.types import Receive, Scope, Send

    from llmapp.app import Application

__all__ = ["McpAsgiApp", "asgi"]


def asgi(
    app: Application[Any, Any, Any] | type,
    target: Any = None,
    *,
    path: str = "/mcp",
    stateless: bool = False,
    json_response: bool | None = None,
    host: str = "127.0.0.1",
    auth: Auth | None = None,
    allow_unauthenticated: bool = False,
    **options: Any,
) -> McpAsgiApp:
    """The MCP server of an application as an ASGI application (streamable HTTP).

    Args:
        app: any application (``llmapp.Application``), or a class.
        target: what the calls run on (see ``server``).
        path: the endpoint's path inside this application.
        stateless: keep no session between requests (for several workers or replicas).
        json_response: answer with JSON instead of an event stream (default: when
            stateless, or when no call sends anything but its answer).
        host: the host it will be reached at: a loopback host, in any spelling
            (``127.0.0.2``, ``[::1]``), is served behind the SDK's DNS-rebinding check
            (a ``Host`` or ``Origin`` header naming another host is answered 421 or 403);
            any other host needs ``auth`` or ``allow_unauthenticated``.
        auth: bearer-token authentication (see ``Auth``).
        allow_unauthenticated: serve a non-loopback host without ``auth`` (a proxy in
            front checks).
        **options: ``name``, ``version``, ``instructions``, ``human``, ``runner``,
            ``elicit`` (see ``server``).

    Returns:
        An ASGI application (``.server`` is the SDK's ``Server`` it serves).

    Raises:
        ValueError: a non-loopback ``host`` without ``auth`` or ``allow_unauthenticated``.

    Example::

        api = FastAPI()
        api.mount("/tools", llmapp.mcp.asgi(Shop, Shop(), path="/mcp"))  # /tools/mcp
    """
    from llmapp.mcp._server import answers_only, notifies, server
    from llmapp.mcp._stateless import install

    check_bind(host, auth, allow_unauthenticated)
    built = server(app, target, **options)
    settings: dict[str, Any] = {}
    if auth is not None:
        settings = {"auth": auth.settings(), "token_verifier": auth.verifier}
    if json_response is None:
        # stateless, a method's progress, log messages and questions ride its request's
        # stream
        json_response = not notifies(built) if stateless else answers_only(built)
    starlette = built.streamable_http_app(
        streamable_http_path=path,
        stateless_http=stateless,
        json_response=json_response,
        host=host,
        transport_security=rebinding_check(host),
        **settings,
    )
    if stateless:
        install(built.session_manager)  # a 2025 client's answers find the call that asked
    return McpAsgiApp(starlette, built, json_response)


class McpAsgiApp:
    """An ASGI application that starts its session manager itself when mounted.

    Attributes:
        starlette: the SDK's Starlette application.
        server: the SDK's ``Server`` it serves (``server(...)``).
        json_response: whether requests are answered with JSON, not an event stream.
    """

    def __init__(self, starlette: Any, server: Any, json_response: bool = False) -> None:
        self.starlette = starlette
        self.server = server
        self.json_response = json_response
        self.manager = server.session_manager
        self._lifespan = False
        self._started: Any = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            self._lifespan = True  # run as the whole application: the lifespan starts it
        elif not self._lifespan:
            await self._start()
        await self.starlette(scope, receive, send)

    async def _start(self) -> None:
        """Mounted: the session manager runs in a task of its own, from the first request on."""
        import asyncio

        if self._started is None:
            started = asyncio.Event()

            async def host() -> None:
                async with self.manager.run():
                    started.set()
                    await asyncio.Event().wait()  # until the loop ends

            self._started = started
            self._host = asyncio.get_running_loop().create_task(host())
        await self._started.wait()
