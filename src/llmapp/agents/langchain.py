"""LangChain and LangGraph: llmapp's functions as ``BaseTool``s.

``tools(app, target)`` (or any binding ``llmapp.agents._bound`` reads) gives one
``LlmappTool`` per function: its ``args_schema`` is the JSON schema of the model's side of
the parameters (LangChain passes a dict ``args_schema`` through unvalidated, so llmapp's
``execute`` reads, repairs and checks the model's arguments), which ``bind_tools`` sends as
is. A wrong call, or a method that raised, becomes a ``ToolException`` carrying llmapp's
feedback; ``handle_tool_error=True`` makes it a ``ToolMessage`` with ``status="error"``,
so LangGraph's ``ToolNode`` answers the model and the graph goes on. Successful calls
answer the data as JSON text. ``human=lambda name, config: {...}`` receives the call's
``RunnableConfig`` (``config["configurable"]``): per-run values fill the human side without
reaching the model. An MCP application's calls are asynchronous: run its tools with
``ainvoke`` (or an async graph); ``invoke`` raises ``ExecutionError``.

Controls: a call that needs approval (``@approval``, ``@tag destructive``) is LangGraph's
``interrupt`` with ``{"tool", "arguments", "description", "question"}`` (``question``: what
to show the human, every argument that will run, the decisive ones first and whole;
``arguments`` in the schema's order): the graph pauses, and resuming
with ``Command(resume=True)`` (or ``{"approved": True}``) runs the method, anything else
answers the model that the human declined. Without LangGraph such a call is refused. The
values of ``config["configurable"]`` are the call's context: an ``enabled`` predicate reads
them and context parameters receive them by type. LangChain binds tools once, so
``visible(tools, config)`` gives the tools that exist for a run's config: bind those
(``chat_model.bind_tools(visible(made, config))`` in the graph's model node) and the model
is not offered a hidden tool; a call of one anyway is answered as an unknown function.

Tool search: ``made = tools((searching, target, searching.every))`` holds every function of a
``ToolSearch`` (the ``ToolNode`` runs any of them); ``visible(made, config)`` is
``search_tools`` and what the searches loaded so far, to bind in the model node.

Needs ``pip install 'llmapp[langchain]'`` (and ``langgraph`` for ``ToolNode``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException
from pydantic import PrivateAttr

from llmapp._sentinels import MISSING
from llmapp.agents._bound import BoundTool, HumanValues, bind, shown
from llmapp.vendors import Outcome

__all__ = ["LlmappTool", "tools", "visible"]


class LlmappTool(BaseTool):
    """One llmapp function as a LangChain tool (see the module docstring)."""

    handle_tool_error: bool = True
    _bound: BoundTool = PrivateAttr()

    @classmethod
    def of(cls, bound: BoundTool) -> LlmappTool:
        """The tool for one bound function."""
        tool = cls(name=bound.name, description=bound.description, args_schema=bound.parameters)
        tool._bound = bound
        return tool

    def _to_args_and_kwargs(
        self, tool_input: str | dict[str, Any], tool_call_id: str | None
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        # The model's arguments stay one value: its keys must not meet _run's own parameters.
        return (tool_input,), {}

    def _run(self, arguments: Any, config: RunnableConfig) -> str:
        carried = _carried(config)
        result = self._bound.run(arguments, config, carried=carried)
        if getattr(result, "approval", None) is not None and _approved(result):
            result = self._bound.run(arguments, config, carried=carried, approved=True)
        return _answer(result)

    async def _arun(self, arguments: Any, config: RunnableConfig) -> str:
        carried = _carried(config)
        result = await self._bound.arun(arguments, config, carried=carried)
        if getattr(result, "approval", None) is not None and _approved(result):
            result = await self._bound.arun(arguments, config, carried=carried, approved=True)
        return _answer(result)


def _carried(config: RunnableConfig) -> tuple[Any, ...]:
    configurable = config.get("configurable") if isinstance(config, dict) else None
    return tuple(configurable.values()) if isinstance(configurable, dict) else ()


def _approved(result: Outcome) -> bool:
    """LangGraph's ``interrupt``: the human's answer on resume (the graph pauses here first)."""
    approval: Any = getattr(result, "approval", None)
    try:
        from langgraph.types import interrupt
    except ImportError:  # no graph to pause: the call stays refused
        raise ToolException(result.message()) from None
    decision = interrupt(
        {
            "tool": approval.name,
            "arguments": approval.arguments,
            "description": approval.description,
            "question": approval.question,
        }
    )
    if decision is True or (isinstance(decision, dict) and decision.get("approved") is True):
        return True
    raise ToolException(f"A human declined the call of {approval.name}; it did not run.")


def _answer(result: Outcome) -> str:
    if not result.success:
        raise ToolException(result.message())
    return result.message()


def tools(
    source: Any, target: Any = MISSING, *, human: HumanValues | None = None
) -> list[LlmappTool]:
    """LangChain tools for llmapp's functions.

    Args:
        source: an application (with ``target``), or ``(app, target)`` /
            ``(app, target, functions)`` tuples (see ``llmapp.agents._bound``).
        target: what the calls of ``source`` run on.
        human: the human side: function name -> values, or ``(name, RunnableConfig) -> values``.

    Example::

        model = chat_model.bind_tools(tools(application(Shop), Shop()))
        graph_node = ToolNode(tools(application(Shop), Shop()))
    """
    return [LlmappTool.of(each) for each in bind(source, target, human=human)]


def visible(tools: Iterable[LlmappTool], config: RunnableConfig | None = None) -> list[LlmappTool]:
    """The tools that exist for a run's ``config`` (``@controls(enabled=...)``), in order.

    The predicate reads what the tools' calls read: ``config`` and the values of its
    ``configurable``.

    Example::

        def call_model(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
            bound = chat_model.bind_tools(visible(made, config))
            return {"messages": [bound.invoke(state["messages"])]}
    """
    given: RunnableConfig = config if config is not None else {}
    carried = _carried(given)
    return [tool for tool in tools if tool._bound.enabled(given, carried) and shown(tool._bound)]
