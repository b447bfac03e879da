"""``@llm_application`` and ``@validates``: configuration declared on the class itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, overload

from llmapp.kernel import (
    LlmConfig,
    SchemaPredicate,
    ValidationHook,
)
from llmapp.kernel import after_types as _after_types_hook
from llmapp.repair import MAX_LENGTH

__all__ = ["CONFIG_ATTRIBUTE", "HOOK_ATTRIBUTE", "llm_application", "validates"]

CONFIG_ATTRIBUTE = "__llmapp_config__"
HOOK_ATTRIBUTE = "__llmapp_validates__"

C = TypeVar("C", bound=type)


@overload
def llm_application(cls: C, /) -> C: ...


@overload
def llm_application(
    *,
    strict: bool = False,
    reference: bool = True,
    separate: SchemaPredicate | None = None,
    validate: Mapping[str, ValidationHook] | None = None,
    max_length: int = MAX_LENGTH,
) -> Callable[[C], C]: ...


def llm_application(
    cls: C | None = None,
    /,
    *,
    strict: bool = False,
    reference: bool = True,
    separate: SchemaPredicate | None = None,
    validate: Mapping[str, ValidationHook] | None = None,
    max_length: int = MAX_LENGTH,
) -> C | Callable[[C], C]:
    """Mark a class as an LLM application; the class itself is returned unchanged.

    The application is built (and every problem in the class reported) on the
    first ``llmapp.application(cls)`` call, so types defined after the class
    resolve.

    Example::

        @llm_application(strict=True)
        class Shop:
            def search(self, query: str) -> list[str]:
                '''Search the catalogue.'''
                ...

        app = llmapp.application(Shop)
    """
    config = LlmConfig(
        strict=strict,
        reference=reference,
        separate=separate,
        validate=dict(validate or {}),
        max_length=max_length,
    )

    def mark(target: C) -> C:
        setattr(target, CONFIG_ATTRIBUTE, config)
        return target

    return mark if cls is None else mark(cls)


def validates(
    name: str, *, after_types: bool = False
) -> Callable[[Callable[[Any], Any]], staticmethod[[Any], Any]]:
    """Declare, inside the class body, the validation hook of method ``name``.

    The decorated function takes the arguments and returns a ``Validation``; it
    replaces the generated validation of that method. With ``after_types=True``
    it runs only on arguments whose types are right and may also return a list
    of ``ValidationIssue`` or ``None``. The hook is never a function itself.

    Example::

        @llm_application
        class Bank:
            def transfer(self, amount: float, to: str) -> None: ...

            @validates("transfer", after_types=True)
            def _positive(args):
                if args["amount"] <= 0:
                    return [ValidationIssue("$input.amount", "positive number", args["amount"])]
                return None
    """

    def mark(function: Callable[[Any], Any]) -> staticmethod[[Any], Any]:
        hook: ValidationHook = _after_types_hook(function) if after_types else function
        wrapper = staticmethod(function)
        setattr(wrapper, HOOK_ATTRIBUTE, (name, hook))
        return wrapper

    return mark


def declared_hooks(cls: type) -> dict[str, tuple[str, ValidationHook]]:
    """Hooks declared with ``@validates`` in the class and its bases: attribute -> (name, hook)."""
    found: dict[str, tuple[str, ValidationHook]] = {}
    for klass in reversed(cls.__mro__):
        for attribute, value in vars(klass).items():
            declared = getattr(value, HOOK_ATTRIBUTE, None)
            if declared is not None:
                found[attribute] = declared
    return found


def declared_config(cls: type) -> LlmConfig:
    config = getattr(cls, CONFIG_ATTRIBUTE, None)
    return config if isinstance(config, LlmConfig) else LlmConfig()
