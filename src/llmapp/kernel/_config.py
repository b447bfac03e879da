"""The configuration of an application, and the hooks that replace or extend validation."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from llmapp._results import (
    Validation,
    ValidationFailure,
    ValidationIssue,
    ValidationSuccess,
)
from llmapp.repair import MAX_LENGTH

__all__ = ["BusinessCheck", "LlmConfig", "SchemaPredicate", "ValidationHook", "after_types"]

SchemaPredicate = Callable[[Mapping[str, Any]], bool]
"""``separate``: ``True`` when a human composes the value this schema describes."""

ValidationHook = Callable[[Any], Validation]
"""Replaces a method's generated validation: takes the arguments, returns a ``Validation``."""

BusinessCheck = Callable[[Any], Validation | Iterable[ValidationIssue] | None]
"""A rule run on arguments whose types are already right: a Validation, issues, or None for fine."""

F = TypeVar("F")


@dataclass(frozen=True)
class LlmConfig:
    """How an application is built.

    Attributes:
        strict: follow OpenAI's structured-output rules (every property required,
            optional ones nullable, no keywords it rejects).
        reference: keep named types in ``$defs``; when false, only recursive ones are.
        separate: predicate over a schema; ``True`` means a human composes that value.
        validate: per-method hooks that replace the generated validation.
        max_length: most characters of argument text one call reads (``llmapp.parse``'s
            limit); longer text is refused with feedback saying so. The default bounds
            the cost of reading any text to about a tenth of a second.
    """

    strict: bool = False
    reference: bool = True
    separate: SchemaPredicate | None = None
    validate: Mapping[str, ValidationHook] = field(default_factory=dict)
    max_length: int = MAX_LENGTH

    def cache_key(self) -> tuple[Any, ...]:
        hooks = tuple(sorted((name, id(hook)) for name, hook in self.validate.items()))
        return (self.strict, self.reference, id(self.separate), hooks, self.max_length)


class _AfterTypes:
    """A hook that runs the generated validation first, then a business check."""

    def __init__(self, check: BusinessCheck) -> None:
        self.check = check
        self.generated: Callable[[Any], Validation] | None = None

    def __call__(self, arguments: Any) -> Validation:
        if self.generated is not None:
            typed = self.generated(arguments)
            if not typed.success:
                return typed
        return _as_validation(arguments, self.check(arguments))


def after_types(check: BusinessCheck) -> ValidationHook:
    """Make a hook that checks types with the generated validator, then runs ``check``.

    ``check`` receives arguments whose types are right and returns a ``Validation``,
    a list of ``ValidationIssue`` (empty means fine) or ``None``.

    Example::

        def no_weekend(args):
            if args["day"] in ("sat", "sun"):
                return [ValidationIssue("$input.day", '"mon" .. "fri"', args["day"])]
            return None

        app = application(Shop, validate={"book": after_types(no_weekend)})
    """
    return _AfterTypes(check)


def bind_generated(hook: ValidationHook, generated: Callable[[Any], Validation]) -> ValidationHook:
    """Give an ``after_types`` hook the generated validator of its function."""
    if isinstance(hook, _AfterTypes):
        bound = _AfterTypes(hook.check)
        bound.generated = generated
        return bound
    return hook


def _as_validation(
    arguments: Any, outcome: Validation | Iterable[ValidationIssue] | None
) -> Validation:
    if outcome is None:
        return ValidationSuccess(arguments)
    if isinstance(outcome, (ValidationSuccess, ValidationFailure)):
        return outcome
    issues = list(outcome)
    return ValidationFailure(arguments, issues) if issues else ValidationSuccess(arguments)
