"""Every operation of a FastAPI application's document, executed against the real server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from llmapp import ExecutionError
from llmapp.http import (
    ArgumentError,
    Connection,
    HttpError,
    HttpLlmApplication,
    aexecute,
    application,
    execute,
    propagate,
)

KEY = "secret-key-1234"


@pytest.fixture(scope="module")
def app(server: Any) -> HttpLlmApplication:
    document = httpx.get(server.url + "/openapi.json").json()
    return application(document)


@pytest.fixture
def connection(server: Any) -> Connection:
    return Connection(server.url, headers={"x-api-key": KEY})


def test_every_operation_becomes_a_function(app: HttpLlmApplication) -> None:
    assert app.errors == []
    assert sorted(f.name for f in app.functions) == [
        "echo_getByValue",
        "items_eraseByItem_id",
        "items_get",
        "items_getByItem_id",
        "items_post",
        "items_putByItem_id",
        "login_post",
        "raw_postByName",
        "secure_get",
        "upload_post",
    ]
    update = app.function("items_putByItem_id")
    assert update is not None
    assert (update.method, update.path) == ("put", "/items/{item_id}")
    assert update.parameters["required"] == ["item_id", "body"]
    assert update.parameters["properties"]["body"]["$ref"] == "#/$defs/Item"
    assert update.parameters["$defs"]["Item"]["properties"]["price"]["exclusiveMinimum"] == 0
    assert update.route().body is not None and update.route().body.media_type == "application/json"


def test_each_operation_answers(app: HttpLlmApplication, connection: Connection) -> None:
    calls: dict[str, tuple[Any, Any]] = {
        "items_get": (
            {"query": {"limit": "5", "tags": ["a", "b"]}},
            {"limit": 5, "tags": ["a", "b"]},
        ),
        "items_post": (
            '{"body": {"name": "sock", "price": 2.5,}}',  # repaired: the trailing comma
            {"name": "sock", "price": 2.5, "tags": []},
        ),
        "items_getByItem_id": ({"item_id": "7"}, {"id": 7}),  # coerced: "7" -> 7
        "items_putByItem_id": (
            {"item_id": 3, "body": {"name": "hat", "price": 1}},
            {"id": 3, "item": {"name": "hat", "price": 1.0, "tags": []}},
        ),
        "items_eraseByItem_id": ({"item_id": 9}, {"deleted": 9}),
        "echo_getByValue": ({"value": "plain"}, {"value": "plain"}),
        "login_post": (
            {"body": {"username": "ann", "password": "pw"}},
            {"user": "ann", "length": "2"},
        ),
        "secure_get": ({}, {"key": KEY}),
    }
    for name, (arguments, expected) in calls.items():
        function = app.function(name)
        assert function is not None, name
        assert execute(connection, function, arguments) == expected, name
    upload = app.function("upload_post")
    assert upload is not None and upload.separated is not None
    assert "file" not in json.dumps(upload.separated.llm["properties"])
    answer = execute(
        connection, upload, {"body": {"title": "cv"}}, human={"body": {"file": b"12345"}}
    )
    assert answer == {"title": "cv", "size": 5}
    raw = app.function("raw_postByName")
    assert raw is not None and raw.separated is not None
    assert list(raw.separated.llm["properties"]) == ["name"]
    answer = execute(connection, raw, {"name": "logo"}, human={"body": b"\x89PNG"})
    assert answer == {"name": "logo", "size": 4, "type": "image/png"}


def test_human_values_are_checked_whole_before_anything_is_sent(
    app: HttpLlmApplication, connection: Connection, server: Any
) -> None:
    upload = app.function("upload_post")
    assert upload is not None
    before = server.seen.count
    secret = b"owner-secret-7"
    # Nested keys are checked as deep as the document closes its objects (this body is open).
    wrong = {
        "missing $input.body.file": {"body": {}},
        "unknown $input.token": {"body": {"file": secret}, "token": "owner-secret-7"},
    }
    for reason, human in wrong.items():
        with pytest.raises(ExecutionError, match="human-supplied") as raised:
            execute(connection, upload, {"body": {"title": "cv"}}, human=human)
        assert reason in str(raised.value)
        assert "owner-secret-7" not in str(raised.value)  # paths only, never the values
    assert server.seen.count == before


def test_invalid_arguments_send_nothing(
    app: HttpLlmApplication, connection: Connection, server: Any
) -> None:
    create = app.function("items_post")
    assert create is not None
    before = server.seen.count
    with pytest.raises(ArgumentError) as raised:
        execute(connection, create, {"body": {"name": 3, "price": -1}, "extra": True})
    paths = {issue.path for issue in raised.value.validation.errors}
    assert paths == {"$input.body.name", "$input.body.price", "$input.extra"}
    result = app.execute(connection, "items_post", '{"body": {"price": "cheap"}}')
    assert not result.success and result.feedback is not None
    assert '"name": undefined' in result.feedback
    assert result.message() == result.feedback
    assert server.seen.count == before


def test_cut_off_or_unreadable_arguments_send_nothing(
    app: HttpLlmApplication, connection: Connection, server: Any
) -> None:
    before = server.seen.count
    cut = app.execute(connection, "items_post", '{"body": {"name": "socks", "price": 1')
    assert not cut.success and cut.feedback is not None
    assert "cut off" in cut.feedback
    unreadable = app.execute(connection, "items_post", "not json at all {")
    assert not unreadable.success and unreadable.feedback is not None
    assert server.seen.count == before


def test_path_parameters_stay_data(app: HttpLlmApplication, connection: Connection) -> None:
    echo = app.function("echo_getByValue")
    assert echo is not None
    for value in ("../admin", "a/b?c#d", "x y%20z", "ünïcødé/字", "..", "?", "#"):
        assert execute(connection, echo, {"value": value}) == {"value": value}, value


def test_auth_header_comes_from_the_connection(
    app: HttpLlmApplication, connection: Connection, server: Any
) -> None:
    text = json.dumps(app.to_list())
    assert "x-api-key" not in text and "x_api_key" not in text
    secure = app.function("secure_get")
    assert secure is not None
    assert [p.name for p in secure.route().headers] == ["x-api-key"]
    assert secure.parameters["properties"] == {}
    with pytest.raises(HttpError) as raised:
        execute(Connection(server.url), secure, {})
    assert raised.value.status == 422


def test_errors_are_typed_and_propagate_does_not_raise(
    app: HttpLlmApplication, connection: Connection
) -> None:
    get = app.function("items_getByItem_id")
    assert get is not None
    with pytest.raises(HttpError) as raised:
        execute(connection, get, {"item_id": 404})
    assert raised.value.status == 404
    assert raised.value.body == {"detail": "no such item"}
    assert raised.value.headers["content-type"] == "application/json"
    response = propagate(connection, get, {"item_id": 404})
    assert (response.status, response.body, response.success) == (
        404,
        {"detail": "no such item"},
        False,
    )
    result = app.execute(connection, "items_getByItem_id", {"item_id": 404})
    assert not result.success and isinstance(result.error, HttpError)
    unknown = app.execute(connection, "items_gets", {})
    assert unknown.feedback is not None and "items_get" in unknown.feedback


def test_async_twins_and_a_caller_client(app: HttpLlmApplication, server: Any) -> None:
    get = app.function("items_getByItem_id")
    assert get is not None

    async def run() -> tuple[Any, Any]:
        async with httpx.AsyncClient(headers={"x-api-key": KEY}) as client:
            shared = Connection(server.url, client=client)
            first = await aexecute(shared, get, {"item_id": 1})
            second = await app.aexecute(shared, "secure_get", {})
            return first, (second.value, second.data)

    # The server echoes the client's key: the caller gets it, the model sees it masked.
    assert asyncio.run(run()) == ({"id": 1}, ({"key": KEY}, {"key": "***"}))
    with httpx.Client() as client:
        assert execute(Connection(server.url, client=client), get, {"item_id": 2}) == {"id": 2}


def test_vendor_call_tools_runs_http_functions(
    app: HttpLlmApplication, connection: Connection
) -> None:
    from llmapp.vendors import openai

    tools = openai.tools(app)
    assert "x-api-key" not in json.dumps(tools)
    completion = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {
                                "name": "items_getByItem_id",
                                "arguments": '{"item_id": 5}',
                            },
                        },
                        {
                            "id": "c2",
                            "type": "function",
                            "function": {"name": "items_post", "arguments": '{"body": {}}'},
                        },
                    ],
                }
            }
        ]
    }
    answers = openai.call_tools(app, connection, completion)
    assert [a["tool_call_id"] for a in answers] == ["c1", "c2"]
    assert json.loads(answers[0]["content"]) == {"id": 5}
    assert '"name": undefined' in answers[1]["content"]


def test_cli_prints_functions_and_errors(tmp_path: Any, capsys: Any) -> None:
    from llmapp._cli import main

    document = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {"get": {"responses": {"200": {"description": "ok"}}}, "head": {"responses": {}}}
        },
    }
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document))
    assert main(["openapi", str(path)]) == 0
    out, err = capsys.readouterr()
    assert [f["name"] for f in json.loads(out)] == ["a_get"]
    assert 'HEAD /a: $input.paths["/a"].head' in err
