"""Bearer tokens in front of the HTTP server, through the MCP SDK's own auth machinery.

``Auth`` holds what the SDK's ``streamable_http_app`` needs as an OAuth resource
server: a ``TokenVerifier`` (the SDK's protocol: your JWT check or token
introspection) and its ``AuthSettings`` (issuer, this server's URL, required
scopes). The SDK's bearer middleware refuses a missing or wrong token with 401
before any MCP message is read. ``StaticTokens`` is a verifier for a fixed set of
tokens (a deployment secret per client), compared in constant time.

The verified ``AccessToken`` reaches each call: ``identity(context)`` in a human hook
gives it, so a user's identity supplies human-side values (``user_id`` from the token,
never from the model).

With ``resource_server_url``, a token is accepted only when the verifier reports it was
issued for this very server (``AccessToken.resource``, the RFC 8707 resource indicator):
the SDK's own audience check, so a token another service's clients hold (issued by the
same authorization server, for that service) opens nothing here. ``StaticTokens`` are
this server's own secrets: issued for it by construction.

Without auth, ``check_bind`` refuses a host other than this machine's loopback unless
the caller says ``allow_unauthenticated=True``; a loopback host is served only behind
the SDK's DNS-rebinding check (``rebinding_check``), whatever its spelling.
"""

from __future__ import annotations

import copy
import functools
import hmac
import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from llmapp.mcp._sdk import sdk

if TYPE_CHECKING:
    from mcp.server.auth.provider import AccessToken, TokenVerifier
    from mcp.server.auth.settings import AuthSettings
    from mcp.server.transport_security import TransportSecuritySettings

__all__ = ["Auth", "StaticTokens", "check_bind", "identity", "rebinding_check"]


@dataclass(frozen=True, slots=True)
class Auth:
    """Bearer-token authentication of the HTTP server, as an OAuth resource server.

    Args:
        verifier: checks a bearer token and returns its ``AccessToken`` (or ``None``
            for a token it refuses): any object with the SDK's ``TokenVerifier``
            protocol, e.g. ``StaticTokens``.
        issuer_url: the authorization server that issues the tokens (advertised in
            the protected-resource metadata the SDK serves).
        resource_server_url: this server's public URL (default: none advertised). Given,
            a token the verifier reports as issued for another resource
            (``AccessToken.resource``) is refused with 401.
        required_scopes: scopes every token must hold.
        check_audience: refuse tokens issued for another resource (the SDK's
            ``validate_token_resource``); ``False`` only when the verifier checks the
            token's audience itself.

    Example::

        auth = Auth(StaticTokens({os.environ["MCP_TOKEN"]: "ops-bot"}))
        serve(app, target, "streamable-http", host="0.0.0.0", auth=auth)
    """

    verifier: TokenVerifier
    issuer_url: str = "https://auth.invalid/"
    resource_server_url: str | None = None
    required_scopes: tuple[str, ...] = ()
    check_audience: bool = True

    def __post_init__(self) -> None:
        verifier = self.verifier
        if self.resource_server_url and isinstance(verifier, StaticTokens):
            object.__setattr__(self, "verifier", verifier.issued_for(self.resource_server_url))

    def settings(self) -> AuthSettings:
        """The SDK's ``AuthSettings`` for these choices."""
        settings = sdk("mcp.server.auth.settings")
        # Stated either way when there is a resource to check against: left unset, the SDK
        # warns and accepts a token issued for any resource.
        audience = self.check_audience if self.resource_server_url else None
        built: AuthSettings = settings.AuthSettings(
            issuer_url=self.issuer_url,
            resource_server_url=self.resource_server_url,
            required_scopes=list(self.required_scopes) or None,
            validate_token_resource=audience,
        )
        return built


