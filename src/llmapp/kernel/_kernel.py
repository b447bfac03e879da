"""The call kernel: from the model's text to checked arguments, the same for every door.

A class method, an OpenAPI operation and an MCP tool are called through the same steps
until their last one: read the text within ``max_length`` (``read_arguments``), repair
what the model wrote against the schema of its own side, every constraint kept
(``checked_parameters``, separated when a human supplies part of it), then check it
(the generated validator first and only what it refused is repaired:
``repair.Coercion.checked``; or the function's hook, which sees repaired data only). A
refusal is a ``CallResult`` with the feedback and what reading repaired (a stringified
object left unread for a key written twice in it is named there: ``named_twice``);
success is the model's checked data and the repairs. Merging the human's values
(``join``) and the last step (call the method, send the request, call the tool) are the
door's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple, Protocol

from llmapp import explain, repair
from llmapp.jsonschema import ROOT, too_deep
from llmapp.kernel._arguments import read_model_arguments
from llmapp.kernel._function import Function, OnFirstUse
from llmapp.kernel._result import CallResult
from llmapp.validate import Validation, ValidationFailure, ValidationIssue

__all__ = [
    "Called",
    "Checked",
    "ModelSide",
    "check_arguments",
    "failed",
    "hooked",
    "model_side",
    "named_twice",
    "too_deep_refusal",
]

Schema = dict[str, Any]


class Called(Protocol):
    """What the call step reads of what is called: every ``Function``, and a structured
    output's answer (``llmapp.output``), which is read by the same rules."""

    @property
    def name(self) -> str: ...
    @property
    def deprecated(self) -> bool: ...


@dataclass(frozen=True)
class ModelSide:
    """What the model's data is repaired against and how it is checked, decided once.

    Attributes:
        schema: the schema of what the model writes, with every constraint (the LLM side
            of ``checked_parameters`` when separated).
        check: the generated validator of ``schema``, or the function's hook.
        hooked: ``check`` is a hook (it sees repaired data only).
    """

    schema: Schema
    check: Callable[[Any], Validation]
    hooked: bool = False

    @cached_property
    def coercion(self) -> repair.Coercion:
        """The repairs ``schema`` allows, prepared on the first call that reads arguments."""
        return repair.coercer(self.schema)

    @cached_property
    def checker(self) -> Callable[[Any], Validation]:
        """``check`` itself once compiled (on the first call that checks arguments)."""
        check = self.check
        return check.get() if isinstance(check, OnFirstUse) else check


class Checked(NamedTuple):
    """The model's arguments once checked: its data (no human value) and what was repaired."""

    data: Any
    repairs: tuple[str, ...]


_checked: Callable[[tuple[Any, tuple[str, ...]]], Checked] = functools.partial(
    tuple.__new__, Checked
)
"""``Checked`` made from a pair without the NamedTuple's own ``__new__`` (a Python call)."""


def model_side(function: Function) -> ModelSide:
    """The ``ModelSide`` of any function (class, HTTP, MCP) from its own attributes."""
    separated = getattr(function, "separated", None)
    check = separated.validate if separated is not None else None
    if isinstance(check, OnFirstUse):
        schema: Schema = check.source
    else:
        schema, check = function.checked_parameters, function.validate_types
    if getattr(function, "hook", None) is not None:  # an MCP tool has none
        return ModelSide(schema, hooked(function.validate, separated), hooked=True)
    return ModelSide(schema, check)


def hooked(validate: Callable[[Any], Validation], separated: Any) -> Callable[[Any], Validation]:
    """The check of a function with a hook (``validate``): the hook, then, for a separated
    function, a refusal of each human-side key the hook let through."""
    model = getattr(separated, "validate", None)
    human = getattr(separated, "validate_human", None)
    if model is None or human is None:
        return validate
    return _model_keys_only(validate, model, human)


def _model_keys_only(
    hook: Callable[[Any], Validation],
    model: Callable[[Any], Validation],
    human: Callable[[Any], Validation],
) -> Callable[[Any], Validation]:
    """The hook, then a refusal of each key it let through that is the human side's.

    A hook replaces the generated validation, the model side's refusal of human-side keys
    with it: without this, a model's ``user_id`` would be the value a call runs with (a
    value has one source). Keys neither side has stay the hook's to judge.
    """

    def checked(data: Any) -> Validation:
        outcome = hook(data)
        if not outcome.success:
            return outcome
        foreign = _superfluous(model(outcome.data))
        if not foreign:
            return outcome
        neither = {issue.path for issue in _superfluous(human(outcome.data))}
        taken = [issue for issue in foreign if issue.path not in neither]
        return ValidationFailure(outcome.data, taken) if taken else outcome

    return checked


