"""``call(session, function, arguments)``: a model's call checked here, then run on the server.

The arguments go through the call kernel every door shares (``llmapp.kernel``): lenient
reading of the model's text, conservative repair and validation against the tool's own
schema (``checked_parameters``, every constraint kept in strict mode). A mistake is
answered with the feedback text and the server is not called; valid arguments go to ``tools/call``.
The answer is a ``CallResult``, as ``LlmApplication.execute`` returns: a tool
result with ``isError`` becomes ``error`` (an ``McpToolError`` carrying the tool's
text), a success becomes ``value``/``data`` (the structured content, else the
text content read as JSON where it is JSON, else the text; JSON nested too deeply to
read is a failed result, never a ``RecursionError``). Arguments nested deeper than an
MCP message carries (``MAX_NESTING``) are refused as unreadable text is, and not sent.
For a function of a
``strict=True`` application, the ``null`` the model wrote for an optional key is left
out of what is sent (``without_strict_nulls``), so the tool sees its own schema honoured.
Each call is logged to ``llmapp.mcp`` (``llmapp.kernel._log``).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from time import perf_counter
from typing import Any, Final

from llmapp._cancelled import own_cancellation
from llmapp._errors import McpToolError
from llmapp._limits import MAX_MCP_NESTING as MAX_NESTING
from llmapp.app import CallResult
from llmapp.jsonschema import Resolver, is_mapping
from llmapp.kernel import (
    MAX_MESSAGE,
    MCP,
    Masker,
    awaiting_approval,
    check_arguments,
    describe,
    error_text,
    failed,
    for_model,
    from_blocks,
    join,
    log_call,
    log_raised,
    model_side,
    too_deep_refusal,
)
from llmapp.mcp._function import McpLlmFunction

__all__ = ["DEADLINE", "MAX_NESTING", "McpToolError", "call", "without_strict_nulls"]

Schema = dict[str, Any]

DEADLINE: Final = 60.0
"""Seconds a server may take to answer a call, by default."""

_UNCARRIED: Final = ", more than an MCP message carries"
_LIMIT: Final = "llmapp.mcp.call(max_message=)"

Progress = Callable[[float, "float | None", "str | None"], Any]
"""``(progress, total, message)``: told of a call's progress notifications."""


def _awaited(progress: Progress) -> Callable[[float, float | None, str | None], Awaitable[None]]:
    """The SDK awaits its progress callback: a plain function is wrapped."""

    async def told(done: float, total: float | None, message: str | None) -> None:
        found = progress(done, total, message)
        if inspect.isawaitable(found):
            await found

    return told


async def call(
    session: Any,
    function: McpLlmFunction,
    arguments: Any,
    *,
    human: Mapping[str, Any] | None = None,
    raise_errors: bool = False,
    deadline: float | None = DEADLINE,
    max_message: int = MAX_MESSAGE,
    progress: Progress | None = None,
    context: Any = None,
    approved: bool = False,
) -> CallResult:
    """Check a model's arguments, then call the tool on a live MCP session.

    Args:
        session: an initialised ``mcp.ClientSession`` (anything with ``call_tool``), or a
            connected FastMCP ``Client`` (its ``call_tool_mcp`` gives the protocol's result,
            where its ``call_tool`` would raise on ``isError``).
        function: a function of ``llmapp.mcp.application(...)``.
        arguments: the model's arguments: its raw text, a mapping, or None.
        human: values for the human side of a separated function (never shown to the
            model).
        raise_errors: raise the tool's error (``McpToolError``) instead of returning it.
        deadline: seconds the server may take to answer (``None``: no limit); past it the
            call is answered as failed with a ``TimeoutError``.
        max_message: most characters of the result shown to the model (``data``); a
            longer one is cut, and ``value`` keeps it whole.
        progress: ``(progress, total, message)`` (or a coroutine function of them), told
            of each progress notification the server sends while the call runs.
        context: the call's context, which the function's approval predicate reads.
        approved: a human approved this call (a function whose ``controls`` ask for
            approval is answered with its ``approval`` until then, and nothing is sent).

    Returns:
        A ``CallResult``. With wrong arguments: ``validation`` and ``feedback``, and the
        server was not called. With a tool error: ``error`` (an ``McpToolError``). A
        result holding more than text (images, audio, resources) without structured
        content: ``value`` is the list of its blocks as ``Image``, ``Audio``,
        ``EmbeddedResource``, ``ResourceLink`` and texts (the vendors' ``call_tools`` give
        them to the model as the vendor's own blocks), ``data`` the texts with each other
        block named, never its bytes.

    Example::

        result = await llmapp.mcp.call(session, app.function("search"), '{"query": 1}')
        reply = result.message()  # the feedback, the error, or the result as JSON
    """
    started = perf_counter()
    try:
        result = await _call(
            session,
            function,
            arguments,
            human,
            raise_errors,
            deadline,
            max_message,
            progress,
            context,
            approved,
        )
    except Exception as error:  # raise_errors, the session's failure, or a misuse
        log_raised(MCP, function.name, error, perf_counter() - started, Masker.of(human))
        raise
    log_call(MCP, result, perf_counter() - started, Masker.of(human))
    return result


