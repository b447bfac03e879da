"""What every toolset reads: applications of any door bound to their targets."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from llmapp import application, llm_application
from llmapp.agents._bound import bind

from .conftest import RIGHT, Desk


@llm_application
class Clock:
    """Tells the time."""

    def now(self, zone: str) -> str:
        """The time in a zone.

        Args:
            zone: The zone's name.
        """
        return f"12:00 {zone}"


def test_several_applications_and_a_subset_of_one(app, desk):
    bound = bind([(app, desk, ["book", app.function("sign")]), (application(Clock), Clock())])
    assert [each.name for each in bound] == ["book", "sign", "now"]
    assert bound[2].run('{"zone": "UTC"}').message() == '"12:00 UTC"'
    assert bound[0].run(RIGHT).success and desk.seen[0][0] == "book"


def test_what_a_toolset_cannot_tell_apart_or_read_is_refused(app, desk):
    with pytest.raises(ValueError, match="two functions share a name: book, cancel, sign"):
        bind([(app, desk), (app, Desk())])
    with pytest.raises(ValueError, match="'missing' is not a function"):
        bind((app, desk, ["missing"]))
    with pytest.raises(TypeError, match="a toolset takes"):
        bind(app)
    with pytest.raises(TypeError, match="a toolset takes"):
        bind([app.functions[0]])


def test_an_mcp_application_on_a_fastmcp_client_beside_a_class_in_one_pydantic_ai_toolset(
    app, desk
):
    fastmcp = pytest.importorskip("fastmcp")
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import FunctionModel

    import llmapp.mcp
    from llmapp.agents.pydantic_ai import toolset

    server = fastmcp.FastMCP("weather")

    @server.tool
    def forecast(city: str, days: int) -> str:
        """The forecast."""
        return f"sun in {city} for {days} days"

    turns = iter(
        [
            ToolCallPart("forecast", json.dumps({"city": "Oslo", "days": "two"}), "a"),
            ToolCallPart("forecast", json.dumps({"city": "Oslo", "days": "2"}), "b"),
            ToolCallPart("book", json.dumps(RIGHT), "c"),
            TextPart("done"),
        ]
    )

    async def respond(messages, info):
        return ModelResponse(parts=[next(turns)])

    async def run():
        async with fastmcp.Client(server) as client:
            weather = llmapp.mcp.application(await client.list_tools())
            tools = toolset([(weather, client), (app, desk)])
            return await Agent(FunctionModel(respond), toolsets=[tools]).run("Go.")

    result = asyncio.run(run())
    returned = [
        part
        for message in result.all_messages()
        for part in getattr(message, "parts", [])
        if isinstance(part, ToolReturnPart)
    ]
    assert [part.outcome for part in returned] == ["retried", "success", "success"]
    assert "$input.days" in returned[0].content
    assert "sun in Oslo for 2 days" in str(returned[1].content)  # the server ran it
    assert desk.seen[0][0] == "book"


def test_a_human_hook_that_raises_is_a_call_that_could_not_run(app, desk, caplog):
    # The hook reads secrets (a database's address): the model reads only the error's kind,
    # the developer's log has the whole of it, and the framework's run goes on.
    def hook(name, context):
        raise ConnectionError("cannot reach postgres://admin:DB-PASSWORD@db")

    (bound,) = bind((app, desk, ["sign"]), human=hook)
    for outcome in (bound.run('{"booking": "blue"}'), asyncio.run(bound.arun({"booking": "b"}))):
        assert not outcome.success
        assert outcome.message() == (
            "The call could not be run (ConnectionError); nothing was returned."
        )
    assert desk.seen == []
    assert "DB-PASSWORD" in caplog.text


def test_only_a_human_hook_has_the_names_the_model_sent_read(app, desk, monkeypatch):
    # Naming the sent parameters reads the arguments' text a second time: a call without a
    # hook to ask must not pay for it.
    import llmapp.kernel._sent as sent

    named = []
    real = sent._names
    monkeypatch.setattr(
        sent, "_names", lambda arguments: named.append(arguments) or real(arguments)
    )
    text = json.dumps(RIGHT)
    (plain,) = bind((app, desk, ["book"]))
    assert plain.run(text).success and asyncio.run(plain.arun(text)).success
    assert named == []
    (hooked,) = bind((app, desk, ["book"]), human=lambda name, context: None)
    assert hooked.run(text).success and asyncio.run(hooked.arun(text)).success
    assert named == [text, text]


def test_importing_the_toolsets_package_loads_no_framework():
    code = (
        "import sys, llmapp, llmapp.agents\n"
        "loaded = [m for m in ('agents', 'pydantic_ai', 'langchain_core', 'fastmcp',"
        " 'llama_index') if m in sys.modules]\n"
        "print(loaded)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
