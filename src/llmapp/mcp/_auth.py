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

Without auth, ``check_bind`` refuses a host other than this machine's loopback unless
the caller says ``allow_unauthenticated=True``.
"""

from __future__ import annotations

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

__all__ = ["Auth", "StaticTokens", "check_bind", "identity"]


@dataclass(frozen=True)
class Auth:
    """Bearer-token authentication of the HTTP server, as an OAuth resource server.

    Args:
        verifier: checks a bearer token and returns its ``AccessToken`` (or ``None``
            for a token it refuses): any object with the SDK's ``TokenVerifier``
            protocol, e.g. ``StaticTokens``.
        issuer_url: the authorization server that issues the tokens (advertised in
            the protected-resource metadata the SDK serves).
        resource_server_url: this server's public URL (default: none advertised).
        required_scopes: scopes every token must hold.

    Example::

        auth = Auth(StaticTokens({os.environ["MCP_TOKEN"]: "ops-bot"}))
        serve(app, target, "streamable-http", host="0.0.0.0", auth=auth)
    """

    verifier: TokenVerifier
    issuer_url: str = "https://auth.invalid/"
    resource_server_url: str | None = None
    required_scopes: tuple[str, ...] = ()

    def settings(self) -> AuthSettings:
        """The SDK's ``AuthSettings`` for these choices."""
        settings = sdk("mcp.server.auth.settings")
        built: AuthSettings = settings.AuthSettings(
            issuer_url=self.issuer_url,
            resource_server_url=self.resource_server_url,
            required_scopes=list(self.required_scopes) or None,
            validate_token_resource=False if self.resource_server_url else None,
        )
        return built


class StaticTokens:
    """A ``TokenVerifier`` for a fixed set of bearer tokens, each naming who holds it.

    Args:
        tokens: token → the client's identity (``AccessToken.client_id`` and
            ``subject``).
        scopes: the scopes every token grants.
    """

    def __init__(self, tokens: Mapping[str, str], scopes: tuple[str, ...] = ()) -> None:
        if not tokens or any(not isinstance(t, str) or len(t) < 16 for t in tokens):
            raise ValueError("each token must be a text of at least 16 characters")
        self._tokens = [(token.encode(), client) for token, client in tokens.items()]
        self._scopes = list(scopes)

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
            token=token, client_id=holder, subject=holder, scopes=self._scopes
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


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
