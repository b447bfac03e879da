"""OpenAI Agents SDK: llmapp's functions as ``FunctionTool``s.

``tools(app, target)`` (or any binding ``llmapp.agents._bound`` reads) gives one
``FunctionTool`` per function, whose ``on_invoke_tool`` hands the model's argument text to
llmapp's ``execute`` (lenient reading, repair, validation, the human side merged) and
answers the model with ``CallResult.message()``: the data as JSON, or the feedback naming
every mistake, or the method's bounded error, so a wrong call is corrected on the next
turn without failing the run.

``strict_json_schema`` always agrees with the schema, since the SDK rewrites any schema
given with ``True`` to its own strict form: ``strict=True`` gives llmapp's strict form of
each function's parameters (as ``llmapp.vendors.openai.tools(strict=True)``; what strict mode
cannot express raises ``LlmApplicationError``), ``strict=False`` sends the schema untouched,
and the default (``None``) is strict exactly when the schema already follows the strict
rules (an application built with ``strict=True``). ``human=lambda name, context: {...}``
receives the SDK's ``ToolContext`` (``context.context`` is the run's own context object).

Controls map to the SDK's own: ``@controls(enabled=...)`` is the tool's ``is_enabled`` (the
predicate reads the run's ``RunContextWrapper`` and its ``context``), a function that needs
approval has ``needs_approval``, so the run stops with an interruption until
``state.approve(...)``; a context parameter of type ``ToolContext`` (or of the run context's
own type) receives it.

Large applications: ``tools(app, target, defer=True, keep=[...])`` marks the tools
``defer_loading`` for the SDK's own ``ToolSearchTool()`` (Responses models); or
``tools(ToolSearch(app), target)`` gives ``search_tools`` (llmapp's index) and the functions
loaded so far: build the agent's tools again between turns to carry what a search loaded.

Needs ``pip install 'llmapp[openai-agents]'``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from agents import FunctionTool, RunContextWrapper, Tool
from agents.tool_context import ToolContext

from llmapp._sentinels import MISSING
from llmapp.agents._bound import BoundTool, HumanValues, bind
from llmapp.vendors import Defer, deferred, export_error, openai

__all__ = ["tools"]


def tools(
    source: Any,
    target: Any = MISSING,
    *,
    strict: bool | None = None,
    human: HumanValues | None = None,
    defer: Defer = None,
    keep: Iterable[str] = (),
) -> list[Tool]:
    """Agents SDK tools for llmapp's functions (``FunctionTool``s).

    The list is typed as the SDK's own ``list[Tool]``, which ``Agent(tools=...)`` takes (a
    ``list[FunctionTool]`` would not pass a type checker: lists are invariant).

    Args:
        source: an application (with ``target``), or ``(app, target)`` /
            ``(app, target, functions)`` tuples (see ``llmapp.agents._bound``).
        target: what the calls of ``source`` run on.
        strict: OpenAI's strict mode: ``True``, ``False``, or ``None`` to follow the schema.
        human: the human side: function name -> values, or ``(name, ToolContext) -> values``.
        defer: the tools made ``defer_loading`` (``True`` for all, names, or a predicate
            over a function; ``llmapp.vendors._defer``): the Responses API shows them once
            the agent's ``ToolSearchTool()`` finds them.
        keep: names never deferred.

    Raises:
        LlmApplicationError: with ``strict=True``, every ``Class.method.param`` that strict
            mode cannot express.

    Example::

        agent = Agent(name="shop", tools=tools(application(Shop), Shop()))
    """
    made: list[Tool] = []
    failures: list[tuple[str, str]] = []
    bound = bind(source, target, human=human)
    deferring = deferred([each.tool for each in bound], defer, keep)
    for each in bound:
        schema = each.parameters
        if strict:
            schema, found = openai.strict_parameters(schema)
            failures += [(f"{each.name}.{path}".rstrip("."), reason) for path, reason in found]
        is_strict = strict if strict is not None else openai.accepts(schema)
        made.append(
            FunctionTool(
                name=each.name,
                description=each.description,
                params_json_schema=schema,
                on_invoke_tool=_invoker(each),
                strict_json_schema=is_strict,
                is_enabled=_enabled(each) if each.declares("enabled") else True,
                needs_approval=_approval(each) if each.declares("approval") else False,
                defer_loading=each.name in deferring,
            )
        )
    if failures:
        raise export_error(source, "the OpenAI Agents SDK", failures)
    return made


def _invoker(bound: BoundTool) -> Callable[[ToolContext[Any], str], Awaitable[str]]:
    # The SDK invokes a tool with needs_approval only once the call is approved.
    approved = bound.declares("approval")

    async def invoke(context: ToolContext[Any] | RunContextWrapper[Any], arguments: str) -> str:
        carried = (context.context,)
        return (await bound.arun(arguments, context, carried=carried, approved=approved)).message()

    return invoke


def _enabled(bound: BoundTool) -> Callable[[RunContextWrapper[Any], Any], bool]:
    def enabled(context: RunContextWrapper[Any], agent: Any) -> bool:
        return bound.enabled(context, (context.context,))

    return enabled


def _approval(
    bound: BoundTool,
) -> Callable[[RunContextWrapper[Any], dict[str, Any], str], Awaitable[bool]]:
    async def needs_approval(
        context: RunContextWrapper[Any], arguments: dict[str, Any], call_id: str
    ) -> bool:
        return bound.needs_approval(arguments, context, (context.context,))

    return needs_approval
