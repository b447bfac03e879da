"""LlamaIndex: llmapp's functions as ``AsyncBaseTool``s (the family of ``FunctionTool``).

``tools(app, target)`` (or any binding ``llmapp.agents._bound`` reads) gives one
``LlmappTool`` per function. LlamaIndex describes a tool by a pydantic model
(``ToolMetadata.fn_schema``); llmapp's tools carry the JSON schema of the model's side of
the parameters instead (``get_parameters_dict`` and ``to_openai_tool`` return it), so no
pydantic model is built and the human side is never shown. ``call(**arguments)`` /
``acall`` hand the model's arguments to llmapp's ``execute``; the ``ToolOutput`` holds
``CallResult.message()`` (the data as JSON, or the feedback naming every mistake, or the
method's bounded error) with ``is_error`` set when the call failed, which LlamaIndex's
agents send back to the model as the tool's answer.

LlamaIndex gives a tool no per-call context, so a ``human`` callable receives ``None``.

Needs ``pip install 'llmapp[llamaindex]'``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from llama_index.core.tools import AsyncBaseTool, ToolMetadata, ToolOutput

from llmapp._sentinels import MISSING
from llmapp.agents._bound import BoundTool, HumanValues, bind
from llmapp.vendors._calls import Outcome

__all__ = ["LlmappTool", "SchemaMetadata", "tools"]


@dataclass
class SchemaMetadata(ToolMetadata):
    """``ToolMetadata`` whose parameters are a JSON schema rather than a pydantic model."""

    parameters: dict[str, Any] = field(default_factory=dict)

    def get_parameters_dict(self) -> dict[str, Any]:
        return self.parameters


class LlmappTool(AsyncBaseTool):
    """One llmapp function as a LlamaIndex tool (see the module docstring)."""

    def __init__(self, bound: BoundTool) -> None:
        self._bound = bound
        self._metadata = SchemaMetadata(
            description=bound.description,
            name=bound.name,
            fn_schema=None,
            parameters=bound.parameters,
        )

    @property
    def metadata(self) -> ToolMetadata:
        return self._metadata

    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:
        return self._output(kwargs, self._bound.run(_arguments(args, kwargs)))

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
        return self._output(kwargs, await self._bound.arun(_arguments(args, kwargs)))

    def _output(self, given: dict[str, Any], result: Outcome) -> ToolOutput:
        return ToolOutput(
            tool_name=self._bound.name,
            content=result.message(),
            raw_input={"kwargs": given},
            raw_output=getattr(result, "data", None) if result.success else None,
            is_error=not result.success,
        )


def _arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The model's arguments: keywords, or one text or mapping given positionally."""
    return args[0] if len(args) == 1 and not kwargs else kwargs


def tools(
    source: Any, target: Any = MISSING, *, human: HumanValues | None = None
) -> list[LlmappTool]:
    """LlamaIndex tools for llmapp's functions.

    Args:
        source: an application (with ``target``), or ``(app, target)`` /
            ``(app, target, functions)`` tuples (see ``llmapp.agents._bound``).
        target: what the calls of ``source`` run on.
        human: the human side: function name -> values, or ``(name, None) -> values``.

    Example::

        agent = FunctionAgent(tools=tools(application(Shop), Shop()), llm=llm)
    """
    return [LlmappTool(each) for each in bind(source, target, human=human)]
