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

Needs ``pip install 'llmapp[langchain]'`` (and ``langgraph`` for ``ToolNode``).
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException
from pydantic import PrivateAttr

from llmapp._sentinels import MISSING
from llmapp.agents._bound import BoundTool, HumanValues, bind
from llmapp.vendors._calls import Outcome

__all__ = ["LlmappTool", "tools"]


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
        return _answer(self._bound.run(arguments, config))

    async def _arun(self, arguments: Any, config: RunnableConfig) -> str:
        return _answer(await self._bound.arun(arguments, config))


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
