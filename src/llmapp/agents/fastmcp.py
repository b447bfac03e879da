"""FastMCP: llmapp's functions added to an existing ``FastMCP`` server.

``add_tools(server, app, target)`` (or any binding ``llmapp.agents._bound`` reads) adds one
FastMCP ``Tool`` per function, listed exactly as ``llmapp.vendors.mcp.tools`` writes it
(``inputSchema`` the model's side only, ``outputSchema``, annotations from tags) and
answered exactly as llmapp's own MCP server answers (``llmapp.vendors.mcp.tool_result``):
wrong arguments are ``isError: true`` with the feedback naming every mistake, and the
method does not run. FastMCP passes a custom tool's arguments through unchecked, so the
checking is llmapp's. ``human=lambda name, context: {...}`` receives FastMCP's ``Context``
of the request (``None`` outside one).

The server keeps everything else of its own (its other tools, middleware, auth, mounting,
``create_proxy``). The other direction, a FastMCP ``Client`` as the session of
``llmapp.mcp.application`` / ``call``, needs nothing from here.

Needs ``pip install 'llmapp[fastmcp]'``.
"""

from __future__ import annotations

from typing import Any

from fastmcp import FastMCP
from fastmcp.server.dependencies import get_context
from fastmcp.tools import Tool, ToolResult
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import PrivateAttr

from llmapp._sentinels import MISSING
from llmapp.agents._bound import BoundTool, HumanValues, bind
from llmapp.vendors import mcp

__all__ = ["LlmappTool", "add_tools"]


class LlmappTool(Tool):
    """One llmapp function as a FastMCP tool (see the module docstring)."""

    _bound: BoundTool = PrivateAttr()

    @classmethod
    def of(cls, bound: BoundTool) -> LlmappTool:
        """The tool for one bound function, listed as ``llmapp.vendors.mcp.tools`` lists it."""
        (entry,) = mcp.tools([bound.tool.function])
        annotations = entry.get("annotations")
        tool = cls(
            name=entry["name"],
            title=entry.get("title"),
            description=entry.get("description"),
            parameters=entry["inputSchema"],
            output_schema=entry.get("outputSchema"),
            annotations=ToolAnnotations(**annotations) if annotations else None,
        )
        tool._bound = bound
        return tool

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        bound = self._bound
        result = await bound.arun(arguments, _context())
        answer = mcp.tool_result(bound.tool.function, result)
        return ToolResult.from_mcp_result(CallToolResult.model_validate(answer))


def _context() -> Any:
    try:
        return get_context()
    except RuntimeError:  # called outside a request (a test calling run() directly)
        return None


def add_tools(
    server: FastMCP[Any], source: Any, target: Any = MISSING, *, human: HumanValues | None = None
) -> list[LlmappTool]:
    """Add llmapp's functions to a FastMCP server as tools.

    Args:
        server: the ``FastMCP`` server (its own tools stay).
        source: an application (with ``target``), or ``(app, target)`` /
            ``(app, target, functions)`` tuples (see ``llmapp.agents._bound``).
        target: what the calls of ``source`` run on.
        human: the human side: function name -> values, or ``(name, Context) -> values``.

    Returns:
        The tools added.

    Example::

        server = FastMCP("shop")
        add_tools(server, application(Shop), Shop())
    """
    added = [LlmappTool.of(each) for each in bind(source, target, human=human)]
    for tool in added:
        server.add_tool(tool)
    return added
