"""Which side owns each schema node: the LLM, a human, or both (then the node is split)."""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from llmapp.separate._shapes import Shape, children, ref_name, shape_of

__all__ = ["Classifier", "Kind", "SchemaPredicate"]

SchemaPredicate = Callable[[Mapping[str, Any]], bool]
"""``True`` when a human composes the value the schema describes."""


class Kind(enum.Enum):
    """Where a node's value comes from."""

    LLM = "llm"
    HUMAN = "human"
    BOTH = "both"


# (has_llm, has_human): the node reaches a value the LLM composes / a value a human composes.
_Reach = tuple[bool, bool]
_NOTHING: _Reach = (False, False)


class Classifier:
    """Answers ``kind(node)`` for the nodes of one parameters schema.

    A node is HUMAN when the predicate says so; otherwise a leaf (primitive, union,
    ``{}``, empty object, tuple) is LLM, and an object, array or reference reaches
    whatever its parts reach. Reaching is a least fixpoint over the ``$defs``
    (recursive defs start at "reaches nothing" and grow), so a recursive def whose
    every leaf is human is HUMAN rather than a split with an empty LLM half.
    A node that reaches nothing at all (a def that only refers to itself) is LLM.

    The predicate is asked once per node (memoised by identity), so a def is asked
    about once however many references point at it.
    """

    def __init__(self, defs: Mapping[str, Any], predicate: SchemaPredicate) -> None:
        self._defs = defs
        self._predicate = predicate
        self._asked: dict[int, bool] = {}
        self._table: dict[str, _Reach] = {}
        self._pending: list[str] = []
        self._kinds: dict[int, Kind] = {}
        self._users: dict[str, set[str]] = {}
        self._current: str | None = None

    def kind(self, node: Any) -> Kind:
        """LLM, HUMAN or BOTH for ``node`` (a schema inside the parameters being split)."""
        if not isinstance(node, Mapping):
            return Kind.LLM
        key = id(node)
        if key not in self._kinds:
            has_llm, has_human = self._reach(node)
            if self._pending:
                self._settle()
                has_llm, has_human = self._reach(node)
            if not has_human:
                self._kinds[key] = Kind.LLM
            else:
                self._kinds[key] = Kind.BOTH if has_llm else Kind.HUMAN
        return self._kinds[key]

    def _asks(self, node: Mapping[str, Any]) -> bool:
        key = id(node)
        if key not in self._asked:
            self._asked[key] = bool(self._predicate(node))
        return self._asked[key]

    def _reach(self, node: Any) -> _Reach:
        if not isinstance(node, Mapping):
            return (True, False)
        if self._asks(node):
            return (False, True)
        shape = shape_of(node, self._defs)
        if shape is Shape.REF:
            return self._def_reach(ref_name(node, self._defs) or "")
        parts = children(node, shape)
        if not parts:
            return (True, False)
        found = [self._reach(part) for part in parts]
        return (any(llm for llm, _ in found), any(human for _, human in found))

    def _def_reach(self, name: str) -> _Reach:
        if self._current is not None:
            self._users.setdefault(name, set()).add(self._current)
        if name not in self._table:
            if name not in self._pending:
                self._pending.append(name)
            return _NOTHING
        return self._table[name]

    def _settle(self) -> None:
        """Bring the defs seen so far to their least fixpoint (values only grow).

        A worklist: a def is evaluated again only when a def it refers to changed,
        so a long chain of defs settles in linear time.
        """
        work: deque[str] = deque()
        queued: set[str] = set()
        while self._pending or work:
            for name in self._pending:
                self._table[name] = _NOTHING
                work.append(name)
                queued.add(name)
            self._pending.clear()
            if not work:
                break
            name = work.popleft()
            queued.discard(name)
            self._current = name
            found = self._reach(self._defs[name])
            self._current = None
            if found != self._table[name]:
                self._table[name] = found
                for user in sorted(self._users.get(name, ())):
                    if user not in queued:
                        work.append(user)
                        queued.add(user)
