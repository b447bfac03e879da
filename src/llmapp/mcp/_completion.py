"""``completion/complete``: suggestions for a prompt's or a resource template's arguments.

The values come from the argument's own type when it names them (an ``Enum``, a
``Literal``: the schema's ``enum`` or ``const`` options), else from a completion
function the method declares with ``@completes``::

    class Trips:
        @completes(city=lambda value, arguments: CITIES)
        def plan(self, city: str, days: int) -> str:
            '''Plan a trip.

            @tag prompt
            '''

The function gets the text typed so far and the other arguments already given, and
returns candidates (or an awaitable of them). Candidates are kept that start with the
typed text (case ignored), at most ``MAX_VALUES`` of them (MCP's limit), with ``total``
and ``hasMore`` saying how many there were. A completion function that raises answers
no values (its exception logged to ``llmapp.mcp``).
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeVar

from llmapp.jsonschema import Resolver, is_mapping
from llmapp.kernel import MCP
from llmapp.mcp._sdk import sdk

if TYPE_CHECKING:
    from llmapp.kernel import Application, Function

__all__ = ["MAX_VALUES", "Completions", "completes"]

MAX_VALUES: Final = 100
_ATTRIBUTE: Final = "__llmapp_completes__"
_SCANNED: Final = 10_000
"""Most candidates one completion function may offer that are looked at."""

F = TypeVar("F", bound=Callable[..., Any])
Complete = Callable[[str, Mapping[str, str]], Any]


def completes(**arguments: Complete) -> Callable[[F], F]:
    """Declare completion functions for a prompt's or resource template's arguments.

    Args:
        **arguments: argument name -> ``(value, arguments) -> candidates`` (or an
            awaitable of them).

    Example::

        @completes(city=lambda value, arguments: ["Paris", "Parma"])
        def plan(self, city: str) -> str: ...
    """

    def mark(method: F) -> F:
        inner = getattr(method, "__func__", method)
        setattr(inner, _ATTRIBUTE, dict(arguments))
        return method

    return mark


class Completions:
    """The completion handler of one application's prompts and resource templates."""

    def __init__(
        self,
        app: Application[Any, Any, Any],
        prompts: Mapping[str, Any],
        templates: Mapping[str, Any],
    ) -> None:
        self.app = app
        self.prompts = prompts  # prompt name -> function
        self.templates = templates  # URI template -> function

    async def complete(self, context: Any, params: Any) -> Any:
        types = sdk("mcp.types")
        ref = params.ref
        function = (
            self.prompts.get(ref.name)
            if getattr(ref, "type", None) == "ref/prompt"
            else self.templates.get(str(getattr(ref, "uri", "")))
        )
        values: list[str] = []
        if function is not None:
            given = dict(getattr(params.context, "arguments", None) or {})
            values = await self._candidates(function, params.argument.name, given)
        typed = params.argument.value.casefold()
        matching = [value for value in values if value.casefold().startswith(typed)]
        return types.CompleteResult(
            completion=types.Completion(
                values=matching[:MAX_VALUES],
                total=len(matching),
                has_more=len(matching) > MAX_VALUES,
            )
        )

    async def _candidates(
        self, function: Function, argument: str, given: dict[str, str]
    ) -> list[str]:
        method = self.app.method(function.name)
        declared = getattr(method, _ATTRIBUTE, None) or {}
        complete = declared.get(argument)
        if complete is None:
            return _from_schema(function, argument)
        try:
            found = complete(given.get(argument, ""), given)
            if inspect.isawaitable(found):
                found = await found
            return [str(value) for value in itertools.islice(_iterable(found), _SCANNED)]
        except Exception:
            MCP.exception("completion of %s.%s raised", function.name, argument)
            return []


def _iterable(found: Any) -> Iterable[Any]:
    return found if isinstance(found, Iterable) and not isinstance(found, str) else ()


def _from_schema(function: Function, argument: str) -> list[str]:
    """The values an argument's schema names (``enum``, ``const`` options), as text."""
    separated = function.separated
    schema = separated.llm if separated is not None else function.parameters
    properties = schema.get("properties") or {}
    node = properties.get(argument)
    if not is_mapping(node):
        return []
    resolver = Resolver(schema)
    values: list[str] = []
    pending = [node]
    seen = 0
    while pending and seen < 64:  # a schema's options, not a walk of its depth
        seen += 1
        node = pending.pop(0)
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = resolver.chase(ref)
            if target is not None and is_mapping(target.schema):
                pending.append(target.schema)
            continue
        if isinstance(node.get("enum"), list):
            values += [_text(value) for value in node["enum"] if value is not None]
        if "const" in node and node["const"] is not None:
            values.append(_text(node["const"]))
        for key in ("anyOf", "oneOf"):
            options = node.get(key)
            if isinstance(options, list):
                pending += [option for option in options if is_mapping(option)]
    return list(dict.fromkeys(values))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else str(value)
