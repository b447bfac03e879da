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
context parameters of type ``Context`` receive it). A tool hidden for a request is not in
its ``tools/list`` (a FastMCP middleware on ``on_list_tools``, added once per server when a
function declares ``enabled``) and its calls are answered as unknown. A call that needs
approval is asked of the user by elicitation (yes / no; the approval's ``question``, which
shows every argument that will run, the decisive ones first and whole) and runs only on yes: on
2026-07-28 connections by FastMCP's multi-round-trip guard (the tool answers
``input_required`` with the question, sealing a digest of the arguments in its
``requestState``; the client's elicitation handler answers and the client retries), on
handshake-era connections by ``ctx.elicit``. A client that cannot be asked gets the
approval message, ``isError: true``.

Tool search: ``add_tools(server, ToolSearch(app), target)`` adds ``search_tools`` and every
function, and lists a function once a search loaded it (FastMCP's own search transforms
work on these tools too).

The server keeps everything else of its own (its other tools, middleware, auth, mounting,
``create_proxy``). The other direction, a FastMCP ``Client`` as the session of
``llmapp.mcp.application`` / ``call``, needs nothing from here.

Needs ``pip install 'llmapp[fastmcp]'``.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from typing import Any

from fastmcp import FastMCP
from fastmcp.server.dependencies import get_context
from fastmcp.server.elicitation import parse_elicit_response_type
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import InputRequiredToolResult, Tool, ToolResult
from mcp.types import CallToolResult, ToolAnnotations
from mcp_types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import PrivateAttr

from llmapp._sentinels import MISSING
from llmapp.agents._bound import BoundTool, HumanValues, bind, shown
from llmapp.app import CallResult
from llmapp.vendors import mcp

__all__ = ["LlmappTool", "Visibility", "add_tools"]

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
        decision: bool | None = None  # None: nobody can be asked, the approval message stands
        if approval is not None and _can_ask(context):
            if not _modern(context):
                decision = await _decision(context, approval)
            else:
                decision = _answered(context, approval)
                if decision is None:  # ask: the client answers and retries the call
                    return InputRequiredToolResult(_question(approval))
        if decision is True:
            result = await bound.arun(arguments, context, approved=True)
        elif decision is False:
            declined = f"The user declined the call of {approval.name}; it did not run."
            result = CallResult(name=approval.name, success=False, feedback=declined)
        answer = mcp.tool_result(bound.tool.function, result)
        return ToolResult.from_mcp_result(CallToolResult.model_validate(answer))


class Visibility(Middleware):
    """Leaves out of ``tools/list`` each llmapp tool hidden for the request's ``Context``."""

    async def on_list_tools(
        self, context: MiddlewareContext[Any], call_next: CallNext[Any, Sequence[Tool]]
    ) -> Sequence[Tool]:
        listed = await call_next(context)
        request = context.fastmcp_context
        return [
            tool
            for tool in listed
            if not isinstance(tool, LlmappTool)
            or (tool._bound.enabled(request) and shown(tool._bound))
        ]


_APPROVAL = "llmapp-approval"
"""The key of the approval question among a call's input requests."""
_YES_OR_NO = parse_elicit_response_type(bool).schema


def _question(approval: Any) -> InputRequiredResult:
    """The approval question as a multi-round-trip ask, the arguments' digest its state."""
    params = ElicitRequestFormParams(message=_asked(approval), requested_schema=_YES_OR_NO)
    return InputRequiredResult(
        input_requests={_APPROVAL: ElicitRequest(params=params)},
        request_state=_digest(approval),
    )


def _answered(context: Any, approval: Any) -> bool | None:
    """The user's answer carried by this retry, or ``None`` when it must still be asked.

    An answer counts only with the state this server sealed when it asked about these
    very arguments (FastMCP rejects a tampered ``requestState``).
    """
    answer = (context.input_responses or {}).get(_APPROVAL)
    if answer is None or context.request_state != _digest(approval):
        return None
    content = getattr(answer, "content", None) or {}
    return getattr(answer, "action", None) == "accept" and content.get("value") is True


def _digest(approval: Any) -> str:
    text = json.dumps([approval.name, approval.arguments], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _asked(approval: Any) -> str:
    question: str = approval.question  # every argument that will run, as every door asks
    return question


def _can_ask(context: Any) -> bool:
    """The client declared that it answers elicitations (form mode)."""
    try:
        capabilities = context.session.client_params.capabilities
    except Exception:  # no session or no parameters: nobody to ask
        return False
    elicitation = getattr(capabilities, "elicitation", None)
    return elicitation is not None and getattr(elicitation, "form", None) is not None


def _modern(context: Any) -> bool:
    """A 2026-07-28 connection: no server-initiated requests, multi-round-trip asks."""
    request = getattr(context, "request_context", None) if context is not None else None
    return getattr(request, "protocol_version", None) in MODERN_PROTOCOL_VERSIONS


async def _decision(context: Any, approval: Any) -> bool | None:
    """The user's answer to FastMCP's elicitation, or ``None`` when nobody can be asked."""
    if context is None:
        return None
    try:
        answer = await context.elicit(_asked(approval), bool)
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
    if getattr(source, "search_name", None) is not None and target is not MISSING:
        # Behind a ToolSearch: every function is added (FastMCP calls only the tools it
        # has), and listed once a search loaded it.
        source, target = [(source, target, source.every)], MISSING
    bound = bind(source, target, human=human)
    added = [LlmappTool.of(each) for each in bound]
    for tool in added:
        server.add_tool(tool)
    searched = any(getattr(each.app, "search_name", None) for each in bound)
    hides = searched or any(each.declares("enabled") for each in bound)
    if hides and not any(isinstance(each, Visibility) for each in server.middleware):
        server.add_middleware(Visibility())
    return added
