"""Vendor exports: an application's functions as each vendor's tools, and tool calls back.

One module per vendor, each importing its SDK only when used, each with the same names:

- ``tools(source, *, strict=False, ...) -> list[dict]``: the vendor's tool entries for an
  application or an iterable of functions, showing the model only its own side.
- ``call_tools(app, target, response, *, human=None) -> list[dict]`` and ``acall_tools``:
  run every tool call in an SDK response and return the tool-result entries to send back.
- ``problems(schema) -> list[str]``: why the vendor's strict mode would reject a schema.

Modules: ``llmapp.vendors.openai`` (chat and responses), ``.anthropic``, ``.gemini``,
``.mcp``. The shared reading of a source
(``functions_of``, ``tools_of``, ``Tool``) and the shared running of tool calls (``read``,
``items``, ``call_id``, ``ToolCall``, ``run_one``/``arun_one``, ``Outcome``...) are public
names of this package, for the streaming readers and the agent toolsets; they load on
first use, like the vendor modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from llmapp.vendors._calls import (
        Executor,
        Human,
        NotRun,
        Outcome,
        ToolCall,
        arun_one,
        call_id,
        items,
        read,
        run_one,
    )
    from llmapp.vendors._defer import Defer, deferred
    from llmapp.vendors._source import (
        Tool,
        export_error,
        functions_of,
        tools_of,
        without_enum_names,
    )

_HOMES = {
    "Executor": "llmapp.vendors._calls",
    "Human": "llmapp.vendors._calls",
    "NotRun": "llmapp.vendors._calls",
    "Outcome": "llmapp.vendors._calls",
    "ToolCall": "llmapp.vendors._calls",
    "arun_one": "llmapp.vendors._calls",
    "call_id": "llmapp.vendors._calls",
    "items": "llmapp.vendors._calls",
    "read": "llmapp.vendors._calls",
    "run_one": "llmapp.vendors._calls",
    "Defer": "llmapp.vendors._defer",
    "deferred": "llmapp.vendors._defer",
    "Tool": "llmapp.vendors._source",
    "export_error": "llmapp.vendors._source",
    "without_enum_names": "llmapp.vendors._source",
    "functions_of": "llmapp.vendors._source",
    "tools_of": "llmapp.vendors._source",
}

__getattr__, __dir__ = _lazy_names(__name__, _HOMES)

__all__ = [
    "Defer",
    "Executor",
    "Human",
    "NotRun",
    "Outcome",
    "Tool",
    "ToolCall",
    "arun_one",
    "call_id",
    "deferred",
    "export_error",
    "functions_of",
    "items",
    "read",
    "run_one",
    "tools_of",
    "without_enum_names",
]