async def _call(
    session: Any,
    function: McpLlmFunction,
    arguments: Any,
    human: Mapping[str, Any] | None,
    raise_errors: bool,
    deadline: float | None,
    max_message: int,
    progress: Progress | None = None,
    context: Any = None,
    approved: bool = False,
) -> CallResult:
    name = function.name
    source = function.source_parameters
    checked = check_arguments(
        function,
        arguments,
        model_side(function),
        max_length=function.max_length,
        # Strict mode made the model write null for optional keys: the tool's own schema
        # (validated against) leaves them out.
        before_check=None
        if source is None
        else lambda data: without_strict_nulls(data, source, source),
    )
    if isinstance(checked, CallResult):  # unreadable or wrong: the server is not called
        return checked
    refusal = too_deep_refusal(checked.data, MAX_NESTING, checked.repairs, _UNCARRIED)
    if refusal is not None:
        failure, text = refusal
        return failed(function, failure, checked.repairs, text)
    waiting = awaiting_approval(function, checked.data, context, approved)
    if waiting is not None:  # controls: nothing is sent until a human approves
        return waiting
    sent, repairs = join(function, checked.data, human), checked.repairs
    fastmcp = getattr(session, "call_tool_mcp", None)
    send = fastmcp or session.call_tool
    told: dict[str, Any] = {}
    if progress is not None:  # the SDK's and FastMCP's names for it
        told = {"progress_handler" if fastmcp else "progress_callback": _awaited(progress)}
    import anyio  # the MCP SDK's own dependency: every session that can be called has it

    try:
        with anyio.fail_after(deadline):
            answer = _wire(await send(name, sent, **told))
    except TimeoutError:
        late = TimeoutError(f"{name} did not answer within {deadline:g} s")
        if raise_errors:
            raise late from None
        return CallResult(
            name=name, success=False, error=late, feedback=error_text(late), repairs=repairs
        )
    except BaseException as own:  # the session's own CancelledError, this task not cancelled
        if raise_errors or not own_cancellation(own):
            raise
        return CallResult(
            name=name, success=False, error=own, feedback=error_text(own), repairs=repairs
        )
    content = [_wire(block) for block in answer.get("content") or []]
    if answer.get("isError"):
        error = McpToolError(_text(content) or f"{name} failed", content)
        if raise_errors:
            raise error
        # The tool's text may echo what it was sent: the model reads it masked.
        shown = error_text(error, Masker.of(human))
        return CallResult(name=name, success=False, error=error, feedback=shown, repairs=repairs)
    structured = answer.get("structuredContent")
    rich = from_blocks(content) if structured is None else None
    if rich is not None:  # images, audio, resources: named for the model, kept in value
        shown = for_model(describe(rich), "", Masker.of(human), max_message, _LIMIT)
        return CallResult(name=name, success=True, value=rich, data=shown, repairs=repairs)
    try:
        value = structured if structured is not None else _from_text(_text(content))
    except RecursionError:  # a text result nested deeper than Python reads
        error = McpToolError(f"{name} answered JSON nested too deeply to read", content)
        return CallResult(
            name=name, success=False, error=error, feedback=error_text(error), repairs=repairs
        )
    data = for_model(value, "", Masker.of(human), max_message, _LIMIT)
    return CallResult(name=name, success=True, value=value, data=data, repairs=repairs)


def without_strict_nulls(value: Any, schema: Any, root: Schema, depth: int = 0) -> Any:
    """The value without the ``null`` strict mode made the model write for optional keys.

    Walks ``properties`` and ``items`` of the tool's own schema (through ``$ref``); a key
    the tool does not require, whose own schema refuses ``null``, is left out when null.
    Past ``MAX_NESTING`` levels the value is left as it is: no message carries it, and
    the call is refused for that (a walk as deep as the data would run out of stack).
    """
    if depth > MAX_NESTING:
        return value
    schema = _resolved(schema, root)
    properties = schema.get("properties") if is_mapping(schema) else None
    if isinstance(value, dict) and is_mapping(properties):
        required = set(schema.get("required", ()))
        kept = {}
        for key, item in value.items():
            inner = properties.get(key)
            if inner is None:
                kept[key] = item
            elif item is not None:
                kept[key] = without_strict_nulls(item, inner, root, depth + 1)
            elif key in required or _takes_null(inner, root):
                kept[key] = None
        return kept
    items = schema.get("items") if is_mapping(schema) else None
    if isinstance(value, list) and is_mapping(items):
        return [without_strict_nulls(item, items, root, depth + 1) for item in value]
    return value


def _resolved(schema: Any, root: Schema) -> Any:
    """The schema a ``$ref`` chain leads to (the one follower, with its one limit), or ``{}``."""
    if not (is_mapping(schema) and isinstance(schema.get("$ref"), str)):
        return schema
    node = Resolver(root).chase(schema["$ref"])
    return {} if node is None else node.schema


def _takes_null(schema: Any, root: Schema) -> bool:
    from llmapp.validate import validator

    whole = {**schema, "$defs": root["$defs"]} if "$defs" in root and is_mapping(schema) else schema
    return bool(validator(whole)(None).success)


def _wire(obj: Any) -> dict[str, Any]:
    """An SDK object in its wire spelling (``isError``, ``structuredContent``), or a dict."""
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        dumped: dict[str, Any] = dump(by_alias=True, exclude_none=True, mode="json")
        return dumped
    return dict(obj)


def _text(content: list[dict[str, Any]]) -> str:
    return "\n".join(block["text"] for block in content if block.get("type") == "text")


def _from_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text
