"""A toolset's ``human=`` that gives a tool a key it does not take is said to the developer."""

from __future__ import annotations

import logging
import warnings
from typing import Annotated

import pytest

from llmapp import application
from llmapp.agents._bound import HumanValuesWarning, bind
from llmapp.markers import Human


class Shop:
    def pay(self, amount: int, card: Annotated[str, Human()]) -> str:
        """Pay."""
        return f"{amount} on {card[-4:]}"

    def look(self, query: str) -> str:
        """Look."""
        return query


@pytest.mark.parametrize(
    "human",
    [lambda name, context: {"cardd": "4242424242424242"}, {"pay": {"cardd": "4242424242424242"}}],
    ids=["hook", "mapping"],
)
def test_an_unknown_key_is_warned_once_naming_tool_and_key(human, caplog):
    (tool,) = bind((application(Shop), Shop(), ["pay"]), human=human)
    with caplog.at_level(logging.WARNING, logger="llmapp.agents"):
        with pytest.warns(HumanValuesWarning, match=r"tool 'pay' the key\(s\) cardd.*takes: card"):
            first = tool.run('{"amount": 3}')
        with warnings.catch_warnings():
            warnings.simplefilter("error", HumanValuesWarning)  # a second call says nothing
            second = tool.run('{"amount": 4}')
    assert not first.success and not second.success
    records = [r for r in caplog.records if r.name == "llmapp.agents"]
    assert len(records) == 1 and "'pay'" in records[0].getMessage()
    assert "4242" not in records[0].getMessage()  # the values themselves are never said


def test_right_keys_and_tools_without_a_human_side_say_nothing():
    tools = bind(
        application(Shop),
        Shop(),
        human=lambda name, context: {"card": "4242"} if name == "pay" else None,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", HumanValuesWarning)
        assert all(tool.run('{"amount": 3}').success for tool in tools if tool.name == "pay")
        assert [tool.run('{"query": "x"}').success for tool in tools if tool.name == "look"] == [
            True
        ]
    (look,) = bind(
        (application(Shop), Shop(), ["look"]), human=lambda name, context: {"user": "ann"}
    )
    with pytest.warns(HumanValuesWarning, match="takes: no human-side values"):
        look.run('{"query": "x"}')
