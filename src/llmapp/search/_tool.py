"""``ToolSearch``: an application seen through one function the model calls to find the rest.

A model offered hundreds of functions is sent every schema on every request and picks
worse as the list grows. ``ToolSearch(app)`` offers it ``search_tools`` (the name is
configurable) instead: the model asks for what it needs in words, the answer names the
``k`` closest functions with a short description each, and those functions are *loaded*:
from the next request on, ``functions`` (what every vendor export and toolset reads) is
``search_tools``, the functions always shown, and the loaded ones, with their schemas.

``ToolSearch`` is itself an application (``functions``, ``function(name)``, ``execute``,
``aexecute``), so every sink takes it unchanged: ``openai.tools(searching)``,
``anthropic.call_tools(searching, target, message)``, ``pydantic_ai.toolset(searching,
target)``. A call of ``search_tools`` is checked like any function's (its arguments read,
repaired and validated); a call of any other name goes to the application's own
``execute`` (every constraint checked there), loaded or not, and loads it.

It remembers what one conversation loaded: make one per conversation (the index is built
once per application and shared: ``llmapp.search._index.index_of``). The loaded set is bounded
(``max_loaded``, the least recently found dropped first), so a long conversation's
requests stay small.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from llmapp._limits import cut
from llmapp.kernel import CallResult, LlmFunction, check_arguments, model_side
from llmapp.search._index import SearchIndex, index_of

__all__ = ["MAX_K", "ToolSearch", "short_description"]

MAX_K = 20
"""Most functions one search may answer (the model may ask for fewer)."""

_SHORT = 200


def short_description(text: str | None, limit: int = _SHORT) -> str:
    """The first sentence (or paragraph) of a description, cut to ``limit`` characters."""
    if not text:
        return ""
    first = text.strip().split("\n\n", 1)[0].replace("\n", " ")
    end = first.find(". ")
    if 0 < end < limit:
        first = first[: end + 1]
    return cut(first, limit, within=True)


def search_function(name: str, k: int, described: str | None) -> LlmFunction:
    """The ``search_tools`` function: a query and how many functions to answer."""
    parameters = {
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "minLength": 1,
                "maxLength": 1_000,
                "description": "What the function should do, in a few words.",
            },
            "k": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_K,
                "default": k,
                "description": "How many functions to find.",
            },
        },
        "required": ["query"],
        "additionalProperties": False,
    }
    description = described or (
        "Search the available functions by what they do. Answers the names and short "
        "descriptions of the closest ones; they can be called from the next turn on."
    )
    found = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "description": {"type": "string"}},
        "required": ["name", "description"],
    }
    output = {
        "type": "object",
        "properties": {"functions": {"type": "array", "items": found}},
        "required": ["functions"],
    }
    return LlmFunction(name=name, description=description, parameters=parameters, output=output)


class ToolSearch:
    """An application behind a ``search_tools`` function (see the module docstring).

    Args:
        app: any application (class, HTTP, MCP, or anything with ``functions`` and
            ``execute``/``aexecute``).
        name: the search function's name.
        k: how many functions a search answers when the model does not say.
        always: names of functions shown from the start (never loaded by a search).
        index: the ``SearchIndex`` to search (default: the application's own, built on
            first use and shared by every ``ToolSearch`` of it).
        max_loaded: most functions loaded at once.
        description: the search function's description (default: a generic one).
        references: Anthropic's custom tool search: ``anthropic.call_tools`` answers a
            search with ``tool_reference`` blocks, which load the functions found from
            the ones sent deferred (``anthropic.tools(app, defer=True)``).

    Attributes:
        search_name: the search function's name.
        index: the ``SearchIndex`` searched.
        used: function name -> how many calls ran (``most_used`` reads it).

    Example::

        searching = ToolSearch(application(Shop))
        while True:
            completion = client.chat.completions.create(
                model=model, messages=messages, tools=openai.tools(searching))
            ...
            messages += openai.call_tools(searching, shop, completion)
    """

    def __init__(
        self,
        app: Any,
        *,
        name: str = "search_tools",
        k: int = 5,
        always: Iterable[str] = (),
        index: SearchIndex[Any] | None = None,
        max_loaded: int = 20,
        description: str | None = None,
        references: bool = False,
    ) -> None:
        if not 1 <= k <= MAX_K:
            raise ValueError(f"k must be between 1 and {MAX_K}, not {k}")
        self.app = app
        self.search_name = name
        self.index: SearchIndex[Any] = index if index is not None else index_of(app)
        self.k = k
        self.max_loaded = max_loaded
        self.references = references
        self.used: Counter[str] = Counter()
        self._search = search_function(name, k, description)
        if app.function(name) is not None:
            raise ValueError(f"{name!r} is already a function of the application")
        self._always = [self._require(each) for each in always]
        self._loaded: OrderedDict[str, None] = OrderedDict()
        self.revision = 0
        """Grows each time the functions shown change (a toolset re-reads them then)."""

    def __repr__(self) -> str:
        return f"<ToolSearch {self.search_name} over {len(self.index)} functions>"

    @property
    def description(self) -> str | None:
        text: str | None = getattr(self.app, "description", None)
        return text

    @property
    def errors(self) -> list[Any]:
        errors: list[Any] = getattr(self.app, "errors", [])
        return errors

    @property
    def search(self) -> LlmFunction:
        """The search function itself."""
        return self._search

    @property
    def loaded(self) -> list[str]:
        """The names loaded by searches (and calls), least recently found first."""
        return list(self._loaded)

    @property
    def functions(self) -> list[Any]:
        """What the next request carries: the search function, the functions always
        shown, then the loaded ones."""
        shown = [self._search, *self._always]
        named = {function.name for function in shown}
        shown += [self.app.function(name) for name in self._loaded if name not in named]
        return shown

    @property
    def every(self) -> list[str]:
        """Every name it answers: the search function's, then each of the application's
        (a toolset that must hold every tool up front, listing only what is loaded)."""
        return [self.search_name, *(function.name for function in self.app.functions)]

    def function(self, name: str) -> Any:
        """The search function, or any function of the application (loaded or not)."""
        if name == self.search_name:
            return self._search
        return self.app.function(name)

    def load(self, names: Iterable[str]) -> None:
        """Show these functions from the next request on (the oldest past ``max_loaded``
        are dropped)."""
        before = list(self._loaded)
        for name in names:
            self._require(name)
            self._loaded.pop(name, None)
            self._loaded[name] = None
        while len(self._loaded) > self.max_loaded:
            self._loaded.popitem(last=False)
        if list(self._loaded) != before:
            self.revision += 1

    def reset(self) -> None:
        """Forget every loaded function (a new conversation)."""
        if self._loaded:
            self._loaded.clear()
            self.revision += 1

    def most_used(self, k: int) -> list[str]:
        """The ``k`` functions called most (for keeping them out of a deferred export)."""
        return [name for name, _ in self.used.most_common(k)]

    def find(self, query: str, k: int | None = None) -> list[dict[str, str]]:
        """A search as the model reads its answer: name and short description per function.

        Loads what it finds.
        """
        found = self.index.search(query, k or self.k)
        self.load(function.name for function in found)
        return [
            {"name": function.name, "description": short_description(function.description)}
            for function in found
        ]

    def execute(
        self,
        target: Any,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> Any:
        """A search, or the call of a function of the application (``app.execute``)."""
        if name == self.search_name:
            return self._answer(arguments)
        result = self.app.execute(target, name, arguments, human, **options)
        self._ran(name, result)
        return result

    async def aexecute(
        self,
        target: Any,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> Any:
        """``execute`` for async code (``app.aexecute``)."""
        if name == self.search_name:
            return self._answer(arguments)
        result = await self.app.aexecute(target, name, arguments, human, **options)
        self._ran(name, result)
        return result

    def _ran(self, name: Any, result: Any) -> None:
        if getattr(result, "success", False) and isinstance(name, str):
            self.used[name] += 1
            self.load([name])

    def _answer(self, arguments: Any) -> CallResult:
        checked = check_arguments(self._search, arguments, model_side(self._search))
        if isinstance(checked, CallResult):
            return checked
        data: dict[str, Any] = checked.data
        found = self.find(data["query"], data.get("k"))
        answer = {
            "functions": found,
            "note": "These functions can be called now."
            if found
            else "No function matches; try other words.",
        }
        return CallResult(self.search_name, True, answer, answer, repairs=checked.repairs)

    def _require(self, name: str) -> Any:
        function = self.app.function(name)
        if function is None:
            raise ValueError(f"{name!r} is not a function of the application")
        return function
