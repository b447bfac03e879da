"""What every framework toolset reads: each function of a source, bound to what its calls run on.

A toolset needs, per function, what the model sees (name, description, the model's side of
the parameters: ``llmapp.vendors._source``) and how a call runs (the application's
``execute``/``aexecute`` on a target, the one loop of ``llmapp.vendors._calls``). A binding
is therefore an application with its target:

- ``(app, target)``: every function of a class application on its instance, of an HTTP
  application on its ``Connection``, of an MCP application on its session, of a
  composition (``llmapp.compose``) on ``None`` (its parts carry their targets);
- ``(app, target, functions)``: only those functions of ``app`` (functions or names);
- an iterable of such tuples: functions of several doors in one toolset.

An application may be a ``ToolSearch`` (``llmapp.search``): its functions are its search
function and what the searches loaded, so they change during a run; ``revision(bound)``
says when, and a toolset whose framework asks for the tools at every step binds again then.

``bind(source, target, human=...)`` reads any of these into ``BoundTool``s, and checks that
no two share a name. ``human`` gives the human side of each call: a mapping (function
name -> values) or a callable ``(function_name, context) -> values`` given the framework's
own run context (pydantic-ai's ``RunContext``, the Agents SDK's ``ToolContext``, LangChain's
``RunnableConfig``, FastMCP's ``Context``), so per-run values (the user, a session) reach the
method and never the model.

The per-tool controls of a class function (``llmapp.kernel._controls``) are honoured with the
framework's own context: each toolset passes its context object and what it carries (the
run's ``deps``, the Agents SDK's ``context``) as the call's ``context``, so ``enabled`` and
approval predicates read it and context parameters receive it by type; ``enabled`` says
whether the framework lists the tool for a run, and a call that awaits approval is handed
to the framework's own approval mechanism.
"""

from __future__ import annotations

import logging
import warnings
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from llmapp import kernel
from llmapp._sentinels import MISSING
from llmapp.kernel import sending
from llmapp.vendors import Executor, NotRun, Outcome, Tool, ToolCall, arun_one, run_one, tools_of

__all__ = [
    "BoundTool",
    "HumanValues",
    "HumanValuesWarning",
    "bind",
    "instructions",
    "revision",
    "shown",
]

LOG = logging.getLogger("llmapp.agents")


class HumanValuesWarning(UserWarning):
    """A toolset's ``human=`` gives a tool a key it does not take: every such call fails.

    Said to the developer (a warning and a ``llmapp.agents`` log record, once per tool and
    keys), since the model, told only that the call could not run, cannot mend it.
    """


HumanValues = Mapping[str, Mapping[str, Any]] | Callable[[str, Any], Mapping[str, Any] | None]
"""Function name -> human-side values, or ``(function_name, context) -> values``."""


