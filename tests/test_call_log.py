"""The call log (``llmapp.kernel._log``): one record per call on every door, at its outcome's level,
and nothing of the human side in any record: not in the message, not in the traceback, not
in an exception's message or its cause's."""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated, Any

import httpx
import pytest

import llmapp.http
from llmapp import application
from llmapp._errors import McpToolError
from llmapp.http import ArgumentError, Connection
from llmapp.kernel import CallResult
from llmapp.kernel._log import ROOT, log_call, log_to_stderr
from llmapp.markers import Human

CARD = "4111-SECRET-CARD-9876"
"""A human-side value: it must appear in no log record."""
TOKEN = "Bearer TOKEN-SECRET-5555"
"""A connection's secret (an HTTP header): the same."""


class Shop:
    def search(self, query: str, limit: int = 10) -> list[str]:
        """Search the catalogue."""
        return [query] * min(limit, 2)

    def pay(self, amount: float, card: Annotated[str, Human()]) -> str:
        """Pay with the customer's card."""
        try:
            raise ValueError(f"the bank refused {card}")
        except ValueError as cause:
            raise PermissionError(f"card {card} refused for {amount}") from cause

    def wipe(self, reason: str) -> str:
        """Wipe every account.

        @approval
        """
        return "wiped"


APP = application(Shop)


def llmapp_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    records = [record for record in caplog.records if record.name.startswith("llmapp")]
    for record in records:  # the rule: no human-side value anywhere a handler could write
        shown = logging.Formatter().format(record) + repr(record.__dict__)
        assert CARD not in shown and TOKEN not in shown and "TOKEN-SECRET" not in shown
    return records


def only(caplog: pytest.LogCaptureFixture, logger: str) -> logging.LogRecord:
    (record,) = [record for record in llmapp_records(caplog) if record.name == logger]
    return record


@pytest.fixture
def log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG, logger="llmapp")
    return caplog


# --- the class door ----------------------------------------------------------------------


def test_a_valid_call_is_a_debug_record_with_its_repairs(log: pytest.LogCaptureFixture) -> None:
    assert APP.execute(Shop(), "search", '{"query": "socks",}').success
    record = only(log, "llmapp.app")
    assert record.levelno == logging.DEBUG
    assert record.getMessage().startswith("call search: ok in ")
    assert record.getMessage().endswith(" ms, 1 repairs (removed a trailing comma)")
    assert (record.llmapp_function, record.llmapp_outcome) == ("search", "ok")
    assert record.llmapp_repairs == 1 and record.llmapp_ms >= 0
    assert "socks" not in record.getMessage()  # the model's values are not logged either


def test_wrong_arguments_are_an_info_record_counting_the_issues(
    log: pytest.LogCaptureFixture,
) -> None:
    result = APP.execute(Shop(), "search", '{"query": 1, "limit": "many", "sort": "price"}')
    assert not result.success
    record = only(log, "llmapp.app")
    assert record.levelno == logging.INFO
    assert "call search: invalid (3 issues) in " in record.getMessage()
    assert record.llmapp_outcome == "invalid" and record.llmapp_issues == 3
    assert "price" not in record.getMessage()


def test_an_unknown_function_and_an_approval_are_info_records(
    log: pytest.LogCaptureFixture,
) -> None:
    APP.execute(Shop(), "serach", "{}")
    waiting = APP.execute(Shop(), "wipe", '{"reason": "audit"}')
    assert waiting.approval is not None
    unknown, approval = llmapp_records(log)
    assert unknown.levelno == approval.levelno == logging.INFO
    assert unknown.getMessage().startswith("call serach: unknown function in ")
    assert approval.getMessage().startswith("call wipe: approval needed in ")


def test_a_name_from_the_model_cannot_forge_a_log_line(log: pytest.LogCaptureFixture) -> None:
    # An unknown name is the model's text: a newline in it would start a record of its own.
    APP.execute(Shop(), "serach\nCRITICAL llmapp.app call pay: ok \x1b[2K", "{}")
    (record,) = llmapp_records(log)
    assert "\n" not in record.getMessage() and "\x1b" not in record.getMessage()
    assert record.getMessage().startswith("call 'serach\\nCRITICAL llmapp.app call pay: ok ")
    assert record.llmapp_function == "'serach\\nCRITICAL llmapp.app call pay: ok \\x1b[2K'"


