"""``LlmApplication`` and ``application(cls)``: the functions of a class, built once and cached."""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Awaitable, Mapping
from dataclasses import replace
from logging import INFO
from time import perf_counter
from typing import Any

from llmapp import kernel
from llmapp.app._decorator import declared_config
from llmapp.kernel import (
    APP,
    DEBUG,
    DEFAULT_RUNNER,
    Application,
    Call,
    CallResult,
    LlmConfig,
    LlmFunction,
    Masker,
    Plan,
    Runner,
    SchemaPredicate,
    ValidationHook,
    log_call,
    log_raised,
    run_sync,
    unknown_function,
)

__all__ = ["LlmApplication", "application"]


class LlmApplication(Application[LlmFunction, Any, Any]):
    """The LLM functions of one class, and safe execution of the calls an LLM makes.

    Attributes:
        functions: one ``LlmFunction`` per public method, in a stable order.
        errors: always empty: a class's problems raise ``LlmApplicationError`` when it is
            built (``FunctionTable`` says why).
        config: the configuration it was built with.
        name: the class's name.
        description: what the application is for: the class's own docstring (summary and
            long description, tags and sections removed; typia's
            ``ILlmApplication.description``), or ``None``. The toolsets give it to their
            framework (pydantic-ai's instructions) and the MCP server as its instructions.
    """

    def __init__(
        self, cls: type, config: LlmConfig, plans: list[Plan], description: str | None = None
    ) -> None:
        self.cls = cls
        self.name = cls.__name__
        self.config = config
        self.description = description
        super().__init__([plan.function for plan in plans])
        self._plans = {plan.function.name: plan for plan in plans}

    def __repr__(self) -> str:
        names = ", ".join(function.name for function in self.functions)
        return f"<LlmApplication {self.cls.__qualname__}: {names}>"

    def execute(
        self,
        instance: Any,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        started = perf_counter()
        plan = self._plans.get(name) if type(name) is str else None
        try:
            if plan is not None and plan.plain:  # the common call: no controls, no context
                result = plan.execute(instance, arguments, human, raise_errors)
            else:
                result = self._execute(
                    instance, name, arguments, human, raise_errors, context, approved
                )
        except Exception as error:  # raise_errors, or a misuse of the application
            log_raised(APP, name, error, perf_counter() - started, _masker(human, context))
            raise
        # The valid call's record is DEBUG, a refusal's INFO: the masker is built, and
        # ``log_call`` called, only where a record will be written.
        if (not result.success and (result.error is not None or APP.isEnabledFor(INFO))) or (
            result.success and APP.isEnabledFor(DEBUG)
        ):
            log_call(APP, result, perf_counter() - started, _masker(human, context))
        return result

    def _execute(
        self,
        instance: Any,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None,
        raise_errors: bool,
        context: Any,
        approved: bool,
    ) -> CallResult:
        plan = self._plans.get(name) if isinstance(name, str) else None
        if plan is None:
            return unknown_function(name, self._visible(context))
        function = plan.function
        if plan.plain:  # nothing to admit
            return plan.execute(instance, arguments, human, raise_errors)
        if not kernel.enabled(function, context):  # controls: hidden
            return unknown_function(name, self._visible(context))
        prepared = kernel.admit(plan.prepare(instance, arguments, human), context, approved)
        if isinstance(prepared, CallResult):
            return prepared
        if kernel.time_limit(function, None) is not None:  # controls: timeout
            return kernel.run_within(prepared, raise_errors, DEFAULT_RUNNER)
        return run_sync(prepared, raise_errors)

    async def aexecute(
        self,
        instance: Any,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        runner: Runner | None = None,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        started = perf_counter()
        try:
            result = await self._aexecute(
                instance, name, arguments, human, raise_errors, runner, context, approved
            )
        except Exception as error:  # raise_errors, or a misuse of the application
            log_raised(APP, name, error, perf_counter() - started, _masker(human, context))
            raise
        if not result.success or APP.isEnabledFor(DEBUG):  # as in ``execute``
            log_call(APP, result, perf_counter() - started, _masker(human, context))
        return result

    def _aexecute(
        self,
        instance: Any,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None,
        raise_errors: bool,
        runner: Runner | None,
        context: Any,
        approved: bool,
    ) -> Awaitable[CallResult]:
        """``aexecute`` without its log record: for a door that logs the call itself.

        The runner's own coroutine is handed back, not awaited in one more of this.
        """
        plan = self._plans.get(name) if isinstance(name, str) else None
        if plan is None or not kernel.enabled(plan.function, context):  # controls: hidden
            return _answered(unknown_function(name, self._visible(context)))
        admit = None
        if not plan.plain:  # a plain call has nothing to admit (as in ``execute``)
            admit = functools.partial(kernel.admit, context=context, approved=approved)
        return (runner or DEFAULT_RUNNER).execute(
            plan, instance, arguments, human, raise_errors, admit=admit
        )

    def _visible(self, context: Any) -> list[str]:
        return [function.name for function in self.visible(context)]

    def prepare(
        self, instance: Any, name: str, arguments: Any, human: Mapping[str, Any] | None = None
    ) -> Call | CallResult:
        """Every step of ``execute`` before the method runs, for callers that run it elsewhere.

        Returns:
            The ``CallResult`` that ends the call (wrong arguments, an unknown name), or a
            ``Call`` ready to run where the caller chooses: ``call.run()`` (in a worker
            thread, say) or ``await call.arun()``, each as ``execute`` / ``aexecute`` runs it.

        Raises:
            ExecutionError: as ``execute`` raises it.
        """
        plan = self._plans.get(name) if isinstance(name, str) else None
        if plan is None:
            return unknown_function(name, list(self._plans))
        return plan.prepare(instance, arguments, human)

    def takes_context(self, name: str) -> bool:
        """Whether the method behind ``name`` has a context parameter (``context=`` reaches it)."""
        plan = self._plans.get(name) if isinstance(name, str) else None
        return plan is not None and bool(plan.method.context)

    def method(self, name: str) -> Any:
        """The Python method behind ``name`` as its class holds it, or ``None``: what a sink
        reads the method's own declarations from (its return annotation, its decorators)."""
        plan = self._plans.get(name) if isinstance(name, str) else None
        return None if plan is None else getattr(plan.owner, plan.method.name, None)


async def _answered(result: CallResult) -> CallResult:
    """A call answered without running (an unknown or hidden function), as an awaitable."""
    return result


_cache: weakref.WeakKeyDictionary[type, dict[tuple[Any, ...], LlmApplication]] = (
    weakref.WeakKeyDictionary()
)
_lock = threading.Lock()


def application(
    cls: type,
    *,
    strict: bool | None = None,
    reference: bool | None = None,
    separate: SchemaPredicate | None = None,
    validate: Mapping[str, ValidationHook] | None = None,
    max_length: int | None = None,
) -> LlmApplication:
    """The LLM application of a class (decorated with ``@llm_application`` or not).

    Each keyword given overrides what the decorator declared; ``None`` (the default)
    keeps it, and without a decorator ``LlmConfig``'s defaults apply. The result is
    cached per class and configuration.

    Args:
        cls: the class whose public methods become functions.
        strict: OpenAI's structured-output rules for the schemas (default ``False``);
            arguments are still checked against every constraint.
        reference: keep named types in ``$defs`` (default ``True``).
        separate: a predicate over a schema, ``True`` for values a human supplies
            (default: only ``Human()`` values are human-side).
        validate: method name -> a hook replacing its generated validation, added to
            the declared ones (default: none).
        max_length: most characters of argument text a call reads (default
            ``llmapp.repair.MAX_LENGTH``, 100,000); not the HTTP source's
            ``max_name_length``.

    Raises:
        LlmApplicationError: listing every problem in the class, each as
            ``Class.method.param: reason``.

    Example::

        app = application(Shop, strict=True)
        for function in app.functions:
            print(function.name, function.parameters)
    """
    config = _configure(declared_config(cls), strict, reference, separate, validate, max_length)
    key = config.cache_key()
    with _lock:
        cached = _cache.get(cls, {}).get(key)
    if cached is not None:
        return cached
    from llmapp.app._build import build  # the whole pipeline: loaded on first build
    from llmapp.introspect import class_doc

    built = LlmApplication(cls, config, build(cls, config), class_doc(cls).description)
    with _lock:
        return _cache.setdefault(cls, {}).setdefault(key, built)


def _configure(
    declared: LlmConfig,
    strict: bool | None,
    reference: bool | None,
    separate: SchemaPredicate | None,
    validate: Mapping[str, ValidationHook] | None,
    max_length: int | None,
) -> LlmConfig:
    changes: dict[str, Any] = {}
    if max_length is not None:
        changes["max_length"] = max_length
    if strict is not None:
        changes["strict"] = strict
    if reference is not None:
        changes["reference"] = reference
    if separate is not None:
        changes["separate"] = separate
    if validate:
        changes["validate"] = {**declared.validate, **validate}
    return replace(declared, **changes) if changes else declared


def _masker(human: Mapping[str, Any] | None, context: Any) -> Masker:
    """What a call's log record must not show: its human values and its own context values."""
    if context is None:
        return Masker.of(human)
    return Masker.of(human, *kernel.CallContext.of(context).own())