@dataclass(frozen=True)
class BoundTool:
    """One function as a framework sees it, and how its calls run.

    Attributes:
        tool: the function as every vendor sees it (the model's side of its parameters).
        app: what runs its calls (``execute``/``aexecute(target, name, arguments, human=)``).
        target: what its calls run on (the instance, the ``Connection``, the session).
        human: where the human side of its calls comes from, or ``None``.
        source: the application it came from (its ``description`` reaches the toolsets).
    """

    tool: Tool
    app: Executor
    target: Any
    human: HumanValues | None
    source: Any
    _warned: set[frozenset[str]] = field(default_factory=set, compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.tool.name

    @property
    def description(self) -> str:
        return self.tool.description or ""

    @property
    def parameters(self) -> dict[str, Any]:
        """The parameters schema the model composes (never the human side)."""
        return self.tool.parameters

    @cached_property
    def controlled(self) -> bool:
        """Its function takes per-call controls or context (a class function)."""
        return hasattr(self.tool.function, "controls")

    def declares(self, control: str) -> bool:
        """Its function declares ``control`` (``"enabled"``, ``"approval"``, ``"timeout"``)."""
        return kernel.declares(self.tool.function, control)

    def enabled(self, context: Any = None, carried: tuple[Any, ...] = ()) -> bool:
        """Whether the function exists for this run's context (``@controls(enabled=...)``)."""
        return kernel.enabled(self.tool.function, _values(context, carried))

    def needs_approval(
        self, arguments: Any, context: Any = None, carried: tuple[Any, ...] = ()
    ) -> bool:
        """Whether a call with these (model's) arguments waits for a human's approval."""
        return kernel.needs_approval(self.tool.function, arguments, _values(context, carried))

    def run(
        self,
        arguments: Any,
        context: Any = None,
        *,
        carried: tuple[Any, ...] = (),
        approved: bool = False,
    ) -> Outcome:
        """The call through ``app.execute`` (as ``call_tools`` runs it).

        Args:
            arguments: the model's arguments.
            context: the framework's context of the call (``human`` receives it).
            carried: what that context carries (the run's deps), also the call's context.
            approved: the framework's approval mechanism approved this call.
        """
        call = ToolCall(None, self.name, arguments)
        options = self._options(context, carried, approved)
        try:
            human = self._human(context, arguments)
        except Exception as error:  # see _human
            return NotRun.because(call, error)
        return run_one(self.app, self.target, call, human, options)

    def arun(
        self,
        arguments: Any,
        context: Any = None,
        *,
        carried: tuple[Any, ...] = (),
        approved: bool = False,
    ) -> Awaitable[Outcome]:
        """The call through ``app.aexecute`` (as ``acall_tools`` runs it); see ``run``.

        ``arun_one``'s coroutine itself, to be awaited (not awaited in one more of this).
        """
        call = ToolCall(None, self.name, arguments)
        options = self._options(context, carried, approved)
        try:
            human = self._human(context, arguments)
        except Exception as error:  # see _human
            return _answered(NotRun.because(call, error))
        return arun_one(self.app, self.target, call, human, options)

    def _options(self, context: Any, carried: tuple[Any, ...], approved: bool) -> dict[str, Any]:
        if not self.controlled:  # HTTP and MCP functions: no controls to honour
            return {}
        return {"context": _values(context, carried), "approved": approved}

    def _human(self, context: Any, arguments: Any) -> Mapping[str, Mapping[str, Any]] | None:
        """The call's human values. A hook that raises is a call that could not run: its
        text (a database's address, a token) is logged, the model reads only its kind."""
        if self.human is None:
            return None
        if callable(self.human):
            # Only a hook may ask which parameters the model sent: naming them reads the
            # arguments' text, which a call without a hook must not pay for twice.
            with sending(arguments):
                values = self.human(self.name, context)
            self._check(values)
            return {self.name: values} if values is not None else None
        self._check(self.human.get(self.name))
        return self.human

    @cached_property
    def human_keys(self) -> frozenset[str]:
        """The keys of its human side (the values a human supplies), empty where none."""
        separated = getattr(self.tool.function, "separated", None)
        schema = getattr(separated, "human", None) or {}
        return frozenset(schema.get("properties", ()))

    def _check(self, values: Any) -> None:
        """Warn the developer, once per keys, when ``values`` has keys the tool does not take."""
        if not isinstance(values, Mapping):
            return
        unknown = frozenset(str(key) for key in values) - self.human_keys
        if not unknown or unknown in self._warned:
            return
        self._warned.add(unknown)
        takes = ", ".join(sorted(self.human_keys)) or "no human-side values"
        message = (
            f"human= gives tool {self.name!r} the key(s) {', '.join(sorted(unknown))}, which "
            f"it does not take (it takes: {takes}); its calls fail, and the model is told only "
            "that the call could not run"
        )
        LOG.warning("%s", message)
        warnings.warn(message, HumanValuesWarning, stacklevel=4)


async def _answered(outcome: Outcome) -> Outcome:
    return outcome


def _values(context: Any, carried: tuple[Any, ...]) -> tuple[Any, ...]:
    """The call's context values: the framework's context first, then what it carries."""
    return tuple([value for value in (context, *carried) if value is not None])


def bind(
    source: Any, target: Any = MISSING, *, human: HumanValues | None = None
) -> list[BoundTool]:
    """Every function of ``source`` bound to what its calls run on (see the module docstring).

    Raises:
        TypeError: ``source`` is none of the forms above.
        ValueError: two functions share a name (a framework could not tell them apart).
    """
    if target is not MISSING:
        bindings: list[tuple[Any, ...]] = [(source, target)]
    elif isinstance(source, tuple) and len(source) in (2, 3) and _is_app(source[0]):
        bindings = [source]
    elif isinstance(source, Iterable) and not isinstance(source, (str, bytes, Mapping)):
        bindings = [_binding(item) for item in source]
    else:
        raise TypeError(_FORMS)
    bound: list[BoundTool] = []
    for binding in bindings:
        app, on = binding[0], binding[1]
        if not _is_app(app):
            raise TypeError(_FORMS)
        chosen = _chosen(app, binding[2]) if len(binding) == 3 else app
        bound += [BoundTool(tool, app, on, human, app) for tool in tools_of(chosen)]
    counted = Counter(each.name for each in bound)
    repeated = sorted(name for name, count in counted.items() if count > 1)
    if repeated:
        raise ValueError(f"two functions share a name: {', '.join(repeated)}")
    return bound


def revision(bound: Iterable[BoundTool]) -> tuple[int, ...]:
    """The revisions of the tool searches among ``bound``'s applications (``ToolSearch``):
    when it changes, a search loaded functions and a toolset that lists its tools at every
    step lists them anew (empty: nothing behind ``bound`` changes)."""
    apps = {id(each.app): each.app for each in bound}
    found = (getattr(app, "revision", None) for app in apps.values())
    return tuple(value for value in found if isinstance(value, int))


def shown(bound: BoundTool) -> bool:
    """Whether a framework lists the tool now: behind a ``ToolSearch``, only once a search
    loaded it (a toolset holding every tool up front, ``(searching, target,
    searching.every)``, still lists only what is loaded)."""
    searching = bound.app
    if getattr(searching, "search_name", None) is None:
        return True
    return any(function.name == bound.name for function in getattr(searching, "functions", ()))


def instructions(bound: Iterable[BoundTool]) -> str | None:
    """The descriptions of the applications behind ``bound`` (each once), or ``None``."""
    texts: dict[str, None] = {}
    for each in bound:
        text = getattr(each.source, "description", None)
        if isinstance(text, str) and text:
            texts[text] = None
    return "\n\n".join(texts) or None


_FORMS = (
    "a toolset takes (app, target), (app, target, functions) or an iterable of these; "
    "app is a class, HTTP or MCP application"
)


def _is_app(value: Any) -> bool:
    return hasattr(value, "functions") and hasattr(value, "aexecute")


def _binding(item: Any) -> tuple[Any, ...]:
    if isinstance(item, tuple) and len(item) in (2, 3):
        return item
    raise TypeError(_FORMS)


def _chosen(app: Any, functions: Iterable[Any]) -> list[Any]:
    """The functions of ``app`` named by ``functions`` (functions or names)."""
    chosen = []
    for each in functions:
        name = each if isinstance(each, str) else getattr(each, "name", None)
        function = app.function(name) if isinstance(name, str) else None
        if function is None:
            raise ValueError(f"{name!r} is not a function of {app!r}")
        chosen.append(function)
    return chosen
