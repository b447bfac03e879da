"""MCP both ways: a class served as an MCP server, and an MCP server's tools as LLM functions.

Serving (``server``, ``serve``, ``asgi``, and the ``llmapp mcp MODULE:CLASS`` command)::

    llmapp.mcp.serve(application(Shop), Shop(), transport="stdio")
    api.mount("/tools", llmapp.mcp.asgi(Shop, Shop()))          # inside FastAPI/Starlette

Using a server's tools (``application``, ``call``)::

    async with ClientSession(read, write) as session:
        await session.initialize()
        app = llmapp.mcp.application(await session.list_tools())
        result = await llmapp.mcp.call(session, app.function("search"), model_arguments)

A large application: ``server(app, target, search=True, page_size=100)`` lists a search
tool and what it found, in pages; ``all_tools(session)`` reads every page of a large
server (``llmapp.mcp._search``).

Needs the MCP SDK (``pip install 'llmapp[mcp]'``), imported on first use.
"""

from __future__ import annotations

from llmapp.kernel import Audio, EmbeddedResource, Image, ResourceLink
from llmapp.mcp._asgi import McpAsgiApp, asgi
from llmapp.mcp._auth import Auth, StaticTokens, identity
from llmapp.mcp._call import McpToolError, call, without_strict_nulls
from llmapp.mcp._completion import completes
from llmapp.mcp._context import Elicited, McpContext, NotAskable, Sampled
from llmapp.mcp._function import McpLlmFunction
from llmapp.mcp._functions import McpLlmApplication, McpToolProblem, application
from llmapp.mcp._icons import icons
from llmapp.mcp._run import quietly, serve, url
from llmapp.mcp._search import SearchOptions, all_tools
from llmapp.mcp._server import HumanHook, Transport, served, server, updated
from llmapp.mcp._tasks import MemoryTaskStore, RedisTaskStore, TaskStore, long_running

__all__ = [
    "Audio",
    "Auth",
    "Elicited",
    "EmbeddedResource",
    "HumanHook",
    "Image",
    "McpAsgiApp",
    "McpContext",
    "McpLlmApplication",
    "McpLlmFunction",
    "McpToolError",
    "McpToolProblem",
    "MemoryTaskStore",
    "NotAskable",
    "RedisTaskStore",
    "ResourceLink",
    "Sampled",
    "SearchOptions",
    "StaticTokens",
    "TaskStore",
    "Transport",
    "all_tools",
    "application",
    "asgi",
    "call",
    "completes",
    "icons",
    "identity",
    "long_running",
    "quietly",
    "serve",
    "served",
    "server",
    "updated",
    "url",
    "without_strict_nulls",
]
