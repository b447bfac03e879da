"""OpenAI: functions as Chat Completions or Responses tools, and the model's tool calls back.

- ``tools(source, *, strict=False, api="chat")``: Chat Completions entries
  ``{"type": "function", "function": {"name", "description", "parameters", "strict"}}``,
  or with ``api="responses"`` the flat ``{"type": "function", "name", "description",
  "parameters", "strict"}``. The schema is the model's side only (``separated.llm``
  where a human supplies the rest).
- ``call_tools(app, target, response, *, human=None)`` / ``acall_tools``: runs every
  function call of a ``ChatCompletion``, its message, a Responses ``Response`` or its
  ``output`` list (SDK objects or their plain-dict forms) and returns the answers:
  ``{"role": "tool", "tool_call_id", "content"}`` for chat,
  ``{"type": "function_call_output", "call_id", "output"}`` for responses. Neither
  API has an error flag: a wrong call is answered with the feedback text, a call without a
  ``function`` (or its name) with the functions there are; a call without an id is not
  run (no answer could reach the model).
- ``problems(schema)``: why OpenAI's structured outputs would refuse a parameters
  schema, each ``"/json/pointer: reason"``; ``accepts(schema)``: whether there is none.

``strict=True`` applies ``llmapp.schema``'s strict rules (the same as
``application(cls, strict=True)``: every property required, optional ones nullable,
``null`` restoring the Python default when executed; unsupported keywords moved into
descriptions and still enforced by llmapp's validator), then checks the result with
``problems``; what cannot be expressed raises ``LlmApplicationError`` naming
``Class.method.param``. The checker refuses: a root that is not a plain object; an
object without ``additionalProperties: false`` or not listing every property in
``required``; a schema without ``type``/``anyOf``/``$ref``/``enum``/``const``
(``Any``); a ``$ref`` with sibling keywords; a ``$ref`` that cannot be followed (it
points at nothing, or starts a chain of more than ``MAX_REF_HOPS``); any keyword
outside the supported subset (see ``SUBSET``), a ``format`` outside the supported list;
more than 10 levels of nested objects, 5,000 properties or 1,000 enum values.

No OpenAI package is needed: entries are plain dicts and responses are read by field.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, cast, overload

from llmapp.jsonschema import (
    MAX_REF_HOPS,
    Node,
    Resolver,
    is_mapping,
    pointer_tokens,
    subschemas,
    walk,
)
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
from llmapp.vendors._plan import Decision, ExportPlan, Limits, moved_keywords, nesting
from llmapp.vendors._source import Tool, export_error, tools_of
from llmapp.vendors._subset import (
    Refusal,
    Subset,
    anything,
    closed,
    conform,
    definitions,
    each_refusal,
    inline_refs,
    is_object,
    json_types,
    one_schema,
    untyped_or_ref_siblings,
    where,
)

if TYPE_CHECKING:
    from llmapp.vendors._types import (
        ChatCompletion,
        ChatCompletionMessage,
        ChatTool,
        ChatToolMessage,
        Response,
        ResponsesSearchTool,
        ResponsesTool,
        ResponsesToolOutput,
    )

__all__ = [
    "LIMITS",
    "SUBSET",
    "acall_tools",
    "accepts",
    "call_tools",
    "plan",
    "problems",
    "search_tool",
    "strict_parameters",
    "tools",
]

Schema = dict[str, Any]
Api = Literal["chat", "responses"]

_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)


def _format(value: Any) -> str | None:
    return None if value in _FORMATS else f"{value!r} is not a supported format"


SUBSET = Subset(
    "OpenAI strict mode",
    {
        "type": json_types,
        "properties": anything,
        "required": anything,
        "additionalProperties": closed,
        "items": one_schema,
        "anyOf": anything,
        "enum": anything,
        "const": anything,
        "$ref": anything,
        "$defs": anything,
        "description": anything,
        "title": anything,
        "pattern": anything,
        "format": _format,
        "minimum": anything,
        "maximum": anything,
        "exclusiveMinimum": anything,
        "exclusiveMaximum": anything,
        "multipleOf": anything,
        "minItems": anything,
        "maxItems": anything,
    },
)
"""The keywords OpenAI's structured outputs accept, with the values they accept."""

_MAX_DEPTH = 10
_MAX_PROPERTIES = 5000
_MAX_ENUM_VALUES = 1000
_TYPED = ("type", "anyOf", "$ref", "enum", "const")


