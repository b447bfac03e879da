"""``Application``, what every door offers, and ``compose``: one application made of several.

Every application (a class's ``LlmApplication``, an OpenAPI document's
``HttpLlmApplication``, an MCP server's ``McpLlmApplication``, a ``ComposedApplication``)
has the verbs of ``Application``: ``functions``, ``function(name)``,
``aexecute(target, name, arguments, human=, *, raise_errors=, context=, approved=)``
answering a ``CallResult``, ``takes_context(name)``, ``method(name)``, a ``name`` and a
``description``. The sinks (the MCP server, the vendors' ``call_tools``, the toolsets) read
only these, so each serves any application. ``context`` is accepted by every door; only a
class method's controls and context parameter read it.

``compose`` binds each application to its target (the instance, the ``Connection``, the
``ClientSession``) and lists their functions as one. Each function keeps its own human
side, controls and origin: a call is routed to the application it came from, on that
application's target, under the name that application knows it by. So a composed
application takes no target (``aexecute(None, name, ...)``): its parts carry theirs.

Names stay unique: two parts listing one name is a build problem naming both origins,
unless ``prefix`` gives one of them (or both) a prefix; a prefixed name must still be one
the vendors accept (``FUNCTION_NAME``). A part's function list is read once, when composed
(a ``ToolSearch``, whose functions change during a run, is composed as it is then).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from llmapp import kernel
from llmapp._errors import BuildProblem, ExecutionError, LlmApplicationError
from llmapp.introspect import FUNCTION_NAME
from llmapp.kernel import Application, CallResult, Function, Runner, unknown_function

__all__ = ["Application", "ComposedApplication", "Origin", "compose"]
"""``Application`` is the kernel's, named here too: ``llmapp.app.Application`` stays."""


@dataclass(frozen=True)
class Origin:
    """Where a composed function comes from.

    Attributes:
        app: the application that has it.
        target: what its calls run on (the instance, the ``Connection``, the session).
        name: its name in ``app``.
    """

    app: Application[Any, Any, Any]
    target: Any
    name: str


