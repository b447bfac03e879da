"""LlamaIndex: llmapp's functions as ``FunctionTool``s of LlamaIndex's agent workflows.

``tools(app, target)`` (or any binding ``llmapp.agents._bound`` reads) gives one
``LlmappTool`` per function. LlamaIndex describes a tool by a pydantic model
(``ToolMetadata.fn_schema``); llmapp's tools carry the JSON schema of the model's side of
the parameters instead (``get_parameters_dict`` and ``to_openai_tool`` return it), so no
pydantic model is built and the human side is never shown. ``call(**arguments)`` /
``acall`` hand the model's arguments to llmapp's ``execute``; the ``ToolOutput`` holds
``CallResult.message()`` (the data as JSON, or the feedback naming every mistake, or the
method's bounded error) with ``is_error`` set when the call failed, which LlamaIndex's
agents send back to the model as the tool's answer.

The tools are ``FunctionTool``s that take the workflow's ``Context`` (the agents pass it
to such tools), which is the call's context: ``human=lambda name, ctx: {...}`` receives
it (``None`` when a tool is called outside a workflow), as do ``enabled`` predicates.

Controls: an agent is offered only the tools enabled for its run when it gets them from
``retriever(made)``, LlamaIndex's own ``ObjectRetriever`` of an agent's tools
(``FunctionAgent(tool_retriever=retriever(made), llm=llm)``, in place of ``tools=``): the
agent asks it at every step, both for the tools it shows the model and for the tool a call
names, and it answers with the tools whose ``enabled`` predicate accepts the step's
``Context`` (``workflows.Context.get_step_context()``, the ``Context`` the tools' calls
receive), so the model is never shown a hidden tool and LlamaIndex answers a call of one
as a tool that is not there. ``visible(made, ctx)`` gives the same list for any context.

Tool search: ``retriever(tools((searching, target, searching.every)))`` holds every
function of a ``ToolSearch`` and offers each step ``search_tools`` and what the searches
loaded so far.

Approval is LlamaIndex's human in the loop: a call that needs it waits with
``ctx.wait_for_event(HumanResponseEvent, ...)``, which writes an ``InputRequiredEvent`` to
the event stream (an ``ApprovalRequest``: ``prefix``, the question; ``tool``,
``arguments``, ``description``, ``approval_id``) and pauses the workflow. The caller answers
``handler.ctx.send_event(HumanResponseEvent(response="yes", approval_id=event.approval_id))``
(``"yes"``, or ``approved=True``, runs the method; anything else is a refusal the model
is told of); the workflow replays the tool call, which finds the answer. Outside a
workflow such a call is refused with the approval message.

Needs ``pip install 'llmapp[llamaindex]'``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from llama_index.core.objects import ObjectRetriever
from llama_index.core.schema import QueryType
from llama_index.core.tools import BaseTool, FunctionTool, ToolMetadata, ToolOutput
from llama_index.core.workflow import Context, HumanResponseEvent, InputRequiredEvent
from workflows.errors import WorkflowRuntimeError

from llmapp._sentinels import MISSING
from llmapp.agents._bound import BoundTool, HumanValues, bind, shown
from llmapp.app import CallResult
from llmapp.vendors import Outcome

AgentTool = BaseTool | Callable[..., Any]
"""What LlamaIndex's agents take as a tool (``tools()`` gives ``LlmappTool``s)."""

__all__ = [
    "AgentTool",
    "ApprovalRequest",
    "LlmappTool",
    "SchemaMetadata",
    "VisibleTools",
    "retriever",
    "tools",
    "visible",
]

_CONTEXT = "_llmapp_workflow_context"
"""The keyword the agents pass the workflow's ``Context`` as (no model's key is this)."""
_YES = frozenset({"yes", "y", "approve", "approved", "true"})


class ApprovalRequest(InputRequiredEvent):
    """The question of one call that waits for a human's approval, on the event stream."""

    prefix: str
    """The question, as LlamaIndex's ``InputRequiredEvent`` prompts carry it: every argument
    that will run, the decisive ones first and whole (``Approval.question``)."""
    tool: str
    arguments: Any = None
    """The model's own arguments (never a human-side value), in the schema's order."""
    description: str | None = None
    approval_id: str
    """What the ``HumanResponseEvent`` answering it carries, so answers meet their calls."""


@dataclass
class SchemaMetadata(ToolMetadata):
    """``ToolMetadata`` whose parameters are a JSON schema rather than a pydantic model."""

    parameters: dict[str, Any] = field(default_factory=dict)

    def get_parameters_dict(self) -> dict[str, Any]:
        return self.parameters


