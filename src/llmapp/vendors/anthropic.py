"""Anthropic: functions as Messages API tools, and Claude's ``tool_use`` blocks back.

- ``tools(source, *, strict=False)``: ``{"name", "description", "input_schema"}`` per
  function (plus ``"strict": true`` with ``strict=True``); the schema is the model's
  side only (``separated.llm`` where a human supplies the rest).
- ``call_tools(app, target, response, *, human=None)`` / ``acall_tools``: runs every
  ``tool_use`` block of a ``Message`` (SDK object or plain dict, or its ``content``
  list) and returns ``{"type": "tool_result", "tool_use_id", "content", "is_error"}``
  blocks, to send back as the content of one ``user`` message; ``is_error`` is true
  when the arguments were wrong (the content is then the feedback text) or the
  method raised.
- ``problems(schema)``: why strict tool use would refuse an input schema, each
  ``"/json/pointer: reason"``.
- ``tools(source, defer=..., keep=...)`` marks functions ``"defer_loading": true`` and
  ``search_tool("bm25" | "regex")`` is Anthropic's tool search tool to send beside them:
  Claude is shown only what is not deferred and loads the rest by searching.
- ``plan(source)``: the export that fits strict tool use's limits (``llmapp.vendors._plan``).

``strict=True`` follows Anthropic's strict tool use (structured outputs) subset:
optional properties stay optional; every object gets ``additionalProperties: false``;
``minimum``/``maximum``/``exclusive*``/``multipleOf``, ``minLength``/``maxLength``,
``maxItems``, ``minItems`` above 1, ``uniqueItems``, ``default``, ``examples``, a
``format`` outside the supported list and a ``pattern`` using backreferences,
lookaround or ``\\b`` move into the description (still enforced by llmapp's
validator); a ``$ref`` with sibling keywords is replaced by its definition. What
cannot be expressed raises ``LlmApplicationError`` naming ``Class.method.param``:
recursive types, free-form keys (``dict[str, T]``), tuples (``prefixItems``) and
other keywords holding subschemas, schemas without a type (``Any``); and a request
past the documented limits (20 strict tools, 24 optional properties, 16 properties
with unions, counted over all tools). The checker refuses all of these.

No Anthropic package is needed: entries are plain dicts and responses are read by field.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, cast

from llmapp.jsonschema import recursive_definitions, walk
from llmapp.kernel import Image, describe, is_content
from llmapp.vendors._calls import (
    Executor,
    Human,
    ToolCall,
    arun,
    call_id,
    items,
    per_call,
    read,
    run,
)
from llmapp.vendors._defer import Defer, deferred
from llmapp.vendors._plan import Decision, ExportPlan, Limits, moved_keywords
from llmapp.vendors._source import Tool, export_error, tools_of
from llmapp.vendors._subset import (
    Refusal,
    Subset,
    anything,
    closed,
    conform,
    definitions,
    inline_refs,
    is_object,
    json_types,
    one_schema,
    refusals,
    transform,
    untyped_or_ref_siblings,
    where,
)

if TYPE_CHECKING:
    from llmapp.vendors._types import AnthropicSearchTool, AnthropicTool, AnthropicToolResult

__all__ = [
    "LIMITS",
    "SUBSET",
    "acall_tools",
    "call_tools",
    "entry",
    "plan",
    "problems",
    "search_tool",
    "strict_input_schema",
    "tools",
]

Schema = dict[str, Any]

_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)
# Regular-expression features strict tool use cannot compile into its grammar.
_UNSUPPORTED_REGEX = re.compile(r"\\[1-9bB]|\(\?<?[=!]|\\k<")

# The per-request limits Anthropic documents for strict tool use (counted over all tools).
MAX_STRICT_TOOLS = 20
MAX_OPTIONAL_PROPERTIES = 24
MAX_UNION_PROPERTIES = 16


def _primitive(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _primitives(value: Any) -> str | None:
    ok = isinstance(value, list) and all(_primitive(option) for option in value)
    return None if ok else "may only list strings, numbers, booleans and null"


def _const(value: Any) -> str | None:
    return None if _primitive(value) else "must be a string, number, boolean or null"


def _format(value: Any) -> str | None:
    return None if value in _FORMATS else f"{value!r} is not a supported format"


def _min_items(value: Any) -> str | None:
    return None if value in (0, 1) else "may only be 0 or 1"


def _pattern(value: Any) -> str | None:
    simple = isinstance(value, str) and not _UNSUPPORTED_REGEX.search(value)
    return None if simple else "uses backreferences, lookaround or \\b"


SUBSET = Subset(
    "Anthropic strict tool use",
    {
        "type": json_types,
        "properties": anything,
        "required": anything,
        "additionalProperties": closed,
        "items": one_schema,
        "anyOf": anything,
        "allOf": anything,
        "enum": _primitives,
        "const": _const,
        "$ref": anything,
        "$defs": anything,
        "definitions": anything,
        "description": anything,
        "title": anything,
        "format": _format,
        "pattern": _pattern,
        "minItems": _min_items,
    },
)
"""The keywords Anthropic's strict tool use accepts, with the values it accepts."""

