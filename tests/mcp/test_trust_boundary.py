"""What the MCP server keeps on its own side: the DNS-rebinding check on every loopback
spelling, the token's audience, one URI segment per template parameter, the server's
values against the client's answers, and approval questions that show what will run."""

from __future__ import annotations

import time
import warnings
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

from mcp.server.auth.provider import AccessToken
from starlette.testclient import TestClient
from tests.mcp.production import Accounts
from tests.mcp.scenario import initialize_request

import llmapp.mcp
from llmapp.mcp import Auth, StaticTokens
from llmapp.mcp._auth import rebinding_check

HEADERS = {"accept": "application/json, text/event-stream"}


def statuses(app: Any, *asks: tuple[str, dict[str, str]]) -> list[int]:
    """The status of each ``(base URL, headers)`` initialize request, one app run for all."""
    with TestClient(app) as client:
        return [
            client.post(
                f"{base}/mcp", json=initialize_request(), headers={**HEADERS, **headers}
            ).status_code
            for base, headers in asks
        ]


# --- every loopback spelling gets the SDK's DNS-rebinding check ---------------------------


@pytest.mark.parametrize(
    ("host", "own"),
    [
        ("127.0.0.1", "http://127.0.0.1:8000"),
        ("localhost", "http://localhost:8000"),
        ("127.0.0.2", "http://127.0.0.2:8000"),
        ("127.1.2.3", "http://127.1.2.3:8000"),
        ("::1", "http://[::1]:8000"),
        ("[::1]", "http://[::1]:8000"),
        ("0:0:0:0:0:0:0:1", "http://[0:0:0:0:0:0:0:1]:8000"),
    ],
)
def test_a_loopback_host_in_any_spelling_refuses_a_rebound_host_header(host: str, own: str) -> None:
    app = llmapp.mcp.asgi(Accounts, Accounts(), host=host, stateless=True)
    rebound, foreign_origin, own_host = statuses(
        app,
        ("http://attacker.example:8000", {}),
        (own, {"origin": "http://attacker.example:8000"}),
        (own, {}),
    )
    assert (rebound, foreign_origin, own_host) == (421, 403, 200)


def test_the_check_is_the_sdk_s_own_and_only_for_loopback() -> None:
    settings = rebinding_check("127.0.0.2")
    assert settings is not None and settings.enable_dns_rebinding_protection
    assert "127.0.0.2:*" in settings.allowed_hosts and "[::1]:*" in settings.allowed_hosts
    assert rebinding_check("0.0.0.0") is None and rebinding_check("example.com") is None
    assert rebinding_check("127.1") is None  # not an address ipaddress reads: not loopback
    with pytest.raises(ValueError, match="without authentication"):
        llmapp.mcp.asgi(Accounts, Accounts(), host="127.1")


# --- the token's audience -----------------------------------------------------------------

HERE = "http://127.0.0.1:8000/mcp"


class Issuer:
    """An authorization server's verifier: reports the resource each token was issued for."""

    async def verify_token(self, token: str) -> AccessToken | None:
        resource = {
            "token-for-this-server-0001": HERE,
            "token-for-calendar-0001": "https://cal.example/mcp",
        }
        if token not in resource:
            return None
        return AccessToken(
            token=token,
            client_id="c",
            scopes=[],
            expires_at=int(time.time()) + 600,
            resource=resource[token],
        )


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_token_issued_for_another_resource_is_refused() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the SDK's warning that nothing is checked: not raised
        auth = Auth(Issuer(), resource_server_url=HERE)
        app = llmapp.mcp.asgi(Accounts, Accounts(), auth=auth, stateless=True)
    assert auth.settings().validate_token_resource is True
    base = "http://127.0.0.1:8000"
    assert statuses(
        app, (base, bearer("token-for-calendar-0001")), (base, bearer("token-for-this-server-0001"))
    ) == [401, 200]


def test_the_audience_check_is_off_only_when_said() -> None:
    auth = Auth(Issuer(), resource_server_url=HERE, check_audience=False)
    assert auth.settings().validate_token_resource is False
    app = llmapp.mcp.asgi(Accounts, Accounts(), auth=auth, stateless=True)
    assert statuses(app, ("http://127.0.0.1:8000", bearer("token-for-calendar-0001"))) == [200]
    assert Auth(Issuer()).settings().validate_token_resource is None  # nothing to check against


def test_static_tokens_are_issued_for_the_server_that_names_its_url() -> None:
    auth = Auth(StaticTokens({"token-of-ada-0123456789": "ada"}), resource_server_url=HERE)
    assert isinstance(auth.verifier, StaticTokens) and auth.verifier.resource == HERE
    app = llmapp.mcp.asgi(Accounts, Accounts(), auth=auth, stateless=True)
    base = "http://127.0.0.1:8000"
    assert statuses(
        app, (base, bearer("token-of-ada-0123456789")), (base, bearer("token-of-bob-0123456789"))
    ) == [200, 401]


# --- a template parameter is one segment --------------------------------------------------


class Docs:
    """A folder of documents."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    def doc(self, name: str) -> str:
        """One document of the folder.

        @tag resource files://docs/{name}
        """
        self.opened.append(name)
        return f"docs/{name}"


@pytest.mark.parametrize(
    "uri",
    [
        "files://docs/..%2F..%2Fetc%2Fpasswd",
        "files://docs/a%2fb",
        "files://docs/..%5Cwindows",
        "files://docs/x%00y",
        "files://docs/line%0Abreak",
        "files://docs/del%7F",
        "files://docs/c1%C2%85",
        "files://docs/..",
        "files://docs/%2E%2E",
        "files://docs/.",
    ],
)
def test_a_value_that_decodes_past_one_segment_is_refused(uri: str) -> None:
    from mcp import Client
    from mcp.shared.exceptions import MCPError

    docs = Docs()

    async def main() -> None:
        async with Client(llmapp.mcp.server(llmapp.application(Docs), docs)) as client:
            with pytest.raises(MCPError, match="name is not one path segment"):
                await client.session.read_resource(uri)

    anyio.run(main)
    assert docs.opened == []


def test_a_decoded_segment_is_handed_over_decoded() -> None:
    from mcp import Client

    docs = Docs()

    async def main() -> list[str]:
        async with Client(llmapp.mcp.server(llmapp.application(Docs), docs)) as client:
            read = [
                await client.session.read_resource(uri)
                for uri in (
                    "files://docs/read%20me.md",
                    "files://docs/a..b",
                    "files://docs/%C3%A9t%C3%A9",
                )
            ]
            return [result.contents[0].text for result in read]

    assert anyio.run(main) == ["docs/read me.md", "docs/a..b", "docs/été"]
