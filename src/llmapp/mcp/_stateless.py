"""Stateless streamable HTTP that can still ask a 2025 client (sampling, elicitation).

The SDK's stateless transport answers each POST with a fresh transport and no session, so
a request to the client goes out on the call's own event stream but the client's answer,
POSTed on its own, lands on another fresh transport that awaits nothing: the SDK
therefore refuses to ask (``NoBackChannelError``). ``Asks`` gives the answer somewhere to
land, in this process: each question the server sends carries an unguessable request id
(``llmapp-ask-`` and a random token); the POST answering it is handed to the transport
of the call that asked, whose dispatcher is waiting for it (the SDK's own correlation,
validation and ``202 Accepted``). The manager's stateless path is the SDK's own, with
that one difference: ``asgi(stateless=True)`` puts ``Asks.handle`` in its place
(``install``), behind the SDK's bearer auth and body limit as before.

The rules every door keeps:

- an answer is taken only for a question this server sent and still awaits, from the
  credential the call was made with (the SDK's session rule); any other answer (forged,
  late, another caller's) is refused with ``404``;
- at most ``ASK_LIMIT`` questions wait at once (one more fails its call: the client
  cannot be asked), each at most ``ASK_TIMEOUT`` seconds (then the call fails with the
  SDK's timeout error).

One process only: the answer must reach the process whose call waits. Several workers
or replicas serving 2025 clients need sessions with sticky routing, or clients of the
2026-07-28 protocol (questions as ``InputRequiredResult``, no request to the client).
"""

from __future__ import annotations

import functools
import json
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from llmapp.kernel import MCP
from llmapp.mcp._sdk import sdk

if TYPE_CHECKING:
    from starlette.types import Message, Receive, Scope, Send

__all__ = ["ASK_LIMIT", "ASK_TIMEOUT", "Asks"]

ASK_LIMIT: Final = 1000
"""Most questions to clients waiting for their answer at once, per process."""

ASK_TIMEOUT: Final = 300.0
"""Longest a question waits for its answer, in seconds (a user may take a while)."""

_PREFIX: Final = "llmapp-ask-"


@dataclass(frozen=True, slots=True)
class _Waiting:
    transport: Any  # the StreamableHTTPServerTransport of the call that asked
    requestor: Any  # the credential of that call (None when unauthenticated)