_TYPED = ("type", "anyOf", "allOf", "$ref", "enum", "const")


def problems(schema: Mapping[str, Any]) -> list[str]:
    """Why Anthropic's strict tool use would refuse an input schema.

    Returns:
        One ``"/json/pointer: reason"`` per problem; empty when it would be accepted.
    """
    return [str(refusal) for refusal in _refusals(schema)]


def _refusals(schema: Mapping[str, Any]) -> list[Refusal]:
    found = []
    if schema.get("type") != "object":
        found.append(Refusal((), "an input schema must be an object (`type: object`)"))
    found.extend(refusals(schema, SUBSET, _node_refusals))
    found.extend(
        Refusal(("$defs", name), "recursive schemas are not supported")
        for name in sorted(recursive_definitions(definitions(schema)))
    )
    return found


def _node_refusals(node: Mapping[str, Any]) -> list[str]:
    reasons: list[str] = []
    if is_object(node) and "additionalProperties" not in node:
        reasons.append("an object needs `additionalProperties: false`")
    return reasons + untyped_or_ref_siblings(node, _TYPED)


def strict_input_schema(schema: Mapping[str, Any]) -> tuple[Schema, list[tuple[str, str]]]:
    """An input schema made to follow strict tool use, with what it cannot express.

    Returns:
        The schema and ``(path, reason)`` pairs, the path written ``param.path``.
    """
    inlined, _ = inline_refs(schema, siblings_only=True)
    strict = _closed_objects(conform(inlined, SUBSET))
    return strict, [(where(refusal.tokens), refusal.reason) for refusal in _refusals(strict)]


def _closed_objects(schema: Any) -> Any:
    """Every object without ``additionalProperties`` gets ``false`` (strict mode demands it)."""
    if not isinstance(schema, Mapping):
        return schema
    result = transform(schema, _closed_objects)
    if is_object(result) and "additionalProperties" not in result:
        result["additionalProperties"] = False
    return result


def _counts(schema: Schema) -> tuple[int, int]:
    """The optional properties and the union-typed schemas of one input schema."""
    optional = unions = 0
    for _, node in walk(schema):
        if "properties" in node:
            optional += len(set(node["properties"]) - set(node.get("required", ())))
        unions += "anyOf" in node or isinstance(node.get("type"), list)
    return optional, unions


def _request_problems(schemas: list[Schema]) -> list[tuple[str, str]]:
    optional = unions = 0
    for schema in schemas:
        more, other = _counts(schema)
        optional, unions = optional + more, unions + other
    limits = (
        (len(schemas), MAX_STRICT_TOOLS, "strict tools"),
        (optional, MAX_OPTIONAL_PROPERTIES, "optional properties"),
        (unions, MAX_UNION_PROPERTIES, "schemas with anyOf or a list of types"),
    )
    return [
        ("", f"{count} {what} in one request; strict tool use allows {limit}")
        for count, limit, what in limits
        if count > limit
    ]


def tools(
    source: Any, *, strict: bool = False, defer: Defer = None, keep: Iterable[str] = ()
) -> list[AnthropicTool]:
    """Anthropic tool entries for an application or an iterable of functions.

    Args:
        source: an application (``.functions``) or an iterable of functions.
        strict: follow strict tool use's schema subset and set ``"strict": true``.
        defer: the functions marked ``"defer_loading": true`` (``True`` for all, names, or
            a predicate over a function; see ``llmapp.vendors._defer``): Claude sees them
            only once its tool search tool (``search_tool()``, sent beside them) finds them.
        keep: names never deferred (``keep=searching.most_used(5)``).

    Returns:
        One ``{"name", "description", "input_schema"}`` entry per function.

    Raises:
        LlmApplicationError: with ``strict=True``, every ``Class.method.param`` that
            strict tool use cannot express, or a request past its limits.

    Example::

        message = client.messages.create(
            model="claude-sonnet-4-5", max_tokens=1024, messages=messages,
            tools=anthropic.tools(app),
        )
    """
    entries: list[dict[str, Any]] = []
    failures: list[tuple[str, str]] = []
    exported = tools_of(source)
    deferring = deferred(exported, defer, keep)
    for tool in exported:
        schema = tool.parameters
        if strict:
            schema, found = strict_input_schema(schema)
            failures.extend((f"{tool.name}.{path}".rstrip("."), reason) for path, reason in found)
        entries.append(entry(tool, schema, strict=strict, defer=tool.name in deferring))
    if strict:
        failures.extend(_request_problems([entry["input_schema"] for entry in entries]))
        if failures:
            raise export_error(source, "Anthropic", failures)
    return cast("list[AnthropicTool]", entries)  # the SDK's own TypedDict


