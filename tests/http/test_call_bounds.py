"""What a hostile server on 127.0.0.1 cannot make an HTTP call do: read without bound,
run past its deadline, raise, or carry the connection's headers to another origin."""

from __future__ import annotations

import asyncio
import gzip
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from llmapp.http import Connection, application, propagate

OK = {"200": {"description": "ok"}}
KEY = "HUMAN-APIKEY-77"
BOMB = gzip.compress(b"\0" * (16 << 20), 9)  # 16 MiB of zeros in about 16 KiB


class Hostile(BaseHTTPRequestHandler):
    """Answers by path; records the headers of every request it gets."""

    protocol_version = "HTTP/1.1"
    seen: list[dict[str, str]]

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = {key: values[0] for key, values in parse_qs(url.query).items()}
        type(self).seen.append(dict(self.headers))
        try:
            getattr(self, "answer_" + url.path.strip("/").split("/")[0])(query)
        except OSError:  # the client gave up: what these tests want
            pass

    def send(self, body: bytes, kind: str = "application/json", *extra: tuple[str, str]) -> None:
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def answer_echo(self, query: dict[str, str]) -> None:
        self.send(json.dumps({"headers": dict(self.headers)}).encode())

    def answer_big(self, query: dict[str, str]) -> None:
        self.send(b"A" * int(query["n"]), "text/plain")

    def answer_gzip(self, query: dict[str, str]) -> None:
        self.send(BOMB, "text/plain", ("content-encoding", "gzip"))

    def answer_deep(self, query: dict[str, str]) -> None:
        self.send(b"[" * 100_000 + b"]" * 100_000)

    def answer_png(self, query: dict[str, str]) -> None:
        self.send(b"\x89PNG\r\n" + bytes(range(256)) * 4, "image/png")

    def answer_long(self, query: dict[str, str]) -> None:
        self.send(json.dumps([f"item {i}" for i in range(10_000)]).encode())

    def answer_drip(self, query: dict[str, str]) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/plain")
        self.send_header("content-length", "1000")
        self.end_headers()
        for _ in range(1000):
            self.wfile.write(b"x")
            self.wfile.flush()
            time.sleep(0.2)

    def answer_dripheaders(self, query: dict[str, str]) -> None:
        for byte in b"HTTP/1.1 200 OK\r\nx-slow: " + b"y" * 1000:
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(0.2)

    def answer_redirect(self, query: dict[str, str]) -> None:
        self.send_response(302)
        self.send_header("location", query["to"])
        self.send_header("content-length", "0")
        self.end_headers()


