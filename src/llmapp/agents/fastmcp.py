"""FastMCP: llmapp's functions added to an existing ``FastMCP`` server.

``add_tools(server, app, target)`` (or any binding ``llmapp.agents._bound`` reads) adds one
FastMCP ``Tool`` per function, listed exactly as ``llmapp.vendors.mcp.tools`` writes it
(``inputSchema`` the model's side only, ``outputSchema``, annotations from tags) and
answered exactly as llmapp's own MCP server answers (``llmapp.vendors.mcp.tool_result``):
wrong arguments are ``isError: true`` with the feedback naming every mistake, and the
method does not run. FastMCP passes a custom tool's arguments through unchecked, so the
checking is llmapp's. ``human=lambda name, context: {...}`` receives FastMCP's ``Context``
of the request (``None`` outside one).

Controls: the request's ``Context`` is the call's context (``enabled`` predicates read it,
context parameters of type ``Context`` receive it); a hidden tool's calls are answered as
unknown (FastMCP lists a tool for every request); a call that needs approval is asked of
the user with FastMCP's ``ctx.elicit`` (yes / no) and runs only on yes, and a client that
cannot be asked gets the approval message, ``isError: true``.

The server keeps everything else of its own (its other tools, middleware, auth, mounting,
``create_proxy``). The other direction, a FastMCP ``Client`` as the session of
``llmapp.mcp.application`` / ``call``, needs nothing from here.

Needs ``pip install 'llmapp[fastmcp]'``.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastmcp import FastMCP
from fastmcp.server.dependencies import get_context
from fastmcp.tools import Tool, ToolResult
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import PrivateAttr

from llmapp._sentinels import MISSING
from llmapp.agents._bound import BoundTool, HumanValues, bind
from llmapp.app import CallResult
from llmapp.vendors import mcp

__all__ = ["LlmappTool", "add_tools"]

logger = logging.getLogger("llmapp.agents")


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
        context = _context()
        result = await bound.arun(arguments, context)
        approval: Any = getattr(result, "approval", None)
        decision = await _decision(context, approval) if approval is not None else None
        if decision is True:
            result = await bound.arun(arguments, context, approved=True)
        elif decision is False:
            declined = f"The user declined the call of {approval.name}; it did not run."
            result = CallResult(name=approval.name, success=False, feedback=declined)
        answer = mcp.tool_result(bound.tool.function, result)
        return ToolResult.from_mcp_result(CallToolResult.model_validate(answer))


async def _decision(context: Any, approval: Any) -> bool | None:
    """The user's answer to FastMCP's elicitation, or ``None`` when nobody can be asked."""
    if context is None:
        return None
    shown = json.dumps(approval.arguments, ensure_ascii=False, default=str)[:2_000]
    try:
        answer = await context.elicit(f"Approve the call of {approval.name} with {shown}?", bool)
    except Exception:  # the client has no elicitation: the approval message stands
        logger.info("call %s: the client cannot be asked for an approval", approval.name)
        return None
    return getattr(answer, "action", None) == "accept" and getattr(answer, "data", None) is True


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