def problems(schema: Mapping[str, Any]) -> list[str]:
    """Why OpenAI's structured outputs (``strict: true``) would refuse a parameters schema.

    Returns:
        One ``"/json/pointer: reason"`` per problem; empty when OpenAI accepts it.

    Example::

        problems({"type": "object", "properties": {"a": {"type": "string"}}})
        # ['/: an object needs `additionalProperties: false`',
        #  "/: `required` must list every property (missing ['a'])"]
    """
    return [str(refusal) for refusal in _refusals(schema)]


def accepts(schema: Mapping[str, Any]) -> bool:
    """Whether OpenAI's structured outputs accept a parameters schema (``problems`` is empty).

    Stops at the first refusal, so a schema that breaks a rule at its root costs one node.
    """
    return next(_refusals(schema), None) is None


def _refusals(schema: Mapping[str, Any]) -> Iterator[Refusal]:
    if schema.get("type") != "object" or "anyOf" in schema:
        yield Refusal((), "the root must be a plain object (`type: object`, no `anyOf`)")
    yield from each_refusal(schema, SUBSET, _node_refusals)
    properties = enums = 0
    for _, node in walk(schema):
        properties += len(node.get("properties", ()))
        enums += len(node.get("enum", ()))
    resolver = Resolver(schema)
    yield from _too_deep(resolver)
    yield from _unfollowable(resolver)
    if properties > _MAX_PROPERTIES:
        yield Refusal((), f"more than {_MAX_PROPERTIES} properties in all")
    if enums > _MAX_ENUM_VALUES:
        yield Refusal((), f"more than {_MAX_ENUM_VALUES} enum values in all")


def _unfollowable(resolver: Resolver) -> list[Refusal]:
    """Each ``$ref`` that points at nothing, or starts a chain longer than ``MAX_REF_HOPS``."""
    found = []
    for holder in resolver.refs:
        ref = holder.node.schema.get("$ref")
        if isinstance(ref, str) and resolver.chase(ref, holder.node.base) is None:
            reason = f"$ref {ref!r} cannot be followed (broken, or over {MAX_REF_HOPS} hops)"
            found.append(Refusal(tuple(pointer_tokens(holder.node.pointer)), reason))
    return found


def _too_deep(resolver: Resolver) -> list[Refusal]:
    """Where objects nest deeper than OpenAI's limit, counted from the root through every
    ``$ref`` (a definition adds its own levels where it is used), each recursion once.

    Each place is reported once, at its own pointer, where the first level too many
    begins, with the route from the root that reaches it; the walk stops there, and a
    definition met again at a depth already seen is not walked again.
    """
    refusals: dict[str, Refusal] = {}
    seen: set[tuple[str, int]] = set()
    # (node, route from the root, objects around it, definitions being walked): a stack.
    # The depth of a node is the number of ``properties`` its route passes through.
    pending: list[tuple[Node, tuple[str, ...], int, frozenset[str]]] = [
        (resolver.root_node, (), 0, frozenset())
    ]
    while pending:
        node, route, depth, active = pending.pop()
        if not is_mapping(node.schema) or (node.pointer, depth) in seen:
            continue
        seen.add((node.pointer, depth))
        if "properties" in node.schema and depth > _MAX_DEPTH:
            tokens = tuple(pointer_tokens(node.pointer))
            reason = f"objects nest deeper than {_MAX_DEPTH} levels"
            if route != tokens:
                reason += f" (at {where(route) or '/'}, through $ref)"
            refusals.setdefault(node.pointer, Refusal(tokens, reason))
            continue
        target = resolver.target(node)
        if target is not None and target.pointer not in active:
            pending.append((target, route, depth, active | {target.pointer}))
        for tokens, _ in subschemas(node.schema):
            if tokens[0] not in _DEFINITIONS:  # reached through the references to them
                child = resolver.child(node, *tokens)
                inner = depth + (tokens[0] == "properties")
                pending.append((child, route + tokens, inner, active))
    return list(refusals.values())


_DEFINITIONS = frozenset({"$defs", "definitions"})


def _node_refusals(node: Mapping[str, Any]) -> list[str]:
    reasons: list[str] = []
    if is_object(node):
        if "additionalProperties" not in node:
            reasons.append("an object needs `additionalProperties: false`")
        listed = set(node.get("required", ()))
        missing = [name for name in node.get("properties", {}) if name not in listed]
        if missing:
            reasons.append(f"`required` must list every property (missing {missing})")
    return reasons + untyped_or_ref_siblings(node, _TYPED)