class ComposedApplication(Application[Function, None, None]):
    """Several applications as one, each bound to its target (see the module docstring).

    Attributes:
        functions: the functions of every part, in the order the parts were given,
            each under its composed name.
        errors: the parts' own errors, together.
        name: the name given to ``compose``, else the parts' names joined by ``+``.
        description: the parts' descriptions, each once, or ``None``.
    """

    def __init__(
        self,
        functions: list[Function],
        origins: dict[str, Origin],
        errors: list[Any],
        name: str,
        description: str | None,
    ) -> None:
        super().__init__(functions, errors)
        self._origins = origins
        self.name = name
        self.description = description

    def __repr__(self) -> str:
        return f"<ComposedApplication {self.name}: {len(self.functions)} functions>"

    def origin(self, name: str) -> Origin | None:
        """Where the function called ``name`` comes from, or ``None``."""
        return self._origins.get(name) if isinstance(name, str) else None

    def takes_context(self, name: str) -> bool:
        origin = self.origin(name)
        return origin is not None and origin.app.takes_context(origin.name)

    def method(self, name: str) -> Any:
        origin = self.origin(name)
        return None if origin is None else origin.app.method(origin.name)

    def execute(
        self,
        target: None,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        origin = self._route(target, name, context)
        if isinstance(origin, CallResult):
            return origin
        result = origin.app.execute(
            origin.target,
            origin.name,
            arguments,
            human,
            raise_errors=raise_errors,
            context=context,
            approved=approved,
        )
        return _renamed(result, name)

    async def aexecute(
        self,
        target: None,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        runner: Runner | None = None,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        origin = self._route(target, name, context)
        if isinstance(origin, CallResult):
            return origin
        result = await origin.app.aexecute(
            origin.target,
            origin.name,
            arguments,
            human,
            raise_errors=raise_errors,
            runner=runner,
            context=context,
            approved=approved,
        )
        return _renamed(result, name)

    def _route(self, target: Any, name: str, context: Any) -> Origin | CallResult:
        if target is not None:
            raise ExecutionError("a composed application takes no target: its parts carry theirs")
        origin = self.origin(name)
        function = self.function(name)
        if origin is None or not kernel.enabled(function, context):  # controls: hidden
            names = [each.name for each in kernel.visible(self.functions, context)]
            return unknown_function(name, names)
        return origin


def _renamed(result: CallResult, name: str) -> CallResult:
    """The part's answer under the name the model used."""
    return result if result.name == name else replace(result, name=name)


def compose(
    *parts: Application[Any, Any, Any] | tuple[Application[Any, Any, Any], Any],
    prefix: Mapping[Application[Any, Any, Any], str] | None = None,
    name: str | None = None,
) -> ComposedApplication:
    """One application made of several, each bound to what its calls run on.

    Args:
        parts: ``(app, target)`` pairs (a class application and its instance, an HTTP
            application and its ``Connection``, an MCP application and its session), or
            an application that takes no target (a ``ComposedApplication``).
        prefix: application -> the prefix of its functions' names (``{github: "gh_"}``),
            to keep two parts' names apart.
        name: the composed application's name (default: the parts' names joined by ``+``).

    Returns:
        A ``ComposedApplication``: served, exported and used in toolsets like any other;
        its calls take no target (``aexecute(None, name, arguments)``).

    Raises:
        LlmApplicationError: two functions share a name (each origin named), or a prefixed
            name is not one the vendors accept.
        TypeError: a part is neither form.

    Example::

        app = llmapp.compose(
            (application(Shop), Shop()),
            (github, llmapp.http.Connection("https://api.github.com")),
            (files, session),
            prefix={github: "github_"},
        )
        result = await app.aexecute(None, "github_repos_get", text)
    """
    prefixes = dict(prefix or {})
    functions: list[Any] = []
    origins: dict[str, Origin] = {}
    errors: list[Any] = []
    problems: list[BuildProblem] = []
    apps: list[Application[Any, Any, Any]] = []
    for part in parts:
        app, target = _part(part)
        apps.append(app)
        errors += app.errors
        added = prefixes.pop(app, "")
        for function in app.functions:
            composed = added + function.name
            if composed in origins:
                first = origins[composed].app
                reason = f"listed by {_named(first)} and by {_named(app)}: give one a prefix"
                problems.append(BuildProblem(composed, reason))
                continue
            if not FUNCTION_NAME.fullmatch(composed):
                reason = f"not a name the vendors accept ({FUNCTION_NAME.pattern})"
                problems.append(BuildProblem(composed, reason))
                continue
            origins[composed] = _origin(app, target, function.name)
            functions.append(function if not added else replace(function, name=composed))
    if prefixes:
        named = ", ".join(_named(app) for app in prefixes)
        problems.append(BuildProblem("prefix", f"names no part: {named}"))
    if problems:
        raise LlmApplicationError("the composition", problems)
    descriptions = dict.fromkeys(app.description for app in apps if app.description)
    return ComposedApplication(
        functions,
        origins,
        errors,
        name or "+".join(app.name for app in apps) or "composed",
        "\n\n".join(text for text in descriptions if text) or None,
    )


def _part(part: Any) -> tuple[Application[Any, Any, Any], Any]:
    if isinstance(part, tuple) and len(part) == 2 and isinstance(part[0], Application):
        return part[0], part[1]
    if isinstance(part, ComposedApplication):
        return part, None
    raise TypeError(
        f"compose takes (app, target) pairs, or a composed application; not {type(part).__name__}"
    )


def _origin(app: Application[Any, Any, Any], target: Any, name: str) -> Origin:
    if isinstance(app, ComposedApplication):  # a composition in a composition: its own part
        inner = app.origin(name)
        assert inner is not None
        return inner
    return Origin(app, target, name)


def _named(app: Any) -> str:
    return f"{type(app).__name__} {app.name!r}"
