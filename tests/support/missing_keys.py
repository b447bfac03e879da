"""Values lacking required keys, and the issues a validator gives them, for a differential.

``tests/validate/test_missing_ranked_before.py`` runs the validator of an earlier commit in
a process of its own (its ``src`` on the path) on the very values today's judges: the
values cross as JSON, the values JSON cannot carry as a spec that ``decode`` builds on
either side (a dict subclass, a mapping that is not a dict, keys and texts whose methods
raise ``KeyError``). Only the standard library and the validator are imported, so the
earlier tree runs it unchanged::

    PYTHONPATH=OLD/src:. python -m tests.support.missing_keys < cases.json
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import types
from collections.abc import Iterator
from typing import Any

WRONG: list[Any] = [None, True, 3, 2.5, "text", [], [{"wrong": True}], {"wrong": True}]
"""Wrong values put beside a missing key."""


def variants(data: Any, required: list[str], rnd: random.Random) -> Iterator[Any]:
    """``data`` and, for an object: each key missing, each pair missing, a key missing
    with an extra key, with a wrong value before and after it, each container cut short
    with a key missing, ``{}``, and the specs of ``decode`` (a dict subclass, a mapping
    that is not a dict, a key and a text raising ``KeyError``)."""
    yield data
    if not isinstance(data, dict):
        return
    keys = list(data)
    for at, key in enumerate(keys):
        left = {k: v for k, v in data.items() if k != key}
        yield left
        yield {**left, "extra": 1}
        for other in (keys[at - 1] if at else None, keys[at + 1] if at + 1 < len(keys) else None):
            if other is not None:
                yield {**left, other: rnd.choice(WRONG)}
        value = data[key]
        if isinstance(value, (list, dict)) and value and key != keys[0]:
            cut = value[:1] if isinstance(value, list) else dict(list(value.items())[:1])
            yield {k: v for k, v in data.items() if k != keys[0]} | {key: cut}
        yield {"__spec__": "subclass", "data": left}
        yield {"__spec__": "raising key", "data": left, "key": key}
        if at:  # the text before the missing key raises that key's name
            yield {"__spec__": "raising text", "data": left, "at": keys[at - 1], "raises": key}
    for pair in itertools.combinations(keys, 2):
        yield {k: v for k, v in data.items() if k not in pair}
    for name in required:
        yield {"__spec__": "raising text", "data": {}, "at": name, "raises": name}
    yield {"__spec__": "proxy", "data": data}
    yield {"__spec__": "copy raises", "data": data}
    yield {}


class _Subclass(dict):  # type: ignore[type-arg]
    """A dict whose own reads answer otherwise (``_as_dict`` copies it first)."""

    def __missing__(self, key: Any) -> Any:
        return None

    def get(self, key: Any, default: Any = None) -> Any:
        return None


class _CopyRaises(dict):  # type: ignore[type-arg]
    """A dict subclass whose copy raises ``KeyError`` (``dict()`` reads ``keys``)."""

    def keys(self) -> Any:
        raise KeyError("copy")

    def __repr__(self) -> str:
        return "CopyRaises()"


class _Key(str):
    """A key equal to its text by hash whose comparison raises ``KeyError`` of its text:
    the dict lookup of that very key raises, from a frame of its own."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        raise KeyError(sys.intern(str(self)))

    __hash__ = str.__hash__

    def __repr__(self) -> str:
        return f"Key({str(self)!r})"


class _Text(str):
    """A text whose hash and comparison raise ``KeyError`` naming a key (``raises``): a
    check that hashes it (an enum, a format) raises, from a frame of the text's own."""

    raises = ""

    def __hash__(self) -> int:
        raise KeyError(self.raises)

    def __eq__(self, other: object) -> bool:
        raise KeyError(self.raises)

    def __repr__(self) -> str:
        return f"Text({str(self)!r})"


def decode(value: Any) -> Any:
    """The value a spec of ``variants`` names (any other value as it is)."""
    if not (isinstance(value, dict) and "__spec__" in value):
        return value
    spec, data = value["__spec__"], value["data"]
    if spec == "subclass":
        return _Subclass(data)
    if spec == "proxy":
        return types.MappingProxyType(data)
    if spec == "copy raises":
        return _CopyRaises(data)
    if spec == "raising key":
        return {**data, _Key(value["key"]): 1}
    text = _Text(value["at"])
    text.raises = sys.intern(value["raises"])  # the very object a subscript's error holds
    return {**data, value["at"]: text}


def issues(check: Any, value: Any) -> list[list[Any]]:
    """The issues ``check`` gives ``value`` as JSON: path, expected, value's repr,
    description (empty for a valid value)."""
    answer = check(value)
    found = getattr(answer, "errors", None) or ()
    return [[i.path, i.expected, repr(i.value), i.description] for i in found]


def main() -> None:
    """Read ``[[schema, [value, ...]], ...]`` from stdin; write the issues of each value."""
    from llmapp.validate import validator

    cases = json.load(sys.stdin)
    answers = []
    for schema, values in cases:
        check = validator(schema)
        answers.append([issues(check, decode(value)) for value in values])
    json.dump(answers, sys.stdout)


if __name__ == "__main__":
    main()
