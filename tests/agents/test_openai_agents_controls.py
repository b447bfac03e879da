"""OpenAI Agents SDK: the per-tool controls as the SDK's is_enabled / needs_approval, offline."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Annotated, Any

import pytest

pytest.importorskip("agents")

from agents import Agent, RunContextWrapper, Runner
from agents.tool_context import ToolContext

from llmapp import CallContext, application, controls
from llmapp.agents.openai_agents import tools
from llmapp.markers import Context

from .test_openai_agents import Scripted


@dataclass
class Deps:
    user: str
    admin: bool = False


def _admin(context: CallContext) -> bool:
    deps = context.get(Deps)
    return deps is not None and deps.admin


class Vault:
    """Keeps secrets."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def whoami(self, tool: ToolContext[Deps], deps: Annotated[Deps, Context()]) -> str:
        """Who is asking."""
        assert tool.context is deps and tool.tool_name == "whoami"
        return deps.user

    @controls(enabled=_admin)
    def audit(self) -> str:
        """Audit the vault."""
        return "audited"

    def wipe(self, reason: str) -> str:
        """Wipe the vault.

        @tag destructive
        """
        self.log.append(reason)
        return "wiped"


def _tool_names(tool_list: list[Any], deps: Deps) -> list[str]:
    async def listed() -> list[str]:
        agent = Agent(name="vault", tools=tool_list)
        enabled = await agent.get_all_tools(RunContextWrapper(deps))
        return [tool.name for tool in enabled]

    return asyncio.run(listed())


def test_a_hidden_tool_is_not_enabled_for_the_runs_context() -> None:
    made = tools(application(Vault), Vault())
    assert "audit" not in _tool_names(made, Deps("ann"))
    assert "audit" in _tool_names(made, Deps("root", admin=True))


def test_the_tool_context_and_the_run_context_reach_context_parameters() -> None:
    (whoami, *_) = tools(application(Vault), Vault())
    assert whoami.params_json_schema["properties"] == {}
    model = Scripted(("whoami", "{}"))
    agent = Agent(name="vault", model=model, tools=[whoami])
    result = asyncio.run(Runner.run(agent, "who?", context=Deps("ann")))
    assert result.final_output == "done"
    outputs = [item for item in model.inputs[-1] if item.get("type") == "function_call_output"]
    assert outputs[0]["output"] == '"ann"'


def test_a_destructive_call_interrupts_the_run_until_approved() -> None:
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
