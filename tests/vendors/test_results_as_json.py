"""A result is always written as valid JSON, and an MCP answer always reaches the client."""

from __future__ import annotations

import json
import math
from typing import Any

import anyio
import pytest

from llmapp import application, llm_application
from llmapp.convert import json_text, to_json
from llmapp.vendors import anthropic, openai
from llmapp.vendors import mcp as vendor_mcp


@llm_application
class Numbers:
    def huge(self) -> int:
        """A big number."""
        return 10**5000

    def nan(self) -> float:
        """Not a number."""
        return float("nan")

    def mixed(self) -> dict[str, Any]:
        """Everything JSON lacks."""
        return {"inf": [float("inf"), -float("inf")], "big": -(10**4400), "ok": 1.5}

    def enormous(self) -> int:
        """Too many digits to write out."""
        return 10**100_000

    def lies(self) -> int:
        """Declares an int, returns a text."""
        return "three"  # type: ignore[return-value]


def _strict_loads(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("name", ["huge", "nan", "mixed", "enormous"])
def test_every_answer_is_valid_json(name: str) -> None:
    app = application(Numbers)
    result = app.execute(Numbers(), name, "{}")
    assert result.success
    json.dumps(result.data, allow_nan=False)  # data is JSON-ready
    _strict_loads(result.message())
    (answer,) = openai.call_tools(app, Numbers(), _chat(name))
    _strict_loads(answer["content"])
    (block,) = anthropic.call_tools(
        app, Numbers(), [{"type": "tool_use", "id": "t", "name": name, "input": {}}]
    )
    _strict_loads(block["content"])


def _chat(name: str) -> dict[str, Any]:
    call = {"id": "c", "type": "function", "function": {"name": name, "arguments": "{}"}}
    return {"role": "assistant", "tool_calls": [call]}


def test_the_json_choices() -> None:
    assert to_json(float("nan")) is None
    assert to_json(10**5000) == "1" + "0" * 5000  # every digit, as a string
    assert to_json(-(10**4400))[:2] == "-1"
    assert to_json(10**100_000) == "<integer of about 100,001 digits>"
    assert to_json(10**300) == 10**300  # an int Python writes stays a number
    assert json_text({"a": math.nan, "b": {1, 2}}) == '{"a": null, "b": [1, 2]}'


@pytest.mark.parametrize("name", ["huge", "nan", "mixed", "enormous", "lies"])
def test_tool_result_never_raises_and_matches_its_output_schema(name: str) -> None:
    app = application(Numbers)
    function = app.function(name)
    result = app.execute(Numbers(), name, "{}")
    answer = vendor_mcp.tool_result(function, result)
    text = answer["content"][0]["text"]
    if "structuredContent" in answer:
        assert not answer["isError"]
        _strict_loads(text)
    else:
        assert answer["isError"] and text.startswith(
            "The function ran, but its result does not match"
        )
    if name == "mixed":
        assert answer["structuredContent"] == _strict_loads(text)


def test_the_sdk_client_reads_every_answer() -> None:
    pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")
    from mcp import Client

    import llmapp.mcp

    server = llmapp.mcp.server(application(Numbers), Numbers())
    answers: dict[str, Any] = {}

    async def main() -> None:
        async with Client(server) as client:
            for name in ("huge", "nan", "mixed", "lies"):
                answers[name] = await client.call_tool(name, {})  # raised for huge and nan

    anyio.run(main)
    # Its digits as a string do not match the declared integer: said, with the digits.
    assert answers["huge"].is_error and '"1' + "0" * 5000 + '"' in answers["huge"].content[0].text
    assert answers["nan"].is_error and "result does not match" in answers["nan"].content[0].text
    assert not answers["mixed"].is_error
    assert answers["lies"].is_error
