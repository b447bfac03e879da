"""MCP tool lists as LLM functions: ``application(tools)`` and the function model it builds.

A tool's ``inputSchema`` goes through ``llmapp.jsonschema.normalise`` (any draft, boolean
schemas, ``definitions``, unused or missing reference targets) and becomes ``parameters``:
an object schema with ``properties`` and ``required`` (a root that is only a ``$ref`` is
replaced by the definition it names). The root gets ``additionalProperties: false``
unless the tool says itself what undeclared keys may be, or declares keys in branches
(``allOf``, ``anyOf``, ``$ref``...): a key the tool does not declare is a mistake the
model should hear about, as with class functions. ``outputSchema`` becomes ``output``
the same way. The tool's annotations become tags (``readOnly``, ``destructive`` or
``additive``, ``idempotent``, ``openWorld`` or ``closedWorld``: the tags
``llmapp.vendors.mcp`` reads when serving), so a tool list served again keeps its hints.

A tool that cannot be converted is an ``McpToolProblem`` in ``errors``, with a located
message; the other tools still convert. So is: a tool without a name, or whose name the
vendors refuse (``^[A-Za-z_][A-Za-z0-9_-]{0,63}$``, the rule of class functions: MCP also
allows dots and 128 characters); a second tool of a name already listed (the first
keeps it: a later one must not take over its calls); a schema that is not an object,
refers to nothing, nests more than ``MAX_NESTING`` levels or that the validator refuses
(checked here as it would be compiled, so a call never fails on the server's mistake;
the validator compiles at the tool's first call). Descriptions and
titles lose their control and bidirectional-formatting characters; a parameter name
(a key of the input schema's ``properties``) that holds one is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from llmapp._errors import ExecutionError, LlmappError
from llmapp._text.untrusted import clean_text, unsafe_character
from llmapp._tool_annotations import ANNOTATION_TAGS
from llmapp.app import CallResult, unknown_function
from llmapp.introspect import FUNCTION_NAME
from llmapp.jsonschema import (
    declared_types,
    escape_token,
    is_mapping,
    normalise,
    resolve_pointer,
)
from llmapp.kernel import (
    DEFAULT_RUNNER,
    MCP,
    Application,
    FunctionControls,
    Runner,
    SchemaPredicate,
    Separated,
    enabled,
    given_controls,
    log_call,
    refusals,
    separation,
)
from llmapp.mcp._call import call
from llmapp.mcp._function import McpLlmFunction
from llmapp.repair import MAX_LENGTH

__all__ = ["McpLlmApplication", "McpLlmFunction", "McpToolProblem", "application"]

Schema = dict[str, Any]

_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
"""Tool names as the MCP specification allows them."""

_TAG_OF_HINT = {hint: tag for tag, hint in ANNOTATION_TAGS.items()}


@dataclass(frozen=True)
class McpToolProblem:
    """A tool that could not become a function.

    Attributes:
        name: the tool's name (``None`` when it has none).
        location: where in the tool (``inputSchema#/properties/a``).
        reason: what is wrong there.
    """

    name: str | None
    location: str
    reason: str

    def __str__(self) -> str:
        return f"{self.name or '<unnamed tool>'}.{self.location}: {self.reason}"


class McpLlmApplication(Application[McpLlmFunction, NoReturn, Any]):
    """The tools of an MCP server as LLM functions.

    Attributes:
        functions: one ``McpLlmFunction`` per convertible tool, in the listed order.
        errors: one or more ``McpToolProblem`` per tool that could not be converted.
        name: the name it is served under again (``application(tools, name=...)``).
    """

    errors: list[McpToolProblem]

    def __init__(
        self, functions: list[McpLlmFunction], errors: list[McpToolProblem], name: str = "mcp"
    ) -> None:
        super().__init__(functions, errors)
        self.name = name

    def __repr__(self) -> str:
        return f"<McpLlmApplication {len(self.functions)} functions, {len(self.errors)} errors>"

    async def aexecute(
        self,
        session: Any,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        runner: Runner | None = None,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        function = self.function(name)
        if function is None or not enabled(function, context):  # controls: hidden
            refused = unknown_function(name, [f.name for f in self.visible(context)])
            log_call(MCP, refused, 0.0)
            return refused
        called = call(
            session,
            function,
            arguments,
            human=human,
            raise_errors=raise_errors,
            context=context,
            approved=approved,
        )
        # The tool call is awaited on the loop (no thread), within the runner's time limit
        # and the function's own.
        return await (runner or DEFAULT_RUNNER).awaited(function, called, raise_errors, MCP)

    def execute(
        self,
        session: NoReturn,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        """Not available: an MCP session is asynchronous, so no ``session`` type-checks
        here (``NoReturn``); use ``aexecute`` (or the vendors' ``acall_tools``).

        Raises:
            ExecutionError: always, for code no type checker read.
        """
        raise ExecutionError("MCP sessions are asynchronous: use aexecute() or acall_tools()")


def application(
    tools: Any,
    *,
    strict: bool = False,
    separate: SchemaPredicate | None = None,
    name: str = "mcp",
    max_length: int = MAX_LENGTH,
    controls: FunctionControls | None = None,
) -> McpLlmApplication:
    """LLM functions for an MCP server's tools.

    Args:
        tools: a ``ListToolsResult``, a list of ``mcp.types.Tool``, or plain dicts
            (``name``, ``description``, ``inputSchema``, ``outputSchema``...).
        strict: give each function OpenAI's structured-output form of its input schema,
            as ``application(cls, strict=True)`` does (every property required, optional
            ones nullable); a tool that strict mode cannot express is an error. The model
            then writes ``null`` for an optional key: ``call`` leaves such keys out of
            what it sends, so the server sees its own schema honoured.
        separate: a predicate over a schema: ``True`` for values a human supplies
            (``aexecute(..., human=...)``), never shown to the model; a human value
            inside a union or tuple is an error, as for classes and documents.
        name: the name the tools are served under again (``llmapp.mcp.server``).
        max_length: most characters of argument text one call reads (as
            ``@llm_application(max_length=...)``); longer text is refused, nothing sent.
        controls: each function's ``llmapp.Controls`` (enabled per call, approval,
            timeout), as a class's ``@controls`` declares them: a mapping of tool names
            to them, or ``function -> Controls | None`` (one rule for many tools). A tool
            whose ``destructiveHint`` is true waits for approval unless they say
            otherwise, as a method tagged ``@tag destructive`` does.

    Returns:
        An ``McpLlmApplication``: ``functions`` for the tools that convert, ``errors``
        for those that do not, and for each name of ``controls`` that is no tool
        (``location == "controls"``).

    Raises:
        TypeError: ``tools`` is no tool list; ``controls`` gives something that is not
            ``llmapp.Controls``.
        ValueError: a control's timeout is not a positive number of seconds.

    Example::

        listed = await session.list_tools()
        app = llmapp.mcp.application(listed)
        result = await llmapp.mcp.call(session, app.functions[0], '{"query": "socks"}')
    """
    functions: list[McpLlmFunction] = []
    errors: list[McpToolProblem] = []
    listed: set[str] = set()
    for tool in _tools(tools):
        named = tool.get("name") if isinstance(tool, Mapping) else None
        if isinstance(named, str) and named in listed:
            reason = f"a second tool named {named!r}: the first one listed keeps the name"
            errors.append(McpToolProblem(named, "name", reason))
            continue
        if isinstance(named, str):
            listed.add(named)
        converted = _function(tool, strict, separate, max_length)
        if isinstance(converted, McpLlmFunction):
            functions.append(converted)
        else:
            errors += converted
    failed = {problem.name for problem in errors if problem.name is not None}
    functions, wrong = given_controls(functions, controls, failed)
    errors += [McpToolProblem(tool, "controls", reason) for tool, reason in wrong]
    return McpLlmApplication(functions, errors, name)


def _tools(tools: Any) -> Iterable[dict[str, Any]]:
    listed = getattr(tools, "tools", tools)
    if isinstance(listed, Mapping) and "tools" in listed:
        listed = listed["tools"]
    if isinstance(listed, (str, bytes, Mapping)) or not isinstance(listed, Iterable):
        raise TypeError(f"expected a tool list, not {type(tools).__name__}")
    for tool in listed:
        dump = getattr(tool, "model_dump", None)
        yield dump(by_alias=True, exclude_none=True, mode="json") if callable(dump) else tool


def _function(
    tool: Any, strict: bool, separate: SchemaPredicate | None = None, max_length: int = MAX_LENGTH
) -> McpLlmFunction | list[McpToolProblem]:
    if not isinstance(tool, Mapping):
        return [McpToolProblem(None, "tool", f"not a tool object: {type(tool).__name__}")]
    name = tool.get("name")
    named = name if isinstance(name, str) else None
    problems: list[McpToolProblem] = []
    if named is None or not _NAME.fullmatch(named):
        problems.append(McpToolProblem(named, "name", f"not an MCP tool name: {name!r}"))
    elif not FUNCTION_NAME.fullmatch(named):
        reason = f"{named!r} is not a name the vendors accept ({FUNCTION_NAME.pattern})"
        problems.append(McpToolProblem(named, "name", reason))
    description = tool.get("description")
    if description is not None and not isinstance(description, str):
        problems.append(McpToolProblem(named, "description", "not a string"))
        description = None
    elif description is not None:
        description = clean_text(description)
    parameters = _schema(named, tool, "inputSchema", problems)
    if parameters is not None:
        parameters = _parameters(named, parameters, problems)
    output = _schema(named, tool, "outputSchema", problems) if "outputSchema" in tool else None
    source = None
    if strict and parameters is not None:
        source, parameters = parameters, _strict(named, parameters, problems)
    # Validation runs against the tool's own schema, every constraint kept in strict mode.
    checked = source if source is not None else parameters
    if checked is not None:
        _checked(named, checked, problems)
    separated = None
    if separate is not None and parameters is not None and checked is not None:
        separated = _separated(named, parameters, checked, separate, problems)
    if problems or parameters is None or checked is None:
        return problems
    assert named is not None
    annotations = tool.get("annotations")
    annotations = dict(annotations) if isinstance(annotations, Mapping) else {}
    title = tool.get("title") or annotations.get("title")
    return McpLlmFunction(
        name=named,
        description=description,
        parameters=parameters,
        output=output,
        title=clean_text(title) if isinstance(title, str) else None,
        tags=_tags(annotations),
        annotations=annotations,
        tool=dict(tool),
        checked_parameters=checked,
        separated=separated,
        max_length=max_length,
    )


def _separated(
    name: str | None,
    parameters: Schema,
    checked: Schema,
    predicate: SchemaPredicate,
    problems: list[McpToolProblem],
) -> Separated | None:
    """The LLM/human split (``app._separation``), refused where a human value sits inside
    a union or tuple."""
    for parameter, reason in refusals(checked, predicate):
        where = f"inputSchema#/properties/{escape_token(parameter)}"
        problems.append(McpToolProblem(name, where, reason))
    return None if problems else separation(parameters, checked, predicate)[0]


def _schema(
    name: str | None, tool: Mapping[str, Any], key: str, problems: list[McpToolProblem]
) -> Schema | None:
    if key not in tool:
        problems.append(McpToolProblem(name, key, "missing"))
        return None
    schema, found = normalise(tool[key])
    problems += [McpToolProblem(name, key + p.location, p.reason) for p in found]
    return schema


_OPEN = ("additionalProperties", "patternProperties", "unevaluatedProperties")
"""Keywords with which a tool says itself what undeclared keys may be."""

_COMPOSED = ("$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas")
"""Keywords that may declare keys elsewhere than the root's ``properties``: such a root is
not closed, since ``additionalProperties`` would refuse the keys they declare."""


def _parameters(name: str | None, schema: Schema, problems: list[McpToolProblem]) -> Schema | None:
    """The input schema as a parameters object: typed, with properties, closed by default."""
    schema = _inlined(schema)
    declared = declared_types(schema)
    if declared is not None and declared != frozenset({"object"}):
        types = " | ".join(sorted(declared))
        problems.append(McpToolProblem(name, "inputSchema#", f"type must be object, not {types}"))
        return None
    parameters: Schema = {"type": "object", "properties": {}}
    parameters.update(schema)
    parameters.setdefault("required", [])
    listed = parameters["properties"]
    for key in listed if is_mapping(listed) else ():
        found = unsafe_character(key) if isinstance(key, str) else None
        if found is not None:
            where = f"inputSchema#/properties/{escape_token(key)}"
            reason = f"the parameter name {key!r} holds the character {found}"
            problems.append(McpToolProblem(name, where, reason))
    if not any(key in parameters for key in (*_OPEN, *_COMPOSED)):
        parameters["additionalProperties"] = False
    return parameters


def _inlined(schema: Schema) -> Schema:
    """A root that is only a reference (zod's ``{"$ref": "#/definitions/X"}``) as the
    definition it names, so the parameters object has its properties at the root."""
    ref = schema.get("$ref")
    if not isinstance(ref, str):
        return schema
    target = resolve_pointer(schema, ref, fragment=True)
    if not is_mapping(target) or "$ref" in target:
        return schema
    inlined = {key: value for key, value in schema.items() if key != "$ref"}
    inlined.update(target)
    return normalise(inlined)[0]  # again: drops the definition if nothing else refers to it


def _strict(name: str | None, parameters: Schema, problems: list[McpToolProblem]) -> Schema:
    from llmapp.schema import strict_form

    strict, found = strict_form(parameters)
    problems += [
        McpToolProblem(name, f"inputSchema.{path}" if path else "inputSchema", f"strict: {reason}")
        for path, reason in found
    ]
    return strict


def _checked(name: str | None, parameters: Schema, problems: list[McpToolProblem]) -> None:
    """A schema no validator compiles from is the tool's problem at build; the validator
    itself is compiled at the tool's first call (``check_schema`` compiles nothing)."""
    from llmapp.validate import check_schema

    try:
        check_schema(parameters)
    except LlmappError as error:
        reason = " ".join(str(error).split())
        problems.append(McpToolProblem(name, "inputSchema", reason))


def _tags(annotations: Mapping[str, Any]) -> list[str]:
    return [
        tag
        for (hint, value), tag in _TAG_OF_HINT.items()
        if hint in annotations and annotations[hint] is value
    ]
