"""What an OpenAPI document brings in at build time is bounded and confined: the files it
names, its YAML, its nesting, its schema mistakes, its human-side marks and its text."""

from __future__ import annotations

import json
import os
import re
import textwrap
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

import llmapp.http._document as document_module
from llmapp._limits import MAX_ALIAS_NODES
from llmapp.http import Connection, DocumentError, application, load
from llmapp.jsonschema import MAX_NESTING
from llmapp.vendors import openai

OK = {"200": {"description": "ok"}}


def document(paths: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths, **extra}


def body_operation(schema: Any) -> dict[str, Any]:
    content = {"application/json": {"schema": schema}}
    return {"post": {"requestBody": {"content": content}, "responses": OK}}


def write_spec(folder: Path, refs: dict[str, str]) -> Path:
    """A document in ``folder`` with one POST operation per ``/name`` whose body is ``$ref``."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = document({f"/{name}": body_operation({"$ref": ref}) for name, ref in refs.items()})
    path = folder / "api.json"
    path.write_text(json.dumps(spec))
    return path


def errors_by_path(app: Any) -> dict[str, str]:
    return {error.path: " ".join(error.messages) for error in app.errors}


# References to other files


def test_references_outside_the_document_folder_are_errors_never_reads(tmp_path: Path) -> None:
    secret = tmp_path / "home" / ".kube" / "config"
    secret.parent.mkdir(parents=True)
    secret.write_text("users:\n- token: SUPERSECRETKUBETOKEN\n")
    (tmp_path / "spec" / "inside.json").parent.mkdir(parents=True)
    (tmp_path / "spec" / "inside.json").write_text(json.dumps({"type": "string"}))
    path = write_spec(
        tmp_path / "spec",
        {
            "inside": "inside.json",
            "parent": "../home/.kube/config",
            "absolute": str(secret),
            "proc": "/proc/self/status",
            "zero": "/dev/zero",
        },
    )
    app = application(path)
    assert [f.path for f in app.functions] == ["/inside"]
    assert app.functions[0].parameters["$defs"]["inside"] == {"type": "string"}
    found = errors_by_path(app)
    assert set(found) == {"/parent", "/absolute", "/proc", "/zero"}
    for text in found.values():
        assert 'requestBody.content["application/json"].schema' in text
        assert "outside the folders references may be read from" in text
    assert "SUPERSECRETKUBETOKEN" not in json.dumps(openai.tools(app))


def test_a_symbolic_link_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"type": "string", "description": "SECRET"}))
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "link.json").symlink_to(outside)
    app = application(write_spec(tmp_path / "spec", {"link": "link.json"}))
    assert app.functions == []
    assert "outside the folders" in errors_by_path(app)["/link"]


def test_roots_name_the_folders_references_may_read(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "Error.json").write_text(json.dumps({"type": "object"}))
    path = write_spec(tmp_path / "spec", {"e": "../shared/Error.json"})
    assert application(path).functions == []
    app = application(path, roots=[tmp_path / "spec", shared])
    assert [f.path for f in app.functions] == ["/e"]


def test_only_regular_files_are_read_and_a_fifo_does_not_hang(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    os.mkfifo(folder / "pipe.json")
    (folder / "sub").mkdir()
    app = application(write_spec(folder, {"pipe": "pipe.json", "dir": "sub"}))
    found = errors_by_path(app)
    assert "not a regular file" in found["/pipe"] and "not a regular file" in found["/dir"]


def test_the_document_and_its_files_share_one_byte_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "big.json").write_text(json.dumps({"type": "string", "description": "x" * 5000}))
    path = write_spec(folder, {"big": "big.json"})
    monkeypatch.setattr(document_module, "MAX_DOCUMENT_BYTES", path.stat().st_size + 1000)
    assert "together exceed" in errors_by_path(application(path))["/big"]
    monkeypatch.setattr(document_module, "MAX_DOCUMENT_BYTES", 100)
    with pytest.raises(DocumentError, match="exceed 100 bytes"):
        application(path)


def _spellings(word: str, count: int) -> list[str]:
    """``count`` ways of writing ``word`` in a fragment (percent-encoded letters)."""
    found = []
    for mask in range(count):
        letters = [
            f"%{ord(c):02X}" if mask >> i & 1 else c
            for i, c in enumerate(word[: count.bit_length()])
        ]
        found.append("".join(letters) + word[count.bit_length() :])
    return found


def test_every_spelling_of_a_reference_brings_in_one_target(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "lib.json").write_text(
        json.dumps({"Pet": {"type": "string"}, "a/b": {"type": "integer"}})
    )
    refs = [f"lib.json#/{spelled}" for spelled in _spellings("Pet", 8)]
    refs += ["./lib.json#/Pet", "lib%2Ejson#/Pet", "lib.json#/a~1b", "lib.json#/a%7E1b"]
    spec = document({}, components={})
    properties = {f"f{i}": {"$ref": ref} for i, ref in enumerate(refs)}
    spec["paths"] = {"/x": body_operation({"type": "object", "properties": properties})}
    path = folder / "api.json"
    path.write_text(json.dumps(spec))
    loaded = load(path)
    assert sorted(loaded["components"]["schemas"]) == ["Pet", "a/b"]
    properties = loaded["paths"]["/x"]["post"]["requestBody"]["content"]["application/json"][
        "schema"
    ]["properties"]
    assert {prop["$ref"] for prop in properties.values()} == {
        "#/components/schemas/Pet",
        "#/components/schemas/a~1b",
    }
    assert application(path).errors == []


def test_what_a_document_copies_counts_against_its_byte_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    inner = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(200)}}
    target = {"type": "object", "properties": {"b": inner}}
    (folder / "lib.json").write_text(json.dumps({"A": target}))
    refs = {"a": "lib.json#/A", "b": "lib.json#/A/properties/b"}
    path = write_spec(folder, refs)
    read = path.stat().st_size + (folder / "lib.json").stat().st_size
    copied = len(json.dumps(target, separators=(",", ":")))
    monkeypatch.setattr(document_module, "MAX_DOCUMENT_BYTES", read + copied + 100)
    errors = errors_by_path(application(path))
    assert "/a" not in errors  # the first copy fits
    assert "what it copies of them together exceed" in errors["/b"]


def test_a_document_brings_in_a_bounded_number_of_targets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "lib.json").write_text(json.dumps({f"T{i}": {"type": "string"} for i in range(5)}))
    monkeypatch.setattr(document_module, "MAX_BUNDLED_TARGETS", 3)
    path = write_spec(folder, {f"t{i}": f"lib.json#/T{i}" for i in range(5)})
    errors = errors_by_path(application(path))
    assert sorted(errors) == ["/t3", "/t4"]
    assert "more than 3 targets" in errors["/t4"]


def test_remote_references_are_never_fetched(tmp_path: Path) -> None:
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{"type": "string"}')

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/Pet.json"
        app = application(write_spec(tmp_path / "spec", {"pet": url}))
    finally:
        server.shutdown()
    assert hits == [] and app.functions == []
    assert "never fetched" in errors_by_path(app)["/pet"]


# YAML 1.2


def yaml_document(schema_lines: str) -> str:
    head = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /e:\n    post:\n"
    body = (
        "      requestBody:\n        content:\n          application/json:\n            schema:\n"
    )
    tail = "      responses: {200: {description: ok}}\n"
    return head + body + textwrap.indent(textwrap.dedent(schema_lines), " " * 14) + tail


def body_of(text: str) -> Any:
    (function,) = application(text).functions
    return function.parameters["properties"]["body"]


def test_yaml_is_read_with_yaml_1_2_meaning() -> None:
    body = body_of(
        yaml_document("""\
            type: object
            properties:
              when: {type: string, format: date-time, example: 2021-01-30T08:30:00Z}
              day: {type: string, enum: [2020-01-01, 2020-01-02]}
              country: {type: string, enum: [SE, NO, DK, on, off, y, n]}
              mode: {type: string, default: 0755}
              ratio: {type: number, default: 1.10, maximum: 1e3}
              hex: {type: integer, default: 0x1F}
              empty: {type: string, default: ~}
              flag: {type: boolean, default: true}
            """)
    )
    properties = body["properties"]
    assert properties["when"]["examples"] == ["2021-01-30T08:30:00Z"]
    assert properties["day"]["enum"] == ["2020-01-01", "2020-01-02"]
    assert properties["country"]["enum"] == ["SE", "NO", "DK", "on", "off", "y", "n"]
    assert properties["mode"]["default"] == 755  # YAML 1.2: no leading-zero octal
    assert properties["ratio"]["default"] == 1.1 and properties["ratio"]["maximum"] == 1000.0
    assert properties["hex"]["default"] == 31
    assert properties["empty"]["default"] is None and properties["flag"]["default"] is True
    json.dumps(body)  # every value has a JSON form


def test_core_tags_are_honoured() -> None:
    text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx: [!!str 123, !!float 1, !!int '7', !!null '', !!bool true, ! 12]\n"
    assert load(text)["x"] == ["123", 1.0, 7, None, True, "12"]


def test_scalar_keys_are_their_text() -> None:
    text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        200: {description: ok}\n        404: {description: no}\n"
    assert list(load(text)["paths"]["/a"]["get"]["responses"]) == ["200", "404"]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("x: !!binary aGVsbG8=", "tag:yaml.org,2002:binary has no JSON form"),
        ("x: !!timestamp 2021-01-30", "tag:yaml.org,2002:timestamp has no JSON form"),
        ("x: !!set {a, b}", "tag:yaml.org,2002:set has no JSON form"),
        ("x: !!python/object:os.system {}", "has no JSON form"),
        ("x: !!int twelve", "is not of its tag's type"),
        ("x: .inf", "is not a JSON number"),
        ("? [a, b]\n: c", "a key that is a mapping or a sequence"),
        ("base: &b {a: 1}\nx:\n  <<: *b", "merge keys (<<) are YAML 1.1"),
        ("x: 1\nx: 2", "the key 'x' is given twice"),
        ("x: &a [*a]", "inside the node it names"),
        ("x: 1\n---\ny: 2", "a second YAML document"),
    ],
)
def test_what_has_no_json_form_is_refused_with_its_line(line: str, reason: str) -> None:
    text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n" + line + "\n"
    with pytest.raises(DocumentError, match=r"the document text, line \d+, column \d+: "):
        load(text)
    with pytest.raises(DocumentError, match=re.escape(reason)):
        load(text)


def alias_bomb(levels: int) -> str:
    lines = ["openapi: 3.0.3", "info: {title: t, version: '1'}", "x-bomb:"]
    lines.append('  a0: &a0 {type: string, description: "lol"}')
    for i in range(1, levels + 1):
        props = ", ".join(f"p{k}: *a{i - 1}" for k in range(1, 10))
        lines.append(f"  a{i}: &a{i} {{type: object, properties: {{{props}}}}}")
    lines += [
        "paths:",
        "  /a:",
        "    post:",
        f"      requestBody: {{content: {{application/json: {{schema: *a{levels}}}}}}}",
        "      responses: {'200': {description: ok}}",
    ]
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_fails_fast_where_its_aliases_exceed_the_budget() -> None:
    text = alias_bomb(7)
    assert len(text) < 1200
    started = time.monotonic()
    with pytest.raises(DocumentError, match=f"more than {MAX_ALIAS_NODES:,} values") as raised:
        application(text)
    assert time.monotonic() - started < 30  # a guard against hanging, not a timing claim
    assert "line 9, column 52" in str(raised.value)  # the alias that crossed the budget
    # Aliases within the budget are read as the values they name.
    (function,) = application(alias_bomb(2)).functions
    body = function.parameters["properties"]["body"]
    assert body["properties"]["p9"]["properties"]["p1"]["description"] == "lol"


def deep_json_document(levels: int) -> str:
    deep = '{"allOf": [' * levels + '{"type": "string"}' + "]}" * levels
    shell = json.dumps(
        document({"/deep": body_operation("DEEP"), "/fine": {"get": {"responses": OK}}})
    )
    return shell.replace('"DEEP"', deep)


def test_deep_json_text_fails_only_its_operation() -> None:
    app = application(deep_json_document(450))
    assert [f.path for f in app.functions] == ["/fine"]
    assert f"nested more than {MAX_NESTING} levels deep" in errors_by_path(app)["/deep"]


def test_json_text_too_deep_to_read_is_a_document_error() -> None:
    with pytest.raises(DocumentError, match="exceeded maximum nesting depth"):
        application(deep_json_document(5000))


# Nesting


def nested(levels: int, keyword: str = "properties") -> Any:
    schema: Any = {"type": "string"}
    for _ in range(levels):
        if keyword == "properties":
            schema = {"type": "object", "properties": {"a": schema}}
        else:
            schema = {keyword: [schema] if keyword == "allOf" else schema}
    return schema


@pytest.mark.parametrize(
    ("levels", "keyword"), [(450, "properties"), (2000, "items"), (2000, "not")]
)
def test_deep_nesting_is_one_error_for_its_operation(levels: int, keyword: str) -> None:
    doc = document(
        {"/fine": {"get": {"responses": OK}}, "/deep": body_operation(nested(levels, keyword))}
    )
    app = application(doc)
    assert [f.path for f in app.functions] == ["/fine"]
    (error,) = app.errors
    assert error.path == "/deep"
    assert '$input.paths["/deep"].post.requestBody' in error.messages[0]


def test_a_deep_named_schema_fails_only_the_operations_that_use_it() -> None:
    doc = document(
        {
            "/fine": body_operation({"$ref": "#/components/schemas/Fine"}),
            "/deep": body_operation({"$ref": "#/components/schemas/Deep"}),
        },
        components={"schemas": {"Fine": {"type": "object"}, "Deep": nested(3000, "allOf")}},
    )
    app = application(doc)
    assert [f.path for f in app.functions] == ["/fine"]
    assert "components.schemas.Deep" in errors_by_path(app)["/deep"]


def test_a_deep_value_inside_a_schema_is_an_error_too() -> None:
    value: Any = 1
    for _ in range(3000):
        value = [value]
    app = application(document({"/v": body_operation({"type": "array", "default": value})}))
    assert app.functions == [] and "nested more than" in errors_by_path(app)["/v"]


# Schema mistakes


def test_schema_mistakes_are_build_errors_and_execute_never_raises() -> None:
    doc = document(
        {
            "/ok": body_operation({"type": "object"}),
            "/users": body_operation(
                {"type": "object", "properties": {"name": {"type": "string", "required": True}}}
            ),
            "/min": body_operation({"type": "object", "properties": {"n": {"minimum": "5"}}}),
            "/pat": body_operation({"type": "object", "properties": {"s": {"pattern": "(["}}}),
            "/mult": body_operation({"type": "object", "properties": {"n": {"multipleOf": 0}}}),
            "/cycle": body_operation({"$ref": "#/components/schemas/A"}),
        },
        components={
            "schemas": {
                "A": {"$ref": "#/components/schemas/B"},
                "B": {"$ref": "#/components/schemas/A"},
            }
        },
    )
    app = application(doc)
    assert [f.path for f in app.functions] == ["/ok"]
    found = errors_by_path(app)
    assert set(found) == {"/users", "/min", "/pat", "/mult", "/cycle"}
    assert found["/users"].startswith('$input.paths["/users"].post: parameters#/properties/body')
    assert "name/required" in found["/users"] and "minimum" in found["/min"]
    assert "pattern" in found["/pat"] and "multipleOf" in found["/mult"]
    assert {e.cause for e in app.errors} == {"schema"}
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json={"ok": True}))
    connection = Connection("http://127.0.0.1:9", transport=transport)
    assert app.execute(connection, "ok_post", '{"body": {}}').success
    missing = app.execute(connection, "users_post", '{"body": {"name": "ann"}}')
    assert not missing.success and "There is no function named" in (missing.feedback or "")
    completion = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "1",
                            "type": "function",
                            "function": {"name": "ok_post", "arguments": '{"body": {}}'},
                        },
                        {
                            "id": "2",
                            "type": "function",
                            "function": {"name": "users_post", "arguments": "{}"},
                        },
                    ],
                }
            }
        ]
    }
    answers = openai.call_tools(app, connection, completion)
    assert [a["tool_call_id"] for a in answers] == ["1", "2"]


# Human-side marks and text from the document


def test_x_llmapp_human_is_honoured_without_separate() -> None:
    body = {
        "type": "object",
        "properties": {
            "amount": {"type": "number"},
            "pin": {"type": "string", "x-llmapp-human": True},
        },
        "required": ["amount", "pin"],
    }
    (function,) = application(document({"/transfer": body_operation(body)})).functions
    assert function.separated is not None
    shown = json.dumps(openai.tools([function]))
    assert '"pin"' not in shown and '"amount"' in shown
    assert function.separated.human is not None
    assert "pin" in json.dumps(function.separated.human)
    sent: list[Any] = []

    def server(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json={"ok": True})

    app = application(document({"/transfer": body_operation(body)}))
    connection = Connection("http://127.0.0.1:9", transport=httpx.MockTransport(server))
    human = {"body": {"pin": "4321"}}
    result = app.execute(connection, function.name, '{"body": {"amount": 5}}', human=human)
    assert result.success and sent == [{"amount": 5, "pin": "4321"}]
    model_pin = '{"body": {"amount": 5, "pin": "0000"}}'
    assert app.execute(connection, function.name, model_pin, human=human).success
    assert sent[-1] == {"amount": 5, "pin": "4321"}  # the model's value never reaches it


def test_control_and_bidi_characters_are_dropped_from_descriptions() -> None:
    operation = {
        "get": {
            "summary": "Ok\x1b[2J\x07\u202etxet\u200b",
            "description": "a\x00b\r\nc",
            "tags": ["t\u202eag"],
            "parameters": [
                {
                    "name": "q",
                    "in": "query",
                    "description": "w\u2066x",
                    "schema": {"type": "string"},
                }
            ],
            "responses": OK,
        }
    }
    (function,) = application(document({"/p": operation})).functions
    assert function.description is not None
    assert function.description.startswith("Ok[2Jtxet.\n\nab\nc")
    assert function.tags == ["tag"]
    query = function.parameters["properties"]["query"]["properties"]["q"]
    assert query["description"] == "wx"


def test_control_characters_in_parameter_names_and_paths_are_refused() -> None:
    get = {"responses": OK}
    doc = document(
        {
            "/p": {
                "get": {**get, "parameters": [{"name": "q\nname", "in": "query", "schema": {}}]}
            },
            "/r\u202e": {"get": get},
            "/fine": {"get": get},
        }
    )
    app = application(doc)
    assert [f.path for f in app.functions] == ["/fine"]
    found = errors_by_path(app)
    assert "the parameter name 'q\\nname' holds the character U+000A" in found["/p"]
    assert "the path holds the character U+202E" in found["/r\u202e"]
