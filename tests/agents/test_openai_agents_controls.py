"""OpenAI Agents SDK: the per-tool controls as the SDK's is_enabled / needs_approval, offline."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from tests.support.sdk import needs

from llmapp import application

if TYPE_CHECKING:
    from .agents_sdk_vault import Deps

pytestmark = needs("agents")


def _tool_names(tool_list: list[Any], deps: Deps) -> list[str]:
    from agents import Agent, RunContextWrapper

    async def listed() -> list[str]:
        agent = Agent(name="vault", tools=tool_list)
        enabled = await agent.get_all_tools(RunContextWrapper(deps))
        return [tool.name for tool in enabled]

    return asyncio.run(listed())


def test_a_hidden_tool_is_not_enabled_for_the_runs_context() -> None:
    from llmapp.agents.openai_agents import tools

    from .agents_sdk_vault import Deps, Vault

    made = tools(application(Vault), Vault())
    assert "audit" not in _tool_names(made, Deps("ann"))
    assert "audit" in _tool_names(made, Deps("root", admin=True))


def test_the_tool_context_and_the_run_context_reach_context_parameters() -> None:
    from agents import Agent, Runner

    from llmapp.agents.openai_agents import tools

    from .agents_sdk import Scripted
    from .agents_sdk_vault import Deps, Vault

    (whoami,) = [tool for tool in tools(application(Vault), Vault()) if tool.name == "whoami"]
    assert whoami.params_json_schema["properties"] == {}
    model = Scripted(("whoami", "{}"))
    agent = Agent(name="vault", model=model, tools=[whoami])
    result = asyncio.run(Runner.run(agent, "who?", context=Deps("ann")))
    assert result.final_output == "done"
    outputs = [item for item in model.inputs[-1] if item.get("type") == "function_call_output"]
    assert outputs[0]["output"] == '"ann"'


def test_a_destructive_call_interrupts_the_run_until_approved() -> None:
    from agents import Agent, Runner

    from llmapp.agents.openai_agents import tools

    from .agents_sdk import Scripted
    from .agents_sdk_vault import Deps, Vault

    vault = Vault()
    model = Scripted(("wipe", '{"reason": "leak"}'))
    agent = Agent(name="vault", model=model, tools=tools(application(Vault), vault))

    async def run() -> Any:
        first = await Runner.run(agent, "wipe it", context=Deps("ann"))
        assert [item.name for item in first.interruptions] == ["wipe"]
        assert vault.log == []
        state = first.to_state()
        state.approve(first.interruptions[0])
        return await Runner.run(agent, state)

    second = asyncio.run(run())
    assert vault.log == ["leak"] and second.final_output == "done"
