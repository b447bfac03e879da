"""The end-to-end benchmark compares like with like: every peer returns the same value for
the valid rows and refuses the rows with three mistakes, naming three of them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from benchmarks import execute_bench
from tests.support.sdk import needs

pytestmark = needs("pydantic_ai", "agents")


def _answers(label: str) -> dict[str, Any]:
    name, text = execute_bench.PAYLOADS[label]
    found = {}
    for peer, factory in execute_bench.PEERS.items():
        call = factory()(name)
        answer = call(text)
        found[peer] = asyncio.run(answer) if asyncio.iscoroutine(answer) else answer
    return found


@pytest.mark.parametrize("label", ["search valid", "order valid"])
def test_every_peer_returns_the_same_value(label: str) -> None:
    answers = _answers(label)
    ours = answers.pop("llmapp execute")
    assert ours.success
    assert all(value == ours.value for value in answers.values()), answers


@pytest.mark.parametrize("label", ["search, 3 mistakes", "order, 3 mistakes"])
def test_every_peer_refuses_three_mistakes(label: str) -> None:
    answers = _answers(label)
    ours = answers["llmapp execute"]
    assert not ours.success and len(ours.validation.errors) == 3
    assert len(answers["json.loads + pydantic + call"]) == 3
    assert len(answers["pydantic-ai FunctionSchema.call"]) == 3
    agents = answers["openai-agents on_invoke_tool"]
    assert isinstance(agents, str) and "error" in agents.lower()
