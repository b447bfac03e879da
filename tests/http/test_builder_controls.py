"""``llmapp.http.application(controls=)``: an OpenAPI document's functions get the class
door's controls from the builder, against the FastAPI/uvicorn server on 127.0.0.1: a DELETE
waits for approval and nothing is sent until ``approved=True``, a disabled operation is
neither listed nor called, and served over MCP (``llmapp.mcp.server``) the same holds."""

from __future__ import annotations

import logging
import time
from typing import Any

import anyio
import httpx
import pytest
from tests.http.conftest import Server

import llmapp
import llmapp.http
from llmapp import CallContext, Controls


class User:
    def __init__(self, admin: bool) -> None:
        self.admin = admin


def _admins(context: CallContext) -> bool:
    user = context.get(User)
    return user is not None and user.admin


def _rule(function: Any) -> Controls | None:
    """One rule for the whole document: every DELETE waits, the PUT is for admins."""
    if function.method == "delete":
        return Controls(approval=True)
    if function.method == "put":
        return Controls(enabled=_admins)
    return None


def _document(server: Server) -> dict[str, Any]:
    document: dict[str, Any] = httpx.get(f"{server.url}/openapi.json").json()
    return document


def test_a_delete_waits_for_approval_and_nothing_is_sent_until_approved(server: Server) -> None:
    app = llmapp.http.application(_document(server), controls=_rule)
    connection = llmapp.http.Connection(server.url)
    assert app.errors == []
    assert app.require("items_eraseByItem_id").to_dict()["approval"] == "always"

    before = server.seen.count
    waiting = app.execute(connection, "items_eraseByItem_id", '{"item_id": 7}')
    assert waiting.approval is not None and waiting.approval.arguments == {"item_id": 7}
    assert waiting.approval.question == "Approve the call of items_eraseByItem_id?\nitem_id: 7"
    assert server.seen.count == before  # nothing sent

    done = app.execute(connection, "items_eraseByItem_id", '{"item_id": 7}', approved=True)
    assert done.success and done.data == {"deleted": 7}
    assert server.seen.count == before + 1 and server.seen.paths[-1] == "/items/7"

    listed = app.execute(connection, "items_get", "{}")  # what no rule names runs as before
    assert listed.success and server.seen.count == before + 2


def test_a_disabled_operation_is_neither_listed_nor_called(server: Server) -> None:
    app = llmapp.http.application(
        _document(server), controls={"items_putByItem_id": Controls(enabled=_admins)}
    )
    connection = llmapp.http.Connection(server.url)
    arguments = '{"item_id": 1, "body": {"name": "socks", "price": 2}}'
    assert "items_putByItem_id" not in [f.name for f in app.visible(User(admin=False))]
    assert "items_putByItem_id" in [f.name for f in app.visible(User(admin=True))]

    before = server.seen.count
    refused = anyio.run(
        lambda: app.aexecute(connection, "items_putByItem_id", arguments, context=User(False))
    )
    assert not refused.success and "no function named 'items_putByItem_id'" in refused.message()
    assert server.seen.count == before

    done = app.execute(connection, "items_putByItem_id", arguments, context=User(admin=True))
    assert done.success and done.data["id"] == 1 and server.seen.count == before + 1


def test_a_name_that_is_no_function_is_a_build_error_with_the_others(server: Server) -> None:
    app = llmapp.http.application(
        _document(server),
        controls={"items_delete": Controls(approval=True), "items_get": Controls(timeout=5)},
    )
    (error,) = app.errors
    assert error.cause == "controls" and error.location == ""
    assert str(error).startswith("controls['items_delete']: controls= names no function")
    assert "items_eraseByItem_id" in str(error)  # the names it could have meant
    assert app.require("items_get").controls == Controls(timeout=5)
    assert len(app.functions) == 10  # the others still built


def test_a_control_that_cannot_be_is_refused_at_build(server: Server) -> None:
    document = _document(server)
    with pytest.raises(TypeError, match=r"expected llmapp\.Controls or None, not bool"):
        llmapp.http.application(document, controls={"items_get": True})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        llmapp.http.application(document, controls={"items_get": Controls(timeout=-1)})
    app = llmapp.http.application(
        document, controls={"items_eraseByItem_id": Controls(approval=True, decisive=("id",))}
    )
    (error,) = app.errors  # a misspelt decisive name: the operation is not offered
    assert error.location == "DELETE /items/{item_id}" and error.cause == "controls"
    assert "decisive names 'id': not parameters" in str(error)
    assert app.function("items_eraseByItem_id") is None


TAGGED: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "files", "version": "1"},
    "paths": {
        "/files/{name}": {
            "delete": {
                "tags": ["destructive"],
                "parameters": [
                    {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {"204": {"description": "gone"}},
            }
        }
    },
}


def test_an_operation_tagged_destructive_waits_as_a_method_tagged_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sent: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request.url.path)
        return httpx.Response(204)

    connection = llmapp.http.Connection("http://files.test", transport=httpx.MockTransport(answer))
    with caplog.at_level(logging.INFO, logger="llmapp.controls"):
        app = llmapp.http.application(TAGGED)
    (function,) = app.functions
    assert function.controls == Controls(approval=True)
    assert any("tagged destructive" in record.getMessage() for record in caplog.records)
    waiting = app.execute(connection, function.name, '{"name": "a.txt"}')
    assert waiting.approval is not None and sent == []

    lifted = llmapp.http.application(TAGGED, controls={function.name: Controls()})
    assert lifted.execute(connection, function.name, '{"name": "a.txt"}').success
    assert sent == ["/files/a.txt"]


