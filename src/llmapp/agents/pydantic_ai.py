"""pydantic-ai: llmapp's functions as one toolset of an ``Agent``.

``toolset(app, target)`` (or any binding ``llmapp.agents._bound`` reads) is an
``AbstractToolset``: pydantic-ai shows the model each function's own side of its
parameters and hands the model's argument text to llmapp unread: each tool's
``args_validator`` (``RawArguments``) wraps the text as ``{"llmapp_arguments": text}``
instead of parsing it, so llmapp's ``execute`` reads it (code fences, trailing commas,
unclosed brackets repaired; text that cannot be read answered with llmapp's feedback,
not pydantic's JSON error), repairs and checks it. A wrong call raises
``ModelRetry`` with llmapp's feedback (every mistake with its path), so the agent's
``max_retries`` applies as for pydantic-ai's own tools; an exception of the method raises
``ToolFailed`` with its bounded message (the model sees it and adapts; no retry is spent).
``human=lambda name, ctx: {...}`` receives the ``RunContext``: per-run values (``ctx.deps``)
fill the human side without reaching the model. The applications' descriptions are the
toolset's instructions.

Controls: a tool hidden for the run's context (``@controls(enabled=...)``, given
``(ctx, ctx.deps)``) is not among the run's tools; a call that needs approval raises
``ApprovalRequired`` (its metadata: ``arguments`` and the ``question`` to show the human,
every argument that will run), so the run ends with ``DeferredToolRequests`` (add it to the agent's
``output_type``) and runs the method once ``DeferredToolResults(approvals={id: True})`` comes
back; a context parameter of type ``RunContext`` (or of the deps' type) receives it.

Streaming: pydantic-ai hands out a tool call's arguments as the model writes them
(``PartStartEvent``/``PartDeltaEvent`` with ``ToolCallPartDelta.args_delta``, from
``agent.run_stream_events()`` or an ``event_stream_handler``). ``toolset.watch(events)``
reads them through ``llmapp.stream`` and yields, per call of one of its tools,
``CallStarted`` and each ``CallMistake`` as soon as it is definite; pydantic-ai still runs
the call (and answers a wrong one with llmapp's feedback) once the response is whole.

Tool search: ``toolset(ToolSearch(app), target)`` shows the model ``search_tools``; the
functions a search loads are among the tools from the run's next step on.

Needs ``pip install 'llmapp[pydantic-ai]'``.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable
from typing import Any

from pydantic_ai import ModelRetry, RunContext, ToolDefinition
from pydantic_ai.exceptions import ApprovalRequired, ToolFailed
from pydantic_ai.toolsets import AbstractToolset
from pydantic_ai.toolsets.abstract import ToolsetTool

from llmapp._aio import async_items
from llmapp._sentinels import MISSING
from llmapp.agents._bound import BoundTool, HumanValues, bind, instructions, revision
from llmapp.streaming import ArgumentStream, CallMistake, CallStarted
from llmapp.vendors import Outcome

__all__ = ["ARGUMENTS", "LlmappToolset", "RawArguments", "toolset"]


ARGUMENTS = "llmapp_arguments"
"""The one key of the arguments pydantic-ai hands ``call_tool``: the model's own text."""


class RawArguments:
    """A tool's ``args_validator`` that leaves the model's arguments to llmapp, unread.

    pydantic-ai parses the text with it (``validate_json``), or checks arguments a model
    gave as an object (``validate_python``); either way the value is kept as given under
    ``ARGUMENTS``, and never raises.
    """

    def validate_json(
        self, input: str | bytes | bytearray, *, allow_partial: Any = False, **kwargs: Any
    ) -> dict[str, Any]:
        text = input if isinstance(input, str) else bytes(input).decode("utf-8", "replace")
        return {ARGUMENTS: text}

    def validate_python(
        self, input: Any, *, allow_partial: Any = False, **kwargs: Any
    ) -> dict[str, Any]:
        return {ARGUMENTS: input}


_RAW = RawArguments()


