"""Large applications over MCP: a served search tool, paginated ``tools/list``, and a client
that reads every page of a large upstream server.

Serving (``server(app, target, search=True, page_size=N)``):

- ``search``: ``tools/list`` shows a ``search_tools`` function (``SearchOptions`` names it
  and says how many functions a search answers) and the functions this session's searches
  found; each search answers their names, short descriptions and ``inputSchema``s, so a
  client that keeps one session, or none (stateless HTTP), can call them at once. The
  server then sends ``notifications/tools/list_changed``, and every served function stays
  callable by name, found or not (as FastMCP's search transform lets ``call_tool`` do).
  A search sees only the functions this request is listed (``enabled`` controls apply).
- ``page_size``: ``tools/list`` answers at most that many tools per page, with an opaque
  ``nextCursor`` for the next; a cursor the server did not write is refused as invalid
  params (JSON-RPC ``-32602``).

Using a large server (``all_tools(session)``): every page of its ``tools/list`` (at most
``max_pages``), for ``llmapp.mcp.application``; ``llmapp.search.SearchIndex`` then finds
the few functions to export::

    app = llmapp.mcp.application(await llmapp.mcp.all_tools(session))
    chosen = SearchIndex(app).search("open a pull request", k=5)
    tools = openai.tools(chosen)
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import inspect
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from llmapp.app import CallResult
from llmapp.kernel import check_arguments, model_side
from llmapp.mcp._sdk import sdk
from llmapp.search import SearchIndex, search_function, short_description
from llmapp.vendors.mcp import tool_result, tools

__all__ = ["SearchOptions", "Searched", "all_tools"]

_INVALID_PARAMS = -32602
_MAX_FOUND = 50
"""Most functions one session keeps listed after its searches (the oldest found go first)."""

Handler = Callable[[Any, Any], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """How a served search tool looks.

    Attributes:
        name: the search tool's name.
        k: how many functions a search answers when the model does not say.
        description: the search tool's description (default: a generic one).
    """

    name: str = "search_tools"
    k: int = 5
    description: str | None = None


class Searched:
    """``tools/list`` and ``tools/call`` of a served application with a search tool, or
    pages, or both, around the server's own handlers (see the module docstring)."""

    def __init__(
        self,
        functions: list[Any],
        list_tools: Handler,
        call_tool: Handler,
        *,
        search: SearchOptions | None,
        page_size: int | None,
    ) -> None:
        if page_size is not None and page_size < 1:
            raise ValueError(f"page_size must be at least 1, not {page_size}")
        self._list, self._call = list_tools, call_tool
        self.search = search
        self.page_size = page_size
        self._found: weakref.WeakKeyDictionary[Any, OrderedDict[str, None]] = (
            weakref.WeakKeyDictionary()
        )
        if search is not None:
            types = sdk("mcp.types")
            self.function = search_function(search.name, search.k, search.description)
            self.index: SearchIndex[Any] = SearchIndex(functions)
            (entry,) = tools([self.function])
            self.entry = types.Tool.model_validate(entry)

    async def list_tools(self, context: Any, params: Any) -> Any:
        listing = await self._list(context, params)
        shown = listing.tools
        if self.search is not None:
            found = self._found_by(context)
            shown = [self.entry, *(tool for tool in shown if tool.name in found)]
        cursor = getattr(params, "cursor", None) if params is not None else None
        if self.page_size is None:
            return listing.model_copy(update={"tools": shown})
        start = _offset(cursor) if cursor is not None else 0
        end = start + self.page_size
        following = _cursor(end) if end < len(shown) else None
        return listing.model_copy(update={"tools": shown[start:end], "next_cursor": following})

    async def call_tool(self, context: Any, params: Any) -> Any:
        if self.search is None or params.name != self.search.name:
            return await self._call(context, params)
        result = await self._answer(context, params.arguments)
        answer = tool_result(self.function, result)
        answer["resultType"] = "complete"
        return answer

    async def _answer(self, context: Any, arguments: Any) -> CallResult:
        checked = check_arguments(self.function, arguments, model_side(self.function))
        if isinstance(checked, CallResult):
            return checked
        assert self.search is not None
        data = checked.data
        k = data.get("k") or self.search.k
        listing = await self._list(context, None)  # what this request may see
        allowed = {tool.name: tool for tool in listing.tools}
        hits = [f for f in self.index.search(data["query"], k * 4) if f.name in allowed][:k]
        found = self._found_by(context)
        for function in hits:
            found.pop(function.name, None)
            found[function.name] = None
        while len(found) > _MAX_FOUND:
            found.popitem(last=False)
        answer = {
            "functions": [
                {
                    "name": function.name,
                    "description": short_description(function.description),
                    "inputSchema": allowed[function.name].input_schema,
                }
                for function in hits
            ]
        }
        if hits:
            await _list_changed(context)
        return CallResult(self.search.name, True, answer, answer, repairs=checked.repairs)

    def _found_by(self, context: Any) -> OrderedDict[str, None]:
        session = getattr(context, "session", None)
        # The SDK makes a ServerSession per request; the connection under it is what lasts
        # from one request to the next (none on stateless HTTP: each search stands alone).
        lasting = getattr(session, "_connection", session)
        if lasting is None:
            return OrderedDict()
        try:
            return self._found.setdefault(lasting, OrderedDict())
        except TypeError:  # a session that cannot be weakly held keeps nothing
            return OrderedDict()


async def _list_changed(context: Any) -> None:
    """Tell the client the list changed; a client that cannot hear it loses nothing."""
    with contextlib.suppress(Exception):  # no session (a direct call), or a closed stream
        await context.session.send_tool_list_changed()


def _cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"llmapp:{offset}".encode()).decode()


def _offset(cursor: Any) -> int:
    try:
        text = base64.urlsafe_b64decode(str(cursor).encode()).decode()
        prefix, _, number = text.partition(":")
        if prefix == "llmapp" and number.isdigit():
            return int(number)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    exceptions = sdk("mcp.shared.exceptions")
    raise exceptions.MCPError(_INVALID_PARAMS, "invalid cursor")


async def all_tools(session: Any, *, max_pages: int = 100) -> list[Any]:
    """Every tool of a server's ``tools/list``, following ``nextCursor`` page by page.

    Args:
        session: a ``ClientSession`` or the SDK's ``Client``.
        max_pages: most pages read (a server that never stops paginating is cut there).
    """
    by_cursor = "cursor" in inspect.signature(session.list_tools).parameters
    types = sdk("mcp.types")
    found: list[Any] = []
    cursor: str | None = None
    for _ in range(max_pages):
        if by_cursor:
            page = await session.list_tools(cursor=cursor)
        else:
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await session.list_tools(params=params)
        found.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return found
