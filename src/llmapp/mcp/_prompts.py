"""Methods tagged as MCP prompts and resources, answered through the same call step as tools.

Two docstring tags, read like every ``@tag``:

- ``@tag prompt``: the method is the prompt of its name; its LLM-side parameters are
  the prompt's arguments (MCP sends them as text: ``"3"`` is repaired to ``3`` where
  an integer is wanted, as a tool's arguments are). It returns the prompt: a text (one
  user message), a list of texts, or a list of ``{"role", "content"}`` messages; a
  content (``Image``, ``EmbeddedResource``...) in place of a text is that message's block.
- ``@tag resource URI-TEMPLATE`` (``@tag resource shop://orders/{number}``): the
  method is a resource template; each ``{name}`` of the template is one of its
  parameters, read from the requested URI (up to the first ``/``, ``?``, ``#`` or
  character of the template that follows it), then percent-decoded. A value is one
  segment: one that decodes to a ``/`` or ``\\`` (``%2F``, ``%5C``), a control character
  (``%00``, ``%0A``) or to ``.`` or ``..`` is refused with a JSON-RPC error naming the
  parameter, and the method does not run (``files://docs/{name}`` never hands it
  ``../../etc/passwd``). A template without variables is also
  listed as a plain resource. It returns the content: a text as is, bytes as ``blob``
  (its media type from ``Annotated[bytes, ContentMediaType(...)]``), an
  ``EmbeddedResource`` as its contents, anything else as JSON.

Such a method is a prompt or a resource, not a tool: the user or the application
picks it, not the model. Wrong arguments are answered with a JSON-RPC error whose
message is the same feedback a tool call gets, and the method does not run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import unquote

from llmapp.kernel import CONTENT_TYPES, EmbeddedResource, block, resource_contents
from llmapp.mcp._context import InputRequired
from llmapp.mcp._icons import ICONS_ATTRIBUTE
from llmapp.mcp._sdk import sdk

if TYPE_CHECKING:
    from llmapp.kernel import Application, CallResult, Function

__all__ = ["Templates", "is_template"]

PROMPT_TAG: Final = "prompt"
RESOURCE_TAG: Final = "resource"
_VARIABLE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_NOT_IN_A_SEGMENT = re.compile(r"[/\\\x00-\x1f\x7f-\x9f]")
"""What a decoded template value may not hold: a path separator, a control character."""
_INVALID_PARAMS: Final = -32602

Execute = Callable[[str, Mapping[str, Any], Any], Awaitable["CallResult"]]
"""``(name, arguments, context) -> CallResult``: the server's own call of a function."""


def is_template(function: Function, app: Application[Any, Any, Any] | None = None) -> bool:
    """The function is a prompt or a resource (so not a tool). Only a class method's tags
    say so: an operation's or a remote tool's tags are a document's words (of ``app``)."""
    if app is not None and app.method(function.name) is None:
        return False
    return PROMPT_TAG in function.tags or _resource_uri(function) is not None


def _resource_uri(function: Function) -> str | None:
    for tag in function.tags:
        kind, _, uri = tag.partition(" ")
        if kind == RESOURCE_TAG and uri.strip():
            return uri.strip()
    return None


class Templates:
    """The prompts and resource templates of one application, and their handlers."""

    def __init__(self, app: Application[Any, Any, Any], execute: Execute) -> None:
        types = sdk("mcp.types")
        self.types = types
        self.execute = execute
        self.prompts: dict[str, Function] = {}
        self.resources: list[tuple[re.Pattern[str], str, Function]] = []
        prompts, templates, plain = [], [], []
        for function in app.functions:
            if not is_template(function, app):
                continue
            uri = _resource_uri(function)
            if PROMPT_TAG in function.tags:
                self.prompts[function.name] = function
                prompts.append(_prompt(types, function, _shown(app, function)))
            elif uri is not None:
                self.resources.append((_matcher(uri), uri, function))
                entry = {
                    "name": function.name,
                    "description": function.description,
                    **_shown(app, function),
                }
                if _VARIABLE.search(uri):
                    templates.append(
                        types.ResourceTemplate(uri_template=uri, mime_type=_mime(function), **entry)
                    )
                else:
                    plain.append(types.Resource(uri=uri, mime_type=_mime(function), **entry))
        self.prompt_list = types.ListPromptsResult(prompts=prompts)
        self.template_list = types.ListResourceTemplatesResult(resource_templates=templates)
        self.resource_list = types.ListResourcesResult(resources=plain)

    def __bool__(self) -> bool:
        return bool(self.prompts or self.resources)

    def serves(self, uri: str) -> bool:
        """Whether a resource or a template of the application matches ``uri``."""
        return any(matcher.fullmatch(uri) for matcher, _, _ in self.resources)

    async def list_prompts(self, context: Any, params: Any) -> Any:
        return self.prompt_list

    async def list_resource_templates(self, context: Any, params: Any) -> Any:
        return self.template_list

    async def list_resources(self, context: Any, params: Any) -> Any:
        return self.resource_list

    async def get_prompt(self, context: Any, params: Any) -> Any:
        function = self.prompts.get(params.name)
        if function is None:
            raise _error(f"no prompt named {params.name!r}: {sorted(self.prompts)}")
        result = await self._call(context, function, dict(params.arguments or {}))
        if isinstance(result.error, InputRequired):  # 2026-07-28: ask, then run again
            return result.error.result()
        return self.types.GetPromptResult(
            description=function.description, messages=_messages(self.types, result.value)
        )

    async def read_resource(self, context: Any, params: Any) -> Any:
        uri = str(params.uri)
        for matcher, _, function in self.resources:
            found = matcher.fullmatch(uri)
            if found is not None:
                variables = {key: _segment(key, value) for key, value in found.groupdict().items()}
                result = await self._call(context, function, variables)
                if isinstance(result.error, InputRequired):
                    return result.error.result()
                return self.types.ReadResourceResult.model_validate(
                    {"contents": [_contents(uri, function, result)]}
                )
        raise _error(f"no resource matches {uri[:200]!r}")

    async def _call(
        self, context: Any, function: Function, arguments: dict[str, Any]
    ) -> CallResult:
        result: CallResult = await self.execute(function.name, arguments, context)
        if not result.success and not isinstance(result.error, InputRequired):
            raise _error(result.message())
        return result


