"""Which branch of a failed union to explain: the discriminator's, else the closest one.

At build time each branch gets a ``Branch`` shape (types, property names, required
names, closed or not, following ``$ref`` and ``allOf``). At run time, when no branch
matched, ``pick`` chooses the branch whose issues the model should see:

1. a discriminator (OpenAPI ``discriminator`` / ``x-discriminator``) names it;
2. else branches whose type fits the value; one left -> that one, unless it only lists
   values (``enum``/``const``) and the value is a scalar: its type fitting says nothing;
3. a scalar that several branches (or only such a listing) could take -> one issue with
   the union's text;
4. objects -> the branch whose declared and required keys best match the value's keys;
   still tied -> ``tie`` walks each and keeps the one with the fewest issues.

Where the value's JSON type alone decides (``settled``: no discriminator to read, one
branch or none for that type), the walker writes the answer into its code and asks
``pick`` only for the other types.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from llmapp._sentinels import MISSING
from llmapp.jsonschema import json_type, step

from ._result import UNDEFINED, ValidationIssue
from ._runtime import DepthExceeded

__all__ = ["Branch", "UnionInfo", "pick", "settled", "tie"]


# Slotted classes, not frozen dataclasses: ``pick`` reads their attributes for every
# union refused (slots read quickest), and a dataclass generates and compiles its methods
# when this module loads, on the way to the first validator of the process. They are
# never changed once made, and show in the source as a dataclass would.


class Branch:
    """What a union branch accepts, as far as choosing between branches goes.

    ``literal``: only listed values (``enum``/``const``), so its type fitting says little
    about the value.
    """

    __slots__ = ("closed", "literal", "properties", "required", "types")

    def __init__(
        self,
        types: frozenset[str] | None,
        properties: frozenset[str] = frozenset(),
        required: frozenset[str] = frozenset(),
        closed: bool = False,
        literal: bool = False,
    ) -> None:
        self.types = types
        self.properties = properties
        self.required = required
        self.closed = closed
        self.literal = literal

    def __repr__(self) -> str:
        return _repr(self, ("types", "properties", "required", "closed", "literal"))

    def accepts(self, kind: str | None) -> bool:
        if self.types is None:
            return True
        if kind is None:
            return False
        return kind in self.types or (kind == "integer" and "number" in self.types)

    def score(self, keys: frozenset[str]) -> int:
        score = len(keys & self.properties) - len(self.required - keys)
        if self.closed:
            score -= len(keys - self.properties)
        return score


class UnionInfo:
    """A union as the run-time chooser sees it."""

    __slots__ = ("branches", "by_kind", "discriminator", "expected", "tag_expected", "tags")

    def __init__(
        self,
        expected: str,
        branches: tuple[Branch, ...],
        discriminator: str | None = None,
        tags: Mapping[str, int] | None = None,
        tag_expected: str = "string",
    ) -> None:
        self.expected = expected
        self.branches = branches
        self.discriminator = discriminator
        self.tags = tags
        self.tag_expected = tag_expected
        self.by_kind: dict[str | None, tuple[int, ...]] = {}
        """The branches that accept each JSON type (``Branch.accepts``), filled as met."""

    def accepting(self, kind: str | None) -> tuple[int, ...]:
        """The indices of the branches that accept a value of JSON type ``kind``."""
        found = self.by_kind.get(kind)
        if found is None:
            branches = enumerate(self.branches)
            found = self.by_kind[kind] = tuple(i for i, b in branches if b.accepts(kind))
        return found

    def __repr__(self) -> str:
        fields = ("expected", "branches", "discriminator", "tags", "tag_expected")
        return _repr(self, fields)


def _repr(record: object, fields: tuple[str, ...]) -> str:
    shown = ", ".join(f"{name}={getattr(record, name)!r}" for name in fields)
    return f"{type(record).__name__}({shown})"


def pick(value: Any, path: str, errors: list[ValidationIssue], info: UnionInfo) -> Any:
    """The index of the branch to walk, a tuple of tied indices, or -1 when already reported."""
    tags = info.tags
    if tags and info.discriminator is not None and isinstance(value, dict):
        # The tag read here, not in a function of its own: its frame cost a refused
        # union more than the lookup.
        tag = value.get(info.discriminator, MISSING)
        if type(tag) is str or isinstance(tag, str):
            chosen = tags.get(tag)
            if chosen is not None:
                return chosen
        return _wrong_tag(tag, path, errors, info)
    kind = json_type(value)
    chosen = settled(info, kind)
    if chosen == -1:
        errors.append(ValidationIssue(path, info.expected, value))
    if chosen is not None:
        return chosen
    candidates: Sequence[int] = info.accepting(kind)
    if kind == "object":
        keys = frozenset(key for key in value if isinstance(key, str))
        scores = {index: info.branches[index].score(keys) for index in candidates}
        best = max(scores.values())
        candidates = [index for index in candidates if scores[index] == best]
    return candidates[0] if len(candidates) == 1 else tuple(candidates)


def settled(info: UnionInfo, kind: str | None) -> int | None:
    """What ``pick`` answers for any value of JSON type ``kind`` without reading more of
    it: the branch's index, -1 for one issue with the union's text (the caller appends
    it), or None when the value must be read (an object's discriminator or keys)."""
    if kind == "object" and info.discriminator is not None and info.tags:
        return None
    candidates = info.accepting(kind)
    scalar = kind not in ("object", "array")
    if len(candidates) == 1 and not (scalar and info.branches[candidates[0]].literal):
        return candidates[0]
    if not candidates or scalar:
        return -1
    return None


def _wrong_tag(tag: Any, path: str, errors: list[ValidationIssue], info: UnionInfo) -> int:
    """-1, the issue of a discriminator's ``tag`` that names no branch appended (``MISSING``:
    none given); the tag's path written only here, where an issue names it."""
    assert info.discriminator is not None
    where = path + step(info.discriminator)
    errors.append(ValidationIssue(where, info.tag_expected, UNDEFINED if tag is MISSING else tag))
    return -1


def tie(
    value: Any,
    path: str,
    errors: list[ValidationIssue],
    depth: int,
    candidates: Sequence[int],
    walkers: Sequence[Callable[[Any, str, list[ValidationIssue], int], None]],
) -> None:
    """Walk each tied branch aside and keep the issues of the one with the fewest."""
    best: list[ValidationIssue] | None = None
    for index in candidates:
        found: list[ValidationIssue] = []
        try:
            walkers[index](value, path, found, depth)
        except DepthExceeded:
            errors.extend(found)
            raise
        if best is None or len(found) < len(best):
            best = found
    errors.extend(best or ())
