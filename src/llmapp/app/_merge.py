"""``merge_parameters``: join the LLM and human halves of a separated function's arguments."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llmapp._errors import ExecutionError
from llmapp.app._function import LlmFunction

__all__ = ["merge_parameters"]


def merge_parameters(
    function: LlmFunction, llm_args: Mapping[str, Any] | None, human_args: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The full arguments of a separated function.

    Objects merge key by key and arrays element by element; elsewhere the human
    value wins when present. Nothing given is mutated.

    Raises:
        ExecutionError: the function was not separated.

    Example::

        arguments = merge_parameters(function, {"title": "Receipt"}, {"file": data})
    """
    if function.separated is None:
        raise ExecutionError(
            f"{function.name} was not separated: configure `separate` (or mark values Human()) "
            "before merging LLM and human arguments"
        )
    from llmapp.separate import merge_values

    merged: dict[str, Any] = merge_values(dict(llm_args or {}), dict(human_args or {}))
    return merged
