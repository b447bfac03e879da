"""A value has one source in every toolset: the framework's human hook fills the human side
only, and a value of the model's it gives as well stops the call."""

from __future__ import annotations

import asyncio

import pytest

from llmapp.agents._bound import bind


def over_the_model(name: str, context: object) -> dict[str, str]:
    return {"signature": "ada", "booking": "red"}  # the model chose blue


def test_a_hook_value_over_the_model_s_stops_the_call(app, desk, caplog):
    (sign,) = bind((app, desk, ["sign"]), human=over_the_model)
    for outcome in (sign.run({"booking": "blue"}), asyncio.run(sign.arun({"booking": "blue"}))):
        assert not outcome.success
        assert (
            outcome.message() == "The call could not be run (ExecutionError); nothing was returned."
        )
    assert desk.seen == []
    assert "the model's to give $input.booking" in caplog.text  # the server's log says which
    (fine,) = bind((app, desk, ["sign"]), human=lambda name, context: {"signature": "ada"})
    assert fine.run({"booking": "blue"}).success and desk.seen == [("sign", ("blue", "ada"))]


def test_a_langchain_config_value_over_the_model_s_is_an_error_message(app, desk):
    pytest.importorskip("langchain_core")
    from llmapp.agents.langchain import tools

    (sign,) = tools((app, desk, ["sign"]), human=lambda name, config: config["configurable"])
    message = sign.invoke(
        {"type": "tool_call", "name": "sign", "args": {"booking": "blue"}, "id": "c"},
        config={"configurable": {"signature": "ada", "booking": "red"}},
    )
    assert message.status == "error" and "ada" not in message.content
    assert desk.seen == []