def strict_parameters(schema: Mapping[str, Any]) -> tuple[Schema, list[tuple[str, str]]]:
    """A parameters schema made strict for OpenAI, with what strict mode cannot express.

    Returns:
        The strict schema and ``(path, reason)`` pairs, the path written ``param.path``
        (empty when the schema is fine).
    """
    from llmapp.schema import make_strict

    reported: list[tuple[str, str]] = []
    strict = make_strict(schema, lambda path, reason, _in_def: reported.append((path, reason)))
    strict = conform(strict, SUBSET)
    if reported:
        return strict, reported
    return strict, [(where(refusal.tokens), refusal.reason) for refusal in _refusals(strict)]


@overload
def tools(source: Any, *, strict: bool = ..., api: Literal["chat"] = ...) -> list[ChatTool]: ...
@overload
def tools(
    source: Any,
    *,
    strict: bool = ...,
    api: Literal["responses"],
    defer: Defer = ...,
    keep: Iterable[str] = ...,
) -> list[ResponsesTool]: ...
def tools(
    source: Any,
    *,
    strict: bool = False,
    api: Api = "chat",
    defer: Defer = None,
    keep: Iterable[str] = (),
) -> list[ChatTool] | list[ResponsesTool]:
    """OpenAI tool entries for an application or an iterable of functions.

    Args:
        source: an application (``.functions``) or an iterable of functions.
        strict: follow structured-output rules and set ``"strict": true``.
        api: ``"chat"`` (Chat Completions) or ``"responses"`` (Responses API).
        defer: (Responses only) the functions marked ``"defer_loading": true`` (``True``
            for all, names, or a predicate; see ``llmapp.vendors._defer``): the model
            sees them once the ``tool_search`` tool (``search_tool()``) loads them.
        keep: names never deferred (``keep=searching.most_used(5)``).

    Returns:
        One entry per function, ready for ``tools=[...]``.

    Raises:
        LlmApplicationError: with ``strict=True``, every ``Class.method.param`` that
            strict mode cannot express.
        ValueError: an unknown ``api``, or ``defer`` with Chat Completions (which has no
            tool search).

    Example::

        completion = client.chat.completions.create(
            model="gpt-4.1", messages=messages, tools=openai.tools(app, strict=True)
        )
    """
    entry = _ENTRIES.get(api)
    if entry is None:
        raise ValueError(f"api must be 'chat' or 'responses', not {api!r}")
    entries: list[dict[str, Any]] = []
    failures: list[tuple[str, str]] = []
    exported = tools_of(source)
    deferring = deferred(exported, defer, keep)
    if deferring and api != "responses":
        raise ValueError("defer needs api='responses': Chat Completions has no tool search")
    for tool in exported:
        schema = tool.parameters
        if strict:
            schema, found = strict_parameters(schema)
            failures.extend((f"{tool.name}.{path}".rstrip("."), reason) for path, reason in found)
        made = entry(tool, schema, strict)
        if tool.name in deferring:
            made["defer_loading"] = True
        entries.append(made)
    if failures:
        raise export_error(source, "OpenAI", failures)
    return cast("list[ChatTool] | list[ResponsesTool]", entries)  # the SDK's own TypedDicts


LIMITS = Limits(properties=100, depth=5)
"""The per-schema limits a planned strict schema keeps to: the figures OpenAI long
documented for structured outputs (its checker, ``problems``, holds the larger ones it
documents now, so a schema within these is accepted either way)."""


def plan(
    source: Any, *, api: Api = "chat", limits: Limits = LIMITS, prefer: Iterable[str] = ()
) -> ExportPlan:
    """The export that fits OpenAI's structured outputs, decided per function.

    A function goes strict when strict mode can express it (with its ``$ref``s, or else
    with its definitions inlined) within ``limits``; otherwise as its plain schema with
    ``"strict": false``, every constraint in it. Strict ones have refused constraints
    moved into descriptions; llmapp's validator checks all of them anyway.

    Args:
        source: an application or an iterable of functions.
        api: ``"chat"`` or ``"responses"``.
        limits: ``properties`` and ``depth`` per strict schema.
        prefer: accepted for the same call as the other vendors' planners (OpenAI's
            limits are per schema: the order changes nothing).

    Returns:
        An ``ExportPlan``: ``tools`` for ``tools=...`` and a ``Decision`` per function.
    """
    made = _ENTRIES.get(api)
    if made is None:
        raise ValueError(f"api must be 'chat' or 'responses', not {api!r}")
    entries: list[dict[str, Any]] = []
    decisions: list[Decision] = []
    for tool in tools_of(source):
        schema, found = strict_parameters(tool.parameters)
        refs = "kept" if definitions(tool.parameters) else "none"
        if found and definitions(tool.parameters):
            inlined, cyclic = inline_refs(tool.parameters)
            if not cyclic:
                retried, again = strict_parameters(inlined)
                if not again:
                    schema, found, refs = retried, again, "inlined"
        reason = _over(schema, limits) if not found else None
        if found:
            where_, why = found[0]
            reason = f"strict mode cannot express {where_ or 'the schema'} ({why})"
        if reason is None:
            moved = moved_keywords(tool.parameters, SUBSET)
            entries.append(made(tool, schema, True))
            decisions.append(Decision(tool.name, True, moved, refs))
        else:
            plain = "kept" if definitions(tool.parameters) else "none"
            entries.append(made(tool, tool.parameters, False))
            decisions.append(Decision(tool.name, False, (), plain, reason=reason))
    return ExportPlan(f"OpenAI ({api})", entries, decisions)


