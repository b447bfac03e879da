"""OpenAI Agents SDK: llmapp's FunctionTools run by the SDK's Runner with a Model of our own."""

from __future__ import annotations

import json
from datetime import date
from typing import TYPE_CHECKING

from tests.support.sdk import needs

from llmapp import application
from llmapp.vendors import openai

from .conftest import RIGHT, SECRET, WRONG, Desk

if TYPE_CHECKING:
    from .agents_sdk import Scripted

pytestmark = needs("agents")


def outputs(model: Scripted) -> list[str]:
    """The function_call_output texts the model was sent, in order."""
    return [
        item["output"]
        for item in model.inputs[-1]
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    ]


def test_a_wrong_call_is_answered_with_llmapps_feedback_and_the_corrected_call_runs(app, desk):
    from agents import Agent, Runner

    from llmapp.agents.openai_agents import tools

    from .agents_sdk import Scripted

    # The first text also has a trailing comma: llmapp's reader repairs it.
    model = Scripted(("book", json.dumps(WRONG)[:-1] + ",}"), ("book", json.dumps(RIGHT)))
    agent = Agent(name="desk", model=model, tools=tools(app, desk))
    result = Runner.run_sync(agent, "Book blue.")
    assert result.final_output == "done"
    first, second = outputs(model)
    for path in ("$input.seats", "$input.day", "$input.extra"):
        assert path in first
    assert json.loads(second) == {"room": "blue", "seats": 4}
    assert desk.seen == [("book", ("blue", 4, date(2026, 12, 24)))]


def test_the_strict_flag_agrees_with_the_schema_so_the_sdk_keeps_it(app, desk):
    from llmapp.agents.openai_agents import tools

    loose = {tool.name: tool for tool in tools(app, desk)}
    # `cancel` has an optional parameter: not strict, so the SDK keeps its schema as it is.
    assert loose["cancel"].strict_json_schema is False
    assert loose["cancel"].params_json_schema == app.function("cancel").parameters
    assert loose["book"].strict_json_schema is True  # already follows the strict rules
    assert loose["book"].params_json_schema == app.function("book").parameters
    assert loose["sign"].params_json_schema == app.function("sign").separated.llm
    strict = {tool.name: tool for tool in tools(app, desk, strict=True)}
    expected = openai.tools(app, strict=True, api="responses")
    for entry in expected:
        assert strict[entry["name"]].strict_json_schema is True
        assert strict[entry["name"]].params_json_schema == entry["parameters"]
    built_strict = application(Desk, strict=True)
    auto = {tool.name: tool for tool in tools(built_strict, desk)}
    assert all(tool.strict_json_schema for tool in auto.values())
    assert auto["book"].params_json_schema == built_strict.function("book").parameters


def test_the_human_side_comes_from_the_run_context_and_never_reaches_the_model(app, desk):
    from agents import Agent, Runner

    from llmapp.agents.openai_agents import tools

    from .agents_sdk import Scripted

    model = Scripted(("sign", '{"booking": "blue"}'))
    made = tools(app, desk, human=lambda name, context: {"signature": context.context["signature"]})
    agent = Agent(name="desk", model=model, tools=made)
    Runner.run_sync(agent, "Sign.", context={"signature": SECRET})
    assert desk.seen == [("sign", ("blue", SECRET))]
    sign = next(tool for tool in model.tools if tool.name == "sign")
    assert "signature" not in json.dumps(sign.params_json_schema)
    assert SECRET not in repr(model.inputs)


def test_a_method_that_raises_is_answered_with_its_bounded_message(app, desk):
    from agents import Agent, Runner

    from llmapp.agents.openai_agents import tools

    from .agents_sdk import Scripted

    model = Scripted(("cancel", '{"room": "blue"}'))
    Runner.run_sync(Agent(name="desk", model=model, tools=tools(app, desk)), "Cancel.")
    assert outputs(model) == ["The function raised PermissionError: blue is locked"]
