"""Resource subscriptions: ``resources/subscribe``, ``resources/unsubscribe`` and updates.

A 2025 client subscribes to a resource's URI on its connection; ``updated(uri)``
(``llmapp.mcp.updated(server, uri)``, or ``McpContext.updated`` inside a call) sends
each connection subscribed to it a ``notifications/resources/updated`` on its standalone
stream, and publishes a ``ResourceUpdated`` event on the SDK's ``SubscriptionBus``, which
serves the 2026-07-28 protocol's ``subscriptions/listen`` streams (the SDK's
``ListenHandler``). A connection's subscriptions end with it. Bounded: at most
``MAX_PER_CONNECTION`` URIs per connection, ``MAX_CONNECTIONS`` connections subscribed at
once, and only URIs the server serves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from llmapp.kernel import MCP
from llmapp.mcp._sdk import sdk

__all__ = ["MAX_PER_CONNECTION", "Subscriptions"]

MAX_PER_CONNECTION: Final = 256
MAX_CONNECTIONS: Final = 10_000
_INVALID_PARAMS: Final = -32602


class Subscriptions:
    """The subscriptions of one served application's clients.

    Args:
        serves: whether the server serves a URI (a resource or a template's match).
        bus: the SDK's ``SubscriptionBus`` for 2026-07-28 listeners (default: an
            ``InMemorySubscriptionBus``; one over Redis or NATS reaches every replica).
    """

    def __init__(self, serves: Callable[[str], bool], bus: Any = None) -> None:
        subscriptions = sdk("mcp.server.subscriptions")
        self.serves = serves
        self.bus = bus if bus is not None else subscriptions.InMemorySubscriptionBus()
        self.listen = subscriptions.ListenHandler(self.bus)
        self._connections: dict[int, tuple[Any, set[str]]] = {}

    async def subscribe(self, context: Any, params: Any) -> Any:
        uri = str(params.uri)
        if not self.serves(uri):
            raise sdk("mcp.shared.exceptions").MCPError(
                _INVALID_PARAMS, f"no resource matches {uri[:200]!r}"
            )
        connection = _connection(context)
        key = id(connection)
        if key not in self._connections:
            if len(self._connections) >= MAX_CONNECTIONS:
                raise sdk("mcp.shared.exceptions").MCPError(
                    _INVALID_PARAMS, "too many clients are subscribed: try again later"
                )
            self._connections[key] = (context.session, set())
            self._forget_with(connection, key)
        uris = self._connections[key][1]
        if uri not in uris and len(uris) >= MAX_PER_CONNECTION:
            raise sdk("mcp.shared.exceptions").MCPError(
                _INVALID_PARAMS, f"at most {MAX_PER_CONNECTION} subscriptions per connection"
            )
        uris.add(uri)
        return sdk("mcp.types").EmptyResult()

    async def unsubscribe(self, context: Any, params: Any) -> Any:
        held = self._connections.get(id(_connection(context)))
        if held is not None:
            held[1].discard(str(params.uri))
        return sdk("mcp.types").EmptyResult()

    def subscribed(self, context: Any) -> frozenset[str]:
        """The URIs the connection of ``context`` is subscribed to."""
        held = self._connections.get(id(_connection(context)))
        return frozenset(held[1]) if held is not None else frozenset()

    async def updated(self, uri: str) -> None:
        """Tell every client subscribed to ``uri`` that it changed."""
        for session, uris in list(self._connections.values()):
            if uri in uris:
                try:
                    await session.send_resource_updated(uri)
                except Exception:  # a connection closing under us: the others still hear
                    MCP.debug("resource update of %s not delivered", uri, exc_info=True)
        events = sdk("mcp.server.subscriptions")
        await self.bus.publish(events.ResourceUpdated(uri=uri))

    def _forget_with(self, connection: Any, key: int) -> None:
        stack = getattr(connection, "exit_stack", None)
        if stack is not None:
            stack.callback(lambda: self._connections.pop(key, None))


def _connection(context: Any) -> Any:
    """The SDK's per-client ``Connection`` behind a request (its session's)."""
    session = getattr(context, "session", None)
    return getattr(session, "_connection", session)
