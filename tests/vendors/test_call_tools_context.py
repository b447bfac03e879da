"""call_tools passes the call's context to a class application: controls and context parameters."""

from __future__ import annotations

import asyncio
from typing import Annotated

from llmapp import application
from llmapp.markers import Context
from llmapp.vendors import anthropic, openai


class User:
    def __init__(self, name: str) -> None:
        self.name = name


class Notes:
    def save(self, text: str, user: Annotated[User, Context()]) -> str:
        """Save a note."""
        return f"{user.name}: {text}"


MESSAGE = {
    "role": "assistant",
    "tool_calls": [
        {
            "id": "c1",
            "type": "function",
            "function": {"name": "save", "arguments": '{"text": "hi"}'},
        }
    ],
}


def test_openai_call_tools_hands_the_context_to_context_parameters() -> None:
    (answer,) = openai.call_tools(application(Notes), Notes(), MESSAGE, context=User("ann"))
    assert answer["content"] == '"ann: hi"'


def test_without_a_context_the_call_does_not_run_and_the_others_go_on() -> None:
    (answer,) = openai.call_tools(application(Notes), Notes(), MESSAGE)
    assert answer["content"] == "The call could not be run (ExecutionError); nothing was returned."


def test_anthropic_acall_tools_hands_the_context_too() -> None:
    response = {
        "content": [{"type": "tool_use", "id": "t1", "name": "save", "input": {"text": "yo"}}]
    }
    (answer,) = asyncio.run(
        anthropic.acall_tools(application(Notes), Notes(), response, context=User("bo"))
    )
    assert answer["content"] == '"bo: yo"'