def entry(tool: Tool, schema: Schema, *, strict: bool, defer: bool = False) -> dict[str, Any]:
    """One tool entry: ``name``, ``description``, ``input_schema`` (``schema``), then
    ``strict`` and ``defer_loading`` when set."""
    made: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        made["description"] = tool.description
    made["input_schema"] = schema
    if strict:
        made["strict"] = True
    if defer:
        made["defer_loading"] = True
    return made


SearchKind = Literal["bm25", "regex"]


def search_tool(kind: SearchKind = "bm25") -> AnthropicSearchTool:
    """Anthropic's own tool search tool, to send beside tools exported with ``defer=``.

    A search of llmapp's own instead (Anthropic's custom tool search): send
    ``ToolSearch(app, references=True)``'s search function beside every function
    deferred, ``tools([searching.search]) + tools(app, defer=True)``; ``call_tools(searching,
    ...)`` then answers each search with ``tool_reference`` blocks, which load them.

    Args:
        kind: ``"bm25"`` (the model searches in words) or ``"regex"`` (by pattern).

    Example::

        searching = [anthropic.search_tool(), *anthropic.tools(app, defer=True, keep=["help"])]
        client.messages.create(model=..., max_tokens=1024, messages=messages, tools=searching)
    """
    if kind not in ("bm25", "regex"):
        raise ValueError(f"kind must be 'bm25' or 'regex', not {kind!r}")
    made = {"type": f"tool_search_tool_{kind}_20251119", "name": f"tool_search_tool_{kind}"}
    return cast("AnthropicSearchTool", made)  # the SDK's own TypedDict


LIMITS = Limits(
    strict_tools=MAX_STRICT_TOOLS,
    optional_properties=MAX_OPTIONAL_PROPERTIES,
    union_properties=MAX_UNION_PROPERTIES,
)
"""What strict tool use allows in one request."""


def plan(source: Any, *, limits: Limits = LIMITS, prefer: Iterable[str] = ()) -> ExportPlan:
    """The export that fits strict tool use's limits, decided per function.

    Each function goes strict when strict tool use can express it and the budgets left
    hold it (``limits``, spent on ``prefer`` first, in its order, then on the functions
    that cost least, so as many as possible go strict); the others go as plain schemas,
    every constraint in them. Strict ones have refused
    constraints moved into descriptions; llmapp's validator checks all of them anyway.

    Args:
        source: an application or an iterable of functions.
        limits: the request's budgets (default: Anthropic's documented ones).
        prefer: names that get the budgets first (``searching.most_used(20)``, say).

    Returns:
        An ``ExportPlan``: ``tools`` for ``messages.create(tools=...)`` and a
        ``Decision`` per function (``report()`` prints them).
    """
    exported = tools_of(source)
    entries: list[dict[str, Any]] = [{}] * len(exported)
    decisions: list[Decision] = [Decision("", False)] * len(exported)
    tools_left = _budget(limits.strict_tools)
    optional_left = _budget(limits.optional_properties)
    unions_left = _budget(limits.union_properties)
    strict = [strict_input_schema(tool.parameters) for tool in exported]
    costs = [_counts(schema) for schema, _ in strict]
    rank = {name: place for place, name in enumerate(dict.fromkeys(prefer))}
    # The preferred first, in their order; then the cheapest (stable), so the budgets hold
    # as many strict tools as they can.
    order = sorted(
        range(len(exported)),
        key=lambda index: (
            (0, rank[exported[index].name])
            if exported[index].name in rank
            else (1, sum(costs[index]))
        ),
    )
    for index in order:
        tool = exported[index]
        schema, found = strict[index]
        refs = (
            "kept" if definitions(schema) else "inlined" if definitions(tool.parameters) else "none"
        )
        optional, unions = costs[index]
        reason = None
        if found:
            where_, why = found[0]
            reason = f"strict tool use cannot express {where_ or 'the schema'} ({why})"
        elif tools_left < 1:
            reason = f"the request already holds {limits.strict_tools} strict tools"
        elif optional > optional_left:
            reason = f"its {optional} optional properties pass the {optional_left:g} left"
        elif unions > unions_left:
            reason = f"its {unions} union-typed properties pass the {unions_left:g} left"
        if reason is None:
            tools_left, optional_left, unions_left = (
                tools_left - 1,
                optional_left - optional,
                unions_left - unions,
            )
            moved = moved_keywords(inline_refs(tool.parameters, siblings_only=True)[0], SUBSET)
            entries[index] = entry(tool, schema, strict=True)
            decisions[index] = Decision(tool.name, True, moved, refs)
        else:
            plain_refs = "kept" if definitions(tool.parameters) else "none"
            entries[index] = entry(tool, tool.parameters, strict=False)
            decisions[index] = Decision(tool.name, False, (), plain_refs, reason=reason)
    return ExportPlan("Anthropic", entries, decisions)


