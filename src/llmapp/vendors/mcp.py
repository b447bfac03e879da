"""MCP: functions as ``tools/list`` entries, and ``tools/call`` requests answered.

- ``tools(source, *, strict=False)``: one ``mcp.types.Tool`` per function, as the wire
  writes it (``name``, ``title``, ``description``, ``inputSchema``, ``outputSchema``,
  ``annotations``); ``mcp.types.Tool.model_validate(entry)`` accepts each.
- ``call_tools(app, target, calls, *, human=None)`` / ``acall_tools``: runs ``tools/call``
  requests (``CallToolRequestParams`` objects, their dict form, or a list of either) and
  returns one ``CallToolResult`` dict per call. ``llmapp.mcp``'s server answers with the
  same entries, so a hand-written transport answers exactly as the server does.
- ``tool_result(function, result)``: one ``CallToolResult`` dict for one call's result.

Schemas: a naive ``datetime`` or ``time`` (the OpenAPI registry's ``date-time-local`` and
``time-local``, which JSON Schema lacks) is described by its pattern (``LOCAL_FORMATS``), so
no MCP client warns of a format it does not know. ``inputSchema`` is what the model
composes (``separated.llm`` where a human supplies the rest: human-side parameters never
appear). ``outputSchema`` must describe an object, so a function returning anything else
(a list, a string, ``Product | None``) gets ``{"type": "object", "properties": {"result":
...}, "required": ["result"]}`` and its ``structuredContent`` is ``{"result": value}``; an
output that is a reference to an object definition is that definition, with the ``$defs``
beside it.

Annotations come from ``@tag`` lines (case, ``-`` and ``_`` do not matter)::

    @tag readOnly       readOnlyHint: true       (only reads)
    @tag destructive    destructiveHint: true    (may delete or overwrite)
    @tag additive       destructiveHint: false   (only adds)
    @tag idempotent     idempotentHint: true     (the same call twice does no more)
    @tag openWorld      openWorldHint: true      (reaches the outside world)
    @tag closedWorld    openWorldHint: false

Answers: a success is ``structuredContent`` (when the tool has an ``outputSchema``) and
one text block holding the same JSON; wrong arguments are ``isError: true`` with the
feedback text, so the model can fix them; an exception in the method is ``isError: true``
with its type and message (never a traceback).

MCP itself has no strict mode: ``strict=True`` gives each tool OpenAI's strict form of
its input schema (as ``llmapp.vendors.openai.tools(strict=True)`` does), for MCP clients
that hand tools on to OpenAI's structured outputs. No MCP package is needed here.
"""

from __future__ import annotations

import contextlib
import re
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from llmapp import convert
from llmapp._tool_annotations import ANNOTATION_TAGS
from llmapp.jsonschema import Resolver, declared_types, name_of, ref_name
from llmapp.vendors._calls import Executor, Human, ToolCall, arun, per_call, read, run
from llmapp.vendors._source import Tool, ToolFunction, export_error, tools_of

__all__ = [
    "ANNOTATION_TAGS",
    "LOCAL_FORMATS",
    "acall_tools",
    "call_tools",
    "output_schema",
    "portable",
    "tool_result",
    "tools",
]

Schema = dict[str, Any]

_SPELLING = re.compile(r"[-_\s]")


def _spelling(tag: str) -> str:
    return _SPELLING.sub("", tag).lower()


_HINTS = {_spelling(tag): hint for tag, hint in ANNOTATION_TAGS.items()}

RESULT = "result"
"""The one property of a wrapped output (the MCP convention for non-object results)."""


def tools(source: Any, *, strict: bool = False) -> list[dict[str, Any]]:
    """MCP ``Tool`` entries for an application or an iterable of functions.

    Args:
        source: an application (``.functions``) or an iterable of functions.
        strict: give each input schema OpenAI's strict form (see the module docstring).

    Returns:
        One ``tools/list`` entry per function, in MCP's wire spelling.

    Raises:
        LlmApplicationError: with ``strict=True``, what strict mode cannot express.

    Example::

        result = mcp.types.ListToolsResult(tools=llmapp.vendors.mcp.tools(app))
    """
    exported = tools_of(source, enum_names=not strict)  # strict: OpenAI's subset
    schemas = [tool.parameters for tool in exported]
    if strict:
        from llmapp.vendors.openai import strict_parameters

        schemas, failures = [], []
        for tool in exported:
            schema, found = strict_parameters(tool.parameters)
            schemas.append(schema)
            failures += [(f"{tool.name}.{path}" if path else tool.name, r) for path, r in found]
        if failures:
            raise export_error(source, "MCP", failures)
    return [_entry(tool, schema) for tool, schema in zip(exported, schemas, strict=True)]


