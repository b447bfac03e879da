"""Lone surrogates from the model are refused at their path; no text for the model holds one."""

from __future__ import annotations

import json
from typing import Any

import pytest

from llmapp import application, llm_application
from llmapp.repair import lone_surrogates
from llmapp.vendors import anthropic, openai


@llm_application
class Notes:
    def __init__(self) -> None:
        self.added: list[str] = []

    def add(self, text: str, tags: dict[str, int] | None = None) -> str:
        """Add a note."""
        self.added.append(text)
        return text

    def echo(self, count: int) -> str:
        """Echo."""
        return "half \ud83d of a pair"


@pytest.mark.parametrize(
    ("arguments", "path"),
    [
        (r'{"text": "\ud800"}', "$input.text"),
        (r'{"text": "a\udc00b"}', "$input.text"),
        (r'{"text": "ok", "tags": {"k\ud83d": 1}}', '$input.tags["k\\ud83d"]'),
        (r'{"text": "x", "tags": {"a": 1,}, "more": "\ud800"}', "$input.more"),  # read leniently
        ({"text": "\ud800"}, "$input.text"),  # a mapping from the SDK
        (b'{"text": "\\ud800"}', "$input.text"),
    ],
)
def test_a_lone_surrogate_is_an_issue_at_its_path_and_nothing_runs(
    arguments: Any, path: str
) -> None:
    notes = Notes()
    result = application(Notes).execute(notes, "add", arguments)
    assert not result.success and notes.added == []
    assert path in [issue.path for issue in result.validation.errors]
    message = result.message()
    message.encode("utf-8")  # raised UnicodeEncodeError
    assert "surrogate pair" in message and json.dumps(path)[1:-1] in message


def test_a_whole_pair_is_one_character() -> None:
    notes = Notes()
    result = application(Notes).execute(notes, "add", r'{"text": "\ud83d\ude00"}')
    assert result.success and notes.added == ["😀"]


def test_every_message_is_encodable_and_valid_json() -> None:
    result = application(Notes).execute(Notes(), "echo", '{"count": 1}')
    text = result.message()
    text.encode("utf-8")
    assert json.loads(text) == "half \ud83d of a pair"  # the escape reads back as written
    wrong = application(Notes).execute(Notes(), "echo", '{"count": "x\ud800"}')
    wrong.message().encode("utf-8")


def test_call_tools_answers_every_call_and_the_next_request_can_be_sent() -> None:
    app, notes = application(Notes), Notes()
    completion = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "1",
                "type": "function",
                "function": {"name": "add", "arguments": '{"text": "fine"}'},
            },
            {
                "id": "2",
                "type": "function",
                "function": {"name": "add", "arguments": r'{"text": "\ud800"}'},
            },
        ],
    }
    answers = openai.call_tools(app, notes, completion)
    assert [answer["tool_call_id"] for answer in answers] == ["1", "2"]
    assert notes.added == ["fine"]
    json.dumps(answers, ensure_ascii=False).encode("utf-8")  # what an SDK sends
    blocks = anthropic.call_tools(
        app, notes, [{"type": "tool_use", "id": "t", "name": "add", "input": {"text": "\udfff"}}]
    )
    assert blocks[0]["is_error"] and "\\udfff" in blocks[0]["content"]


def test_the_finder_reports_keys_and_values_in_order_and_is_bounded() -> None:
    issues = lone_surrogates({"a": ["ok", "\ud800"], "\udc00": 1, "b": "\ud801" * 3})
    assert [(i.path, i.expected) for i in issues] == [
        ("$input.a[1]", "string"),
        ('$input["\\udc00"]', "undefined"),
        ("$input.b", "string"),
    ]
    assert len(lone_surrogates(["\ud800"] * 500)) == 50


def test_a_surrogate_a_repair_reads_out_of_a_stringified_object_is_refused_too() -> None:
    from llmapp import application, llm_application

    @llm_application
    class Notes:
        def keep(self, note: dict[str, str]) -> str:
            """Keep a note."""
            raise AssertionError("never runs")

    text = r'{"note": "{\"k\": \"\\ud800\"}"}'  # the reader sees an escape inside a string
    result = application(Notes).execute(Notes(), "keep", text)
    assert result.validation is not None
    assert [issue.path for issue in result.validation.errors] == ["$input.note.k"]
    result.message().encode("utf-8")
