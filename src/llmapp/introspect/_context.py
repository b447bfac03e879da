"""Which parameters the caller supplies per call, by type: never part of any schema.

A parameter is a context parameter when its annotation is ``Annotated[T, Context()]``, or
when it is (a parametrisation of) one of the agent frameworks' own context types:
pydantic-ai's ``RunContext``, the Agents SDK's ``ToolContext`` / ``RunContextWrapper``, the
MCP SDK's ``Context`` / ``ServerRequestContext``, FastMCP's ``Context``, llmapp's own
``llmapp.mcp.McpContext``. Those types are
recognised by module and name, so no framework is imported to ask.
"""

from __future__ import annotations

import typing
from typing import Any

import typing_extensions as te

from llmapp.introspect._compat import is_class, is_union
from llmapp.markers import Context

__all__ = ["context_type", "is_framework_context"]

_FRAMEWORK_TYPES = frozenset(
    {
        ("pydantic_ai", "RunContext"),
        ("agents", "ToolContext"),
        ("agents", "RunContextWrapper"),
        ("mcp", "Context"),
        ("mcp", "ServerRequestContext"),
        ("mcp", "RequestContext"),
        ("fastmcp", "Context"),
        ("llmapp", "McpContext"),
    }
)


def context_type(annotation: Any) -> Any | None:
    """The type a context parameter asks for (its class), or ``None`` for an ordinary one."""
    if is_class(annotation):  # the common case: no union, no Annotated, no parametrisation
        return _framework_type(annotation)
    if is_union(annotation):  # ``Annotated[T, Context()] | None``
        members = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        return context_type(members[0]) if len(members) == 1 else None
    if te.get_origin(annotation) is te.Annotated:
        base, *metadata = te.get_args(annotation)
        if any(isinstance(each, Context) for each in metadata):
            return _class_of(base)
        annotation = base
    return _framework_type(_class_of(annotation))


def is_framework_context(cls: Any) -> bool:
    """Whether ``cls`` is one of the frameworks' own context types (a run, a request)."""
    return _framework_type(cls) is not None


def _framework_type(cls: Any) -> Any | None:
    """``cls`` when it is one of the frameworks' context types, else ``None``."""
    if isinstance(cls, type):
        package = getattr(cls, "__module__", "").split(".", 1)[0]
        if (package, cls.__name__) in _FRAMEWORK_TYPES:
            return cls
    return None


def _class_of(annotation: Any) -> Any:
    """``RunContext[Deps]`` -> ``RunContext``, ``User | None`` -> ``User``; a class stays itself."""
    if is_union(annotation):
        members = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        return _class_of(members[0]) if len(members) == 1 else annotation
    origin = typing.get_origin(annotation)
    return origin if isinstance(origin, type) else annotation
