"""One HTTP exchange within the connection's bounds: the deadline, the body cap, redirects.

- The body is streamed and decoded chunk by chunk (``iter_bytes``: gzip, deflate and
  the other encodings undone), and the call fails once it passes ``Connection.max_body``,
  so a compressed bomb is stopped by what it expands to. httpx decodes one network read
  (64 KiB) at a time, so at most that read's expansion is held on top of the cap.
- ``Connection.deadline`` bounds the whole call, redirects included, not only each read:
  every step's httpx timeout is capped by the time left, and the body stops at the first
  chunk past it. The async twin wraps the exchange in ``anyio.fail_after``; the sync one
  runs it in a worker thread that the caller waits for until the deadline (a server
  dripping header bytes cannot hold the caller longer), the worker ending at its next
  chunk or step timeout, and sending no further hop. (A sync request whose connection
  was still being made at the deadline may still be written by the worker just after.)
- Redirects: httpx is asked never to follow them. When the client's ``follow_redirects``
  is set, llmapp follows them itself from ``response.next_request`` (httpx's own
  method, body and cookie rules), hop by hop, and a hop to another origin than the
  connection's goes without the connection's headers (and those set on its client).
  httpx alone drops only ``Authorization`` and ``Cookie``, so an ``X-Api-Key`` would
  follow the redirect; and an event hook on the caller's client would change a client
  that is not ours. The client's ``auth`` flow runs on the first hop only, as when httpx
  follows redirects itself: a later hop carries the ``Authorization`` header httpx keeps
  (same origin) or drops (another origin), and no credential the flow would add again.
"""

from __future__ import annotations

import contextvars
import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from llmapp._errors import ResponseError
from llmapp.http._connection import Connection

if TYPE_CHECKING:
    import httpx

