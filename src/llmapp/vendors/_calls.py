"""Running the tool calls of a vendor's response: one loop, sync or async, for every vendor.

Each vendor module reads the calls out of its SDK's response (``ToolCall``: the
call id, the function name, the arguments as the model wrote them) and writes the
answers back in its own shape; running them is shared:

- ``run(app, target, calls, human)``: each call through ``app.execute``, in order,
  as ``(call, result)`` pairs;
- ``arun(...)``: the same through ``app.aexecute``, concurrently, pairs in call order;
- ``run_one`` / ``arun_one``: one call, its result alone (what a framework toolset runs
  for each call the framework hands it).

Neither raises for one call: a call whose ``execute`` raises (a misuse, a lost
connection, a bug, a ``CancelledError`` of its own while its task was not cancelled) is
answered ``NotRun``, so the answers of the calls that ran, before or beside it, are never
lost. A cancellation of the batch itself (its task cancelled) still propagates.

``app`` is anything with ``execute``/``aexecute(target, name, arguments, human=...)``
returning a result with ``success`` and ``message()`` (``Executor``, ``Outcome``): any
``llmapp.Application`` (a class, a document, an MCP server's tools, a composition;
``context=`` is accepted by every one of them). ``human`` maps a
function name to the values a human supplied for that function's human side.

``read(obj, name)`` reads a field from an SDK object or its plain-dict form;
``call_id(obj, name)`` reads a call's id.

Malformed calls are answered, never dropped: a call without a function object or a name
is run as a call to no function, so the model reads which functions exist. A call
without an id (or with an empty or non-text one) is not run: a vendor matches each
answer to its call by id, so no answer could reach the model, and an answer with a
``None`` id makes the vendor refuse the whole next request.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from llmapp._cancelled import own_cancellation
from llmapp._records.frozen import quick_init

__all__ = [
    "Executor",
    "Human",
    "NotRun",
    "Outcome",
    "ToolCall",
    "arun",
    "arun_one",
    "call_id",
    "items",
    "read",
    "run",
    "run_one",
]

Human = Mapping[str, Mapping[str, Any]]
"""Function name -> the human-side values for that function's calls."""


class Outcome(Protocol):
    """What running one call returns (``CallResult`` and its HTTP and MCP peers)."""

    @property
    def success(self) -> bool: ...
    def message(self) -> str: ...


class Executor(Protocol):
    """Runs the call a model asked for on a target (a class instance, a connection...)."""

    def execute(
        self, target: Any, name: str, arguments: Any, human: Mapping[str, Any] | None = None
    ) -> Outcome: ...

    async def aexecute(
        self, target: Any, name: str, arguments: Any, human: Mapping[str, Any] | None = None
    ) -> Outcome: ...


@quick_init
@dataclass(frozen=True)
class ToolCall:
    """One call a model asked for.

    Attributes:
        id: the vendor's call id, echoed in the answer (``None`` where it has none).
        name: the function the model named.
        arguments: its arguments as the model wrote them: text, a mapping, or None.
    """

    id: str | None
    name: str
    arguments: Any


def read(obj: Any, name: str) -> Any:
    """A field of an SDK object or of its plain-dict form; None when absent."""
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def items(obj: Any, name: str) -> list[Any]:
    """A list field (None, absence, and a text or a mapping where a list belongs read as empty)."""
    value = read(obj, name)
    if isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        return []
    return list(value)


def call_id(obj: Any, name: str) -> str | None:
    """A call's id: a non-empty text, else ``None`` (such a call cannot be answered)."""
    value = read(obj, name)
    return value if isinstance(value, str) and value else None


def per_call(context: Any) -> dict[str, Any]:
    """The ``execute`` options of a call's context: none when no context was given (an
    ``Executor`` of one's own need not take one; every llmapp application does)."""
    return {} if context is None else {"context": context}


def run(
    app: Executor, target: Any, calls: Iterable[ToolCall], human: Human | None, **options: Any
) -> list[tuple[ToolCall, Outcome]]:
    """Every call through ``app.execute``, in order, each with its result.

    ``options`` go to every ``execute`` (a class application's ``context=``, ``approved=``).
    """
    return [(call, run_one(app, target, call, human, options)) for call in calls]


async def arun(
    app: Executor, target: Any, calls: Iterable[ToolCall], human: Human | None, **options: Any
) -> list[tuple[ToolCall, Outcome]]:
    """Every call through ``app.aexecute``, concurrently; results keep the calls' order."""
    calls = list(calls)
    if len(calls) == 1:  # nothing to run beside it: awaited here, without gather's task
        return [(calls[0], await arun_one(app, target, calls[0], human, options))]
    # A child's own CancelledError comes back as a value (where Python cannot tell it from
    # a cancellation, 3.10); a cancellation of this batch still raises here.
    results = await asyncio.gather(
        *(arun_one(app, target, call, human, options) for call in calls), return_exceptions=True
    )
    return [
        (call, NotRun.because(call, result) if isinstance(result, BaseException) else result)
        for call, result in zip(calls, results, strict=True)
    ]


def run_one(
    app: Executor, target: Any, call: ToolCall, human: Human | None, options: Mapping[str, Any]
) -> Outcome:
    """One call through ``app.execute`` (``options`` as for ``run``); never raises."""
    try:
        human_side = _human(human, call.name)
        return app.execute(target, call.name, call.arguments, human=human_side, **options)
    except Exception as error:  # the other calls' answers must not be lost with it
        return NotRun.because(call, error)


async def arun_one(
    app: Executor, target: Any, call: ToolCall, human: Human | None, options: Mapping[str, Any]
) -> Outcome:
    """One call through ``app.aexecute`` (``options`` as for ``run``); never raises."""
    try:
        human_side = _human(human, call.name)
        return await app.aexecute(target, call.name, call.arguments, human=human_side, **options)
    except Exception as error:  # the other calls' answers must not be lost with it
        return NotRun.because(call, error)
    except BaseException as error:  # a CancelledError the call raised, its task not cancelled
        if not own_cancellation(error):
            raise
        return NotRun.because(call, error)


@dataclass(frozen=True, slots=True)
class NotRun:
    """The answer to a call that raised instead of answering (a misuse such as missing
    human values, a wrong target, a lost connection, a bug): every other call keeps its
    answer. The model reads only the kind of error, since its text may hold what it must
    not read; the whole exception is logged on ``llmapp.vendors`` and kept in ``error``.
    """

    text: str
    error: BaseException
    success: bool = False
    data: Any = None

    @classmethod
    def because(cls, call: ToolCall, error: BaseException) -> NotRun:
        _LOG.error("tool call %r could not run", call.name, exc_info=error)
        kind = type(error).__name__
        return cls(f"The call could not be run ({kind}); nothing was returned.", error)

    def message(self) -> str:
        return self.text


_LOG = logging.getLogger("llmapp.vendors")


def _human(human: Human | None, name: Any) -> Mapping[str, Any] | None:
    # The name is the model's: one that is no text (a list) names no function, and
    # ``execute`` answers it so.
    return human.get(name) if human is not None and isinstance(name, str) else None
