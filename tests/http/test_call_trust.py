"""What a document, a connection setting or the model cannot make an HTTP call do:
change the server, leak the connection's or the human's secrets, or raise."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import httpx
import pytest

from llmapp.http import Connection, application

OK = {"200": {"description": "ok"}}
TOKEN = "sk-live-TOKEN-1234"


def document(paths: dict[str, Any]) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths}


class Recorder:
    """A mock transport that records each request and answers with ``answer``."""

    def __init__(self, answer: Any = None) -> None:
        self.seen: list[httpx.Request] = []
        self.answer = answer or (lambda request: httpx.Response(200, json={}))

    def __call__(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.seen.append(request)
        response: httpx.Response = self.answer(request)
        return response

    def connection(self, host: str = "http://api.test/v1", **options: Any) -> Connection:
        return Connection(host, transport=httpx.MockTransport(self), **options)


# --- the document cannot pick the server ---------------------------------------------------


def test_a_path_that_does_not_start_with_a_slash_is_a_located_build_error() -> None:
    hostile = ["@127.0.0.1:9/pets", ":9/toys", ".evil.example/x"]
    app = application(document({path: {"get": {"responses": OK}} for path in hostile}))
    assert app.functions == []
    assert [(e.path, e.cause) for e in app.errors] == [(path, "path") for path in hostile]
    assert app.errors[0].messages == (
        "$input.paths[\"@127.0.0.1:9/pets\"].get: a path must start with '/'",
    )


def test_the_url_is_built_from_parts_and_stays_on_the_connections_server() -> None:
    from llmapp.http._request import Request, locate

    for path in ["@127.0.0.1:9/pets", ":9/toys", ".evil.example/x", "//evil.example/x"]:
        url, _ = locate("https://api.example.com/v1", Request("GET", path), {})
        assert (url.scheme, url.host, url.port) == ("https", "api.example.com", None)
    recorder = Recorder()
    paths = {"/pets/{id}": {"get": {"parameters": [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    ], "responses": OK}}}  # fmt: skip
    app = application(document(paths))
    result = app.execute(recorder.connection("http://api.test/v1?v=2"), "pets_getById",
                         {"id": "../@evil.example:1/x?y#z"})  # fmt: skip
    assert result.success
    (request,) = recorder.seen
    assert (request.url.host, request.url.port) == ("api.test", None)
    assert request.url.raw_path == b"/v1/pets/..%2F%40evil.example%3A1%2Fx%3Fy%23z?v=2"


def test_literal_text_of_a_path_template_is_percent_encoded() -> None:
    recorder = Recorder()
    app = application(document({"/caf\u00e9 bar/{id}": {"get": {"responses": OK}}}))
    assert app.execute(recorder.connection(), app.functions[0].name, {"id": "1"}).success
    assert recorder.seen[0].url.raw_path == b"/v1/caf%C3%A9%20bar/1"


# --- the connection is checked when made -----------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "query", "named"),
    [
        ({"Authorization": f"Bearer {TOKEN}\n"}, {}, "Authorization"),
        ({"X-Api-Key": f"{TOKEN}\r\nX-Evil: 1"}, {}, "X-Api-Key"),
        ({"X-Api-Key": f"cl\u00e9-{TOKEN}"}, {}, "X-Api-Key"),
        ({"X-Api-Key": f" {TOKEN}"}, {}, "X-Api-Key"),
        ({"X Api Key": TOKEN}, {}, "X Api Key"),
        ({}, {"api_key": f"{TOKEN}\n"}, "api_key"),
        ({}, {"api_key": f"{TOKEN}\ud800"}, "api_key"),
    ],
)
def test_a_connection_refuses_what_it_cannot_send_naming_it_never_its_value(
    headers: dict[str, str], query: dict[str, str], named: str
) -> None:
    with pytest.raises(ValueError, match=named) as refused:
        Connection("http://api.test", headers=headers, query=query)
    assert TOKEN not in str(refused.value)


def test_a_connection_refuses_a_host_that_is_not_an_http_url() -> None:
    for host in [
        "ftp://api.test",
        "api.test",
        "http://",
        "http://api.test:99999",
        "http://a b",
        "http://xn--zz.com",
    ]:
        with pytest.raises(ValueError, match=r"Connection\.host"):
            Connection(host)


def test_latin_1_bytes_and_tabs_are_valid_header_values() -> None:
    Connection("http://api.test", headers={"X-Name": "caf\u00e9".encode("latin-1"), "X-T": "a\tb"})


# --- transport errors: masked, never raised --------------------------------------------------


def test_a_transport_error_reaches_the_model_masked_and_is_never_raised() -> None:
    def fail(request: httpx.Request) -> httpx.Response:
        key, cookie = request.headers["x-api-key"], request.headers["cookie"]
        raise httpx.ConnectError(f"refused {key} {cookie} {request.url}", request=request)

    def broken(request: httpx.Request) -> httpx.Response:
        raise RuntimeError(f"a transport bug holding {request.headers['authorization']}")

    app = application(document({"/pets": {"get": {"responses": OK}}}))
    headers = {
        "X-Api-Key": TOKEN,
        "Cookie": "session=COOKIE-VALUE-9",
        "Authorization": "Bearer T0KEN-AB",
    }
    for answer in (fail, broken):
        connection = Recorder(answer).connection(headers=headers, query={"key": "QUERY/SECRET+1"})
        result = app.execute(connection, "pets_get", "{}")
        assert not result.success and result.error is not None
        message = result.message()
        for secret in (TOKEN, "COOKIE-VALUE-9", "T0KEN-AB", "QUERY/SECRET+1", "QUERY%2FSECRET%2B1"):
            assert secret not in message
    assert (
        "refused *** ***"
        in app.execute(Recorder(fail).connection(headers=headers), "pets_get", "{}").message()
    )


def test_a_response_echoing_the_connections_secrets_is_masked_for_the_model() -> None:
    def echo(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"headers": dict(request.headers), "url": str(request.url)})

    app = application(document({"/pets": {"get": {"responses": OK}}}))
    connection = Recorder(echo).connection(headers={"X-Api-Key": TOKEN}, query={"k": "Q-SECRET-42"})
    result = app.execute(connection, "pets_get", "{}")
    assert result.success
    assert result.value["headers"]["x-api-key"] == TOKEN  # the caller keeps it all
    assert result.data["headers"]["x-api-key"] == "***"
    assert TOKEN not in result.message() and "Q-SECRET-42" not in result.message()
    transport = httpx.MockTransport(echo)
    with httpx.Client(transport=transport, headers={"X-Client-Key": "CLIENT-KEY-5"}) as client:
        result = app.execute(Connection("http://api.test", client=client), "pets_get", "{}")
    assert result.data["headers"]["x-client-key"] == "***"
    assert result.data["headers"]["user-agent"].startswith("python-httpx")


def _basic(user: str, password: str, encoding: str = "utf-8") -> str:
    return base64.b64encode(f"{user}:{password}".encode(encoding)).decode()


def _echoed(connection: Connection) -> str:
    """What the model reads of a 422 echoing the whole request, as many frameworks do."""

    app = application(document({"/pets": {"get": {"responses": OK}}}))
    return app.execute(connection, "pets_get", "{}").message()


def _echo(request: httpx.Request) -> httpx.Response:
    headers = dict(request.headers)
    return httpx.Response(422, json={"url": str(request.url), "headers": headers})


@pytest.mark.parametrize(
    ("label", "options", "secrets"),
    [
        (
            "host query",
            {"host": "http://api.test/?api_key=HOST-QUERY-SECRET"},
            ["HOST-QUERY-SECRET"],
        ),
        (
            "host userinfo",
            {"host": "http://svc:HOST-PASSWORD@api.test"},
            ["HOST-PASSWORD", _basic("svc", "HOST-PASSWORD")],
        ),
        (
            "encoded userinfo",
            {"host": "http://svc:P%C3%A4SS-WORD-9@api.test"},
            ["P%C3%A4SS-WORD-9", "PäSS-WORD-9", _basic("svc", "PäSS-WORD-9")],
        ),
        ("client params", {"params": {"api_key": "CLIENT-PARAM-SECRET"}}, ["CLIENT-PARAM-SECRET"]),
        (
            "client basic auth",
            {"auth": ("svc", "CLIENT-AUTH-PASSWORD")},
            ["CLIENT-AUTH-PASSWORD", _basic("svc", "CLIENT-AUTH-PASSWORD")],
        ),
        (
            "client digest auth",
            {"auth": httpx.DigestAuth("svc", "DIGEST-PASSWORD-7")},
            ["DIGEST-PASSWORD-7"],
        ),
    ],
)
def test_every_secret_the_connection_sends_is_masked_wherever_it_came_from(
    label: str, options: dict[str, Any], secrets: list[str]
) -> None:
    host = options.pop("host", "http://api.test")
    if options:
        client = httpx.Client(transport=httpx.MockTransport(_echo), **options)
        connection = Connection(host, client=client)
    else:
        connection = Connection(host, transport=httpx.MockTransport(_echo))
    message = _echoed(connection)
    assert "422" in message or "api.test" in message
    assert [secret for secret in secrets if secret in message] == [], label


def test_the_password_inside_a_basic_header_is_masked_when_echoed_decoded() -> None:
    def decoded(request: httpx.Request) -> httpx.Response:
        credential = request.headers["authorization"].split()[1]
        return httpx.Response(401, json={"user": base64.b64decode(credential).decode()})

    client = httpx.Client(transport=httpx.MockTransport(decoded), auth=("svc", "PASS-WORD-55"))
    message = _echoed(Connection("http://api.test", client=client))
    assert "PASS-WORD-55" not in message


# --- human values never come back through an error -------------------------------------------

try:
    from pydantic import BaseModel, Field

    class Transfer(BaseModel):
        amount: float
        pin: str = Field(pattern=r"^\d{4}$", json_schema_extra={"x-llmapp-human": True})

    def transfer(t: Transfer) -> dict[str, bool]:
        return {"ok": True}

except ImportError:  # pragma: no cover - pydantic comes with the dev extra
    pass


def test_a_fastapi_422_echoing_a_human_value_is_masked() -> None:
    fastapi = pytest.importorskip("fastapi")
    api = fastapi.FastAPI()
    api.post("/transfer")(transfer)
    app = application(api.openapi(), separate=lambda schema: False)
    connection = Connection("http://testserver", transport=httpx.ASGITransport(app=api))
    result = asyncio.run(
        app.aexecute(connection, app.functions[0].name, '{"body": {"amount": 5}}',
                     human={"body": {"pin": "SECRET-PIN-98765"}})
    )  # fmt: skip
    assert result.error is not None and result.error.status == 422  # type: ignore[attr-defined]
    assert "SECRET-PIN-98765" in str(result.error)  # the caller's own error keeps it
    assert "SECRET-PIN-98765" not in result.message()
    assert '"input": "***"' in result.message()


# --- the model's query keys and values -------------------------------------------------------


def test_the_connections_query_keys_win_and_the_models_are_dropped_and_reported() -> None:
    recorder = Recorder()
    paths = {"/search": {"get": {"parameters": [
        {"name": "f", "in": "query", "style": "form", "explode": True,
         "schema": {"type": "object", "additionalProperties": {"type": "string"}}}
    ], "responses": OK}}}  # fmt: skip
    app = application(document(paths))
    connection = recorder.connection(
        "http://api.test/v1?tenant=acme", query={"api_key": "HUMAN-SECRET"}
    )
    result = app.execute(
        connection, "search_get", {"query": {"api_key": "MODEL", "tenant": "other", "q": "x"}}
    )
    assert result.success
    assert recorder.seen[0].url.params.multi_items() == [
        ("tenant", "acme"),
        ("q", "x"),
        ("api_key", "HUMAN-SECRET"),
    ]
    assert result.repairs == (
        "the query key 'api_key' is the connection's: the model's value was dropped",
        "the query key 'tenant' is the connection's: the model's value was dropped",
    )


def test_brackets_in_a_deep_object_key_are_refused_before_sending() -> None:
    recorder = Recorder()
    paths = {"/items": {"get": {"parameters": [
        {"name": "filter", "in": "query", "style": "deepObject", "explode": True,
         "schema": {"type": "object", "additionalProperties": {"type": "string"}}}
    ], "responses": OK}}}  # fmt: skip
    app = application(document(paths))
    result = app.execute(
        recorder.connection(), "items_get", {"query": {"filter": {"status][$ne": "closed"}}}
    )
    assert recorder.seen == [] and result.validation is not None
    assert [(i.path, i.expected) for i in result.validation.errors] == [
        ('$input.query.filter["status][$ne"]', "undefined")
    ]
    assert app.execute(
        recorder.connection(), "items_get", {"query": {"filter": {"s": "a"}}}
    ).success
    assert recorder.seen[0].url.params.multi_items() == [("filter[s]", "a")]


def test_an_empty_path_parameter_is_refused_before_sending() -> None:
    # DELETE /files/{id} with an empty id would be DELETE /files/: another resource.
    recorder = Recorder()
    paths = {"/files/{id}/{part}": {"delete": {"parameters": [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
        {"name": "part", "in": "path", "required": True,
         "schema": {"type": "array", "items": {"type": "string"}}},
    ], "responses": OK}}}  # fmt: skip
    app = application(document(paths))
    (function,) = app.functions
    result = app.execute(recorder.connection(), function.name, {"id": "", "part": []})
    assert recorder.seen == [] and result.validation is not None
    assert [(i.path, i.expected) for i in result.validation.errors] == [
        ("$input.id", "a non-empty path segment"),
        ("$input.part", "a non-empty path segment"),
    ]
    assert app.execute(recorder.connection(), function.name, {"id": "7", "part": ["a"]}).success
    assert recorder.seen[0].url.raw_path == b"/v1/files/7/a"


def test_a_lone_surrogate_from_the_model_is_refused_with_sendable_feedback() -> None:
    recorder = Recorder()
    paths = {
        "/u/{id}": {"get": {"parameters": [
            {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
        ], "responses": OK}},
        "/s": {"get": {"parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}],
                       "responses": OK}},
        "/j": {"post": {"requestBody": {"content": {"application/json": {"schema": {
            "type": "object", "additionalProperties": {"type": "string"}}}}}, "responses": OK}},
    }  # fmt: skip
    app = application(document(paths))
    calls = {
        "u_getById": (r'{"id": "a\ud800"}', "$input.id"),
        "s_get": (r'{"query": {"q": "\udfff"}}', "$input.query.q"),
        "j_post": (r'{"body": {"k\ud800": "v"}}', '$input.body["k\\ud800"]'),
    }
    for name, (text, path) in calls.items():
        result = app.execute(recorder.connection(), name, text)
        assert result.validation is not None, name
        assert [issue.path for issue in result.validation.errors] == [path]
        result.message().encode("utf-8")  # a vendor SDK can send it
    assert recorder.seen == []
    assert app.execute(recorder.connection(), "u_getById", '{"id": "\U0001f600"}').success


# --- bodies ------------------------------------------------------------------------------------


def test_multipart_without_a_file_part_is_still_sent_as_multipart() -> None:
    recorder = Recorder()
    paths = {"/upload": {"post": {"requestBody": {"content": {"multipart/form-data": {"schema": {
        "type": "object", "properties": {"title": {"type": "string"},
                                         "file": {"type": "string", "format": "binary"}}}}}},
        "responses": OK}}}  # fmt: skip
    app = application(document(paths))
    for file in (None, b"DATA"):
        body = {"body": {"file": file}}
        assert app.execute(
            recorder.connection(), "upload_post", '{"body": {"title": "a"}}', human=body
        ).success
    for request in recorder.seen:
        assert request.headers["content-type"].startswith("multipart/form-data; boundary=")
        assert b'Content-Disposition: form-data; name="title"\r\n\r\na\r\n' in request.content
    assert b'filename="file"' in recorder.seen[1].content


def test_a_deep_object_query_nested_as_deep_as_text_is_read_is_sent() -> None:
    recorder = Recorder()
    paths = {"/items": {"get": {"parameters": [
        {"name": "f", "in": "query", "style": "deepObject", "explode": True,
         "schema": {"type": "object"}}
    ], "responses": OK}}}  # fmt: skip
    app = application(document(paths))
    nested: dict[str, Any] = {"a": 1}
    for _ in range(500):
        nested = {"a": nested}
    result = app.execute(recorder.connection(), "items_get", {"query": {"f": nested}})
    assert result.success
    ((key, value),) = recorder.seen[0].url.params.multi_items()
    assert key == "f" + "[a]" * 501 and value == "1"


@pytest.mark.parametrize("where", ["path", "query", "deepObject", "form"])
def test_arguments_nested_deeper_than_text_may_be_are_refused_before_sending(where: str) -> None:
    # Text is read to 512 levels; data a framework hands over may be deeper, past what
    # the request's JSON writer can write: refused as such text is, nothing sent.
    recorder = Recorder()
    paths = {"/x/{p}": {"post": {"parameters": [
        {"name": "p", "in": "path", "required": True, "schema": {}},
        {"name": "q", "in": "query", "schema": {}},
        {"name": "d", "in": "query", "style": "deepObject", "explode": True,
         "schema": {"type": "object"}},
    ], "requestBody": {"content": {"application/x-www-form-urlencoded": {
        "schema": {"type": "object", "properties": {"f": {}}}}}}, "responses": OK}}}  # fmt: skip
    app = application(document(paths))
    (function,) = app.functions
    nested: Any = [1]
    for _ in range(3_000):
        nested = [nested]
    arguments = {
        "path": {"p": nested},
        "query": {"p": 1, "query": {"q": nested}},
        "deepObject": {"p": 1, "query": {"d": {"a": nested}}},
        "form": {"p": 1, "body": {"f": nested}},
    }[where]
    result = app.execute(recorder.connection(), function.name, arguments)
    assert not result.success and recorder.seen == []
    assert "nesting deeper than 512 levels" in result.message()
