"""The one merge of a function's LLM and human arguments, checked whole before anything runs.

A refusal names the paths the model must not have written, at most ``_MAX_LISTED`` of them
and "…" after when there are more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol

from llmapp import separate
from llmapp._errors import ExecutionError
from llmapp._results import UNDEFINED, Validation, ValidationIssue
from llmapp.kernel._function import LlmFunction, Separated

__all__ = ["Joinable", "join", "merge_parameters"]

_MAX_LISTED: Final = 10


def merge_parameters(
    function: LlmFunction, llm_args: Mapping[str, Any] | None, human_args: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The full arguments of a separated function.

    Objects merge key by key and arrays element by element. A value has one source:
    ``llm_args`` may hold only the model's side of the parameters and ``human_args``
    only the human side, so neither replaces a value of the other (a human ``amount``
    never overrides the model's, a model's ``user_id`` never the human's). A value the
    model left out that the human shares (an optional parameter holding a human-side
    field) is what the model's ``null`` is: the human's part is dropped, and the
    default applies. Nothing given is mutated. The merged arguments are checked
    against the whole parameters schema, so a human value that is missing, unknown or
    of the wrong type (a human list shorter than the model's, say) is the caller's
    error, never something the model is asked to fix.

    Raises:
        ExecutionError: the function was not separated, the human values do not fit, or
            a value was given by the wrong side.

    Example::

        arguments = merge_parameters(function, {"title": "Receipt"}, {"file": data})
    """
    if function.separated is None:
        raise ExecutionError(
            f"{function.name} was not separated: configure `separate` (or mark values Human()) "
            "before merging LLM and human arguments"
        )
    check = function.separated.validate
    if check is not None and llm_args:  # the call step has checked the model's side already
        outcome = check(dict(llm_args))
        human_side = _superfluous(outcome)
        if human_side:
            raise ExecutionError(
                f"{function.name}: the model's arguments hold human-side values: "
                + _listed(human_side)
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
    human = dict(human_args or {})
    merged: dict[str, Any] = separate.merge_values(
        dict(llm_args or {}), human, (separated.llm, separated.human)
    )
    whole = function.validate_types(merged)
    check_human = separated.validate_human
    own = check_human(human) if check_human is not None and human else None
    if not whole.success or (own is not None and not own.success):
        _check_shape(function.name, whole, own)
    return merged


def _check_shape(name: str, whole: Validation, own: Validation | None) -> None:
    """Raise when a human value is missing, unknown or the model's to give (paths only,
    never the values).

    Only the shape is checked: human values may be Python objects (``bytes`` for a
    base64 file, a built dataclass) that conversion passes through as they are.
    """
    issues: list[ValidationIssue] = [] if whole.success else whole.errors
    missing = [issue.path for issue in issues if issue.value is UNDEFINED]
    unknown = _superfluous(whole)
    # Known to the whole, unknown to the human side: a value the model gives.
    known = set(unknown)
    models = [path for path in _superfluous(own) if path not in known]
    parts = [
        f"{label} {_listed(paths)}"
        for label, paths in (
            ("missing", missing),
            ("unknown", unknown),
            ("the model's to give", models),
        )
        if paths
    ]
    if parts:
        raise ExecutionError(f"{name}: the human-supplied arguments are wrong: " + "; ".join(parts))


def _superfluous(outcome: Validation | None) -> list[str]:
    """The paths of the keys ``outcome`` says must not be there."""
    if outcome is None or outcome.success:
        return []
    return [issue.path for issue in outcome.errors if issue.expected == "undefined"]


def _listed(paths: list[str]) -> str:
    return f"{', '.join(paths[:_MAX_LISTED])}{' …' if len(paths) > _MAX_LISTED else ''}"