class LlmappTool(FunctionTool):
    """One llmapp function as a LlamaIndex tool (see the module docstring)."""

    def __init__(self, bound: BoundTool) -> None:
        metadata = SchemaMetadata(
            description=bound.description,
            name=bound.name,
            fn_schema=None,
            parameters=bound.parameters,
        )
        super().__init__(async_fn=self.acall, metadata=metadata)
        # The agents hand a tool that asks for it the workflow's Context under this keyword.
        self.requires_context = True
        self.ctx_param_name = _CONTEXT
        self._bound = bound

    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:
        context = kwargs.pop(_CONTEXT, None)
        result = self._bound.run(_arguments(args, kwargs), context)
        return self._output(kwargs, result)

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
        context = kwargs.pop(_CONTEXT, None)
        arguments = _arguments(args, kwargs)
        result = await self._bound.arun(arguments, context)
        approval: Any = getattr(result, "approval", None)
        if approval is not None and context is not None:
            if await _approved(context, approval):
                result = await self._bound.arun(arguments, context, approved=True)
            else:
                declined = f"A human declined the call of {approval.name}; it did not run."
                result = CallResult(name=approval.name, success=False, feedback=declined)
        return self._output(kwargs, result)

    def _output(self, given: dict[str, Any], result: Outcome) -> ToolOutput:
        return ToolOutput(
            tool_name=self._bound.name,
            content=result.message(),
            raw_input={"kwargs": given},
            raw_output=getattr(result, "data", None) if result.success else None,
            is_error=not result.success,
        )


async def _approved(context: Any, approval: Any) -> bool:
    """The human's answer, through the workflow's wait for a ``HumanResponseEvent``.

    The first time, the wait writes the question to the stream and pauses the workflow
    (its control-flow exception passes through); the replay finds the answer.
    """
    text = json.dumps([approval.name, approval.arguments], sort_keys=True, default=str)
    approval_id = hashlib.sha256(text.encode()).hexdigest()[:32]
    question = ApprovalRequest(
        prefix=f"{approval.question}\n(yes / no)",
        tool=approval.name,
        arguments=approval.arguments,
        description=approval.description,
        approval_id=approval_id,
    )
    answer = await context.wait_for_event(
        HumanResponseEvent,
        waiter_event=question,
        waiter_id=f"llmapp-approval-{approval_id}",
        requirements={"approval_id": approval_id},
        timeout=None,  # a human decides when they decide
    )
    if answer.get("approved") is True:
        return True
    return str(answer.get("response", "")).strip().lower() in _YES


def _arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The model's arguments: keywords, or one text or mapping given positionally."""
    return args[0] if len(args) == 1 and not kwargs else kwargs


def tools(
    source: Any, target: Any = MISSING, *, human: HumanValues | None = None
) -> list[AgentTool]:
    """LlamaIndex tools for llmapp's functions (``LlmappTool``s).

    The list is typed as what the agents take (``FunctionAgent(tools=...)``,
    ``ReActAgent``, ``AgentWorkflow``): ``list[BaseTool | Callable]`` (a ``list[LlmappTool]``
    would not pass a type checker: lists are invariant).

    Args:
        source: an application (with ``target``), or ``(app, target)`` /
            ``(app, target, functions)`` tuples (see ``llmapp.agents._bound``).
        target: what the calls of ``source`` run on.
        human: the human side: function name -> values, or ``(name, Context) -> values``.

    Example::

        agent = FunctionAgent(tools=tools(application(Shop), Shop()), llm=llm)
    """
    return [LlmappTool(each) for each in bind(source, target, human=human)]


def visible(tools: Iterable[AgentTool], ctx: Any = None) -> list[AgentTool]:
    """The tools that exist for a workflow ``Context`` (``@controls(enabled=...)``), in order.

    The predicate reads what the tools' calls read: the ``Context`` (``None`` outside a
    workflow). Tools that are not llmapp's are always there.
    """
    return [tool for tool in tools if not isinstance(tool, LlmappTool) or tool._bound.enabled(ctx)]


class VisibleTools(ObjectRetriever[AgentTool]):
    """An agent's tools as LlamaIndex retrieves them: those enabled for the running step.

    Built by ``retriever``; the query (the user's message, or the name of the tool a call
    names) does not choose among them, the step's ``Context`` does.
    """

    def __init__(self, tools: Iterable[AgentTool]) -> None:
        # No index behind it: the retriever and node mapping of the base class stay unset.
        self._tools = list(tools)

    def retrieve(self, str_or_query_bundle: QueryType) -> list[AgentTool]:
        return [
            tool
            for tool in visible(self._tools, _step_context())
            if not isinstance(tool, LlmappTool) or shown(tool._bound)
        ]

    async def aretrieve(self, str_or_query_bundle: QueryType) -> list[AgentTool]:
        return self.retrieve(str_or_query_bundle)


def retriever(tools: Iterable[AgentTool]) -> VisibleTools:
    """LlamaIndex's tool retriever over ``tools``, offering each step the tools enabled for it.

    Example::

        made = tools(application(Bank), bank)
        agent = FunctionAgent(tool_retriever=retriever(made), llm=llm)
    """
    return VisibleTools(tools)


def _step_context() -> Any:
    """The running step's ``Context``, or ``None`` outside a workflow step."""
    try:
        return Context.get_step_context()
    except WorkflowRuntimeError:  # not in a step
        return None
