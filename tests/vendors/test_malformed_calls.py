"""Malformed tool calls: every call id is answered, no answer carries a ``None`` id."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from llmapp import application, llm_application
from llmapp.vendors import anthropic, gemini, openai


@llm_application
class Shop:
    def __init__(self) -> None:
        self.ran: list[str] = []

    def search(self, query: str) -> list[str]:
        """Search."""
        self.ran.append(query)
        return [query]


def _chat(*calls: dict[str, Any]) -> dict[str, Any]:
    return {"choices": [{"message": {"role": "assistant", "tool_calls": list(calls)}}]}


GOOD = {
    "id": "call_2",
    "type": "function",
    "function": {"name": "search", "arguments": '{"query": "a"}'},
}


@pytest.mark.parametrize(
    "broken",
    [
        {"id": "call_1", "type": "function"},
        {"id": "call_1", "type": "function", "function": None},
        {"id": "call_1", "type": "function", "function": {"arguments": "{}"}},
        {"id": "call_1", "type": "function", "function": "search"},
    ],
)
def test_a_chat_call_without_a_function_is_answered_by_its_id(broken: dict[str, Any]) -> None:
    app, shop = application(Shop), Shop()
    answers = openai.call_tools(app, shop, _chat(broken, GOOD))
    assert [answer["tool_call_id"] for answer in answers] == ["call_1", "call_2"]
    assert "The functions are: 'search'" in answers[0]["content"]
    assert answers[1]["content"] == '["a"]'
    assert shop.ran == ["a"]


@pytest.mark.parametrize("identifier", [None, "", 7])
def test_a_call_without_an_id_is_not_run_and_no_none_id_is_written(identifier: Any) -> None:
    app, shop = application(Shop), Shop()
    call = {"type": "function", "function": {"name": "search", "arguments": '{"query": "x"}'}}
    if identifier is not None:
        call["id"] = identifier
    answers = openai.call_tools(app, shop, _chat(call, GOOD))
    assert answers == [{"role": "tool", "tool_call_id": "call_2", "content": '["a"]'}]
    assert shop.ran == ["a"]
    responses = [
        {"type": "function_call", "name": "search", "arguments": '{"query": "x"}'},
        {"type": "function_call", "call_id": "c2", "name": "search", "arguments": '{"query": "b"}'},
    ]
    assert [a["call_id"] for a in openai.call_tools(app, shop, responses)] == ["c2"]


def test_anthropic_answers_every_tool_use_id_and_never_none() -> None:
    app, shop = application(Shop), Shop()
    message = {
        "content": [
            {"type": "tool_use", "name": "search", "input": {"query": "x"}},
            {"type": "tool_use", "id": "t1", "input": {}},
            {"type": "tool_use", "id": "t2", "name": "search", "input": {"query": "b"}},
        ]
    }
    answers = asyncio.run(anthropic.acall_tools(app, shop, message))
    assert [(a["tool_use_id"], a["is_error"]) for a in answers] == [("t1", True), ("t2", False)]
    assert shop.ran == ["b"]


def test_a_gemini_part_without_a_name_is_answered_with_a_text_name() -> None:
    app = application(Shop)
    (answer,) = gemini.call_tools(app, Shop(), [{"function_call": {"args": {}}}])
    assert answer["function_response"]["name"] == ""
    assert "The functions are" in answer["function_response"]["response"]["error"]


def test_tool_calls_that_are_not_a_list_are_no_calls() -> None:
    app = application(Shop)
    message = {"role": "assistant", "tool_calls": {"id": "x", "function": {"name": "search"}}}
    assert openai.call_tools(app, Shop(), message) == []
