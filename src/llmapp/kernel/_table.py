"""``FunctionTable``: what every application offers, whatever door its functions came in by.

A class (``LlmApplication``), an OpenAPI document (``HttpLlmApplication``) and an MCP tool
list (``McpLlmApplication``) all hold ``functions`` in a stable order and ``errors`` (the
build problems collected: always empty for a class, whose problems raise
``LlmApplicationError`` since they are the user's own code to fix; a document or a tool
list is someone else's, so one bad operation must not cost the others). Each adds
``execute``/``aexecute`` with one signature, ``(target, name, arguments, human=None, *,
raise_errors=False, context=None, approved=False) -> CallResult``, where ``target`` is
what the last step needs (an instance, a ``Connection``, a ``ClientSession``; ``None`` for
a composition, whose parts carry theirs): the ``Application`` protocol (``_compose``).

``function(name)`` is a lookup (``None`` for a missing name, for code that probes);
``require(name)`` is for code that knows the name: a missing one raises
``UnknownFunctionError`` naming the closest names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from llmapp._errors import Problem, UnknownFunctionError
from llmapp.kernel._arguments import close_names, unknown_function
from llmapp.kernel._function import Function

__all__ = ["FunctionTable"]

F = TypeVar("F", bound=Function)


class FunctionTable(Generic[F]):
    """The functions of an application, looked up by name.

    Attributes:
        functions: the functions, in a stable order.
        errors: the build problems collected (see the module docstring).
    """

    def __init__(self, functions: list[F], errors: list[Any] | None = None) -> None:
        self.functions = functions
        self.errors: Sequence[Problem] = [] if errors is None else errors
        self._by_name = {function.name: function for function in functions}

    def function(self, name: str) -> F | None:
        """The function called ``name``, or ``None`` (``require`` raises instead)."""
        return self._by_name.get(name) if isinstance(name, str) else None

    def require(self, name: str) -> F:
        """The function called ``name``.

        Raises:
            UnknownFunctionError: there is none; the message names the closest ones.
        """
        found = self.function(name)
        if found is not None:
            return found
        available = list(self._by_name)
        told = unknown_function(name, available)
        close = close_names(name, available) if isinstance(name, str) else []
        raise UnknownFunctionError(str(name), told.feedback or "", close)

    name: str = "llmapp"
    """The application's name, for the programs it is served to (an MCP server's name)."""

    description: str | None = None
    """What the application is for, or ``None`` (an MCP server's instructions)."""

    def takes_context(self, name: str) -> bool:
        """Whether ``context=`` reaches the code behind ``name``: only a class method's own
        context parameter does; a request or a remote tool takes none."""
        return False

    def method(self, name: str) -> Any:
        """The Python method behind ``name``, or ``None`` (only a class's functions have one)."""
        return None

    def to_list(self) -> list[dict[str, Any]]:
        """Every function as plain JSON-ready data."""
        return [function.to_dict() for function in self.functions]