def serve() -> tuple[ThreadingHTTPServer, list[dict[str, str]]]:
    seen: list[dict[str, str]] = []
    handler = type("Recording", (Hostile,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen


@pytest.fixture(scope="module")
def hostile() -> Iterator[tuple[str, list[dict[str, str]]]]:
    server, seen = serve()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()


@pytest.fixture(scope="module")
def other() -> Iterator[tuple[str, list[dict[str, str]]]]:
    server, seen = serve()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()


def app_of(*names: str) -> Any:
    paths = {
        f"/{name}": {"get": {"parameters": [
            {"name": "n", "in": "query", "schema": {"type": "integer"}},
            {"name": "to", "in": "query", "schema": {"type": "string"}},
        ], "responses": OK}}
        for name in names
    }  # fmt: skip
    return application({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths})


# --- size ------------------------------------------------------------------------------------


def test_a_body_past_max_body_fails_the_call_with_a_short_message(hostile: Any) -> None:
    host, _ = hostile
    app = app_of("big")
    result = app.execute(Connection(host), "big_get", {"query": {"n": 5 << 20}})
    assert not result.success and type(result.error).__name__ == "ResponseError"
    assert "larger than 4,194,304 bytes" in result.message() and len(result.message()) < 300
    assert app.execute(Connection(host), "big_get", {"query": {"n": 4 << 20}}).success
    with pytest.raises(Exception, match=r"Connection\.max_body"):
        propagate(Connection(host, max_body=1000), app.function("big_get"), {"query": {"n": 1001}})


def test_a_gzip_bomb_is_stopped_by_what_it_expands_to(hostile: Any) -> None:
    host, _ = hostile
    result = app_of("gzip").execute(Connection(host, max_body=1 << 20), "gzip_get", {})
    assert not result.success
    assert "larger than 1,048,576 bytes once decoded" in result.message()


# --- time ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["drip", "dripheaders"])
def test_a_dripping_server_is_given_up_on_at_the_deadline(hostile: Any, path: str) -> None:
    host, _ = hostile
    app = app_of(path)
    connection = Connection(host, timeout=5, deadline=0.5)
    for result in (
        app.execute(connection, f"{path}_get", {}),
        asyncio.run(app.aexecute(connection, f"{path}_get", {})),
    ):
        assert not result.success
        assert "did not finish within its deadline of 0.5 s" in result.message()


def test_a_number_given_as_timeout_also_bounds_the_whole_call(hostile: Any) -> None:
    host, _ = hostile
    result = app_of("drip").execute(Connection(host, timeout=1), "drip_get", {})
    assert "deadline of 1 s" in result.message()
    assert Connection(host).resolved_deadline() == 60
    assert Connection(host, timeout=None).resolved_deadline() is None


# --- what the body becomes for the model -----------------------------------------------------


def test_a_deeply_nested_json_response_is_a_failed_result_not_a_recursion_error(
    hostile: Any,
) -> None:
    host, _ = hostile
    app = app_of("deep")
    result = app.execute(Connection(host), "deep_get", {})
    assert not result.success and "nested too deeply" in result.message()
    result = asyncio.run(app.aexecute(Connection(host), "deep_get", {}))
    assert not result.success and "nested too deeply" in result.message()


def test_a_binary_body_is_described_to_the_model_and_kept_for_the_caller(hostile: Any) -> None:
    host, _ = hostile
    result = app_of("png").execute(Connection(host), "png_get", {})
    assert result.success and isinstance(result.value, bytes) and len(result.value) == 1030
    assert result.data == "(1,030 bytes of image/png, not shown)"
    assert "b'" not in result.message()


def test_a_long_body_is_cut_for_the_model_and_kept_whole_for_the_caller(hostile: Any) -> None:
    host, _ = hostile
    result = app_of("long").execute(Connection(host, max_message=1000), "long_get", {})
    assert result.success and len(result.value) == 10_000
    assert isinstance(result.data, str) and result.data.startswith('["item 0", "item 1"')
    assert result.data.endswith("characters in all, Connection.max_message)")
    assert len(result.data) < 1100


# --- redirects -------------------------------------------------------------------------------


def test_connection_headers_do_not_follow_a_redirect_to_another_origin(
    hostile: Any, other: Any
) -> None:
    host, seen_here = hostile
    elsewhere, seen_there = other
    app = app_of("redirect")
    headers = {"Authorization": "Bearer A-TOKEN", "X-Api-Key": KEY}
    targets = {f"{elsewhere}/echo": seen_there, f"{host}/echo": seen_here}
    for to, seen in targets.items():
        with httpx.Client(follow_redirects=True, headers={"X-Client-Key": "CK-55"}) as client:
            result = app.execute(
                Connection(host, headers=headers, client=client), "redirect_get",
                {"query": {"to": to}},
            )  # fmt: skip
        assert result.success
        async_result = asyncio.run(_async_redirect(app, host, headers, to))
        assert async_result.success
        received = [{k.lower(): v for k, v in each.items()} for each in seen[-2:]]
        for each in received:
            if to.startswith(elsewhere):
                assert not {"x-api-key", "authorization", "x-client-key"} & set(each)
            else:  # the same origin: the connection's headers are still wanted
                assert (each["x-api-key"], each["x-client-key"]) == (KEY, "CK-55")
    refused = app.execute(Connection(host, headers=headers), "redirect_get", {"query": {"to": "/"}})
    assert refused.error is not None and "answered 302" in refused.message()


async def _async_redirect(app: Any, host: str, headers: dict[str, str], to: str) -> Any:
    async with httpx.AsyncClient(
        follow_redirects=True, headers={"X-Client-Key": "CK-55"}
    ) as client:
        connection = Connection(host, headers=headers, client=client)
        return await app.aexecute(connection, "redirect_get", {"query": {"to": to}})


class _TokenAuth(httpx.Auth):
    """A custom auth flow that adds a header of its own (not ``Authorization``)."""

    def auth_flow(self, request: httpx.Request) -> Any:
        request.headers["X-Token"] = "FLOW-TOKEN-9"
        yield request


def _two_origins(seen: list[tuple[str, dict[str, str]]]) -> httpx.MockTransport:
    """``a.test`` redirects ``/pets`` to ``/here`` (same origin), which redirects to
    ``b.test``; every request is recorded with its headers."""

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append((str(request.url), {k.lower(): v for k, v in request.headers.items()}))
        if request.url.path == "/pets":
            return httpx.Response(302, headers={"location": "/here"})
        if request.url.host == "a.test":
            return httpx.Response(302, headers={"location": "http://b.test/collect"})
        return httpx.Response(200, json={})

    return httpx.MockTransport(answer)


def _credentials(seen: list[tuple[str, dict[str, str]]]) -> list[tuple[str, list[str]]]:
    names = ("authorization", "x-token")
    return [(url, [headers[name] for name in names if name in headers]) for url, headers in seen]


@pytest.mark.parametrize(
    "auth", [("svc", "CLIENT-PASSWORD-123"), _TokenAuth()], ids=["basic", "flow"]
)
def test_the_clients_auth_never_crosses_origins_and_runs_as_httpx_runs_it(auth: Any) -> None:
    app = application(
        {
            "openapi": "3.0.3",
            "info": {"title": "t", "version": "1"},
            "paths": {"/pets": {"get": {"responses": {"200": {"description": "ok"}}}}},
        }
    )
    ours: list[tuple[str, dict[str, str]]] = []
    client = httpx.Client(follow_redirects=True, auth=auth, transport=_two_origins(ours))
    assert app.execute(Connection("http://a.test", client=client), "pets_get", "{}").success
    theirs: list[tuple[str, dict[str, str]]] = []
    plain = httpx.Client(follow_redirects=True, auth=auth, transport=_two_origins(theirs))
    plain.get("http://a.test/pets")
    sent = _credentials(ours)
    assert [url for url, _ in sent] == [url for url, _ in _credentials(theirs)]
    assert sent[0][1] and sent[1][1]  # the first origin keeps the credential, as with httpx
    assert sent[2] == ("http://b.test/collect", [])
    if isinstance(auth, tuple):  # httpx itself drops Authorization on another origin
        assert sent == _credentials(theirs)


def test_the_async_client_auth_never_crosses_origins() -> None:
    app = application(
        {
            "openapi": "3.0.3",
            "info": {"title": "t", "version": "1"},
            "paths": {"/pets": {"get": {"responses": {"200": {"description": "ok"}}}}},
        }
    )
    seen: list[tuple[str, dict[str, str]]] = []
    sync = _two_origins(seen)

    async def answer(request: httpx.Request) -> httpx.Response:
        return sync.handle_request(request)

    async def call() -> Any:
        transport = httpx.MockTransport(answer)
        auth = ("svc", "ASYNC-PASSWORD-1")
        async with httpx.AsyncClient(
            follow_redirects=True, auth=auth, transport=transport
        ) as client:
            return await app.aexecute(Connection("http://a.test", client=client), "pets_get", "{}")

    assert asyncio.run(call()).success
    assert _credentials(seen)[-1] == ("http://b.test/collect", [])
