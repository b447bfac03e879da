"""``Application``: the one application class, with the same verbs at every door.

A class (``LlmApplication``), an OpenAPI document (``HttpLlmApplication``), an MCP tool
list (``McpLlmApplication``) and a composition of them (``ComposedApplication``) are each
an ``Application``: ``functions``, ``function(name)``, ``require(name)``, ``visible``,
``execute`` / ``aexecute`` with one signature and one ``CallResult``. A door adds only
its last step (call the method, send the request, call the tool), which is why its
``execute`` / ``aexecute`` carry no docstring of their own: ``help()`` and the IDEs
show this one (``inspect.getdoc`` reads an override's from its base).

What a call runs on is each door's own, and its type says so: ``Application[F, T, A]``
holds functions of type ``F``, ``execute`` runs on a ``T`` and ``aexecute`` on an
``A``. A class's calls run on its instance (``Any``), an OpenAPI document's on a
``Connection``, a composition's on ``None`` (its parts carry their targets), and an MCP
tool list's only asynchronously, on a ``ClientSession``: its ``T`` is ``NoReturn``, so a
type checker refuses ``mcp_app.execute(...)`` before it runs.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from llmapp.kernel._controls import visible
from llmapp.kernel._function import Function
from llmapp.kernel._result import CallResult
from llmapp.kernel._runner import Runner
from llmapp.kernel._table import FunctionTable

__all__ = ["Application"]

F = TypeVar("F", bound=Function)
T = TypeVar("T")
A = TypeVar("A")


class Application(FunctionTable[F], Generic[F, T, A]):
    """An application: its functions, looked up by name, and the safe execution of the
    calls a model makes, whatever door the functions came in by.

    Attributes:
        functions: its functions, in a stable order.
        errors: what could not become a function (a document's operation, a tool).
        name: its name, for the programs it is served to.
        description: what it is for, or ``None``.
    """

    @abstractmethod
    def execute(
        self,
        target: T,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        """Run the call a model asked for on ``target``, if its arguments are right.

        The model's text is read (leniently, within the size limit), repaired where the
        schema makes a repair unambiguous and checked; the human side is joined; then
        the door's last step runs: the method is called, the request sent, the tool
        called. A mistake ends the call with the feedback for the model, and nothing
        runs.

        Args:
            target: what the call runs on: an instance of the class (or the class, for
                static and class methods), an HTTP ``Connection``, ``None`` for a
                composed application (its parts carry their own).
            name: the function name the model gave.
            arguments: the model's arguments: its raw text (read leniently), a mapping,
                or None.
            human: values a human supplied for the human side of a separated function
                (never shown to the model, nor logged).
            raise_errors: re-raise what the last step raised (the method's exception, an
                ``HttpError`` for a non-2xx answer, an ``McpToolError``, a transport
                failure) instead of capturing it in ``error``.
            context: the call's context (one value or a tuple of them: the user, a
                session): what ``enabled`` / ``approval`` predicates read and context
                parameters receive by type. Every door accepts it; only a class method's
                controls and context parameters read it.
            approved: a human approved this call (a function that needs approval).

        Returns:
            A ``CallResult``. With wrong arguments it carries the validation and the
            feedback text for the model, and nothing ran. Each call is one record of the
            door's logger (``llmapp.app``, ``llmapp.http``, ``llmapp.mcp``).

        Raises:
            ExecutionError: the application is used wrongly (missing or wrong human
                values, a wrong ``target``, an async method inside a running loop).

        Example::

            result = app.execute(Shop(), "search", '{"query": "socks"}')
            reply = result.message()   # data, feedback or the error: what goes back
        """

    @abstractmethod
    async def aexecute(
        self,
        target: A,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        runner: Runner | None = None,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        """``execute`` for async code, keeping the event loop free.

        Args:
            target: as for ``execute``, or an MCP ``ClientSession`` (an MCP tool list
                runs only here: its session is asynchronous).
            name: as for ``execute``.
            arguments: as for ``execute``.
            human: as for ``execute``.
            raise_errors: as for ``execute``.
            runner: the limits a call runs within. A class method: its worker threads
                and time limit (default: a shared ``Runner()``: 32 threads, at most 16 for
                one function, no timeout; a function's own ``@timeout`` applies too);
                small arguments are checked on the loop, larger ones and a sync method in
                one of its threads, an async method awaited on the loop. A request or a
                remote tool is I/O awaited on the loop, bounded by its own deadline
                (``Connection``'s, the MCP call's) and, when a runner is given, by the
                runner's time limit (``Runner.awaited``).
            context: as for ``execute``.
            approved: as for ``execute``.

        Example::

            results = await asyncio.gather(*(app.aexecute(shop, "search", t) for t in texts))
        """

    def visible(self, context: Any = None) -> list[F]:
        """The functions that exist for this call's context (``@controls(enabled=...)``).

        Example::

            openai.tools(app.visible(user))   # only the tools this user may call
        """
        return visible(self.functions, context)
