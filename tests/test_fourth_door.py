"""The contributing guide's "Adding a fourth door", built from public names only.

A toy door: its functions come from a JSON schema, its last step is a plain Python
callable. Everything else (read, repair, check, join the human values, answer) is the
kernel's, and a sink (the OpenAI export and ``call_tools``) takes the door as it is.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from llmapp.kernel import (
    Application,
    CallResult,
    Checked,
    Function,
    Runner,
    check_arguments,
    error_text,
    join,
    model_side,
    unknown_function,
)
from llmapp.vendors import openai

SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer", "minimum": 0}},
    "required": ["a", "b"],
    "additionalProperties": False,
}


@dataclass(frozen=True, eq=False, slots=True)
class ToyFunction(Function):
    """The one function record, with the door's own last step (``run``) added."""

    run: Callable[..., Any] = field(kw_only=True)


class ToyDoor(Application[ToyFunction, None, None]):
    """The application: its functions by name, and ``execute`` through the kernel."""

    name = "toy"

    def execute(
        self,
        target: None,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        function = self.function(name)
        if function is None:
            return unknown_function(name, [f.name for f in self.functions])
        checked = check_arguments(function, arguments, model_side(function))
        if isinstance(checked, CallResult):
            return checked  # wrong arguments: nothing ran
        assert isinstance(checked, Checked)
        try:
            value = function.run(**join(function, checked.data, human))
        except Exception as error:
            if raise_errors:
                raise
            return CallResult(name, False, error=error, feedback=error_text(error))
        return CallResult(name, True, value=value, data=value, repairs=checked.repairs)

    async def aexecute(
        self,
        target: None,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        runner: Runner | None = None,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        return self.execute(target, name, arguments, human, raise_errors=raise_errors)


def door() -> ToyDoor:
    return ToyDoor([ToyFunction("add", "Add.", SCHEMA, run=lambda a, b: a + b)])


def test_the_toy_function_is_a_function() -> None:
    assert isinstance(door().functions[0], Function)


def test_a_right_call_runs_the_last_step() -> None:
    result = door().execute(None, "add", '{"a": 2, "b": 3}')
    assert result.success and result.data == 5


def test_a_wrong_call_is_explained_and_nothing_runs() -> None:
    ran: list[Any] = []
    app = ToyDoor([ToyFunction("add", None, SCHEMA, run=lambda a, b: ran.append((a, b)))])
    result = app.execute(None, "add", '{"a": 2, "b": -1}')
    assert not result.success and ran == []
    assert result.validation is not None
    assert [issue.path for issue in result.validation.errors] == ["$input.b"]
    assert "$input.b" in (result.feedback or "")


def test_the_kernel_repairs_what_the_other_doors_repair() -> None:
    result = door().execute(None, "add", '{"a": "2", "b": 3,}')
    assert result.success and result.data == 5 and result.repairs


def test_human_values_for_a_function_without_a_human_side_are_refused() -> None:
    with pytest.raises(Exception, match="takes no human-supplied arguments"):
        join(door().functions[0], {"a": 1, "b": 2}, {"token": "secret"})


def test_an_unknown_function_names_the_known_ones() -> None:
    result = door().execute(None, "sub", "{}")
    assert not result.success and "add" in (result.feedback or "")


def test_a_sink_takes_the_door_as_it_is() -> None:
    app = door()
    (tool,) = openai.tools(app)
    assert tool["function"]["name"] == "add"
    assert tool["function"]["parameters"]["properties"].keys() == {"a", "b"}
    message = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "1",
                "type": "function",
                "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'},
            },
            {"id": "2", "type": "function", "function": {"name": "add", "arguments": '{"a": 1}'}},
        ],
    }
    right, wrong = openai.call_tools(app, None, message)
    assert right["tool_call_id"] == "1" and json.loads(right["content"]) == 3
    assert wrong["tool_call_id"] == "2" and "b" in wrong["content"]


def _recipe() -> str:
    text = (Path(__file__).parent.parent / "docs" / "contributing.md").read_text(encoding="utf-8")
    return text.split("## Adding a fourth door", 1)[1].split("\n## ", 1)[0]


def test_the_recipe_names_public_names_only() -> None:
    recipe = _recipe()
    assert not re.findall(r"\b(?:app|vendors|schema|mcp|http)\._\w+", recipe)
    dotted = set(re.findall(r"`(llmapp(?:\.\w+)+)", recipe))
    assert "llmapp.kernel.Function" in dotted
    for name in dotted:
        module, _, attribute = name.rpartition(".")
        assert hasattr(importlib.import_module(module), attribute), name
    kernel = importlib.import_module("llmapp.kernel")
    for name in ("check_arguments", "model_side", "join", "for_model", "error_text", "log_call"):
        assert re.search(rf"\b{name}\(|`{name}`", recipe) and hasattr(kernel, name), name