def _entry(tool: Tool, schema: Schema) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": tool.name}
    title = getattr(tool.function, "title", None)
    if title:
        entry["title"] = title
    if tool.description is not None:
        entry["description"] = tool.description
    entry["inputSchema"] = portable(schema)
    output = output_schema(tool.output)
    if output is not None:
        entry["outputSchema"] = portable(output[0])
    annotations = _annotations(tool.tags)
    if annotations:
        entry["annotations"] = annotations
    return entry


LOCAL_FORMATS = {
    "date-time-local": r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?$",
    "time-local": r"^\d{2}:\d{2}:\d{2}(\.\d+)?$",
}
"""The OpenAPI registry's formats without an offset (a naive ``datetime`` or ``time``), as the
pattern each names: JSON Schema has no such format, and the MCP SDKs' validators (ajv in
TypeScript) warn about every format they do not know."""


def portable(schema: Any) -> Any:
    """``schema`` with each format MCP clients do not know (``LOCAL_FORMATS``) given as its
    pattern; the schema itself when it has none (the usual case: nothing is copied)."""
    if isinstance(schema, dict):
        changed = {key: portable(value) for key, value in schema.items()}
        local = (
            LOCAL_FORMATS.get(str(changed.get("format")))
            if changed.get("type") == "string"
            else None
        )
        if local is not None:
            del changed["format"]
            changed.setdefault("pattern", local)
        same = local is None and all(changed[key] is schema[key] for key in schema)
        return schema if same else changed
    if isinstance(schema, list):
        items = [portable(item) for item in schema]
        return schema if all(a is b for a, b in zip(items, schema, strict=True)) else items
    return schema


def _annotations(tags: Iterable[str]) -> dict[str, bool]:
    hints: dict[str, bool] = {}
    for tag in tags:
        hint = _HINTS.get(_spelling(tag))
        if hint is not None:
            hints[hint[0]] = hint[1]
    return hints


def output_schema(output: Schema | None) -> tuple[Schema, bool] | None:
    """The ``outputSchema`` of a function's output, and whether results are wrapped.

    ``None`` for a function that returns nothing. An object schema (or a root reference
    to an object definition) is used as it is; anything else is wrapped as
    ``{"result": ...}`` with its ``$defs`` moved to the wrapper's root.
    """
    if output is None:
        return None
    body = {key: value for key, value in output.items() if key != "$defs"}
    defs = output.get("$defs")
    target = _object_definition(body, defs)
    if target is not None:
        schema = dict(target)
        schema.update((k, v) for k, v in body.items() if k not in ("$ref", "type"))
    elif declared_types(body) == frozenset({"object"}):
        schema = body
    else:
        schema = {"type": "object", "properties": {RESULT: body}, "required": [RESULT]}
        schema["additionalProperties"] = False
        if defs:
            schema["$defs"] = defs
        return schema, True
    if target is not None and isinstance(defs, Mapping):
        defs = _used(schema, defs)
    if defs:
        schema["$defs"] = defs
    return schema, False


def _used(schema: Schema, defs: Mapping[str, Any]) -> dict[str, Any]:
    """The definitions ``schema`` still reaches once the root's own one is inlined."""
    resolver = Resolver({"$defs": defs, "root": schema})
    used: set[str] = set()
    pending = [resolver.at("/root")]
    while pending:
        node = pending.pop()
        for holder in resolver.refs_under(node) if node is not None else ():
            target = resolver.target(holder)
            name = name_of(target.pointer) if target is not None else None
            if name is not None and name not in used:
                used.add(name)
                pending.append(target)
    return {name: definition for name, definition in defs.items() if name in used}


def _object_definition(body: Schema, defs: Any) -> Schema | None:
    """The object definition a root ``{"$ref": "#/$defs/Name"}`` names, if it is one."""
    ref = body.get("$ref")
    name = ref_name(ref) if isinstance(ref, str) else None
    target = defs.get(name) if isinstance(defs, Mapping) and name is not None else None
    if isinstance(target, Mapping) and declared_types(target) == frozenset({"object"}):
        return dict(target)
    return None


