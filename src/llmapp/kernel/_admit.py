"""The per-call controls applied to a prepared call: approval asked, context values given.

The controls themselves (``_controls``) are read from the function alone; these steps
need the prepared ``Call`` too, so they sit above the plan that makes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from llmapp._errors import ExecutionError
from llmapp.kernel._controls import CallContext, asking, declares, needs_approval
from llmapp.kernel._execute import Call
from llmapp.kernel._function import Function
from llmapp.kernel._result import CallResult

__all__ = ["admit", "awaiting_approval", "with_context"]


def admit(prepared: Call | CallResult, context: Any, approved: bool) -> Call | CallResult:
    """A prepared call with its context values, or the answer that it awaits approval."""
    if isinstance(prepared, CallResult):
        return prepared
    function = prepared.plan.function
    if function.controls is None and not prepared.plan.method.context:
        return prepared  # nothing declared: the common call pays for no more than this
    if not approved and declares(function, "approval"):
        waiting = awaiting_approval(function, _model_arguments(prepared), context, approved)
        if waiting is not None:
            return waiting
    return with_context(prepared, context)


def awaiting_approval(
    function: Function, arguments: Any, context: Any, approved: bool
) -> CallResult | None:
    """The answer that a call of ``function`` waits for a human's approval, or ``None``.

    ``arguments`` are the model's checked ones (never a human-side value): what the
    approval's question shows. Every door asks this between checking and running, so a
    function's ``@approval`` (or ``controls=Controls(approval=...)``) holds whatever its
    door; ``None`` when it declares none, the call is ``approved``, or its predicate says
    no approval is needed.
    """
    if approved or function.controls is None or not declares(function, "approval"):
        return None
    if isinstance(arguments, Mapping):
        arguments = dict(arguments)
    if not needs_approval(function, arguments, context):
        return None
    approval = asking(function, arguments)
    return CallResult(
        name=function.name,
        success=False,
        feedback=approval.message(),
        deprecated=function.deprecated,
        approval=approval,
    )


def with_context(call: Call, context: Any) -> Call:
    """The call with each context parameter's value taken from ``context`` by type."""
    wanted = call.plan.method.context
    if not wanted:
        return call
    supplied = CallContext.of(context)
    kwargs = dict(call.kwargs)
    for parameter in wanted:
        value = supplied.get(parameter.type, _NONE)
        if value is not _NONE:
            kwargs[parameter.name] = value
        elif parameter.required:
            raise ExecutionError(
                f"{call.plan.function.name}: no context value of type "
                f"{parameter.type.__qualname__} for {parameter.name} (pass context=...)"
            )
    own = supplied.own()
    hidden = call.hidden.adding(*own) if own else call.hidden
    return replace(call, kwargs=kwargs, hidden=hidden)


_NONE = object()


def _model_arguments(call: Call) -> Any:
    """The model's own arguments of a prepared call: its checked data, the human side left out."""
    data = call.model_data
    if isinstance(data, Mapping):
        return dict(data)
    return data
