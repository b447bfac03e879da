"""pydantic-ai: llmapp's toolset driven by pydantic-ai's own FunctionModel, offline."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

import pytest
from tests.support.sdk import needs

from .conftest import RIGHT, SECRET, WRONG

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage, ModelResponse
    from pydantic_ai.models.function import AgentInfo, FunctionModel

pytestmark = needs("pydantic_ai")


@dataclass
class User:
    signature: str


def scripted(*calls: tuple[str, dict[str, Any]]) -> tuple[FunctionModel, list[AgentInfo]]:
    """A model that makes each call in turn, then answers with the last tool result it saw."""
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    seen: list[AgentInfo] = []

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(info)
        turn = len(seen) - 1
        if turn < len(calls):
            name, arguments = calls[turn]
            return ModelResponse(parts=[ToolCallPart(name, json.dumps(arguments), f"call{turn}")])
        return ModelResponse(parts=[TextPart("done")])

    return FunctionModel(respond), seen


def parts(messages: list[ModelMessage], kind: type) -> list[Any]:
    from pydantic_ai.messages import ModelRequest

    return [
        part
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, kind)
    ]


def test_a_wrong_call_is_retried_with_llmapps_feedback_and_the_corrected_call_runs(app, desk):
    from pydantic_ai import Agent
    from pydantic_ai.messages import ToolReturnPart

    from llmapp.agents.pydantic_ai import toolset

    model, _seen = scripted(("book", WRONG), ("book", RIGHT))
    agent = Agent(model, toolsets=[toolset(app, desk)])
    result = agent.run_sync("Book the blue room.")
    returned = parts(result.all_messages(), ToolReturnPart)
    assert [part.outcome for part in returned] == ["retried", "success"]
    assert returned[0].retry.cause == "model_retry"
    feedback = returned[0].content
    assert isinstance(feedback, str)
    for path in ("$input.seats", "$input.day", "$input.extra"):
        assert path in feedback
    assert desk.seen == [("book", ("blue", 4, date(2026, 12, 24)))]
    assert returned[1].content == {"room": "blue", "seats": 4}
    assert result.output == "done"


def test_max_retries_applies_to_wrong_calls(app, desk):
    from pydantic_ai import Agent
    from pydantic_ai.exceptions import UnexpectedModelBehavior

    from llmapp.agents.pydantic_ai import toolset

    model, _ = scripted(("book", WRONG), ("book", WRONG), ("book", WRONG))
    agent = Agent(model, toolsets=[toolset(app, desk, max_retries=1)])
    with pytest.raises(UnexpectedModelBehavior, match="exceeded max retries"):
        agent.run_sync("Book the blue room.")
    assert desk.seen == []


def test_the_human_side_comes_from_the_run_context_and_never_reaches_the_model(app, desk):
    from pydantic_ai import Agent

    from llmapp.agents.pydantic_ai import toolset

    model, seen = scripted(("sign", {"booking": "blue"}))
    tools = toolset(app, desk, human=lambda name, ctx: {"signature": ctx.deps.signature})
    agent = Agent(model, deps_type=User, toolsets=[tools])
    result = agent.run_sync("Sign it.", deps=User(SECRET))
    sign = next(tool for tool in seen[0].function_tools if tool.name == "sign")
    assert sign.parameters_json_schema["properties"].keys() == {"booking"}
    assert desk.seen == [("sign", ("blue", SECRET))]
    assert SECRET not in repr(result.all_messages())


def test_a_method_that_raises_is_answered_with_its_bounded_message(app, desk):
    from pydantic_ai import Agent
    from pydantic_ai.messages import ToolReturnPart

    from llmapp.agents.pydantic_ai import toolset

    model, _ = scripted(("cancel", {"room": "blue"}))
    result = Agent(model, toolsets=[toolset(app, desk)]).run_sync("Cancel.")
    (failed,) = parts(result.all_messages(), ToolReturnPart)
    assert failed.outcome == "failed"
    assert "PermissionError: blue is locked" in str(failed.content)


def test_the_class_docstring_is_the_toolsets_instructions(app, desk):
    from pydantic_ai import Agent

    from llmapp.agents.pydantic_ai import toolset

    model, seen = scripted()
    Agent(model, toolsets=[toolset(app, desk)]).run_sync("Hi.")
    assert "Books meeting rooms for the office." in (seen[0].instructions or "")


def raw(*texts: str) -> FunctionModel:
    """A model that sends each argument text in turn, exactly as written, then says done."""
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        turn = sum(isinstance(m, ModelResponse) for m in messages)
        if turn < len(texts):
            return ModelResponse(parts=[ToolCallPart("book", texts[turn], f"call{turn}")])
        return ModelResponse(parts=[TextPart("done")])

    return FunctionModel(respond)


def test_the_models_argument_text_reaches_llmapps_reader_unparsed(app, desk):
    from pydantic_ai import Agent
    from pydantic_ai.messages import ToolReturnPart

    from llmapp.agents.pydantic_ai import toolset

    # pydantic's JSON parser refuses all three; llmapp reads the first two and repairs them.
    fenced = '```json\n{"room": "blue", "seats": 4, "day": "2026-12-24",}\n```'
    commented = '{"room": "blue", "seats": "four", /* four */ "day": "2026-12-24",}'
    prose = "room blue, four seats"
    result = Agent(
        raw(prose, commented, fenced), toolsets=[toolset(app, desk, max_retries=2)]
    ).run_sync("Book the blue room.")
    returned = parts(result.all_messages(), ToolReturnPart)
    assert [part.outcome for part in returned] == ["retried", "retried", "success"]
    unreadable, wrong = (part.content for part in returned[:2])
    assert "could not be read" in unreadable and "Invalid JSON" not in unreadable
    assert '"seats": "four", // ❌' in wrong and "$input.seats" in wrong  # read, then checked
    assert all(part.retry.cause == "model_retry" for part in returned[:2])
    assert returned[2].content == {"room": "blue", "seats": 4}
    assert desk.seen == [("book", ("blue", 4, date(2026, 12, 24)))]
