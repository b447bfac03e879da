"""Definitions whose checkers and walkers validators share, by the content of their closure.

The functions of one OpenAPI document (or one MCP server) each get a parameters schema
holding the ``$defs`` it reaches; written out per validator, a document of 1,000
operations compiled every shared definition up to 1,000 times. A definition is shared
instead when its closure (itself and every definition it reaches) is plain: a
``#/$defs/<name>`` of a root without ``$schema`` or ``$id``, reaching only other such
definitions, none on a ``$ref`` cycle (recursive ones keep per-call state in their
validator), with no ``$id``, anchor or dynamic reference inside.

``Closures(analysis)`` answers for one root schema: ``key(pointer)`` names the closure
by its content, a digest of the definition's name and canonical JSON and of the keys of
the definitions it points at (so equal keys are equal closures, and each definition is
encoded once per root however many closures hold it: the keys of a schema cost its
size); ``schema(pointer)`` is ``{"$defs": closure, "$ref": "#/$defs/<name>"}``. A
validator compiled from that schema is kept, weakly, by key, and its
``c_<name>``/``w_<name>`` serve every validator whose schema holds the same closure.
Pointers inside the closure read as they do in each sharing schema, so problems and
issues are the same as when the definition is written out.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from .._digraph import reachable
from ._analysis import Analysis

__all__ = ["Closures"]

_DEF = re.compile(r"/\$defs/([^/~]+)\Z")
_KEY = json.JSONEncoder(sort_keys=True, allow_nan=True, check_circular=False)
_SCOPED = ('"$id"', '"$anchor"', '"$dynamicAnchor"', '"$dynamicRef"', '"$schema"')
"""Keywords that change how a reference resolves: a closure holding one is not shared."""


class Closures:
    """The shareable definitions of one root schema, and the keys of their closures."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        root = analysis.root.schema
        plain = isinstance(root, Mapping) and "$schema" not in root and "$id" not in root
        defs = root.get("$defs") if plain else None
        self._defs: Mapping[str, Any] | None = defs if isinstance(defs, Mapping) else None
        self._keys: dict[str, str | None] = {}

    def key(self, pointer: str) -> str | None:
        """The key of the closure of the definition at ``pointer``; None when it is not
        shareable. Iterative (a chain of definitions may be hundreds long)."""
        keys = self._keys
        if pointer in keys:
            return keys[pointer]
        edges, texts = self.analysis.edges, dict[str, str]()
        todo = [pointer]
        while todo:
            current = todo[-1]
            if current in keys:
                todo.pop()
                continue
            if current not in texts:
                own = self._own(current)  # None for a definition on or near a cycle
                if own is None:
                    keys[current] = None
                    continue
                texts[current] = own
                todo.extend(target for target in edges.get(current, ()) if target not in keys)
                continue
            todo.pop()
            below = [keys[target] for target in edges.get(current, ())]
            found = [key for key in below if key is not None]
            keys[current] = (
                _digest(texts[current], sorted(found)) if len(found) == len(below) else None
            )
        return keys[pointer]

    def schema(self, pointer: str) -> dict[str, Any]:
        """The schema of the shareable definition at ``pointer``'s closure alone."""
        assert self._defs is not None
        names = {_name_at(found) for found in {pointer, *reachable(self.analysis.edges, pointer)}}
        schema: dict[str, Any] = {"$defs": {name: self._defs[name] for name in sorted(names)}}
        schema["$ref"] = f"#/$defs/{_name_at(pointer)}"
        return schema

    def leaves_first(self, pointer: str) -> list[str]:
        """The definitions the one at ``pointer`` reaches, each after every definition it
        reaches (none is on a cycle), so compiling them in order never compiles one
        inside another."""
        edges = self.analysis.edges
        order: list[str] = []
        placed = {pointer}
        todo = [(target, False) for target in sorted(edges.get(pointer, ()), reverse=True)]
        while todo:
            current, done = todo.pop()
            if done:
                if current not in placed:
                    placed.add(current)
                    order.append(current)
                continue
            if current in placed:
                continue
            todo.append((current, True))
            todo.extend((target, False) for target in sorted(edges.get(current, ()), reverse=True))
        return order

    def _own(self, pointer: str) -> str | None:
        """The canonical text of the definition at ``pointer`` with its name, when it may
        be shared (not on or near a cycle, nothing in it that scopes references)."""
        analysis, defs = self.analysis, self._defs
        match = _DEF.match(pointer)
        if (
            defs is None
            or match is None
            or pointer in analysis.reaching
            or pointer in analysis.recursive
            or match[1] not in defs
        ):
            return None
        try:
            text = _KEY.encode({match[1]: defs[match[1]]})
        except (TypeError, ValueError, RecursionError):
            return None
        return None if any(keyword in text for keyword in _SCOPED) else text


def _name_at(pointer: str) -> str:
    match = _DEF.match(pointer)
    assert match is not None
    return match[1]


def _digest(own: str, below: list[str]) -> str:
    """A closure's key: its definition's text and the keys of those it points at."""
    text = "\0".join((own, *below))
    return hashlib.blake2b(text.encode(), digest_size=20).hexdigest()