def _over(schema: Schema, limits: Limits) -> str | None:
    """Why a strict schema passes ``limits`` (its own properties, its nesting), or None."""
    inlined, _ = inline_refs(schema)
    properties = sum(len(node.get("properties", ())) for _, node in walk(inlined))
    if limits.properties is not None and properties > limits.properties:
        return f"its {properties} properties pass the {limits.properties} allowed"
    depth = nesting(inlined)
    if limits.depth is not None and depth > limits.depth:
        return f"its objects nest {depth} levels, past the {limits.depth} allowed"
    return None


def search_tool(searching: Any = None) -> ResponsesSearchTool:
    """The Responses API's ``tool_search`` tool, to send beside tools exported with ``defer=``.

    Args:
        searching: ``None`` for OpenAI's own (hosted) search of the deferred tools; a
            ``ToolSearch`` for a search run here, by llmapp's index: the tool is then
            ``"execution": "client"`` with the search function's description and
            parameters, and ``call_tools(searching, ...)`` answers each ``tool_search_call``
            with a ``tool_search_output`` carrying the found functions' definitions.

    Example::

        response = client.responses.create(
            model=model, input=items,
            tools=[openai.search_tool(), *openai.tools(app, api="responses", defer=True)],
        )
    """
    made: dict[str, Any] = {"type": "tool_search"}
    if searching is not None:
        function = searching.search
        made.update(
            execution="client",
            description=function.description,
            parameters=function.parameters,
        )
    return cast("ResponsesSearchTool", made)  # the SDK's own TypedDict


def _fields(tool: Tool, schema: Schema, strict: bool) -> dict[str, Any]:
    fields: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        fields["description"] = tool.description
    fields["parameters"] = schema
    fields["strict"] = strict
    return fields


def _chat_entry(tool: Tool, schema: Schema, strict: bool) -> dict[str, Any]:
    return {"type": "function", "function": _fields(tool, schema, strict)}


def _responses_entry(tool: Tool, schema: Schema, strict: bool) -> dict[str, Any]:
    return {"type": "function", **_fields(tool, schema, strict)}


_ENTRIES: dict[str, Callable[[Tool, Schema, bool], dict[str, Any]]] = {
    "chat": _chat_entry,
    "responses": _responses_entry,
}


@overload
def call_tools(
    app: Executor,
    target: Any,
    response: ChatCompletion | ChatCompletionMessage,
    *,
    human: Human | None = ...,
    context: Any = ...,
) -> list[ChatToolMessage]: ...
@overload
def call_tools(
    app: Executor, target: Any, response: Response, *, human: Human | None = ..., context: Any = ...
) -> list[ResponsesToolOutput]: ...
@overload
def call_tools(
    app: Executor, target: Any, response: Any, *, human: Human | None = ..., context: Any = ...
) -> list[Any]: ...
def call_tools(
    app: Executor, target: Any, response: Any, *, human: Human | None = None, context: Any = None
) -> list[Any]:
    """Run every function call of an OpenAI response; return the answers to send back.

    Args:
        app: the application (anything with ``execute(target, name, arguments, human=)``).
        target: what the calls run on (the class instance).
        response: a ``ChatCompletion``, its message, a Responses ``Response`` or its
            ``output`` list; SDK objects or plain dicts.
        human: function name -> the human-side values for that function's calls.
        context: the calls' context (a class application's ``context=``: per-tool
            controls and context parameters read it).

    Returns:
        Chat: ``{"role": "tool", "tool_call_id", "content"}`` per call; Responses:
        ``{"type": "function_call_output", "call_id", "output"}`` per call; in order.

    Example::

        messages.append(completion.choices[0].message)
        messages += openai.call_tools(app, shop, completion)
    """
    answer, calls = _read_calls(response, app)
    return [
        answer(call, result) for call, result in run(app, target, calls, human, **per_call(context))
    ]


