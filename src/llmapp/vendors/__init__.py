"""Vendor exports: an application's functions as each vendor's tools, and tool calls back.

One module per vendor, each importing its SDK only when used, each with the same names:

- ``tools(source, *, strict=False, ...) -> list[dict]``: the vendor's tool entries for an
  application or an iterable of functions, showing the model only its own side.
- ``call_tools(app, target, response, *, human=None) -> list[dict]`` and ``acall_tools``:
  run every tool call in an SDK response and return the tool-result entries to send back.
- ``problems(schema) -> list[str]``: why the vendor's strict mode would reject a schema.

Modules: ``llmapp.vendors.openai`` (chat and responses), ``.anthropic``, ``.gemini``,
``.mcp``. The shared reading of a source lives in ``llmapp.vendors._source``.
"""