def _superfluous(outcome: Validation) -> list[ValidationIssue]:
    if isinstance(outcome, ValidationFailure):
        return [issue for issue in outcome.errors if issue.expected == "undefined"]
    return []


def check_arguments(
    function: Called,
    arguments: Any,
    side: ModelSide,
    *,
    max_length: int = repair.MAX_LENGTH,
    before_check: Callable[[Any], Any] | None = None,
) -> Checked | CallResult:
    """Read, repair and check the model's arguments for ``function``.

    Args:
        function: what is called (its ``name`` and ``deprecated``).
        arguments: the model's raw text, a mapping, or None.
        side: the schema repaired against and the check (``model_side``).
        max_length: most characters of argument text read.
        before_check: applied to the data read before it is repaired and checked (the
            MCP door's removal of the nulls strict mode made the model write).

    Returns:
        ``Checked`` data, or a failed ``CallResult`` with the feedback (nothing ran).
    """
    read = read_model_arguments(function.name, arguments, max_length, function.deprecated)
    if isinstance(read, CallResult):
        return read
    data, repairs, rescan = read
    if before_check is not None:
        data = before_check(data)
    # Text read here is the call's own, so it is checked first and repaired only where
    # refused; a hook or the caller's own containers see a repaired copy.
    if not side.hooked and isinstance(arguments, (str, bytes, bytearray)):
        validation = side.coercion.checked(data, side.checker)
    else:
        validation = side.checker(side.coercion(data))
    if isinstance(validation, ValidationFailure):
        return failed(function, named_twice(validation), repairs)
    # A repair can read text the reader saw as an escaped string (a stringified object),
    # so a lone surrogate can first appear here: refused as the reader refuses it.
    if rescan:
        issues = repair.lone_surrogates(validation.data)
        if issues:
            return failed(function, ValidationFailure(validation.data, issues), repairs)
    return _checked((validation.data, repairs))


def named_twice(failure: ValidationFailure) -> ValidationFailure:
    """The failure, each stringified object the repair step left unread for a key written
    twice in it saying which key and where (its path, its character in that string)."""
    issues = failure._errors  # the slots: the refusal path of every wrong call reads them
    named: list[ValidationIssue] | None = None
    for index, issue in enumerate(issues):
        value = issue._value
        if type(value) is str and "{" in value and issue._description is None:
            found = _twice(issue, value)
            if found is not None:
                named = named or list(issues)
                named[index] = found
    return failure if named is None else ValidationFailure(failure._data, named)


def _twice(issue: ValidationIssue, value: str) -> ValidationIssue | None:
    found = repair.written_twice(value)
    if found is None:
        return None
    inner, character = found
    where = issue._path + str(inner)[len(ROOT) :]
    reason = (
        f"this text holds JSON whose key {where} is written twice (the second at its "
        f"character {character:,}): JSON keeps only the last value, so it was not read; "
        "write each key once"
    )
    return ValidationIssue(issue._path, issue._expected, value, reason)


def failed(
    function: Called,
    failure: ValidationFailure,
    repairs: tuple[str, ...] = (),
    text: str | None = None,
) -> CallResult:
    """The answer to wrong arguments: the failure and its feedback; nothing ran."""
    feedback = explain.feedback(failure) if text is None else text
    # In the fields' order (name, success, value, data, validation, feedback, error,
    # deprecated, repairs): matching keywords costs a third of making the result.
    return CallResult(
        function.name, False, None, None, failure, feedback, None, function.deprecated, repairs
    )


def too_deep_refusal(
    data: Any, limit: int, repairs: tuple[str, ...], why: str = ""
) -> tuple[ValidationFailure, str] | None:
    """The failure and its text for checked data nesting more than ``limit`` levels, worded
    as the reader's refusal of such text; None when it nests no deeper.

    Data a framework hands over is not read from text, so it may nest deeper than a door's
    next step can carry (an HTTP request's writers, an MCP message): refused, nothing sent.
    """
    if not too_deep(data, limit):
        return None
    reason = f"nesting deeper than {limit} levels{why}"
    failure = ValidationFailure(data, [ValidationIssue("$input", "JSON object", data, reason)])
    return failure, explain.unreadable(reason, repairs)
