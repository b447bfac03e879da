"""Safe execution of one call: read, repair, validate, merge, convert, call.

The LLM reaches only what the function table holds: the function is looked up
by name in that table (never ``getattr`` with the model's text), arguments are
passed only for declared parameters (validation rejects every other key), and
human-side values come from the caller alone.

``execute`` runs an ``async`` method to completion with ``asyncio.run`` when no
event loop is running in the thread; inside a running loop it raises
``ExecutionError`` (use ``aexecute``), since blocking that loop would deadlock.
"""

from __future__ import annotations

import difflib
import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from llmapp._errors import ExecutionError
from llmapp.app._function import LlmFunction, _LazyValidator
from llmapp.app._result import CallResult
from llmapp.validate._result import Validation, ValidationFailure, ValidationIssue

if TYPE_CHECKING:
    from llmapp.introspect.model import MethodSpec, TypeGraph

__all__ = ["Binding", "Prepared", "call_async", "call_sync", "finish", "prepare"]


class Binding:
    """What executing one function needs beyond its schemas: the method and its converter."""

    def __init__(self, function: LlmFunction, method: MethodSpec, graph: TypeGraph) -> None:
        self.function = function
        self.method = method
        self._graph = graph
        self._arguments: Callable[[Mapping[str, Any]], tuple[list[Any], dict[str, Any]]] | None = (
            None
        )
        self._human_validator: Callable[[Any], Validation] | None = None

    def arguments(self, data: Mapping[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        if self._arguments is None:
            from llmapp.convert import compile_arguments

            self._arguments = compile_arguments(self.method, self._graph)
        return self._arguments(data)


@dataclass(frozen=True)
class Prepared:
    """A call whose arguments are valid and converted, ready to run."""

    binding: Binding
    target: Callable[..., Any]
    args: list[Any]
    kwargs: dict[str, Any]


def prepare(
    bindings: Mapping[str, Binding],
    owner: type,
    instance: Any,
    name: str,
    arguments: Any,
    human: Mapping[str, Any] | None,
) -> Prepared | CallResult:
    """Everything before the call; a ``CallResult`` when the LLM got something wrong."""
    binding = bindings.get(name) if isinstance(name, str) else None
    if binding is None:
        return _unknown(str(name), list(bindings))
    function = binding.function
    data, unreadable = _read(arguments)
    if unreadable is not None:
        return _failed(function, ValidationFailure(arguments, [unreadable]))
    validation = _validate(function, data)
    if not validation.success:
        return _failed(function, validation)
    merged = _merge_human(binding, validation.data, human)
    target = _target(binding, owner, instance)
    from llmapp.convert import ConversionError

    try:
        args, kwargs = binding.arguments(merged)
    except ConversionError as refused:  # e.g. a dataclass __post_init__ rejecting the values
        issue = ValidationIssue(refused.path, refused.expected, refused.value, refused.reason)
        return _failed(function, ValidationFailure(merged, [issue]))
    return Prepared(binding, target, args, kwargs)


def call_sync(prepared: Prepared, raise_errors: bool) -> CallResult:
    try:
        value = prepared.target(*prepared.args, **prepared.kwargs)
        if inspect.isawaitable(value):
            value = _run_to_completion(value, prepared.binding.function.name)
    except ExecutionError:
        raise
    except Exception as error:
        if raise_errors:
            raise
        return _raised(prepared.binding.function, error)
    return finish(prepared.binding.function, value)


async def call_async(prepared: Prepared, raise_errors: bool) -> CallResult:
    try:
        value = prepared.target(*prepared.args, **prepared.kwargs)
        if inspect.isawaitable(value):
            value = await value
    except Exception as error:
        if raise_errors:
            raise
        return _raised(prepared.binding.function, error)
    return finish(prepared.binding.function, value)


def finish(function: LlmFunction, value: Any) -> CallResult:
    from llmapp.convert import to_json

    return CallResult(
        name=function.name,
        success=True,
        value=value,
        data=to_json(value),
        deprecated=function.deprecated,
    )


def _read(arguments: Any) -> tuple[Any, ValidationIssue | None]:
    if arguments is None:
        return {}, None
    if isinstance(arguments, (str, bytes)):
        from llmapp.repair import parse

        parsed = parse(arguments)
        if parsed.error is not None:
            text = arguments if isinstance(arguments, str) else repr(arguments)
            issue = ValidationIssue(
                "$input", "JSON object", text, f"unreadable JSON: {parsed.error}"
            )
            return None, issue
        return parsed.data, None
    if isinstance(arguments, Mapping):
        return dict(arguments), None
    return arguments, None


def _validate(function: LlmFunction, data: Any) -> Validation:
    from llmapp.repair import coerce

    separated = function.separated
    schema: Mapping[str, Any] = function.checked_parameters
    if separated is not None:
        check = separated.validate
        schema = check.schema if isinstance(check, _LazyValidator) else separated.llm
    repaired = coerce(data, schema)
    if function.hook is None and separated is not None and separated.validate is not None:
        return separated.validate(repaired)
    return function.validate(repaired)


def _merge_human(binding: Binding, data: Any, human: Mapping[str, Any] | None) -> Any:
    """Join the caller's human-side values; they are trusted, but must be complete and known."""
    separated = binding.function.separated
    name = binding.function.name
    schema = separated.human if separated is not None else None
    if schema is None:
        if human:
            raise ExecutionError(f"{name} takes no human-supplied arguments, got {sorted(human)}")
        return data
    given = dict(human or {})
    declared = schema.get("properties", {})
    missing = [key for key in schema.get("required", []) if key not in given]
    unknown = [key for key in given if key not in declared]
    if missing or unknown:
        raise ExecutionError(
            f"{name}: human-supplied arguments are wrong"
            + (f"; missing {missing}" if missing else "")
            + (f"; unknown {unknown}" if unknown else "")
        )
    from llmapp.separate import merge_values

    return merge_values(data, given)


def _target(binding: Binding, owner: type, instance: Any) -> Callable[..., Any]:
    method = binding.method
    if method.kind == "instance" and not isinstance(instance, owner):
        raise ExecutionError(
            f"{method.name} is an instance method: pass an instance of {owner.__qualname__}, "
            f"not {instance!r}"
        )
    if method.kind != "instance" and not (
        isinstance(instance, owner) or (isinstance(instance, type) and issubclass(instance, owner))
    ):
        raise ExecutionError(f"{method.name}: expected {owner.__qualname__} or an instance of it")
    target: Callable[..., Any] = getattr(instance, method.name)
    return target


def _run_to_completion(awaitable: Any, name: str) -> Any:
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_await(awaitable))
    if inspect.iscoroutine(awaitable):
        awaitable.close()
    raise ExecutionError(f"{name} is async and an event loop is running: use aexecute()")


async def _await(awaitable: Any) -> Any:
    return await awaitable


def _unknown(name: str, available: list[str]) -> CallResult:
    close = difflib.get_close_matches(name, available, n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    listing = ", ".join(repr(n) for n in available)
    text = f"There is no function named {name!r}.{hint} The functions are: {listing}."
    expected = f"({' | '.join(json.dumps(n) for n in available)})"
    issue = ValidationIssue("$name", expected, name, text)
    return CallResult(
        name=name, success=False, validation=ValidationFailure(name, [issue]), feedback=text
    )


def _failed(function: LlmFunction, validation: Validation) -> CallResult:
    from llmapp.explain import feedback

    assert isinstance(validation, ValidationFailure)
    return CallResult(
        name=function.name,
        success=False,
        validation=validation,
        feedback=feedback(validation),
        deprecated=function.deprecated,
    )


def _raised(function: LlmFunction, error: Exception) -> CallResult:
    return CallResult(
        name=function.name, success=False, error=error, deprecated=function.deprecated
    )