def _shown(app: Application[Any, Any, Any], function: Function) -> dict[str, Any]:
    """A prompt's or resource's title and icons (``@title``, ``@icons``), where declared."""
    shown: dict[str, Any] = {}
    if function.title:
        shown["title"] = function.title
    found = getattr(app.method(function.name), ICONS_ATTRIBUTE, None)
    if found:
        shown["icons"] = [dict(icon) for icon in found]
    return shown


def _contents(uri: str, function: Function, result: CallResult) -> dict[str, Any]:
    """A resource's contents: bytes as ``blob``, a text as is, anything else as JSON."""
    value = result.value
    if isinstance(value, EmbeddedResource):
        return resource_contents(value)
    if isinstance(value, (bytes, bytearray)):
        return resource_contents(EmbeddedResource(uri, bytes(value), _mime(function)))
    text = value if isinstance(value, str) else json.dumps(result.data)
    return {"uri": uri, "mimeType": _mime(function), "text": text}


def _prompt(types: Any, function: Function, shown: dict[str, Any]) -> Any:
    schema = function.separated.llm if function.separated is not None else function.parameters
    required = set(schema.get("required", ()))
    arguments = [
        types.PromptArgument(
            name=name, description=field.get("description"), required=name in required
        )
        for name, field in (schema.get("properties") or {}).items()
    ]
    return types.Prompt.model_validate(
        {
            "name": function.name,
            "description": function.description,
            "arguments": [argument.model_dump(exclude_none=True) for argument in arguments],
            **shown,
        }
    )


def _messages(types: Any, value: Any) -> list[Any]:
    items = value if isinstance(value, list) else [value]
    messages = []
    for item in items:
        role, content = "user", item
        if isinstance(item, Mapping):
            role, content = item.get("role", "user"), item.get("content", "")
        if isinstance(content, (str, *CONTENT_TYPES)):
            shown = block(content)
        else:
            shown = {"type": "text", "text": json.dumps(content, default=str)}
        messages.append(types.PromptMessage.model_validate({"role": role, "content": shown}))
    return messages


def _matcher(uri: str) -> re.Pattern[str]:
    """The template as a pattern whose match costs time linear in the URI.

    A variable takes what no ``/``, ``?`` or ``#`` ends, and stops at the first character
    of the template's text after it (``{year}-{month}``: a year holds no ``-``), so at
    every character of a URI one way on is open: a URI of many separators cannot make
    the match try each split of it, as a variable taking them too once did. Two variables
    side by side (``{a}{b}``) have no such character: no URI tells where one ends, and
    trying each split costs time quadratic in it, so such a template is refused.

    Raises:
        ValueError: two of the template's variables are side by side.
    """
    parts, last = [r"\A"], 0
    previous: re.Match[str] | None = None
    for variable in _VARIABLE.finditer(uri):
        if previous is not None and previous.end() == variable.start():
            raise ValueError(
                f"resource template {uri!r}: {previous[0]} and {variable[0]} are side by "
                "side, so no URI tells where one ends: put a character between them"
            )
        parts.append(re.escape(uri[last : variable.start()]))
        after = uri[variable.end() : variable.end() + 1]
        stop = re.escape(after) if after else ""
        parts.append(f"(?P<{variable[1]}>[^/?#{stop}]+)")
        last, previous = variable.end(), variable
    parts.append(re.escape(uri[last:]) + r"\Z")
    return re.compile("".join(parts))


def _segment(name: str, raw: str) -> str:
    """A template variable's value, percent-decoded; one path segment or an error.

    Decoding comes after matching, so ``%2F`` inside a value would become a ``/`` the
    template's own ``/`` never let through: a method joining it to a folder would walk
    out of it.
    """
    value = unquote(raw)
    if _NOT_IN_A_SEGMENT.search(value) or value in (".", ".."):
        raise _error(
            f"the URI's {name} is not one path segment once decoded: a template parameter "
            "may not hold '/', '\\' or a control character, nor be '.' or '..'"
        )
    return value


def _mime(function: Function) -> str:
    """The media type a resource declares (``Annotated[bytes, ContentMediaType(...)]``), else
    what its return type is: a text, bytes, or JSON."""
    output = function.output or {}
    declared = output.get("contentMediaType")
    if isinstance(declared, str):
        return declared
    if output.get("contentEncoding") == "base64":
        return "application/octet-stream"
    return "text/plain" if output.get("type") == "string" else "application/json"


def _error(message: str) -> Exception:
    exceptions = sdk("mcp.shared.exceptions")
    error: Exception = exceptions.MCPError(_INVALID_PARAMS, message)
    return error
