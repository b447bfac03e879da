"""One LLM function: its schemas, its description and how its arguments are checked."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from llmapp.validate._result import (
    Validation,
    ValidationFailure,
    ValidationIssue,
    ValidationSuccess,
)

__all__ = ["LlmFunction", "Separated"]

Schema = dict[str, Any]


@dataclass(frozen=True)
class Separated:
    """A function's parameters split between what the LLM composes and what a human supplies.

    Attributes:
        llm: the parameters schema the LLM sees (at least an empty object).
        human: the parameters schema a human fills in, or ``None``.
        validate: validation of the LLM side; a human-side key sent by the LLM
            is reported as superfluous (``expected == "undefined"``).
    """

    llm: Schema
    human: Schema | None
    validate: Callable[[Any], Validation] | None = None


class _LazyValidator:
    """Compiles a schema's validator on first use, so building an application stays cheap."""

    __slots__ = ("_compiled", "schema")

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema
        self._compiled: Callable[[Any], Validation] | None = None

    def __call__(self, value: Any) -> Validation:
        compiled = self._compiled
        if compiled is None:
            from llmapp.validate import validator

            compiled = self._compiled = validator(self.schema)
        return compiled(value)


@dataclass(eq=False)
class LlmFunction:
    """One function the LLM may call.

    Attributes:
        name: the function's name.
        description: what it does, from the docstring (tags removed).
        parameters: the parameters object schema (``properties``, ``required``,
            ``additionalProperties: false``, ``$defs``).
        output: the return value's schema, or ``None`` when nothing is returned.
        deprecated: the function still works but should be avoided.
        tags: the ``@tag`` names.
        separated: the LLM/human split when the application separates parameters.
        validation_parameters: the schema arguments are checked against, when it is
            not ``parameters`` itself: in strict mode the vendor-facing schema moves
            constraints it cannot express into descriptions, and this one keeps them.
    """

    name: str
    description: str | None
    parameters: Schema
    output: Schema | None = None
    deprecated: bool = False
    tags: list[str] = field(default_factory=list)
    separated: Separated | None = None
    title: str | None = None
    summary: str | None = None
    hook: Callable[[Any], Validation] | None = field(default=None, repr=False)
    validation_parameters: Schema | None = field(default=None, repr=False)
    _validator: Callable[[Any], Validation] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def checked_parameters(self) -> Schema:
        """The schema arguments are validated (and repaired) against."""
        checked = self.validation_parameters
        return checked if checked is not None else self.parameters

    def validate(self, arguments: Any) -> Validation:
        """Check arguments against the parameters schema (or the method's hook).

        Never raises: a hook that raises becomes a failed ``Validation`` with
        the exception's message.
        """
        if self.hook is None:
            return (self._validator or self._compile())(arguments)
        return _run_hook(self.hook, arguments)

    def validate_types(self, arguments: Any) -> Validation:
        """The generated validation alone, whatever hook the function has."""
        return (self._validator or self._compile())(arguments)

    def _compile(self) -> Callable[[Any], Validation]:
        """The generated validator, compiled on first use so building stays cheap."""
        from llmapp.validate import validator

        compiled = self._validator = validator(self.checked_parameters)
        return compiled

    def to_dict(self) -> dict[str, Any]:
        """The function as plain JSON-ready data."""
        data: dict[str, Any] = {"name": self.name}
        if self.description is not None:
            data["description"] = self.description
        data["parameters"] = self.parameters
        data["output"] = self.output
        data["deprecated"] = self.deprecated
        data["tags"] = list(self.tags)
        if self.separated is not None:
            data["separated"] = {"llm": self.separated.llm, "human": self.separated.human}
        return data


def _run_hook(hook: Callable[[Any], Validation], arguments: Any) -> Validation:
    try:
        outcome: object = hook(arguments)
    except Exception as error:  # a hook's bug is reported, never propagated
        return _hook_failure(arguments, f"validation hook raised {type(error).__name__}: {error}")
    if isinstance(outcome, (ValidationSuccess, ValidationFailure)):
        return outcome
    return _hook_failure(
        arguments, f"validation hook returned {type(outcome).__name__}, not a Validation"
    )


def _hook_failure(arguments: Any, reason: str) -> ValidationFailure:
    issue = ValidationIssue("$input", "valid arguments", arguments, description=reason)
    return ValidationFailure(arguments, [issue])