class LlmappToolset(AbstractToolset[Any]):
    """llmapp's functions as a pydantic-ai toolset (see the module docstring)."""

    def __init__(
        self,
        bound: list[BoundTool],
        *,
        max_retries: int = 1,
        id: str | None = None,
        rebind: Callable[[], list[BoundTool]] | None = None,
    ) -> None:
        self._id = id
        self._max_retries = max_retries
        self._rebind = rebind
        self._made(bound)

    def _made(self, bound: list[BoundTool]) -> None:
        self._bound = {each.name: each for each in bound}
        self._revision = revision(bound)
        self._instructions = instructions(bound)
        max_retries = self._max_retries
        # Made once (and again only when a tool search loaded functions): pydantic-ai asks
        # for the tools at every step of every run, and copies a tool where it changes one.
        self._tools = {
            each.name: ToolsetTool(
                toolset=self,
                tool_def=ToolDefinition(
                    name=each.name,
                    parameters_json_schema=each.parameters,
                    description=each.description,
                ),
                max_retries=max_retries,
                args_validator=_RAW,  # llmapp's execute reads and checks them
            )
            for each in bound
        }
        self._conditional = [each for each in bound if each.declares("enabled")]

    @property
    def id(self) -> str | None:
        return self._id

    async def get_instructions(self, ctx: RunContext[Any]) -> str | None:
        return self._instructions

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        if self._rebind is not None and revision(self._bound.values()) != self._revision:
            self._made(self._rebind())  # a search loaded functions: this step shows them
        tools = dict(self._tools)
        for each in self._conditional:  # hidden for this run's context: not listed
            if not each.enabled(ctx, (ctx.deps,)):
                del tools[each.name]
        return tools

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        approved = ctx.tool_call_approved
        arguments = tool_args.get(ARGUMENTS, tool_args)  # parsed already by a wrapper: as is
        result = await self._bound[name].arun(
            arguments, ctx, carried=(ctx.deps,), approved=approved
        )
        approval = getattr(result, "approval", None)
        if approval is not None:  # the run ends here, with the call among its deferred ones
            metadata = {"arguments": approval.arguments, "question": approval.question}
            raise ApprovalRequired(metadata=metadata)
        return answer(result)

    async def watch(
        self, events: AsyncIterable[Any] | Iterable[Any]
    ) -> AsyncIterator[CallStarted | CallMistake]:
        """Each call of this toolset's tools in a stream of pydantic-ai events: its name,
        then each mistake in its arguments as soon as it is definite (``llmapp.stream``).

        Example::

            async with agent.run_stream_events(prompt) as events:
                async for seen in tools.watch(events):
                    print(seen)                      # CallStarted, CallMistake...

        Calls of other toolsets' tools, arguments given whole as an object and every other
        event are passed over.
        """
        streams: dict[int, tuple[str, str, ArgumentStream]] = {}
        async for event in async_items(events):
            kind = getattr(event, "event_kind", None)
            if kind == "part_start":
                part = event.part
                bound = self._bound.get(getattr(part, "tool_name", None) or "")
                if getattr(part, "part_kind", None) != "tool-call" or bound is None:
                    streams.pop(event.index, None)
                    continue
                call = (part.tool_call_id, part.tool_name, ArgumentStream(bound.tool.function))
                streams[event.index] = call
                yield CallStarted(event.index, part.tool_call_id, part.tool_name)
                text = part.args if isinstance(part.args, str) else ""
            elif kind == "part_delta" and event.index in streams:
                delta = getattr(event.delta, "args_delta", None)
                text = delta if isinstance(delta, str) else ""
            else:
                continue
            id, name, arguments = streams[event.index]
            issues = arguments.feed(text) if text else []
            if issues:
                yield CallMistake(event.index, id, name, issues, arguments.feedback())


def answer(result: Outcome) -> Any:
    """The tool's return value, or the exception pydantic-ai turns into what the model sees."""
    if result.success:
        return getattr(result, "data", None)
    if getattr(result, "error", None) is not None:
        raise ToolFailed(result.message())
    raise ModelRetry(result.message())


def toolset(
    source: Any,
    target: Any = MISSING,
    *,
    human: HumanValues | None = None,
    max_retries: int = 1,
    id: str | None = None,
) -> LlmappToolset:
    """A pydantic-ai toolset of llmapp's functions.

    Args:
        source: an application (with ``target``), or ``(app, target)`` /
            ``(app, target, functions)`` tuples (see ``llmapp.agents._bound``).
        target: what the calls of ``source`` run on.
        human: the human side: function name -> values, or ``(name, RunContext) -> values``.
        max_retries: wrong calls each tool answers with ``ModelRetry`` before the run fails.
        id: the toolset's id (needed for durable execution).

    Example::

        agent = Agent(model, toolsets=[toolset(application(Shop), Shop())])
    """
    bound = bind(source, target, human=human)
    rebind = (lambda: bind(source, target, human=human)) if revision(bound) else None
    return LlmappToolset(bound, max_retries=max_retries, id=id, rebind=rebind)
