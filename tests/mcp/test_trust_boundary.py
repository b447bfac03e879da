"""What the MCP server keeps on its own side: the DNS-rebinding check on every loopback
spelling, the token's audience, one URI segment per template parameter, the server's
values against the client's answers, and approval questions that show what will run."""

from __future__ import annotations

import time
import warnings
from typing import Annotated, Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp.server.auth.provider import AccessToken
from starlette.testclient import TestClient
from tests.mcp.production import Accounts, serving
from tests.mcp.scenario import initialize_request
from tests.mcp.test_asgi import session_calls, text

import llmapp.mcp
from llmapp.markers import Human, Pattern
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


# --- the server's values stay the server's: an elicitation answer fills only what was asked ---


class Wallet:
    """Pays from the caller's own account."""

    def __init__(self) -> None:
        self.paid: list[str] = []

    def pay(
        self,
        amount: int,
        user_id: Annotated[str, Human()],
        pin: Annotated[str, Human(), Pattern(r"^[0-9]{4}$")],
    ) -> str:
        """Pay an amount.

        Args:
            amount: how much.
            user_id: who pays (the server's, from the token).
            pin: the user's PIN (asked of the user).
        """
        self.paid.append(f"{user_id} {amount}")
        return f"{user_id} paid {amount}"


def alice(function: Any, context: Any) -> dict[str, str]:
    return {"user_id": "alice"}


def pay_with_answers(*answers: dict[str, Any], human: Any = alice) -> tuple[list[str], list[Any]]:
    """Each answer given to one ``pay`` call's form: what ran, and what each call answered."""
    pending = list(answers)
    asked: list[Any] = []

    async def elicitation(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.requested_schema)
        return types.ElicitResult(action="accept", content=pending.pop(0))

    wallet = Wallet()
    calls = [("pay", {"amount": 5})] * len(answers)
    with serving(llmapp.mcp.asgi(Wallet, wallet, human=human)) as base:
        results = anyio.run(
            lambda: session_calls(f"{base}/mcp", *calls, elicitation_callback=elicitation)
        )
    assert all(sorted(schema["properties"]) == ["pin"] for schema in asked)
    return wallet.paid, results


def test_an_answer_may_not_replace_what_the_hook_supplied() -> None:
    paid, results = pay_with_answers(
        {"pin": "1234", "user_id": "bob"},  # the hook's value, answered over
        {"pin": "1234", "amount": 900},  # the model's value, answered over
        {"pin": "1234", "is_admin": True},  # a key the function does not have
        {"pin": "1234"},
    )
    assert paid == ["alice 5"]
    for refused in results[:3]:
        assert refused.is_error
        assert text(refused) == (
            "pay could not run: the user's answer holds 1 field(s) that were not asked for."
        )
    assert not results[3].is_error and text(results[3]) == '"alice paid 5"'


def test_an_answer_is_checked_against_the_human_side_schema() -> None:
    paid, results = pay_with_answers({"pin": 1234}, {"pin": "12a4"}, {})
    assert paid == []
    wrong = 'pay could not run: the user\'s answer does not fit: $input.pin: string & Pattern<"^[0-9]{4}$">.'
    assert [text(result) for result in results] == [wrong, wrong, wrong]  # never the value


def test_a_hook_may_not_supply_the_model_s_values() -> None:
    def greedy(function: Any, context: Any) -> dict[str, Any]:
        return {"user_id": "alice", "pin": "1234", "amount": 1}

    wallet = Wallet()
    with serving(llmapp.mcp.asgi(Wallet, wallet, human=greedy)) as base:
        (result,) = anyio.run(lambda: session_calls(f"{base}/mcp", ("pay", {"amount": 5})))
    assert wallet.paid == [] and result.is_error
    assert text(result) == (
        "pay could not run: pay: the human-supplied arguments are wrong: "
        "the model's to give $input.amount"
    )


# --- the user approves what will run --------------------------------------------------------


class Transfers:
    """Moves money."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    @llmapp.controls(approval=True, decisive=("to", "amount"))
    def transfer(self, note: str, to: str, amount: int) -> str:
        """Move money."""
        self.sent.append(f"{amount} to {to}")
        return f"sent {amount} to {to}"


def test_the_approval_question_shows_the_decisive_arguments_first_and_marks_a_cut() -> None:
    asked: list[str] = []

    async def elicitation(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": True})

    note = "Monthly rent, as agreed with the landlord. " * 60
    arguments = {"note": note, "amount": 990000, "to": "IBAN-OF-ATTACKER"}
    transfers = Transfers()
    with serving(llmapp.mcp.asgi(Transfers, transfers)) as base:
        (result,) = anyio.run(
            lambda: session_calls(
                f"{base}/mcp", ("transfer", arguments), elicitation_callback=elicitation
            )
        )
    (question,) = asked
    lines = question.split("\n")
    assert lines[:3] == [
        "Approve the call of transfer?",
        'to: "IBAN-OF-ATTACKER"',
        "amount: 990000",
    ]
    assert lines[3].endswith(
        f"… [cut: {len(note) + 2 - 2_000:,} of {len(note) + 2:,} characters not shown]"
    )
    assert transfers.sent == ["990000 to IBAN-OF-ATTACKER"] and not result.is_error
