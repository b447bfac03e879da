"""Documents to functions: dialects, names, descriptions, errors, and the requests sent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from llmapp import ValidationFailure, ValidationIssue
from llmapp.http import ArgumentError, Connection, DocumentError, application, execute

OK = {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}


def document(paths: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": paths, **extra}


def sent(app: Any, name: str, arguments: Any, **options: Any) -> httpx.Request:
    """The request a call sends (through a mock transport that answers {})."""
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={})

    connection = Connection("http://api.test/v1", transport=httpx.MockTransport(answer), **options)
    execute(connection, app.function(name), arguments)
    return seen[0]


def test_swagger_2_is_read_as_openapi_3() -> None:
    swagger = {
        "swagger": "2.0",
        "info": {"title": "t", "version": "1"},
        "host": "api.test",
        "basePath": "/v2",
        "parameters": {"limit": {"name": "limit", "in": "query", "type": "integer", "minimum": 1}},
        "definitions": {
            "Pet": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string"},
                    "tag": {"type": "string", "x-nullable": True},
                },
            }
        },
        "paths": {
            "/pets/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": True, "type": "integer"}],
                "get": {
                    "parameters": [
                        {"$ref": "#/parameters/limit"},
                        {
                            "name": "tags",
                            "in": "query",
                            "type": "array",
                            "items": {"type": "string"},
                            "collectionFormat": "multi",
                        },
                    ],
                    "responses": {
                        "200": {"description": "ok", "schema": {"$ref": "#/definitions/Pet"}}
                    },
                },
                "put": {
                    "parameters": [
                        {
                            "name": "pet",
                            "in": "body",
                            "required": True,
                            "schema": {"$ref": "#/definitions/Pet"},
                        }
                    ],
                    "responses": {"200": {"description": "ok"}},
                },
                "post": {
                    "consumes": ["multipart/form-data"],
                    "parameters": [
                        {"name": "title", "in": "formData", "type": "string", "required": True},
                        {"name": "file", "in": "formData", "type": "file", "required": True},
                    ],
                    "responses": {"201": {"description": "made"}},
                },
            }
        },
    }
    before = json.dumps(swagger)
    app = application(swagger)
    assert json.dumps(swagger) == before  # the document is read, never changed
    assert app.servers == ["https://api.test/v2"]
    get, put, post = (app.function(n) for n in ("pets_getById", "pets_putById", "pets_postById"))
    assert get is not None and put is not None and post is not None
    assert get.parameters["properties"]["query"] == {
        "type": "object",
        "properties": {
            "limit": {"type": "integer", "minimum": 1},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": [],
        "additionalProperties": False,
    }
    assert get.output is not None and get.output["$ref"] == "#/$defs/Pet"
    assert get.output["$defs"]["Pet"]["properties"]["tag"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}]
    }
    assert put.parameters["required"] == ["id", "body"]
    assert [p["name"] for p in put.operation()["parameters"]] == ["id"]
    assert put.operation()["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/$defs/Pet"
    }
    assert put.parameters["$defs"] == get.output["$defs"]
    assert post.route().body is not None and post.route().body.kind == "multipart"
    assert post.separated is not None and post.separated.human is not None
    assert post.separated.human["properties"]["body"]["properties"] == {
        "file": {"type": "string", "format": "binary"}
    }
    request = sent(app, "pets_getById", {"id": 3, "query": {"limit": 2, "tags": ["a", "b"]}})
    assert str(request.url) == "http://api.test/v1/pets/3?limit=2&tags=a&tags=b"


def test_openapi_3_0_keywords_become_2020_12() -> None:
    schema = {
        "type": "number",
        "minimum": 0,
        "exclusiveMinimum": True,
        "nullable": True,
        "example": 3,
    }
    doc = document(
        {
            "/n": {
                "post": {
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": schema}},
                    },
                    "responses": OK,
                }
            }
        },
        openapi="3.0.3",
    )
    (function,) = application(doc).functions
    assert function.parameters["properties"]["body"] == {
        "examples": [3],
        "anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "null"}],
    }
    assert not function.validate({"body": 0}).success
    assert function.validate({"body": None}).success


def test_names_follow_the_accessor_rule() -> None:
    paths = {
        "/users": {"get": {"responses": OK}},
        "/users/get": {"get": {"responses": OK}},
        "/users/{user-id}": {"delete": {"responses": OK}},
        "/v1.0/files/{name}:download": {"get": {"operationId": "download file", "responses": OK}},
        "/a/very/long/path/with/many/segments/that/goes/on/{and_on}": {"get": {"responses": OK}},
    }
    names = [f.name for f in application(document(paths), max_name_length=32).functions]
    assert names == [
        "users__get",
        "users_get_get",
        "users_eraseByUser_id",
        "v1_0_files__download_getByName",
        "that_goes_on_getByAnd_on",
    ]
    assert names == [f.name for f in application(document(paths), max_name_length=32).functions]
    by_id = application(document(paths), naming="operationId").functions
    assert by_id[3].name == "download_file"
    tiny = [f.name for f in application(document(paths), max_name_length=16).functions]
    assert all(len(name) <= 16 for name in tiny) and len(set(tiny)) == len(tiny)


def test_description_is_composed_once() -> None:
    operation = {
        "summary": "Get a pet.",
        "description": "Get a pet by its id.",
        "tags": ["pets"],
        "deprecated": True,
        "security": [{"oauth": ["read", "write"]}],
        "parameters": [
            {
                "name": "id",
                "in": "path",
                "required": True,
                "description": "The pet's id.",
                "schema": {"type": "string"},
            }
        ],
        "responses": OK,
    }
    (function,) = application(document({"/pets/{id}": {"get": operation}})).functions
    assert function.description == (
        "Get a pet by its id.\n\n@param id The pet's id.\n@security oauth read write\n@tag pets\n@deprecated"
    )
    assert function.parameters["properties"]["id"]["description"] == "The pet's id."
    assert function.deprecated and function.tags == ["pets"]


def test_unconvertible_operations_are_located_errors() -> None:
    paths = {
        "/x": {
            "head": {"responses": OK},
            "post": {
                "requestBody": {"content": {"application/xml": {"schema": {"type": "object"}}}},
                "responses": OK,
            },
            "put": {
                "requestBody": {
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Gone"}}
                    }
                },
                "responses": OK,
            },
            "get": {"responses": OK},
            "patch": {"x-samchon-human": True, "responses": OK},
        }
    }
    app = application(document(paths))
    assert [f.name for f in app.functions] == ["x_get"]
    errors = {e.method: e for e in app.errors}
    assert set(errors) == {"head", "post", "put"}
    assert errors["head"].cause == "method"
    assert errors["post"].messages[0].startswith('$input.paths["/x"].post.requestBody.content: ')
    assert errors["put"].cause == "reference"
    assert errors["put"].messages == (
        '$input.paths["/x"].put.requestBody.content["application/json"].schema: '
        "$ref '#/$defs/Gone' points at nothing in this document",
    )


def test_query_styles_and_connection_values() -> None:
    parameters = [
        {
            "name": "filter",
            "in": "query",
            "style": "deepObject",
            "explode": True,
            "schema": {"type": "object"},
        },
        {
            "name": "ids",
            "in": "query",
            "explode": False,
            "schema": {"type": "array", "items": {"type": "integer"}},
        },
        {
            "name": "tags",
            "in": "query",
            "style": "pipeDelimited",
            "explode": False,
            "schema": {"type": "array", "items": {"type": "string"}},
        },
        {"name": "flag", "in": "query", "schema": {"type": "boolean"}},
        {"name": "X-Tenant", "in": "header", "required": True, "schema": {"type": "string"}},
    ]
    app = application(document({"/s": {"get": {"parameters": parameters, "responses": OK}}}))
    (function,) = app.functions
    assert "X-Tenant" not in json.dumps(function.parameters)
    arguments = {
        "query": {"filter": {"a": {"b": 1}}, "ids": [1, 2], "tags": ["x", "y"], "flag": True}
    }
    request = sent(app, "s_get", arguments, headers={"X-Tenant": "t1"}, query={"key": "k"})
    assert request.url.params.multi_items() == [
        ("filter[a][b]", "1"),
        ("ids", "1,2"),
        ("tags", "x|y"),
        ("flag", "true"),
        ("key", "k"),
    ]
    assert request.headers["x-tenant"] == "t1"


def test_form_bodies_and_hooks() -> None:
    form = {
        "type": "object",
        "properties": {
            "n": {"type": "integer"},
            "xs": {"type": "array", "items": {"type": "string"}},
        },
    }
    doc = document(
        {
            "/f": {
                "post": {
                    "requestBody": {
                        "content": {"application/x-www-form-urlencoded": {"schema": form}}
                    },
                    "responses": OK,
                }
            }
        }
    )
    app = application(doc)
    request = sent(app, "f_post", '{"body": {"n": "4", "xs": ["a", "b"]}}')
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert request.content == b"n=4&xs=a&xs=b"

    def refuse(arguments: Any) -> ValidationFailure:
        return ValidationFailure(arguments, [ValidationIssue("$input.body.n", "even", 3)])

    hooked = application(doc, validate={"f_post": refuse})
    with pytest.raises(ArgumentError, match="even"):
        sent(hooked, "f_post", {"body": {"n": 3}})
    with pytest.raises(ValueError, match="name no function"):
        application(doc, validate={"nope": refuse})


def test_strict_parameters_keep_their_constraints() -> None:
    body = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1},
            "s": {"type": "string", "minLength": 2},
        },
        "required": ["n"],
    }
    doc = document(
        {
            "/b": {
                "post": {
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": body}},
                    },
                    "responses": OK,
                }
            }
        }
    )
    (function,) = application(doc, strict=True).functions
    strict_body = function.parameters["properties"]["body"]
    assert strict_body["required"] == ["n", "s"] and strict_body["additionalProperties"] is False
    assert not function.validate({"body": {"n": 1, "s": "x"}}).success  # minLength still checked


def test_documents_from_text_yaml_and_split_files(tmp_path: Path) -> None:
    text = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /p:\n    get:\n      responses: {'200': {description: ok}}\n"
    assert [f.name for f in application(text).functions] == ["p_get"]
    (tmp_path / "node.json").write_text(
        json.dumps(
            {
                "type": "object",
                "properties": {"next": {"$ref": "node.json"}, "leaf": {"$ref": "leaf.json#/Leaf"}},
            }
        )
    )
    (tmp_path / "leaf.json").write_text(json.dumps({"Leaf": {"type": "string"}}))
    main = document(
        {
            "/t": {
                "post": {
                    "requestBody": {
                        "content": {"application/json": {"schema": {"$ref": "node.json"}}}
                    },
                    "responses": OK,
                }
            }
        }
    )
    (tmp_path / "main.json").write_text(json.dumps(main))
    (function,) = application(tmp_path / "main.json").functions
    assert function.parameters["properties"]["body"] == {"$ref": "#/$defs/node"}
    assert function.parameters["$defs"]["node"]["properties"] == {
        "next": {"$ref": "#/$defs/node"},
        "leaf": {"$ref": "#/$defs/Leaf"},
    }
    with pytest.raises(DocumentError):
        application({"info": {}})


def test_a_lone_object_query_parameter_spreads_its_properties() -> None:
    components = {
        "schemas": {
            "Filter": {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
            },
            "Mode": {"type": "string", "enum": ["x", "y"]},
        }
    }
    spread = [{"name": "filter", "in": "query", "schema": {"$ref": "#/components/schemas/Filter"}}]
    kept = [{"name": "mode", "in": "query", "schema": {"$ref": "#/components/schemas/Mode"}}]
    paths = {
        "/s": {"get": {"parameters": spread, "responses": OK}},
        "/k": {"get": {"parameters": kept, "responses": OK}},
    }
    app = application(document(paths, components=components))
    assert app.functions[0].parameters["properties"]["query"] == {"$ref": "#/$defs/Filter"}
    assert sent(app, "s_get", {"query": {"a": 1, "b": "x"}}).url.query == b"a=1&b=x"
    assert app.functions[1].parameters["properties"]["query"]["properties"] == {
        "mode": {"$ref": "#/$defs/Mode"}
    }
    assert sent(app, "k_get", {"query": {"mode": "y"}}).url.query == b"mode=y"


def test_an_accessor_that_prefixes_another_pushes_an_underscore() -> None:
    paths = {"/a": {"get": {"responses": OK}}, "/a/get/x": {"get": {"responses": OK}}}
    assert [f.name for f in application(document(paths)).functions] == ["a_get", "a__get_x_get"]