def _budget(limit: int | None) -> float:
    return float("inf") if limit is None else float(limit)


def call_tools(
    app: Executor, target: Any, response: Any, *, human: Human | None = None, context: Any = None
) -> list[AnthropicToolResult]:
    """Run every ``tool_use`` block of a Claude message; return the ``tool_result`` blocks.

    Args:
        app: the application (anything with ``execute(target, name, arguments, human=)``).
        target: what the calls run on (the class instance).
        response: a ``Message`` or its ``content`` list; SDK objects or plain dicts.
        human: function name -> the human-side values for that function's calls.
        context: the calls' context (a class application's ``context=``: per-tool
            controls and context parameters read it).

    Returns:
        One ``{"type": "tool_result", "tool_use_id", "content", "is_error"}`` per call,
        in order: the content of the next ``user`` message.

    Example::

        messages.append({"role": "assistant", "content": message.content})
        messages.append({"role": "user", "content": anthropic.call_tools(app, shop, message)})
    """
    answers = [
        _answer(*pair, app)
        for pair in run(app, target, _read_calls(response), human, **per_call(context))
    ]
    return cast("list[AnthropicToolResult]", answers)  # the SDK's own TypedDicts


async def acall_tools(
    app: Executor, target: Any, response: Any, *, human: Human | None = None, context: Any = None
) -> list[AnthropicToolResult]:
    """``call_tools`` for async code: the calls run concurrently, answers in call order."""
    pairs = await arun(app, target, _read_calls(response), human, **per_call(context))
    return cast("list[AnthropicToolResult]", [_answer(*pair, app) for pair in pairs])


def _answer(call: ToolCall, result: Any, app: Any = None) -> dict[str, Any]:
    rich = result.success and is_content(getattr(result, "value", None))
    content: Any = _blocks(result.value) if rich else result.message()
    if result.success and getattr(app, "references", False) and call.name == app.search_name:
        # Custom tool search: Claude loads the deferred tools these blocks name.
        found = result.data.get("functions", [])
        content = [{"type": "tool_reference", "tool_name": each["name"]} for each in found]
        content = content or result.message()
    return {
        "type": "tool_result",
        "tool_use_id": call.id,
        "content": content,
        "is_error": not result.success,
    }


_IMAGES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
"""The image types Claude reads."""


def _blocks(value: Any) -> list[dict[str, Any]]:
    """Rich content as Claude's own blocks: an image it reads as an ``image`` block, the rest
    as text (``describe``)."""
    found: list[dict[str, Any]] = []
    for item in value if isinstance(value, (list, tuple)) else [value]:
        if isinstance(item, Image) and item.mime_type in _IMAGES:
            data = base64.b64encode(item.data).decode()
            source = {"type": "base64", "media_type": item.mime_type, "data": data}
            found.append({"type": "image", "source": source})
        else:
            found.append({"type": "text", "text": describe(item)})
    return found


def _read_calls(response: Any) -> list[ToolCall]:
    blocks = response if isinstance(response, list) else items(response, "content")
    return [
        ToolCall(identifier, read(block, "name"), read(block, "input"))
        for block in blocks
        if read(block, "type") == "tool_use" and (identifier := call_id(block, "id")) is not None
    ]
