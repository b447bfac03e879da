"""The generated functions of one validator: their names, and the ones still to write.

A schema node gets one stem (its definition's name, else the end of its pointer);
its checker is ``c_<stem>``, its walker ``w_<stem>``. Asking for a function's name
queues it for writing if it is new, so writers simply call what they need, unless
``share`` gives a compiled function for it (a definition shared with other
validators, ``_shared``): that becomes a global under the same name. Local variables
get readable names, unique within the function being written.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections import deque
from collections.abc import Callable
from typing import Any

from llmapp.jsonschema import Node, name_of

from .._codegen.source import Emitter

__all__ = ["CHECK", "WALK", "Functions"]

CHECK, WALK = "check", "walk"
Share = Callable[[Node, str], Any]
"""(node, mode) -> a compiled function other validators share for it, or None."""
_PREFIXES = {CHECK: "c_", WALK: "w_"}
_UNSAFE = re.compile(r"[^A-Za-z0-9_]+")
_RESERVED = frozenset(("v", "p", "e", "d", "m", "r", *dir(builtins), *keyword.kwlist))
"""The generated functions' parameters (a walker's ``m``, and ``r`` read from it),
builtins and keywords: never a local's name."""


class Functions:
    """Names and queue of the generated functions, and the locals of the one being written."""

    def __init__(self, emitter: Emitter, share: Share | None = None) -> None:
        self.emitter = emitter
        self.share = share
        self.shared: dict[str, Any] = {}
        """Name -> the shared function bound under it (not written here)."""
        self.stems: dict[str, str] = {}
        """Pointer -> the stem of its functions."""
        self._queue: deque[tuple[Node, str]] = deque()
        self._queued: set[tuple[str, str]] = set()
        self._locals: set[str] = set()

    def name(self, node: Node, mode: str) -> str:
        """The name of ``node``'s checker or walker (queued for writing if new)."""
        name = self._name(node, mode)
        if (node.pointer, mode) not in self._queued:
            self._queued.add((node.pointer, mode))
            if not self._bind_shared(node, mode, name):
                self._queue.append((node, mode))
        return name

    def is_shared(self, node: Node, mode: str) -> bool:
        """Whether a function shared with other validators serves ``node`` (bound under
        its name now if so); when not, nothing is queued: the caller may write the node
        in place."""
        name = self._name(node, mode)
        if (node.pointer, mode) in self._queued:
            return name in self.shared
        if not self._bind_shared(node, mode, name):
            return False
        self._queued.add((node.pointer, mode))
        return True

    def _name(self, node: Node, mode: str) -> str:
        stem = self.stems.get(node.pointer)
        if stem is None:
            stem = self.emitter.name(_hint(node))
            self.stems[node.pointer] = stem
        return _PREFIXES[mode] + stem

    def _bind_shared(self, node: Node, mode: str, name: str) -> bool:
        found = self.share(node, mode) if self.share is not None else None
        if found is None:
            return False
        self.emitter.reserve(name, found)
        self.shared[name] = found
        return True

    def next(self) -> tuple[Node, str] | None:
        """The next function to write (its node and mode), or None when all are written."""
        if not self._queue:
            return None
        self._locals = set()
        return self._queue.popleft()

    def local(self, hint: str) -> str:
        """A local variable name from ``hint`` (``count``, ``v_name``), unique in the
        function being written and never a global's or a parameter's name."""
        stem = hint
        if not (stem.isidentifier() and stem.isascii() and len(stem) <= 30):
            stem = _UNSAFE.sub("_", hint).strip("_")[:30] or "value"
            if stem[0].isdigit():
                stem = "_" + stem
        candidate, counter = stem, 1
        while self._taken(candidate):
            counter += 1
            candidate = f"{stem}_{counter}"
        self._locals.add(candidate)
        return candidate

    def _taken(self, name: str) -> bool:
        return name in self._locals or name in _RESERVED or self.emitter.is_global(name)


def _hint(node: Node) -> str:
    name = name_of(node.pointer)
    if name is not None:
        return name
    if not node.pointer:
        return "root"
    tokens = node.pointer.split("/")[-2:]
    return "_".join(token.lstrip("$") for token in tokens if token)
