"""Validating the LLM half: a human-side key the LLM sends is reported as expected "undefined"."""

from __future__ import annotations

from typing import Any

from llmapp.schema import HUMAN_KEYWORD, is_file, is_human
from llmapp.separate import split_parameters
from llmapp.validate import ValidationIssue, validator

STRING = {"type": "string"}
PNG = {"type": "string", "contentMediaType": "image/png"}
SECRET = {"type": "string", HUMAN_KEYWORD: True}


def obj(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
        **extra,
    }


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


PARAMETERS = {
    **obj(
        {
            "to": STRING,
            "key": SECRET,
            "accounts": {"type": "array", "items": obj({"login": STRING, "password": SECRET})},
            "root": ref("Folder"),
        }
    ),
    "$defs": {
        "Folder": {
            **obj(
                {
                    "name": STRING,
                    "token": SECRET,
                    "children": {"type": "array", "items": ref("Folder")},
                }
            ),
        }
    },
}


def test_llm_side_accepts_what_the_llm_owns() -> None:
    llm, _ = split_parameters(PARAMETERS, is_human)
    value = {
        "to": "ann",
        "accounts": [{"login": "a"}, {"login": "b"}],
        "root": {"name": "r", "children": [{"name": "c", "children": []}]},
    }
    result = validator(llm)(value)
    assert result.success, result


def test_human_side_keys_sent_by_the_llm_are_superfluous() -> None:
    llm, _ = split_parameters(PARAMETERS, is_human)
    value = {
        "to": "ann",
        "key": "leaked",
        "accounts": [{"login": "a"}, {"login": "b", "password": "hunter2"}],
        "root": {
            "name": "r",
            "token": "t0",
            "children": [{"name": "c", "token": "t1", "children": []}],
        },
    }
    result = validator(llm)(value)
    assert not result.success
    assert sorted(result.errors, key=lambda issue: issue.path) == [
        ValidationIssue("$input.accounts[1].password", "undefined", "hunter2"),
        ValidationIssue("$input.key", "undefined", "leaked"),
        ValidationIssue("$input.root.children[0].token", "undefined", "t1"),
        ValidationIssue("$input.root.token", "undefined", "t0"),
    ]


def test_wholly_human_parameters_leave_an_llm_side_that_takes_only_an_empty_object() -> None:
    parameters = obj({"photo": PNG})
    llm, human = split_parameters(parameters, is_file)
    assert human is not None
    check = validator(llm)
    assert check({}).success
    result = check({"photo": "QQ=="})
    assert not result.success
    assert result.errors == [ValidationIssue("$input.photo", "undefined", "QQ==")]


def test_human_side_validates_what_the_human_supplies() -> None:
    _, human = split_parameters(PARAMETERS, is_human)
    assert human is not None
    check = validator(human)
    value = {
        "key": "k",
        "accounts": [{"password": "p"}],
        "root": {"token": "t", "children": [{"token": "u", "children": []}]},
    }
    assert check(value).success
    result = check({**value, "to": "ann"})
    assert not result.success
    assert result.errors == [ValidationIssue("$input.to", "undefined", "ann")]
