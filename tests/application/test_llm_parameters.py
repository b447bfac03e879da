"""``LlmFunction.llm_parameters``: the schema to give a model never holds a human-side value."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated

from llmapp import application, llm_application
from llmapp.markers import Human
from llmapp.schema import is_human
from llmapp.vendors import anthropic, gemini, mcp, openai

README = Path(__file__).resolve().parents[2] / "README.md"


@llm_application
class Bank:
    def pay(self, amount: int, pin: Annotated[str, Human()]) -> str:
        """Pay."""
        return "paid"

    def balance(self) -> int:
        """The balance."""
        return 3


def test_llm_parameters_leave_out_the_human_side() -> None:
    function = application(Bank).function("pay")
    assert "pin" in function.parameters["properties"]  # every argument of the method
    assert function.llm_parameters == function.separated.llm
    assert "pin" not in json.dumps(function.llm_parameters)


def test_llm_parameters_are_the_parameters_without_a_human_side() -> None:
    function = application(Bank).function("balance")
    assert function.llm_parameters is function.parameters
    separated = application(Bank, separate=is_human).function("balance")
    assert separated.llm_parameters == separated.parameters


def test_every_vendor_export_shows_llm_parameters() -> None:
    app = application(Bank)
    expected = {f.name: f.llm_parameters for f in app.functions}
    assert {
        e["function"]["name"]: e["function"]["parameters"] for e in openai.tools(app)
    } == expected
    assert {e["name"]: e["input_schema"] for e in anthropic.tools(app)} == expected
    assert {e["name"]: e["parameters_json_schema"] for e in gemini.tools(app)} == expected
    assert {e["name"]: e["inputSchema"] for e in mcp.tools(app)} == expected


def test_the_readme_hands_the_model_llm_parameters_only() -> None:
    text = README.read_text(encoding="utf-8")
    shown = re.findall(r"print\(function\.name, function\.(\w+)\)", text)
    assert shown == ["llm_parameters"]
    # Nowhere does an example give ``function.parameters`` to anything.
    assert not re.search(
        r"function\.parameters\b", "".join(re.findall(r"```py\w*\n(.*?)```", text, re.S))
    )


def test_http_and_mcp_functions_have_the_same_property() -> None:
    import llmapp.http
    import llmapp.mcp

    document = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/receipts": {
                "post": {
                    "requestBody": {
                        "content": {
                            "multipart/form-data": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "note": {"type": "string"},
                                        "file": {"type": "string", "format": "binary"},
                                    },
                                }
                            }
                        }
                    },
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    (http_function,) = llmapp.http.application(document).functions
    assert "file" in json.dumps(http_function.parameters)
    assert "file" not in json.dumps(http_function.llm_parameters)
    assert http_function.llm_parameters == http_function.separated.llm
    tools = llmapp.mcp.application([{"name": "ok", "inputSchema": {"type": "object"}}])
    (mcp_function,) = tools.functions
    assert mcp_function.llm_parameters is mcp_function.parameters