def test_served_over_mcp_the_same_controls_hold(server: Server) -> None:
    pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")
    import mcp.types as types
    from mcp import Client
    from tests.mcp.production import serving
    from tests.mcp.test_asgi import session_calls

    import llmapp.mcp

    app = llmapp.http.application(_document(server), controls=_rule)
    served = llmapp.mcp.server(app, llmapp.http.Connection(server.url))
    asked: list[str] = []

    async def elicitation(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": True})

    found: dict[str, Any] = {}

    async def main() -> None:
        async with Client(served) as client:
            found["names"] = [tool.name for tool in (await client.list_tools()).tools]
            before = server.seen.count
            found["put"] = await client.call_tool(
                "items_putByItem_id", {"item_id": 1, "body": {"name": "a", "price": 1}}
            )
            found["delete"] = await client.call_tool("items_eraseByItem_id", {"item_id": 3})
            found["sent"] = server.seen.count - before

    anyio.run(main)
    # The user is asked by elicitation (over streamable HTTP, as the class door's test):
    # the request is sent once they approve.
    before = server.seen.count
    with serving(llmapp.mcp.asgi(app, llmapp.http.Connection(server.url))) as base:
        (found["approved"],) = anyio.run(
            lambda: session_calls(
                f"{base}/mcp",
                ("items_eraseByItem_id", {"item_id": 4}),
                elicitation_callback=elicitation,
            )
        )
    found["sent_approved"] = server.seen.count - before
    assert "items_putByItem_id" not in found["names"] and "items_eraseByItem_id" in found["names"]
    assert found["put"].is_error and "no function named" in found["put"].content[0].text
    assert found["delete"].is_error
    assert "needs a human's approval" in found["delete"].content[0].text
    assert found["sent"] == 0  # neither the hidden PUT nor the unapproved DELETE
    assert asked == ["Approve the call of items_eraseByItem_id?\nitem_id: 4"]
    assert not found["approved"].is_error and found["sent_approved"] == 1


def test_a_composition_keeps_each_function_s_controls(server: Server) -> None:
    shop = llmapp.http.application(_document(server), controls=_rule)
    connection = llmapp.http.Connection(server.url)
    composed = llmapp.compose((shop, connection), prefix={shop: "shop_"})
    function = composed.require("shop_items_eraseByItem_id")
    assert function.controls == Controls(approval=True)
    before = server.seen.count
    waiting = composed.execute(None, function.name, '{"item_id": 9}')
    assert waiting.approval is not None and server.seen.count == before


def test_the_cli_takes_approval_and_disable_for_a_document(
    server: Server, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")
    import json

    from mcp import Client

    import llmapp.mcp
    from llmapp._cli import _mcp_settings, _parser, main

    document = tmp_path / "shop.json"
    document.write_text(json.dumps(_document(server)))
    flags = ["--approval", "items_eraseByItem_id", "--disable", "items_putByItem_id"]
    argv = ["mcp", str(document), "--base-url", server.url, *flags, "--disable", "items_nope"]
    settings = _mcp_settings(None, _parser().parse_args(argv))
    assert "controls['items_nope']: controls= names no function" in capsys.readouterr().err
    found: dict[str, Any] = {}

    async def run() -> None:
        async with Client(llmapp.mcp.server(settings["app"], settings["target"])) as client:
            found["names"] = [tool.name for tool in (await client.list_tools()).tools]
            before = server.seen.count
            found["delete"] = await client.call_tool("items_eraseByItem_id", {"item_id": 5})
            found["sent"] = server.seen.count - before

    anyio.run(run)
    assert "items_putByItem_id" not in found["names"]
    assert "needs a human's approval" in found["delete"].content[0].text
    assert found["sent"] == 0

    assert main([*argv[:4], *flags, "--print-config"]) == 0  # the flags are kept
    (entry,) = json.loads(capsys.readouterr().out)["mcpServers"].values()
    assert entry["args"][-6:] == ["--base-url", server.url, *flags]
    with pytest.raises(ValueError, match="--approval and --disable are for an OpenAPI document"):
        _mcp_settings(int, _parser().parse_args(["mcp", "x:Y", "--approval", "f"]))


def test_an_operation_s_timeout_bounds_execute_and_aexecute() -> None:
    pytest.importorskip("mcp", reason="tests.mcp.production needs the MCP SDK")
    from fastapi import FastAPI
    from tests.mcp.production import serving

    api = FastAPI(title="slow")

    @api.get("/slow")
    async def slow() -> dict[str, str]:
        await anyio.sleep(1.5)
        return {"at": "last"}

    with serving(api) as base:
        document = httpx.get(f"{base}/openapi.json").json()
        app = llmapp.http.application(document, controls={"slow_get": Controls(timeout=0.3)})
        connection = llmapp.http.Connection(base)
        started = time.monotonic()
        sync = app.execute(connection, "slow_get", "{}")
        sync_took = time.monotonic() - started
        started = time.monotonic()
        asynchronous = anyio.run(lambda: app.aexecute(connection, "slow_get", "{}"))
        async_took = time.monotonic() - started
        with pytest.raises(TimeoutError, match=r"slow_get did not finish within 0\.3 s"):
            app.execute(connection, "slow_get", "{}", raise_errors=True)
    for result, took in ((sync, sync_took), (asynchronous, async_took)):
        assert took < 1.2 and not result.success and isinstance(result.error, TimeoutError)
        assert result.message() == (
            "The function raised TimeoutError: slow_get did not finish within 0.3 s"
        )