@overload
async def acall_tools(
    app: Executor,
    target: Any,
    response: ChatCompletion | ChatCompletionMessage,
    *,
    human: Human | None = ...,
    context: Any = ...,
) -> list[ChatToolMessage]: ...
@overload
async def acall_tools(
    app: Executor, target: Any, response: Response, *, human: Human | None = ..., context: Any = ...
) -> list[ResponsesToolOutput]: ...
@overload
async def acall_tools(
    app: Executor, target: Any, response: Any, *, human: Human | None = ..., context: Any = ...
) -> list[Any]: ...
async def acall_tools(
    app: Executor, target: Any, response: Any, *, human: Human | None = None, context: Any = None
) -> list[Any]:
    """``call_tools`` for async code: the calls run concurrently, answers in call order."""
    answer, calls = _read_calls(response, app)
    pairs = await arun(app, target, calls, human, **per_call(context))
    return [answer(call, result) for call, result in pairs]


Answer = Callable[[ToolCall, Any], dict[str, Any]]


def _rich(result: Any) -> bool:
    return bool(result.success) and is_content(getattr(result, "value", None))


def _chat_answer(call: ToolCall, result: Any) -> dict[str, Any]:
    # a chat tool message holds text only: images and the rest are named (``describe``)
    text = describe(result.value) if _rich(result) else result.message()
    return {"role": "tool", "tool_call_id": call.id, "content": text}


def _responses_answer(call: ToolCall, result: Any) -> dict[str, Any]:
    output = _responses_content(result.value) if _rich(result) else result.message()
    return {"type": "function_call_output", "call_id": call.id, "output": output}


def _responses_content(value: Any) -> list[dict[str, Any]]:
    """Rich content as the Responses API's input parts: an image as ``input_image``, the
    rest as ``input_text`` (``describe``)."""
    found: list[dict[str, Any]] = []
    for item in value if isinstance(value, (list, tuple)) else [value]:
        if isinstance(item, Image):
            url = f"data:{item.mime_type};base64,{base64.b64encode(item.data).decode()}"
            found.append({"type": "input_image", "image_url": url})
        else:
            found.append({"type": "input_text", "text": describe(item)})
    return found


def _search_answer(app: Any) -> Answer:
    """Answers a client ``tool_search_call`` with the definitions of the functions found;
    a function call as ``_responses_answer`` does."""

    def answer(call: ToolCall, result: Any) -> dict[str, Any]:
        if call.name != app.search_name:
            return _responses_answer(call, result)
        found = result.data.get("functions", []) if result.success else []
        functions = [app.function(each["name"]) for each in found]
        loaded = tools([f for f in functions if f is not None], api="responses")
        return {
            "type": "tool_search_output",
            "call_id": call.id,
            "execution": "client",
            "status": "completed",
            "tools": loaded,
        }

    return answer


def _read_calls(response: Any, app: Any = None) -> tuple[Answer, list[ToolCall]]:
    """The calls of a chat or responses result, and how that API wants them answered.

    A client ``tool_search_call`` is a call of the search function of ``app`` (a
    ``ToolSearch``: ``search_tool(searching)`` asked for it), and no call otherwise.
    """
    choices = items(response, "choices")
    if choices:
        response = read(choices[0], "message")
    if read(response, "tool_calls") is not None or read(response, "role") == "assistant":
        return _chat_answer, [
            ToolCall(identifier, read(function, "name"), read(function, "arguments"))
            for call in items(response, "tool_calls")
            if (identifier := call_id(call, "id")) is not None
            for function in (read(call, "function"),)
        ]
    output = response if isinstance(response, list) else items(response, "output")
    search = getattr(app, "search_name", None)
    calls = []
    for item in output:
        kind, identifier = read(item, "type"), call_id(item, "call_id")
        if identifier is None:
            continue
        if kind == "function_call":
            calls.append(ToolCall(identifier, read(item, "name"), read(item, "arguments")))
        elif kind == "tool_search_call" and search and read(item, "execution") == "client":
            calls.append(ToolCall(identifier, search, read(item, "arguments")))
    return (_search_answer(app) if search else _responses_answer), calls