def test_a_method_error_is_a_warning_with_the_masked_traceback(
    log: pytest.LogCaptureFixture,
) -> None:
    result = APP.execute(Shop(), "pay", '{"amount": 3}', human={"card": CARD})
    assert result.error is not None and CARD in str(result.error)  # the caller's own object
    record = only(log, "llmapp.app")
    assert record.levelno == logging.WARNING and record.exc_info is None
    message = record.getMessage()
    assert message.startswith("call pay: error (PermissionError) in ")
    assert "Traceback (most recent call last)" in message
    assert "PermissionError: card *** refused for 3" in message
    assert "ValueError: the bank refused ***" in message  # the cause, masked too
    # The model is sent the bounded message: no traceback.
    assert "Traceback" not in result.message() and CARD not in result.message()


def test_an_error_raised_out_of_execute_is_logged_then_raised(
    log: pytest.LogCaptureFixture,
) -> None:
    with pytest.raises(PermissionError):
        APP.execute(Shop(), "pay", '{"amount": 3}', human={"card": CARD}, raise_errors=True)
    record = only(log, "llmapp.app")
    assert record.levelno == logging.WARNING
    assert "call pay: error (PermissionError)" in record.getMessage()
    assert "card *** refused" in record.getMessage()


def test_aexecute_logs_as_execute_does(log: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        await APP.aexecute(Shop(), "search", '{"query": "socks"}')
        await APP.aexecute(Shop(), "search", '{"query": 1}')
        await APP.aexecute(Shop(), "pay", '{"amount": 3}', human={"card": CARD})

    asyncio.run(main())
    ok, wrong, raised = llmapp_records(log)
    assert [r.levelno for r in (ok, wrong, raised)] == [
        logging.DEBUG,
        logging.INFO,
        logging.WARNING,
    ]
    assert [r.llmapp_outcome for r in (ok, wrong, raised)] == ["ok", "invalid", "error"]
    assert "card *** refused" in raised.getMessage()


def test_levels_decide_what_is_recorded(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="llmapp")
    APP.execute(Shop(), "search", '{"query": "socks"}')
    APP.execute(Shop(), "search", '{"query": 1}')
    APP.execute(Shop(), "pay", '{"amount": 3}', human={"card": CARD})
    (record,) = llmapp_records(caplog)
    assert record.llmapp_outcome == "error"


def test_the_library_leaves_output_to_the_application() -> None:
    assert any(isinstance(handler, logging.NullHandler) for handler in ROOT.handlers)
    assert logging.getLogger("llmapp.app").parent is ROOT


def test_a_record_is_not_built_when_nobody_listens(monkeypatch: pytest.MonkeyPatch) -> None:
    logger = logging.getLogger("llmapp.test-quiet")
    monkeypatch.setattr(logger, "disabled", True)
    monkeypatch.setattr(logging.Logger, "log", lambda *_, **__: pytest.fail("record built"))
    for result in (
        CallResult(name="f", success=True),
        CallResult(name="f", success=False, feedback="no"),
        CallResult(name="f", success=False, error=ValueError("x")),
    ):
        log_call(logger, result, 0.001)


def _maskers_built(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The arguments of every log masker the application builds from now on."""
    import llmapp.app._application as module

    built: list[Any] = []
    real = module._masker
    monkeypatch.setattr(module, "_masker", lambda *given: built.append(given) or real(*given))
    return built


def test_a_valid_call_builds_no_masker_unless_debug_listens(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A valid call's record is a DEBUG one without a traceback: neither door pays per call
    # for what would mask one (reading the context's own values), as nothing listens.
    built = _maskers_built(monkeypatch)
    caplog.set_level(logging.INFO, logger="llmapp")
    context = ("user-7",)
    assert APP.execute(Shop(), "search", '{"query": "socks"}', context=context).success
    assert asyncio.run(
        APP.aexecute(Shop(), "search", '{"query": "socks"}', context=context)
    ).success
    assert built == []
    asyncio.run(APP.aexecute(Shop(), "pay", '{"amount": 3}', human={"card": CARD}, context=context))
    assert built == [({"card": CARD}, context)]
    assert "card *** refused" in only(caplog, "llmapp.app").getMessage()


def test_a_refusal_builds_no_masker_unless_info_listens(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A refusal's record is an INFO one: with only warnings wanted, ``execute`` makes no
    # masker for it; a method's error still gets its masked WARNING record.
    built = _maskers_built(monkeypatch)
    caplog.set_level(logging.WARNING, logger="llmapp")
    assert not APP.execute(Shop(), "search", '{"query": 3}').success
    assert built == [] and llmapp_records(caplog) == []
    caplog.set_level(logging.INFO, logger="llmapp")
    assert not APP.execute(Shop(), "search", '{"query": 3}').success
    assert built == [(None, None)]
    assert only(caplog, "llmapp.app").getMessage().startswith("call search: invalid (1 issues)")
    caplog.clear()
    caplog.set_level(logging.WARNING, logger="llmapp")
    assert not APP.execute(Shop(), "pay", '{"amount": 3}', human={"card": CARD}).success
    assert built[-1] == ({"card": CARD}, None)
    assert "card *** refused" in only(caplog, "llmapp.app").getMessage()


def test_log_to_stderr_refuses_an_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown log level"):
        log_to_stderr("chatty")


# --- the HTTP door -----------------------------------------------------------------------

DOCUMENT = {
    "openapi": "3.1.0",
    "info": {"title": "bank", "version": "1"},
    "paths": {
        "/pay": {
            "post": {
                "operationId": "pay",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["amount", "card"],
                                "properties": {
                                    "amount": {"type": "number"},
                                    "card": {"type": "string", "format": "password"},
                                },
                            }
                        }
                    },
                },
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}
HTTP_APP = llmapp.http.application(
    DOCUMENT, separate=lambda schema: schema.get("format") == "password"
)


def bank(status: int) -> Connection:
    """A server that answers ``status``, echoing the request's body and headers."""

    def answer(request: httpx.Request) -> httpx.Response:
        if status == 0:
            raise httpx.ConnectError(f"lost {request.content.decode()} {request.headers}")
        echo = f"{request.content.decode()} {request.headers.get('authorization')}"
        return httpx.Response(status, json={"echo": echo})

    return Connection(
        "http://bank.test", headers={"authorization": TOKEN}, transport=httpx.MockTransport(answer)
    )


def test_the_http_door_logs_each_outcome(log: pytest.LogCaptureFixture) -> None:
    human = {"body": {"card": CARD}}
    assert HTTP_APP.function("pay_post").separated is not None
    assert HTTP_APP.execute(bank(200), "pay_post", '{"body": {"amount": 5}}', human).success
    assert not HTTP_APP.execute(
        bank(200), "pay_post", '{"body": {"amount": "five"}}', human
    ).success
    HTTP_APP.execute(bank(200), "refund", "{}", human)
    failed = HTTP_APP.execute(bank(500), "pay_post", '{"body": {"amount": 5}}', human)
    assert failed.error is not None and CARD not in failed.message()
    lost = HTTP_APP.execute(bank(0), "pay_post", '{"body": {"amount": 5}}', human)
    assert isinstance(lost.error, httpx.ConnectError)
    records = llmapp_records(log)
    assert {record.name for record in records} == {"llmapp.http"}
    assert [(r.levelno, r.llmapp_outcome) for r in records] == [
        (logging.DEBUG, "ok"),
        (logging.INFO, "invalid"),
        (logging.INFO, "unknown"),
        (logging.WARNING, "error"),
        (logging.WARNING, "error"),
    ]
    assert "call pay_post: error (HttpError)" in records[3].getMessage()
    assert '\\"card\\":\\"***\\"} ***' in records[3].getMessage()  # the echo, masked
    assert (
        "Traceback" in records[4].getMessage() and "ConnectError: lost " in records[4].getMessage()
    )


def test_the_http_free_functions_log_too(log: pytest.LogCaptureFixture) -> None:
    function = HTTP_APP.function("pay_post")
    human = {"body": {"card": CARD}}
    llmapp.http.execute(bank(200), function, '{"body": {"amount": 5}}', human=human)
    with pytest.raises(ArgumentError):
        llmapp.http.execute(bank(200), function, '{"body": {"amount": "five"}}', human=human)
    llmapp.http.propagate(bank(503), function, '{"body": {"amount": 5}}', human=human)
    with pytest.raises(httpx.ConnectError):
        llmapp.http.execute(bank(0), function, '{"body": {"amount": 5}}', human=human)
    records = llmapp_records(log)
    assert [(r.levelno, r.llmapp_outcome) for r in records] == [
        (logging.DEBUG, "ok"),
        (logging.INFO, "invalid"),
        (logging.WARNING, "error"),
        (logging.WARNING, "error"),
    ]


# --- the MCP door: the client side, and llmapp's server ----------------------------------


class Session:
    """An MCP session whose server echoes what it was sent, or fails."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "lost":
            raise ConnectionResetError(f"the server went away with {arguments}")
        text = f"refused {arguments}" if name == "refuse" else '"done"'
        return {"content": [{"type": "text", "text": text}], "isError": name == "refuse"}


def test_the_mcp_client_door_logs_each_outcome(log: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("anyio")
    import llmapp.mcp

    schema = {
        "type": "object",
        "required": ["amount", "card"],
        "properties": {
            "amount": {"type": "number"},
            "card": {"type": "string", "format": "password"},
        },
    }
    tools = llmapp.mcp.application(
        [{"name": name, "inputSchema": schema} for name in ("pay", "refuse", "lost")],
        separate=lambda s: s.get("format") == "password",
    )
    human = {"card": CARD}

    async def main() -> None:
        session = Session()
        assert (await tools.aexecute(session, "pay", '{"amount": 1}', human)).success
        await tools.aexecute(session, "pay", '{"amount": "one"}', human)
        await tools.aexecute(session, "pya", "{}", human)
        refused = await tools.aexecute(session, "refuse", '{"amount": 1}', human)
        assert isinstance(refused.error, McpToolError)
        with pytest.raises(ConnectionResetError):
            await tools.aexecute(session, "lost", '{"amount": 1}', human)

    asyncio.run(main())
    records = llmapp_records(log)
    assert {record.name for record in records} == {"llmapp.mcp"}
    assert [(r.levelno, r.llmapp_outcome) for r in records] == [
        (logging.DEBUG, "ok"),
        (logging.INFO, "invalid"),
        (logging.INFO, "unknown"),
        (logging.WARNING, "error"),
        (logging.WARNING, "error"),
    ]
    assert "McpToolError: refused {'amount': 1, 'card': '***'}" in records[3].getMessage()
    assert "ConnectionResetError: the server went away with" in records[4].getMessage()


def test_the_mcp_server_logs_each_call_once(log: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")
    import anyio
    import mcp.types as types
    from mcp import Client

    import llmapp.mcp

    served = llmapp.mcp.server(Shop, Shop(), human=lambda function, context: {"card": CARD})

    async def main() -> list[types.CallToolResult]:
        async with Client(served) as client:
            return [
                await client.call_tool("search", {"query": "socks"}),
                await client.call_tool("search", {"query": 1}),
                await client.call_tool("pay", {"amount": 3}),
            ]

    ok, wrong, raised = anyio.run(main)
    assert not ok.is_error and wrong.is_error and raised.is_error
    sent = "\n".join(b.text for b in raised.content if isinstance(b, types.TextContent))
    assert "Traceback" not in sent and CARD not in sent
    records = llmapp_records(log)
    assert {record.name for record in records} == {"llmapp.mcp"}  # not also llmapp.app
    assert [(r.levelno, r.llmapp_outcome) for r in records] == [
        (logging.DEBUG, "ok"),
        (logging.INFO, "invalid"),
        (logging.WARNING, "error"),
    ]
    assert "PermissionError: card *** refused for 3" in records[2].getMessage()


def test_the_mcp_command_line_shows_failures_by_default() -> None:
    from llmapp._cli import _parser

    options = _parser().parse_args(["mcp", "tests/mcp/production.py:Accounts"])
    assert options.log_level == "info"  # the startup line and failures; successes are DEBUG
