"""pydantic-ai: the per-tool controls and per-call context, with pydantic-ai's FunctionModel."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tests.support.sdk import needs

from llmapp import application

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage, ModelResponse
    from pydantic_ai.models.function import AgentInfo, FunctionModel

pytestmark = needs("pydantic_ai")


def _model(calls: list[tuple[str, dict[str, Any]]]) -> tuple[FunctionModel, list[AgentInfo]]:
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    seen: list[AgentInfo] = []

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(info)
        if calls:
            name, arguments = calls.pop(0)
            return ModelResponse(parts=[ToolCallPart(name, json.dumps(arguments), "c1")])
        return ModelResponse(parts=[TextPart("done")])

    return FunctionModel(respond), seen


def test_a_hidden_tool_is_not_among_the_runs_tools() -> None:
    from pydantic_ai import Agent

    from llmapp.agents.pydantic_ai import toolset

    from .pydantic_ai_vault import Deps, Vault

    app = application(Vault)
    for deps, listed in ((Deps("ann"), False), (Deps("root", admin=True), True)):
        model, seen = _model([])
        Agent(model, deps_type=Deps, toolsets=[toolset(app, Vault())]).run_sync("hi", deps=deps)
        names = [tool.name for tool in seen[0].function_tools]
        assert ("audit" in names) is listed
        assert "whoami" in names and "wipe" in names


def test_the_run_context_and_its_deps_reach_context_parameters_and_not_the_schema() -> None:
    from pydantic_ai import Agent

    from llmapp.agents.pydantic_ai import toolset

    from .pydantic_ai_vault import Deps, Vault

    model, seen = _model([("whoami", {})])
    agent = Agent(model, deps_type=Deps, toolsets=[toolset(application(Vault), Vault())])
    result = agent.run_sync("who?", deps=Deps("ann"))
    (whoami,) = [tool for tool in seen[0].function_tools if tool.name == "whoami"]
    assert whoami.parameters_json_schema["properties"] == {}
    returns = [m for m in result.all_messages() if m.kind == "request"][1].parts
    assert returns[0].content == "ann"


def test_a_destructive_call_is_deferred_for_approval_and_runs_once_approved() -> None:
    from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults

    from llmapp.agents.pydantic_ai import toolset

    from .pydantic_ai_vault import Deps, Vault

    vault = Vault()
    model, _ = _model([("wipe", {"reason": "leak"})])
    agent = Agent(
        model,
        deps_type=Deps,
        output_type=[str, DeferredToolRequests],
        toolsets=[toolset(application(Vault), vault)],
    )
    first = agent.run_sync("wipe it", deps=Deps("ann"))
    assert isinstance(first.output, DeferredToolRequests)
    (request,) = first.output.approvals
    assert request.tool_name == "wipe" and vault.log == []
    assert first.output.metadata[request.tool_call_id] == {
        "arguments": {"reason": "leak"},
        "question": 'Approve the call of wipe?\nreason: "leak"',
    }
    second = agent.run_sync(
        message_history=first.all_messages(),
        deps=Deps("ann"),
        deferred_tool_results=DeferredToolResults(approvals={request.tool_call_id: True}),
    )
    assert vault.log == ["leak"] and second.output == "done"