class Asks:
    """The questions this process's stateless calls sent to clients and still await."""

    def __init__(
        self, manager: Any, *, limit: int = ASK_LIMIT, timeout: float = ASK_TIMEOUT
    ) -> None:
        self.manager = manager
        self.limit = limit
        self.timeout = timeout
        self._waiting: dict[str, _Waiting] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    def open(self, transport: Any, requestor: Any) -> str:
        """A fresh request id for a question sent on ``transport``'s stream.

        Raises:
            NoBackChannelError: ``limit`` questions already wait.
        """
        if len(self._waiting) >= self.limit:
            MCP.warning("a question to a client refused: %d already wait", self.limit)
            raise sdk("mcp.shared.exceptions").NoBackChannelError("a question to the client")
        token = _PREFIX + secrets.token_urlsafe(24)
        self._waiting[token] = _Waiting(transport, requestor)
        return token

    def close(self, token: str) -> None:
        """The question was answered, timed out or abandoned: no answer is taken any more."""
        self._waiting.pop(token, None)

    def awaiting(self, answer_id: Any, requestor: Any) -> Any:
        """The transport awaiting an answer with this id from this credential, else None."""
        waiting = self._waiting.get(answer_id) if isinstance(answer_id, str) else None
        if waiting is None or waiting.requestor != requestor:
            return None
        return waiting.transport

    async def handle(
        self, protocol_version: str | None, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """A stateless 2025 request: an answer to a question goes to the call that asked;
        anything else is served as the SDK serves it, on a fresh transport whose calls
        may ask."""
        requestor = _requestor(scope)
        if scope.get("method") == "POST":
            body = await _body(receive)
            if body is None:
                return  # the client went away before its request was whole
            receive = _replay(body, receive)
            answered = _answer_id(body)
            if answered is not _NOT_AN_ANSWER:
                transport = self.awaiting(answered, requestor)
                if transport is None:
                    await _refused(scope, receive, send)
                else:
                    await transport.handle_request(scope, receive, send)
                return
        await self._serve(protocol_version, requestor, scope, receive, send)

    async def _serve(
        self,
        protocol_version: str | None,
        requestor: Any,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        """The SDK's stateless path (``StreamableHTTPSessionManager._handle_stateless_request``)
        but for the dispatcher, which may send requests and names them through ``open``."""
        anyio = sdk("anyio")
        manager = self.manager
        transport = sdk("mcp.server.streamable_http").StreamableHTTPServerTransport(
            mcp_session_id=None,
            is_json_response_enabled=manager.json_response,
            event_store=None,
            security_settings=manager.security_settings,
        )
        connection_type = sdk("mcp.server.connection").Connection
        serve_connection = sdk("mcp.server.runner").serve_connection
        version = protocol_version or sdk("mcp_types").DEFAULT_NEGOTIATED_VERSION

        async def run(*, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
            async with transport.connect() as (read_stream, write_stream):
                task_status.started()
                # no transport_builder: the transport's own metadata says whether a request
                # can ride the response (an event stream can, a JSON body cannot)
                dispatcher = _dispatcher()(
                    read_stream,
                    write_stream,
                    inline_methods=frozenset({"initialize"}),
                    asks=self,
                    transport=transport,
                    requestor=requestor,
                )
                connection = connection_type.from_envelope(version, None, None)
                try:
                    await serve_connection(
                        manager.app,
                        dispatcher,
                        connection=connection,
                        lifespan_state=manager._lifespan_state,
                    )
                except Exception:
                    MCP.exception("a stateless request's server ended with an error")

        try:
            await manager._task_group.start(run)
            await transport.handle_request(scope, receive, send)
        finally:
            with anyio.CancelScope(shield=True):
                await transport.terminate()


def install(manager: Any) -> Asks:
    """Serve ``manager``'s stateless 2025 requests through an ``Asks`` (its only hook for
    the stateless path is the method itself)."""
    asks = Asks(manager)
    manager._handle_stateless_request = asks.handle
    return asks


@functools.lru_cache(maxsize=1)
def _dispatcher() -> Any:
    """The SDK's JSON-RPC dispatcher, whose requests carry ids from ``Asks.open``."""
    base: Any = sdk("mcp.shared.jsonrpc_dispatcher").JSONRPCDispatcher

    class AskingDispatcher(base):  # type: ignore[misc]
        def __init__(
            self, *args: Any, asks: Asks, transport: Any, requestor: Any, **kwargs: Any
        ) -> None:
            super().__init__(*args, **kwargs)
            self._asks = asks
            self._asking_transport = transport
            self._requestor = requestor

        async def send_raw_request(
            self, method: str, params: Any, opts: Any = None, **kwargs: Any
        ) -> Any:
            token = self._asks.open(self._asking_transport, self._requestor)
            chosen = dict(opts or {})
            chosen["request_id"] = token
            timeout = chosen.get("timeout")
            chosen["timeout"] = min(timeout or self._asks.timeout, self._asks.timeout)
            try:
                return await super().send_raw_request(method, params, chosen, **kwargs)
            finally:
                self._asks.close(token)

    return AskingDispatcher


_NOT_AN_ANSWER: Final = object()


def _answer_id(body: bytes) -> Any:
    """The id a JSON-RPC response or error answers, else ``_NOT_AN_ANSWER`` (a request, a
    notification, or no JSON-RPC at all, which the SDK answers)."""
    if b'"result"' not in body and b'"error"' not in body:
        return _NOT_AN_ANSWER  # every answer has one: spares parsing each request twice
    try:
        message = json.loads(body)
    except ValueError:
        return _NOT_AN_ANSWER
    if not isinstance(message, dict) or "method" in message or "id" not in message:
        return _NOT_AN_ANSWER
    if "result" not in message and "error" not in message:
        return _NOT_AN_ANSWER
    return message["id"]


def _requestor(scope: Scope) -> Any:
    """The credential of a request, as the SDK binds a session to it."""
    bearer = sdk("mcp.server.auth.middleware.bearer_auth")
    user = scope.get("user")
    if not isinstance(user, bearer.AuthenticatedUser):
        return None
    return bearer.authorization_context(user)


async def _body(receive: Receive) -> bytes | None:
    """The whole body (its size is bounded by the SDK's body-limit middleware in front), or
    None when the client disconnected first."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the body read already, then what the client sends next."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _refused(scope: Scope, receive: Receive, send: Send) -> None:
    """An answer to no question this server awaits from this caller."""
    from starlette.responses import Response

    types = sdk("mcp_types")
    error = types.JSONRPCError(
        jsonrpc="2.0",
        id=None,
        error=types.ErrorData(
            code=types.INVALID_REQUEST, message="no question of this server awaits this answer"
        ),
    )
    body = error.model_dump_json(by_alias=True, exclude_unset=True)
    await Response(body, status_code=404, media_type="application/json")(scope, receive, send)
