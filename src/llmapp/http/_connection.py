"""Where and how HTTP requests are sent, checked when made, and the secrets it holds.

A ``Connection`` refuses, when it is made, what would otherwise fail at every call with
the value in the error text: a header name that is not a token, a header value with a
newline or another control character (a token read from a file keeps its final
newline) or a character outside ASCII, a query key or value with a control character
or a lone surrogate, a host that is not an ``http``/``https`` URL. Each ``ValueError``
names the header or key, never its value.
"""

from __future__ import annotations

import base64
import contextlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import parse_qsl, unquote, urlsplit

from llmapp._limits import MAX_BODY
from llmapp._text.unicode import has_surrogates
from llmapp.jsonschema import MISSING
from llmapp.kernel import MAX_MESSAGE

__all__ = ["DEADLINE", "MAX_BODY", "MAX_MESSAGE", "Connection"]

DEADLINE: Final = 60.0
"""Seconds a call may take in all (connecting, sending, every redirect, reading), by default."""
DEFAULT_TIMEOUT: Final = 30.0

_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEADER_TEXT = re.compile(r"[\t\x20-\x7e]*")
_HEADER_BYTES = re.compile(rb"[\t\x20-\x7e\x80-\xff]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_HTTPX_OWN = frozenset({"accept", "accept-encoding", "connection", "user-agent"})
"""The headers every httpx client sends of itself: no secret in them."""


@dataclass(frozen=True, slots=True)
class Connection:
    """Where and how requests are sent.

    Attributes:
        host: the server's base URL (``https://api.example.com/v1``); every request goes
            to its scheme, host and port, the operation's path appended to its path.
        headers: sent with every request: authentication, tenant ids, and the header
            parameters the document declares (never asked of the model). Dropped from a
            redirect to another origin.
        query: query parameters sent with every request (an API key, say); the model's
            keys of the same name are dropped.
        client: an ``httpx.Client`` (for ``execute``/``propagate``) or
            ``httpx.AsyncClient`` (for the async twins) to send with; not closed. Its
            ``follow_redirects`` is honoured, hop by hop, by llmapp itself.
        transport: an httpx transport for the client made per call when ``client``
            is not given (``httpx.MockTransport``, ``httpx.ASGITransport``...).
        timeout: httpx's timeout for each step (connect, each read...), or ``None`` for
            none; not given: 30 seconds.
        deadline: seconds the whole call may take, redirects and the body included, or
            ``None`` for no bound; not given: ``timeout`` when that is a number (so
            ``timeout=5`` bounds the whole call at 5 s), else 60 seconds.
        max_body: most bytes of the decoded response body read (a compressed body is
            bounded by what it expands to): 4 MiB by default. A larger body fails the call.
        max_message: most characters of a response body shown to the model (the
            ``CallResult``'s ``data``; ``value`` keeps all of it): 50,000 by default.

    Raises:
        ValueError: a header, query key or value that cannot be sent as it is (the
            message names it, never its value), a host that is not an HTTP URL, or a
            bound that is not positive.

    Example::

        connection = Connection("https://api.example.com", headers={"Authorization": key})
    """

    host: str
    headers: Mapping[str, Any] = field(default_factory=dict)
    query: Mapping[str, Any] = field(default_factory=dict)
    client: Any = None
    transport: Any = None
    timeout: Any = MISSING
    deadline: Any = MISSING
    max_body: int = MAX_BODY
    max_message: int = MAX_MESSAGE

    def __post_init__(self) -> None:
        _check_host(self.host)
        for name, value in self.headers.items():
            _check_header(name, value)
        for key, value in self.query.items():
            _check_query(key, value)
        deadline = self.resolved_deadline()
        if deadline is not None and not (isinstance(deadline, (int, float)) and deadline > 0):
            raise ValueError("Connection.deadline must be a positive number of seconds or None")
        for bound in ("max_body", "max_message"):
            if not (isinstance(getattr(self, bound), int) and getattr(self, bound) > 0):
                raise ValueError(f"Connection.{bound} must be a positive integer")

    def own_headers(self) -> dict[str, Any]:
        """The headers this connection adds: its ``headers``, and those set on its client
        beyond httpx's defaults (an ``X-Api-Key`` given to ``httpx.Client(headers=...)``)."""
        client_headers: Any = getattr(self.client, "headers", None)
        added: dict[str, Any] = {}
        with contextlib.suppress(Exception):  # a client of another kind: none
            added = {k: v for k, v in client_headers.items() if k.lower() not in _HTTPX_OWN}
        return {**added, **self.headers}

    def secrets(self) -> dict[str, Any]:
        """The connection's values that must never reach the model, as the masker reads them.

        Whatever the connection sends of its own, from wherever it came: header
        (``own_headers``), query and cookie values (the client's ``params`` and cookies
        too), the query and the user and password written in the host (and the ``Basic``
        credential httpx builds from them), the client's ``auth`` (its attributes, and
        the user and password inside a ``Basic`` header it sends); a credential after
        its scheme (``Bearer``) on its own too.
        """
        values: list[Any] = []
        for value in [*self.own_headers().values(), *self.query.values(), *self._params()]:
            text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
            values.extend(_credential_forms(text))
        jar = getattr(getattr(self.client, "cookies", None), "jar", ())
        with contextlib.suppress(Exception):  # a client of another kind: no cookies to add
            values.extend(str(cookie.value) for cookie in jar)
        values.extend(_host_secrets(self.host))
        auth = getattr(self.client, "auth", None)
        if auth is not None:
            values.append(auth)  # the masker reads its attributes (a DigestAuth's password)
            header = getattr(auth, "_auth_header", None)  # httpx.BasicAuth keeps only this
            if isinstance(header, str):
                values.extend(_credential_forms(header))
        return {"connection": values}

    def _params(self) -> list[Any]:
        """The values of the client's own ``params``, sent with every request."""
        params: Any = getattr(self.client, "params", None)
        with contextlib.suppress(Exception):  # a client of another kind: none
            return [value for _, value in params.multi_items()]
        return []

    def resolved_deadline(self) -> float | None:
        """Seconds the whole call may take, or None."""
        if self.deadline is not MISSING:
            return self.deadline  # type: ignore[no-any-return]
        if self.timeout is None:
            return None
        if isinstance(self.timeout, (int, float)) and not isinstance(self.timeout, bool):
            return float(self.timeout)
        return DEADLINE

    def resolved_timeout(self) -> Any:
        """httpx's timeout for each step of a request."""
        return DEFAULT_TIMEOUT if self.timeout is MISSING else self.timeout


def _credential_forms(text: str) -> list[Any]:
    """A header or query value, the credential after its scheme, and for ``Basic`` the
    user and password it encodes (a server may echo them decoded)."""
    forms: list[Any] = [text]
    scheme, _, credential = text.partition(" ")
    credential = credential.strip()
    if not credential:
        return forms
    forms.append(credential)
    if scheme.lower() == "basic":
        with contextlib.suppress(ValueError):  # not base64: the credential as written
            pair = base64.b64decode(credential, validate=True).decode("latin-1")
            user, _, password = pair.partition(":")
            forms.extend(form for form in (pair, user, password) if form)
    return forms


def _host_secrets(host: str) -> list[Any]:
    """What the host itself carries: its query values, and its user and password as
    written, decoded, and as the pair httpx sends in a ``Basic`` header (the masker
    adds its base64; the pair's Latin-1 bytes are given too, for a server that reads
    it so)."""
    parts = urlsplit(host)
    found: list[Any] = [value for _, value in parse_qsl(parts.query, keep_blank_values=True)]
    user, password = parts.username or "", parts.password or ""
    for text in (user, password):
        found.extend((text, unquote(text)))
    if user or password:
        pair = f"{unquote(user)}:{unquote(password)}"
        found.append(pair)
        with contextlib.suppress(UnicodeEncodeError):
            found.append(pair.encode("latin-1"))
    return [value for value in found if value]


def _check_host(host: Any) -> None:
    if not isinstance(host, str):
        raise ValueError("Connection.host must be a URL string")
    try:
        parts = urlsplit(host)
        parts.port  # noqa: B018 - reading it checks it
    except ValueError as error:
        raise ValueError(f"Connection.host is not a URL: {error}") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError("Connection.host must be an http:// or https:// URL with a host")
    if _CONTROL.search(host) or has_surrogates(host) or " " in host:
        raise ValueError("Connection.host has a space, a control character or a lone surrogate")
    try:
        import httpx
    except ImportError:  # pragma: no cover - checked again when a call is sent
        return
    try:
        _ = httpx.URL(host).host  # reading it decodes an IDNA name
    except Exception as error:  # httpx.InvalidURL, or idna's error for a bad A-label
        raise ValueError(f"Connection.host is not a URL httpx can send to: {error}") from None


def _check_header(name: Any, value: Any) -> None:
    if not isinstance(name, str) or not _TOKEN.fullmatch(name):
        raise ValueError(
            f"Connection.headers: {_shown(name)} is not a header name (letters, digits and "
            "!#$%&'*+-.^_`|~ only)"
        )
    where = f"Connection.headers[{name!r}]"
    if isinstance(value, bytes):
        if not _HEADER_BYTES.fullmatch(value):
            raise ValueError(f"{where}: the value has a newline or another control character")
        return
    if not isinstance(value, str):
        raise ValueError(f"{where}: the value must be a str or bytes")
    if _CONTROL.search(value.replace("\t", " ")):
        raise ValueError(
            f"{where}: the value has a newline or another control character (a token read "
            "from a file keeps its final newline: strip it)"
        )
    if not _HEADER_TEXT.fullmatch(value):
        raise ValueError(
            f"{where}: the value has a character outside ASCII (header values are sent as "
            "ASCII; give bytes for another encoding)"
        )
    if value != value.strip():
        raise ValueError(f"{where}: the value starts or ends with whitespace: strip it")


def _check_query(key: Any, value: Any) -> None:
    if not isinstance(key, str) or not key:
        raise ValueError(f"Connection.query: {_shown(key)} is not a query key")
    for text, what in ((key, "the key"), (value, "the value")):
        if isinstance(text, str) and (_CONTROL.search(text) or has_surrogates(text)):
            raise ValueError(
                f"Connection.query[{key[:64]!r}]: {what} has a control character or a "
                "lone surrogate (a key read from a file keeps its final newline: strip it)"
            )


def _shown(name: Any) -> str:
    """A header name or query key for an error message (names are not secrets; values are)."""
    return repr(name[:64]) if isinstance(name, str) else f"a {type(name).__name__}"
