"""Issue paths at an array's index, against ``f26a9cc`` (issue 33, twelfth round).

A walker now writes a path holding an index as an f-string (``f'{p}.a[{index}]'``), not
as a concatenation of ``str(index)``: the paths must be ``f26a9cc``'s under property
names an f-string or a literal could read otherwise (braces, quotes, backslashes, a
``$``, non-ASCII letters, a newline), at the root and under a ``$ref`` (a variable path),
in nested arrays, under a dict's keys and in a union's branch.
"""

from __future__ import annotations

from typing import Any

from tests.support import before
from tests.validate.test_resume10_before import judged_alike

BEFORE = "f26a9cc"
"""The commit before this round's changes."""

_NAMES = [
    "a{b}",
    "{",
    "}}",
    "{0}",
    "q'uote",
    'd"q',
    "back\\slash",
    "$x",
    "naïve",
    "new\nline",
    "%s",
]
"""Property names an f-string or a literal could misread."""

_INTS = {"type": "array", "items": {"type": "integer"}}
_NESTED = {"type": "array", "items": _INTS}


def _record(names: list[str], inner: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {name: inner for name in names},
        "additionalProperties": {"type": "array", "items": {"type": "boolean"}},
    }


SCHEMAS: dict[str, Any] = {
    "root": _record(_NAMES, _INTS),
    "nested": _record(_NAMES, _NESTED),
    "under a ref": {
        "type": "object",
        "properties": {
            "r": {"$ref": "#/$defs/R"},
            "s": {"type": "array", "items": {"$ref": "#/$defs/R"}},
        },
        "$defs": {"R": _record(_NAMES, _NESTED)},
    },
    "union": {"anyOf": [_record(_NAMES, _INTS), {"type": "null"}]},
}

_BAD: tuple[Any, ...] = ("x", 1.5, None, {"k": 1}, [1, "y"])


def _values() -> list[Any]:
    made: list[Any] = []
    for name in _NAMES:
        for bad in _BAD:
            made.append({name: [1, bad, 3, bad]})
            made.append({name: [[1], [bad, 2]]})
            made.append({"r": {name: [[bad]]}, "s": [{name: [[1, bad]]}, {}, {name: [bad]}]})
            made.append({name: [1], "{other}": [True, bad], "it's": [bad]})
    return made


def test_index_paths_are_f26a9ccs() -> None:
    before.require(BEFORE)
    entries = [(name, schema, _values()) for name, schema in SCHEMAS.items()]
    old = judged_alike(BEFORE, entries)
    paths = {path for name, _, _ in entries for _, issues in old[name] for path, *_ in issues}
    assert any("[" in path and "{" in path for path in paths)
    assert sum(1 for name, _, _ in entries for was in old[name] if not was[0]) > 500
