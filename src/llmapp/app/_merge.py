"""The one merge of a function's LLM and human arguments, checked whole before anything runs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol

from llmapp import separate
from llmapp._errors import ExecutionError
from llmapp._results import UNDEFINED, Validation, ValidationIssue
from llmapp.app._function import LlmFunction, Separated

__all__ = ["Joinable", "join", "merge_parameters"]

_MAX_LISTED: Final = 10


def merge_parameters(
    function: LlmFunction, llm_args: Mapping[str, Any] | None, human_args: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The full arguments of a separated function.

    Objects merge key by key and arrays element by element; elsewhere the human
    value wins when present. A value the model left out that the human shares (an
    optional parameter holding a human-side field) is what the model's ``null`` is:
    the human's part is dropped, and the default applies. Nothing given is mutated.
    The merged arguments are checked against the whole parameters schema, so a human
    value that is missing, unknown or of the wrong type (a human list shorter than the
    model's, say) is the caller's error, never something the model is asked to fix.

    Raises:
        ExecutionError: the function was not separated, or the human values do not fit.

    Example::

        arguments = merge_parameters(function, {"title": "Receipt"}, {"file": data})
    """
    if function.separated is None:
        raise ExecutionError(
            f"{function.name} was not separated: configure `separate` (or mark values Human()) "
            "before merging LLM and human arguments"
        )
    return join(function, llm_args, human_args)


class Joinable(Protocol):
    """What ``join`` reads of a function: a class application's, an OpenAPI operation's."""

    @property
    def name(self) -> str: ...

    @property
    def separated(self) -> Separated | None: ...

    def validate_types(self, arguments: Any) -> Validation: ...


def join(
    function: Joinable, llm_args: Mapping[str, Any] | None, human_args: Mapping[str, Any] | None
) -> dict[str, Any]:
    """``merge_parameters`` for any function: one with no human side takes no human values."""
    separated = function.separated
    if separated is None or separated.human is None:
        if human_args:
            raise ExecutionError(
                f"{function.name} takes no human-supplied arguments, got {sorted(human_args)}"
            )
        return dict(llm_args or {})
    merged: dict[str, Any] = separate.merge_values(
        dict(llm_args or {}), dict(human_args or {}), (separated.llm, separated.human)
    )
    whole = function.validate_types(merged)
    if not whole.success:
        _check_shape(function.name, whole.errors)
    return merged


def _check_shape(name: str, issues: list[ValidationIssue]) -> None:
    """Raise when a human value is missing or unknown (paths only, never the values).

    Only the shape is checked: human values may be Python objects (``bytes`` for a
    base64 file, a built dataclass) that conversion passes through as they are.
    """
    missing = [issue.path for issue in issues if issue.value is UNDEFINED]
    unknown = [issue.path for issue in issues if issue.expected == "undefined"]
    parts = [
        f"{label} {', '.join(paths[:_MAX_LISTED])}{' …' if len(paths) > _MAX_LISTED else ''}"
        for label, paths in (("missing", missing), ("unknown", unknown))
        if paths
    ]
    if parts:
        raise ExecutionError(f"{name}: the human-supplied arguments are wrong: " + "; ".join(parts))