class StaticTokens:
    """A ``TokenVerifier`` for a fixed set of bearer tokens, each naming who holds it.

    Args:
        tokens: token → the client's identity (``AccessToken.client_id`` and
            ``subject``).
        scopes: the scopes every token grants.
        resource: the resource the tokens are issued for (``AccessToken.resource``);
            ``Auth`` sets its ``resource_server_url``.
    """

    def __init__(
        self, tokens: Mapping[str, str], scopes: tuple[str, ...] = (), resource: str | None = None
    ) -> None:
        if not tokens or any(not isinstance(t, str) or len(t) < 16 for t in tokens):
            raise ValueError("each token must be a text of at least 16 characters")
        self._tokens = [(token.encode(), client) for token, client in tokens.items()]
        self._scopes = list(scopes)
        self.resource = resource

    def issued_for(self, resource: str) -> StaticTokens:
        """The same tokens, reported as issued for ``resource`` (unless they name one)."""
        if self.resource is not None:
            return self
        bound = copy.copy(self)
        bound.resource = resource
        return bound

    async def verify_token(self, token: str) -> AccessToken | None:
        given = token.encode("utf-8", "replace")
        holder = None
        for known, client in self._tokens:  # every comparison runs: no timing of which matched
            if hmac.compare_digest(given, known):
                holder = client
        if holder is None:
            return None
        provider = sdk("mcp.server.auth.provider")
        access: AccessToken = provider.AccessToken(
            token=token,
            client_id=holder,
            subject=holder,
            scopes=self._scopes,
            resource=self.resource,
        )
        return access


def identity(context: Any) -> AccessToken | None:
    """The verified ``AccessToken`` of the request a call came in (``None`` without auth).

    Args:
        context: the ``ServerRequestContext`` a human hook receives.
    """
    request = getattr(context, "request", None)
    scope = getattr(request, "scope", None)
    user = scope.get("user") if isinstance(scope, Mapping) else None
    token = getattr(user, "access_token", None)
    if token is not None:
        found: AccessToken = token
        return found
    current: AccessToken | None = _auth_context().get_access_token()
    return current


@functools.cache
def _auth_context() -> Any:
    """The SDK's module that holds the token of the request being served."""
    return sdk("mcp.server.auth.middleware.auth_context")


def check_bind(host: str, auth: Auth | None, allow_unauthenticated: bool) -> None:
    """Refuse to listen beyond this machine without authentication, unless told to.

    Raises:
        ValueError: ``host`` is not a loopback address, no ``auth`` is given and
            ``allow_unauthenticated`` is false.
    """
    if auth is not None or allow_unauthenticated or _loopback(host):
        return
    raise ValueError(
        f"refusing to serve on {host!r} without authentication: anyone who can reach it "
        "could call every tool. Give auth=Auth(...) (--token-env on the command line), "
        "or say allow_unauthenticated=True (--allow-unauthenticated) if a proxy in front checks."
    )


_SDK_LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
"""The loopback spellings the SDK checks Host and Origin for by itself."""


def rebinding_check(host: str) -> TransportSecuritySettings | None:
    """The SDK's DNS-rebinding check for a loopback ``host`` in any spelling; ``None`` for another.

    The SDK turns its Host/Origin check on by itself only for three spellings of loopback;
    ``127.0.0.2`` or ``[::1]`` would be served without it, and a web page whose name is
    rebound to that address could call every tool. These are the SDK's own settings for
    those three, with the host's spelling added.
    """
    spelling = _header_spelling(host)
    if spelling is None:
        return None
    names = dict.fromkeys([*_SDK_LOOPBACK, *spelling])
    security = sdk("mcp.server.transport_security")
    settings: TransportSecuritySettings = security.TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:*" for name in names],
        allowed_origins=[f"http://{name}:*" for name in names],
    )
    return settings


def _header_spelling(host: str) -> tuple[str, ...] | None:
    """How a ``Host`` header names the loopback ``host`` (as given, and as its address
    prints), or ``None`` when ``host`` is not loopback."""
    if host == "localhost":
        return (host,)
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None
    if not address.is_loopback:
        return None
    if address.version == 6:
        return (f"[{host.strip('[]')}]", f"[{address.compressed}]")
    return (host, str(address))


def _loopback(host: str) -> bool:
    return _header_spelling(host) is not None
