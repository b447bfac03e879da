"""Which functions an export defers: the vendors' own tool search loads them on demand.

Anthropic (the tool search tool) and OpenAI's Responses API (``tool_search``) accept
every tool in the request but show the model only those not marked ``defer_loading``;
the model searches the rest by itself and the vendor loads what it finds. An export
says which to defer with ``defer`` and ``keep``:

- ``defer=True``: every function; ``defer=["a", "b"]``: those names; ``defer=predicate``:
  the functions for which ``predicate(function)`` is true; ``None`` or ``False``: none;
- ``keep``: names never deferred, whatever ``defer`` says (the most used, say:
  ``keep=searching.most_used(5)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from llmapp.vendors._source import Tool

__all__ = ["Defer", "deferred"]

Defer = bool | Iterable[str] | Callable[[Any], bool] | None
"""What ``defer=`` takes (see the module docstring)."""


def deferred(tools: list[Tool], defer: Defer, keep: Iterable[str] = ()) -> frozenset[str]:
    """The names of ``tools`` to mark deferred.

    Raises:
        ValueError: ``defer`` or ``keep`` names a function that is not exported.
    """
    names = [tool.name for tool in tools]
    kept = frozenset(keep)
    chosen: set[str]
    if defer is None or defer is False:
        chosen = set()
    elif defer is True:
        chosen = set(names)
    elif callable(defer):
        chosen = {tool.name for tool in tools if defer(tool.function)}
    elif isinstance(defer, str):
        raise TypeError("defer takes names in a list, not one string")
    else:
        chosen = set(defer)
    unknown = sorted((chosen | kept) - set(names))
    if unknown:
        raise ValueError(f"not among the exported functions: {', '.join(unknown)}")
    return frozenset(chosen - kept)
