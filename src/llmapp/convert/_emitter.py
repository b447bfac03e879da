"""A small source emitter and compiler for generated converter functions.

Building the source is separate from compiling it; compiled sources are
registered in ``linecache`` under a readable name (``<llmapp.convert Order
1a2b3c4d>``) so tracebacks and debuggers show them, and each function keeps
its source in ``__llmapp_source__``.
"""

from __future__ import annotations

import hashlib
import linecache
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from types import CodeType
from typing import Any

__all__ = ["Emitter", "compile_function"]


class Emitter:
    """Lines of Python source with an indentation level managed by ``with block():``."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._depth = 0

    def line(self, text: str) -> None:
        self._lines.append("    " * self._depth + text)

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        """``header`` (ending in ``:``) followed by an indented body."""
        self.line(header)
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1

    def source(self) -> str:
        return "\n".join(self._lines) + "\n"


@lru_cache(maxsize=1024)
def _code(name: str, source: str) -> CodeType:
    """Compiled once per distinct source: each method compiles its own converters,
    and the same object type used by many methods gives the same source."""
    digest = hashlib.blake2s(source.encode(), digest_size=4).hexdigest()
    filename = f"<llmapp.convert {name} {digest}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    return compile(source, filename, "exec")


def compile_function(name: str, source: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    """Compile ``source`` defining function ``name``; ``namespace`` holds its globals."""
    scope = dict(namespace)
    exec(_code(name, source), scope)
    function: Callable[..., Any] = scope[name]
    function.__llmapp_source__ = source  # type: ignore[attr-defined]
    return function
