"""An OpenAPI document served as an MCP server: the SDK's own client lists its operations, a
valid call reaches the FastAPI/uvicorn server on 127.0.0.1, a wrong call is answered with
llmapp's feedback and nothing is sent. In process (``llmapp.mcp.server(http_app,
connection)``) and through the CLI over stdio (``llmapp mcp openapi.json --base-url ...
--header-env ...``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from tests.http.conftest import Server
from tests.mcp.scenario import ROOT, environment

import llmapp.http
import llmapp.mcp
from llmapp.vendors import openai


def _text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def _document(server: Server) -> dict[str, Any]:
    document: dict[str, Any] = httpx.get(f"{server.url}/openapi.json").json()
    return document


def test_a_document_is_listed_and_called_through_the_sdk_client(server: Server) -> None:
    app = llmapp.http.application(_document(server))
    served = llmapp.mcp.server(app, llmapp.http.Connection(server.url))
    answers: dict[str, Any] = {}

    async def main() -> None:
        async with Client(served) as client:
            answers["listed"] = await client.list_tools()
            before = server.seen.count
            answers["wrong"] = await client.call_tool(
                "items_post", {"body": {"name": "socks", "price": -1}}
            )
            answers["sent_for_wrong"] = server.seen.count - before
            answers["valid"] = await client.call_tool(
                "items_post", {"body": {"name": "socks", "price": 2.5}}
            )
            answers["sent_for_valid"] = server.seen.count - before

    anyio.run(main)
    names = {tool.name for tool in answers["listed"].tools}
    assert {"items_post", "items_get", "items_getByItem_id"} <= names
    assert served.name == "test shop"  # the document's info.title
    wrong = answers["wrong"]
    assert wrong.is_error and "$input.body.price" in _text(wrong)
    assert answers["sent_for_wrong"] == 0
    valid = answers["valid"]
    assert not valid.is_error
    assert json.loads(_text(valid)) == {"name": "socks", "price": 2.5, "tags": []}
    assert answers["sent_for_valid"] == 1


def test_call_tools_of_a_document_takes_a_context(server: Server) -> None:
    """The context every application accepts: an operation ignores it (it answered every
    call ``TypeError`` before)."""
    app = llmapp.http.application(_document(server))
    message = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "items_getByItem_id", "arguments": '{"item_id": 7}'},
            }
        ],
    }
    with httpx.Client() as client:
        connection = llmapp.http.Connection(server.url, client=client)
        answers = openai.call_tools(app, connection, message, context="the user")
    assert json.loads(answers[0]["content"]) == {"id": 7}

    async def main() -> list[dict[str, Any]]:
        async with httpx.AsyncClient() as client:
            connection = llmapp.http.Connection(server.url, client=client)
            return await openai.acall_tools(app, connection, message, context=("user", 1))

    assert json.loads(anyio.run(main)[0]["content"]) == {"id": 7}


def test_the_cli_serves_a_document_with_headers_from_the_environment(
    server: Server, tmp_path: Path
) -> None:
    document = tmp_path / "openapi.json"
    document.write_text(json.dumps(_document(server)))
    env = {**environment(), "SHOP_KEY": "k-123"}
    parameters = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "llmapp",
            "mcp",
            str(document),
            "--base-url",
            server.url,
            "--header-env",
            "X-Api-Key=SHOP_KEY",
        ],
        env=env,
        cwd=ROOT,
    )
    answers: dict[str, Any] = {}

    async def main() -> None:
        with anyio.fail_after(60), (tmp_path / "stderr.txt").open("w") as errlog:
            async with (
                stdio_client(parameters, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                answers["listed"] = await session.list_tools()
                before = server.seen.count
                answers["wrong"] = await session.call_tool("items_getByItem_id", {"item_id": "x"})
                answers["sent_for_wrong"] = server.seen.count - before
                answers["secure"] = await session.call_tool("secure_get", {})

    anyio.run(main)
    assert "secure_get" in {tool.name for tool in answers["listed"].tools}
    assert answers["wrong"].is_error and "$input.item_id" in _text(answers["wrong"])
    assert answers["sent_for_wrong"] == 0
    # the header reached the server (it answers 422 without it); its value echoed back is
    # masked before the model reads it
    assert not answers["secure"].is_error
    assert json.loads(_text(answers["secure"])) == {"key": "***"}
    assert "k-123" not in (tmp_path / "stderr.txt").read_text()


DOCUMENT = {
    "openapi": "3.1.0",
    "info": {"title": "tiny", "version": "1"},
    "servers": [{"url": "https://tiny.example"}],
    "paths": {"/ping": {"get": {"responses": {"200": {"description": "ok"}}}}},
}


def test_the_cli_prints_a_document_s_client_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from llmapp._cli import main

    document = tmp_path / "tiny.json"
    document.write_text(json.dumps(DOCUMENT))
    argv = ["mcp", str(document), "--header-env", "X-Key=TINY_KEY", "--print-config"]
    assert main(argv) == 0
    entry = json.loads(capsys.readouterr().out)["mcpServers"]["tiny"]
    resolved = str(document.resolve())
    assert entry["args"] == ["-m", "llmapp", "mcp", resolved, "--header-env", "X-Key=TINY_KEY"]
    assert "env" not in entry  # a document needs no module on the path


def test_the_cli_refuses_an_unset_header_variable_without_serving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from llmapp._cli import main

    document = tmp_path / "tiny.yaml"
    document.write_text(json.dumps(DOCUMENT))  # JSON is YAML
    monkeypatch.delenv("TINY_KEY", raising=False)
    assert main(["mcp", str(document), "--header-env", "X-Key=TINY_KEY"]) == 1
    assert "--header-env X-Key=TINY_KEY: the variable is empty or unset" in capsys.readouterr().err
    assert main(["mcp", str(document), "--factory", "make"]) == 1
    assert "--factory is for a class" in capsys.readouterr().err


def test_a_document_served_over_streamable_http_as_an_asgi_app(server: Server) -> None:
    """``asgi(http_app, connection)`` on uvicorn, the SDK's streamable-HTTP client: the call
    reaches the FastAPI server behind it; the wrong one does not."""
    from tests.mcp.production import serving
    from tests.mcp.test_asgi import session_calls

    app = llmapp.http.application(_document(server))
    mounted = llmapp.mcp.asgi(app, llmapp.http.Connection(server.url))
    before = server.seen.count
    with serving(mounted) as base:
        valid, wrong = anyio.run(
            lambda: session_calls(
                f"{base}/mcp",
                ("items_getByItem_id", {"item_id": 5}),
                ("items_getByItem_id", {"item_id": "five"}),
            )
        )
    assert not valid.is_error and json.loads(_text(valid)) == {"id": 5}
    assert wrong.is_error and "$input.item_id" in _text(wrong)
    assert server.seen.count - before == 1


def test_a_served_document_s_call_is_logged_once_by_its_door_with_its_secrets_masked(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    app = llmapp.http.application(_document(server))
    connection = llmapp.http.Connection(
        server.url, headers={"X-Api-Key": "header-secret-9"}, query={"key": "query-secret-8"}
    )
    served = llmapp.mcp.server(app, connection)

    async def main() -> types.CallToolResult:
        async with Client(served) as client:
            return await client.call_tool("items_getByItem_id", {"item_id": 404})

    with caplog.at_level("DEBUG", logger="llmapp"):
        answer = anyio.run(main)
    assert answer.is_error
    records = [record for record in caplog.records if "items_getByItem_id" in record.getMessage()]
    assert [record.name for record in records] == ["llmapp.http"]
    for secret in ("header-secret-9", "query-secret-8"):
        assert secret not in caplog.text and secret not in _text(answer)


def test_a_document_s_tags_never_make_an_operation_a_prompt_or_a_resource() -> None:
    """``@tag prompt`` on a class method makes it a prompt; a document's own tags are its
    authors' words, so an operation tagged ``prompt`` or ``resource x://y`` stays a tool."""
    document = json.loads(json.dumps(DOCUMENT))
    document["paths"]["/ping"]["get"]["tags"] = ["prompt", "resource x://y"]
    app = llmapp.http.application(document)
    served = llmapp.mcp.server(app, llmapp.http.Connection("https://tiny.example"))

    async def main() -> Any:
        async with Client(served) as client:
            return await client.list_tools()

    assert [tool.name for tool in anyio.run(main).tools] == ["ping_get"]