def tool_result(function: ToolFunction | None, result: Any) -> dict[str, Any]:
    """The ``CallToolResult`` (wire spelling) answering one call; never raises.

    The text block is the result as valid JSON (``llmapp.convert.json_text``: NaN is
    ``null``, an int past Python's digit limit a string of its digits). MCP requires
    ``structuredContent`` to match the tool's ``outputSchema`` (the SDK's client refuses
    it otherwise and the answer is lost), so a result that does not (NaN where a number
    is declared, a method returning another type than it declares) is answered with
    ``isError: true``, saying so, with the result as JSON text.

    Args:
        function: the function called (``None`` when the model named none that exists).
        result: what ``execute`` returned (a ``CallResult`` or a peer with ``success``,
            ``data`` and ``message()``).
    """
    if not result.success:
        return {"content": [_text(result.message())], "isError": True}
    data = result.data
    text = convert.json_text(data)
    output = _output(function) if function is not None else None
    answer: dict[str, Any] = {"content": [_text(text)]}
    if output is not None:
        wrapped, check = output
        structured = {RESULT: data} if wrapped else data
        try:
            failure = check(structured)
        except Exception:  # an outputSchema that cannot be compiled: the client judges it
            failure = None
        if failure is not None and not failure.success:
            return {"content": [_text(_misfit(failure, text))], "isError": True}
        answer["structuredContent"] = structured
    answer["isError"] = False
    return answer


def _misfit(failure: Any, text: str) -> str:
    where = "; ".join(f"{issue.path}: expected {issue.expected}" for issue in failure.errors[:3])
    return (
        f"The function ran, but its result does not match its declared output ({where}). "
        f"The result as JSON: {text}"
    )


Output = tuple[bool, Callable[[Any], Any]]
"""Whether results are wrapped as ``{"result": ...}``, and the check of ``outputSchema``."""

_OUTPUTS: weakref.WeakKeyDictionary[Any, Output | None] = weakref.WeakKeyDictionary()


def _output(function: ToolFunction) -> Output | None:
    """A function's output handling (``None``: no output), read once per function.

    ``output_schema`` resolves references on every reading, a large part of a quick
    ``tools/call`` in llmapp's server.
    """
    try:
        return _OUTPUTS[function]
    except (KeyError, TypeError):  # TypeError: a function that cannot be weakly held
        pass
    # Imported here: ``llmapp.app`` loads the build stage, which a program that only
    # lists tools need not load; a result to answer means an application exists.
    from llmapp.kernel import OnFirstUse, compile_validator

    schema = output_schema(function.output)
    found: Output | None = None
    if schema is not None:
        found = (schema[1], OnFirstUse(compile_validator, schema[0]))
    with contextlib.suppress(TypeError):
        _OUTPUTS[function] = found
    return found


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def call_tools(
    app: Executor, target: Any, calls: Any, *, human: Human | None = None, context: Any = None
) -> list[dict[str, Any]]:
    """Run ``tools/call`` requests; return one ``CallToolResult`` dict per request.

    Args:
        app: the application (anything with ``execute(target, name, arguments, human=)``).
        target: what the calls run on (the class instance).
        calls: one ``tools/call`` request's params (``mcp.types.CallToolRequestParams``
            or ``{"name": ..., "arguments": {...}}``), a whole request with ``params``,
            or a list of either.
        human: function name -> the human-side values for that function's calls.
        context: the calls' context (a class application's ``context=``: per-tool
            controls and context parameters read it).

    Example::

        answers = llmapp.vendors.mcp.call_tools(app, shop, {"name": "search", "arguments": {}})
    """
    read_calls = _read_calls(calls)
    return _answers(app, run(app, target, read_calls, human, **per_call(context)))


async def acall_tools(
    app: Executor, target: Any, calls: Any, *, human: Human | None = None, context: Any = None
) -> list[dict[str, Any]]:
    """``call_tools`` for async code: the calls run concurrently, answers in call order."""
    read_calls = _read_calls(calls)
    return _answers(app, await arun(app, target, read_calls, human, **per_call(context)))


def _answers(app: Any, ran: list[tuple[ToolCall, Any]]) -> list[dict[str, Any]]:
    return [tool_result(_function(app, call.name), result) for call, result in ran]


def _read_calls(calls: Any) -> list[ToolCall]:
    listed = calls if isinstance(calls, list) else [calls]
    found = []
    for call in listed:
        params = read(call, "params")
        params = call if params is None else params
        found.append(ToolCall(None, read(params, "name"), read(params, "arguments")))
    return found


def _function(app: Any, name: Any) -> ToolFunction | None:
    lookup = getattr(app, "function", None)
    if callable(lookup) and isinstance(name, str):
        found: ToolFunction | None = lookup(name)
        return found
    return None