__all__ = ["HttpResponse", "ResponseError", "asend", "send"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class HttpResponse:
    """What the server answered: status, headers and the decoded body.

    The body is JSON data for a JSON media type, text for ``text/*``, bytes otherwise,
    and ``None`` when empty.
    """

    status: int
    headers: dict[str, str]
    body: Any

    @property
    def success(self) -> bool:
        """A 2xx status."""
        return 200 <= self.status < 300


def send(connection: Connection, options: dict[str, Any]) -> HttpResponse:
    """Send one request (``httpx.Client``) and read its answer within the bounds."""
    httpx = _httpx()
    end = _end(connection)

    def exchange() -> HttpResponse:
        client = connection.client
        if client is not None:
            return _exchange(client, options, connection, end)
        timeout = connection.resolved_timeout()
        with httpx.Client(transport=connection.transport, timeout=timeout) as made:
            return _exchange(made, options, connection, end)

    return _within(exchange, connection.resolved_deadline())


async def asend(connection: Connection, options: dict[str, Any]) -> HttpResponse:
    """``send`` with an ``httpx.AsyncClient``."""
    import anyio  # an httpx dependency

    httpx = _httpx()
    end = _end(connection)
    try:
        with anyio.fail_after(connection.resolved_deadline()):
            client = connection.client
            if client is not None:
                return await _aexchange(client, options, connection, end)
            async with httpx.AsyncClient(
                transport=connection.transport, timeout=connection.resolved_timeout()
            ) as made:
                return await _aexchange(made, options, connection, end)
    except TimeoutError:
        raise _late_after(connection.resolved_deadline()) from None


def _exchange(
    client: httpx.Client, options: dict[str, Any], connection: Connection, end: float | None
) -> HttpResponse:
    request = client.build_request(**options, timeout=_capped(client.timeout, end))
    auth, added = _httpx().USE_CLIENT_DEFAULT, frozenset[str]()
    for _ in range(client.max_redirects + 1):
        _in_time(connection, end)
        built = frozenset(request.headers.keys())  # the auth flow changes the request itself
        response = client.send(request, auth=auth, stream=True, follow_redirects=False)
        if auth is not None:  # the client's auth runs on the first hop only, as in httpx
            auth, added = None, _added(built, response)
        try:
            following = _next(client, response, connection, added)
            if following is None:
                return _read(response, response.iter_bytes(), connection, end)
        finally:
            response.close()
        request = following
    raise _httpx().TooManyRedirects("Exceeded maximum allowed redirects.", request=request)


async def _aexchange(
    client: httpx.AsyncClient, options: dict[str, Any], connection: Connection, end: float | None
) -> HttpResponse:
    request = client.build_request(**options, timeout=_capped(client.timeout, end))
    auth, added = _httpx().USE_CLIENT_DEFAULT, frozenset[str]()
    for _ in range(client.max_redirects + 1):
        _in_time(connection, end)
        built = frozenset(request.headers.keys())  # the auth flow changes the request itself
        response = await client.send(request, auth=auth, stream=True, follow_redirects=False)
        if auth is not None:  # the client's auth runs on the first hop only, as in httpx
            auth, added = None, _added(built, response)
        try:
            following = _next(client, response, connection, added)
            if following is None:
                body = _Body(connection, end)
                async for chunk in response.aiter_bytes():
                    body.add(chunk)
                return _decoded(response, body.content())
        finally:
            await response.aclose()
        request = following
    raise _httpx().TooManyRedirects("Exceeded maximum allowed redirects.", request=request)


def _next(
    client: Any, response: httpx.Response, connection: Connection, added: frozenset[str]
) -> httpx.Request | None:
    """The next hop when the client follows redirects, without the connection's headers
    nor those the client's auth added (``added``) when it goes to another origin."""
    following = response.next_request
    if following is None or not client.follow_redirects:
        return None
    if _origin(following.url) != _origin(_httpx().URL(connection.host)):
        for name in (*connection.own_headers(), *added):
            following.headers.pop(name, None)
    return following


def _added(built: frozenset[str], response: httpx.Response) -> frozenset[str]:
    """The headers the client's auth flow (or its event hooks) put on the request sent
    (``built``: the names it had before)."""
    return frozenset(response.request.headers.keys()) - built


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


class _Body:
    """The decoded body, chunk by chunk, within the size cap and the deadline."""

    def __init__(self, connection: Connection, end: float | None) -> None:
        self.limit = connection.max_body
        self.deadline = connection.resolved_deadline()
        self.end = end
        self.chunks: list[bytes] = []
        self.size = 0

    def add(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.size > self.limit:
            raise ResponseError(
                f"the response body is larger than {self.limit:,} bytes once decoded "
                "(Connection.max_body); the rest was not read"
            )
        self.chunks.append(chunk)
        if self.end is not None and time.monotonic() > self.end:
            raise _late_after(self.deadline)

    def content(self) -> bytes:
        return b"".join(self.chunks)


def _read(
    response: httpx.Response, chunks: Iterable[bytes], connection: Connection, end: float | None
) -> HttpResponse:
    body = _Body(connection, end)
    for chunk in chunks:
        body.add(chunk)
    return _decoded(response, body.content())


def _decoded(response: httpx.Response, raw: bytes) -> HttpResponse:
    kind = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    body: Any
    if not raw:
        body = None
    elif kind == "application/json" or kind.endswith("+json"):
        try:
            body = json.loads(raw)
        except RecursionError:
            raise ResponseError("the JSON body is nested too deeply to read") from None
        except ValueError:
            body = _text(response, raw)
    elif kind.startswith("text/") or not kind:
        body = _text(response, raw)
    else:
        body = raw
    return HttpResponse(response.status_code, dict(response.headers), body)


def _text(response: httpx.Response, raw: bytes) -> str:
    encoding = response.charset_encoding or "utf-8"
    try:
        return raw.decode(encoding, errors="replace")
    except LookupError:  # a charset Python does not know
        return raw.decode("utf-8", errors="replace")


def _in_time(connection: Connection, end: float | None) -> None:
    """Nothing more is sent once the caller was told the call passed its deadline."""
    if end is not None and time.monotonic() > end:
        raise _late_after(connection.resolved_deadline())


def _end(connection: Connection) -> float | None:
    deadline = connection.resolved_deadline()
    return None if deadline is None else time.monotonic() + deadline


def _capped(timeout: Any, end: float | None) -> Any:
    """httpx's timeout for each step, none longer than the time left."""
    httpx = _httpx()
    steps = httpx.Timeout(timeout)
    if end is None:
        return steps
    left = max(end - time.monotonic(), 0.001)

    def cap(value: float | None) -> float:
        return left if value is None else min(value, left)

    return httpx.Timeout(
        connect=cap(steps.connect), read=cap(steps.read), write=cap(steps.write),
        pool=cap(steps.pool),
    )  # fmt: skip


def _within(work: Callable[[], T], deadline: float | None) -> T:
    """``work()``, given up on at the deadline (it runs in a worker thread, context copied)."""
    if deadline is None:
        return work()
    outcome: dict[str, Any] = {}
    done = threading.Event()
    context = contextvars.copy_context()

    def run() -> None:
        try:
            outcome["value"] = context.run(work)
        except BaseException as error:  # handed to the caller as it is
            outcome["error"] = error
        finally:
            done.set()

    threading.Thread(target=run, name="llmapp-http", daemon=True).start()
    if not done.wait(deadline):
        raise _late_after(deadline)
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value


def _late_after(deadline: float | None) -> Exception:
    late: Exception = _httpx().TimeoutException(
        f"the call did not finish within its deadline of {deadline:g} s (Connection.deadline)"
    )
    return late


def _httpx() -> Any:
    try:
        import httpx
    except ImportError as missing:  # pragma: no cover - httpx is in the http extra
        raise ImportError("llmapp.http needs httpx: pip install 'llmapp[http]'") from missing
    return httpx
