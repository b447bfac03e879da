"""Code injection: schema strings reach generated code only through repr() or as globals."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from typing import Any

import pytest

from llmapp.jsonschema import step
from llmapp.validate import UNDEFINED, SchemaError, validator

NASTY = [
    '"); import os #',
    "'); import os #",
    '"""; import os; """',
    "'''; __import__('os').system('echo pwned') #",
    "a\nimport os\nb",
    "\\",
    "\\'",
    "}{",
    "{0}",
    "%s%d",
    "\x00\x01\x7f",
    "é \u2028 \u2029 \ufeff 🐲",
    "\ud800",
    " ",
    "",
    "__import__",
    "e.append",
    "v",
    "d + 1",
]


def _tripwire(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    import os

    monkeypatch.setattr(os, "system", lambda command: calls.append(command) or 0)
    return calls


@pytest.mark.parametrize("text", NASTY)
def test_property_names(
    compile: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    calls = _tripwire(monkeypatch)
    schema = {
        "type": "object",
        "properties": {text: {"type": "integer"}, "ok": {"type": "string"}},
        "required": [text],
        "additionalProperties": False,
        "description": text,
        "title": text,
    }
    check = compile(schema)
    ast.parse(check.source)
    assert check({text: 1}).success
    assert [(e.path[:6], e.expected, e.value) for e in check({}).errors] == [
        ("$input", "integer", UNDEFINED)
    ]
    assert [e.value for e in check({text: "x", "other": 2}).errors] == ["x", 2]
    assert not calls


@pytest.mark.parametrize("text", NASTY)
def test_enum_const_and_defaults(
    compile: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    calls = _tripwire(monkeypatch)
    check = compile({"enum": [text, "plain"], "default": text, "examples": [text]})
    assert check(text).success and check("plain").success
    assert check(text + "!").errors[0].value == text + "!"
    const = compile({"const": text, "$comment": text})
    assert const(text).success and not const("other").success
    assert not calls


@pytest.mark.parametrize("text", [text for text in NASTY if text != "\ud800"])
def test_defs_names_and_refs(
    compile: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    calls = _tripwire(monkeypatch)
    pointer = text.replace("~", "~0").replace("/", "~1")
    from urllib.parse import quote

    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/" + quote(pointer)}},
        "$defs": {
            text: {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}
        },
    }
    check = compile(schema)
    ast.parse(check.source)
    assert check({"a": {"x": 1}}).success
    result = check({"a": 5})
    assert result.errors[0].path == "$input.a"
    assert result.errors[0].expected == (text if text else "object")
    assert not calls


@pytest.mark.parametrize(
    ("pattern", "matching", "other"),
    [
        ("^'\\); import os #$", "'); import os #", "x"),
        ('^"\\n"$', '"\n"', '"n"'),
        ("^a'b\\\\$", "a'b\\", "a'b"),
        ("^[\"']$", "'", "a"),
        ("^\\u0027{2}$", "''", "'"),
    ],
)
def test_patterns(
    compile: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    pattern: str,
    matching: str,
    other: str,
) -> None:
    calls = _tripwire(monkeypatch)
    check = compile({"type": "string", "pattern": pattern})
    ast.parse(check.source)
    assert check(matching).success
    assert check(other).errors[0].expected == f"string & Pattern<{json.dumps(pattern)}>"
    keys = compile({"type": "object", "patternProperties": {pattern: {"type": "null"}}})
    assert keys({matching: None, other: 1}).success
    assert [e.path for e in keys({matching: 1}).errors] == ["$input" + step(matching)]
    assert not calls


@pytest.mark.parametrize("pattern", ["\\d+'); import os #", "a\\'b", "(?P<x>a)"])
def test_patterns_that_are_not_ecma_are_reported_at_build_time(pattern: str) -> None:
    with pytest.raises(SchemaError) as raised:
        validator({"properties": {"a": {"pattern": pattern}}})
    assert [problem.location for problem in raised.value.problems] == ["#/properties/a/pattern"]


@pytest.mark.parametrize("text", NASTY)
def test_formats_and_discriminators(
    compile: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    calls = _tripwire(monkeypatch)
    schema = {
        "oneOf": [
            {"type": "object", "properties": {text: {"const": text}}, "required": [text]},
            {"type": "object", "properties": {text: {"const": "b"}}, "required": [text]},
        ],
        "discriminator": {"propertyName": text},
        "format": text,
    }
    check = compile(schema)
    assert check({text: text}).success
    result = check({text: "zzz"})
    assert result.errors[0].value == "zzz"
    assert not calls


def test_the_source_is_readable_python(compile: Callable[..., Any]) -> None:
    check = compile(
        {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    )
    tree = ast.parse(check.source)
    names = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert names == ["c_root", "w_root"]
    assert "'name'" in check.source


@pytest.mark.parametrize("text", NASTY)
def test_definition_names_in_function_headers(
    compile: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    calls = _tripwire(monkeypatch)
    schema = {
        "type": "object",
        "properties": {text: {"anyOf": [{"$ref": f"#/$defs/{text}"}, {"type": "null"}]}},
        "$defs": {text: {"type": "object", "properties": {"n": {"type": "integer"}}}},
    }
    check = compile(schema)
    tree = ast.parse(check.source)
    assert len([node for node in tree.body if isinstance(node, ast.FunctionDef)]) >= 4
    assert not check({text: {"n": "x"}}).success and check({text: None}).success
    assert calls == []
